"""The tournament's pages: who may do what, and hostile input answered with a 4xx. The
game here has no table rules of its own: a table's result is its placing order."""

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation

from games.tournament import services
from games.tournament.models import Player, ResultStatus, Tournament

from .conftest import GAME, register

pytestmark = pytest.mark.django_db


def url(name, **kwargs):
    with translation.override("en"):
        return reverse(f"tournament:{name}", kwargs=kwargs)


def result_post(table, *, places=None):
    """The result form's fields: each seat's place, in the seats' order unless told."""
    seats = list(table.seats.order_by("position"))
    places = places or list(range(1, len(seats) + 1))
    return {f"place_{s.pk}": p for s, p in zip(seats, places, strict=True)}


@pytest.fixture
def started(tournament):
    players = register(tournament, 8)
    round_ = services.start_round(tournament=tournament)
    return tournament, players, round_


def seat_players(table):
    return [s.player for s in table.seats.order_by("position")]


def test_the_phone_shows_table_seat_and_tablemates_and_asks_the_places(client, started):
    tournament, players, round_ = started
    table = round_.tables.get(number=2)
    me = seat_players(table)[1]
    page = client.get(url("player", token=me.token))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Round 1 of 3" in text
    facts = [x.strip() for x in text.split('class="seat-facts"')[1].split("</dl>")[0].split("<dd>")]
    assert facts[1].startswith("2</dd>") and facts[2].startswith("2</dd>")  # table 2, seat 2
    assert len(facts) == 3  # table and seat: no colour for a game that has none
    assert "begins" not in text  # nobody named to begin
    for player in seat_players(table):
        assert player.name in text
    form = page.context["form"]
    assert list(form.fields) == [f"place_{s.pk}" for s in table.seats.order_by("position")]


def test_a_player_enters_a_result_and_a_tablemate_confirms_it(client, started):
    tournament, players, round_ = started
    table = round_.tables.get(number=1)
    first, second, *_ = seat_players(table)
    places = [2, 3, 1, 4]
    answer = client.post(url("player-result", token=first.token), result_post(table, places=places))
    assert answer.status_code == 302
    table.refresh_from_db()
    assert table.status == ResultStatus.PENDING
    assert [s.place for s in table.seats.order_by("position")] == places
    # The one who entered cannot confirm it.
    mine = client.post(url("player-confirm", token=first.token), {"entry": table.entry})
    assert mine.status_code == 403
    page = client.get(url("player", token=second.token)).content.decode()
    assert "entered this result. Is it right?" in page
    third = seat_players(table)[2]
    assert f"1. {third.name}" in page  # the summary lists the table in its order
    client.post(url("player-confirm", token=second.token), {"entry": table.entry})
    table.refresh_from_db()
    assert table.status == ResultStatus.CONFIRMED
    again = client.post(url("player-result", token=second.token), result_post(table))
    assert again.status_code == 409


def test_a_player_enters_only_their_own_tables_result(client, started):
    tournament, players, round_ = started
    mine, other = round_.tables.get(number=1), round_.tables.get(number=2)
    me = seat_players(mine)[0]
    answer = client.post(url("player-result", token=me.token), result_post(other))
    assert answer.status_code == 400
    other.refresh_from_db()
    mine.refresh_from_db()
    assert other.status == mine.status == ResultStatus.OPEN


@pytest.mark.parametrize(
    "place",
    ["x", "", "0", "5", "-1", "1e9", "99999999999999999999999", "1.0", None],
)
def test_hostile_result_forms_are_refused_with_400(client, started, place):
    tournament, players, round_ = started
    table = round_.tables.get(number=1)
    me = seat_players(table)[0]
    data = result_post(table)
    key = next(iter(data))
    if place is None:
        del data[key]
    else:
        data[key] = place
    answer = client.post(url("player-result", token=me.token), data)
    assert answer.status_code == 400
    table.refresh_from_db()
    assert table.status == ResultStatus.OPEN


@pytest.mark.parametrize("places", [[1, 1, 1, 1], [1, 2, 3, 3], [1, 1, 3, 3], [4, 3, 2, 1]])
def test_players_level_share_the_better_place(client, started, places):
    tournament, players, round_ = started
    table = round_.tables.get(number=1)
    me = seat_players(table)[0]
    data = result_post(table, places=places)
    assert client.post(url("player-result", token=me.token), data).status_code == 302
    assert [s.place for s in table.seats.order_by("position")] == places


@pytest.mark.parametrize("places", [[1, 1, 2, 4], [2, 2, 3, 4], [1, 2, 4, 4], [1, 3, 3, 4]])
def test_places_no_table_can_end_in_are_refused_with_the_rule(client, started, places):
    tournament, players, round_ = started
    table = round_.tables.get(number=1)
    me = seat_players(table)[0]
    data = result_post(table, places=places)
    answer = client.post(url("player-result", token=me.token), data)
    assert answer.status_code == 400
    assert "the next place is skipped (1, 1, 3)" in answer.content.decode()
    table.refresh_from_db()
    assert table.status == ResultStatus.OPEN


