"""The rules of Villa Paletti as a state machine over a plain-data villa.

A `State` is the stored truth: `rules`, a JSON-able dict holding the rules state and every
piece's place (villa.py). `apply_action` never mutates the state it gets: it copies the
rules, lets the villa move (pymunk for motion, 3-D statics for standing) and returns a new
`State`. Nothing else is kept between actions, so a state reloaded from the store behaves
exactly as the live one.

Readings (the French record is the reference; where it is silent, the choice is said here):
- Seats act clockwise = increasing seat index.
- "Columns already on the top platform may not be moved": a column's level is the number of
  platforms under it (0 = on the base, 1 = on blue, ... 5 = on red); the top level is the
  number of platforms laid, and columns on it cannot be moved.
- Whoever laid the top platform may not place a column on it (French record: "en aucun
  cas"); this holds for protests too.
- A failed protest (the protester aborts): the claimant removes one of the protester's
  columns from the game and then lays the platform, since the claim has been upheld.
  A successful protest removes the moved column from the game; the claimant lays nothing and
  the turn passes.
- The seal moves at the end of each turn to a player who has strictly more points than
  everybody else; a tie for first place leaves it where it is.
- A player who can do nothing (no column to move and no platform to ask for) is skipped
  with an event; when nobody can, the game ends.
- 3 players, Danish text: the protester after an aborted neutral move may prove the point
  with any movable neutral column, the aborted one included (the text names it).
"""

import json
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from . import villa
from .hands import (
    FORESEEN,
    PLACE_SPEED_DEFAULT,
    PLACE_SPEED_MAX,
    PLACE_SPEED_MIN,
    PULL_SPEED_DEFAULT,
    PULL_SPEED_MAX,
    PULL_SPEED_MIN,
    STEADINESS_DEFAULT,
    Chance,
    Gesture,
)
from .pieces import (
    BASE_LENGTH,
    COLUMN_COLOURS,
    COLUMNS,
    LANE_DEPTH,
    LANES,
    PLATFORM_COLOURS,
    PLATFORM_LENGTHS,
    RED,
)
from .setup import SetupError, default_setup, random_setup, validate_setup
from .villa import column_key, platform_key

RULES_VERSION = 3

# Grid of the discrete positions listed in legal_actions (mm); any x inside the legal
# interval is accepted when an action is applied.
POSITION_GRID = 5.0
# Clearance between columns of one lane on a platform (mm), so a placed column is not set
# into its neighbour.
PLACEMENT_CLEARANCE = 0.5
# A laid platform must rest on at least 3 columns (French record).
MIN_PLATFORM_SUPPORTS = 3
# Where the seeds differ, the French text is the default and the Polish one an option.
READINGS = ("french", "polish")
# Seal race start: green in the French record, blue in the Polish reading (option).
SEAL_START_LEVEL = {"green": 2, "blue": 1}
PLACE_ANIMATION_TIME = 0.3
PLACE_ANIMATION_HEIGHT = 40.0  # mm above its resting place
FRAME_TIME = 1.0 / 30.0
# Tremor of the hand: angle noise per mm of position noise (rad/mm). Estimate.
TREMOR_ANGLE_PER_MM = 0.004

PHASE_CHOOSE_COLOUR = "choose_colour"
PHASE_MOVE = "move"
PHASE_TOUCHED = "touched"
PHASE_HOLDING = "holding"
PHASE_CLAIM = "claim"
PHASE_PENALTY = "penalty"
PHASE_REWARD = "reward"  # Polish protest rule: a successful protester removes a column
PHASE_LAY = "lay"
PHASE_NEUTRAL_PROTEST = "neutral_protest"
PHASE_OVER = "over"

CONTEXT_TURN = "turn"
CONTEXT_CLAIM_PROTEST = "claim_protest"
CONTEXT_NEUTRAL_PROTEST = "neutral_protest"


class IllegalAction(Exception):
    """An action the rules refuse: `code` for machines, `reason` an English sentence."""

    def __init__(self, code: str, reason: str):
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


@dataclass
class State:
    """A match: its JSON-able rules state, every piece's place included (villa.py)."""

    rules: dict


@dataclass
class ActionResult:
    """What apply_action returns: the new state, frames to animate and events to show."""

    state: State
    frames: list = field(default_factory=list)
    events: list = field(default_factory=list)
    steps: int = 0  # physics steps simulated (1/240 s each)
    # The action as it goes into a match's log (with the seat that acted): replaying the
    # log from the match's seed reaches the same state.
    action: dict | None = None


def _event(code: str, text: str, **params) -> dict:
    return {"code": code, "text": text, **params}


# -- creation ----------------------------------------------------------------------------


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


# -- geometry read from the rules state --------------------------------------------------


def _in_play(column: dict) -> bool:
    return column["where"] in ("base", "platform")


def _top_columns(rules: dict) -> list[dict]:
    return [c for c in rules["columns"] if _in_play(c) and c["level"] == rules["laid"]]


def _top_index(rules: dict) -> int:
    return rules["laid"] - 1


def placement_range(rules: dict, column_id: int) -> tuple[float, float]:
    """Interval of x or z (from the top platform's centre, mm) keeping a column fully on
    top; the platforms are square, so it is the same across the width and the depth."""
    half = PLATFORM_LENGTHS[_top_index(rules)] / 2 - COLUMNS[column_id].width / 2
    return -half, half


def _overlapped(rules: dict, column_id: int, x: float, z: float) -> list[dict]:
    """The top level's columns whose feet a column set at (x, z) from the top platform's
    centre would touch."""
    platform = rules["platforms"][_top_index(rules)]
    wx, wz = platform["x"] + x, platform["z"] + z
    r = COLUMNS[column_id].width / 2
    out = []
    for column in _top_columns(rules):
        if column["id"] == column_id:
            continue
        reach = r + COLUMNS[column["id"]].width / 2 + PLACEMENT_CLEARANCE
        if (column["x"] - wx) ** 2 + (column["z"] - wz) ** 2 < reach * reach:
            out.append(column)
    return out


