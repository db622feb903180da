"""A build: choosing a colour (2 players), touching, pulling, placing, putting back."""

import random

from .. import villa
from ..hands import (
    PLACE_SPEED_DEFAULT,
    PULL_SPEED_DEFAULT,
)
from ..pieces import LANE_DEPTH, PLATFORM_COLOURS, RED, Where
from ..villa import column_key
from .claims import protest_failed, protest_succeeded
from .context import (
    PLACE_ANIMATION_TIME,
    ActionContext,
    collapse_event,
    gesture_from,
    last_time,
    need_phase,
    scripted_frames,
)
from .positions import placement_problem, placement_range, resting_problem, stack_top
from .state import (
    Column,
    Context,
    Holding,
    NeutralProtest,
    Origin,
    Phase,
    Rules,
    colours_of,
    event,
    refuse,
    top_index,
)
from .turns import context_movable, end_turn, may_place, movable, own_step


def _do_choose_colour(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    need_phase(rules, Phase.CHOOSE_COLOUR)
    colour = action.get("colour")
    if colour not in colours_of(rules, seat):
        refuse("not_your_colour", "Choose one of your own two colours.")
    if not movable(rules, seat, [colour]):
        refuse("colour_blocked", "None of the columns of that colour can be moved.")
    rules.turn_colour = colour
    rules.phase = Phase.MOVE
    ctx.events.append(event("colour_chosen", f"Playing {colour} this turn.", colour=colour))


def _do_touch(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    need_phase(rules, Phase.MOVE)
    column_id = action["column"]
    column = rules.columns[column_id]
    if column_id not in context_movable(rules):
        refuse(*_touch_problem(rules, column, seat))
    # The load is rounded once, here: every place that shows it shows this figure.
    load = int(round(villa.column_load(rules, column_id)))
    rules.phase = Phase.TOUCHED
    rules.touched = column_id
    rules.touch_load = load
    ctx.events.append(event("touched", f"The column bears {load} g.", column=column_id, load=load))


def _touch_problem(rules: Rules, column: Column, seat: int) -> tuple[str, str]:
    if not column.in_play:
        return "column_out", "That column is out of the game."
    if column.level >= rules.laid:
        return "top_level", "Columns on the top platform may not be moved."
    if column.locked:
        return "locked", "That column was touched and put back; it is locked for the game."
    if not may_place(rules, seat):
        return "own_platform", "You may not place a column on the platform you laid."
    if column.colour == rules.neutral and rules.context != Context.CLAIM_PROTEST:
        if rules.context == Context.TURN and rules.step != "neutral":
            return "not_your_colour", "Now move one of your own columns."
        return "last_neutral", "The last neutral column of a level may not be moved."
    if rules.context == Context.TURN and rules.step == "neutral":
        return "neutral_first", "Move a neutral column first."
    if len(rules.seats) == 2 and rules.context == Context.TURN:
        return "not_your_colour", "Move a column of the colour you chose for this turn."
    return "not_your_colour", "You may only move a column of the right colour."


def _do_pull(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    need_phase(rules, Phase.TOUCHED)
    column_id = action.get("column", rules.touched)
    if column_id != rules.touched:
        refuse("not_touched", "Only the column you touched may be pulled.")
    gesture = gesture_from(action, PULL_SPEED_DEFAULT)
    column = rules.columns[column_id]
    rules.holding = Holding(
        column=column_id,
        origin=Origin(x=column.x, z=column.z, level=column.level, where=column.where, on=column.on),
    )
    outcome = villa.pull(rules, column_id, gesture, ctx.hand(), record=ctx.record)
    collapse = ctx.moved(outcome)
    column.leave(Where.HAND)
    if collapse:
        collapse_event(rules, collapse, seat, ctx.events)
        return
    if outcome.caught:
        # The platform came to rest on the steadying hand as the column came clear: the
        # builder interrupted the build (villa.pull), and the column goes back, locked.
        ctx.events.append(
            event(
                "pull_failed",
                "The platform settled onto the steadying hand as the column came out: the "
                "build is interrupted.",
                column=column_id,
                problem="caught",
            )
        )
        _give_up_build(ctx, seat, column_id, rules.holding)
        return
    if outcome.interrupted:
        # The hand felt a neighbour move and stopped: the build is interrupted and the
        # column goes back; the neighbour stays where it went (villa.pull).
        ctx.events.append(
            event(
                "pull_failed",
                "The column pushed another column and the builder stopped: the build is "
                "interrupted; the other column stays where it went.",
                column=column_id,
                moved=outcome.knocked,
                problem="moved_another",
            )
        )
        _give_up_build(ctx, seat, column_id, rules.holding)
        return
    if outcome.knocked:
        ctx.events.append(
            event(
                "knocked",
                "The column moved another column on its way out; it stays where it went.",
                column=column_id,
                moved=outcome.knocked,
            )
        )
    rules.phase = Phase.HOLDING
    rules.touched = None
    rules.touch_load = None
    ctx.events.append(
        event("pulled", "The column is out and the villa still stands.", column=column_id)
    )


def _place_spot(rules: Rules, action: dict) -> tuple[float, float]:
    """(x, z) of a placement from the top platform's centre: "z" in mm, or one of the
    page's three depth rows ("lane")."""
    x = float(action["x"])
    if "z" in action:
        return x, float(action["z"])
    lane = action["lane"]
    low, high = placement_range(rules, rules.holding.column)
    return x, max(low, min(high, LANE_DEPTH[lane]))


def _do_place(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    need_phase(rules, Phase.HOLDING)
    column_id = rules.holding.column
    if action.get("column", column_id) != column_id:
        refuse("not_holding", "You can only place the column you hold.")
    x, z = _place_spot(rules, action)
    problem = placement_problem(rules, column_id, x, z)
    if problem:
        refuse(*problem)
    gesture = gesture_from(action, PLACE_SPEED_DEFAULT)
    if ctx.tremor:
        # The tremor comes from the match seed and the action's index, so replays agree.
        rng = random.Random(f"{rules.seed}:tremor:{rules.actions}")  # noqa: S311
        sigma = rules.options.tremor
        x += rng.gauss(0.0, sigma)
        z += rng.gauss(0.0, sigma)
    top = top_index(rules)
    on = stack_top(rules, column_id, x, z) if top == RED else None
    chance = ctx.hand() if ctx.chance else None
    outcome = villa.place(rules, column_id, x, z, on, gesture, chance, record=ctx.record)
    if ctx.record and outcome.frames:
        first = outcome.frames[0]
        key = column_key(column_id)
        pose, side = first["poses"].get(key), first["side"].get(key)
        if pose and side:
            lead = scripted_frames(key, pose, side)
            for frame in outcome.frames:
                frame["t"] = round(frame["t"] + PLACE_ANIMATION_TIME, 3)
            outcome.frames = lead + outcome.frames
    holding = rules.holding
    rules.holding = None
    if outcome.fell_alone:
        # The column fell over or off by itself; the villa stands. The French record ends
        # the game when "la VILLA PALETTI s'écroule", the villa; a build that fails is an
        # interrupted one: the column goes back where it was taken from and is locked.
        ctx.steps += outcome.steps
        ctx.frames.extend(outcome.frames)
        ctx.events.append(
            event(
                "placement_failed",
                "The column fell over: the build has failed.",
                column=column_id,
                problem="fell_over",
            )
        )
        column = rules.columns[column_id]
        column.where = Where.HAND
        _give_up_build(ctx, seat, column_id, holding)
        return
    collapse = ctx.moved(outcome)
    if collapse:
        collapse_event(rules, collapse, seat, ctx.events)
        return
    broken = resting_problem(rules, column_id)
    if broken:
        # Where the hand actually put it breaks rule 3 or 8: the build is given up.
        ctx.events.append(event("placement_failed", broken[1], column=column_id, problem=broken[0]))
        _give_up_build(ctx, seat, column_id, holding)
        return
    # Where it now stands may be too much for the villa: the statics decide.
    collapse = ctx.moved(villa.settle_after(rules, record=ctx.record, t0=last_time(ctx.frames)))
    if collapse:
        collapse_event(rules, collapse, seat, ctx.events)
        return
    rules.built = True
    ctx.events.append(
        event(
            "placed",
            f"The column stands on the {PLATFORM_COLOURS[top]} platform.",
            column=column_id,
            platform=PLATFORM_COLOURS[top],
        )
    )
    context = rules.context
    if context == Context.CLAIM_PROTEST:
        protest_succeeded(ctx, column_id)
    elif context == Context.NEUTRAL_PROTEST:
        ctx.events.append(
            event(
                "neutral_protest_upheld",
                "The protest is upheld: the builder loses their own move.",
                seat=rules.turn,
            )
        )
        end_turn(rules, ctx.events)
    elif rules.step == "neutral":
        own_step(rules, ctx.events)
    else:
        end_turn(rules, ctx.events)


def _do_abort(ctx: ActionContext, seat: int, action: dict) -> None:
    rules = ctx.rules
    need_phase(rules, Phase.TOUCHED, Phase.HOLDING)
    column_id = rules.touched if rules.phase == Phase.TOUCHED else rules.holding.column
    if action.get("column", column_id) != column_id:
        refuse("not_touched", "Only the column you touched can be put back.")
    _give_up_build(ctx, seat, column_id, rules.holding)


def _give_up_build(ctx: ActionContext, seat: int, column_id: int, holding: Holding | None) -> None:
    """The build is given up: a column taken out (`holding`) goes back where it came from,
    and is locked for the rest of the game (French text; the Polish one does not lock it).
    Then the turn, or the protest it was part of, goes on as after an abort."""
    rules = ctx.rules
    column = rules.columns[column_id]
    locks = rules.options.abort == "french"
    if holding is not None:
        # Put back where it was taken from; the statics then decide.
        column.put_back(holding.origin)
        villa.sync_rest(rules)
        if ctx.record:
            key = column_key(column_id)
            ctx.frames.extend(scripted_frames(key, column.pose, column.side))
        collapse = ctx.moved(villa.settle_after(rules, record=ctx.record, t0=last_time(ctx.frames)))
        if collapse:
            column.locked = locks
            collapse_event(rules, collapse, seat, ctx.events)
            return
    column.locked = locks
    rules.touched = None
    rules.touch_load = None
    rules.holding = None
    ctx.events.append(
        event(
            "aborted",
            "The column goes back and is locked for the rest of the game."
            if locks
            else "The column goes back.",
            column=column_id,
            locked=locks,
        )
    )
    context = rules.context
    if context == Context.CLAIM_PROTEST:
        protest_failed(ctx)
    elif context == Context.NEUTRAL_PROTEST:
        ctx.events.append(
            event(
                "neutral_protest_failed", "The protest fails: the builder moves their own column."
            )
        )
        own_step(rules, ctx.events)
    elif rules.step == "neutral":
        others = [(rules.turn + k) % len(rules.seats) for k in range(1, len(rules.seats))]
        rules.phase = Phase.NEUTRAL_PROTEST
        rules.neutral_protest = NeutralProtest(
            player=rules.turn, asked=others, protester=None, aborted=column_id
        )
        rules.to_act = others[0]
    else:
        end_turn(rules, ctx.events)


# The actions of a build, by type (play.py applies them).
HANDLERS = {
    "choose_colour": _do_choose_colour,
    "touch": _do_touch,
    "pull": _do_pull,
    "place": _do_place,
    "abort": _do_abort,
}
