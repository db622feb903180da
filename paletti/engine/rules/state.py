"""The rules state and what every phase shares: phases, contexts, the result of an action,
the refusal, and the few readings of the state every module needs. (`Where` a column is
lives with the pieces, since the villa's physics writes it too.)"""

from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from typing import ClassVar

from ..pieces import Where

RULES_VERSION = 3

# Where the seeds differ, the French text is the default and the Polish one an option.
READINGS = ("french", "polish")

# Seal race start: green in the French record, blue in the Polish reading (option).
SEAL_START_LEVEL = {"green": 2, "blue": 1}


class Phase(StrEnum):
    """What may be done now. Stored, and shown to the page, as its value."""

    COLOURS = "colours"  # Polish text: players choose their colours after the throw
    CHOOSE_COLOUR = "choose_colour"
    MOVE = "move"
    TOUCHED = "touched"
    HOLDING = "holding"
    CLAIM = "claim"
    PENALTY = "penalty"
    REWARD = "reward"  # Polish protest rule: a successful protester removes a column
    LAY = "lay"
    NEUTRAL_PROTEST = "neutral_protest"
    OVER = "over"


class Context(StrEnum):
    """What a move is for: the builder's own turn, a protester proving a claim wrong, or
    (3 players) a protester proving an aborted neutral move possible. Stored as its value."""

    TURN = "turn"
    CLAIM_PROTEST = "claim_protest"
    NEUTRAL_PROTEST = "neutral_protest"


class IllegalAction(Exception):
    """An action the rules refuse: `code` for machines, `reason` an English sentence."""

    def __init__(self, code: str, reason: str):
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


class PlainData:
    """A dataclass stored as the plain JSON object of its fields.

    `to_json` gives that object (nested records as objects, in lists where they are lists),
    `from_json` reads it back. Fields named in OMIT_WHEN_NONE are left out while they are
    None, so a state written before the field existed reads back, and writes, the same
    bytes. Fields named in ENUMS hold enum members, stored as their values. Everything
    else reads and writes the fields as attributes.
    """

    OMIT_WHEN_NONE: ClassVar[tuple[str, ...]] = ()
    # Fields holding records: field name -> class (the field is a list of them, or one).
    NESTED: ClassVar[dict[str, type]] = {}
    # Fields holding an enum member: field name -> its enum.
    ENUMS: ClassVar[dict[str, type[Enum]]] = {}

    @classmethod
    def _names(cls) -> tuple[str, ...]:
        names = cls.__dict__.get("_field_names")
        if names is None:
            names = tuple(f.name for f in fields(cls))
            cls._field_names = names
        return names

    def to_json(self) -> dict:
        out = {}
        for name in self._names():
            value = getattr(self, name)
            if value is None and name in self.OMIT_WHEN_NONE:
                continue
            out[name] = _plain(value)
        return out

    @classmethod
    def _readers(cls) -> tuple[tuple[str, type | None, type[Enum] | None], ...]:
        # Per field: its name, the record class it holds and the enum it holds, if any.
        readers = cls.__dict__.get("_field_readers")
        if readers is None:
            readers = tuple((n, cls.NESTED.get(n), cls.ENUMS.get(n)) for n in cls._names())
            cls._field_readers = readers
        return readers

    @classmethod
    def from_json(cls, data: dict):
        names = cls._names()
        unknown = set(data) - set(names)
        if unknown:
            raise ValueError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}.")
        values = {}
        for name, nested, enum in cls._readers():
            if name not in data:
                continue
            value = data[name]
            if value is not None:
                if nested is not None:
                    if isinstance(value, list):
                        value = [nested.from_json(item) for item in value]
                    else:
                        value = nested.from_json(value)
                elif enum is not None:
                    value = enum(value)
            values[name] = value
        try:
            return cls(**values)
        except TypeError as error:
            raise ValueError(f"{cls.__name__}: {error}") from error


# Values that are plain JSON as they are (most of a record's): to_json passes them at once.
_SCALARS = frozenset({int, float, str, bool, type(None)})


def _plain(value):
    # Every list and object anew: to_json's result shares nothing with the record.
    if type(value) in _SCALARS:
        return value
    if isinstance(value, PlainData):
        return value.to_json()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, Enum):
        return value.value
    return value


@dataclass
class Options(PlainData):
    """The match's options (docs/paletti.md, "Options"). `youngest` and `colours` are
    stored only when given."""

    OMIT_WHEN_NONE = ("youngest", "colours")

    seal_start: str = "green"
    protest: str = "french"
    abort: str = "french"
    tremor: float = 0.0
    setup: str | dict = "default"
    youngest: int | None = None
    colours: str | None = None


@dataclass
class Seat(PlainData):
    name: str
    colours: list[str]


