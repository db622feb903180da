"""A turn skipped for a player who ran out of time (the web layer's turn clock decides when;
the engine only knows what ending that seat's turn means in each phase).

No seed speaks of time. Our reading, closest to the rules' own ways of giving up: a player
who may pass passes; a protester asked to protest declines; a column touched or taken out
goes back as after an abort (locked under the French text: touching is a commitment); a
builder who could still move a column ends the turn without building, as a pass does. Where
the rules leave the seat a choice it alone must make (a colour taken before the first turn,
the Polish text's platform that must be laid), there is no skip: the seat can be handed to
a bot instead."""

from .building import HANDLERS as BUILDING
from .claims import HANDLERS as CLAIMS
from .claims import _turn_without_building
from .context import ActionContext
from .state import Context, Phase, Rules, event, refuse
from .turns import may_pass


def skip_kind(rules: Rules) -> str | None:
    """What skipping the seat to act does now: the action type it stands for ("pass",
    "decline", "abort", or "end_turn" for a turn ended without building), or None when
    the turn cannot be skipped."""
    phase = rules.phase
    if phase in (Phase.TOUCHED, Phase.HOLDING):
        return "abort"
    if phase in (Phase.CLAIM, Phase.NEUTRAL_PROTEST):
        return "decline"
    if may_pass(rules):
        return "pass"
    if phase in (Phase.MOVE, Phase.CHOOSE_COLOUR) and rules.context == Context.TURN:
        return "end_turn"
    return None


def _do_skip(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    kind = skip_kind(rules)
    if kind is None:
        refuse("no_skip", "This turn cannot be skipped now.")
    ctx.events.append(
        event(
            "turn_skipped",
            f"{rules.seats[seat].name} is out of time: the turn is skipped.",
            seat=seat,
        )
    )
    if kind == "abort":
        column = rules.touched if rules.phase == Phase.TOUCHED else rules.holding.column
        BUILDING["abort"](ctx, seat, {"type": "abort", "column": column})
    elif kind in ("decline", "pass"):
        CLAIMS[kind](ctx, seat, {"type": kind})
    else:
        _turn_without_building(ctx)


HANDLERS = {"skip": _do_skip}