def test_unknown_codes_and_bad_confirmations_are_4xx(client, started):
    tournament, players, round_ = started
    me = seat_players(round_.tables.get(number=1))[0]
    assert client.get(url("player", token="nope")).status_code == 404
    assert client.get(url("player", token="x" * 500)).status_code == 404
    assert client.get(url("screen", code="nope")).status_code == 404
    assert client.get(url("screen-data", code="nope")).status_code == 404
    assert client.post(url("player-confirm", token=me.token), {"entry": "abc"}).status_code == 400
    assert client.post(url("player-confirm", token=me.token), {"entry": "7"}).status_code == 409
    assert client.post(url("player", token=me.token)).status_code == 405
    assert client.get(url("player-result", token=me.token)).status_code == 405


def test_the_desk_is_for_staff_only(client, started, staff):
    tournament, *_ = started
    desk = url("desk", pk=tournament.pk)
    assert client.get(desk).status_code == 302  # to the login page
    client.force_login(User.objects.create_user("visitor", password="visitor-pass-1"))
    assert client.get(desk).status_code == 403
    assert client.post(url("round-start", pk=tournament.pk)).status_code == 403
    table = tournament.round_set.get().tables.first()
    correct = url("table-correct", pk=tournament.pk, table_pk=table.pk)
    assert client.post(correct, result_post(table)).status_code == 403
    client.logout()
    client.force_login(staff)
    assert client.get(desk).status_code == 200


def test_staff_correct_a_result_and_read_its_history(client, started, staff):
    tournament, players, round_ = started
    table = round_.tables.get(number=1)
    first, second, *_ = seat_players(table)
    client.post(url("player-result", token=first.token), result_post(table))
    table.refresh_from_db()
    client.post(url("player-confirm", token=second.token), {"entry": table.entry})
    client.force_login(staff)
    correct = url("table-correct", pk=tournament.pk, table_pk=table.pk)
    assert client.get(correct).context["form"].initial[f"place_{table.winner_id}"] == 1
    data = {**result_post(table, places=[2, 1, 3, 4]), "note": "Wrong winner"}
    assert client.post(correct, data).status_code == 302
    table.refresh_from_db()
    assert table.winner.player == second and table.corrected_by == staff
    page = client.get(correct).content.decode()
    assert "Wrong winner" in page and "Entered by" in page and "Confirmed by" in page
    # A table of another tournament is not found under this one.
    other = Tournament.objects.create(game=tournament.game, name="Other", date=tournament.date)
    assert client.get(url("table-correct", pk=other.pk, table_pk=table.pk)).status_code == 404


def test_staff_create_a_tournament_of_a_game_without_options(client, seed, staff):
    from games.models import Game

    client.force_login(staff)
    assert client.get(url("create")).status_code == 200
    game = Game.objects.get(slug=GAME)
    data = {
        "name": "Sobota",
        "game": game.pk,
        "date": "2026-06-13",
        "meets_at": "15:00",
        "plays_from": "15:30",
        "ends_around": "17:00",
        "rounds": 3,
        "round_minutes": 25,
        "table_size": 4,
        "pairs_when_needed": "on",
        "bye_points": 3,
        "points_4": "6 4 2 0",
        "points_3": "6, 3, 0",
        "points_2": "6 0",
    }
    assert client.post(url("create"), {**data, "points_4": "6 4 5 0"}).status_code == 400
    assert client.post(url("create"), {**data, "rounds": 99}).status_code == 400
    answer = client.post(url("create"), data)
    assert answer.status_code == 302
    tournament = Tournament.objects.get(name="Sobota")
    assert tournament.rule_options == {}
    assert tournament.points_table() == {4: (6, 4, 2, 0), 3: (6, 3, 0), 2: (6, 0)}


def test_the_tables_must_fit_the_games_numbers_of_players(client, seed, staff):
    from games.models import Game

    client.force_login(staff)
    game = Game.objects.get(slug=GAME)
    data = {
        "name": "Trio",
        "game": game.pk,
        "date": "2026-06-13",
        "meets_at": "15:00",
        "plays_from": "15:30",
        "ends_around": "17:00",
        "rounds": 3,
        "round_minutes": 25,
        "table_size": 4,
        "bye_points": 3,
        "points_4": "6 4 2 0",
        "points_3": "6 3 0",
        "points_2": "6 0",
    }
    Game.objects.filter(pk=game.pk).update(min_players=3, max_players=3)
    too_large = client.post(url("create"), data)
    assert too_large.status_code == 400
    assert "Alhambra is for at most 3 players." in too_large.content.decode()
    pairs = client.post(url("create"), {**data, "table_size": 3, "pairs_when_needed": "on"})
    assert "Alhambra needs at least 3 players at a table." in pairs.content.decode()
    assert client.post(url("create"), {**data, "table_size": 3}).status_code == 302


