"""A tournament's table played as a Villa Paletti match on the site, each player on their
own device (games.tournament's table rules call this through VillaPalettiTable).

The match is set up from the table as the tournament seated it: its players in seat
order, the agreed rule options, the youngest (seat 1) throwing the seal first, and the
same throw as the table's (tournament_table.throw_seed), so the match gives each player
the colours, and the first turn, their phone already shows.

The links. Each seat's secret, and the spectators', are derived from the site's
SECRET_KEY and the match's id (an HMAC), not stored: the database keeps only their
SHA-256 digests, as for any match (paletti.seats), and the player's tournament page
derives their own seat's link again each time it is shown. The organiser's secret is
drawn and handed to nobody: the desk changes a table through the tournament's pages,
not through the match. Changing SECRET_KEY stops the links of matches under way.

The end. When the match ends (signals.match_over), the table's result is recorded as
confirmed: the winner, who brought the villa down, each seat's points on the top
platform. A table whose result the desk set by hand first (a match that could not go
on) keeps the desk's result: the match's end is then ignored.
"""

from __future__ import annotations

import logging

from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from games.tournament import services as tournament_services
from games.tournament.tables import OnSite, Result

from . import engine, services
from .models import Match, MatchStatus, Seat, SeatDevice, TournamentMatch
from .seats import digest

logger = logging.getLogger(__name__)

SALT = "paletti.tournament_match"


def seat_secret(match_id, index: int) -> str:
    """The secret of seat `index` of a tournament table's match (64 hex digits)."""
    return salted_hmac(SALT, f"{match_id}:seat:{index}", algorithm="sha256").hexdigest()


def spectator_secret(match_id) -> str:
    return salted_hmac(SALT, f"{match_id}:spectators", algorithm="sha256").hexdigest()


def _join_path(match_id, secret: str) -> str:
    # The secret in the fragment: a browser never sends it (no log, no Referer).
    return f"{reverse('paletti-join', kwargs={'match_id': match_id})}#{secret}"


def start(table, *, options: dict, seed: int) -> TournamentMatch:
    """The match of `table` (its seats fixed), each player on their own device, with the
    engine's `options` and `seed`; the youngest sits in seat 1."""
    seats = list(table.seats.select_related("player").order_by("position"))
    outcome = services.create_match(
        seats=[services.SeatSpec(name=s.player.name, device=SeatDevice.OWN) for s in seats],
        options={**options, "youngest": 0},
        seed=seed,
    )
    match = outcome.match
    for index in range(len(seats)):
        Seat.objects.filter(match=match, index=index).update(
            key_digest=digest(seat_secret(match.pk, index))
        )
    Match.objects.filter(pk=match.pk).update(spectator_digest=digest(spectator_secret(match.pk)))
    return TournamentMatch.objects.create(table=table, match=match)


def seat_link(seat) -> str | None:
    """The address through which the player of tournament seat `seat` plays their table's
    match, or None when the table has none (any more)."""
    link = TournamentMatch.objects.filter(table_id=seat.table_id).only("match_id").first()
    if link is None:
        return None
    return _join_path(link.match_id, seat_secret(link.match_id, seat.position - 1))


def watch(table) -> OnSite | None:
    """The table's match for the big screen: the spectators' address and where it stands."""
    link = TournamentMatch.objects.filter(table_id=table.pk).select_related("match").first()
    if link is None:
        return None
    match = link.match
    url = _join_path(match.pk, spectator_secret(match.pk))
    if match.status == MatchStatus.FINISHED:
        return OnSite(watch_url=url, status=_("The match is over."), over=True)
    if match.version == 0:
        return OnSite(watch_url=url, status=_("The match is about to start."))
    try:
        state = services.load_state(match)
    except engine.OutdatedSnapshot:
        return OnSite(watch_url=url, status=_("The match can no longer be played."))
    seats = state.rules.seats
    to_act = state.rules.to_act
    if to_act is None:
        return OnSite(watch_url=url, status=_("The match is being played."))
    status = _("%(name)s to play (move %(count)d).") % {
        "name": seats[to_act].name,
        "count": match.version + 1,
    }
    return OnSite(watch_url=url, status=status)


def result_of(table, state: engine.State) -> Result:
    """The ended match's result in the tournament's terms (tournament seat ids): the
    winner, whose fall ended it, each seat's points on the top platform."""
    rules = state.rules
    by_index = {s.position - 1: s.pk for s in table.seats.all()}
    brought_down = by_index[rules.collapse.by] if rules.collapse is not None else None
    return Result(
        winner=by_index[rules.winner],
        brought_down=brought_down,
        points={by_index[i]: rules.scores[i] for i in by_index},
    )


def moved(sender, *, match, **kwargs) -> None:
    """signals.match_moved: where a tournament table's match stands is on the big screen;
    its tournament's version goes up, which wakes the screen (one small query for any
    other match)."""
    tournament_id = (
        TournamentMatch.objects.filter(match_id=match.pk)
        .values_list("table__round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        tournament_services.changed(tournament_id, phones=False)


def record(sender, *, match, state, **kwargs) -> None:
    """signals.match_over: a tournament table's match has ended; record its result. A
    result the tournament refuses is logged, never raised: the last move was stored and
    its player must see it; the desk then enters the result by hand."""
    link = TournamentMatch.objects.filter(match_id=match.pk).select_related("table").first()
    if link is None:
        return
    table = link.table
    try:
        tournament_services.record_from_match(table=table, result=result_of(table, state))
    except (ValueError, KeyError, tournament_services.TournamentError):
        logger.exception("The result of match %s could not be recorded for its table.", match.pk)
