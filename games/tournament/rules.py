"""What a tournament needs to know of its game: for Villa Paletti, the rule options agreed
before play (the engine's own option names and values) and who sits where, with which
colour and who begins. Other games of the catalogue get seats in a drawn order only.

The Polish invitation: "na początku ustalimy reguły gry" (the rules are agreed first).
Where the French, Danish and Polish texts differ, the engine offers the Polish readings as
options (paletti/engine, docs/paletti.md): the same names are used here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from paletti.engine import new_match

VILLA_PALETTI = "villa-paletti"

# The readings a physical table can follow, by the engine's option names. (The engine's
# `tremor` and `setup` are for the played-on-screen villa and have no meaning here.)
# The labels are the set-up page's own sentences.
OPTIONS = {
    "seal_start": (
        _("The race for the seal starts on"),
        {
            "green": _("the green platform (French rules)"),
            "blue": _("the blue platform (Polish reading)"),
        },
    ),
    "colours": (
        _("The players' colours"),
        {
            "french": _(
                "the seal's die gives each player's colour, from the youngest on (French rules)"
            ),
            "polish": _(
                "the youngest throws the seal's die for their colour, then the others choose "
                "theirs (Polish text)"
            ),
        },
    ),
    "protest": (
        _("A protest against a new platform"),
        {
            "french": _(
                "the protester must move one of the claimant's columns to the top; if it "
                "works, that column leaves the game (French rules)"
            ),
            "polish": _(
                "the protester must move a column of any colour from under the top platform "
                "to the top; if it works, they take any column out of the game (Polish text)"
            ),
        },
    ),
    "abort": (
        _("A column touched and then put back"),
        {
            "french": _("is locked for the rest of the game (French rules)"),
            "polish": _("is not locked: the turn simply ends (Polish text)"),
        },
    ),
}
DEFAULT_OPTIONS = {
    "seal_start": "green",
    "colours": "french",
    "protest": "french",
    "abort": "french",
}


def clean_options(game_slug: str, options) -> dict:
    """The options as stored: Villa Paletti's four, each defaulting to the French rules;
    none for another game. ValueError for anything else."""
    if game_slug != VILLA_PALETTI:
        if options:
            raise ValueError("Only Villa Paletti has rule options here.")
        return {}
    if not isinstance(options, dict):
        raise ValueError("Rule options are a set of names and values.")
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise ValueError(f"Unknown rule option: {sorted(unknown)[0]}.")
    cleaned = {**DEFAULT_OPTIONS, **options}
    for name, value in cleaned.items():
        if value not in OPTIONS[name][1]:
            raise ValueError(f"{name} cannot be {value!r}.")
    return cleaned


def agreed(options: dict) -> list[tuple[str, str]]:
    """The agreed rules as (question, reading) sentences, for the pages."""
    return [
        (str(OPTIONS[name][0]), str(OPTIONS[name][1][value]))
        for name, value in options.items()
        if name in OPTIONS and value in OPTIONS[name][1]
    ]


@dataclass(frozen=True)
class Seating:
    """A table's seats: `order` the players clockwise from seat 1, `colours` each seat's
    colours (empty: chosen at the table), `neutral` the colour nobody plays (three
    players), `first` the seat (0-based) that begins, or None where the game says nothing."""

    order: tuple
    colours: tuple[tuple[str, ...], ...]
    neutral: str = ""
    first: int | None = None


def seat_table(players: list, ages: dict, *, game_slug: str, options: dict, seed: str) -> Seating:
    """Seats for one table. Villa Paletti: the youngest in seat 1 (the French record and
    the Polish text: the youngest throws the seal first), the others clockwise in a drawn
    order; the colours as the engine throws the seal for that many players, from the
    youngest on, and the first builder the one who got the last colour (or, under the
    Polish colours, who chose last). Ties in age are broken by the same draw."""
    rng = random.Random(f"{seed}:seats")  # noqa: S311 - a draw, not a secret
    order = list(players)
    rng.shuffle(order)
    if game_slug != VILLA_PALETTI:
        return Seating(order=tuple(order), colours=tuple(() for _ in order))
    youngest = min(range(len(order)), key=lambda i: (ages[order[i]], i))
    order = order[youngest:] + order[:youngest]
    if len(order) not in (2, 3, 4):
        raise ValueError("Villa Paletti is for 2 to 4 players.")
    throw_seed = rng.randrange(2**31)
    match = new_match(
        throw_seed, players=len(order), options={"youngest": 0, "colours": options["colours"]}
    )
    state = match.rules
    colours = tuple(tuple(seat.colours) for seat in state.seats)
    if state.choosing is not None:
        first = state.choosing.order[-1]  # the last to choose a colour begins
    else:
        first = state.first_player
    return Seating(order=tuple(order), colours=colours, neutral=state.neutral or "", first=first)