def stack_top(rules: dict, column_id: int, x: float, z: float) -> int | None:
    """On red, the column a column set at (x, z) would stand on: the top of the highest
    stack it touches (None: on the platform)."""
    touched = _overlapped(rules, column_id, x, z)
    if not touched:
        return None
    carriers = {c["on"] for c in rules["columns"] if _in_play(c) and c.get("on") is not None}
    tops = [c for c in touched if c["id"] not in carriers]
    pool = tops or touched
    return max(pool, key=lambda c: (villa.column_bottom(rules, c), -c["id"]))["id"]


def placement_problem(rules: dict, column_id: int, x: float, z: float) -> tuple | None:
    """Why a column may not be placed at (x, z) from the top platform's centre, or None."""
    low, high = placement_range(rules, column_id)
    if not (low - 1e-9 <= x <= high + 1e-9 and low - 1e-9 <= z <= high + 1e-9):
        return "off_platform", "No column may stand half off the platform."
    if _top_index(rules) != RED and _overlapped(rules, column_id, x, z):
        return "on_column", "A column may stand on another column only on the red platform."
    return None


def placement_candidates(rules: dict, column_id: int) -> list[tuple[float, float, int]]:
    """The listed (x, z, row) positions: every POSITION_GRID mm across the width, in each
    of the page's three depth rows (any other legal (x, z) is accepted as well)."""
    return list(_placements(rules, column_id))


def _placements(rules: dict, column_id: int) -> Iterator[tuple[float, float, int]]:
    low, high = placement_range(rules, column_id)
    first = math.ceil(low / POSITION_GRID)
    last = math.floor(high / POSITION_GRID)
    for lane in LANES:
        z = max(low, min(high, LANE_DEPTH[lane]))
        for k in range(first, last + 1):
            x = float(k * POSITION_GRID)
            if placement_problem(rules, column_id, x, z) is None:
                yield x, z, lane


def _lay_supports(rules: dict, index: int, x: float, z: float) -> list[dict]:
    """The top level's columns wholly under a platform laid centred at (x, z)."""
    half = PLATFORM_LENGTHS[index] / 2
    out = []
    for column in _top_columns(rules):
        if column.get("on") is not None:
            continue
        r = COLUMNS[column["id"]].width / 2
        if abs(column["x"] - x) + r <= half and abs(column["z"] - z) + r <= half:
            out.append(column)
    return out


def lay_problem(rules: dict, x: float, z: float | None = None) -> tuple | None:
    """Why the next platform may not be laid centred at world (x, z), or None (z: by
    default, centred in depth on the platform below)."""
    index = rules["laid"]
    if index >= len(PLATFORM_COLOURS):
        return "no_platform_left", "All five platforms are already laid."
    if z is None:
        z = rules["platforms"][index - 1]["z"]
    half = PLATFORM_LENGTHS[index] / 2
    if abs(x) + half > BASE_LENGTH / 2 + 1e-9 or abs(z) + half > BASE_LENGTH / 2 + 1e-9:
        return "platform_off_base", "Every platform must stay within the base."
    if len(_lay_supports(rules, index, x, z)) < MIN_PLATFORM_SUPPORTS:
        return "too_few_supports", "A new platform must rest on at least 3 columns."
    return None


def lay_candidates(rules: dict) -> list[float]:
    """The listed centre positions (world x, mm, centred in depth on the platform below)
    where the next platform may be laid."""
    return list(_lay_positions(rules))


def _lay_positions(rules: dict) -> Iterator[float]:
    index = rules["laid"]
    if index >= len(PLATFORM_COLOURS):
        return
    limit = BASE_LENGTH / 2 - PLATFORM_LENGTHS[index] / 2
    k_max = math.floor(limit / POSITION_GRID)
    for k in range(-k_max, k_max + 1):
        if lay_problem(rules, k * POSITION_GRID) is None:
            yield float(k * POSITION_GRID)


# -- who may move what -------------------------------------------------------------------


def _seat_colours_of(rules: dict, seat: int) -> list[str]:
    return rules["seats"][seat]["colours"]


def _may_place(rules: dict, seat: int) -> bool:
    # Whoever laid the top platform may not place a column on it (French record).
    return rules["platforms"][_top_index(rules)]["laid_by"] != seat


def _movable(
    rules: dict, seat: int, colours: list[str], allow_locked: int | None = None
) -> list[int]:
    """Columns of `colours` that `seat` may take: not on the top level, not locked,
    not the last neutral column of its level (3 players), with room on the top platform."""
    if not _may_place(rules, seat):
        return []
    neutral = rules["neutral"]
    out = []
    room: dict[float, bool] = {}
    for column in rules["columns"]:
        if column["colour"] not in colours or not _in_play(column):
            continue
        if column["level"] >= rules["laid"]:
            continue
        if column["locked"] and column["id"] != allow_locked:
            continue
        if column["colour"] == neutral:
            same_level = [
                c
                for c in rules["columns"]
                if c["colour"] == neutral and _in_play(c) and c["level"] == column["level"]
            ]
            if len(same_level) <= 1:
                continue
        # Room on top depends only on the column's width: test each width once.
        width = COLUMNS[column["id"]].width
        if width not in room:
            room[width] = next(_placements(rules, column["id"]), None) is not None
        if not room[width]:
            continue
        out.append(column["id"])
    return out


def _turn_colours(rules: dict) -> list[str]:
    """Colours the builder may move in the current step of their turn."""
    seat = rules["turn"]
    if rules["neutral"] is not None and rules["step"] == "neutral":
        return [rules["neutral"]]
    if len(rules["seats"]) == 2:
        return [rules["turn_colour"]] if rules["turn_colour"] else _seat_colours_of(rules, seat)
    return _seat_colours_of(rules, seat)


