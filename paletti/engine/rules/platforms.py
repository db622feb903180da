"""Laying the next platform (where it may lie: lays.py)."""

from .. import villa
from ..pieces import PLATFORM_COLOURS
from ..villa import platform_key
from .context import ActionContext, _collapse_event, _last_time, _need_phase, _scripted_frames
from .lays import lay_problem
from .state import Phase, _event, _refuse
from .turns import _end_turn


def _do_lay_platform(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, Phase.LAY)
    x = float(action["x"])
    index = rules.laid
    z = float(action["z"]) if "z" in action else rules.platforms[index - 1].z
    problem = lay_problem(rules, x, z)
    if problem:
        _refuse(*problem)
    platform = rules.platforms[index]
    platform.x = x
    platform.z = z
    platform.laid_by = seat
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
