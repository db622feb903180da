"""Running a tournament through its services: rounds fixed at their start, results
entered by one player and confirmed by another, corrected by staff with history. The
game here has no table rules of its own: its result is the placing order."""

from datetime import date

import pytest
from django.utils import translation
from reversion.models import Version

from games.models import Game
from games.tournament import selectors, services
from games.tournament.models import ResultStatus, Seat, Tournament
from games.tournament.services import TournamentError

from .conftest import GAME, register, result_for

pytestmark = pytest.mark.django_db


def finish_round(round_):
    """Every table: the first seat enters the seats' order as the result, the second
    confirms."""
    for table in round_.tables.all():
        seats = list(table.seats.order_by("position"))
        services.enter_result(seat=seats[0], result=result_for(table))
        table.refresh_from_db()
        services.confirm_result(seat=seats[1], entry=table.entry)


def test_round_one_seats_thirteen_players_at_four_tables_with_no_colours(tournament):
    players = register(tournament, 13)
    round_ = services.start_round(tournament=tournament)
    tables = list(round_.tables.order_by("number"))
    assert [t.seats.count() for t in tables] == [4, 3, 3, 3]
    seated = Seat.objects.filter(round=round_).values_list("player_id", flat=True)
    assert sorted(seated) == sorted(p.pk for p in players)
    for table in tables:
        # The plain rules name nobody to begin and give no colours.
        assert table.first_position is None and table.neutral == ""
        assert all(seat.colours == [] for seat in table.seats.all())
    assert (round_.ends_at - round_.started_at).total_seconds() == 25 * 60


def test_the_same_seed_seats_the_same_first_round(seed):
    def tables(name):
        tournament = Tournament.objects.create(
            game=Game.objects.get(slug=GAME), name=name, date=date(2026, 6, 13), seed=9
        )
        for i in range(9):
            services.register(tournament=tournament, name=f"P{i}", age=10 + i)
        round_ = services.start_round(tournament=tournament)
        return [
            [(s.player.name, s.position, tuple(s.colours)) for s in t.seats.order_by("position")]
            for t in round_.tables.order_by("number")
        ]

    assert tables("one") == tables("two")


def test_the_next_round_waits_for_every_confirmed_result(tournament):
    register(tournament, 8)
    round_ = services.start_round(tournament=tournament)
    with pytest.raises(TournamentError) as refused:
        services.start_round(tournament=tournament)
    assert refused.value.status == 409
    finish_round(round_)
    assert services.start_round(tournament=tournament).number == 2


def test_a_player_cannot_confirm_their_own_result_another_player_can(tournament):
    register(tournament, 4)
    table = services.start_round(tournament=tournament).tables.get()
    first, second, third, _ = table.seats.order_by("position")
    table = services.enter_result(seat=first, result=result_for(table, places=[2, 3, 1, 4]))
    assert table.status == ResultStatus.PENDING and table.winner == third
    with pytest.raises(TournamentError) as refused:
        services.confirm_result(seat=first, entry=table.entry)
    assert refused.value.status == 403
    table = services.confirm_result(seat=second, entry=table.entry)
    assert table.status == ResultStatus.CONFIRMED and table.confirmed_by == second
    with pytest.raises(TournamentError):  # confirmed: players can no longer change it
        services.enter_result(seat=second, result=result_for(table, places=[2, 1, 3, 4]))


def test_a_new_entry_replaces_the_waiting_one_and_an_old_confirmation_is_refused(tournament):
    register(tournament, 3)
    table = services.start_round(tournament=tournament).tables.get()
    a, b, c = table.seats.order_by("position")
    shown = services.enter_result(seat=a, result=result_for(table, places=[1, 2, 3])).entry
    services.enter_result(seat=b, result=result_for(table, places=[2, 1, 3]))  # b disagrees
    with pytest.raises(TournamentError):
        services.confirm_result(seat=c, entry=shown)  # c read the first entry
    table.refresh_from_db()
    assert table.winner == b and table.entered_by == b
    services.confirm_result(seat=a, entry=table.entry)
    table.refresh_from_db()
    assert table.status == ResultStatus.CONFIRMED


