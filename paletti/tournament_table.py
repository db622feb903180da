"""Villa Paletti at a tournament's table (games.tournament's table rules): the rule options
agreed before play, under the engine's own names and values; who sits where, with which
colour, and who begins; the result a table reports and how it places the players.
Registered under the catalogue's slug when the site starts (apps.py).

The Polish invitation: "na początku ustalimy reguły gry" (the rules are agreed first).
Where the French, Danish and Polish texts differ, the engine offers the Polish readings as
options (paletti/engine, docs/paletti.md): the same names are used here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.tournament.standings import places_by_score
from games.tournament.tables import OnSite, Option, Result, Seating, TableRules, drawn_order

from . import tournament_match
from .engine import new_match
from .messages import player_colour

SLUG = "villa-paletti"
MAX_POINTS = 60  # all 20 columns at 3 points: no player's count can be higher

# The readings a physical table can follow, by the engine's option names. (The engine's
# `tremor` and `setup` are for the played-on-screen villa and have no meaning here.)
# The labels are the set-up page's own sentences; the French rules are the defaults.
OPTIONS = {
    "seal_start": Option(
        gettext_lazy("The race for the seal starts on"),
        {
            "green": gettext_lazy("the green platform (French rules)"),
            "blue": gettext_lazy("the blue platform (Polish text)"),
        },
        default="green",
    ),
    "colours": Option(
        gettext_lazy("The players' colours"),
        {
            "french": gettext_lazy(
                "the seal's die gives each player's colour, from the youngest on (French rules)"
            ),
            "polish": gettext_lazy(
                "the youngest throws the seal's die for their colour, then the others choose "
                "theirs (Polish text)"
            ),
        },
        default="french",
    ),
    "protest": Option(
        gettext_lazy("A protest against a new platform"),
        {
            "french": gettext_lazy(
                "the protester must move one of the claimant's columns to the top; if it "
                "works, that column leaves the game (French rules)"
            ),
            "polish": gettext_lazy(
                "the protester must move a column of any colour from under the top platform "
                "to the top; if it works, they take any column out of the game (Polish text)"
            ),
        },
        default="french",
    ),
    "abort": Option(
        gettext_lazy("A column touched and then put back"),
        {
            "french": gettext_lazy("is locked for the rest of the game (French rules)"),
            "polish": gettext_lazy("is not locked: the turn simply ends (Polish text)"),
        },
        default="french",
    ),
}


def throw_seed(seed: str, players: int) -> int:
    """The seed of the seal's throw at a table of `players` seated with `seed`: what the
    seats' draw leaves (a shuffle draws the same numbers whoever is seated), so the
    table's match on the site throws again exactly what the phones show."""
    _order, rng = drawn_order(range(players), seed)
    return rng.randrange(2**31)


class VillaPalettiTable(TableRules):
    """A Villa Paletti table: the youngest in seat 1, colours thrown with the engine's own
    seal, and a result of a winner, who brought the villa down and the points on top."""

    options = OPTIONS
    asks_places = False
    asks_winner = True
    brought_down_question = gettext_lazy("Who brought the villa down?")
    brought_down_nobody = gettext_lazy("nobody: it stood to the end")
    brought_down_sentence = gettext_lazy("%(name)s brought the villa down")
    points_label = gettext_lazy("Points on the top platform")
    points_max = MAX_POINTS
    has_colours = True
    age_note = gettext_lazy("The youngest at each table begins (the rules say so).")
    first_seat_note = gettext_lazy("the youngest: throws the seal first")

    def seat(self, players: Sequence, ages: Mapping, *, options: dict, seed: str) -> Seating:
        """The youngest in seat 1 (the French record and the Polish text: the youngest
        throws the seal first), the others clockwise in a drawn order; the colours as the
        engine throws the seal for that many players, from the youngest on, and the first
        builder the one who got the last colour (or, under the Polish colours, who chose
        last). Ties in age are broken by the same draw."""
        order, rng = drawn_order(players, seed)
        youngest = min(range(len(order)), key=lambda i: (ages[order[i]], i))
        order = order[youngest:] + order[:youngest]
        if len(order) not in (2, 3, 4):
            raise ValueError("Villa Paletti is for 2 to 4 players.")
        match = new_match(
            rng.randrange(2**31),  # = throw_seed(seed, len(players))
            players=len(order),
            options={"youngest": 0, "colours": self.with_defaults(options)["colours"]},
        )
        state = match.rules
        colours = tuple(tuple(seat.colours) for seat in state.seats)
        if state.choosing is not None:
            first = state.choosing.order[-1]  # the last to choose a colour begins
        else:
            first = state.first_player
        return Seating(
            order=tuple(order), colours=colours, neutral=state.neutral or "", first=first
        )

    def places(self, result: Result, seats: Sequence[int]) -> dict[int, int]:
        """Villa Paletti names a winner and nothing else. *Our reading*: the others are
        placed by their points on the top platform when the game ended (the seal race's
        count), and whoever brought the villa down comes last (the French record: "gare à
        celui qui fait s'écrouler la VILLA PALETTI, il sera puni"). Players level on points
        share the better place (1, 2, 2, 4)."""
        if set(result.points) != set(seats):
            raise ValueError("Points are needed for every seat of the table, and only those.")
        if any(not isinstance(p, int) or not 0 <= p <= MAX_POINTS for p in result.points.values()):
            raise ValueError("Points on the top platform are from 0 to 60.")
        winner, brought_down = result.winner, result.brought_down
        if winner not in seats or (brought_down is not None and brought_down not in seats):
            raise ValueError("The winner and whoever brought the villa down sit at the table.")
        if brought_down == winner:
            raise ValueError(_("Whoever brings the villa down cannot win."))
        others = [seat for seat in seats if seat not in (winner, brought_down)]
        ranked = {winner: 1}
        by_points = places_by_score({seat: result.points[seat] for seat in others})
        ranked.update({seat: 1 + place for seat, place in by_points.items()})
        if brought_down is not None:
            ranked[brought_down] = len(seats)
        return ranked

    def colour_name(self, colour: str) -> str:
        return player_colour(colour)

    # A table may be played as a match on the site (paletti.tournament_match).
    plays_on_site = True

    def start_on_site(self, table) -> None:
        """The table's match with the agreed options, the youngest in seat 1 throwing the
        seal first, with the table's own throw: the colours and the first turn are those
        the phones show."""
        options = self.with_defaults(table.round.tournament.rule_options)
        seed = throw_seed(table.seating_seed, table.seats.count())
        tournament_match.start(table, options=options, seed=seed)

    def seat_link(self, seat) -> str | None:
        return tournament_match.seat_link(seat)

    def watch(self, table) -> OnSite | None:
        return tournament_match.watch(table)
