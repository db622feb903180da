"""What changes a tournament: registering, starting a round (its seating fixed then),
entering, confirming and correcting a table's result, a player leaving or coming back,
the end. Views, the admin and tests call these; each write is one transaction."""

from __future__ import annotations

from datetime import timedelta

import reversion
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import live, seating, selectors
from .models import MAX_PLAYERS, Bye, Player, ResultStatus, Round, Seat, Table, Tournament
from .standings import TableResult
from .tables import Result


class TournamentError(Exception):
    """A change the tournament's state refuses: `status` is the HTTP answer a view gives
    (409 for a conflict with the state, 403 for a player acting outside their rights)."""

    def __init__(self, message, status: int = 409):
        super().__init__(str(message))
        self.message = message
        self.status = status


def changed(tournament_id: int, *, phones: bool = True) -> int:
    """Something the big screen or a phone shows has changed: the tournament's version goes
    up by one (in the caller's transaction, so two tables' results entered at once count
    twice) and, once committed, its id and version alone are published to the open
    streams (games.tournament.live). `phones`: a player's page may show it too (all but
    a move in a table's match, which only the big screen shows)."""
    bumps = {"version": F("version") + 1}
    if phones:
        bumps["phones_version"] = F("phones_version") + 1
    Tournament.objects.filter(pk=tournament_id).update(**bumps)
    version = Tournament.objects.values_list("version", flat=True).get(pk=tournament_id)
    transaction.on_commit(lambda: live.publish(tournament_id, version))
    return version


def _lock_tournament_of(table_id: int) -> None:
    """Lock the table's tournament before the table: the order every write takes (a round
    started or put on the site locks the tournament, then its tables), so that a result
    entered at the same time, which then raises the tournament's version, never waits on
    a write that waits on it."""
    locked = Tournament.objects.select_for_update(of=("self",)).filter(round_set__tables=table_id)
    list(locked.values_list("pk", flat=True))


def register(*, tournament: Tournament, name: str, age: int, at_desk: bool = False) -> Player:
    """A new player. Through the public link only while registration is open; at the
    desk until the tournament ends. A newcomer is seated from the next round on."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.finished:
            raise TournamentError(gettext_lazy("The tournament is over."))
        if not at_desk and not tournament.registration_open:
            raise TournamentError(gettext_lazy("Registration is closed: ask at the desk."))
        if tournament.players.count() >= MAX_PLAYERS:
            raise TournamentError(gettext_lazy("The tournament is full."))
        if tournament.players.filter(name__iexact=name).exists():
            raise TournamentError(gettext_lazy("A player of that name is already registered."))
        player = Player.objects.create(tournament=tournament, name=name, age=age)
        changed(tournament.pk)
        return player


def set_present(*, player: Player, present: bool) -> Player:
    """A player leaves (not seated in later rounds) or comes back. Their results stand."""
    with transaction.atomic():
        player.present = present
        player.save(update_fields=["present"])
        changed(player.tournament_id)
    return player


def set_registration(*, tournament: Tournament, open_: bool) -> Tournament:
    with transaction.atomic():
        tournament.registration_open = open_
        tournament.save(update_fields=["registration_open"])
        tournament.version = changed(tournament.pk)
    return tournament


def start_round(*, tournament: Tournament, now=None) -> Round:
    """The next round, its tables fixed now: round 1 by a seeded draw, later rounds by
    standing (seating.py). Refused while a table of the current round has no confirmed
    result, after the last round, or with too few present players."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.finished:
            raise TournamentError(gettext_lazy("The tournament is over."))
        current = selectors.current_round(tournament)
        number = current.number + 1 if current else 1
        final = number == tournament.rounds + 1 and tournament.final_table
        if number > tournament.rounds and not final:
            raise TournamentError(gettext_lazy("Every round has been played."))
        if not selectors.round_complete(current):
            raise TournamentError(
                gettext_lazy("A table of the current round has no confirmed result yet.")
            )
        present = list(tournament.players.filter(present=True).order_by("registered_at", "id"))
        sizes = {"largest": tournament.table_size, "pairs": tournament.pairs_when_needed}
        try:
            if final:
                plan = _final_plan(tournament, present)
            elif number == 1:
                plan = seating.first_round([p.pk for p in present], seed=tournament.seed, **sizes)
            else:
                here = {p.pk for p in present}
                rows = selectors.standings(tournament)
                ranking = [row.player.pk for row in rows if row.player.pk in here]
                had_bye = Bye.objects.filter(round__tournament=tournament).values_list(
                    "player_id", flat=True
                )
                plan = seating.next_round(
                    ranking,
                    met=selectors.met(tournament),
                    had_bye=list(had_bye),
                    seed=f"{tournament.seed}:{number}",
                    **sizes,
                )
        except seating.SeatingError as error:
            raise TournamentError(gettext_lazy("Too few players present for a table.")) from error
        if not plan.tables:
            raise TournamentError(gettext_lazy("Too few players present for a table."))
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            final=final,
            started_at=now,
            ends_at=now + timedelta(minutes=tournament.round_minutes),
        )
        ages = {p.pk: p.age for p in present}
        rules = tournament.table_rules
        for index, players in enumerate(plan.tables, start=1):
            seats = rules.seat(
                list(players),
                ages,
                options=tournament.rule_options,
                seed=Table(round=round_, number=index).seating_seed,
            )
            table = Table.objects.create(
                round=round_,
                number=index,
                neutral=seats.neutral,
                first_position=None if seats.first is None else seats.first + 1,
            )
            Seat.objects.bulk_create(
                Seat(
                    table=table,
                    round=round_,
                    player_id=player_id,
                    position=position,
                    colours=list(colours),
                )
                for position, (player_id, colours) in enumerate(
                    zip(seats.order, seats.colours, strict=True), start=1
                )
            )
        Bye.objects.bulk_create(Bye(round=round_, player_id=p) for p in plan.byes)
        changed(tournament.pk)
        return round_


