"""Laying the next platform (where it may lie: lays.py)."""

from .. import villa
from ..pieces import PLATFORM_COLOURS
from ..villa import platform_key
from .context import ActionContext, collapse_event, last_time, need_phase, scripted_frames
from .lays import lay_problem
from .state import Phase, event, refuse
from .turns import end_turn


def _do_lay_platform(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    need_phase(rules, Phase.LAY)
    x = float(action["x"])
    index = rules.laid
    z = float(action["z"]) if "z" in action else rules.platforms[index - 1].z
    problem = lay_problem(rules, x, z)
    if problem:
        refuse(*problem)
    platform = rules.platforms[index]
    platform.x = x
    platform.z = z
    platform.laid_by = seat
    if len(rules.seats) == 2:
        # The colour the claimant played when claiming (none chosen: both are barred).
        platform.laid_colour = rules.turn_colour
    rules.laid += 1
    villa.sync_rest(rules)
    if ctx.record:
        ctx.frames.extend(scripted_frames(platform_key(index), platform.pose, platform.side))
    collapse = ctx.moved(villa.settle_after(rules, record=ctx.record, t0=last_time(ctx.frames)))
    if collapse:
        collapse_event(rules, collapse, seat, ctx.events)
        return
    ctx.events.append(
        event(
            "platform_laid",
            f"The {PLATFORM_COLOURS[index]} platform is laid; the count for the seal starts again.",
            platform=PLATFORM_COLOURS[index],
        )
    )
    end_turn(rules, ctx.events)


# The action that lays a platform, by type (play.py).
HANDLERS = {
    "lay_platform": _do_lay_platform,
}
