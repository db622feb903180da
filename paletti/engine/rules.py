"""The rules of Villa Paletti as a state machine over a JSON rules state and a pymunk world.

A `State` is the stored truth: `rules` (a JSON-able dict) and `blob` (the pickled world).
`apply_action` never mutates the state it gets: it copies the rules, loads a fresh world
from the blob when the action needs physics, and returns a new `State`.

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

from .hands import (
    FORESEEN_WOBBLE,
    PLACE_SPEED_DEFAULT,
    PLACE_SPEED_MAX,
    PLACE_SPEED_MIN,
    PULL_SPEED_DEFAULT,
    PULL_SPEED_MAX,
    PULL_SPEED_MIN,
    STEADINESS_DEFAULT,
    Gesture,
    PullDriver,
    place_tilt,
    platform_end,
    wobble,
)
from .physics import SIDE_PREFIX, World, column_key, platform_key, settle_storable
from .pieces import (
    BASE_LENGTH,
    COLUMN_COLOURS,
    COLUMN_HEIGHT,
    COLUMNS,
    LANES,
    PLATFORM_COLOURS,
    PLATFORM_LENGTHS,
    PLATFORM_THICKNESS,
    RED,
)
from .setup import SetupError, default_setup, random_setup, validate_setup

RULES_VERSION = 2

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
    """A match: its JSON-able rules state, its pickled world and that world's digest
    (see World.digest), which identifies the physics where the pickle's bytes cannot."""

    rules: dict
    blob: bytes
    physics: str


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

    world = World.build(setup["columns"], setup["blue_x"])
    world, _, blob = settle_storable(world, record=False, reference=world.poses())
    lanes = {c["id"]: c["lane"] for c in setup["columns"]}
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
                "lane": lanes[spec.id],
                "level": 0,
                "where": "base",
                "locked": False,
                "pose": None,
                "side": None,
            }
            for spec in COLUMNS
        ],
        "platforms": [
            {"index": i, "colour": colour, "laid_by": None, "pose": None, "side": None}
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
    _sync_poses(rules, world)
    events: list = []
    _start_turn(rules, first, events)
    return State(rules, blob, world.digest())


# -- geometry read from the rules state --------------------------------------------------


def _to_local(pose: list, x: float, y: float) -> tuple[float, float]:
    dx, dy = x - pose[0], y - pose[1]
    c, s = math.cos(pose[2]), math.sin(pose[2])
    return dx * c + dy * s, -dx * s + dy * c


def _in_play(column: dict) -> bool:
    return column["where"] in ("base", "platform")


def _top_columns(rules: dict) -> list[dict]:
    return [c for c in rules["columns"] if _in_play(c) and c["level"] == rules["laid"]]


def _top_index(rules: dict) -> int:
    return rules["laid"] - 1


def placement_range(rules: dict, column_id: int) -> tuple[float, float]:
    """Interval of x (platform-local, mm from its centre) keeping a column fully on top."""
    half = PLATFORM_LENGTHS[_top_index(rules)] / 2 - COLUMNS[column_id].width / 2
    return -half, half


def lane_spans(rules: dict, lane: int) -> list[tuple[float, float, float]]:
    """(left, right, top) of the top level's columns of a lane, in the top platform's frame."""
    pose = rules["platforms"][_top_index(rules)]["pose"]
    spans = []
    for column in _top_columns(rules):
        if column["lane"] != lane:
            continue
        x, y = _to_local(pose, column["pose"][0], column["pose"][1])
        half = COLUMNS[column["id"]].width / 2
        spans.append((x - half, x + half, y + COLUMN_HEIGHT / 2))
    return spans


def _overlapping(spans: list, left: float, right: float) -> list:
    return [
        s for s in spans if s[0] < right + PLACEMENT_CLEARANCE and s[1] > left - PLACEMENT_CLEARANCE
    ]


def placement_problem(rules: dict, column_id: int, x: float, lane: int) -> tuple | None:
    """Why a column may not be placed at (x, lane) on the top platform, or None."""
    low, high = placement_range(rules, column_id)
    if lane not in LANES:
        return "bad_lane", "There is no such lane."
    if not low - 1e-9 <= x <= high + 1e-9:
        return "off_platform", "No column may stand half off the platform."
    half = COLUMNS[column_id].width / 2
    if _top_index(rules) != RED and _overlapping(lane_spans(rules, lane), x - half, x + half):
        return "on_column", "A column may stand on another column only on the red platform."
    return None


def placement_candidates(rules: dict, column_id: int) -> list[tuple[float, int]]:
    """The listed (x, lane) positions: every POSITION_GRID mm where placing is legal."""
    return list(_placements(rules, column_id))


def _placements(rules: dict, column_id: int) -> Iterator[tuple[float, int]]:
    """placement_candidates one at a time: the same test as placement_problem, with each
    lane's spans computed once. This runs for every movable column whenever legal actions
    are listed, where the first free spot is enough to know there is room."""
    low, high = placement_range(rules, column_id)
    first = math.ceil(low / POSITION_GRID)
    last = math.floor(high / POSITION_GRID)
    half = COLUMNS[column_id].width / 2
    on_red = _top_index(rules) == RED
    for lane in LANES:
        spans = [] if on_red else lane_spans(rules, lane)
        for k in range(first, last + 1):
            x = k * POSITION_GRID
            if not _overlapping(spans, x - half, x + half):
                yield float(x), lane


def _lay_supports(rules: dict, index: int, x: float) -> list[dict]:
    half = PLATFORM_LENGTHS[index] / 2
    out = []
    for column in _top_columns(rules):
        half_w = COLUMNS[column["id"]].width / 2
        cx = column["pose"][0]
        if x - half <= cx - half_w and cx + half_w <= x + half:
            out.append(column)
    return out


def lay_problem(rules: dict, x: float) -> tuple | None:
    """Why the next platform may not be laid centred at world x, or None."""
    index = rules["laid"]
    if index >= len(PLATFORM_COLOURS):
        return "no_platform_left", "All five platforms are already laid."
    if abs(x) + PLATFORM_LENGTHS[index] / 2 > BASE_LENGTH / 2 + 1e-9:
        return "platform_off_base", "Every platform must stay within the base."
    if len(_lay_supports(rules, index, x)) < MIN_PLATFORM_SUPPORTS:
        return "too_few_supports", "A new platform must rest on at least 3 columns."
    return None


def lay_candidates(rules: dict) -> list[float]:
    """The listed centre positions (world x, mm) where the next platform may be laid."""
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
    return next(_lay_positions(rules), None) is not None


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
        for x, lane in placement_candidates(rules, column_id):
            add("place", column=column_id, x=x, lane=lane)
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


def _sync_poses(rules: dict, world: World) -> None:
    """Copy both views' poses into the rules: "pose" (front: x, y, angle) and "side"
    (side view: z, y, angle)."""
    poses = world.poses()
    for column in rules["columns"]:
        key = column_key(column["id"])
        in_play = _in_play(column)
        column["pose"] = list(poses[key]) if in_play else None
        column["side"] = list(poses[SIDE_PREFIX + key]) if in_play else None
    for platform in rules["platforms"]:
        key = platform_key(platform["index"])
        pose = poses.get(key)
        platform["pose"] = list(pose) if pose is not None else None
        side = poses.get(SIDE_PREFIX + key)
        platform["side"] = list(side) if side is not None else None


def _settle_and_sync(
    ctx: "_Context", reference: dict, start: float, first_frame: bool = True, driver=None
):
    """Settle until storable, keep the frames, and copy the bodies' poses into the rules.

    The world may be replaced by a reload of itself (physics.settle_storable): read it from
    ctx.world afterwards.
    """
    world, result, blob = settle_storable(
        ctx.world,
        record=ctx.record,
        reference=reference,
        start_time=start,
        lookahead=ctx.lookahead,
        driver=driver,
    )
    ctx.world = world
    ctx.steps += result.steps
    ctx.stored = (blob, ctx.steps)
    ctx.frames.extend(result.frames if first_frame else result.frames[1:])
    _sync_poses(ctx.rules, world)
    return result


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


def _collapse_event(rules: dict, result, actor: int, events: list) -> None:
    level = _failed_level(rules, result.piece)
    name = rules["seats"][actor]["name"]
    events.append(
        _event(
            "collapse",
            f"The villa collapses ({result.reason.replace('_', ' ')}, at the "
            f"{level_name(level)} level); {name} caused it.",
            by=actor,
            reason=result.reason,
            level=level,
            view=result.view,
        )
    )
    collapse = {
        "by": actor,
        "reason": result.reason,
        "level": level,
        "piece": result.piece,
        "view": result.view,
    }
    _finish(rules, "collapse", events, collapse)


def _place_frames(column_id: int, pose: tuple) -> list[dict]:
    key = column_key(column_id)
    n = max(1, int(round(PLACE_ANIMATION_TIME / FRAME_TIME)))
    frames = []
    for k in range(n):
        y = pose[1] + PLACE_ANIMATION_HEIGHT * (1 - k / n)
        frames.append({"t": round(k * FRAME_TIME, 3), "poses": {key: _q(pose[0], y, pose[2])}})
    return frames


def _q(x: float, y: float, a: float) -> list[float]:
    return [round(x, 1), round(y, 1), round(a, 3)]


def _shift_frames(frames: list, offset: float) -> list:
    for frame in frames:
        frame["t"] = round(frame["t"] + offset, 3)
    return frames


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
    `lookahead=True` is a bot trying a move: a collapse's simulation stops at once and the
    new snapshot is not checked for standing, so the state is not one to store.
    `tremor=False` leaves out the hand's chance, the tremor option and the shape of a
    pull's wobble (a bot cannot foresee its own hand).
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        _refuse("malformed", "An action is an object with a 'type'.")
    rules = state.rules
    if rules["phase"] == PHASE_OVER:
        _refuse("game_over", "The game is over; no action is accepted.")
    seat = _check_seat(rules, action)
    kind = action["type"]
    # A JSON round trip copies faster than deepcopy and keeps the state JSON-able. The
    # action log is not part of the state (snapshots from before kept one: dropped here):
    # the caller keeps it, once (the web layer's action rows), and replays from it.
    rules = json.loads(json.dumps({k: v for k, v in rules.items() if k != "log"}))
    handler = _HANDLERS.get(kind)
    if handler is None:
        _refuse("unknown_action", f"Unknown action '{kind}'.")
    ctx = _Context(
        state.blob, rules, record, tremor and rules["options"]["tremor"] > 0, tremor, lookahead
    )
    handler(ctx, seat, action)
    logged = {**action, "seat": seat}
    rules["actions"] += 1
    rules["scores"] = scores(rules)
    if ctx.world is not None and ctx.changed:
        blob, steps = ctx.stored
        if blob is None or steps != ctx.steps:
            blob = ctx.world.dump()
        physics = ctx.world.digest()
    else:
        blob, physics = state.blob, state.physics
    return ActionResult(State(rules, blob, physics), ctx.frames, ctx.events, ctx.steps, logged)


class _Context:
    """Per-action working set: the rules copy, the world (loaded on demand), frames, events."""

    def __init__(
        self, blob: bytes, rules: dict, record: bool, tremor: bool, chance: bool, lookahead: bool
    ):
        self.blob = blob
        self.rules = rules
        self.record = record
        # tremor: the tremor option's placement error applies; chance: the hand's dice roll
        # (off when a bot looks ahead: it cannot foresee its own hand).
        self.tremor = tremor
        self.chance = chance
        self.lookahead = lookahead
        # The last snapshot known to stand, with the step count it was taken at.
        self.stored: tuple[bytes | None, int] = (None, -1)
        self.world: World | None = None
        self.changed = False
        self.frames: list = []
        self.events: list = []
        self.steps = 0

    def load(self) -> World:
        if self.world is None:
            self.world = World.load(self.blob)
            self.world.activate_all()
        self.changed = True
        return self.world


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
    # Reading the load steps a scratch world; the stored one stays untouched.
    load = World.load(ctx.blob).column_load(column_id)
    rules.update(phase=PHASE_TOUCHED, touched=column_id, touch_load=round(load, 1))
    ctx.events.append(
        _event(
            "touched",
            f"The column bears {load:.0f} g.",
            column=column_id,
            load=round(load, 1),
        )
    )


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


def _pull_driver(ctx: _Context, world: World, column_id: int, gesture: Gesture) -> PullDriver:
    """The hand that draws a column out from under the platform above it (if any)."""
    rules = ctx.rules
    key = column_key(column_id)
    body = world.bodies[key]
    level = rules["columns"][column_id]["level"]
    above = world.bodies.get(platform_key(level)) if level < rules["laid"] else None
    direction = 1.0 if body.position.x >= 0 else -1.0
    end = platform_end(above, level, direction) if above is not None else None
    # How the hand wobbles is chance, drawn per action: a bot looking ahead (chance off)
    # knows how steady its hand is but not the shape of the wobble.
    chance = wobble(_hand_rng(rules)) if ctx.chance else FORESEEN_WOBBLE
    return PullDriver(world.space, body, key, column_id, gesture, chance, end)


def _do_pull(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_TOUCHED)
    column_id = action.get("column", rules["touched"])
    if column_id != rules["touched"]:
        _refuse("not_touched", "Only the column you touched may be pulled.")
    gesture = _gesture(action, PULL_SPEED_MIN, PULL_SPEED_MAX, PULL_SPEED_DEFAULT)
    world = ctx.load()
    reference = world.poses()
    column = rules["columns"][column_id]
    pose = world.pose(column_key(column_id))
    driver = _pull_driver(ctx, world, column_id, gesture)
    rules["holding"] = {
        "column": column_id,
        "origin": list(pose),
        "origin_side": list(world.side_pose(column_key(column_id))),
        "origin_level": column["level"],
        "origin_where": column["where"],
        "origin_lane": column["lane"],
    }
    column["where"] = "hand"
    column["pose"] = None
    result = _settle_and_sync(ctx, reference, 0.0, driver=driver)
    if result.collapsed:
        _collapse_event(rules, result, seat, ctx.events)
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
    pose = rules["platforms"][top]["pose"]
    column = rules["columns"][column_id]
    x, y = _to_local(pose, column["pose"][0], column["pose"][1])
    half = COLUMNS[column_id].width / 2
    if abs(x) + half > PLATFORM_LENGTHS[top] / 2 + RESTING_TOLERANCE:
        return "off_platform", "The column came to rest half off the platform."
    bottom = y - COLUMN_HEIGHT / 2 - PLATFORM_THICKNESS / 2
    if top != RED and bottom > RESTING_TOLERANCE:
        return "on_column", "The column came to rest on another column."
    return None


def _do_place(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_HOLDING)
    column_id = rules["holding"]["column"]
    if action.get("column", column_id) != column_id:
        _refuse("not_holding", "You can only place the column you hold.")
    x = _number(action, "x")
    lane = _integer(action, "lane")
    problem = placement_problem(rules, column_id, x, lane)
    if problem:
        _refuse(*problem)
    gesture = _gesture(action, PLACE_SPEED_MIN, PLACE_SPEED_MAX, PLACE_SPEED_DEFAULT)
    hand = _hand_rng(rules)
    # The hand tilts the column a little across the width and across the depth.
    angle_error = place_tilt(gesture, hand) if ctx.chance else 0.0
    depth_error = place_tilt(gesture, hand) if ctx.chance else 0.0
    if ctx.tremor:
        # The tremor comes from the match seed and the action's index, so replays agree.
        rng = random.Random(f"{rules['seed']}:tremor:{rules['actions']}")  # noqa: S311
        sigma = rules["options"]["tremor"]
        x += rng.gauss(0.0, sigma)
        angle_error += rng.gauss(0.0, sigma * TREMOR_ANGLE_PER_MM)
    world = ctx.load()
    reference = world.poses()
    top = _top_index(rules)
    half = COLUMNS[column_id].width / 2
    # Only a tremor (or red) can put a column onto another; then it is set on the highest.
    below = _overlapping(lane_spans(rules, lane), x - half, x + half)
    stack_top = max(s[2] for s in below) if below else None
    pose = world.placement_pose(column_id, top, x, stack_top)
    pose = (pose[0], pose[1], pose[2] + angle_error)
    side = world.side_placement_pose(top, lane, stack_top)
    side = (side[0], side[1], side[2] + depth_error)
    world.add_column(column_id, lane, pose, side_pose=side, stacked=stack_top is not None)
    # Set down at the gesture's speed, straight down in the platform's frame, in each view.
    for bodies, tilt in (
        (world.bodies, pose[2] - angle_error),
        (world.side_bodies, side[2] - depth_error),
    ):
        bodies[column_key(column_id)].velocity = (
            gesture.speed * math.sin(tilt),
            -gesture.speed * math.cos(tilt),
        )
    column = rules["columns"][column_id]
    column.update(where="platform", level=rules["laid"], lane=lane)
    if ctx.record:
        ctx.frames.extend(_place_frames(column_id, pose))
    start = PLACE_ANIMATION_TIME if ctx.record else 0.0
    result = _settle_and_sync(ctx, reference, start)
    holding = rules["holding"]
    rules["holding"] = None
    if result.collapsed:
        _collapse_event(rules, result, seat, ctx.events)
        return
    broken = _resting_problem(rules, column_id)
    if broken:
        # Where the hand actually put it breaks rule 3 or 8: the build is given up.
        ctx.events.append(
            _event("placement_failed", broken[1], column=column_id, problem=broken[0])
        )
        _give_up_build(ctx, seat, column_id, holding)
        return
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
    world = ctx.load()
    reference = world.poses()
    world.remove_column(column_id)
    rules["columns"][column_id].update(where="out", pose=None)
    # Lifting a column off the top disturbs nothing, but the physics still decides.
    result = _settle_and_sync(ctx, reference, _last_time(ctx.frames), first_frame=False)
    ctx.events.append(
        _event(
            "protest_succeeded",
            "The protest succeeds: the column is removed from the game and no platform is laid.",
            column=column_id,
        )
    )
    if result.collapsed:
        _collapse_event(rules, result, rules["to_act"], ctx.events)
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
        # Put back where it was taken from; the villa then settles around it.
        world = ctx.load()
        reference = world.poses()
        if world.has_column(column_id):  # a placement that broke a rule: off the top first
            world.remove_column(column_id)
        lane = holding.get("origin_lane", column["lane"])
        side = holding.get("origin_side")
        world.add_column(
            column_id, lane, tuple(holding["origin"]), side_pose=tuple(side) if side else None
        )
        column.update(where=holding["origin_where"], level=holding["origin_level"], lane=lane)
        result = _settle_and_sync(ctx, reference, _last_time(ctx.frames))
        if result.collapsed:
            column["locked"] = locks
            _collapse_event(rules, result, seat, ctx.events)
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
    else:
        rules.update(phase=PHASE_LAY, to_act=claim["claimant"], context=CONTEXT_TURN)


def _do_ask_platform(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_MOVE, PHASE_CHOOSE_COLOUR)
    if rules["context"] != CONTEXT_TURN:
        _refuse("wrong_phase", "Only the builder may ask for a new platform.")
    if rules["laid"] >= len(PLATFORM_COLOURS):
        _refuse("no_platform_left", "All five platforms are already laid.")
    if not _can_ask_platform(rules):
        _refuse("too_few_supports", "A new platform must rest on at least 3 columns.")
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
    world = ctx.load()
    reference = world.poses()
    driver = _pull_driver(ctx, world, column_id, gesture)
    column.update(where="out", pose=None)
    result = _settle_and_sync(ctx, reference, 0.0, driver=driver)
    ctx.events.append(
        _event("column_removed", "The column is removed from the game.", column=column_id)
    )
    if result.collapsed:
        _collapse_event(rules, result, seat, ctx.events)
        return
    if rules["phase"] == PHASE_REWARD:
        _end_turn(rules, ctx.events)
        return
    rules.update(phase=PHASE_LAY, to_act=rules["claim"]["claimant"])


def _do_lay_platform(ctx: _Context, seat: int, action: dict) -> None:
    rules = ctx.rules
    _need_phase(rules, PHASE_LAY)
    x = _number(action, "x")
    problem = lay_problem(rules, x)
    if problem:
        _refuse(*problem)
    index = rules["laid"]
    world = ctx.load()
    reference = world.poses()
    supports = _lay_supports(rules, index, x)
    top_pose = rules["platforms"][index - 1]["pose"]
    # Laid on the highest supporting column, parallel to the platform below, not steadied.
    height = max(c["pose"][1] for c in supports) + COLUMN_HEIGHT / 2
    pose = (x, height + PLATFORM_THICKNESS / 2 + 0.2, top_pose[2])
    world.add_platform(index, pose)
    if ctx.record:
        ctx.frames.extend(_lay_frames(index, pose))
    start = PLACE_ANIMATION_TIME if ctx.record else 0.0
    rules["laid"] += 1
    rules["platforms"][index]["laid_by"] = seat
    result = _settle_and_sync(ctx, reference, start)
    if result.collapsed:
        _collapse_event(rules, result, seat, ctx.events)
        return
    ctx.events.append(
        _event(
            "platform_laid",
            f"The {PLATFORM_COLOURS[index]} platform is laid; the count for the seal starts again.",
            platform=PLATFORM_COLOURS[index],
        )
    )
    _end_turn(rules, ctx.events)


def _lay_frames(index: int, pose: tuple) -> list[dict]:
    key = platform_key(index)
    n = max(1, int(round(PLACE_ANIMATION_TIME / FRAME_TIME)))
    return [
        {
            "t": round(k * FRAME_TIME, 3),
            "poses": {key: _q(pose[0], pose[1] + PLACE_ANIMATION_HEIGHT * (1 - k / n), pose[2])},
        }
        for k in range(n)
    ]


def _may_pass(rules: dict) -> bool:
    """Passing is a choice where the French text says "peut" (may): asking for a platform
    when it is one's only move, removing a protester's column, laying the platform."""
    phase = rules["phase"]
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
        _end_turn(rules, ctx.events)
        return
    ctx.events.append(
        _event("passed", f"{name} passes rather than ask for a new platform.", seat=seat)
    )
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
