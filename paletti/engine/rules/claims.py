"""Claims and protests: asking for a platform, protesting or declining, the penalty after a
failed protest, the Polish reward after a successful one, and passing."""

from .. import villa
from ..hands import PULL_SPEED_DEFAULT
from ..pieces import PLATFORM_COLOURS, Where
from ..villa import column_key
from .context import (
    FRAME_TIME,
    ActionContext,
    collapse_event,
    gesture_from,
    last_time,
    need_phase,
)
from .lays import lay_possible
from .state import (
    Claim,
    Context,
    Phase,
    Rules,
    colours_of,
    event,
    polish_protest,
    refuse,
    top_columns,
)
from .turns import end_turn, may_pass, own_step, protest_possible


def protest_succeeded(ctx: ActionContext, column_id: int) -> None:
    """The protester placed one of the claimant's columns (the Polish text: any column from
    under the top platform): the claim was wrong. French record: the column leaves the game,
    no platform is laid and the turn passes; Polish text: the protester's reward."""
    rules = ctx.rules
    if polish_protest(rules):
        # Polish text: the column stays where the protester put it, no platform is laid,
        # and the protester may remove any column from the game as a reward.
        protester = rules.claim.protester
        ctx.events.append(
            event(
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
                "t": round(last_time(ctx.frames) + FRAME_TIME, 3),
                "poses": {key: None},
                "side": {key: None},
            }
        )
    # Lifting a column off the top takes weight off it; the statics still decide.
    collapse = ctx.moved(villa.settle_after(rules, record=ctx.record, t0=last_time(ctx.frames)))
    ctx.events.append(
        event(
            "protest_succeeded",
            "The protest succeeds: the column is removed from the game and no platform is laid.",
            column=column_id,
        )
    )
    if collapse:
        collapse_event(rules, collapse, rules.to_act, ctx.events)
        return
    end_turn(rules, ctx.events)


def protest_failed(ctx: ActionContext) -> None:
    """The protester put the column back: the claim stands. The claimant removes one of
    the protester's columns, if one is left (the penalty), and may then lay the platform
    (French record; the Polish text lays none after an objection)."""
    rules = ctx.rules
    claim = rules.claim
    ctx.events.append(
        event(
            "protest_failed",
            "The protest fails: the claimant removes one of the protester's columns.",
            protester=claim.protester,
        )
    )
    protester_colours = colours_of(rules, claim.protester)
    if any(c.in_play and c.colour in protester_colours for c in rules.columns):
        rules.phase = Phase.PENALTY
        rules.to_act = claim.claimant
        rules.context = Context.TURN
    elif polish_protest(rules):
        end_turn(rules, ctx.events)  # no lay after an objection (Polish text)
    else:
        rules.phase = Phase.LAY
        rules.to_act = claim.claimant
        rules.context = Context.TURN


