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
from dataclasses import dataclass, replace

from . import villa
from .hands import Gesture, spread
from .pieces import COLUMNS, PLATFORM_LENGTHS, Where
from .rules import (
    LAY_GRID,
    Context,
    IllegalAction,
    Phase,
    Rules,
    State,
    apply_action,
    lay_possible,
    legal_actions,
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
# A careful player who has touched a column pulls it (touching is a commitment): it puts a
# column back only when it feels a load of at least ABORT_MIN_LOAD grams that makes the
# pull ABORT_SURPRISE times as risky as it accepts, and never when the game has stalled.
ABORT_MIN_LOAD = 10.0
ABORT_SURPRISE = 2.0
# How far off a person's eye judges a column's load before touching it: a factor
# exp(N(0, LOAD_EYE)) (estimate).
LOAD_EYE = 0.3
# A careful bot protests when it thinks it can prove the claim wrong: when some pull it
# could make as the protester looks at most PROTEST_HOPE times as risky as it would accept
# for its own move (a player protests on what they see, then feels the load). The player
# who builds next after the claimant gains from the new platform (the first column on it
# takes the seal) and protests only a claim it can surely disprove, at most PROOF_SURE times
# the risk it accepts; so does either player of two, whose opponent's lost column is the
# gain (estimates, tuned in self-play).
PROTEST_HOPE = 1.6
PROOF_SURE = 0.8
# A claim hands the seal to another: the claimant may not place the first column on the new
# platform, and that first column takes the seal (French record). Before a claim that would
# lay a platform of the race, the bot accepts this much more risk for a pull (estimate).
CLAIM_AVERSION = 1.5
# The seal's holder plays safer than the others: a fall by the holder hands the game to
# the previous holder (estimate).
LEADER_CARE = 0.8
# The game goes on while anyone can build, so a table that has stopped building must take
# risks again: each turn in a row without a build (the state's `passes`) makes the bot
# accept STALL_BOLDNESS more of its usual risk; after STALL_TURNS such turns (a whole round
# at a table of four), a player who would pass or make a claim that lays nothing pulls its
# least risky column instead; the holder of the seal, who gains from a stall, holds out
# twice as long (estimates, tuned in self-play).
STALL_BOLDNESS = 0.5
STALL_TURNS = 4
# Easy bot: a column bearing more than this (g) makes it nervous enough to abort sometimes.
EASY_NERVOUS_LOAD = 60.0
EASY_ABORT_CHANCE = 0.3
EASY_PROTEST_CHANCE = 0.15
# Easy bot: how often it passes when its only other move is to ask for a platform.
EASY_PASS_CHANCE = 0.3
# Careful bot: how many columns and positions it tries at most.
CAREFUL_PULLS = 8
CAREFUL_PLACES = 10
# ...and how many more near the middle of the columns under the top platform.
PLACE_BALANCED = 4
# Lay positions (x, z): it looks over the listed ones on a grid of LAY_LOOK × LAY_LOOK,
# then closer around the best, down to the listed grid (LAY_GRID), at most CAREFUL_LAYS
# looks in all (each look is the statics of the villa with the platform laid, about 1.4 ms).
CAREFUL_LAYS = 20
LAY_LOOK = 3
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
        careful = Careful(state, actions, rng, hand)
        action = careful.choose()
        if action["type"] == "pull":
            hand = _minding_the_load(state, action["column"], hand)
        elif action["type"] == "place" and careful.place_margin is not None:
            hand = minding_the_margin(careful.place_margin, hand)
    return _with_gesture(action, hand)


def eye(state: State, column_id: int) -> random.Random:
    """A person's look at one column: its errors come from the match's seed, the column and
    the move it is weighed for, so that the look before touching and the one after agree
    (the load felt is what changes)."""
    rules = state.rules
    look = rules.actions - (1 if rules.phase == Phase.TOUCHED else 0)
    return random.Random(f"{rules.seed}:eye:{column_id}:{look}")  # noqa: S311


@dataclass(frozen=True)
class Hand:
    """A bot's gestures for one decision: how it pulls (or removes) a column, and how it
    sets one down."""

    pull: Gesture
    place: Gesture


def _minding_the_load(state: State, column_id: int, hand: Hand) -> Hand:
    """The careful bot's pull of a column it has touched and felt bear weight: slower and
    steadier the more it bears (FULL_CARE_LOAD)."""
    care = min(1.0, villa.column_load(state.rules, column_id) / FULL_CARE_LOAD)
    pull = hand.pull
    speed = round(pull.speed * (1.0 - 0.5 * care))
    steadiness = pull.steadiness + (CAREFUL_STEADINESS - pull.steadiness) * care
    return replace(hand, pull=Gesture(speed, round(steadiness, 2)))


def minding_the_margin(margin: float, hand: Hand) -> Hand:
    """The careful bot's set-down where the villa keeps little margin: slower in
    proportion, down to a third of the speed drawn at no margin (a gentler set-down is
    never worse on the same spot)."""
    care = min(1.0, max(0.0, margin) / SAFE_MARGIN)
    place = hand.place
    speed = round(place.speed * (1.0 / 3.0 + 2.0 / 3.0 * care))
    return replace(hand, place=Gesture(speed, place.steadiness))


def _hand(level: str, rng: random.Random) -> Hand:
    """This decision's gestures: pull and placement speeds (mm/s) and steadiness."""
    ranges = HANDS[level]
    return Hand(
        pull=Gesture(
            speed=round(rng.uniform(*ranges["pull_speed"])),
            steadiness=round(rng.uniform(*ranges["pull_steady"]), 2),
        ),
        place=Gesture(
            speed=round(rng.uniform(*ranges["place_speed"])),
            steadiness=round(rng.uniform(*ranges["place_steady"]), 2),
        ),
    )


def _with_gesture(action: dict, hand: Hand) -> dict:
    if action["type"] in ("pull", "remove_column"):
        gesture = hand.pull
    elif action["type"] == "place":
        gesture = hand.place
    else:
        return action
    return {**action, "speed": gesture.speed, "steadiness": gesture.steadiness}


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
    if phase == Phase.TOUCHED:
        nervous = (rules.touch_load or 0) > EASY_NERVOUS_LOAD
        if nervous and rng.random() < EASY_ABORT_CHANCE:
            return _of_type(actions, "abort")[0]
        return _of_type(actions, "pull")[0]
    if phase == Phase.HOLDING:
        return _central(_places(state, actions), rng, 0.5)
    if phase in (Phase.CLAIM, Phase.NEUTRAL_PROTEST):
        protest = _of_type(actions, "protest")
        if protest and rng.random() < EASY_PROTEST_CHANCE:
            return protest[0]
        return _of_type(actions, "decline")[0]
    if phase == Phase.LAY:
        lays = _of_type(actions, "lay_platform")
        # Roughly over the platform below: the tenth of the listed positions nearest its
        # centre (positions are 2-D now; a tenth reaches about as far as a third did along x).
        below = rules.platforms[rules.laid - 1]
        return _central(lays, rng, 0.1, (below.x, below.z)) if lays else actions[0]
    if phase in (Phase.PENALTY, Phase.REWARD):
        return rng.choice(_of_type(actions, "remove_column") or actions)
    touches = _of_type(actions, "touch")
    if phase == Phase.MOVE and touches:
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


def columns_colour(rules: Rules, column_id: int) -> str:
    """The colour of a column."""
    return rules.columns[column_id].colour


class Careful:
    """One decision of the careful bot: look at the villa as a person does (how much a
    column bears, how near the villa is to tipping without it: the engine's 3-D statics),
    weigh safety against points and the seal."""

    def __init__(self, state: State, actions: list[dict], rng: random.Random, hand: Hand):
        self.state = state
        self.actions = actions
        self.rng = rng
        self.hand = hand
        self.simulations = 0
        # The margin (mm) the villa keeps with the column where best_place sets it.
        self.place_margin: float | None = None
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

    def pull_risk(self, state: State, column_id: int, felt: bool = False) -> float:
        """How risky pulling a column looks: its load and how little margin the villa
        seems to keep without it, judged by eye (`eye`); inf if it looks as if the villa
        would tip without it, or if nothing would be left under a platform. `felt`: the
        column has been touched, and its load is known to the gram."""
        self.simulations += 1
        rules = state.rules
        without = villa.analyse(rules, without={column_id})
        # How near the platforms come to tipping (a lone column on a platform stands by
        # its own foot, whatever is pulled elsewhere); negative if one would tip.
        margin = min((i.margin for i in without.interfaces if i.piece[0] == "p"), default=100.0)
        if not math.isfinite(margin) or (not without.stands and margin >= 0.0):
            return float("inf")
        # A person judges the villa's lean and a column's load by eye, not to the
        # millimetre or the gram: each look errs, either way. A villa that would tip by a
        # few millimetres without the column can look as if it would stand, and a person
        # then draws a column the villa needs (the steadying hand may still catch the
        # platform: catch.py).
        look = eye(state, column_id)
        margin += look.gauss(0.0, PERCEPTION)
        load_error = math.exp(look.gauss(0.0, LOAD_EYE))
        if margin <= 0:
            return float("inf")
        load = villa.column_load(rules, column_id)
        if felt:
            return load / LOAD_PER_RISK + MARGIN_RISK / max(margin, 0.5)
        # Nor does a person draw a column out whose way out is blocked: it would move
        # another column (rule 6), at best a failed build.
        room = max(villa.EYE_CLEARANCE, spread(self.hand.pull))
        if villa.pushed_on_the_way_out(rules, column_id, room) > villa.KNOCK_TOLERANCE:
            return float("inf")
        return load * load_error / LOAD_PER_RISK + MARGIN_RISK / max(margin, 0.5)

    def accepted(self) -> float:
        """The risk the bot accepts now. The seal's holder plays safer (a fall would hand
        the game to the previous holder); one behind in the race gambles more to catch up;
        in a protest's proof more, unless holding the seal; and every turn in a row without
        a build makes it bolder (STALL_BOLDNESS)."""
        rules = self.state.rules
        seat = rules.to_act
        proving = rules.context == Context.CLAIM_PROTEST
        holder = rules.seal.holder if rules.seal.started else None
        accept = SAFE_RISK
        if holder == seat:
            accept *= LEADER_CARE
        elif proving:
            accept *= PROTEST_HOPE
        elif holder is not None:
            # The points it needs to take the seal: strictly more than the holder's.
            behind = rules.scores[holder] - rules.scores[seat] + 1
            accept *= 1.0 + CATCH_UP * min(max(behind, 0), 6) / 6
        return accept * (1.0 + STALL_BOLDNESS * rules.passes)

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
        if phase == Phase.COLOURS:
            return self.rng.choice(actions)  # the colour one plays with is a matter of taste
        if phase == Phase.CHOOSE_COLOUR:
            return self.choose_colour()
        if phase == Phase.MOVE:
            touches = _of_type(actions, "touch")
            if rules.context != Context.TURN:
                # Proving a protest: a column must be moved (or put back).
                best, _ = self.safest_touch(self.state, touches)
                return best or self.gamble(self.state, touches)
            return self.build_or_claim(self.state, touches)
        if phase == Phase.TOUCHED:
            return _of_type(actions, "abort" if self.puts_back() else "pull")[0]
        if phase == Phase.HOLDING:
            return self.best_place()
        if phase in (Phase.CLAIM, Phase.NEUTRAL_PROTEST):
            return self.protest_or_decline()
        if phase in (Phase.PENALTY, Phase.REWARD):
            return self.best_removal()
        if phase == Phase.LAY:
            lays = _of_type(actions, "lay_platform")
            if lays:
                best = self.best_lay(lays)
                if best is not None or not _of_type(actions, "pass"):
                    return best or lays[0]
            return _of_type(actions, "pass")[0]
        return actions[0]

    # The seal, as a person weighs it (French record: only the top level scores; whoever
    # lays a platform may not place on it, so the first column on it, another player's,
    # takes the seal; whoever brings the villa down hands the win to the previous holder).
    # The game goes on while anyone can build, so stalling does not end it.

    def holds_seal(self, seat: int | None = None) -> bool:
        rules = self.state.rules
        seat = rules.to_act if seat is None else seat
        return rules.seal.started and rules.seal.holder == seat

    def stalled(self) -> bool:
        """Whether the table has gone long enough without a build that this player takes
        a risk rather than pass again (STALL_TURNS; twice as long for the holder)."""
        turns = STALL_TURNS * (2 if self.holds_seal() else 1)
        return self.state.rules.passes >= turns

    def no_claim_left(self) -> bool:
        """Whether every platform is laid: a builder can only pull, or put a column back."""
        return self.state.rules.laid >= len(PLATFORM_LENGTHS)

    def claim_lays(self, state: State) -> bool:
        """Whether an unchallenged claim now would lay a platform (else it is a pass)."""
        rules = state.rules
        return rules.laid < len(PLATFORM_LENGTHS) and lay_possible(rules)

    def claim_hands_seal(self, state: State) -> bool:
        """Whether a claim would hand on a seal in play: the race is on the top platform,
        and the new platform's first column, never the claimant's, takes the seal. Before
        the race a pull scores nothing, and a claim that starts it costs nothing held."""
        rules = state.rules
        return rules.laid >= SEAL_START_LEVEL[rules.options.seal_start]

    def build_or_claim(self, state: State, touches: list[dict]) -> dict:
        """A builder's move: the safest pull it accepts; else, where a claim would lay a
        platform of the race, a bolder pull (CLAIM_AVERSION); else a claim that lays a
        platform; else, unless the table has stalled, a claim or a pass; else its least
        risky pull (a gamble)."""
        asks = _of_type(self.actions, "ask_platform")
        passes = _of_type(self.actions, "pass")
        lays = self.claim_lays(state)
        if touches:
            accept = self.accepted()
            best, _ = self.safest_touch(state, touches, accept)
            if best is None and lays and self.claim_hands_seal(state):
                best, _ = self.safest_touch(state, touches, accept * CLAIM_AVERSION)
            if best is not None:
                return best
        if asks and (lays or not self.stalled()):
            return asks[0]
        if touches:
            return self.gamble(state, touches)
        return (passes or asks or self.actions)[0]

    def gamble(self, state: State, touches: list[dict]) -> dict:
        """The pull that looks least risky, however risky: what a player takes on when
        the game must go on (a stall) or a protest must be proved."""
        columns = state.rules.columns
        scored = []
        for action in touches[:CAREFUL_PULLS]:
            column_id = action["column"]
            risk = self.pull_risk(state, column_id)
            scored.append((risk, villa.column_load(state.rules, column_id), action))
        return min(scored, key=lambda item: (item[0], item[1], columns[item[2]["column"]].id))[2]

    def puts_back(self) -> bool:
        """After touching, the load is felt: put the column back only when it bears at
        least ABORT_MIN_LOAD grams and, felt, the pull looks ABORT_SURPRISE times as risky
        as the bot accepts (the eye misjudged its load); never in a stall or once red is
        laid (no claim is left: a pull or a column put back are all there is), where the
        risk was taken knowingly."""
        rules = self.state.rules
        if (rules.touch_load or 0) < ABORT_MIN_LOAD or self.stalled() or self.no_claim_left():
            return False
        risk = self.pull_risk(self.state, rules.touched, felt=True)
        return risk > self.accepted() * ABORT_SURPRISE

    def choose_colour(self) -> dict:
        """Two players: the colour whose safest pull looks least risky, if one is accepted;
        else a claim or a gamble as build_or_claim decides, over both colours."""
        choices = _of_type(self.actions, "choose_colour")
        accept = self.accepted()
        lays = self.claim_lays(self.state)
        if lays and self.claim_hands_seal(self.state):
            accept *= CLAIM_AVERSION
        best, best_risk, all_touches = None, float("inf"), []
        for action in choices:
            after, _ = self.outcome(self.state, action)
            if after is None:
                continue
            touches = _of_type(legal_actions(after), "touch")
            all_touches.append((action, after, touches))
            touch, risk = self.safest_touch(after, touches, accept)
            if touch is not None and risk < best_risk:
                best, best_risk = action, risk
        if best is not None:
            return best
        asks = _of_type(self.actions, "ask_platform")
        if asks and lays and all_touches:
            # A claim that lays a platform bars the colour it is made with from that
            # platform: first choose the colour it can best spare (the fewest points left
            # to move), then claim.
            columns = self.state.rules.columns
            spare = min(
                all_touches,
                key=lambda item: (sum(columns[t["column"]].value for t in item[2]), len(item[2])),
            )
            return spare[0]
        if asks and (lays or not self.stalled()):
            return asks[0]
        # A gamble: the colour of the least risky pull.
        picks = [(self.gamble(after, touches), action) for action, after, touches in all_touches]
        if not picks:
            return (asks or self.actions)[0]
        risks = [self.pull_risk(self.state, touch["column"]) for touch, _ in picks]
        return picks[risks.index(min(risks))][1]

    def margin_after(self, change) -> float:
        """The villa's weakest margin (mm) once `change(rules)` is made to a copy of the
        rules (of its pieces and `laid`: copy_pieces); -inf if it would not stand."""
        self.simulations += 1
        rules = self.state.rules.copy_pieces()
        change(rules)
        stability = villa.analyse(rules)
        if not stability.stands:
            return float("-inf")
        return stability.weakest.margin if stability.weakest is not None else 100.0

    def best_lay(self, lays: list[dict]) -> dict | None:
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
                    platform = rules.platforms[index]
                    platform.x, platform.z = action["x"], action["z"]
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
        # Wherever it is laid the villa would come down: better not to lay it.
        return listed[best] if margin(best) > float("-inf") else None

    def best_place(self) -> dict:
        places = _places(self.state, self.actions)
        if not places:
            return _of_type(self.actions, "abort")[0]
        rules = self.state.rules
        top = rules.platforms[rules.laid - 1]
        others = [c for c in rules.columns if c.level == rules.laid and c.where == Where.PLATFORM]
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
                column = rules.columns[column_id]
                column.where, column.level, column.on = Where.PLATFORM, rules.laid, None
                column.x, column.z = top.x + action["x"], top.z + action["z"]

            return change

        # Where the columns under the top platform bear a load best: the middle of their
        # feet. A villa with little margin left needs the column there, however crowded.
        under = [
            c
            for c in rules.columns
            if c.where in (Where.BASE, Where.PLATFORM) and c.level == rules.laid - 1
        ]
        if under:
            cx = sum(c.x for c in under) / len(under) - top.x
            cz = sum(c.z for c in under) / len(under) - top.z
            balanced = sorted(roomy, key=lambda a: math.hypot(a["x"] - cx, a["z"] - cz))
        else:
            balanced = []
        looks = roomy[:CAREFUL_PLACES]
        looks += [a for a in balanced[:PLACE_BALANCED] if a not in looks]
        best, best_score = roomy[0], float("-inf")
        for action in looks:
            margin = self.margin_after(placed_at(action))
            score = min(margin, SAFE_MARGIN) + 0.1 * spread(action)
            if score > best_score:
                best, best_score, self.place_margin = action, score, margin
        # A set-down jolts the platform: where the villa stands on little margin now, the
        # careful hand goes slower, whatever the margin with the column in place.
        if self.place_margin is not None:
            self.place_margin = min(self.place_margin, self.margin_after(lambda rules: None))
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
            if c.where == Where.PLATFORM and c.level == rules.laid
        ]
        return min(gaps, default=float("inf"))

    def protest_or_decline(self) -> dict:
        """Protest when a proof looks safe enough: PROTEST_HOPE times the risk it accepts
        for its own move, or only PROOF_SURE times for the next builder after the claimant
        (the new platform's first column is theirs) and for either of two players (the
        claimant's lost column is all there is to gain); as holder of the seal, no bolder
        than usual. Bolder, as every risk, the longer the table has gone without a build."""
        protest = _of_type(self.actions, "protest")
        decline = _of_type(self.actions, "decline")[0]
        if not protest:
            return decline
        rules = self.state.rules
        n = len(rules.seats)
        factor = 1.0 if self.holds_seal() else PROTEST_HOPE
        if rules.phase == Phase.CLAIM:
            next_builder = (rules.claim.claimant + 1) % n == rules.to_act
            if n == 2 or next_builder:
                factor = PROOF_SURE
        protesting, _ = self.outcome(self.state, protest[0])
        if protesting is None:
            return decline
        touches = _of_type(legal_actions(protesting), "touch")
        accept = SAFE_RISK * factor * (1.0 + STALL_BOLDNESS * rules.passes)
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
