"""Where the next platform may lie: on at least 3 columns of the top level, within the
base. Geometry only, so that the turns can ask whether a platform can still be laid."""

import math
from collections.abc import Iterator

from ..pieces import BASE_LENGTH, COLUMNS, PLATFORM_COLOURS, PLATFORM_LENGTHS
from .state import Column, Rules, top_columns

# A laid platform must rest on at least 3 columns (French record).
MIN_PLATFORM_SUPPORTS = 3
# Grid of the lay positions legal_actions lists (mm, both ways from the middle of the base):
# twice the placements' grid, as a 2-D list every 5 mm would run to 361 positions (about
# 21 kB, three times the rest of the state) where this one lists at most about 100. Any
# other position lay_problem accepts is accepted as well.
LAY_GRID = 10.0


def _lay_supports(rules: Rules, index: int, x: float, z: float) -> list[Column]:
    """The top level's columns wholly under a platform laid centred at (x, z)."""
    half = PLATFORM_LENGTHS[index] / 2
    out = []
    for column in top_columns(rules):
        if column.on is not None:
            continue
        r = COLUMNS[column.id].width / 2
        if abs(column.x - x) + r <= half and abs(column.z - z) + r <= half:
            out.append(column)
    return out


def lay_problem(rules: Rules, x: float, z: float | None = None) -> tuple | None:
    """Why the next platform may not be laid centred at world (x, z), or None (z: by
    default, centred in depth on the platform below)."""
    index = rules.laid
    if index >= len(PLATFORM_COLOURS):
        return "no_platform_left", "All five platforms are already laid."
    if z is None:
        z = rules.platforms[index - 1].z
    half = PLATFORM_LENGTHS[index] / 2
    if abs(x) + half > BASE_LENGTH / 2 + 1e-9 or abs(z) + half > BASE_LENGTH / 2 + 1e-9:
        return "platform_off_base", "Every platform must stay within the base."
    if len(_lay_supports(rules, index, x, z)) < MIN_PLATFORM_SUPPORTS:
        return "too_few_supports", "A new platform must rest on at least 3 columns."
    return None


def lay_candidates(rules: Rules) -> list[tuple[float, float]]:
    """The listed centre positions (world x, z, mm) where the next platform may be laid:
    every LAY_GRID mm across the width and in depth, from the middle of the base,
    row by row from the front (the French record: the new platform "peut maintenant être
    décalé par rapport à la base", and the villa is square, so either way). Any other
    (x, z) that lay_problem accepts is accepted as well."""
    return list(_lay_positions(rules))


def lay_possible(rules: Rules) -> bool:
    """Whether the next platform can be laid at one of the listed positions at all."""
    return next(_lay_positions(rules), None) is not None


def _lay_positions(rules: Rules) -> Iterator[tuple[float, float]]:
    index = rules.laid
    if index >= len(PLATFORM_COLOURS):
        return
    half = PLATFORM_LENGTHS[index] / 2
    limit = BASE_LENGTH / 2 - half
    # Only where the platform could reach a column of the top level: each support must
    # lie wholly under it (_lay_supports), so its centre is within half - r of theirs.
    feet = [
        (column.x, column.z, half - COLUMNS[column.id].width / 2)
        for column in top_columns(rules)
        if column.on is None
    ]
    if len(feet) < MIN_PLATFORM_SUPPORTS:
        return
    lows = [max(-limit, min(f[axis] - f[2] for f in feet)) for axis in (0, 1)]
    highs = [min(limit, max(f[axis] + f[2] for f in feet)) for axis in (0, 1)]
    ks = [
        range(math.ceil(lows[axis] / LAY_GRID), math.floor(highs[axis] / LAY_GRID) + 1)
        for axis in (0, 1)
    ]
    for kz in ks[1]:
        z = float(kz * LAY_GRID)
        for kx in ks[0]:
            x = float(kx * LAY_GRID)
            if lay_problem(rules, x, z) is None:
                yield x, z