def _context_movable(rules: dict) -> list[int]:
    """Columns the actor may touch in the current context."""
    actor = rules["to_act"]
    context = rules["context"]
    if context == CONTEXT_CLAIM_PROTEST:
        return _protest_movable(rules, actor)
    if context == CONTEXT_NEUTRAL_PROTEST:
        aborted = rules["neutral_protest"]["aborted"]
        return _movable(rules, actor, [rules["neutral"]], allow_locked=aborted)
    return _movable(rules, actor, _turn_colours(rules))


def _polish_protest(rules: dict) -> bool:
    return rules["options"].get("protest", "french") == "polish"


def _protest_movable(rules: dict, seat: int) -> list[int]:
    """What a protester may move to prove a claim wrong. French text: one of the
    claimant's columns. Polish text: a column of any colour from under the top platform."""
    if _polish_protest(rules):
        top_supports = rules["laid"] - 1
        movable = _movable(rules, seat, list(COLUMN_COLOURS))
        return [c for c in movable if rules["columns"][c]["level"] == top_supports]
    return _movable(rules, seat, _seat_colours_of(rules, rules["claim"]["claimant"]))


def _can_ask_platform(rules: dict) -> bool:
    """A player may claim while a platform is left to lay (French record: the claim is what
    the player "affirme"; whether the platform can rest on 3 columns is seen only when it is
    laid: "si ce n'est pas possible, ... il passe son tour")."""
    return rules["laid"] < len(PLATFORM_COLOURS)


def _can_act(rules: dict, seat: int) -> bool:
    colours = list(_seat_colours_of(rules, seat))
    if rules["neutral"] is not None:
        colours.append(rules["neutral"])
    return bool(_movable(rules, seat, colours)) or _can_ask_platform(rules)


def _protest_possible(rules: dict, seat: int) -> bool:
    if rules["phase"] == PHASE_CLAIM:
        return bool(_protest_movable(rules, seat))
    aborted = rules["neutral_protest"]["aborted"]
    return bool(_movable(rules, seat, [rules["neutral"]], allow_locked=aborted))


# -- scores, seal, turns -----------------------------------------------------------------


def scores(rules: dict) -> list[int]:
    """Points per seat: values of their colours' columns on the top level (neutral: nobody)."""
    owner = {}
    for seat, info in enumerate(rules["seats"]):
        for colour in info["colours"]:
            owner[colour] = seat
    out = [0] * len(rules["seats"])
    for column in _top_columns(rules):
        seat = owner.get(column["colour"])
        if seat is not None:
            out[seat] += column["value"]
    return out


def _update_seal(rules: dict, events: list) -> None:
    rules["scores"] = points = scores(rules)
    seal = rules["seal"]
    if not seal["started"]:
        start = SEAL_START_LEVEL[rules["options"]["seal_start"]]
        if any(_in_play(c) and c["level"] >= start for c in rules["columns"]):
            seal["started"] = True
            events.append(_event("seal_race_started", "The race for the seal has begun."))
    if not seal["started"]:
        return
    best = max(points)
    leaders = [seat for seat, p in enumerate(points) if p == best]
    holder = seal["holder"]
    if best > 0 and len(leaders) == 1 and leaders[0] != holder:
        seal["previous"] = holder
        seal["holder"] = leaders[0]
        events.append(
            _event(
                "seal_taken",
                f"{rules['seats'][leaders[0]]['name']} takes the master builder's seal.",
                seat=leaders[0],
                previous=holder,
            )
        )


def _finish(rules: dict, reason: str, events: list, collapse: dict | None = None) -> None:
    seal = rules["seal"]
    rules["scores"] = scores(rules)
    rules["phase"] = PHASE_OVER
    rules["to_act"] = None
    rules["end_reason"] = reason
    rules["collapse"] = collapse
    rules["touched"] = None
    rules["touch_load"] = None
    winner, outcome = None, "race_not_begun"
    if seal["started"] and seal["holder"] is None:
        outcome = "no_seal_holder"
    elif seal["started"]:
        winner, outcome = seal["holder"], "seal_holder"
        if collapse is not None and collapse["by"] == winner:
            # The holder brought the villa down: the previous holder wins, if there was one.
            winner = seal["previous"]
            outcome = "previous_holder" if winner is not None else "no_previous_holder"
    rules["winner"] = winner
    rules["outcome"] = outcome
    name = rules["seats"][winner]["name"] if winner is not None else "Nobody"
    events.append(
        _event(
            "game_over",
            f"The game is over. {name} wins ({outcome.replace('_', ' ')}).",
            winner=winner,
            reason=reason,
            outcome=outcome,
        )
    )


