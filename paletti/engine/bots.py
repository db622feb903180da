"""Bots: an easy one that plays by feel and a careful one that looks before it moves.

Both only ever return an action from legal_actions(state) (a placement at a point of its
listed area), with the hand's gesture (speed and steadiness) added to a pull, a placement
or a removal. Their hands are imperfect: the easy bot pulls fast and shakily, the careful
one slowly and steadily, but neither perfectly (docs/paletti.md, "The hand"). The careful
bot looks ahead by applying candidate actions to the stored snapshot (apply_action never
mutates its input, and every action starts from the snapshot), with its own gesture but
without frames and without the hand's chance, which a player cannot foresee.
"""

import math
import random

from . import villa
from .hands import Gesture, spread
from .pieces import COLUMNS, PLATFORM_LENGTHS
from .rules import (
    LAY_GRID,
    IllegalAction,
    State,
    apply_action,
    in_area,
    legal_actions,
    placement_area,
    placement_candidates,
)
from .rules.state import SEAL_START_LEVEL

LEVELS = ("easy", "careful")
# The careful bot thinks in simulations, not seconds, so that its choice depends only on
# the position and its dice, never on how busy the machine is: a self-play run replays
# exactly. It looks at the villa's statics, not at simulations: 60 looks cost a few ms.
SIMULATION_BUDGET = 60
# How the careful bot sees the risk of a pull (estimates, tuned in self-play): a felt load
# of LOAD_PER_RISK grams counts 1, and so does a villa left with MARGIN_RISK / 1 mm of
# margin; it pulls what looks at most SAFE_RISK risky.
LOAD_PER_RISK = 40.0
MARGIN_RISK = 5.0
SAFE_RISK = 1.5
# How much more risk a player behind in the seal race accepts, at 6 points behind (estimate).
CATCH_UP = 1.5
# How far off (mm, standard deviation) a person's eye judges how near a villa is to
# tipping once a column is out (estimate).
PERCEPTION = 6.0
# Margin (mm) beyond which a placement is as good as safe; further spots are chosen for
# spreading the columns out.
SAFE_MARGIN = 15.0
# Once it has touched a column and felt its load, it looks again more cautiously.
SECOND_LOOK = 1.2
# A careful bot protests when it thinks it can prove the claim wrong: when some pull it
# could make as the protester looks this much riskier than it would accept for its own
# move, at most (a player protests on what they see, then feels the load). After touching,
# its second look may then find the pull too risky: it aborts and the protest fails.
PROTEST_HOPE = 1.6
# A claim hands the seal to another: the claimant may not place the first column on the new
# platform, and that first column takes the seal (French record). Before claiming, the bot
# accepts this much more risk for a pull (estimate, tuned in self-play).
CLAIM_AVERSION = 2.0
# Before the race, a pull scores nothing. Where a claim can cost nothing (two players: the
# only one who may protest builds next and would place the first column on a platform the
# bot laid), it pulls only what looks this fraction of what it would otherwise accept
# risky, and lets the other use up their moves (estimate, tuned against the easy bot).
PRE_RACE = 0.3
# Easy bot: a column bearing more than this (g) makes it nervous enough to abort sometimes.
EASY_NERVOUS_LOAD = 60.0
EASY_ABORT_CHANCE = 0.3
EASY_PROTEST_CHANCE = 0.15
# Easy bot: how often it passes when its only other move is to ask for a platform.
EASY_PASS_CHANCE = 0.3
# Careful bot: how many columns and positions it tries at most.
CAREFUL_PULLS = 8
CAREFUL_PLACES = 10
# Lay positions (x, z): it looks over the listed ones on a grid of LAY_LOOK × LAY_LOOK,
# then closer around the best, down to the listed grid (LAY_GRID), at most CAREFUL_LAYS
# looks in all (each look is the statics of the villa with the platform laid, about 1.4 ms).
CAREFUL_LAYS = 20
LAY_LOOK = 3
# How finely (mm) the careful bot looks over the top platform for room for a column.
ROOM_GRID = 5.0
# A careful person who feels a column bear weight slows down and steadies the platform
# above with the second hand (rule 1): at FULL_CARE_LOAD grams felt or more, the careful
# bot pulls at half the speed drawn and with CAREFUL_STEADINESS, in between in proportion
# (estimates).
FULL_CARE_LOAD = 40.0
CAREFUL_STEADINESS = 0.97
# The bots' hands (estimates): ranges their gestures are drawn from, per decision.
HANDS = {
    "easy": {
        "pull_speed": (50.0, 150.0),
        "pull_steady": (0.75, 0.92),
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
        if action["type"] == "pull":
            hand = _minding_the_load(state, action["column"], hand)
    return _with_gesture(action, hand)


def _minding_the_load(state: State, column_id: int, hand: dict) -> dict:
    """The careful bot's pull of a column it has touched and felt bear weight: slower and
    steadier the more it bears (FULL_CARE_LOAD)."""
    care = min(1.0, villa.column_load(state.rules, column_id) / FULL_CARE_LOAD)
    pull = hand["pull"]
    speed = round(pull["speed"] * (1.0 - 0.5 * care))
    steadiness = pull["steadiness"] + (CAREFUL_STEADINESS - pull["steadiness"]) * care
    return {**hand, "pull": {"speed": speed, "steadiness": round(steadiness, 2)}}


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


def _places(state: State, actions: list[dict]) -> list[dict]:
    """The listed placement as the spots a hand aims at, each a postable action: its area
    sampled every 5 mm across the width and the depth (placement_candidates)."""
    out = []
    for listed in _of_type(actions, "place"):
        aim = {key: value for key, value in listed.items() if key != "area"}
        out += [
            {**aim, "x": x, "z": z} for x, z in placement_candidates(state.rules, listed["column"])
        ]
    return out


def _grid(low: float, high: float, step: float) -> list[float]:
    """Points every `step` from low to high, both ends included."""
    count = max(1, math.ceil((high - low) / step))
    return [low + (high - low) * k / count for k in range(count + 1)]


def _central(
    actions: list[dict], rng: random.Random, spread: float, centre: tuple = (0.0, 0.0)
) -> dict:
    """Pick among the actions near the centre, as a steady hand would."""
    ranked = sorted(
        actions, key=lambda a: math.hypot(a["x"] - centre[0], a.get("z", 0.0) - centre[1])
    )
    pool = ranked[: max(1, int(len(ranked) * spread))]
    return rng.choice(pool)


def _easy(state: State, actions: list[dict], rng: random.Random) -> dict:
    rules = state.rules
    phase = rules.phase
    if phase == "touched":
        nervous = (rules.touch_load or 0) > EASY_NERVOUS_LOAD
        if nervous and rng.random() < EASY_ABORT_CHANCE:
            return _of_type(actions, "abort")[0]
        return _of_type(actions, "pull")[0]
    if phase == "holding":
        return _central(_places(state, actions), rng, 0.5)
    if phase in ("claim", "neutral_protest"):
        protest = _of_type(actions, "protest")
        if protest and rng.random() < EASY_PROTEST_CHANCE:
            return protest[0]
        return _of_type(actions, "decline")[0]
    if phase == "lay":
        lays = _of_type(actions, "lay_platform")
        # Roughly over the platform below: the tenth of the listed positions nearest its
        # centre (positions are 2-D now; a tenth reaches about as far as a third did along x).
        below = rules.platforms[rules.laid - 1]
        return _central(lays, rng, 0.1, (below.x, below.z)) if lays else actions[0]
    if phase in ("penalty", "reward"):
        return rng.choice(_of_type(actions, "remove_column") or actions)
    touches = _of_type(actions, "touch")
    if phase == "move" and touches:
        # Even a beginner sees a column boxed in by its neighbours, and takes another.
        free = [
            a
            for a in touches
            if villa.pushed_on_the_way_out(rules, a["column"], villa.EYE_CLEARANCE) == 0
        ]
        return rng.choice(free or touches)
    colours = _of_type(actions, "choose_colour")
    if colours:
        return rng.choice(colours)
    asks = _of_type(actions, "ask_platform")
    if asks:
        # Nothing to move: claim, or now and then pass instead.
        if _of_type(actions, "pass") and rng.random() < EASY_PASS_CHANCE:
            return _of_type(actions, "pass")[0]
        return asks[0]
    return rng.choice(actions)


def columns_colour(rules: dict, column_id: int) -> str:
    return rules.columns[column_id].colour


class _Careful:
    """One decision of the careful bot: look at the villa as a person does (how much a
    column bears, how near the villa is to tipping without it: the engine's 3-D statics),
    weigh safety against points and the seal."""

    def __init__(self, state: State, actions: list[dict], rng: random.Random, hand: dict):
        self.state = state
        self.actions = actions
        self.rng = rng
        self.hand = hand
        self.simulations = 0
        self.room: dict[float, bool] = {}

    def time_left(self) -> bool:
        """Whether the bot may still weigh another move."""
        return self.simulations < SIMULATION_BUDGET

    def outcome(self, state: State, action: dict) -> tuple[State | None, float]:
        """The state after a move that does not touch the villa (a choice, a claim, a
        touch); None if the rules refuse it."""
        self.simulations += 1
        try:
            result = apply_action(state, action, record=False, tremor=False)
        except IllegalAction:
            return None, float("inf")
        return result.state, 0.0

    def pull_risk(self, state: State, column_id: int) -> float:
        """How risky pulling a column looks: its load (felt in grams) and how little margin
        the villa seems to keep without it, judged by eye; inf if it looks as if the villa
        would tip without it, or if nothing would be left under a platform."""
        self.simulations += 1
        rules = state.rules
        without = villa.analyse(rules, without={column_id})
        # How near the platforms come to tipping (a lone column on a platform stands by
        # its own foot, whatever is pulled elsewhere); negative if one would tip.
        margin = min((i.margin for i in without.interfaces if i.piece[0] == "p"), default=100.0)
        if not math.isfinite(margin) or (not without.stands and margin >= 0.0):
            return float("inf")
        # A person judges the villa's lean by eye, not to the millimetre: each look errs,
        # either way. A villa that would tip by a few millimetres without the column can
        # look as if it would stand, and a person then draws a column the villa needs
        # (the steadying hand may still catch the platform: catch.py).
        margin += self.rng.gauss(0.0, PERCEPTION)
        if margin <= 0:
            return float("inf")
        # Nor does a person draw a column out whose way out is blocked: it would move
        # another column (rule 6), at best a failed build.
        hand = self.hand["pull"]
        room = max(villa.EYE_CLEARANCE, spread(Gesture(hand["speed"], hand["steadiness"])))
        if villa.pushed_on_the_way_out(rules, column_id, room) > villa.KNOCK_TOLERANCE:
            return float("inf")
        load = villa.column_load(rules, column_id)
        return load / LOAD_PER_RISK + MARGIN_RISK / max(margin, 0.5)

    def accepted(self) -> float:
        """The risk the bot accepts now: in a protest's proof more, unless it holds the
        seal (a fall would hand the game to the previous holder)."""
        rules = self.state.rules
        seat = rules.to_act
        proving = rules.context == "claim_protest"
        holder = rules.seal.holder
        accept = SAFE_RISK * (PROTEST_HOPE if proving and holder != seat else 1.0)
        if holder is not None and holder != seat and not proving:
            # Behind in the seal race, a person takes more risk to catch up.
            behind = rules.scores[holder] - rules.scores[seat]
            accept *= 1.0 + CATCH_UP * min(max(behind, 0), 6) / 6
        return accept

    def safest_touch(
        self, state: State, touches: list[dict], accept: float | None = None
    ) -> tuple[dict | None, float]:
        """The touch whose pull is safest, weighted towards valuable columns, among those
        whose pull looks at most `accept` risky."""
        accept = self.accepted() if accept is None else accept
        columns = state.rules.columns
        # Higher levels first: their columns carry less of the villa.
        order = sorted(touches, key=lambda a: (-columns[a["column"]].level, self.rng.random()))
        best, best_score, best_risk = None, float("-inf"), float("inf")
        for action in order[:CAREFUL_PULLS]:
            if best is not None and not self.time_left():
                break
            risk = self.pull_risk(state, action["column"])
            if risk > accept:
                continue
            score = columns[action["column"]].value - risk
            if score > best_score:
                best, best_score, best_risk = action, score, risk
        return best, best_risk

    def choose(self) -> dict:
        rules = self.state.rules
        phase = rules.phase
        actions = self.actions
        if phase == "colours":
            return self.rng.choice(actions)  # the colour one plays with is a matter of taste
        if phase == "choose_colour":
            return self.choose_colour()
        if phase == "move":
            touches = _of_type(actions, "touch")
            if rules.context != "turn":
                # Proving a protest: a column must be moved (or put back).
                best, _ = self.safest_touch(self.state, touches)
                return best or touches[0]
            if touches and self.wants_to_build():
                limit = self.bolder()
                best, _ = self.safest_touch(self.state, touches, min(limit, self.accepted()))
                if best is None and limit > self.accepted():
                    best, _ = self.safest_touch(self.state, touches, limit)
                if best is not None:
                    return best
            return self.without_building(touches)
        if phase == "touched":
            column_id = rules.touched
            risk = self.pull_risk_from_touched(column_id)
            kind = "pull" if risk <= self.accepted() else "abort"
            return _of_type(actions, kind)[0]
        if phase == "holding":
            return self.best_place()
        if phase in ("claim", "neutral_protest"):
            return self.protest_or_decline()
        if phase in ("penalty", "reward"):
            return self.best_removal()
        if phase == "lay":
            lays = _of_type(actions, "lay_platform")
            if lays and self.lays():
                return self.best_lay(lays)
            return _of_type(actions, "pass")[0]
        return actions[0]

    # The seal, as a person weighs it (French record: only the top level scores; whoever
    # lays a platform may not place on it, so the first column on it, another player's,
    # takes the seal; a round of passes ends the game and the holder wins; whoever brings
    # the villa down hands the win to the previous holder).

    def holds_seal(self, seat: int | None = None) -> bool:
        rules = self.state.rules
        seat = rules.to_act if seat is None else seat
        return rules.seal.started and rules.seal.holder == seat

    def round_would_end(self) -> bool:
        """Whether a turn without building now would complete a round of passes: the game
        would end, won by the seal holder (nobody before the race)."""
        rules = self.state.rules
        return not rules.built and rules.passes + 1 >= len(rules.seats)

    def may_still_score(self, seat: int, neutral: bool = False) -> bool:
        """Whether `seat` could still put a column of theirs (or, with `neutral`, a neutral
        one) on the top platform: one not locked, below the top level, with room for it on
        the top seen in 2-D (room_on_top)."""
        rules = self.state.rules
        if rules.platforms[rules.laid - 1].laid_by == seat:
            return False
        colours = set(rules.seats[seat].colours)
        if neutral and rules.neutral is not None:
            colours.add(rules.neutral)
        by_width = {}
        for column in rules.columns:
            if column.colour in colours and column.where in ("base", "platform"):
                if column.level < rules.laid and not column.locked:
                    by_width.setdefault(COLUMNS[column.id].width, column.id)
        return any(self.room_on_top(column_id) for column_id in by_width.values())

    def room_on_top(self, column_id: int) -> bool:
        """Whether a column fits anywhere on the top platform: a point of its 2-D placement
        area (legal_actions' area, sampled every ROOM_GRID mm across and in depth)."""
        rules = self.state.rules
        width = COLUMNS[column_id].width
        if width not in self.room:
            area = placement_area(rules, column_id)
            (low, high), (z_low, z_high) = area["x"], area["z"]
            xs = _grid(low, high, ROOM_GRID)
            zs = _grid(z_low, z_high, ROOM_GRID)
            self.room[width] = any(in_area(area, x, z) for z in zs for x in xs)
        return self.room[width]

    def wants_to_build(self) -> bool:
        """A seal holder whom nobody can catch has nothing to gain from a pull: every pull
        risks the villa, and a fall would hand the game to the previous holder."""
        rules = self.state.rules
        if not self.holds_seal():
            return True
        others = [s for s in range(len(rules.seats)) if s != rules.to_act]
        return any(self.may_still_score(s) for s in others)

    def bolder(self) -> float:
        """The most risk the bot takes rather than end its turn without building. The
        holder takes no more than usual (a turn without building keeps the seal). Before
        the race a pull scores nothing: with two players (a claim is cheap) it takes only
        PRE_RACE of its usual risk and lets the other use up their moves. But when a turn
        without building could let the game end, won by another or by nobody
        (others_may_end), and when the race is on and it does not hold the seal (the
        holder would end the game by passing), it pulls up to CLAIM_AVERSION times bolder."""
        accept = self.accepted()
        if self.holds_seal():
            return accept
        if not self.race_on_top() and not self.others_may_end():
            return accept * (PRE_RACE if self.claim_is_cheap() else 1.0)
        return accept * CLAIM_AVERSION

    def claim_is_cheap(self) -> bool:
        """Whether nobody but the next builder may answer a claim (two players): the next
        builder gains from a laid platform, so a claim is unlikely to meet a protest."""
        return len(self.state.rules.seats) == 2

    def race_on_top(self) -> bool:
        """Whether a column placed on the top platform now counts for the seal."""
        rules = self.state.rules
        return rules.laid >= SEAL_START_LEVEL[rules.options.seal_start]

    def others_may_end(self) -> bool:
        """Whether a turn without building now lets the game end without anyone building
        again: it completes a round of passes, or no other player can still build (they
        may pass in turn)."""
        if self.round_would_end():
            return True
        rules = self.state.rules
        others = [s for s in range(len(rules.seats)) if s != rules.to_act]
        return not any(self.may_still_score(s, neutral=True) for s in others)

    def without_building(self, touches: list[dict]) -> dict:
        """End the turn without building: pass if allowed, else claim (and then not lay,
        lays()). If that would end the game, won by another or by nobody, claim: the
        platform can then be laid and the game goes on."""
        actions = self.actions
        passes = _of_type(actions, "pass")
        asks = _of_type(actions, "ask_platform")
        if passes and (self.holds_seal() or not self.round_would_end() or not asks):
            return passes[0]
        if asks:
            return asks[0]
        # Nothing is safe and nothing else is allowed: touch the lightest-looking column and
        # put it back (an abort only costs the column, a collapse costs the game).
        return touches[0] if touches else actions[0]

    def lays(self) -> bool:
        """Whether to lay the platform after an unchallenged claim. Whoever lays it may not
        place on it, and the next builder's first column takes the seal: the bot lays only
        when not laying would end the game (a round of passes) won by another or nobody."""
        return not self.holds_seal() and self.round_would_end()

    def pull_risk_from_touched(self, column_id: int) -> float:
        return self.pull_risk(self.state, column_id) * SECOND_LOOK

    def choose_colour(self) -> dict:
        """Two players: the colour whose safest pull looks least risky; or a claim when no
        pull is worth it (wants_to_build, bolder)."""
        choices = _of_type(self.actions, "choose_colour")
        claim = _of_type(self.actions, "ask_platform")
        if claim and not self.wants_to_build():
            return claim[0]
        bolder = self.bolder()
        best, best_score = None, float("-inf")
        for action in choices:
            after, _ = self.outcome(self.state, action)
            if after is None:
                continue
            touches = _of_type(legal_actions(after), "touch")
            touch, risk = self.safest_touch(after, touches, bolder)
            score = -risk if touch is not None else float("-inf")
            if best is None or score > best_score:
                best, best_score = action, score
        if best_score == float("-inf") and claim:
            return claim[0]
        return best or choices[0]

    def margin_after(self, change) -> float:
        """The villa's weakest margin (mm) once `change(rules)` is made to a copy of the
        rules; -inf if it would not stand."""
        self.simulations += 1
        rules = self.state.rules.copy()
        change(rules)
        stability = villa.analyse(rules)
        if not stability.stands:
            return float("-inf")
        return stability.weakest.margin if stability.weakest is not None else 100.0

    def best_lay(self, lays: list[dict]) -> dict:
        """The platform's lay position (x, z) that leaves the villa the widest margin, in
        3-D (the engine's statics, margin_after): a look over the listed positions on a
        coarse grid (LAY_LOOK per side, both ways), then a pattern search around the best
        (a step each way across and in depth, half the step when none is wider, down to the
        listed grid), at most CAREFUL_LAYS looks in all."""
        listed = {(a["x"], a["z"]): a for a in lays}
        index = self.state.rules.laid
        margins: dict[tuple, float] = {}

        def margin(key: tuple) -> float:
            if key not in margins:
                action = listed[key]

                def change(rules):
                    rules.platforms[index].update(x=action["x"], z=action["z"])
                    rules.laid += 1

                margins[key] = self.margin_after(change)
            return margins[key]

        def nearest(x: float, z: float) -> tuple:
            return min(listed, key=lambda k: ((k[0] - x) ** 2 + (k[1] - z) ** 2, k))

        xs = [k[0] for k in listed]
        zs = [k[1] for k in listed]
        looks = sorted(
            {
                nearest(x, z)
                for z in _grid(min(zs), max(zs), (max(zs) - min(zs)) / (LAY_LOOK - 1) or 1.0)
                for x in _grid(min(xs), max(xs), (max(xs) - min(xs)) / (LAY_LOOK - 1) or 1.0)
            }
        )
        best = max(looks, key=lambda k: (margin(k), -abs(k[0]), -abs(k[1])))
        # Then a pattern search: a step across and in depth each way; on to the first
        # that is wider, else half the step.
        step = max(max(xs) - min(xs), max(zs) - min(zs)) / (LAY_LOOK - 1) / 2
        while len(margins) < CAREFUL_LAYS:
            moved = False
            for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                key = nearest(best[0] + dx * step, best[1] + dz * step)
                if key not in margins and len(margins) >= CAREFUL_LAYS:
                    break
                if margin(key) > margin(best):
                    best, moved = key, True
                    break
            if not moved:
                if step <= LAY_GRID:
                    break
                step = max(LAY_GRID, step / 2)
        return listed[best]

    def best_place(self) -> dict:
        places = _places(self.state, self.actions)
        if not places:
            return _of_type(self.actions, "abort")[0]
        rules = self.state.rules
        top = rules.platforms[rules.laid - 1]
        others = [c for c in rules.columns if c.level == rules.laid and c.where == "platform"]
        # A trembling hand needs room: keep clear of neighbours where possible.
        room = 3.0 * rules.options.tremor + 1.0
        roomy = [a for a in places if self.clearance(a) >= room] or places
        # Spread the columns over the platform, so that the next one finds supports all
        # round: first the spots far from the others and not too near the edge.
        half = PLATFORM_LENGTHS[rules.laid - 1] / 2

        def spread(action) -> float:
            x, z = top.x + action["x"], top.z + action["z"]
            near = min((math.hypot(c.x - x, c.z - z) for c in others), default=half)
            edge = half - max(abs(action["x"]), abs(action["z"]))
            return min(near, 2 * edge)

        # Many spots are equally roomy (on an empty platform, its whole middle): a person
        # picks any of them, not the first in the grid's reading order (front left), so
        # the ties are put in the order of the match's dice before the roomiest are weighed.
        self.rng.shuffle(roomy)
        roomy.sort(key=spread, reverse=True)
        column_id = roomy[0]["column"]

        def placed_at(action):
            def change(rules):
                rules.columns[column_id].update(
                    where="platform",
                    level=rules.laid,
                    on=None,
                    x=top.x + action["x"],
                    z=top.z + action["z"],
                )

            return change

        best, best_score = roomy[0], float("-inf")
        for action in roomy[:CAREFUL_PLACES]:
            margin = self.margin_after(placed_at(action))
            score = min(margin, SAFE_MARGIN) + 0.1 * spread(action)
            if score > best_score:
                best, best_score = action, score
        return best

    def clearance(self, action: dict) -> float:
        """Gap (mm) between a placed column's foot and its nearest neighbour's on top."""
        rules = self.state.rules
        platform = rules.platforms[rules.laid - 1]
        x, z = platform.x + action["x"], platform.z + action["z"]
        r = COLUMNS[action["column"]].width / 2
        gaps = [
            math.hypot(c.x - x, c.z - z) - r - COLUMNS[c.id].width / 2
            for c in rules.columns
            if c.where == "platform" and c.level == rules.laid
        ]
        return min(gaps, default=float("inf"))

    def protest_or_decline(self) -> dict:
        protest = _of_type(self.actions, "protest")
        decline = _of_type(self.actions, "decline")[0]
        if not protest:
            return decline
        rules = self.state.rules
        claim = rules.claim
        if rules.phase == "claim" and (claim.claimant + 1) % len(rules.seats) == rules.to_act:
            # If the claim stands, the claimant lays the platform and may not place on it:
            # the bot builds next, and its first column there takes the seal.
            return decline
        protesting, _ = self.outcome(self.state, protest[0])
        if protesting is None:
            return decline
        touches = _of_type(legal_actions(protesting), "touch")
        # Holding the seal, a fall while proving the point would hand the game to the
        # previous holder: only a safe proof is worth it then.
        holds = rules.seal.holder == rules.to_act
        accept = SAFE_RISK * (1.0 if holds else PROTEST_HOPE)
        touch, _ = self.safest_touch(protesting, touches, accept)
        return protest[0] if touch is not None else decline

    def best_removal(self) -> dict:
        rules = self.state.rules
        own = set(rules.seats[rules.to_act].colours)
        # A reward may take any column: never one's own.
        removals = [
            a
            for a in _of_type(self.actions, "remove_column")
            if columns_colour(rules, a["column"]) not in own
        ] or _of_type(self.actions, "remove_column")
        if not removals:
            return _of_type(self.actions, "pass")[0]
        columns = rules.columns
        top = rules.laid
        # The protester's points come from the top level: take the most valuable one there.
        ranked = sorted(
            removals,
            key=lambda a: (columns[a["column"]].level != top, -columns[a["column"]].value),
        )
        for action in ranked[:CAREFUL_PULLS]:
            if self.pull_risk(self.state, action["column"]) < float("inf"):
                return action
        if _of_type(self.actions, "pass"):
            return _of_type(self.actions, "pass")[0]  # removing none is allowed ("peut")
        return ranked[0]
