"""The shape of every action: its keys, and for each key the values it may take.

This table is the one place an action's shape and ranges are checked: apply_action checks
every action against it before the rules look at it, the web API checks a posted action
against it before anything is stored, and the API's OpenAPI schema is written from it
(`json_schema`). Whether an action is legal *now* is the rules' business; this only says
what an action may look like. Anything else (a key the action does not take, a number out
of range, a 400-digit integer) is refused here, so nothing a client invents reaches the
rules, the snapshot or the action log.

To give an action a new key, add one line to its row in ACTIONS.
"""

import math
from dataclasses import dataclass

from ..hands import PLACE_SPEED_MAX, PLACE_SPEED_MIN, PULL_SPEED_MAX, PULL_SPEED_MIN
from ..pieces import BASE_LENGTH, COLUMN_COLOURS, COLUMNS, LANES, PLATFORM_LENGTHS
from .state import IllegalAction

MAX_SEATS = 4


@dataclass(frozen=True)
class Integer:
    low: int
    high: int
    required: bool = True
    description: str = ""

    def accepts(self, value) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        )

    def json_schema(self) -> dict:
        return {"type": "integer", "minimum": self.low, "maximum": self.high}


@dataclass(frozen=True)
class Number:
    low: float
    high: float
    required: bool = True
    description: str = ""

    def accepts(self, value) -> bool:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        # Compared before any conversion: a 400-digit integer is simply out of range.
        return (isinstance(value, int) or math.isfinite(value)) and self.low <= value <= self.high

    def json_schema(self) -> dict:
        return {"type": "number", "minimum": self.low, "maximum": self.high}


@dataclass(frozen=True)
class Choice:
    values: tuple
    required: bool = True
    description: str = ""

    def accepts(self, value) -> bool:
        return isinstance(value, str) and value in self.values

    def json_schema(self) -> dict:
        return {"type": "string", "enum": list(self.values)}


COLUMN = Integer(0, len(COLUMNS) - 1, description="a column's id")
# The column a pull, abort or place concerns is the one touched or held: naming it is optional.
SAME_COLUMN = Integer(
    0, len(COLUMNS) - 1, required=False, description="the column touched or held (optional)"
)
# "x" and "z" of place: from the top platform's centre, so within half the longest platform.
PLACE_X = Number(
    -PLATFORM_LENGTHS[0] / 2,
    PLATFORM_LENGTHS[0] / 2,
    description="mm across the width from the top platform's centre",
)
PLACE_Z = Number(
    -PLATFORM_LENGTHS[0] / 2,
    PLATFORM_LENGTHS[0] / 2,
    required=False,
    description="mm in depth from the top platform's centre (negative: the front)",
)
PLACE_LANE = Integer(
    min(LANES),
    max(LANES),
    required=False,
    description="instead of z, one of the page's three depth rows (0 front, 1 middle, 2 back)",
)
# "x" and "z" of lay_platform: the new platform's centre in the world, so over the base
# (z optional: by default centred in depth on the platform below).
LAY_X = Number(-BASE_LENGTH / 2, BASE_LENGTH / 2, description="world mm of the centre")
LAY_Z = Number(
    -BASE_LENGTH / 2,
    BASE_LENGTH / 2,
    required=False,
    description="world mm of the centre in depth (default: over the platform below)",
)
# How the hand executes a pull, a removal or a placement (docs/paletti.md, "The hand").
PULL_SPEED = Number(PULL_SPEED_MIN, PULL_SPEED_MAX, required=False, description="mm/s")
PLACE_SPEED = Number(PLACE_SPEED_MIN, PLACE_SPEED_MAX, required=False, description="mm/s")
STEADINESS = Number(0.0, 1.0, required=False, description="1 = perfectly steady")
COLOUR = Choice(COLUMN_COLOURS)

# Every key any action may carry, besides its own.
COMMON = {"seat": Integer(0, MAX_SEATS - 1, required=False, description="must be the seat to act")}

ACTIONS = {
    "take_colour": {"colour": COLOUR},
    "choose_colour": {"colour": COLOUR},
    "touch": {"column": COLUMN},
    "pull": {"column": SAME_COLUMN, "speed": PULL_SPEED, "steadiness": STEADINESS},
    "abort": {"column": SAME_COLUMN},
    "place": {
        "column": SAME_COLUMN,
        "x": PLACE_X,
        "z": PLACE_Z,
        "lane": PLACE_LANE,
        "speed": PLACE_SPEED,
        "steadiness": STEADINESS,
    },
    "ask_platform": {},
    "protest": {},
    "decline": {},
    "remove_column": {"column": COLUMN, "speed": PULL_SPEED, "steadiness": STEADINESS},
    "lay_platform": {"x": LAY_X, "z": LAY_Z},
    "pass": {},
    # A turn skipped for a seat out of time: the turn clock's own (rules/skips.py), never
    # in legal_actions, refused from a player (the web layer posts it for the others).
    "skip": {},
}
# Keys of which an action needs at least one (the first is the one named when none is).
ONE_OF = {"place": ("z", "lane")}


class BadAction(IllegalAction):
    """An action that does not have the shape of any action; `problem` says how.

    `code` is "unknown_action" for a type no action has, else "bad_action"; `where` names
    the offending key, if any; `params` (with the key's `spec`) let a web layer say it in
    its reader's language."""

    def __init__(self, problem: str, **params):
        code = "unknown_action" if problem == "unknown_type" else "bad_action"
        key = params.get("key")
        super().__init__(code, _REASONS[problem].format(key=key))
        self.problem = problem
        self.params = params
        self.where = {"key": key} if key is not None else {}


_REASONS = {
    "unknown_type": "Unknown action.",
    "unknown_key": "This action does not take the key '{key}'.",
    "missing_key": "This action needs the key '{key}'.",
    "bad_value": "The value of '{key}' is not one this action takes.",
}


def check(action) -> dict:
    """The action, copied, if its type, keys and values are all allowed; else BadAction
    (an IllegalAction)."""
    if not isinstance(action, dict):
        raise IllegalAction("malformed", "An action is an object with a 'type'.")
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


def json_schema() -> dict:
    """The OpenAPI (JSON Schema) description of exactly the actions `check` accepts."""
    variants = []
    for kind, own in ACTIONS.items():
        fields = {**COMMON, **own}
        properties = {"type": {"type": "string", "enum": [kind]}}
        for key, spec in fields.items():
            properties[key] = spec.json_schema()
            if spec.description:
                properties[key]["description"] = spec.description
        variant = {
            "type": "object",
            "title": kind,
            "properties": properties,
            "required": ["type", *(key for key, spec in fields.items() if spec.required)],
            "additionalProperties": False,
        }
        if kind in ONE_OF:
            variant["anyOf"] = [{"required": [key]} for key in ONE_OF[kind]]
        variants.append(variant)
    return {"oneOf": variants}
