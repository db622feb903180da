"""A new match: the seats' colours by the seal's die, the set-up, the first turn."""

import random

from .. import villa
from ..pieces import COLUMN_COLOURS, COLUMNS, LANE_DEPTH, PLATFORM_COLOURS
from ..setup import SetupError, default_setup, random_setup, validate_setup
from .state import CONTEXT_TURN, PHASE_MOVE, READINGS, RULES_VERSION, SEAL_START_LEVEL, State
from .turns import _start_turn


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
    docs/paletti.md); "tremor": standard
    deviation in mm of the hand's placement error (0 = off); "setup": "default", "random"
    (seeded) or a set-up dict (validated, see setup.py); "youngest": seat index of the
    youngest player (seeded when absent).
    """
    options = dict(options or {})
    names = list(players) if isinstance(players, (list, tuple)) else None
    n_players = len(names) if names is not None else int(players)
    if n_players not in (2, 3, 4):
        raise ValueError("Villa Paletti is for 2 to 4 players.")
    seal_start = options.setdefault("seal_start", "green")
    if seal_start not in SEAL_START_LEVEL:
        raise ValueError("seal_start must be 'green' or 'blue'.")
    for name in ("protest", "abort"):
        if options.setdefault(name, "french") not in READINGS:
            raise ValueError(f"{name} must be one of {READINGS}.")
    options["tremor"] = float(options.get("tremor", 0.0))
    setup_option = options.setdefault("setup", "default")
    if setup_option == "default":
        setup = default_setup()
    elif setup_option == "random":
        setup = random_setup(random.Random(f"{seed}:setup"))  # noqa: S311 - game dice
    elif isinstance(setup_option, dict):
        validate_setup(setup_option)
        setup = setup_option
    else:
        raise SetupError("unknown_setup", "Unknown set-up option.")
    rng = random.Random(f"{seed}:colours")  # noqa: S311 - game dice
    youngest = options.get("youngest")
    if youngest is None:
        youngest = rng.randrange(n_players)
    seat_colours, neutral, first = _seat_colours(n_players, youngest, rng)

    places = {c["id"]: _setup_place(c) for c in setup["columns"]}
    rules = {
        "version": RULES_VERSION,
        "seed": seed,
        "options": options,
        "seats": [
            {"name": names[i] if names else f"Player {i + 1}", "colours": seat_colours[i]}
            for i in range(n_players)
        ],
        "neutral": neutral,
        "youngest": youngest,
        "first_player": first,
        "columns": [
            {
                "id": spec.id,
                "colour": spec.colour,
                "kind": spec.kind,
                "value": spec.value,
                "x": places[spec.id][0],
                "z": places[spec.id][1],
                "on": None,
                "lane": 1,
                "level": 0,
                "where": "base",
                "locked": False,
                "pose": None,
                "side": None,
            }
            for spec in COLUMNS
        ],
        "platforms": [
            {
                "index": i,
                "colour": colour,
                "laid_by": None,
                "x": float(setup["blue_x"]) if i == 0 else None,
                "z": 0.0 if i == 0 else None,
                "pose": None,
                "side": None,
            }
            for i, colour in enumerate(PLATFORM_COLOURS)
        ],
        "laid": 1,
        "turn": first,
        "to_act": first,
        "phase": PHASE_MOVE,
        "context": CONTEXT_TURN,
        "turn_colour": None,
        "step": None,
        "touched": None,
        "touch_load": None,
        "holding": None,
        "claim": None,
        "neutral_protest": None,
        "seal": {"started": False, "holder": None, "previous": None},
        "scores": [0] * n_players,
        "winner": None,
        "outcome": None,
        "end_reason": None,
        "collapse": None,
        "actions": 0,
        "passes": 0,
    }
    villa.sync_rest(rules)
    if not villa.analyse(rules).stands:
        raise SetupError("unstable", "Blue does not rest steadily on these columns.")
    events: list = []
    _start_turn(rules, first, events)
    return State(rules)


def _setup_place(column: dict) -> tuple[float, float]:
    """A set-up column's foot (x, z) on the base: z given, or one of the three rows."""
    if "z" in column:
        return float(column["x"]), float(column["z"])
    return float(column["x"]), LANE_DEPTH[column["lane"]]
