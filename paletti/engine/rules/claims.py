"""Claims and protests: asking for a platform, protesting or declining, the penalty after a
failed protest, the Polish reward after a successful one, and passing."""

from .. import villa
from ..hands import PULL_SPEED_DEFAULT
from ..pieces import PLATFORM_COLOURS, Where
from ..villa import column_key
from .context import (
    FRAME_TIME,
    ActionContext,
    _collapse_event,
    _gesture,
    _last_time,
    _need_phase,
)
from .lays import lay_possible
from .state import (
    Claim,
    Context,
    Phase,
    Rules,
    _event,
    _in_play,
    _polish_protest,
    _refuse,
    _seat_colours_of,
)
from .turns import _end_turn, _may_pass, _own_step, _protest_possible


def _protest_succeeded(ctx: ActionContext, column_id: int) -> None:
    rules = ctx.rules
    if _polish_protest(rules):
        # Polish text: the column stays where the protester put it, no platform is laid,
        # and the protester may remove any column from the game as a reward.
        protester = rules.claim.protester
        ctx.events.append(
            _event(
                "protest_rewarded",
                "The protest succeeds: no platform is laid, and the protester may remove "
                "any column from the game.",
                seat=protester,
            )
        )
        rules.phase = Phase.REWARD
        rules.to_act = protester
        rules.context = Context.TURN
        return
    rules.columns[column_id].leave(Where.OUT)
    if ctx.record:
        key = column_key(column_id)
        ctx.frames.append(
            {
                "t": round(_last_time(ctx.frames) + FRAME_TIME, 3),
                "poses": {key: None},
                "side": {key: None},
            }
        )
    # Lifting a column off the top takes weight off it; the statics still decide.
    collapse = ctx.moved(villa.settle_after(rules, record=ctx.record, t0=_last_time(ctx.frames)))
    ctx.events.append(
        _event(
            "protest_succeeded",
            "The protest succeeds: the column is removed from the game and no platform is laid.",
            column=column_id,
        )
    )
    if collapse:
        _collapse_event(rules, collapse, rules.to_act, ctx.events)
        return
    _end_turn(rules, ctx.events)


def _protest_failed(ctx: ActionContext) -> None:
    rules = ctx.rules
    claim = rules.claim
    ctx.events.append(
        _event(
            "protest_failed",
            "The protest fails: the claimant removes one of the protester's columns.",
            protester=claim.protester,
        )
    )
    protester_colours = _seat_colours_of(rules, claim.protester)
    if any(_in_play(c) and c.colour in protester_colours for c in rules.columns):
        rules.phase = Phase.PENALTY
        rules.to_act = claim.claimant
        rules.context = Context.TURN
    elif _polish_protest(rules):
        _end_turn(rules, ctx.events)  # no lay after an objection (Polish text)
    else:
        rules.phase = Phase.LAY
        rules.to_act = claim.claimant
        rules.context = Context.TURN


def _do_ask_platform(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, Phase.MOVE, Phase.CHOOSE_COLOUR)
    if rules.context != Context.TURN:
        _refuse("wrong_phase", "Only the builder may ask for a new platform.")
    if rules.laid >= len(PLATFORM_COLOURS):
        _refuse("no_platform_left", "All five platforms are already laid.")
    n = len(rules.seats)
    others = [(seat + k) % n for k in range(1, n)]
    rules.phase = Phase.CLAIM
    rules.claim = Claim(claimant=seat, asked=others)
    rules.to_act = others[0]
    ctx.events.append(
        _event(
            "platform_asked",
            f"{rules.seats[seat].name} asks to lay a new platform.",
            seat=seat,
        )
    )


def _do_protest(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, Phase.CLAIM, Phase.NEUTRAL_PROTEST)
    if not _protest_possible(rules, seat):
        _refuse("cannot_protest", "You have no column you could move to prove your protest.")
    name = rules.seats[seat].name
    if rules.phase == Phase.CLAIM:
        rules.claim.protester = seat
        rules.claim.asked = []
        rules.phase = Phase.MOVE
        rules.context = Context.CLAIM_PROTEST
        rules.to_act = seat
        text = f"{name} protests and must move one of the claimant's columns to the top."
    else:
        rules.neutral_protest.protester = seat
        rules.neutral_protest.asked = []
        rules.phase = Phase.MOVE
        rules.context = Context.NEUTRAL_PROTEST
        rules.to_act = seat
        text = f"{name} protests and must move a neutral column to the top."
    ctx.events.append(_event("protest", text, seat=seat))