def play_on_site(*, tournament: Tournament, table: Table | None = None) -> list[Table]:
    """Tables of the current round become matches on the site, each player on their own
    device, with the agreed options (the game's table rules set them up): `table`, or,
    without one, every table of the round that has no result and is not on the site yet.
    Refused for a game its rules do not play on the site, a table of an earlier round, or
    one that already has a result."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        rules = tournament.table_rules
        if not rules.plays_on_site:
            raise TournamentError(gettext_lazy("This game is not played on the site."))
        if tournament.finished:
            raise TournamentError(gettext_lazy("The tournament is over."))
        round_ = selectors.current_round(tournament)
        tables = Table.objects.select_for_update().filter(round=round_).order_by("number")
        if table is not None:
            tables = tables.filter(pk=table.pk)
            chosen = tables.first()
            if chosen is None:
                raise TournamentError(gettext_lazy("That round is over: ask the desk."))
            if chosen.digital:
                raise TournamentError(gettext_lazy("This table is already played on the site."))
            if chosen.status != ResultStatus.OPEN:
                raise TournamentError(gettext_lazy("This table already has a result."))
        started = []
        for candidate in tables.filter(digital=False, status=ResultStatus.OPEN):
            candidate.digital = True
            candidate.save(update_fields=["digital"])
            rules.start_on_site(candidate)
            started.append(candidate)
        if started:
            changed(tournament.pk)
        return started


def record_from_match(*, table: Table, result: Result, now=None) -> Table | None:
    """A table's match on the site has ended: its result, confirmed (staff can still
    correct it, with history). None, and nothing changed, when the table already has a
    confirmed result: the desk set it by hand for a match that could not go on, and the
    desk's result stands."""
    now = now or timezone.now()
    with transaction.atomic(), reversion.create_revision():
        _lock_tournament_of(table.pk)
        table = (
            Table.objects.select_for_update(of=("self",))
            .select_related("round__tournament__game")
            .get(pk=table.pk)
        )
        if table.status == ResultStatus.CONFIRMED:
            return None
        _write(table, result)
        table.status = ResultStatus.CONFIRMED
        table.entered_by, table.confirmed_by = None, None
        table.entered_at = table.confirmed_at = now
        table.save()
        changed(table.round.tournament_id)
        reversion.set_comment(_("Recorded from the match played on the site"))
        return table


def _final_plan(tournament: Tournament, present: list[Player]) -> seating.Plan:
    """The final table: the present players at the head of the standings, as many as the
    tournament's table size (fewer only when fewer are present). *Ours*: players level at
    the cut are taken in the standings' order (registration breaks what the tie-breaks
    leave level); the others play no game and take no points in that round."""
    here = {p.pk for p in present}
    ranking = [row.player.pk for row in selectors.standings(tournament) if row.player.pk in here]
    size = min(tournament.table_size, len(ranking))
    if size < max(2, tournament.game.min_players):
        raise seating.SeatingError("Too few players for the final table.")
    return seating.Plan(tables=(tuple(ranking[:size]),))