def _do_ask_platform(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    need_phase(rules, Phase.MOVE, Phase.CHOOSE_COLOUR)
    if rules.context != Context.TURN:
        refuse("wrong_phase", "Only the builder may ask for a new platform.")
    if rules.laid >= len(PLATFORM_COLOURS):
        refuse("no_platform_left", "All five platforms are already laid.")
    n = len(rules.seats)
    if n == 2 and rules.turn_colour is None:
        # Two players play one of their colours each turn (Danish text); a claim made
        # before choosing is made in the colour with fewer points on the top level (the
        # first of the two if equal): our reading. The colour matters: it may not go on
        # the platform the claim lays (turns._barred_colours).
        points = dict.fromkeys(colours_of(rules, seat), 0)
        for column in top_columns(rules):
            if column.colour in points:
                points[column.colour] += column.value
        rules.turn_colour = min(points, key=lambda colour: points[colour])
        ctx.events.append(
            event(
                "colour_chosen",
                f"Playing {rules.turn_colour} this turn.",
                colour=rules.turn_colour,
            )
        )
    others = [(seat + k) % n for k in range(1, n)]
    rules.phase = Phase.CLAIM
    rules.claim = Claim(claimant=seat, asked=others)
    rules.to_act = others[0]
    ctx.events.append(
        event(
            "platform_asked",
            f"{rules.seats[seat].name} asks to lay a new platform.",
            seat=seat,
        )
    )


def _do_protest(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    need_phase(rules, Phase.CLAIM, Phase.NEUTRAL_PROTEST)
    if not protest_possible(rules, seat):
        refuse("cannot_protest", "You have no column you could move to prove your protest.")
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
    ctx.events.append(event("protest", text, seat=seat))


def _do_decline(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    need_phase(rules, Phase.CLAIM, Phase.NEUTRAL_PROTEST)
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
            event("claim_unchallenged", "Nobody protests: the new platform may be laid.")
        )
    else:
        ctx.events.append(
            event("neutral_unchallenged", "Nobody protests: the builder moves their own column.")
        )
        own_step(rules, ctx.events)


def removable(rules: Rules) -> list[int]:
    """Columns that may be removed from the game now: after a failed protest, the
    protester's; as the Polish text's reward for a successful protest, any in play."""
    if rules.phase == Phase.REWARD:
        return [c.id for c in rules.columns if c.in_play]
    colours = colours_of(rules, rules.claim.protester)
    return [c.id for c in rules.columns if c.in_play and c.colour in colours]


def _do_remove_column(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    need_phase(rules, Phase.PENALTY, Phase.REWARD)
    column_id = action["column"]
    column = rules.columns[column_id]
    if column_id not in removable(rules):
        if rules.phase == Phase.REWARD:
            refuse("column_out", "That column is out of the game.")
        refuse("not_protesters_column", "Remove one of the protester's columns still in play.")
    gesture = gesture_from(action, PULL_SPEED_DEFAULT)
    collapse = ctx.moved(villa.pull(rules, column_id, gesture, ctx.hand(), record=ctx.record))
    column.leave(Where.OUT)
    ctx.events.append(
        event("column_removed", "The column is removed from the game.", column=column_id)
    )
    if collapse:
        collapse_event(rules, collapse, seat, ctx.events)
        return
    if rules.phase == Phase.REWARD:
        end_turn(rules, ctx.events)
        return
    if polish_protest(rules):
        # Polish text: the platform is laid only if nobody objects ("Jeśli nie ma żadnych
        # zastrzeżeń"); after a failed protest the penalty ends the claimant's turn.
        end_turn(rules, ctx.events)
        return
    rules.phase = Phase.LAY
    rules.to_act = rules.claim.claimant


def _do_pass(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    if not may_pass(rules):
        if rules.phase in (Phase.MOVE, Phase.CHOOSE_COLOUR):
            refuse("must_act", "You can still move a column; passing is not allowed.")
        refuse("wrong_phase", f"That action is not possible now (phase: {rules.phase}).")
    name = rules.seats[seat].name
    phase = rules.phase
    if phase == Phase.PENALTY:
        ctx.events.append(
            event(
                "penalty_waived",
                f"{name} removes none of the protester's columns.",
                seat=seat,
            )
        )
        rules.phase = Phase.LAY
        return
    if phase == Phase.REWARD:
        ctx.events.append(
            event("reward_waived", f"{name} removes no column from the game.", seat=seat)
        )
        end_turn(rules, ctx.events)
        return
    if phase == Phase.LAY:
        if lay_possible(rules):
            told = event(
                "platform_declined", f"{name} decides not to lay the new platform.", seat=seat
            )
        else:
            told = event(
                "platform_impossible",
                "The platform cannot rest on 3 columns: the turn passes.",
                seat=seat,
            )
        ctx.events.append(told)
        _turn_without_building(ctx)
        return
    ctx.events.append(
        event("passed", f"{name} passes rather than ask for a new platform.", seat=seat)
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
        end_turn(rules, ctx.events)
        return
    rules.passes += 1
    end_turn(rules, ctx.events, passed=True)


# The actions of claims, protests, penalties, rewards and passing, by type (play.py).
HANDLERS = {
    "ask_platform": _do_ask_platform,
    "protest": _do_protest,
    "decline": _do_decline,
    "remove_column": _do_remove_column,
    "pass": _do_pass,
}
