"""What a tournament asks of its game, and the seam where the game's own module answers.

A tournament runs any game of the catalogue. Three things differ from game to game:
- the rule options the players agree before play (the set-up page offers them, the desk,
  the join page and every phone show the ones agreed);
- how a table is seated: the order of its seats, each seat's colours, who begins;
- which result a table reports, and how that result places its players.

A game that can also be played on the site may offer a fourth: a table played as a match
there, each player on their own device, its result reported when it ends (`plays_on_site`,
`start_on_site`, `seat_link`, `watch`; the game's module calls services.record_from_match).

A game's own module supplies them as `TableRules` registered under the game's catalogue
slug when the site starts (`register`, from that app's `AppConfig.ready()`), so the
tournament imports no game's module. A game with none gets `TableRules` itself: no
options, the seats in a drawn order, and the placing order for a result.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .standings import check_places


@dataclass(frozen=True)
class Option:
    """A rule option agreed before play: its question, its readings (value → the
    sentence the pages show) and the reading taken when none is named."""

    question: str
    readings: Mapping[str, str]
    default: str


@dataclass(frozen=True)
class Seating:
    """A table's seats: `order` the players clockwise from seat 1, `colours` each seat's
    colours (empty: none, or chosen at the table), `neutral` a colour nobody plays,
    `first` the seat (0-based) that begins, or None where the rules leave it open."""

    order: tuple
    colours: tuple[tuple[str, ...], ...]
    neutral: str = ""
    first: int | None = None


@dataclass(frozen=True)
class Result:
    """A table's result as entered, by seat id. The plain rules ask `places` (each seat's
    place, 1 the best, players level sharing the better place); a game's rules may ask
    for a `winner`, who `brought_down` the game (a fall, such as a tower's, that places
    that player last) and each seat's game `points` instead."""

    winner: int | None = None
    brought_down: int | None = None
    points: Mapping[int, int] = field(default_factory=dict)
    places: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class OnSite:
    """A table's match on the site as the room sees it: the spectators' address (path and
    fragment), a sentence saying where the match stands, and whether it is over."""

    watch_url: str
    status: str
    over: bool = False


def drawn_order(players: Sequence, seed: str) -> tuple[list, random.Random]:
    """The players in a seeded draw, and the draw's generator for what follows it."""
    rng = random.Random(f"{seed}:seats")  # noqa: S311 - a draw, not a secret
    order = list(players)
    rng.shuffle(order)
    return order, rng


class TableRules:
    """The rules every game's table has; a game's module subclasses them for its own.

    Plain: no options, the seats in a drawn order (so that nobody's seat follows from
    their standing), nobody named to begin, no colours, and a result that is the placing
    order, players level sharing the better place (1, 1, 3: Le Petit Prince's record has
    players share a win their tie-breaks leave level)."""

    # The options agreed before play, by name.
    options: Mapping[str, Option] = {}
    # What the result form asks: each seat's place; or a winner, who brought the game
    # down (asked when the question is given) and each seat's game points (asked when
    # their label is given), from 0 to `points_max`.
    asks_places: bool = True
    asks_winner: bool = False
    brought_down_question: str = ""
    brought_down_nobody: str = ""  # the answer "nobody": the game ended standing
    # The big screen's line for a table's fall: "%(name)s brought …".
    brought_down_sentence: str = ""
    points_label: str = ""
    points_max: int = 999
    # Whether each seat shows its colours (empty: chosen at the table), and the notes
    # beside the registration's age and beside seat 1 on the phones.
    has_colours: bool = False
    age_note: str = ""
    first_seat_note: str = ""

    # Whether a table of this game can be played as a match on the site instead.
    plays_on_site: bool = False

    def start_on_site(self, table) -> None:
        """Set `table` (its seats fixed, no result yet) up as a match on the site, with
        the tournament's agreed options, each player on their own device."""
        raise NotImplementedError("This game is not played on the site.")

    def seat_link(self, seat) -> str | None:
        """The address (path and fragment) through which this seat's player plays their
        table's match: it carries that seat's secret, so it is shown to that player only."""
        return None

    def watch(self, table) -> OnSite | None:
        """The table's match for the room (the big screen), or None."""
        return None

    def clean_options(self, options) -> dict:
        """The options as stored, each missing one at its default; ValueError for a
        name or a value these rules do not know."""
        if not self.options:
            if options:
                raise ValueError("This game has no rule options.")
            return {}
        if not isinstance(options, dict):
            raise ValueError("Rule options are a set of names and values.")
        unknown = set(options) - set(self.options)
        if unknown:
            raise ValueError(f"Unknown rule option: {sorted(unknown)[0]}.")
        cleaned = self.with_defaults(options)
        for name, value in cleaned.items():
            if value not in self.options[name].readings:
                raise ValueError(f"{name} cannot be {value!r}.")
        return cleaned

    def with_defaults(self, options: dict) -> dict:
        """`options` with every option not named at its default."""
        defaults = {name: option.default for name, option in self.options.items()}
        return {**defaults, **options}

    def agreed(self, options: dict) -> list[tuple[str, str]]:
        """The agreed rules as (question, reading) sentences, for the pages."""
        return [
            (str(self.options[name].question), str(self.options[name].readings[value]))
            for name, value in (options or {}).items()
            if name in self.options and value in self.options[name].readings
        ]

    def seat(self, players: Sequence, ages: Mapping, *, options: dict, seed: str) -> Seating:
        """The seats of one table for `players` (their ages by player, should the rules
        seat by age); the same seed gives the same seats."""
        order, _rng = drawn_order(players, seed)
        return Seating(order=tuple(order), colours=tuple(() for _ in order))

    def places(self, result: Result, seats: Sequence[int]) -> dict[int, int]:
        """Each seat's place from the result entered, or ValueError (its message is
        shown to the players) when the result does not fit the table or the rules."""
        if set(result.places) != set(seats):
            raise ValueError("A place is needed for every seat of the table, and only those.")
        check_places(result.places)
        return dict(result.places)

    def colour_name(self, colour: str) -> str:
        """A seat's colour as the pages name it."""
        return colour


PLAIN = TableRules()
# Each game's own table rules, by catalogue slug (filled by `register`).
TABLE_RULES: dict[str, TableRules] = {}


def register(slug: str, rules: TableRules) -> None:
    """A game's table rules, under its catalogue slug (called once the apps are ready)."""
    TABLE_RULES[slug] = rules


def rules_for(slug: str) -> TableRules:
    """The table rules of the game with this slug: its own, or the plain ones."""
    return TABLE_RULES.get(slug, PLAIN)


def with_options() -> dict[str, TableRules]:
    """The games whose rules offer options, by slug, for the set-up page."""
    return {slug: rules for slug, rules in sorted(TABLE_RULES.items()) if rules.options}