def _do_decline(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, Phase.CLAIM, Phase.NEUTRAL_PROTEST)
    answering = rules.claim if rules.phase == Phase.CLAIM else rules.neutral_protest
    asked = answering.asked
    asked.pop(0)
    if asked:
        rules.to_act = asked[0]
        return
    if rules.phase == Phase.CLAIM:
        rules.phase = Phase.LAY
        rules.to_act = rules.claim.claimant
        ctx.events.append(
            _event("claim_unchallenged", "Nobody protests: the new platform may be laid.")
        )
    else:
        ctx.events.append(
            _event("neutral_unchallenged", "Nobody protests: the builder moves their own column.")
        )
        _own_step(rules, ctx.events)


def _removable(rules: Rules) -> list[int]:
    """Columns that may be removed from the game now: after a failed protest, the
    protester's; as the Polish text's reward for a successful protest, any in play."""
    if rules.phase == Phase.REWARD:
        return [c.id for c in rules.columns if _in_play(c)]
    colours = _seat_colours_of(rules, rules.claim.protester)
    return [c.id for c in rules.columns if _in_play(c) and c.colour in colours]


def _do_remove_column(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, Phase.PENALTY, Phase.REWARD)
    column_id = action["column"]
    column = rules.columns[column_id]
    if column_id not in _removable(rules):
        if rules.phase == Phase.REWARD:
            _refuse("column_out", "That column is out of the game.")
        _refuse("not_protesters_column", "Remove one of the protester's columns still in play.")
    gesture = _gesture(action, PULL_SPEED_DEFAULT)
    collapse = ctx.moved(villa.pull(rules, column_id, gesture, ctx.hand(), record=ctx.record))
    column.leave(Where.OUT)
    ctx.events.append(
        _event("column_removed", "The column is removed from the game.", column=column_id)
    )
    if collapse:
        _collapse_event(rules, collapse, seat, ctx.events)
        return
    if rules.phase == Phase.REWARD:
        _end_turn(rules, ctx.events)
        return
    if _polish_protest(rules):
        # Polish text: the platform is laid only if nobody objects ("Jeśli nie ma żadnych
        # zastrzeżeń"); after a failed protest the penalty ends the claimant's turn.
        _end_turn(rules, ctx.events)
        return
    rules.phase = Phase.LAY
    rules.to_act = rules.claim.claimant


def _do_pass(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    if not _may_pass(rules):
        if rules.phase in (Phase.MOVE, Phase.CHOOSE_COLOUR):
            _refuse("must_act", "You can still move a column; passing is not allowed.")
        _refuse("wrong_phase", f"That action is not possible now (phase: {rules.phase}).")
    name = rules.seats[seat].name
    phase = rules.phase
    if phase == Phase.PENALTY:
        ctx.events.append(
            _event(
                "penalty_waived",
                f"{name} removes none of the protester's columns.",
                seat=seat,
            )
        )
        rules.phase = Phase.LAY
        return
    if phase == Phase.REWARD:
        ctx.events.append(
            _event("reward_waived", f"{name} removes no column from the game.", seat=seat)
        )
        _end_turn(rules, ctx.events)
        return
    if phase == Phase.LAY:
        if lay_possible(rules):
            event = _event(
                "platform_declined", f"{name} decides not to lay the new platform.", seat=seat
            )
        else:
            event = _event(
                "platform_impossible",
                "The platform cannot rest on 3 columns: the turn passes.",
                seat=seat,
            )
        ctx.events.append(event)
        _turn_without_building(ctx)
        return
    ctx.events.append(
        _event("passed", f"{name} passes rather than ask for a new platform.", seat=seat)
    )
    _turn_without_building(ctx)


def _turn_without_building(ctx: ActionContext) -> None:
    """The turn ends with nothing built by the builder: a pass. Passes never end the game
    by themselves: it ends when nobody can place a column or a platform on the top level
    (French record D, "ne peut": turns.can_build), which the next turn's start checks.
    `passes` counts the turns in a row without a build, for the bots and the page. A turn
    whose neutral step moved a column (3 players) built something: it is no pass."""
    rules = ctx.rules
    if rules.built:
        _end_turn(rules, ctx.events)
        return
    rules.passes += 1
    _end_turn(rules, ctx.events, passed=True)
