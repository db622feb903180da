"""Turns and the seal: who may move what, whose turn it is, the scores, the seal, the end."""

from ..pieces import COLUMN_COLOURS, COLUMNS, PLATFORM_COLOURS
from .lays import lay_possible
from .positions import room_for
from .state import (
    SEAL_START_LEVEL,
    Collapse,
    Context,
    Phase,
    Rules,
    colours_of,
    event,
    polish_protest,
    top_columns,
    top_index,
)


def _barred_colours(rules: Rules) -> set[str]:
    """The colours that may not go on the top platform: its layer's (French record: the
    claimant "ne peut, en aucun cas, placer une colonne sur le nouveau plateau"). With two
    players, who play two colours choosing one before each turn (Danish text), only the
    colour they claimed with (our reading); a claim made before choosing bars both."""
    top = rules.platforms[top_index(rules)]
    if top.laid_by is None:
        return set()
    if len(rules.seats) == 2 and top.laid_colour is not None:
        return {top.laid_colour}
    return set(colours_of(rules, top.laid_by))


def may_place(rules: Rules, seat: int) -> bool:
    """Whether `seat` may place any column on the top platform at all (3 and 4 players:
    not its layer; with two players, not if both its colours are barred)."""
    if len(rules.seats) == 2:
        return bool(set(colours_of(rules, seat)) - _barred_colours(rules))
    return rules.platforms[top_index(rules)].laid_by != seat


def movable(
    rules: Rules, seat: int, colours: list[str], allow_locked: int | None = None
) -> list[int]:
    """Columns of `colours` that `seat` may take: not on the top level, not locked,
    not the last neutral column of its level (3 players), with room on the top platform."""
    if not may_place(rules, seat):
        return []
    barred = _barred_colours(rules) if len(rules.seats) == 2 else set()
    colours = [colour for colour in colours if colour not in barred]
    neutral = rules.neutral
    out = []
    room: dict[float, bool] = {}
    for column in rules.columns:
        if column.colour not in colours or not column.in_play:
            continue
        if column.level >= rules.laid:
            continue
        if column.locked and column.id != allow_locked:
            continue
        if column.colour == neutral:
            same_level = [
                c
                for c in rules.columns
                if c.colour == neutral and c.in_play and c.level == column.level
            ]
            if len(same_level) <= 1:
                continue
        # Room on top depends only on the column's width: test each width once.
        width = COLUMNS[column.id].width
        if width not in room:
            room[width] = room_for(rules, column.id)
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
        return [rules.turn_colour] if rules.turn_colour else colours_of(rules, seat)
    return colours_of(rules, seat)


def context_movable(rules: Rules) -> list[int]:
    """Columns the actor may touch in the current context."""
    actor = rules.to_act
    context = rules.context
    if context == Context.CLAIM_PROTEST:
        return _protest_movable(rules, actor)
    if context == Context.NEUTRAL_PROTEST:
        aborted = rules.neutral_protest.aborted
        return movable(rules, actor, [rules.neutral], allow_locked=aborted)
    return movable(rules, actor, _turn_colours(rules))


def _protest_movable(rules: Rules, seat: int) -> list[int]:
    """What a protester may move to prove a claim wrong. French text: one of the
    claimant's columns. Polish text: a column of any colour from under the top platform."""
    if polish_protest(rules):
        top_supports = rules.laid - 1
        candidates = movable(rules, seat, list(COLUMN_COLOURS))
        return [c for c in candidates if rules.columns[c].level == top_supports]
    # A column of the claimant's that the rules bar from the top platform (they laid it
    # "en aucun cas") proves nothing: their claim is true of it by the rules.
    claimant = rules.claim.claimant
    if not may_place(rules, claimant):
        return []
    barred = _barred_colours(rules)
    colours = [c for c in colours_of(rules, claimant) if c not in barred]
    return movable(rules, seat, colours)


def can_ask_platform(rules: Rules) -> bool:
    """A player may claim while a platform is left to lay (French record: the claim is what
    the player "affirme"; whether the platform can rest on 3 columns is seen only when it is
    laid: "si ce n'est pas possible, ... il passe son tour")."""
    return rules.laid < len(PLATFORM_COLOURS)


