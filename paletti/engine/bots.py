"""Bots: an easy one that plays by feel and a careful one that tries moves on copies.

Both only ever return an action from legal_actions(state), with the hand's gesture (speed
and steadiness) added to a pull, a placement or a removal. Their hands are imperfect: the
easy bot pulls fast and shakily, the careful one slowly and steadily, but neither perfectly
(docs/paletti.md, "The hand"). The careful bot looks ahead by applying candidate actions to
the stored snapshot (apply_action never mutates its input, and every action starts from the
snapshot), with its own gesture but without frames and without the hand's chance, which a
player cannot foresee.
"""

import math
import random

from .pieces import COLUMN_HEIGHT, COLUMNS, PLATFORM_LENGTHS
from .rules import IllegalAction, State, apply_action, legal_actions

LEVELS = ("easy", "careful")
# The careful bot thinks in simulations, not seconds, so that its choice depends only on
# the position and its dice, never on how busy the machine is: a self-play run replays
# exactly. 30 simulations take about 1 s here (a pull is simulated while the hand draws the
# column out), under the 2 s a decision may take.
SIMULATION_BUDGET = 30
# Platform movement (mm) a careful bot accepts as "still safe" after a pull or a place.
SAFE_SHIFT = 0.3 * COLUMN_HEIGHT * 0.5
# A pull drags what the column carries: the careful bot accepts less movement there (mm).
SAFE_PULL_SHIFT = 1.5
# A careful bot protests when it thinks it can prove the claim wrong: when some pull it
# could make as the protester looks this much riskier than it would accept for its own
# move, at most (a player protests on what they see, then feels the load). After touching,
# its second look may then find the pull too risky: it aborts and the protest fails.
PROTEST_HOPE = 2.5
# Once it has touched a column and felt its load, the careful bot checks the pull again
# imagining its hand this much less steady: a second, more cautious look.
SECOND_LOOK_UNSTEADINESS = 0.15
# Easy bot: a column bearing more than this (g) makes it nervous enough to abort sometimes.
EASY_NERVOUS_LOAD = 60.0
EASY_ABORT_CHANCE = 0.3
EASY_PROTEST_CHANCE = 0.15
# Easy bot: how often it passes when its only other move is to ask for a platform.
EASY_PASS_CHANCE = 0.3
# Careful bot: how many columns and positions it tries at most.
CAREFUL_PULLS = 8
CAREFUL_PLACES = 10
CAREFUL_LAYS = 5
# The bots' hands (estimates): ranges their gestures are drawn from, per decision.
HANDS = {
    "easy": {
        "pull_speed": (150.0, 450.0),
        "pull_steady": (0.2, 0.6),
        "place_speed": (80.0, 300.0),
        "place_steady": (0.2, 0.6),
    },
    "careful": {
        "pull_speed": (70.0, 160.0),
        "pull_steady": (0.7, 0.95),
        "place_speed": (40.0, 150.0),
        "place_steady": (0.5, 0.9),
    },
}


def choose_action(state: State, level: str, rng: random.Random) -> dict:
    """A legal action for the player to act, chosen by a bot of `level` ("easy"/"careful").

    `rng` supplies the bot's own choices; seed it from the match for reproducible matches.
    """
    actions = legal_actions(state)
    if not actions:
        raise IllegalAction("game_over", "The game is over; there is nothing to choose.")
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; use one of {LEVELS}.")
    hand = _hand(level, rng)
    if level == "easy":
        action = _easy(state, actions, rng)
    else:
        action = _Careful(state, actions, rng, hand).choose()
    return _with_gesture(action, hand)


def _hand(level: str, rng: random.Random) -> dict:
    """This decision's gestures: pull and placement speeds (mm/s) and steadiness."""
    ranges = HANDS[level]
    return {
        "pull": {
            "speed": round(rng.uniform(*ranges["pull_speed"])),
            "steadiness": round(rng.uniform(*ranges["pull_steady"]), 2),
        },
        "place": {
            "speed": round(rng.uniform(*ranges["place_speed"])),
            "steadiness": round(rng.uniform(*ranges["place_steady"]), 2),
        },
    }