def test_staff_correct_a_confirmed_result_and_the_history_keeps_every_step(tournament, staff):
    # The history's comments are written in the active language: pinned to English.
    with translation.override("en"):
        register(tournament, 4)
        table = services.start_round(tournament=tournament).tables.get()
        a, b, c, d = table.seats.order_by("position")
        table = services.enter_result(seat=a, result=result_for(table, places=[1, 2, 3, 4]))
        services.confirm_result(seat=b, entry=table.entry)
        services.correct_result(
            user=staff,
            table=table,
            result=result_for(table, places=[4, 2, 2, 1]),
            note="The order was misread",
        )
        table.refresh_from_db()
        assert (table.winner, table.corrected_by) == (d, staff)
        rows = {r.player.name: r.standing.points for r in selectors.standings(tournament)}
        name = {seat: seat.player.name for seat in (a, b, c, d)}
        assert rows == {name[d]: 6, name[b]: 4, name[c]: 4, name[a]: 0}
        history = list(Version.objects.get_for_object(table).select_related("revision__user"))
        assert [v.revision.get_comment() for v in history] == [
            "The order was misread",
            f"Confirmed by {name[b]}",
            f"Entered by {name[a]}",
        ]
        assert history[0].revision.user == staff
        assert history[-1].field_dict["winner_id"] == a.pk  # what was entered first is kept


def test_a_result_that_does_not_fit_the_table_is_refused(tournament):
    register(tournament, 8)
    round_ = services.start_round(tournament=tournament)
    one, two = round_.tables.order_by("number")
    seat = one.seats.first()
    wrong = result_for(two)  # the other table's seats
    with pytest.raises(ValueError):
        services.enter_result(seat=seat, result=wrong)
    with pytest.raises(ValueError):
        services.enter_result(seat=seat, result=result_for(one, places=[1, 1, 2, 4]))
    with pytest.raises(ValueError):
        services.enter_result(seat=seat, result=result_for(one, places=[1, 2, 3, 5]))
    seats = list(one.seats.order_by("position"))
    with pytest.raises(ValueError):  # a seat left without a place
        services.enter_result(
            seat=seat, result=services.Result(places={s.pk: i for i, s in enumerate(seats[:3], 1)})
        )
    one.refresh_from_db()
    assert one.status == ResultStatus.OPEN


def test_late_arrival_and_dropout_change_the_next_round_only(tournament):
    players = register(tournament, 12)
    round_ = services.start_round(tournament=tournament)
    late = register(tournament, 1, start=12)[0]
    services.set_present(player=players[0], present=False)
    assert not Seat.objects.filter(player=late).exists()
    assert Seat.objects.filter(round=round_, player=players[0]).exists()  # round 1 stays
    finish_round(round_)
    round_two = services.start_round(tournament=tournament)
    seated = set(Seat.objects.filter(round=round_two).values_list("player_id", flat=True))
    assert late.pk in seated and players[0].pk not in seated
    assert len(seated) == 12
    # The one who left keeps their result in the standings.
    assert players[0].pk in [r.player.pk for r in selectors.standings(tournament)]


def test_without_tables_of_two_five_players_leave_one_out_with_the_bye_points(tournament):
    tournament.pairs_when_needed = False
    tournament.save()
    register(tournament, 5)
    round_ = services.start_round(tournament=tournament)
    assert [t.seats.count() for t in round_.tables.all()] == [4]
    bye = round_.byes.get()
    rows = {r.player.pk: r.standing for r in selectors.standings(tournament)}
    assert rows[bye.player_id].points == 3 and rows[bye.player_id].games == 0


def test_after_the_last_round_no_other_starts_and_the_end_waits_for_results(tournament):
    tournament.rounds = 1
    tournament.save()
    register(tournament, 4)
    round_ = services.start_round(tournament=tournament)
    with pytest.raises(TournamentError):
        services.finish(tournament=tournament)
    finish_round(round_)
    with pytest.raises(TournamentError):
        services.start_round(tournament=tournament)
    services.finish(tournament=tournament)
    with pytest.raises(TournamentError):
        services.register(tournament=tournament, name="Late", age=30, at_desk=True)


def test_registration_through_the_link_stops_when_closed_the_desk_goes_on(tournament):
    services.set_registration(tournament=tournament, open_=False)
    with pytest.raises(TournamentError):
        services.register(tournament=tournament, name="Ada", age=9)
    services.register(tournament=tournament, name="Ada", age=9, at_desk=True)
    with pytest.raises(TournamentError):
        services.register(tournament=tournament, name="ADA", age=40, at_desk=True)


def test_players_level_at_the_top_share_the_win_and_its_points(tournament):
    register(tournament, 4)
    table = services.start_round(tournament=tournament).tables.get()
    a, b, c, d = table.seats.order_by("position")
    table = services.enter_result(seat=a, result=result_for(table, places=[1, 1, 3, 4]))
    services.confirm_result(seat=c, entry=table.entry)
    table.refresh_from_db()
    assert table.winner is None  # nobody won alone
    rows = {r.player.pk: r.standing.points for r in selectors.standings(tournament)}
    assert [rows[s.player_id] for s in (a, b, c, d)] == [6, 6, 2, 0]
    screen = selectors.screen(tournament)["tables"][0]
    assert screen["winners"] == [a.player.name, b.player.name]
