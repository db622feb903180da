"""The rules state and what every phase shares: phases, contexts, the result of an action,
the refusal, and the few readings of the state every module needs."""

from dataclasses import dataclass, field

RULES_VERSION = 3

# Where the seeds differ, the French text is the default and the Polish one an option.
READINGS = ("french", "polish")

# Seal race start: green in the French record, blue in the Polish reading (option).
SEAL_START_LEVEL = {"green": 2, "blue": 1}

PHASE_COLOURS = "colours"  # Polish text: players choose their colours after the throw
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


def _refuse(code: str, reason: str):
    raise IllegalAction(code, reason)


def _in_play(column: dict) -> bool:
    return column["where"] in ("base", "platform")


def _top_columns(rules: dict) -> list[dict]:
    return [c for c in rules["columns"] if _in_play(c) and c["level"] == rules["laid"]]


def _top_index(rules: dict) -> int:
    return rules["laid"] - 1


def _seat_colours_of(rules: dict, seat: int) -> list[str]:
    return rules["seats"][seat]["colours"]


def _polish_protest(rules: dict) -> bool:
    return rules["options"].get("protest", "french") == "polish"
