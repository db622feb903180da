"""A new match: the seats' colours by the seal's die, the set-up, the first turn."""

import random

from .. import villa
from ..pieces import COLUMN_COLOURS, COLUMNS, LANE_DEPTH, PLATFORM_COLOURS, Where
from ..setup import SetupError, default_setup, random_setup, validate_setup
from .context import ActionContext, need_phase
from .state import (
    READINGS,
    RULES_VERSION,
    SEAL_START_LEVEL,
    Choosing,
    Column,
    Context,
    Options,
    Phase,
    Platform,
    Rules,
    Seat,
    State,
    event,
    refuse,
)
from .turns import start_turn


def _seat_colours(n_players: int, youngest: int, rng: random.Random) -> tuple[list, str, int]:
    """Colours by the seal's die rolls, clockwise from the youngest (French record, A).

    Returns (colours per seat, neutral colour or None, first player): the seat that received
    the last colour starts.
    """
    rolls = list(COLUMN_COLOURS)
    rng.shuffle(rolls)
    seats: list[list[str]] = [[] for _ in range(n_players)]
    # 2 players take two colours each; 3 players leave the fourth colour neutral (Danish).
    handed = 4 if n_players in (2, 4) else 3
    last = youngest
    for n in range(handed):
        last = (youngest + n) % n_players
        seats[last].append(rolls[n])
    neutral = rolls[3] if n_players == 3 else None
    return seats, neutral, last


def new_match(seed: int, players: int | list = 4, options: dict | None = None) -> State:
    """A new match from a seed, a number of players (2-4) or a list of seat names, options.

    Options: "seal_start": "green" (French) or "blue" (Polish reading); "protest" and
    "abort": "french" or "polish" (the Polish text's own protest and abort rules, see
    docs/paletti.md); "colours": "french" (the seal's die gives every colour) or "polish"
    (the youngest throws, the others choose: take_colour actions); "tremor": standard
    deviation in mm of the hand's placement error (0 = off); "setup": "default", "random"
    (seeded) or a set-up dict (validated, see setup.py); "youngest": seat index of the
    youngest player (seeded when absent).
    """
    names = list(players) if isinstance(players, (list, tuple)) else None
    n_players = len(names) if names is not None else int(players)
    if n_players not in (2, 3, 4):
        raise ValueError("Villa Paletti is for 2 to 4 players.")
    options = Options.from_json(dict(options or {}))
    if options.seal_start not in SEAL_START_LEVEL:
        raise ValueError("seal_start must be 'green' or 'blue'.")
    for name in ("protest", "abort", "colours"):
        if getattr(options, name) not in (*READINGS, None):
            raise ValueError(f"{name} must be one of {READINGS}.")
    options.tremor = float(options.tremor)
    if options.setup == "default":
        setup = default_setup()
    elif options.setup == "random":
        setup = random_setup(random.Random(f"{seed}:setup"))  # noqa: S311 - game dice
    elif isinstance(options.setup, dict):
        validate_setup(options.setup)
        setup = options.setup
    else:
        raise SetupError("unknown_setup", "Unknown set-up option.")
    rng = random.Random(f"{seed}:colours")  # noqa: S311 - game dice
    youngest = options.youngest
    if youngest is None:
        youngest = rng.randrange(n_players)
    choosing = None
    if options.colours == "polish":
        seat_colours, choosing = _thrown_colour(n_players, youngest, rng)
        neutral, first = None, None
    else:
        seat_colours, neutral, first = _seat_colours(n_players, youngest, rng)

    places = {c["id"]: _setup_place(c) for c in setup["columns"]}
    rules = Rules(
        version=RULES_VERSION,
        seed=seed,
        options=options,
        seats=[
            Seat(name=names[i] if names else f"Player {i + 1}", colours=seat_colours[i])
            for i in range(n_players)
        ],
        neutral=neutral,
        youngest=youngest,
        first_player=first,
        columns=[
            Column(
                id=spec.id,
                colour=spec.colour,
                kind=spec.kind,
                value=spec.value,
                x=places[spec.id][0],
                z=places[spec.id][1],
                on=None,
                lane=1,
                level=0,
                where=Where.BASE,
                locked=False,
                pose=None,
                side=None,
            )
            for spec in COLUMNS
        ],
        platforms=[
            Platform(
                index=i,
                colour=colour,
                laid_by=None,
                x=float(setup["blue_x"]) if i == 0 else None,
                z=0.0 if i == 0 else None,
                pose=None,
                side=None,
            )
            for i, colour in enumerate(PLATFORM_COLOURS)
        ],
        laid=1,
        turn=first,
        to_act=first,
        phase=Phase.MOVE,
        context=Context.TURN,
        scores=[0] * n_players,
    )
    villa.sync_rest(rules)
    if not villa.analyse(rules).stands:
        raise SetupError("unstable", "Blue does not rest steadily on these columns.")
    if choosing is not None:
        # Stored only under this option (and while the choosing lasts), so a French
        # match's state, and its hash, is what it was before the option existed.
        rules.choosing = choosing
        rules.phase = Phase.COLOURS
        rules.turn = choosing.order[0]
        rules.to_act = choosing.order[0]
        return State(rules)
    events: list = []
    start_turn(rules, first, events)
    return State(rules)


