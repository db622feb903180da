"""The shape of every action a client may post, checked before the engine sees it.

The engine judges whether an action is legal now; this table only says what an action
may look like: its keys, and for each key the values it may take. Anything else (a key
the action does not take, a number out of range, a 400-digit integer) is refused here,
so nothing a client invents reaches the engine, the snapshot or the action log.

To give an action a new key, add one line to its row in ACTIONS.
"""

import math
from dataclasses import dataclass

from .engine import COLUMN_COLOURS, COLUMNS
from .engine.hands import PLACE_SPEED_MAX, PLACE_SPEED_MIN, PULL_SPEED_MAX, PULL_SPEED_MIN
from .engine.pieces import BASE_LENGTH, LANES, PLATFORM_LENGTHS

MAX_SEATS = 4


@dataclass(frozen=True)
class Integer:
    low: int
    high: int
    required: bool = True

    def accepts(self, value) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        )


@dataclass(frozen=True)
class Number:
    low: float
    high: float
    required: bool = True

    def accepts(self, value) -> bool:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        # Compared before any conversion: a 400-digit integer is simply out of range.
        return (isinstance(value, int) or math.isfinite(value)) and self.low <= value <= self.high


@dataclass(frozen=True)
class Choice:
    values: tuple
    required: bool = True

    def accepts(self, value) -> bool:
        return isinstance(value, str) and value in self.values


COLUMN = Integer(0, len(COLUMNS) - 1)
# The column a pull, abort or place concerns is the one touched or held: naming it is optional.
SAME_COLUMN = Integer(0, len(COLUMNS) - 1, required=False)
# "x" of place: along the top platform from its centre, so within half the longest platform.
PLACE_X = Number(-PLATFORM_LENGTHS[0] / 2, PLATFORM_LENGTHS[0] / 2)
PLACE_Z = Number(-PLATFORM_LENGTHS[0] / 2, PLATFORM_LENGTHS[0] / 2, required=False)
# "x" and "z" of lay_platform: the new platform's centre in the world, so over the base
# (z optional: by default centred in depth on the platform below).
LAY_X = Number(-BASE_LENGTH / 2, BASE_LENGTH / 2)
LAY_Z = Number(-BASE_LENGTH / 2, BASE_LENGTH / 2, required=False)

# How the hand executes a pull, a removal or a placement (docs/paletti.md, "The hand").
PULL_SPEED = Number(PULL_SPEED_MIN, PULL_SPEED_MAX, required=False)
PLACE_SPEED = Number(PLACE_SPEED_MIN, PLACE_SPEED_MAX, required=False)
STEADINESS = Number(0.0, 1.0, required=False)

# Every key any action may carry, besides its own.
COMMON = {"seat": Integer(0, MAX_SEATS - 1, required=False)}

ACTIONS = {
    "take_colour": {"colour": Choice(COLUMN_COLOURS)},
    "choose_colour": {"colour": Choice(COLUMN_COLOURS)},
    "touch": {"column": COLUMN},
    "pull": {"column": SAME_COLUMN, "speed": PULL_SPEED, "steadiness": STEADINESS},
    "abort": {"column": SAME_COLUMN},
    "place": {
        "column": SAME_COLUMN,
        "x": PLACE_X,
        # Where in depth: "z" in mm from the platform's centre, or one of the page's three
        # rows ("lane"); the engine asks for one of them.
        "z": PLACE_Z,
        "lane": Integer(min(LANES), max(LANES), required=False),
        "speed": PLACE_SPEED,
        "steadiness": STEADINESS,
    },
    "ask_platform": {},
    "protest": {},
    "decline": {},
    "remove_column": {"column": COLUMN, "speed": PULL_SPEED, "steadiness": STEADINESS},
    "lay_platform": {"x": LAY_X, "z": LAY_Z},
    "pass": {},
}
# Keys of which an action needs at least one (the first is the one named when none is).
ONE_OF = {"place": ("z", "lane")}


class BadAction(Exception):
    """An action that does not have the shape of any action; `problem` says how.

    `code` is what the API answers: "unknown_action" (as the engine says it) or
    "bad_action"; `where` names the offending key, if any."""

    def __init__(self, problem: str, **params):
        super().__init__(problem)
        self.problem = problem
        self.params = params
        self.code = "unknown_action" if problem == "unknown_type" else "bad_action"
        self.where = {"key": params["key"]} if "key" in params else {}


def check(action: dict) -> dict:
    """The action, copied, if its type, keys and values are all allowed; else BadAction."""
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTIONS:
        raise BadAction("unknown_type")
    fields = {**COMMON, **ACTIONS[kind]}
    for key in action:
        if key != "type" and key not in fields:
            raise BadAction("unknown_key", key=str(key)[:40])
    for key, spec in fields.items():
        if key not in action:
            if spec.required:
                raise BadAction("missing_key", key=key)
        elif not spec.accepts(action[key]):
            raise BadAction("bad_value", key=key, spec=spec)
    either = ONE_OF.get(kind)
    if either and not any(key in action for key in either):
        raise BadAction("missing_key", key=either[0])
    return dict(action)
