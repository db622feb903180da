"""What an action works with while it is applied: its copy of the rules, frames, events,
the hand's dice, and the checks of an action's numbers."""

import random

from .. import villa
from ..hands import FORESEEN, STEADINESS_DEFAULT, Chance, Gesture
from ..pieces import PLATFORM_COLOURS
from .state import Collapse, Phase, Rules, event, refuse
from .turns import finish

PLACE_ANIMATION_TIME = 0.3
PLACE_ANIMATION_HEIGHT = 40.0  # mm above its resting place
FRAME_TIME = 1.0 / 30.0


def _failed_level(rules: Rules, piece: str) -> int:
    """The level that failed: a platform's own level (blue = 1), a column's level (base 0).

    A column caught in the fall may already be out of play (in hand); its level is kept.
    """
    if piece[0] == "p":
        return int(piece[1:]) + 1
    return rules.columns[int(piece[1:])].level


def level_name(level: int) -> str:
    """'base' for level 0, else the colour of the platform the level stands on."""
    return "base" if level == 0 else PLATFORM_COLOURS[level - 1]


def collapse_event(rules: Rules, collapse: villa.Collapsed, actor: int, events: list) -> None:
    """The villa came down (villa.Outcome.collapse), caused by `actor`: the event, and the
    end of the game."""
    level = _failed_level(rules, collapse.piece)
    name = rules.seats[actor].name
    direction = collapse.direction
    events.append(
        event(
            "collapse",
            f"The villa collapses towards the {direction} ({collapse.reason.replace('_', ' ')}, "
            f"at the {level_name(level)} level); {name} caused it.",
            by=actor,
            reason=collapse.reason,
            level=level,
            direction=direction,
            view="side" if direction in ("front", "back") else "front",
        )
    )
    record = Collapse(
        by=actor,
        reason=collapse.reason,
        level=level,
        piece=collapse.piece,
        direction=direction,
        # Which flat drawing shows it best: the front one for a fall across the width.
        view="side" if direction in ("front", "back") else "front",
    )
    finish(rules, "collapse", events, record)


def scripted_frames(key: str, pose: list, side: list) -> list[dict]:
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


def need_phase(rules: Rules, *phases: Phase) -> None:
    """Refuse an action outside `phases`."""
    if rules.phase not in phases:
        refuse("wrong_phase", f"That action is not possible now (phase: {rules.phase}).")


def gesture_from(action: dict, speed: float) -> Gesture:
    """The hand's speed and steadiness from an action, each optional (`speed` by default);
    their ranges are the action's shape (shape.py)."""
    return Gesture(
        speed=float(action.get("speed", speed)),
        steadiness=float(action.get("steadiness", STEADINESS_DEFAULT)),
    )


def _hand_rng(rules: Rules) -> random.Random:
    """The hand's dice for this action: from the match seed and the action's number."""
    return random.Random(f"{rules.seed}:hand:{rules.actions}")  # noqa: S311


def last_time(frames: list) -> float:
    """The time (s) of the last frame so far, where the next motion's frames start."""
    return frames[-1]["t"] if frames else 0.0


class ActionContext:
    """Per-action working set: the rules copy, frames, events."""

    def __init__(self, rules: Rules, record: bool, tremor: bool, chance: bool):
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

    def moved(self, outcome: villa.Outcome, first_frame: bool = True) -> villa.Collapsed | None:
        """Keep a motion's frames and steps; the villa's poses follow its places. Returns
        the collapse, if the villa came down."""
        self.steps += outcome.steps
        frames = outcome.frames if first_frame or not self.frames else outcome.frames[1:]
        self.frames.extend(frames)
        if outcome.collapse is None:
            villa.sync_rest(self.rules)
        return outcome.collapse