def _platform_can_be_laid(rules: Rules) -> bool:
    """Whether the next platform could be laid now: one is left, and it could rest on at
    least 3 columns of the top level within the base (lays.py)."""
    return can_ask_platform(rules) and lay_possible(rules)


def can_build(rules: Rules, seat: int) -> bool:
    """Whether `seat` can still place a column or a platform on the top level (French
    record D: the game ends when "aucun joueur ne peut placer une colonne ou un plateau sur
    le niveau le plus haut"). Can, not will: a column of theirs (or, 3 players, a neutral
    one) they may move, not locked, below the top level, with room for it on the top
    platform; or a platform left that would rest on 3 columns, which a claim lays. Whether
    the villa would survive the attempt is the player's judgement, not a rule."""
    colours = list(colours_of(rules, seat))
    if rules.neutral is not None:
        colours.append(rules.neutral)
    return bool(movable(rules, seat, colours)) or _platform_can_be_laid(rules)


def nobody_can_build(rules: Rules) -> bool:
    """Whether the game ends by the French record's second ending."""
    return not any(can_build(rules, seat) for seat in range(len(rules.seats)))


def protest_possible(rules: Rules, seat: int) -> bool:
    """Whether `seat` has a column it could move to prove the claim (or, 3 players, the
    aborted neutral move) wrong."""
    if rules.phase == Phase.CLAIM:
        return bool(_protest_movable(rules, seat))
    aborted = rules.neutral_protest.aborted
    return bool(movable(rules, seat, [rules.neutral], allow_locked=aborted))


def scores(rules: Rules) -> list[int]:
    """Points per seat: values of their colours' columns on the top level (neutral: nobody)."""
    owner = {}
    for seat, info in enumerate(rules.seats):
        for colour in info.colours:
            owner[colour] = seat
    out = [0] * len(rules.seats)
    for column in top_columns(rules):
        seat = owner.get(column.colour)
        if seat is not None:
            out[seat] += column.value
    return out


def update_seal(rules: Rules, events: list) -> None:
    """At the end of a turn: the scores, the start of the seal race once a column stands on
    its first level, and the seal to a player with strictly more points than everybody."""
    rules.scores = points = scores(rules)
    seal = rules.seal
    if not seal.started:
        start = SEAL_START_LEVEL[rules.options.seal_start]
        if any(c.in_play and c.level >= start for c in rules.columns):
            seal.started = True
            events.append(event("seal_race_started", "The race for the seal has begun."))
    if not seal.started:
        return
    best = max(points)
    leaders = [seat for seat, p in enumerate(points) if p == best]
    holder = seal.holder
    if best > 0 and len(leaders) == 1 and leaders[0] != holder:
        seal.previous = holder
        seal.holder = leaders[0]
        events.append(
            event(
                "seal_taken",
                f"{rules.seats[leaders[0]].name} takes the master builder's seal.",
                seat=leaders[0],
                previous=holder,
            )
        )


def standing(rules: Rules, seat: int) -> tuple[int, ...]:
    """How high a seat has built: the points of its columns on the top level, then on each
    level below down to the base, compared in that order (our reading of the French
    record's aim: the most columns of one's colour, and the highest, "le plus grand nombre
    de colonnes de sa couleur, et les plus haut"). Neutral columns count for nobody."""
    colours = set(colours_of(rules, seat))
    points = [0] * (rules.laid + 1)
    for column in rules.columns:
        if column.in_play and column.colour in colours:
            points[rules.laid - column.level] += column.value
    return tuple(points)


def _highest_builder(rules: Rules, after: int, excluded: int | None) -> tuple[int, bool]:
    """Our reading where the seal names nobody: the seat that has built highest
    (`standing`), the one who brought the villa down excluded ("il sera puni"); between
    equals, the first of them clockwise after seat `after`. Also whether it took that
    tie-break."""
    n = len(rules.seats)
    order = [(after + k) % n for k in range(1, n + 1)]
    candidates = [seat for seat in order if seat != excluded]
    winner = max(candidates, key=lambda seat: (standing(rules, seat), -order.index(seat)))
    best = standing(rules, winner)
    tied = sum(1 for seat in candidates if standing(rules, seat) == best) > 1
    return winner, tied


