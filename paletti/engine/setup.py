"""Set-ups: where the 20 columns stand on the base and where blue lies on them.

A set-up is a JSON-able dict: {"columns": [{"id": 0-19, "x": mm, "z": mm}, ...],
"blue_x": mm}; (x, z) is the column's centre, (0, 0) the middle of the base, z its depth;
instead of "z" a column may name one of the page's three depth rows ("lane": 0-2). The
French record: all columns on the base, none in the forbidden zone, then blue laid
perfectly stable, resting on every column ("repose bien sur toutes les colonnes"); the
Danish and Polish texts add that it may not stick out beyond the base.
"""

import math
import random

from . import statics
from .pieces import (
    BASE_LENGTH,
    COLUMN_COLOURS,
    COLUMNS,
    FORBIDDEN_HALF_WIDTH,
    KIND_HEX,
    KIND_THICK,
    KIND_THIN,
    LANE_DEPTH,
    LANES,
    PLATFORM_LENGTHS,
)

# Columns of one lane must not touch at set-up (mm); they would wedge each other.
MIN_GAP = 1.0
# Blue's centre of mass must lie this far inside its supports to be "perfectly stable" (mm).
STABILITY_MARGIN = 10.0


class SetupError(ValueError):
    """A set-up that the rules refuse; `code` is machine-readable."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def _site_interval() -> tuple[float, float]:
    """Distances from the middle where a column may stand: outside the forbidden zone."""
    return FORBIDDEN_HALF_WIDTH, BASE_LENGTH / 2


# The usual arrangement (`default_setup`): five columns in each quarter of the base, at the
# same points mirrored across the width and the depth. The points of a quarter are also
# symmetric about its diagonal (a point (a, b) with (b, a), or on the diagonal), so blue's
# supports reach exactly as far in depth as across, column for column: no way is likelier
# for blue to tip than another (docs/paletti.md, the set-up rule).
# Points (x, z) in mm for the quarter at the back right; they are our own choice, as
# players put columns where they like outside the forbidden zone (French record).
QUARTER_POINTS = {
    KIND_THICK: ((80.0, 80.0),),
    KIND_HEX: ((52.0, 52.0),),
    KIND_THIN: ((85.0, 42.0), (42.0, 85.0), (33.0, 33.0)),
}
QUARTER_SIGNS = ((1, 1), (-1, 1), (-1, -1), (1, -1))


def default_setup() -> dict:
    """The set-up a match starts from unless it names another (the page's "usual places"):
    QUARTER_POINTS in each quarter, every column under blue, blue in the middle. Each
    quarter holds every colour (its thick column one colour, its hexagonal one another,
    its thin ones the three colours other than the thick one's), so every player's
    columns stand all round the villa."""
    by_colour = {colour: [c.id for c in COLUMNS if c.colour == colour] for colour in COLUMN_COLOURS}
    # In quarter q: the thick column of colour q, the hexagonal of colour q + 2, thin ones
    # of colours q + 1, q + 3 and q + 2 (mod 4): over the four quarters each colour gives
    # one thick, one hexagonal and three thin columns, its own five.
    wanted = {KIND_THICK: (0,), KIND_HEX: (2,), KIND_THIN: (1, 3, 2)}
    columns = []
    for quarter, (sx, sz) in enumerate(QUARTER_SIGNS):
        for kind, points in QUARTER_POINTS.items():
            for (x, z), shift in zip(points, wanted[kind], strict=True):
                colour = COLUMN_COLOURS[(quarter + shift) % len(COLUMN_COLOURS)]
                column_id = next(i for i in by_colour[colour] if COLUMNS[i].kind == kind)
                by_colour[colour].remove(column_id)
                columns.append({"id": column_id, "x": sx * x, "z": sz * z})
    columns.sort(key=lambda c: c["id"])
    return {"columns": columns, "blue_x": 0.0}


def random_setup(rng: random.Random) -> dict:
    """A legal set-up drawn from `rng`: each column at a point (x, z) of the base, anywhere
    under blue outside the forbidden zone (as players put them, not in rows), blue offset."""
    low, _ = _site_interval()
    half_blue = PLATFORM_LENGTHS[0] / 2
    for _ in range(1000):
        blue_x = round(rng.uniform(-5.0, 5.0), 1)
        # Wholly under blue (blue rests on every column, French record), whatever its offset.
        outer = half_blue - 5.0
        ids = list(range(len(COLUMNS)))
        rng.shuffle(ids)
        placed: list[tuple[int, float, float]] = []
        for column_id in ids:
            half = COLUMNS[column_id].width / 2
            for _ in range(200):
                x = rng.choice((-1, 1)) * rng.uniform(low + half, outer - half)
                z = rng.uniform(-(outer - half), outer - half)
                x, z = round(x, 1), round(z, 1)
                if all(_apart(column_id, x, z, other) for other in placed):
                    placed.append((column_id, x, z))
                    break
            else:
                break
        else:
            columns = [{"id": i, "x": x, "z": z} for i, x, z in sorted(placed)]
            setup = {"columns": columns, "blue_x": blue_x}
            try:
                validate_setup(setup)
            except SetupError:
                continue
            return setup
    raise RuntimeError("no random set-up found")  # pragma: no cover - 1000 tries suffice


def _apart(column_id: int, x: float, z: float, other: tuple[int, float, float]) -> bool:
    """Whether a column at (x, z) leaves MIN_GAP to `other` (id, x, z)."""
    other_id, ox, oz = other
    reach = (COLUMNS[column_id].width + COLUMNS[other_id].width) / 2 + MIN_GAP
    return (x - ox) ** 2 + (z - oz) ** 2 >= reach * reach


def _place_of(column: dict) -> tuple[int, float, float]:
    """(id, x, z) of a set-up column: a depth "z" in mm, or one of the three rows ("lane")."""
    column_id, x = int(column["id"]), float(column["x"])
    if "z" in column:
        z = float(column["z"])
        if not math.isfinite(z):
            raise ValueError("z")
        return column_id, x, z
    lane = int(column["lane"])
    if lane not in LANES:
        raise SetupError("bad_lane", f"Column {column_id} is in an unknown lane.")
    return column_id, x, LANE_DEPTH[lane]


def validate_setup(setup: dict) -> None:
    """Refuse a set-up the rules forbid, raising SetupError with a code and a reason."""
    try:
        columns = setup["columns"]
        blue_x = float(setup["blue_x"])
        entries = [_place_of(c) for c in columns]
    except SetupError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise SetupError("malformed", f"The set-up is malformed ({error}).") from error
    if not math.isfinite(blue_x) or any(not math.isfinite(x) for _, x, _ in entries):
        raise SetupError("malformed", "The set-up is malformed (a position is not a number).")
    if sorted(e[0] for e in entries) != list(range(len(COLUMNS))):
        raise SetupError("columns_missing", "All 20 columns must stand on the base, once each.")
    low, high = _site_interval()
    for column_id, x, z in entries:
        half = COLUMNS[column_id].width / 2
        if abs(x) + half > high or abs(z) + half > high:
            raise SetupError("off_site", f"Column {column_id} is not fully on the building site.")
        if abs(x) - half < low:
            raise SetupError("forbidden_zone", f"Column {column_id} stands in the forbidden zone.")
    for n, (a, xa, za) in enumerate(entries):
        for b, xb, zb in entries[n + 1 :]:
            if not _apart(a, xa, za, (b, xb, zb)):
                first, second = sorted((a, b))
                raise SetupError(
                    "columns_overlap", f"Columns {first} and {second} touch or overlap."
                )
    half_blue = PLATFORM_LENGTHS[0] / 2
    if abs(blue_x) + half_blue > BASE_LENGTH / 2:
        raise SetupError("blue_off_base", "The blue platform sticks out beyond the base.")
    # The French record: blue "repose bien sur toutes les colonnes", on every column.
    for column_id, x, z in entries:
        half = COLUMNS[column_id].width / 2
        if abs(x - blue_x) + half > half_blue or abs(z) + half > half_blue:
            raise SetupError(
                "not_under_blue", f"Column {column_id} is not under the blue platform."
            )
    # "Parfaitement stable": blue's centre lies well inside the area its columns' tops span,
    # across the width and the depth (the hull of their feet seen from above).
    feet = [p for i, x, z in entries for p in statics.disc(x, z, COLUMNS[i].width / 2)]
    inside, _ = statics.margin((blue_x, 0.0), statics.hull(feet))
    if inside < STABILITY_MARGIN:
        raise SetupError("blue_unstable", "The blue platform would not rest stably.")