@dataclass
class Column(PlainData):
    """A column and its place: its foot at (x, z) on level `level` (0 = the base), on the
    column `on` (red only), `where` it is (`Where`); `pose` and `side` are derived for the
    drawings (villa.sync_rest), `lane` the nearest depth row."""

    ENUMS = {"where": Where}

    id: int
    colour: str
    kind: str
    value: int
    x: float
    z: float
    on: int | None
    lane: int
    level: int
    where: Where
    locked: bool
    pose: list | None
    side: list | None

    @property
    def in_play(self) -> bool:
        """Whether the column stands in the villa (on the base or a platform)."""
        return self.where in (Where.BASE, Where.PLATFORM)

    def leave(self, where: Where) -> None:
        """The column leaves the villa, for the hand or out of the game: nothing to draw."""
        self.where = where
        self.pose = self.side = None

    def put_back(self, origin: "Origin") -> None:
        """The column stands again where it was taken from (villa.sync_rest draws it)."""
        self.x, self.z, self.level = origin.x, origin.z, origin.level
        self.where, self.on = origin.where, origin.on


@dataclass
class Platform(PlainData):
    """A platform: its centre (x, z) once laid (None before), who laid it, and with two
    players the colour they were playing when they claimed it (None: both theirs)."""

    OMIT_WHEN_NONE = ("laid_colour",)

    index: int
    colour: str
    laid_by: int | None
    x: float | None
    z: float | None
    pose: list | None
    side: list | None
    laid_colour: str | None = None


@dataclass
class Origin(PlainData):
    """Where a column in the hand was taken from, to put it back there."""

    ENUMS = {"where": Where}

    x: float
    z: float
    level: int
    where: Where
    on: int | None


@dataclass
class Holding(PlainData):
    NESTED = {"origin": Origin}

    column: int
    origin: Origin


@dataclass
class Claim(PlainData):
    """A claim that no column can be moved: who claims, who is still to answer, who
    protests."""

    claimant: int
    asked: list[int]
    protester: int | None = None


@dataclass
class NeutralProtest(PlainData):
    """3 players: the protest a neutral column put back allows (Danish text)."""

    player: int
    asked: list[int]
    protester: int | None
    aborted: int


@dataclass
class Seal(PlainData):
    started: bool = False
    holder: int | None = None
    previous: int | None = None


@dataclass
class Collapse(PlainData):
    """How the match ended in a collapse: who caused it, why, where, which way."""

    by: int
    reason: str
    level: int
    piece: str
    direction: str
    view: str


@dataclass
class Choosing(PlainData):
    """The Polish colours option: the youngest's throw and the seats still to choose."""

    youngest: int
    thrown: str
    order: list[int]


@dataclass
class Rules(PlainData):
    """The rules state of a match, every piece's place included: what is stored.

    `laid` counts the platforms laid (the top level); `turn` is the builder's seat and
    `to_act` whoever acts now (a protester, a claimant laying); `phase` and `context` say
    what may be done (`Phase`, `Context`)."""

    NESTED = {
        "options": Options,
        "seats": Seat,
        "columns": Column,
        "platforms": Platform,
        "holding": Holding,
        "claim": Claim,
        "neutral_protest": NeutralProtest,
        "seal": Seal,
        "collapse": Collapse,
        "choosing": Choosing,
    }
    OMIT_WHEN_NONE = ("choosing",)
    ENUMS = {"phase": Phase, "context": Context}

    version: int
    seed: int
    options: Options
    seats: list[Seat]
    neutral: str | None
    youngest: int
    first_player: int | None
    columns: list[Column]
    platforms: list[Platform]
    laid: int
    turn: int | None
    to_act: int | None
    phase: Phase
    context: Context
    turn_colour: str | None = None
    step: str | None = None
    touched: int | None = None
    touch_load: int | None = None
    holding: Holding | None = None
    claim: Claim | None = None
    neutral_protest: NeutralProtest | None = None
    seal: Seal = field(default_factory=Seal)
    scores: list[int] = field(default_factory=list)
    winner: int | None = None
    outcome: str | None = None
    end_reason: str | None = None
    collapse: Collapse | None = None
    actions: int = 0
    passes: int = 0
    built: bool = False
    choosing: Choosing | None = None

    def copy(self) -> "Rules":
        """A deep copy, through the stored form (to_json shares nothing with the record)."""
        return Rules.from_json(self.to_json())

    def copy_pieces(self) -> "Rules":
        """A copy whose columns and platforms (their places, levels and supports) may be
        changed without touching these, all else shared: a look at the villa after a
        move (statics), never a state to play on. Much quicker than copy()."""
        return replace(
            self,
            columns=[replace(c) for c in self.columns],
            platforms=[replace(p) for p in self.platforms],
        )


@dataclass
class State:
    """A match: its typed rules state, every piece's place included (villa/)."""

    rules: Rules


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


def event(code: str, text: str, **params) -> dict:
    """An event as the UI gets it: a `code` and its parameters to translate, and an
    English `text`."""
    return {"code": code, "text": text, **params}


def refuse(code: str, reason: str):
    """Refuse the action: raise IllegalAction(code, reason)."""
    raise IllegalAction(code, reason)


def top_columns(rules: Rules) -> list[Column]:
    """The columns in play on the top level (on the top platform)."""
    return [c for c in rules.columns if c.in_play and c.level == rules.laid]


def top_index(rules: Rules) -> int:
    """The index of the top platform (0 = blue)."""
    return rules.laid - 1


def colours_of(rules: Rules, seat: int) -> list[str]:
    """The colours a seat plays (two with two players)."""
    return rules.seats[seat].colours


def polish_protest(rules: Rules) -> bool:
    """Whether the match plays the Polish text's protest rule (option "protest")."""
    return rules.options.protest == "polish"