def _thrown_colour(n_players: int, youngest: int, rng: random.Random) -> tuple[list, Choosing]:
    """Polish text: "Najmłodszy gracz rzuca kością [...]. Kolor na kości określa kolor
    gracza. Kolejni gracze wybierają swoje kolory." The youngest throws the seal's die for
    their colour; the next players, clockwise, choose theirs. With two players (two colours
    each, a reading the Polish text does not give) the choosing goes round twice, as the
    French die does. Returns (colours per seat, the choosing still to come)."""
    thrown = rng.choice(COLUMN_COLOURS)
    seats: list[list[str]] = [[] for _ in range(n_players)]
    seats[youngest].append(thrown)
    handed = 4 if n_players in (2, 4) else 3
    order = [(youngest + n) % n_players for n in range(1, handed)]
    return seats, Choosing(youngest=youngest, thrown=thrown, order=order)


def colours_left(rules: Rules) -> list[str]:
    """The colours nobody has taken yet, in the usual order."""
    taken = {c for seat in rules.seats for c in seat.colours}
    return [c for c in COLUMN_COLOURS if c not in taken]


def _do_take_colour(ctx: ActionContext, seat: int, action: dict) -> None:
    """Polish text: a player chooses their colour after the youngest's throw. "Ostatni
    gracz wybierający kolor staje się pierwszym budowniczym": the last to choose builds
    first; a last colour nobody has a choice over goes to its seat without asking, and with
    three players the colour left over is the neutral one."""
    rules = ctx.rules
    need_phase(rules, Phase.COLOURS)
    colour = action.get("colour")
    left = colours_left(rules)
    if colour not in left:
        refuse("colour_taken", "That colour is already taken.")
    choosing = rules.choosing
    rules.seats[seat].colours.append(colour)
    name = rules.seats[seat].name
    ctx.events.append(event("colour_taken", f"{name} takes {colour}.", seat=seat, colour=colour))
    last = choosing.order.pop(0)
    left.remove(colour)
    if len(left) == 1 and len(choosing.order) == 1:
        last = choosing.order.pop(0)
        given = left.pop()
        rules.seats[last].colours.append(given)
        ctx.events.append(
            event(
                "colour_left_over",
                f"{rules.seats[last].name} gets the last colour, {given}.",
                seat=last,
                colour=given,
            )
        )
    if choosing.order:
        rules.turn = choosing.order[0]
        rules.to_act = choosing.order[0]
        return
    rules.choosing = None
    rules.neutral = left[0] if left else None
    rules.first_player = last
    start_turn(rules, last, ctx.events)


def _setup_place(column: dict) -> tuple[float, float]:
    """A set-up column's foot (x, z) on the base: z given, or one of the three rows."""
    if "z" in column:
        return float(column["x"]), float(column["z"])
    return float(column["x"]), LANE_DEPTH[column["lane"]]


# The action of the set-up (Polish colours option), by type (play.py).
HANDLERS = {
    "take_colour": _do_take_colour,
}