def _with_gesture(action: dict, hand: dict) -> dict:
    if action["type"] in ("pull", "remove_column"):
        return {**action, **hand["pull"]}
    if action["type"] == "place":
        return {**action, **hand["place"]}
    return action


def _of_type(actions: list[dict], kind: str) -> list[dict]:
    return [a for a in actions if a["type"] == kind]


def _central(actions: list[dict], rng: random.Random, spread: float) -> dict:
    """Pick among the actions whose x is near the centre, as a steady hand would."""
    ranked = sorted(actions, key=lambda a: abs(a["x"]))
    pool = ranked[: max(1, int(len(ranked) * spread))]
    return rng.choice(pool)


def _easy(state: State, actions: list[dict], rng: random.Random) -> dict:
    rules = state.rules
    phase = rules["phase"]
    if phase == "touched":
        nervous = (rules["touch_load"] or 0) > EASY_NERVOUS_LOAD
        if nervous and rng.random() < EASY_ABORT_CHANCE:
            return _of_type(actions, "abort")[0]
        return _of_type(actions, "pull")[0]
    if phase == "holding":
        return _central(_of_type(actions, "place"), rng, 0.5)
    if phase in ("claim", "neutral_protest"):
        protest = _of_type(actions, "protest")
        if protest and rng.random() < EASY_PROTEST_CHANCE:
            return protest[0]
        return _of_type(actions, "decline")[0]
    if phase == "lay":
        lays = _of_type(actions, "lay_platform")
        return _central(lays, rng, 0.3) if lays else actions[0]
    if phase in ("penalty", "reward"):
        return rng.choice(_of_type(actions, "remove_column") or actions)
    touches = _of_type(actions, "touch")
    if phase == "move" and touches:
        return rng.choice(touches)
    asks = _of_type(actions, "ask_platform")
    if asks and (phase != "choose_colour" or rng.random() < 0.2):
        if _of_type(actions, "pass") and rng.random() < EASY_PASS_CHANCE:
            return _of_type(actions, "pass")[0]
        return asks[0]
    return rng.choice(actions)


def columns_colour(rules: dict, column_id: int) -> str:
    return rules["columns"][column_id]["colour"]


def _platform_shift(before: State, after: State) -> float:
    """How far the laid platforms moved (mm): drop plus the lift of a tilted end."""
    shift = 0.0
    for old, new in zip(before.rules["platforms"], after.rules["platforms"], strict=True):
        if old["pose"] is None or new["pose"] is None:
            continue
        half = PLATFORM_LENGTHS[old["index"]] / 2
        shift += abs(new["pose"][1] - old["pose"][1]) + abs(new["pose"][2]) * half
    return shift


