"""Hand-made set-ups for engine tests."""

from paletti.engine import COLUMNS
from paletti.engine.pieces import FORBIDDEN_HALF_WIDTH, LANES, PLATFORM_LENGTHS

# Five rows in depth under blue (mm from the middle): room for every column under blue.
ROWS = (-80.0, -40.0, 0.0, 40.0, 80.0)


def lopsided_setup(support_id: int | None = None) -> dict:
    """Blue shifted right (its centre at x = 20), resting on every column, as the set-up
    rule asks. With `support_id`, that column alone stands left of blue's centre of mass;
    every other column stands right of it, under blue's right part."""
    columns = [] if support_id is None else [{"id": support_id, "x": -40.0, "z": 0.0}]
    right = dict.fromkeys(ROWS, 26.0)
    for spec in sorted(COLUMNS, key=lambda c: c.width):
        if spec.id == support_id:
            continue
        row = min(right, key=right.get)
        columns.append({"id": spec.id, "x": right[row] + spec.width / 2, "z": row})
        right[row] += spec.width + 1.5
    return {"columns": columns, "blue_x": 20.0}


# Five points in each quarter under blue (mm from the middle), none in line with another.
QUARTER = ((42.0, 14.0), (74.0, 22.0), (52.0, 50.0), (84.0, 58.0), (60.0, 84.0))


def quarters_setup() -> dict:
    """Blue centred on its 20 columns, five in each quarter of the base."""
    slots = [(sx * x, sz * z) for sx in (1, -1) for sz in (1, -1) for x, z in QUARTER]
    columns = [{"id": spec.id, "x": x, "z": z} for spec, (x, z) in zip(COLUMNS, slots, strict=True)]
    return {"columns": columns, "blue_x": 0.0}


def rows_setup() -> dict:
    """Every column in the page's three depth rows ("lane" 0-2: 30 mm before the middle,
    the middle, 30 mm behind), spread evenly along each side of each row under blue,
    colours interleaved; blue centred: an arrangement in rows, which holds blue less firmly in
    depth than across."""
    half_blue = PLATFORM_LENGTHS[0] / 2
    order = sorted(range(len(COLUMNS)), key=lambda i: (i % 5, i // 5))
    slots: dict[tuple[int, int], list[int]] = {}
    keys = [(lane, side) for lane in LANES for side in (-1, 1)]
    for n, column_id in enumerate(order):
        slots.setdefault(keys[n % len(keys)], []).append(column_id)
    columns = []
    for (lane, side), ids in slots.items():
        widths = [COLUMNS[i].width for i in ids]
        gap = (half_blue - FORBIDDEN_HALF_WIDTH - sum(widths)) / (len(ids) + 1)
        position = FORBIDDEN_HALF_WIDTH + gap
        for column_id, width in zip(ids, widths, strict=True):
            x = side * (position + width / 2)
            columns.append({"id": column_id, "x": round(x, 1), "lane": lane})
            position += width + gap
    columns.sort(key=lambda c: c["id"])
    return {"columns": columns, "blue_x": 0.0}
