"""Where a column may be set on the top platform (rules 3 and 8), and where it came to rest."""

import math
from collections.abc import Iterator

from .. import villa
from ..pieces import COLUMNS, LANE_DEPTH, LANES, PLATFORM_LENGTHS, RED
from .state import Column, Rules, top_columns, top_index

# Grid of the discrete positions listed in legal_actions (mm); any x inside the legal
# interval is accepted when an action is applied.
POSITION_GRID = 5.0


# Clearance between columns of one lane on a platform (mm), so a placed column is not set
# into its neighbour.
PLACEMENT_CLEARANCE = 0.5


def placement_range(rules: Rules, column_id: int) -> tuple[float, float]:
    """Interval of x or z (from the top platform's centre, mm) keeping a column fully on
    top; the platforms are square, so it is the same across the width and the depth."""
    half = PLATFORM_LENGTHS[top_index(rules)] / 2 - COLUMNS[column_id].width / 2
    return -half, half


def _neighbours(rules: Rules, column_id: int) -> list[tuple[Column, float]]:
    """The top level's other columns, each with the distance (mm) from its centre within
    which a column `column_id` would touch its foot."""
    r = COLUMNS[column_id].width / 2
    return [
        (column, r + COLUMNS[column.id].width / 2 + PLACEMENT_CLEARANCE)
        for column in top_columns(rules)
        if column.id != column_id
    ]


def _overlapped(rules: Rules, column_id: int, x: float, z: float) -> list[Column]:
    """The top level's columns whose feet a column set at (x, z) from the top platform's
    centre would touch."""
    platform = rules.platforms[top_index(rules)]
    wx, wz = platform.x + x, platform.z + z
    return [
        column
        for column, reach in _neighbours(rules, column_id)
        if (column.x - wx) ** 2 + (column.z - wz) ** 2 < reach * reach
    ]


def stack_top(rules: Rules, column_id: int, x: float, z: float) -> int | None:
    """On red, the column a column set at (x, z) would stand on: the top of the highest
    stack it touches (None: on the platform)."""
    touched = _overlapped(rules, column_id, x, z)
    if not touched:
        return None
    carriers = {c.on for c in rules.columns if c.in_play and c.on is not None}
    tops = [c for c in touched if c.id not in carriers]
    pool = tops or touched
    return max(pool, key=lambda c: (villa.column_bottom(rules, c), -c.id)).id


def placement_problem(rules: Rules, column_id: int, x: float, z: float) -> tuple | None:
    """Why a column may not be placed at (x, z) from the top platform's centre, or None."""
    low, high = placement_range(rules, column_id)
    if not (low - 1e-9 <= x <= high + 1e-9 and low - 1e-9 <= z <= high + 1e-9):
        return "off_platform", "No column may stand half off the platform."
    if top_index(rules) != RED and _overlapped(rules, column_id, x, z):
        return "on_column", "A column may stand on another column only on the red platform."
    return None


def placement_area(rules: Rules, column_id: int) -> dict:
    """Every (x, z) from the top platform's centre where a column may be set, as
    legal_actions lists it: the square `x` and `z` intervals (rule 3, no column half off),
    minus, below red, the discs `outside` around the top level's columns (rule 8: a point
    is accepted when its distance to each disc's centre is at least its `r`). `grid` is
    the step the page and the bots sample it at; any point of the area is accepted."""
    low, high = placement_range(rules, column_id)
    outside = []
    if top_index(rules) != RED:
        platform = rules.platforms[top_index(rules)]
        for column, reach in _neighbours(rules, column_id):
            outside.append({"x": column.x - platform.x, "z": column.z - platform.z, "r": reach})
    return {"x": [low, high], "z": [low, high], "outside": outside, "grid": POSITION_GRID}


def in_area(area: dict, x: float, z: float) -> bool:
    """Whether (x, z) lies in a placement area as legal_actions lists it."""
    (low, high), (z_low, z_high) = area["x"], area["z"]
    return (
        low <= x <= high
        and z_low <= z <= z_high
        and all((d["x"] - x) ** 2 + (d["z"] - z) ** 2 >= d["r"] ** 2 for d in area["outside"])
    )


def placement_spots(listed: dict) -> list[dict]:
    """A listed placement (legal_actions) as postable actions: its area's points every
    `grid` mm across, in the page's three depth rows, row by row; for a client that wants
    points (a bench, a test), as the page samples the area."""
    area = listed["area"]
    aim = {key: value for key, value in listed.items() if key != "area"}
    (low, high), (z_low, z_high), grid = area["x"], area["z"], area["grid"]
    spots = []
    for lane in LANES:
        z = max(z_low, min(z_high, LANE_DEPTH[lane]))
        for k in range(math.ceil(low / grid), math.floor(high / grid) + 1):
            if in_area(area, float(k * grid), z):
                spots.append({**aim, "x": float(k * grid), "z": z})
    return spots


def placement_candidates(rules: Rules, column_id: int) -> list[tuple[float, float]]:
    """A sample of the area, (x, z): every POSITION_GRID mm across the width and the depth
    of the top platform, as a hand may set a column anywhere on it (the bots' spots; any
    other legal (x, z) is accepted as well)."""
    return list(_placements(rules, column_id))


def room_for(rules: Rules, column_id: int) -> bool:
    """Whether the column could be set somewhere on the top platform (rule 8: not on
    another column below red), at one of the sampled spots."""
    return next(_placements(rules, column_id), None) is not None


def _placements(rules: Rules, column_id: int) -> Iterator[tuple[float, float]]:
    """The sampled spots where placement_problem finds nothing wrong: every grid point lies
    on the platform, so only rule 8 is checked, against the neighbours found once."""
    low, high = placement_range(rules, column_id)
    steps = [
        float(k * POSITION_GRID)
        for k in range(math.ceil(low / POSITION_GRID), math.floor(high / POSITION_GRID) + 1)
    ]
    neighbours = [] if top_index(rules) == RED else _neighbours(rules, column_id)
    if not neighbours:
        for z in steps:
            for x in steps:
                yield x, z
        return
    platform = rules.platforms[top_index(rules)]
    for z in steps:
        wz = platform.z + z
        for x in steps:
            wx = platform.x + x
            if not any(
                (column.x - wx) ** 2 + (column.z - wz) ** 2 < reach * reach
                for column, reach in neighbours
            ):
                yield x, z


# How far a set-down column may end beyond the platform's end, or above its top, before it
# counts as half off the platform (rule 3) or standing on another column (rule 8), in mm.
RESTING_TOLERANCE = 1.0


def resting_problem(rules: Rules, column_id: int) -> tuple | None:
    """Whether a column, where it came to rest on the top platform, breaks rule 3 (half off
    the platform) or rule 8 (on another column, below red): the aim is checked before the
    placement, this checks where the hand actually put it."""
    top = top_index(rules)
    platform = rules.platforms[top]
    column = rules.columns[column_id]
    half = PLATFORM_LENGTHS[top] / 2 - COLUMNS[column_id].width / 2 + RESTING_TOLERANCE
    if abs(column.x - platform.x) > half or abs(column.z - platform.z) > half:
        return "off_platform", "The column came to rest half off the platform."
    if top != RED:
        x, z = column.x - platform.x, column.z - platform.z
        if _overlapped(rules, column_id, x, z):
            return "on_column", "The column came to rest against another column."
    return None
