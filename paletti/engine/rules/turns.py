"""Turns and the seal: who may move what, whose turn it is, the scores, the seal, the end."""

from ..pieces import COLUMN_COLOURS, COLUMNS, PLATFORM_COLOURS
from .positions import _placements
from .state import (
    CONTEXT_CLAIM_PROTEST,
    CONTEXT_NEUTRAL_PROTEST,
    CONTEXT_TURN,
    PHASE_CHOOSE_COLOUR,
    PHASE_CLAIM,
    PHASE_LAY,
    PHASE_MOVE,
    PHASE_OVER,
    PHASE_PENALTY,
    PHASE_REWARD,
    SEAL_START_LEVEL,
    Rules,
    _event,
    _in_play,
    _polish_protest,
    _seat_colours_of,
    _top_columns,
    _top_index,
)


def _may_place(rules: Rules, seat: int) -> bool:
    # Whoever laid the top platform may not place a column on it (French record).
    return rules.platforms[_top_index(rules)].laid_by != seat


def _movable(
    rules: Rules, seat: int, colours: list[str], allow_locked: int | None = None
) -> list[int]:
    """Columns of `colours` that `seat` may take: not on the top level, not locked,
    not the last neutral column of its level (3 players), with room on the top platform."""
    if not _may_place(rules, seat):
        return []
    neutral = rules.neutral
    out = []
    room: dict[float, bool] = {}
    for column in rules.columns:
        if column.colour not in colours or not _in_play(column):
            continue
        if column.level >= rules.laid:
            continue
        if column.locked and column.id != allow_locked:
            continue
        if column.colour == neutral:
            same_level = [
                c
                for c in rules.columns
                if c.colour == neutral and _in_play(c) and c.level == column.level
            ]
            if len(same_level) <= 1:
                continue
        # Room on top depends only on the column's width: test each width once.
        width = COLUMNS[column.id].width
        if width not in room:
            room[width] = next(_placements(rules, column.id), None) is not None
        if not room[width]:
            continue
        out.append(column.id)
    return out


def _turn_colours(rules: Rules) -> list[str]:
    """Colours the builder may move in the current step of their turn."""
    seat = rules.turn
    if rules.neutral is not None and rules.step == "neutral":
        return [rules.neutral]
    if len(rules.seats) == 2:
        return [rules.turn_colour] if rules.turn_colour else _seat_colours_of(rules, seat)
    return _seat_colours_of(rules, seat)


def _context_movable(rules: Rules) -> list[int]:
    """Columns the actor may touch in the current context."""
    actor = rules.to_act
    context = rules.context
    if context == CONTEXT_CLAIM_PROTEST:
        return _protest_movable(rules, actor)
    if context == CONTEXT_NEUTRAL_PROTEST:
        aborted = rules.neutral_protest.aborted
        return _movable(rules, actor, [rules.neutral], allow_locked=aborted)
    return _movable(rules, actor, _turn_colours(rules))


def _protest_movable(rules: Rules, seat: int) -> list[int]:
    """What a protester may move to prove a claim wrong. French text: one of the
    claimant's columns. Polish text: a column of any colour from under the top platform."""
    if _polish_protest(rules):
        top_supports = rules.laid - 1
        movable = _movable(rules, seat, list(COLUMN_COLOURS))
        return [c for c in movable if rules.columns[c].level == top_supports]
    return _movable(rules, seat, _seat_colours_of(rules, rules.claim.claimant))


def _can_ask_platform(rules: Rules) -> bool:
    """A player may claim while a platform is left to lay (French record: the claim is what
    the player "affirme"; whether the platform can rest on 3 columns is seen only when it is
    laid: "si ce n'est pas possible, ... il passe son tour")."""
    return rules.laid < len(PLATFORM_COLOURS)


def _can_act(rules: Rules, seat: int) -> bool:
    colours = list(_seat_colours_of(rules, seat))
    if rules.neutral is not None:
        colours.append(rules.neutral)
    return bool(_movable(rules, seat, colours)) or _can_ask_platform(rules)


def _protest_possible(rules: Rules, seat: int) -> bool:
    if rules.phase == PHASE_CLAIM:
        return bool(_protest_movable(rules, seat))
    aborted = rules.neutral_protest.aborted
    return bool(_movable(rules, seat, [rules.neutral], allow_locked=aborted))


def scores(rules: Rules) -> list[int]:
    """Points per seat: values of their colours' columns on the top level (neutral: nobody)."""
    owner = {}
    for seat, info in enumerate(rules.seats):
        for colour in info.colours:
            owner[colour] = seat
    out = [0] * len(rules.seats)
    for column in _top_columns(rules):
        seat = owner.get(column.colour)
        if seat is not None:
            out[seat] += column.value
    return out