def finish(*, tournament: Tournament, now=None) -> Tournament:
    """The end: refused while a table has no confirmed result."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if not selectors.round_complete(selectors.current_round(tournament)):
            raise TournamentError(
                gettext_lazy("A table of the current round has no confirmed result yet.")
            )
        tournament.finished_at = now or timezone.now()
        tournament.registration_open = False
        tournament.save(update_fields=["finished_at", "registration_open"])
        tournament.version = changed(tournament.pk)
        return tournament


def check_result(table: Table, result: Result) -> dict[int, int]:
    """Each seat's place from a result that fits the table and its game's rules, or
    ValueError with the reason."""
    seats = [seat.pk for seat in table.seats.all()]
    rules = table.round.tournament.table_rules
    places = rules.places(result, seats)
    points = result.points if rules.points_label else {}
    if any(not isinstance(p, int) or not 0 <= p <= rules.points_max for p in points.values()):
        raise ValueError(f"Game points are from 0 to {rules.points_max}.")
    TableResult(players=tuple(seats), places=places, game_points=points)  # the scoring's checks
    return places


def _write(table: Table, result: Result) -> None:
    """The result on the table and its seats: what the game's rules ask, and each seat's
    place; the winner is the seat placed first, when only one is."""
    places = check_result(table, result)
    rules = table.round.tournament.table_rules
    for seat in table.seats.all():
        seat.points = result.points.get(seat.pk) if rules.points_label else None
        seat.place = places[seat.pk]
        seat.save(update_fields=["points", "place"])
    first = [seat for seat, place in places.items() if place == 1]
    table.winner_id = first[0] if len(first) == 1 else None
    table.brought_down_id = result.brought_down if rules.brought_down_question else None
    table.entry += 1


def _locked_table(seat: Seat) -> Table:
    _lock_tournament_of(seat.table_id)
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament__game")
        .get(pk=seat.table_id)
    )
    if table.round_id != selectors.current_round(table.round.tournament).pk:
        raise TournamentError(gettext_lazy("That round is over: ask the desk."))
    if table.round.tournament.finished:
        raise TournamentError(gettext_lazy("The tournament is over."))
    if table.digital:
        raise TournamentError(
            gettext_lazy(
                "Your table's result is recorded when its match on the site ends; if the "
                "match cannot go on, ask the desk."
            )
        )
    return table


def enter_result(*, seat: Seat, result: Result, now=None) -> Table:
    """A player at the table enters its result, which another player at it must confirm.
    Entering again before that replaces it (and needs a new confirmation); once
    confirmed, only staff change it."""
    now = now or timezone.now()
    with transaction.atomic(), reversion.create_revision():
        table = _locked_table(seat)
        if table.status == ResultStatus.CONFIRMED:
            raise TournamentError(
                gettext_lazy("This result is confirmed: only the desk can change it.")
            )
        _write(table, result)
        table.status = ResultStatus.PENDING
        table.entered_by = seat
        table.entered_at = now
        table.confirmed_by, table.confirmed_at = None, None
        table.save()
        changed(table.round.tournament_id)
        reversion.set_comment(_("Entered by %(name)s") % {"name": seat.player.name})
        return table


def confirm_result(*, seat: Seat, entry: int, now=None) -> Table:
    """Another player at the table confirms the result they were shown (`entry`)."""
    with transaction.atomic(), reversion.create_revision():
        table = _locked_table(seat)
        if table.status != ResultStatus.PENDING:
            raise TournamentError(gettext_lazy("There is no result waiting for confirmation."))
        if table.entry != entry:
            raise TournamentError(
                gettext_lazy("The result was changed meanwhile: read it again before confirming.")
            )
        if table.entered_by_id == seat.pk:
            raise TournamentError(
                gettext_lazy("Another player at your table must confirm your result."), status=403
            )
        table.status = ResultStatus.CONFIRMED
        table.confirmed_by = seat
        table.confirmed_at = now or timezone.now()
        table.save()
        changed(table.round.tournament_id)
        reversion.set_comment(_("Confirmed by %(name)s") % {"name": seat.player.name})
        return table


def correct_result(*, user, table: Table, result: Result, note: str = "", now=None) -> Table:
    """Staff set a table's result, confirmed at once, in any round, with a note kept in
    the table's history."""
    now = now or timezone.now()
    with transaction.atomic(), reversion.create_revision():
        _lock_tournament_of(table.pk)
        table = (
            Table.objects.select_for_update(of=("self",))
            .select_related("round__tournament__game")
            .get(pk=table.pk)
        )
        _write(table, result)
        table.status = ResultStatus.CONFIRMED
        table.corrected_by = user
        table.corrected_at = now
        if table.entered_at is None:
            table.entered_at = now
        table.save()
        changed(table.round.tournament_id)
        reversion.set_user(user)
        reversion.set_comment(note or _("Corrected at the desk"))
        return table
