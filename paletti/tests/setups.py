"""Hand-made set-ups for engine tests."""

from paletti.engine import COLUMNS


def lopsided_setup(support_id: int | None = None) -> dict:
    """Blue shifted right (its centre at x = 20). With `support_id`, that column alone
    stands left of blue's centre of mass; without, every column under blue stands right
    of it. The other columns stand beyond blue's left end or under its right part."""
    columns = [] if support_id is None else [{"id": support_id, "x": -40.0, "lane": 0}]
    left = dict.fromkeys((0, 1, 2), -120.0)
    right = dict.fromkeys((0, 1, 2), 26.0)
    for spec in sorted(COLUMNS, key=lambda c: c.width):
        if spec.id == support_id:
            continue
        lane = min(left, key=left.get)
        # Out beyond blue's left end (at -80), not touching it.
        if left[lane] + spec.width < -81.0:
            columns.append({"id": spec.id, "x": left[lane] + spec.width / 2, "lane": lane})
            left[lane] += spec.width + 1.5
            continue
        lane = min(right, key=right.get)
        columns.append({"id": spec.id, "x": right[lane] + spec.width / 2, "lane": lane})
        right[lane] += spec.width + 1.5
    return {"columns": columns, "blue_x": 20.0}
