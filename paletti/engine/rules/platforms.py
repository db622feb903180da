"""Laying the next platform: where it may lie (on at least 3 columns, within the base)."""

import math
from collections.abc import Iterator

from .. import villa
from ..pieces import BASE_LENGTH, COLUMNS, PLATFORM_COLOURS, PLATFORM_LENGTHS
from ..villa import platform_key
from .context import Context, _collapse_event, _last_time, _need_phase, _scripted_frames
from .positions import POSITION_GRID
from .state import PHASE_LAY, Column, Rules, _event, _refuse, _top_columns
from .turns import _end_turn

# A laid platform must rest on at least 3 columns (French record).
MIN_PLATFORM_SUPPORTS = 3


def _lay_supports(rules: Rules, index: int, x: float, z: float) -> list[Column]:
    """The top level's columns wholly under a platform laid centred at (x, z)."""
    half = PLATFORM_LENGTHS[index] / 2
    out = []
    for column in _top_columns(rules):
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


def lay_candidates(rules: Rules) -> list[float]:
    """The listed centre positions (world x, mm, centred in depth on the platform below)
    where the next platform may be laid."""
    return list(_lay_positions(rules))


def _lay_positions(rules: Rules) -> Iterator[float]:
    index = rules.laid
    if index >= len(PLATFORM_COLOURS):
        return
    limit = BASE_LENGTH / 2 - PLATFORM_LENGTHS[index] / 2
    k_max = math.floor(limit / POSITION_GRID)
    for k in range(-k_max, k_max + 1):
        if lay_problem(rules, k * POSITION_GRID) is None:
            yield float(k * POSITION_GRID)


def _do_lay_platform(ctx: Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_LAY)
    x = float(action["x"])
    index = rules.laid
    z = float(action["z"]) if "z" in action else rules.platforms[index - 1].z
    problem = lay_problem(rules, x, z)
    if problem:
        _refuse(*problem)
    platform = rules.platforms[index]
    platform.update(x=x, z=z, laid_by=seat)
    rules.laid += 1
    villa.sync_rest(rules)
    if ctx.record:
        ctx.frames.extend(_scripted_frames(platform_key(index), platform.pose, platform.side))
    collapse = ctx.moved(villa.settle_after(rules, record=ctx.record, t0=_last_time(ctx.frames)))
    if collapse:
        _collapse_event(rules, collapse, seat, ctx.events)
        return
    ctx.events.append(
        _event(
            "platform_laid",
            f"The {PLATFORM_COLOURS[index]} platform is laid; the count for the seal starts again.",
            platform=PLATFORM_COLOURS[index],
        )
    )
    _end_turn(rules, ctx.events)
