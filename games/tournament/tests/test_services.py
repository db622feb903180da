"""Running a tournament through its services: rounds fixed at their start, results
entered by one player and confirmed by another, corrected by staff with history."""

import itertools
from datetime import date

import pytest
from reversion.models import Version

from games.models import Game
from games.tournament import rules, selectors, services
from games.tournament.models import ResultStatus, Seat, Tournament
from games.tournament.services import TournamentError
from paletti.engine import new_match

from .conftest import register, result_for

pytestmark = pytest.mark.django_db


def finish_round(round_, *, winner=0):
    """Every table: the first seat enters, the second confirms."""
    for table in round_.tables.all():
        seats = list(table.seats.order_by("position"))
        services.enter_result(seat=seats[0], result=result_for(table, winner=winner))
        table.refresh_from_db()
        services.confirm_result(seat=seats[1], entry=table.entry)


def test_round_one_seats_thirteen_players_at_four_tables_youngest_first(tournament):
    players = register(tournament, 13)
    round_ = services.start_round(tournament=tournament)
    tables = list(round_.tables.order_by("number"))
    assert [t.seats.count() for t in tables] == [4, 3, 3, 3]
    seated = Seat.objects.filter(round=round_).values_list("player_id", flat=True)
    assert sorted(seated) == sorted(p.pk for p in players)
    for table in tables:
        seats = list(table.seats.order_by("position").select_related("player"))
        youngest = min(s.player.age for s in seats)
        assert seats[0].player.age == youngest  # seat 1 throws the seal first
        colours = [c for s in seats for c in s.colours]
        assert len(colours) == len(set(colours)) == len(seats)  # one colour each, all different
        if len(seats) == 3:
            assert table.neutral and table.neutral not in colours
        # French colours: whoever got the last colour, clockwise from the youngest, begins.
        assert table.first_position == len(seats)
    assert round_.ends_at - round_.started_at == round_.ends_at - round_.started_at
    assert (round_.ends_at - round_.started_at).total_seconds() == 25 * 60


def test_the_same_seed_seats_the_same_first_round(seed):
    def tables(name):
        tournament = Tournament.objects.create(
            game=Game.objects.get(slug="villa-paletti"), name=name, date=date(2026, 6, 13), seed=9
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
    first, second, *_ = table.seats.order_by("position")
    table = services.enter_result(seat=first, result=result_for(table, winner=2))
    assert table.status == ResultStatus.PENDING
    with pytest.raises(TournamentError) as refused:
        services.confirm_result(seat=first, entry=table.entry)
    assert refused.value.status == 403
    table = services.confirm_result(seat=second, entry=table.entry)
    assert table.status == ResultStatus.CONFIRMED and table.confirmed_by == second
    with pytest.raises(TournamentError):  # confirmed: players can no longer change it
        services.enter_result(seat=second, result=result_for(table, winner=1))


def test_a_new_entry_replaces_the_waiting_one_and_an_old_confirmation_is_refused(tournament):
    register(tournament, 3)
    table = services.start_round(tournament=tournament).tables.get()
    a, b, c = table.seats.order_by("position")
    shown = services.enter_result(seat=a, result=result_for(table, winner=0)).entry
    services.enter_result(seat=b, result=result_for(table, winner=1))  # b disagrees
    with pytest.raises(TournamentError):
        services.confirm_result(seat=c, entry=shown)  # c read the first entry
    table.refresh_from_db()
    assert table.winner == b and table.entered_by == b
    services.confirm_result(seat=a, entry=table.entry)
    table.refresh_from_db()
    assert table.status == ResultStatus.CONFIRMED


def test_staff_correct_a_confirmed_result_and_the_history_keeps_every_step(tournament, staff):
    register(tournament, 4)
    table = services.start_round(tournament=tournament).tables.get()
    a, b, c, d = table.seats.order_by("position")
    table = services.enter_result(seat=a, result=result_for(table, winner=0, points=[5, 1, 1, 1]))
    services.confirm_result(seat=b, entry=table.entry)
    services.correct_result(
        user=staff,
        table=table,
        result=result_for(table, winner=3, brought_down=0, points=[5, 1, 1, 4]),
        note="The seal was misread",
    )
    table.refresh_from_db()
    assert (table.winner, table.brought_down, table.corrected_by) == (d, a, staff)
    rows = {r.player.name: r.standing.points for r in selectors.standings(tournament)}
    name = {seat: seat.player.name for seat in (a, b, c, d)}
    assert rows == {name[d]: 6, name[b]: 4, name[c]: 4, name[a]: 0}
    history = list(Version.objects.get_for_object(table).select_related("revision__user"))
    assert [v.revision.get_comment() for v in history] == [
        "The seal was misread",
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
        services.enter_result(seat=seat, result=result_for(one, winner=1, brought_down=1))
    with pytest.raises(ValueError):
        services.enter_result(seat=seat, result=result_for(one, points=[0, 0, 0, 61]))
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


def test_every_rule_option_is_a_reading_the_engine_itself_accepts():
    for values in itertools.product(*(readings for _, readings in rules.OPTIONS.values())):
        options = dict(zip(rules.OPTIONS, values, strict=True))
        assert rules.clean_options(rules.VILLA_PALETTI, options) == options
        new_match(1, players=4, options=options)  # raises on a name it does not know
    with pytest.raises(ValueError):
        rules.clean_options(rules.VILLA_PALETTI, {"seal_start": "red"})
    with pytest.raises(ValueError):
        rules.clean_options("alhambra", {"seal_start": "green"})
