"""The final table after the rounds (the invitation's 90 minutes as three rounds and a
final table): the leaders of the standings at one table, its result deciding the first
places, the others' places after them, no round after it."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.tournament import selectors, services
from games.tournament.standings import Standing, with_final
from games.tournament.tests.conftest import register, result_for

pytestmark = pytest.mark.django_db


def url(name, **kwargs):
    with translation.override("en"):
        return reverse(f"tournament:{name}", kwargs=kwargs)


def play_round(tournament, staff):
    """A round started and every table's result set, the seats placed in seat order."""
    round_ = services.start_round(tournament=tournament)
    for table in round_.tables.all():
        services.correct_result(user=staff, table=table, result=result_for(table))
    return round_


@pytest.fixture
def final_tournament(tournament):
    tournament.final_table = True
    tournament.save()
    return tournament


def test_the_leaders_play_the_final_and_its_result_decides_the_first_places(
    final_tournament, staff
):
    tournament = final_tournament
    register(tournament, 13)
    for _ in range(3):
        play_round(tournament, staff)
    before = selectors.standings(tournament)
    final = services.start_round(tournament=tournament)
    assert final.final and final.number == 4
    (table,) = final.tables.all()
    seated = {seat.player_id for seat in table.seats.all()}
    assert seated == {row.player.pk for row in before[:4]}
    assert not final.byes.exists()
    # The fourth of the standings wins the final, the leader comes last.
    seats = {seat.player_id: seat for seat in table.seats.all()}
    leader, second, third, fourth = (row.player.pk for row in before[:4])
    places = {fourth: 1, third: 2, second: 3, leader: 4}
    result = services.Result(places={seats[p].pk: place for p, place in places.items()})
    services.correct_result(user=staff, table=table, result=result)
    after = selectors.standings(tournament)
    assert [row.player.pk for row in after[:4]] == [fourth, third, second, leader]
    assert [row.standing.rank for row in after[:4]] == [1, 2, 3, 4]
    # The others keep their order, ranked after the finalists; nobody's points change.
    assert [row.player.pk for row in after[4:]] == [row.player.pk for row in before[4:]]
    assert all(row.standing.rank >= 5 for row in after[4:])
    points = {row.player.pk: row.standing.points for row in before}
    assert all(row.standing.points == points[row.player.pk] for row in after)
    with (
        translation.override("en"),
        pytest.raises(services.TournamentError, match="Every round has been played"),
    ):
        services.start_round(tournament=tournament)
    services.finish(tournament=tournament)


def test_a_leader_who_left_is_not_seated_at_the_final(final_tournament, staff):
    tournament = final_tournament
    tournament.rounds = 1
    tournament.save()
    register(tournament, 9)
    play_round(tournament, staff)
    leader = selectors.standings(tournament)[0].player
    services.set_present(player=leader, present=False)
    final = services.start_round(tournament=tournament)
    seated = [seat.player_id for seat in final.tables.get().seats.all()]
    assert leader.pk not in seated
    here = [r.player.pk for r in selectors.standings(tournament) if r.player.present]
    assert set(seated) == set(here[:4])


def test_without_the_option_there_is_no_final(tournament, staff):
    tournament.rounds = 1
    tournament.save()
    register(tournament, 8)
    play_round(tournament, staff)
    with (
        translation.override("en"),
        pytest.raises(services.TournamentError, match="Every round has been played"),
    ):
        services.start_round(tournament=tournament)


def test_the_final_ranks_by_hand():
    """Six players after the rounds: A 12, B 10, C 10, D 8, E 8, F 8 points; the final
    (A, B, C at a table of three) places C first, A and B level second."""
    rows = [
        Standing(player=p, rank=r, points=pts, game_points=0, opponents_points=0, games=3, byes=0)
        for p, r, pts in [("A", 1, 12), ("B", 2, 10), ("C", 2, 10), ("D", 4, 8), ("E", 4, 8),
                          ("F", 4, 8)]
    ]  # fmt: skip
    ranked = with_final(rows, {"A": 2, "B": 2, "C": 1})
    assert [(s.player, s.rank) for s in ranked] == [
        ("C", 1), ("A", 2), ("B", 2), ("D", 4), ("E", 4), ("F", 4)
    ]  # fmt: skip


def test_the_pages_name_the_final_table(final_tournament, staff):
    tournament = final_tournament
    tournament.rounds = 1
    tournament.save()
    players = register(tournament, 8)
    play_round(tournament, staff)
    desk = Client()
    desk.force_login(staff)
    assert "Start the final table" in desk.get(url("desk", pk=tournament.pk)).content.decode()
    services.start_round(tournament=tournament)
    finalists = {s.player_id for s in selectors.current_round(tournament).tables.get().seats.all()}
    out = next(p for p in players if p.pk not in finalists)
    inside = next(p for p in players if p.pk in finalists)
    page = Client().get(url("player", token=out.token)).content.decode()
    assert "The leaders of the standings play the final table" in page
    page = Client().get(url("player", token=inside.token)).content.decode()
    assert "The final table" in page
    data = Client().get(url("screen-data", code=tournament.code)).json()
    assert data["final"] is True and len(data["tables"]) == 1