def _update_seal(rules: Rules, events: list) -> None:
    rules.scores = points = scores(rules)
    seal = rules.seal
    if not seal.started:
        start = SEAL_START_LEVEL[rules.options.seal_start]
        if any(_in_play(c) and c.level >= start for c in rules.columns):
            seal.started = True
            events.append(_event("seal_race_started", "The race for the seal has begun."))
    if not seal.started:
        return
    best = max(points)
    leaders = [seat for seat, p in enumerate(points) if p == best]
    holder = seal.holder
    if best > 0 and len(leaders) == 1 and leaders[0] != holder:
        seal.previous = holder
        seal.holder = leaders[0]
        events.append(
            _event(
                "seal_taken",
                f"{rules.seats[leaders[0]]['name']} takes the master builder's seal.",
                seat=leaders[0],
                previous=holder,
            )
        )


def _finish(rules: Rules, reason: str, events: list, collapse: dict | None = None) -> None:
    seal = rules.seal
    rules.scores = scores(rules)
    rules.phase = PHASE_OVER
    rules.to_act = None
    rules.end_reason = reason
    rules.collapse = collapse
    rules.touched = None
    rules.touch_load = None
    winner, outcome = None, "race_not_begun"
    if seal.started and seal.holder is None:
        outcome = "no_seal_holder"
    elif seal.started:
        winner, outcome = seal.holder, "seal_holder"
        if collapse is not None and collapse.by == winner:
            # The holder brought the villa down: the previous holder wins, if there was one.
            winner = seal.previous
            outcome = "previous_holder" if winner is not None else "no_previous_holder"
    rules.winner = winner
    rules.outcome = outcome
    name = rules.seats[winner].name if winner is not None else "Nobody"
    events.append(
        _event(
            "game_over",
            f"The game is over. {name} wins ({outcome.replace('_', ' ')}).",
            winner=winner,
            reason=reason,
            outcome=outcome,
        )
    )


def _start_turn(rules: Rules, seat: int, events: list) -> None:
    """Give the turn to `seat`, or the next seat that can do something; end if none can."""
    n = len(rules.seats)
    for k in range(n):
        candidate = (seat + k) % n
        if _can_act(rules, candidate):
            break
        events.append(
            _event(
                "player_skipped",
                f"{rules.seats[candidate].name} can neither move a column nor ask for a "
                "platform and passes.",
                seat=candidate,
            )
        )
    else:
        _finish(rules, "no_moves", events)
        return
    rules.update(
        turn=candidate,
        to_act=candidate,
        context=CONTEXT_TURN,
        built=False,
        turn_colour=None,
        touched=None,
        touch_load=None,
        holding=None,
        claim=None,
        neutral_protest=None,
    )
    rules.step = None
    if rules.neutral is not None:
        has_neutral = bool(_movable(rules, candidate, [rules.neutral]))
        rules.step = "neutral" if has_neutral else "own"
    rules.phase = PHASE_MOVE
    if len(rules.seats) == 2:
        colours = [c for c in _seat_colours_of(rules, candidate) if _movable(rules, candidate, [c])]
        if colours:
            rules.phase = PHASE_CHOOSE_COLOUR


def _end_turn(rules: Rules, events: list, passed: bool = False) -> None:
    if not passed:
        rules.passes = 0
    _update_seal(rules, events)
    _start_turn(rules, (rules.turn + 1) % len(rules.seats), events)


def _own_step(rules: Rules, events: list) -> None:
    """3 players: after the neutral move, the builder moves one of their own columns."""
    rules.update(
        step="own",
        phase=PHASE_MOVE,
        context=CONTEXT_TURN,
        to_act=rules.turn,
        touched=None,
        touch_load=None,
        holding=None,
        neutral_protest=None,
    )
    if not _movable(rules, rules.turn, _turn_colours(rules)) and not _can_ask_platform(rules):
        _end_turn(rules, events)


def _may_pass(rules: Rules) -> bool:
    """Passing is a choice where the French text says "peut" (may): asking for a platform
    when it is one's only move, removing a protester's column, laying the platform."""
    phase = rules.phase
    if phase == PHASE_PENALTY and _polish_protest(rules):
        return False  # Polish text: the builder "usuwa" (removes) one: not a choice
    if phase in (PHASE_PENALTY, PHASE_REWARD, PHASE_LAY):
        return True
    if phase not in (PHASE_MOVE, PHASE_CHOOSE_COLOUR) or rules.context != CONTEXT_TURN:
        return False
    if phase == PHASE_CHOOSE_COLOUR:
        return False  # a colour with a movable column exists, or the phase would be move
    return not _context_movable(rules) and _can_ask_platform(rules)