class _Careful:
    """One decision of the careful bot: simulate, weigh safety against points."""

    def __init__(self, state: State, actions: list[dict], rng: random.Random, hand: dict):
        self.state = state
        self.actions = actions
        self.rng = rng
        self.hand = hand
        self.simulations = 0

    def time_left(self) -> bool:
        """Whether the bot may still simulate another move."""
        return self.simulations < SIMULATION_BUDGET

    def outcome(self, state: State, action: dict) -> tuple[State | None, float]:
        """The state after `action` and the platforms' shift; None if the villa falls."""
        self.simulations += 1
        action = _with_gesture(action, self.hand)
        try:
            result = apply_action(state, action, record=False, tremor=False, lookahead=True)
        except IllegalAction:
            return None, float("inf")
        after = result.state
        if after.rules["collapse"] is not None:
            return None, float("inf")
        return after, _platform_shift(state, after)

    def pull_risk(self, state: State, column_id: int) -> float:
        """Platform shift after touching and pulling a column; inf if that brings it down."""
        seat = state.rules["to_act"]
        touched, _ = self.outcome(state, {"type": "touch", "column": column_id, "seat": seat})
        if touched is None:
            return float("inf")
        pulled, shift = self.outcome(touched, {"type": "pull", "column": column_id, "seat": seat})
        return shift if pulled is not None else float("inf")

    def safest_touch(
        self, state: State, touches: list[dict], accept: float = SAFE_PULL_SHIFT
    ) -> tuple[dict | None, float]:
        """The touch whose pull is safest, weighted towards valuable columns, among those
        whose pull moves the villa at most `accept` mm."""
        columns = state.rules["columns"]
        # Higher levels first: their columns carry less of the villa.
        order = sorted(touches, key=lambda a: (-columns[a["column"]]["level"], self.rng.random()))
        best, best_score, best_risk = None, float("-inf"), float("inf")
        for action in order[:CAREFUL_PULLS]:
            if best is not None and not self.time_left():
                break
            risk = self.pull_risk(state, action["column"])
            if risk > accept:
                continue
            score = columns[action["column"]]["value"] - risk
            if score > best_score:
                best, best_score, best_risk = action, score, risk
        return best, best_risk

    def choose(self) -> dict:
        rules = self.state.rules
        phase = rules["phase"]
        actions = self.actions
        if phase == "choose_colour":
            return self.choose_colour()
        if phase == "move":
            touches = _of_type(actions, "touch")
            best, _ = self.safest_touch(self.state, touches)
            if best is not None:
                return best
            asks = _of_type(actions, "ask_platform")
            if asks and not (touches == [] and self.keeps_seal_by_passing()):
                return asks[0]
            if _of_type(actions, "pass"):
                return _of_type(actions, "pass")[0]
            # Nothing is safe: touch the lightest-looking column and put it back (an abort
            # only costs the column, a collapse costs the game).
            return touches[0] if touches else actions[0]
        if phase == "touched":
            column_id = rules["touched"]
            pull = self.hand["pull"]
            cautious = max(0.0, round(pull["steadiness"] - SECOND_LOOK_UNSTEADINESS, 2))
            self.hand = {**self.hand, "pull": {**pull, "steadiness": cautious}}
            risk = self.pull_risk_from_touched(column_id)
            self.hand = {**self.hand, "pull": pull}
            kind = "pull" if risk <= SAFE_PULL_SHIFT else "abort"
            return _of_type(actions, kind)[0]
        if phase == "holding":
            return self.best_place()
        if phase in ("claim", "neutral_protest"):
            return self.protest_or_decline()
        if phase in ("penalty", "reward"):
            return self.best_removal()
        if phase == "lay":
            lays = _of_type(actions, "lay_platform")
            return self.best_of(lays, CAREFUL_LAYS) if lays else _of_type(actions, "pass")[0]
        return actions[0]

    def keeps_seal_by_passing(self) -> bool:
        """A seal holder gains nothing from a new platform: it resets the count, and the
        first column on it, which the claimant may not place, takes the seal."""
        return self.state.rules["seal"]["holder"] == self.state.rules["to_act"]

    def pull_risk_from_touched(self, column_id: int) -> float:
        seat = self.state.rules["to_act"]
        pulled, shift = self.outcome(
            self.state, {"type": "pull", "column": column_id, "seat": seat}
        )
        return shift if pulled is not None else float("inf")

    def choose_colour(self) -> dict:
        choices = _of_type(self.actions, "choose_colour")
        best, best_score = None, float("-inf")
        for action in choices:
            after, _ = self.outcome(self.state, action)
            if after is None:
                continue
            touches = _of_type(legal_actions(after), "touch")
            touch, risk = self.safest_touch(after, touches)
            score = -risk if touch is not None else float("-inf")
            if best is None or score > best_score:
                best, best_score = action, score
        if best_score == float("-inf") and _of_type(self.actions, "ask_platform"):
            return _of_type(self.actions, "ask_platform")[0]
        return best or choices[0]

    def best_of(self, actions: list[dict], limit: int) -> dict:
        """The candidate (spread over the list, centre first) that moves the villa least."""
        ranked = sorted(actions, key=lambda a: (abs(a.get("x", 0.0)), a.get("lane", 0)))
        step = max(1, len(ranked) // limit)
        sample = ranked[::step][:limit]
        best, best_shift = sample[0], float("inf")
        for action in sample:
            if not self.time_left():
                break
            after, shift = self.outcome(self.state, action)
            # Prefer the centre a little: the next platform must span these columns.
            shift += 0.01 * abs(action.get("x", 0.0))
            if after is not None and shift < best_shift:
                best, best_shift = action, shift
        return best

    def best_place(self) -> dict:
        places = _of_type(self.actions, "place")
        if not places:
            return _of_type(self.actions, "abort")[0]
        # Spread over the lanes in turn so the next platform finds supports in each.
        columns = [c for c in self.state.rules["columns"] if c["level"] == self.state.rules["laid"]]
        crowd = {lane: sum(1 for c in columns if c["lane"] == lane) for lane in (0, 1, 2)}
        quiet_lane = min(crowd, key=lambda lane: (crowd[lane], lane))
        preferred = [a for a in places if a["lane"] == quiet_lane] or places
        # Aim a little off-centre, alternating sides, so that supports spread out.
        side = 1 if len(columns) % 2 else -1
        target = side * PLATFORM_LENGTHS[self.state.rules["laid"] - 1] * 0.2
        # A trembling hand needs room: keep clear of neighbours in the lane where possible.
        room = 3.0 * self.state.rules["options"]["tremor"] + 1.0
        roomy = [a for a in preferred if self.clearance(a) >= room]
        preferred = roomy or preferred
        preferred.sort(key=lambda a: abs(a["x"] - target))
        best, best_shift = None, float("inf")
        for action in preferred[:CAREFUL_PLACES:2]:
            if best is not None and not self.time_left():
                break
            after, shift = self.outcome(self.state, action)
            if after is not None and shift < best_shift:
                best, best_shift = action, shift
            if after is not None and shift < 0.05:
                break
        return best or preferred[0]

    def clearance(self, action: dict) -> float:
        """Gap (mm) between a placed column's foot and its nearest neighbour's on top."""
        rules = self.state.rules
        platform = rules["platforms"][rules["laid"] - 1]
        x, z = platform["x"] + action["x"], platform["z"] + action["z"]
        r = COLUMNS[action["column"]].width / 2
        gaps = [
            math.hypot(c["x"] - x, c["z"] - z) - r - COLUMNS[c["id"]].width / 2
            for c in rules["columns"]
            if c["where"] == "platform" and c["level"] == rules["laid"]
        ]
        return min(gaps, default=float("inf"))

    def protest_or_decline(self) -> dict:
        protest = _of_type(self.actions, "protest")
        decline = _of_type(self.actions, "decline")[0]
        if not protest:
            return decline
        protesting, _ = self.outcome(self.state, protest[0])
        if protesting is None:
            return decline
        touches = _of_type(legal_actions(protesting), "touch")
        touch, _ = self.safest_touch(protesting, touches, SAFE_PULL_SHIFT * PROTEST_HOPE)
        return protest[0] if touch is not None else decline

    def best_removal(self) -> dict:
        rules = self.state.rules
        own = set(rules["seats"][rules["to_act"]]["colours"])
        # A reward may take any column: never one's own.
        removals = [
            a
            for a in _of_type(self.actions, "remove_column")
            if columns_colour(rules, a["column"]) not in own
        ] or _of_type(self.actions, "remove_column")
        if not removals:
            return _of_type(self.actions, "pass")[0]
        columns = rules["columns"]
        top = rules["laid"]
        # The protester's points come from the top level: take the most valuable one there.
        ranked = sorted(
            removals,
            key=lambda a: (columns[a["column"]]["level"] != top, -columns[a["column"]]["value"]),
        )
        for action in ranked[:CAREFUL_PULLS]:
            if not self.time_left():
                break
            after, _ = self.outcome(self.state, action)
            if after is not None:
                return action
        return ranked[0]