def _start_turn(rules: dict, seat: int, events: list) -> None:
    """Give the turn to `seat`, or the next seat that can do something; end if none can."""
    n = len(rules["seats"])
    for k in range(n):
        candidate = (seat + k) % n
        if _can_act(rules, candidate):
            break
        events.append(
            _event(
                "player_skipped",
                f"{rules['seats'][candidate]['name']} can neither move a column nor ask for a "
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
    rules["step"] = None
    if rules["neutral"] is not None:
        has_neutral = bool(_movable(rules, candidate, [rules["neutral"]]))
        rules["step"] = "neutral" if has_neutral else "own"
    rules["phase"] = PHASE_MOVE
    if len(rules["seats"]) == 2:
        colours = [c for c in _seat_colours_of(rules, candidate) if _movable(rules, candidate, [c])]
        if colours:
            rules["phase"] = PHASE_CHOOSE_COLOUR


def _end_turn(rules: dict, events: list, passed: bool = False) -> None:
    if not passed:
        rules["passes"] = 0
    _update_seal(rules, events)
    _start_turn(rules, (rules["turn"] + 1) % len(rules["seats"]), events)


def _own_step(rules: dict, events: list) -> None:
    """3 players: after the neutral move, the builder moves one of their own columns."""
    rules.update(
        step="own",
        phase=PHASE_MOVE,
        context=CONTEXT_TURN,
        to_act=rules["turn"],
        touched=None,
        touch_load=None,
        holding=None,
        neutral_protest=None,
    )
    if not _movable(rules, rules["turn"], _turn_colours(rules)) and not _can_ask_platform(rules):
        _end_turn(rules, events)


# -- legal actions -----------------------------------------------------------------------


def legal_actions(state: State) -> list[dict]:
    """Every action the player to act may take, each postable verbatim to apply_action."""
    rules = state.rules
    phase = rules["phase"]
    seat = rules["to_act"]
    if phase == PHASE_OVER:
        return []
    out: list[dict] = []

    def add(kind: str, **params) -> None:
        out.append({"type": kind, "seat": seat, **params})

    if phase == PHASE_CHOOSE_COLOUR:
        for colour in _seat_colours_of(rules, seat):
            if _movable(rules, seat, [colour]):
                add("choose_colour", colour=colour)
        if _can_ask_platform(rules):
            add("ask_platform")
    elif phase == PHASE_MOVE:
        for column_id in _context_movable(rules):
            add("touch", column=column_id)
        if rules["context"] == CONTEXT_TURN and _can_ask_platform(rules):
            add("ask_platform")
    elif phase == PHASE_TOUCHED:
        add("pull", column=rules["touched"])
        add("abort", column=rules["touched"])
    elif phase == PHASE_HOLDING:
        column_id = rules["holding"]["column"]
        for x, z, lane in placement_candidates(rules, column_id):
            add("place", column=column_id, x=x, z=z, lane=lane)
        add("abort", column=column_id)
    elif phase in (PHASE_CLAIM, PHASE_NEUTRAL_PROTEST):
        if _protest_possible(rules, seat):
            add("protest")
        add("decline")
    elif phase in (PHASE_PENALTY, PHASE_REWARD):
        for column_id in _removable(rules):
            add("remove_column", column=column_id)
    elif phase == PHASE_LAY:
        for x in lay_candidates(rules):
            add("lay_platform", x=x)
    if _may_pass(rules):
        add("pass")
    return out


# -- applying actions --------------------------------------------------------------------


def _refuse(code: str, reason: str):
    raise IllegalAction(code, reason)


def _number(action: dict, key: str) -> float:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        _refuse("bad_parameter", f"The action needs a number '{key}'.")
    return float(value)


def _integer(action: dict, key: str) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        _refuse("bad_parameter", f"The action needs an integer '{key}'.")
    return value


def _moved(ctx: "_Context", outcome: villa.Outcome, first_frame: bool = True) -> dict | None:
    """Keep a motion's frames and steps; the villa's poses follow its places. Returns the
    collapse, if the villa came down."""
    ctx.steps += outcome.steps
    frames = outcome.frames if first_frame or not ctx.frames else outcome.frames[1:]
    ctx.frames.extend(frames)
    if outcome.collapse is None:
        villa.sync_rest(ctx.rules)
    return outcome.collapse


def _failed_level(rules: dict, piece: str) -> int:
    """The level that failed: a platform's own level (blue = 1), a column's level (base 0).

    A column caught in the fall may already be out of play (in hand); its level is kept.
    """
    if piece[0] == "p":
        return int(piece[1:]) + 1
    return rules["columns"][int(piece[1:])]["level"]


def level_name(level: int) -> str:
    """'base' for level 0, else the colour of the platform the level stands on."""
    return "base" if level == 0 else PLATFORM_COLOURS[level - 1]


def _collapse_event(rules: dict, collapse: dict, actor: int, events: list) -> None:
    level = _failed_level(rules, collapse["piece"])
    name = rules["seats"][actor]["name"]
    direction = collapse["direction"]
    events.append(
        _event(
            "collapse",
            f"The villa collapses towards the {direction} ({collapse['reason'].replace('_', ' ')}, "
            f"at the {level_name(level)} level); {name} caused it.",
            by=actor,
            reason=collapse["reason"],
            level=level,
            direction=direction,
            view="side" if direction in ("front", "back") else "front",
        )
    )
    record = {
        "by": actor,
        "reason": collapse["reason"],
        "level": level,
        "piece": collapse["piece"],
        "direction": direction,
        # Which flat drawing shows it best: the front one for a fall across the width.
        "view": "side" if direction in ("front", "back") else "front",
    }
    _finish(rules, "collapse", events, record)


def _scripted_frames(key: str, pose: list, side: list) -> list[dict]:
    """A piece coming down onto its place from PLACE_ANIMATION_HEIGHT above it."""
    n = max(1, int(round(PLACE_ANIMATION_TIME / FRAME_TIME)))
    frames = []
    for k in range(n):
        lift = PLACE_ANIMATION_HEIGHT * (1 - k / n)
        frames.append(
            {
                "t": round(k * FRAME_TIME, 3),
                "poses": {key: _q(pose[0], pose[1] + lift, pose[2])},
                "side": {key: _q(side[0], side[1] + lift, side[2])},
            }
        )
    return frames


def _q(x: float, y: float, a: float) -> list[float]:
    return [round(x, 1), round(y, 1), round(a, 3)]


def _check_seat(rules: dict, action: dict) -> int:
    seat = rules["to_act"]
    if "seat" in action and action["seat"] != seat:
        _refuse("not_your_turn", "It is not this player's turn to act.")
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
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        _refuse("malformed", "An action is an object with a 'type'.")
    rules = state.rules
    if rules["phase"] == PHASE_OVER:
        _refuse("game_over", "The game is over; no action is accepted.")
    seat = _check_seat(rules, action)
    kind = action["type"]
    # A JSON round trip copies faster than deepcopy and keeps the state JSON-able.
    rules = json.loads(json.dumps({k: v for k, v in rules.items() if k != "log"}))
    handler = _HANDLERS.get(kind)
    if handler is None:
        _refuse("unknown_action", f"Unknown action '{kind}'.")
    ctx = _Context(rules, record, tremor and rules["options"]["tremor"] > 0, tremor)
    handler(ctx, seat, action)
    logged = {**action, "seat": seat}
    rules["actions"] += 1
    rules["scores"] = scores(rules)
    return ActionResult(State(rules), ctx.frames, ctx.events, ctx.steps, logged)


class _Context:
    """Per-action working set: the rules copy, frames, events."""

    def __init__(self, rules: dict, record: bool, tremor: bool, chance: bool):
        self.rules = rules
        self.record = record
        # tremor: the tremor option's placement error applies; chance: the hand's dice roll
        # (off when a bot looks ahead: it cannot foresee its own hand).
        self.tremor = tremor
        self.chance = chance
        self.frames: list = []
        self.events: list = []
        self.steps = 0

    def hand(self) -> Chance:
        return Chance.draw(_hand_rng(self.rules)) if self.chance else FORESEEN


def _need_phase(rules: dict, *phases: str) -> None:
    if rules["phase"] not in phases:
        _refuse("wrong_phase", f"That action is not possible now (phase: {rules['phase']}).")


def _do_choose_colour(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_CHOOSE_COLOUR)
    colour = action.get("colour")
    if colour not in _seat_colours_of(rules, seat):
        _refuse("not_your_colour", "Choose one of your own two colours.")
    if not _movable(rules, seat, [colour]):
        _refuse("colour_blocked", "None of the columns of that colour can be moved.")
    rules["turn_colour"] = colour
    rules["phase"] = PHASE_MOVE
    ctx.events.append(_event("colour_chosen", f"Playing {colour} this turn.", colour=colour))


def _do_touch(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_MOVE)
    column_id = _integer(action, "column")
    if not 0 <= column_id < len(COLUMNS):
        _refuse("no_such_column", "There is no such column.")
    column = rules["columns"][column_id]
    if column_id not in _context_movable(rules):
        _refuse(*_touch_problem(rules, column, seat))
    # The load is rounded once, here: every place that shows it shows this figure.
    load = int(round(villa.column_load(rules, column_id)))
    rules.update(phase=PHASE_TOUCHED, touched=column_id, touch_load=load)
    ctx.events.append(_event("touched", f"The column bears {load} g.", column=column_id, load=load))


def _touch_problem(rules: dict, column: dict, seat: int) -> tuple[str, str]:
    if not _in_play(column):
        return "column_out", "That column is out of the game."
    if column["level"] >= rules["laid"]:
        return "top_level", "Columns on the top platform may not be moved."
    if column["locked"]:
        return "locked", "That column was touched and put back; it is locked for the game."
    if not _may_place(rules, seat):
        return "own_platform", "You may not place a column on the platform you laid."
    if column["colour"] == rules["neutral"] and rules["context"] != CONTEXT_CLAIM_PROTEST:
        if rules["context"] == CONTEXT_TURN and rules["step"] != "neutral":
            return "not_your_colour", "Now move one of your own columns."
        return "last_neutral", "The last neutral column of a level may not be moved."
    if rules["context"] == CONTEXT_TURN and rules["step"] == "neutral":
        return "neutral_first", "Move a neutral column first."
    if len(rules["seats"]) == 2 and rules["context"] == CONTEXT_TURN:
        return "not_your_colour", "Move a column of the colour you chose for this turn."
    return "not_your_colour", "You may only move a column of the right colour."


def _gesture(action: dict, low: float, high: float, default: float) -> Gesture:
    """The hand's speed and steadiness from an action, each optional, each within range."""
    speed = _optional_number(action, "speed", low, high, default)
    steadiness = _optional_number(action, "steadiness", 0.0, 1.0, STEADINESS_DEFAULT)
    return Gesture(speed=speed, steadiness=steadiness)


def _optional_number(action: dict, key: str, low: float, high: float, default: float) -> float:
    if key not in action:
        return default
    value = _number(action, key)
    if not low <= value <= high:
        _refuse("bad_parameter", f"'{key}' must lie between {low:g} and {high:g}.")
    return value


def _hand_rng(rules: dict) -> random.Random:
    """The hand's dice for this action: from the match seed and the action's number."""
    return random.Random(f"{rules['seed']}:hand:{rules['actions']}")  # noqa: S311


def _do_pull(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_TOUCHED)
    column_id = action.get("column", rules["touched"])
    if column_id != rules["touched"]:
        _refuse("not_touched", "Only the column you touched may be pulled.")
    gesture = _gesture(action, PULL_SPEED_MIN, PULL_SPEED_MAX, PULL_SPEED_DEFAULT)
    column = rules["columns"][column_id]
    rules["holding"] = {
        "column": column_id,
        "origin": {k: column[k] for k in ("x", "z", "level", "where", "on")},
    }
    outcome = villa.pull(rules, column_id, gesture, ctx.hand(), record=ctx.record)
    collapse = _moved(ctx, outcome)
    column["where"] = "hand"
    column["pose"] = column["side"] = None
    if collapse:
        _collapse_event(rules, collapse, seat, ctx.events)
        return
    if outcome.knocked:
        # Rule 6 of the French record: one may not move the other columns. The villa
        # stands; what moved was put back (villa.pull), and the build has failed.
        ctx.events.append(
            _event(
                "pull_failed",
                "The column moved another column on its way out: the build has failed.",
                column=column_id,
                moved=outcome.knocked,
                problem="moved_another",
            )
        )
        _give_up_build(ctx, seat, column_id, rules["holding"])
        return
    rules.update(phase=PHASE_HOLDING, touched=None, touch_load=None)
    ctx.events.append(
        _event("pulled", "The column is out and the villa still stands.", column=column_id)
    )


# How far a set-down column may end beyond the platform's end, or above its top, before it
# counts as half off the platform (rule 3) or standing on another column (rule 8), in mm.
RESTING_TOLERANCE = 1.0


def _resting_problem(rules: dict, column_id: int) -> tuple | None:
    """Whether a column, where it came to rest on the top platform, breaks rule 3 (half off
    the platform) or rule 8 (on another column, below red): the aim is checked before the
    placement, this checks where the hand actually put it."""
    top = _top_index(rules)
    platform = rules["platforms"][top]
    column = rules["columns"][column_id]
    half = PLATFORM_LENGTHS[top] / 2 - COLUMNS[column_id].width / 2 + RESTING_TOLERANCE
    if abs(column["x"] - platform["x"]) > half or abs(column["z"] - platform["z"]) > half:
        return "off_platform", "The column came to rest half off the platform."
    if top != RED:
        x, z = column["x"] - platform["x"], column["z"] - platform["z"]
        if _overlapped(rules, column_id, x, z):
            return "on_column", "The column came to rest against another column."
    return None


def _place_spot(rules: dict, action: dict) -> tuple[float, float]:
    """(x, z) of a placement from the top platform's centre: "z" in mm, or one of the
    page's three depth rows ("lane")."""
    x = _number(action, "x")
    if "z" in action:
        return x, _number(action, "z")
    lane = _integer(action, "lane")
    if lane not in LANES:
        _refuse("bad_lane", "There is no such lane.")
    low, high = placement_range(rules, rules["holding"]["column"])
    return x, max(low, min(high, LANE_DEPTH[lane]))


def _do_place(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_HOLDING)
    column_id = rules["holding"]["column"]
    if action.get("column", column_id) != column_id:
        _refuse("not_holding", "You can only place the column you hold.")
    x, z = _place_spot(rules, action)
    problem = placement_problem(rules, column_id, x, z)
    if problem:
        _refuse(*problem)
    gesture = _gesture(action, PLACE_SPEED_MIN, PLACE_SPEED_MAX, PLACE_SPEED_DEFAULT)
    if ctx.tremor:
        # The tremor comes from the match seed and the action's index, so replays agree.
        rng = random.Random(f"{rules['seed']}:tremor:{rules['actions']}")  # noqa: S311
        sigma = rules["options"]["tremor"]
        x += rng.gauss(0.0, sigma)
        z += rng.gauss(0.0, sigma)
    top = _top_index(rules)
    on = stack_top(rules, column_id, x, z) if top == RED else None
    chance = ctx.hand() if ctx.chance else None
    outcome = villa.place(rules, column_id, x, z, on, gesture, chance, record=ctx.record)
    if ctx.record and outcome.frames:
        first = outcome.frames[0]
        key = column_key(column_id)
        pose, side = first["poses"].get(key), first["side"].get(key)
        if pose and side:
            lead = _scripted_frames(key, pose, side)
            for frame in outcome.frames:
                frame["t"] = round(frame["t"] + PLACE_ANIMATION_TIME, 3)
            outcome.frames = lead + outcome.frames
    holding = rules["holding"]
    rules["holding"] = None
    if outcome.fell_alone:
        # The column fell over or off by itself; the villa stands. The French record ends
        # the game when "la VILLA PALETTI s'écroule", the villa; a build that fails is an
        # interrupted one: the column goes back where it was taken from and is locked.
        ctx.steps += outcome.steps
        ctx.frames.extend(outcome.frames)
        ctx.events.append(
            _event(
                "placement_failed",
                "The column fell over: the build has failed.",
                column=column_id,
                problem="fell_over",
            )
        )
        column = rules["columns"][column_id]
        column.update(where="hand")
        _give_up_build(ctx, seat, column_id, holding)
        return
    collapse = _moved(ctx, outcome)
    if collapse:
        _collapse_event(rules, collapse, seat, ctx.events)
        return
    broken = _resting_problem(rules, column_id)
    if broken:
        # Where the hand actually put it breaks rule 3 or 8: the build is given up.
        ctx.events.append(
            _event("placement_failed", broken[1], column=column_id, problem=broken[0])
        )
        _give_up_build(ctx, seat, column_id, holding)
        return
    # Where it now stands may be too much for the villa: the statics decide.
    collapse = _moved(ctx, villa.settle_after(rules, record=ctx.record, t0=_last_time(ctx.frames)))
    if collapse:
        _collapse_event(rules, collapse, seat, ctx.events)
        return
    rules["built"] = True
    ctx.events.append(
        _event(
            "placed",
            f"The column stands on the {PLATFORM_COLOURS[top]} platform.",
            column=column_id,
            platform=PLATFORM_COLOURS[top],
        )
    )
    context = rules["context"]
    if context == CONTEXT_CLAIM_PROTEST:
        _protest_succeeded(ctx, column_id)
    elif context == CONTEXT_NEUTRAL_PROTEST:
        ctx.events.append(
            _event(
                "neutral_protest_upheld",
                "The protest is upheld: the builder loses their own move.",
                seat=rules["turn"],
            )
        )
        _end_turn(rules, ctx.events)
    elif rules["step"] == "neutral":
        _own_step(rules, ctx.events)
    else:
        _end_turn(rules, ctx.events)


def _protest_succeeded(ctx: _Context, column_id: int) -> None:
    rules = ctx.rules
    if _polish_protest(rules):
        # Polish text: the column stays where the protester put it, no platform is laid,
        # and the protester may remove any column from the game as a reward.
        protester = rules["claim"]["protester"]
        ctx.events.append(
            _event(
                "protest_rewarded",
                "The protest succeeds: no platform is laid, and the protester may remove "
                "any column from the game.",
                seat=protester,
            )
        )
        rules.update(phase=PHASE_REWARD, to_act=protester, context=CONTEXT_TURN)
        return
    rules["columns"][column_id].update(where="out", pose=None, side=None)
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
    collapse = _moved(ctx, villa.settle_after(rules, record=ctx.record, t0=_last_time(ctx.frames)))
    ctx.events.append(
        _event(
            "protest_succeeded",
            "The protest succeeds: the column is removed from the game and no platform is laid.",
            column=column_id,
        )
    )
    if collapse:
        _collapse_event(rules, collapse, rules["to_act"], ctx.events)
        return
    _end_turn(rules, ctx.events)


def _last_time(frames: list) -> float:
    return frames[-1]["t"] if frames else 0.0


def _do_abort(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_TOUCHED, PHASE_HOLDING)
    column_id = rules["touched"] if rules["phase"] == PHASE_TOUCHED else rules["holding"]["column"]
    if action.get("column", column_id) != column_id:
        _refuse("not_touched", "Only the column you touched can be put back.")
    _give_up_build(ctx, seat, column_id, rules["holding"])


def _give_up_build(ctx: _Context, seat: int, column_id: int, holding: dict | None) -> None:
    """The build is given up: a column taken out (`holding`) goes back where it came from,
    and is locked for the rest of the game (French text; the Polish one does not lock it).
    Then the turn, or the protest it was part of, goes on as after an abort."""
    rules = ctx.rules
    column = rules["columns"][column_id]
    locks = rules["options"].get("abort", "french") == "french"
    if holding is not None:
        # Put back where it was taken from; the statics then decide.
        column.update(holding["origin"])
        villa.sync_rest(rules)
        if ctx.record:
            key = column_key(column_id)
            ctx.frames.extend(_scripted_frames(key, column["pose"], column["side"]))
        collapse = _moved(
            ctx, villa.settle_after(rules, record=ctx.record, t0=_last_time(ctx.frames))
        )
        if collapse:
            column["locked"] = locks
            _collapse_event(rules, collapse, seat, ctx.events)
            return
    column["locked"] = locks
    rules.update(touched=None, touch_load=None, holding=None)
    ctx.events.append(
        _event(
            "aborted",
            "The column goes back and is locked for the rest of the game."
            if locks
            else "The column goes back.",
            column=column_id,
            locked=locks,
        )
    )
    context = rules["context"]
    if context == CONTEXT_CLAIM_PROTEST:
        _protest_failed(ctx)
    elif context == CONTEXT_NEUTRAL_PROTEST:
        ctx.events.append(
            _event(
                "neutral_protest_failed", "The protest fails: the builder moves their own column."
            )
        )
        _own_step(rules, ctx.events)
    elif rules["step"] == "neutral":
        others = [(rules["turn"] + k) % len(rules["seats"]) for k in range(1, len(rules["seats"]))]
        rules.update(
            phase=PHASE_NEUTRAL_PROTEST,
            neutral_protest={
                "player": rules["turn"],
                "asked": others,
                "protester": None,
                "aborted": column_id,
            },
            to_act=others[0],
        )
    else:
        _end_turn(rules, ctx.events)


def _protest_failed(ctx: _Context) -> None:
    rules = ctx.rules
    claim = rules["claim"]
    ctx.events.append(
        _event(
            "protest_failed",
            "The protest fails: the claimant removes one of the protester's columns.",
            protester=claim["protester"],
        )
    )
    protester_colours = _seat_colours_of(rules, claim["protester"])
    if any(_in_play(c) and c["colour"] in protester_colours for c in rules["columns"]):
        rules.update(phase=PHASE_PENALTY, to_act=claim["claimant"], context=CONTEXT_TURN)
    elif _polish_protest(rules):
        _end_turn(rules, ctx.events)  # no lay after an objection (Polish text)
    else:
        rules.update(phase=PHASE_LAY, to_act=claim["claimant"], context=CONTEXT_TURN)


def _do_ask_platform(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_MOVE, PHASE_CHOOSE_COLOUR)
    if rules["context"] != CONTEXT_TURN:
        _refuse("wrong_phase", "Only the builder may ask for a new platform.")
    if rules["laid"] >= len(PLATFORM_COLOURS):
        _refuse("no_platform_left", "All five platforms are already laid.")
    n = len(rules["seats"])
    others = [(seat + k) % n for k in range(1, n)]
    rules.update(
        phase=PHASE_CLAIM,
        claim={"claimant": seat, "asked": others, "protester": None},
        to_act=others[0],
    )
    ctx.events.append(
        _event(
            "platform_asked",
            f"{rules['seats'][seat]['name']} asks to lay a new platform.",
            seat=seat,
        )
    )


def _do_protest(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_CLAIM, PHASE_NEUTRAL_PROTEST)
    if not _protest_possible(rules, seat):
        _refuse("cannot_protest", "You have no column you could move to prove your protest.")
    name = rules["seats"][seat]["name"]
    if rules["phase"] == PHASE_CLAIM:
        rules["claim"]["protester"] = seat
        rules["claim"]["asked"] = []
        rules.update(phase=PHASE_MOVE, context=CONTEXT_CLAIM_PROTEST, to_act=seat)
        text = f"{name} protests and must move one of the claimant's columns to the top."
    else:
        rules["neutral_protest"]["protester"] = seat
        rules["neutral_protest"]["asked"] = []
        rules.update(phase=PHASE_MOVE, context=CONTEXT_NEUTRAL_PROTEST, to_act=seat)
        text = f"{name} protests and must move a neutral column to the top."
    ctx.events.append(_event("protest", text, seat=seat))


def _do_decline(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_CLAIM, PHASE_NEUTRAL_PROTEST)
    key = "claim" if rules["phase"] == PHASE_CLAIM else "neutral_protest"
    asked = rules[key]["asked"]
    asked.pop(0)
    if asked:
        rules["to_act"] = asked[0]
        return
    if key == "claim":
        rules.update(phase=PHASE_LAY, to_act=rules["claim"]["claimant"])
        ctx.events.append(
            _event("claim_unchallenged", "Nobody protests: the new platform may be laid.")
        )
    else:
        ctx.events.append(
            _event("neutral_unchallenged", "Nobody protests: the builder moves their own column.")
        )
        _own_step(rules, ctx.events)


def _removable(rules: dict) -> list[int]:
    """Columns that may be removed from the game now: after a failed protest, the
    protester's; as the Polish text's reward for a successful protest, any in play."""
    if rules["phase"] == PHASE_REWARD:
        return [c["id"] for c in rules["columns"] if _in_play(c)]
    colours = _seat_colours_of(rules, rules["claim"]["protester"])
    return [c["id"] for c in rules["columns"] if _in_play(c) and c["colour"] in colours]


def _do_remove_column(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_PENALTY, PHASE_REWARD)
    column_id = _integer(action, "column")
    if not 0 <= column_id < len(COLUMNS):
        _refuse("no_such_column", "There is no such column.")
    column = rules["columns"][column_id]
    if column_id not in _removable(rules):
        if rules["phase"] == PHASE_REWARD:
            _refuse("column_out", "That column is out of the game.")
        _refuse("not_protesters_column", "Remove one of the protester's columns still in play.")
    gesture = _gesture(action, PULL_SPEED_MIN, PULL_SPEED_MAX, PULL_SPEED_DEFAULT)
    collapse = _moved(ctx, villa.pull(rules, column_id, gesture, ctx.hand(), record=ctx.record))
    column.update(where="out", pose=None, side=None)
    ctx.events.append(
        _event("column_removed", "The column is removed from the game.", column=column_id)
    )
    if collapse:
        _collapse_event(rules, collapse, seat, ctx.events)
        return
    if rules["phase"] == PHASE_REWARD:
        _end_turn(rules, ctx.events)
        return
    if _polish_protest(rules):
        # Polish text: the platform is laid only if nobody objects ("Jeśli nie ma żadnych
        # zastrzeżeń"); after a failed protest the penalty ends the claimant's turn.
        _end_turn(rules, ctx.events)
        return
    rules.update(phase=PHASE_LAY, to_act=rules["claim"]["claimant"])


def _do_lay_platform(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_LAY)
    x = _number(action, "x")
    index = rules["laid"]
    z = _number(action, "z") if "z" in action else rules["platforms"][index - 1]["z"]
    problem = lay_problem(rules, x, z)
    if problem:
        _refuse(*problem)
    platform = rules["platforms"][index]
    platform.update(x=x, z=z, laid_by=seat)
    rules["laid"] += 1
    villa.sync_rest(rules)
    if ctx.record:
        ctx.frames.extend(_scripted_frames(platform_key(index), platform["pose"], platform["side"]))
    collapse = _moved(ctx, villa.settle_after(rules, record=ctx.record, t0=_last_time(ctx.frames)))
    if collapse:
        _collapse_event(rules, collapse, seat, ctx.events)
        return
    ctx.events.append(
        _event(
            "platform_laid",
            f"The {PLATFORM_COLOURS[index]} platform is laid; the count for the seal starts again.",
            platform=PLATFORM_COLOURS[index],
        )
    )
    _end_turn(rules, ctx.events)


def _may_pass(rules: dict) -> bool:
    """Passing is a choice where the French text says "peut" (may): asking for a platform
    when it is one's only move, removing a protester's column, laying the platform."""
    phase = rules["phase"]
    if phase == PHASE_PENALTY and _polish_protest(rules):
        return False  # Polish text: the builder "usuwa" (removes) one: not a choice
    if phase in (PHASE_PENALTY, PHASE_REWARD, PHASE_LAY):
        return True
    if phase not in (PHASE_MOVE, PHASE_CHOOSE_COLOUR) or rules["context"] != CONTEXT_TURN:
        return False
    if phase == PHASE_CHOOSE_COLOUR:
        return False  # a colour with a movable column exists, or the phase would be move
    return not _context_movable(rules) and _can_ask_platform(rules)


def _do_pass(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    if not _may_pass(rules):
        if rules["phase"] in (PHASE_MOVE, PHASE_CHOOSE_COLOUR):
            _refuse("must_act", "You can still move a column; passing is not allowed.")
        _refuse("wrong_phase", f"That action is not possible now (phase: {rules['phase']}).")
    name = rules["seats"][seat]["name"]
    phase = rules["phase"]
    if phase == PHASE_PENALTY:
        ctx.events.append(
            _event(
                "penalty_waived",
                f"{name} removes none of the protester's columns.",
                seat=seat,
            )
        )
        rules["phase"] = PHASE_LAY
        return
    if phase == PHASE_REWARD:
        ctx.events.append(
            _event("reward_waived", f"{name} removes no column from the game.", seat=seat)
        )
        _end_turn(rules, ctx.events)
        return
    if phase == PHASE_LAY:
        if lay_candidates(rules):
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


def _turn_without_building(ctx: _Context) -> None:
    """The turn ends with nothing built by the builder: it counts towards a whole round of
    passes, which ends the game (nobody can place a column or a platform on the top level,
    French record D). A turn whose neutral step moved a column (3 players) built something:
    it does not count."""
    rules = ctx.rules
    if rules.get("built"):
        _end_turn(rules, ctx.events)
        return
    rules["passes"] = rules.get("passes", 0) + 1
    if rules["passes"] >= len(rules["seats"]):
        # A whole round of passes: nobody will build on the top level any more.
        _update_seal(rules, ctx.events)
        _finish(rules, "no_moves", ctx.events)
        return
    _end_turn(rules, ctx.events, passed=True)


_HANDLERS = {
    "choose_colour": _do_choose_colour,
    "touch": _do_touch,
    "pull": _do_pull,
    "place": _do_place,
    "abort": _do_abort,
    "ask_platform": _do_ask_platform,
    "protest": _do_protest,
    "decline": _do_decline,
    "remove_column": _do_remove_column,
    "lay_platform": _do_lay_platform,
    "pass": _do_pass,
}
