"""The two entry points: the legal actions of a state, and applying one action."""

from . import building, claims, creation, platforms, skips
from .claims import removable
from .context import ActionContext
from .creation import colours_left
from .lays import lay_candidates
from .positions import placement_area
from .shape import check
from .state import (
    ActionResult,
    Context,
    Phase,
    Rules,
    State,
    colours_of,
    refuse,
)
from .turns import (
    can_ask_platform,
    context_movable,
    may_pass,
    movable,
    protest_possible,
    scores,
)


def legal_actions(state: State) -> list[dict]:
    """Every action the player to act may take, each postable verbatim to apply_action,
    but a placement: its entry names the column and the `area` of every (x, z) it may be
    set at (positions.placement_area); post it with "x" and "z" from the area in place of
    "area"."""
    rules = state.rules
    phase = rules.phase
    seat = rules.to_act
    if phase == Phase.OVER:
        return []
    out: list[dict] = []

    def add(kind: str, **params) -> None:
        out.append({"type": kind, "seat": seat, **params})

    if phase == Phase.COLOURS:
        for colour in colours_left(rules):
            add("take_colour", colour=colour)
    elif phase == Phase.CHOOSE_COLOUR:
        for colour in colours_of(rules, seat):
            if movable(rules, seat, [colour]):
                add("choose_colour", colour=colour)
        if can_ask_platform(rules):
            add("ask_platform")
    elif phase == Phase.MOVE:
        for column_id in context_movable(rules):
            add("touch", column=column_id)
        if rules.context == Context.TURN and can_ask_platform(rules):
            add("ask_platform")
    elif phase == Phase.TOUCHED:
        add("pull", column=rules.touched)
        add("abort", column=rules.touched)
    elif phase == Phase.HOLDING:
        column_id = rules.holding.column
        # Not a list of points: any (x, z) of the area is accepted (positions.py).
        add("place", column=column_id, area=placement_area(rules, column_id))
        add("abort", column=column_id)
    elif phase in (Phase.CLAIM, Phase.NEUTRAL_PROTEST):
        if protest_possible(rules, seat):
            add("protest")
        add("decline")
    elif phase in (Phase.PENALTY, Phase.REWARD):
        for column_id in removable(rules):
            add("remove_column", column=column_id)
    elif phase == Phase.LAY:
        # Every POSITION_GRID mm across and in depth (platforms.lay_candidates); any other
        # position lay_problem accepts is accepted as well.
        for x, z in lay_candidates(rules):
            add("lay_platform", x=x, z=z)
    if may_pass(rules):
        add("pass")
    return out


def _check_seat(rules: Rules, action: dict) -> int:
    seat = rules.to_act
    if "seat" in action and action["seat"] != seat:
        refuse("not_your_turn", "It is not this player's turn to act.")
    return seat


def apply_action(
    state: State,
    action: dict,
    *,
    record: bool = True,
    tremor: bool = True,
    lookahead: bool = False,
) -> ActionResult:
    """Validate and apply one action; returns the new state, frames and events.

    Raises IllegalAction(code, reason) for anything the rules do not allow. `record=False`
    skips the frames only: the state reached is the same (replays rely on it).
    `lookahead=True` is a bot trying a move (kept for callers; the villa is plain data, so
    a look-ahead is an ordinary action whose result is not stored).
    `tremor=False` leaves out the hand's chance and the tremor option (a bot cannot
    foresee its own hand).
    """
    action = check(action)  # its shape and ranges (shape.py): the handlers trust them
    rules = state.rules
    if rules.phase == Phase.OVER:
        refuse("game_over", "The game is over; no action is accepted.")
    seat = _check_seat(rules, action)
    kind = action["type"]
    # Copied through the stored form: faster than deepcopy, and what a reload would read.
    rules = rules.copy()
    handler = _HANDLERS.get(kind)
    if handler is None:
        refuse("unknown_action", f"Unknown action '{kind}'.")
    ctx = ActionContext(rules, record, tremor and rules.options.tremor > 0, tremor)
    handler(ctx, seat, action)
    logged = {**action, "seat": seat}
    rules.actions += 1
    rules.scores = scores(rules)
    return ActionResult(State(rules), ctx.frames, ctx.events, ctx.steps, logged)


# Each action type's handler: (ActionContext, seat, action) -> None.
_HANDLERS = {
    **creation.HANDLERS,
    **building.HANDLERS,
    **claims.HANDLERS,
    **platforms.HANDLERS,
    **skips.HANDLERS,
}