def test_joining_through_the_public_link(client, tournament):
    join = url("join", code=tournament.code)
    assert client.get(join).status_code == 200
    answer = client.post(join, {"name": "  Zoé  ", "age": "9"})
    player = Player.objects.get(name="Zoé")
    assert answer.status_code == 302 and answer["Location"] == player.get_absolute_url()
    assert client.post(join, {"name": "zoé", "age": "9"}).status_code == 409
    for bad in ({"name": "", "age": "9"}, {"name": "X", "age": "-3"}, {"name": "Y" * 41, "age": 9}):
        assert client.post(join, bad).status_code == 400
    services.set_registration(tournament=tournament, open_=False)
    assert client.post(join, {"name": "Late", "age": "30"}).status_code == 409


def test_the_big_screen_data_and_the_standings_csv(client, started):
    tournament, players, round_ = started
    for table in round_.tables.all():
        seats = seat_players(table)
        client.post(url("player-result", token=seats[0].token), result_post(table))
        table.refresh_from_db()
        client.post(url("player-confirm", token=seats[1].token), {"entry": table.entry})
    data = client.get(url("screen-data", code=tournament.code)).json()
    assert data["round"] == 1 and len(data["tables"]) == 2
    assert all(t["status"] == "confirmed" for t in data["tables"])
    assert [row["points"] for row in data["standings"]][:2] == [6, 6]
    assert client.get(url("screen", code=tournament.code)).status_code == 200
    players[0].name = "=HYPERLINK(1)"
    players[0].save()
    answer = client.get(url("standings-csv", code=tournament.code))
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0][:3] == ["Rank", "Name", "Points"]
    assert len(rows) == 9
    assert "'=HYPERLINK(1)" in [r[1] for r in rows]  # no formula for a spreadsheet to run
    page = client.get(url("standings", code=tournament.code))
    assert page.status_code == 200 and "Opponents" in page.content.decode()


@pytest.mark.parametrize("language", ["fr", "da", "pl"])
def test_the_phone_speaks_the_players_language(client, started, language):
    tournament, players, round_ = started
    me = seat_players(round_.tables.get(number=1))[0]
    with translation.override(language):
        path = reverse("tournament:player", kwargs={"token": me.token})
    text = client.get(path).content.decode()
    expected = {
        "fr": ("Manche 1 sur 3", "Table", "Envoyer le résultat"),
        "da": ("Runde 1 af 3", "Bord", "Send resultatet"),
        "pl": ("Runda 1 z 3", "Stół", "Wyślij wynik"),
    }[language]
    for words in expected:
        assert words in text


def test_staff_print_each_players_card_with_the_qr_of_their_link(client, started, staff):
    tournament, players, round_ = started
    cards = url("cards", pk=tournament.pk)
    assert client.get(cards).status_code == 302
    client.force_login(staff)
    page = client.get(cards).content.decode()
    assert page.count('src="data:image/svg+xml') == 8
    assert url("player", token=players[0].token) in page
    one = client.get(cards, {"player": players[3].pk}).content.decode()
    assert one.count("data:image/svg+xml") == 1 and players[3].token in one
    assert players[0].token not in one
    assert client.get(cards, {"player": "1; DROP"}).status_code == 400
    assert client.get(url("list")).status_code == 200


def test_a_late_arrival_and_a_player_who_left_read_where_they_stand(client, started, staff):
    tournament, players, round_ = started
    late = services.register(tournament=tournament, name="Zoé", age=9, at_desk=True)
    page = client.get(url("player", token=late.token)).content.decode()
    assert "you will be seated from the next round" in page
    client.force_login(staff)
    leave = url("player-presence", pk=tournament.pk, player_pk=players[0].pk)
    assert client.post(leave, {"present": "maybe"}).status_code == 400
    assert client.post(leave, {"present": "0"}).status_code == 302
    players[0].refresh_from_db()
    assert not players[0].present
    # Another tournament's player is not found under this one.
    other = Tournament.objects.create(game=tournament.game, name="Other", date=tournament.date)
    elsewhere = url("player-presence", pk=other.pk, player_pk=players[1].pk)
    assert client.post(elsewhere, {"present": "0"}).status_code == 404
    start = client.post(url("round-start", pk=tournament.pk))
    assert start.status_code == 409  # round 1 still has no results
    assert "has no confirmed result yet" in start.content.decode()


def test_the_admin_sets_a_tournament_up(client, tournament):
    admin = User.objects.create_superuser("admin", password="admin-pass-1")
    client.force_login(admin)
    with translation.override("en"):
        add = reverse("admin:tournament_tournament_add")
        change = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    assert client.get(add).status_code == 200
    assert client.get(change).status_code == 200


def test_numbers_out_of_any_range_in_the_desks_addresses_are_404(client, started, staff):
    tournament, players, round_ = started
    client.force_login(staff)
    huge = 10**30
    assert client.get(url("desk", pk=huge)).status_code == 404
    assert client.get(url("table-correct", pk=tournament.pk, table_pk=huge)).status_code == 404
    presence = url("player-presence", pk=tournament.pk, player_pk=huge)
    assert client.post(presence, {"present": "1"}).status_code == 404