def finish(rules: Rules, reason: str, events: list, collapse: Collapse | None = None) -> None:
    """The end (French record D). The seal holder wins, unless the holder brought the villa
    down: then the previous holder. Where the seal names nobody (the race had not begun,
    nobody held the seal yet, or the first holder brought the villa down), our reading:
    whoever has built highest wins, never the one who brought the villa down
    (_highest_builder); "highest_builder_in_turn" when equals were parted by the turn
    order."""
    seal = rules.seal
    rules.scores = scores(rules)
    rules.phase = Phase.OVER
    rules.to_act = None
    rules.end_reason = reason
    rules.collapse = collapse
    rules.touched = None
    rules.touch_load = None
    culprit = collapse.by if collapse is not None else None
    winner, outcome = seal.holder, "seal_holder"
    if winner is not None and winner == culprit:
        winner, outcome = seal.previous, "previous_holder"
    if winner is None or winner == culprit:
        last = culprit if culprit is not None else rules.turn
        winner, tied = _highest_builder(rules, last if last is not None else 0, culprit)
        outcome = "highest_builder_in_turn" if tied else "highest_builder"
    rules.winner = winner
    rules.outcome = outcome
    name = rules.seats[winner].name
    events.append(
        event(
            "game_over",
            f"The game is over. {name} wins ({outcome.replace('_', ' ')}).",
            winner=winner,
            reason=reason,
            outcome=outcome,
        )
    )


def start_turn(rules: Rules, seat: int, events: list) -> None:
    """Give the turn to `seat`, or the next seat that can do something; end if none can."""
    n = len(rules.seats)
    for k in range(n):
        candidate = (seat + k) % n
        if can_build(rules, candidate):
            break
        events.append(
            event(
                "player_skipped",
                f"{rules.seats[candidate].name} can neither move a column nor lay a "
                "platform and passes.",
                seat=candidate,
            )
        )
    else:
        finish(rules, "no_moves", events)
        return
    rules.turn = candidate
    rules.to_act = candidate
    rules.context = Context.TURN
    rules.built = False
    rules.turn_colour = None
    rules.touched = None
    rules.touch_load = None
    rules.holding = None
    rules.claim = None
    rules.neutral_protest = None
    rules.step = None
    if rules.neutral is not None:
        has_neutral = bool(movable(rules, candidate, [rules.neutral]))
        rules.step = "neutral" if has_neutral else "own"
    rules.phase = Phase.MOVE
    if len(rules.seats) == 2:
        colours = [c for c in colours_of(rules, candidate) if movable(rules, candidate, [c])]
        if colours:
            rules.phase = Phase.CHOOSE_COLOUR


def end_turn(rules: Rules, events: list, passed: bool = False) -> None:
    """The turn ends (`passed`: nothing was built): the seal moves, the next seat plays."""
    if not passed:
        rules.passes = 0
    update_seal(rules, events)
    start_turn(rules, (rules.turn + 1) % len(rules.seats), events)


def own_step(rules: Rules, events: list) -> None:
    """3 players: after the neutral move, the builder moves one of their own columns."""
    rules.step = "own"
    rules.phase = Phase.MOVE
    rules.context = Context.TURN
    rules.to_act = rules.turn
    rules.touched = None
    rules.touch_load = None
    rules.holding = None
    rules.neutral_protest = None
    if not movable(rules, rules.turn, _turn_colours(rules)) and not can_ask_platform(rules):
        end_turn(rules, events)


def may_pass(rules: Rules) -> bool:
    """Passing is a choice where the French text says "peut" (may): asking for a platform
    when it is one's only move, removing a protester's column, laying the platform."""
    phase = rules.phase
    if phase == Phase.PENALTY and polish_protest(rules):
        return False  # Polish text: the builder "usuwa" (removes) one: not a choice
    if phase == Phase.LAY:
        # French record: the unchallenged claimant "peut placer" (may lay) the platform;
        # the Polish text: the builder "kładzie" (lays) it. Either way, a platform that
        # cannot rest on 3 columns is not laid and the turn passes.
        return not (polish_protest(rules) and lay_possible(rules))
    if phase in (Phase.PENALTY, Phase.REWARD):
        return True
    if phase not in (Phase.MOVE, Phase.CHOOSE_COLOUR) or rules.context != Context.TURN:
        return False
    if phase == Phase.CHOOSE_COLOUR:
        return False  # a colour with a movable column exists, or the phase would be move
    return not context_movable(rules) and can_ask_platform(rules)
