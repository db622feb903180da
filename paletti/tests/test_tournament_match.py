"""A tournament's table played as a Villa Paletti match on the site (tournament_match):
set up from the table's seating, each player's own link on their own page only, the
match's end recorded as the table's confirmed result, which the standings count and the
desk can still correct; a match that cannot go on, its result entered by the desk."""

import random
import re
from datetime import date

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.urls import reverse
from django.utils import translation
from reversion.models import Version

from games.models import Game
from games.tournament import selectors, services
from games.tournament.models import ResultStatus, Table, Tournament
from paletti import engine
from paletti import services as match_services
from paletti.models import Match, TournamentMatch
from paletti.tournament_match import seat_secret, spectator_secret
from paletti.tournament_table import SLUG

pytestmark = pytest.mark.django_db

NAMES = ["Ada", "Bruno", "Chloé", "Dorota", "Emil", "Frida", "Gustav", "Hanna"]


@pytest.fixture
def tournament(seed):
    tournament = Tournament.objects.create(
        game=Game.objects.get(slug=SLUG),
        name="Villa Paletti afternoon",
        date=date(2026, 6, 13),
        seed=2026,
        rule_options={"seal_start": "blue", "abort": "polish"},
    )
    for i, name in enumerate(NAMES):
        services.register(tournament=tournament, name=name, age=8 + 3 * i)
    return tournament


@pytest.fixture
def staff(db):
    user = User.objects.create_user("desk", password="desk-pass-1", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="tournament"))
    return user


def url(name, **kwargs):
    with translation.override("en"):
        return reverse(f"tournament:{name}", kwargs=kwargs)


def on_site(tournament, number=1) -> tuple[Table, Match]:
    """Round 1 started, table `number` played on the site: the table and its match."""
    round_ = services.start_round(tournament=tournament)
    table = round_.tables.get(number=number)
    services.play_on_site(tournament=tournament, table=table)
    table.refresh_from_db()
    return table, TournamentMatch.objects.get(table=table).match


def play_to_the_end(match: Match, *, seed=7) -> engine.State:
    """Every seat played by the engine's easy bot, through the site's own play service
    (as the players' devices post), until the match ends."""
    for number in range(600):
        match = match_services.get_match(match.pk)
        state = match_services.load_state(match)
        if state.rules.phase == engine.Phase.OVER:
            return state
        action = engine.choose_action(state, "easy", random.Random(f"{seed}:{number}"))
        match_services.play(match=match, version=match.version, action=action)
    raise AssertionError("the match did not end")


def test_the_match_seats_the_table_as_the_phones_show_it_with_the_agreed_rules(tournament):
    table, match = on_site(tournament)
    seats = list(table.seats.select_related("player").order_by("position"))
    state = match_services.load_state(match)
    # Same players in the same order, the youngest (seat 1) first to throw.
    assert [s.name for s in state.rules.seats] == [s.player.name for s in seats]
    assert seats[0].player.age == min(s.player.age for s in seats)
    assert state.rules.youngest == 0
    # The same throw: each player's colours, the neutral colour and who begins.
    assert [list(s.colours) for s in state.rules.seats] == [s.colours for s in seats]
    assert (state.rules.neutral or "") == table.neutral
    assert state.rules.first_player == table.first_position - 1
    # The agreed readings, not the defaults.
    assert state.rules.options.seal_start == "blue"
    assert state.rules.options.abort == "polish"
    assert table.digital


def test_under_the_polish_colours_the_match_throws_the_youngests_and_the_others_choose(seed):
    tournament = Tournament.objects.create(
        game=Game.objects.get(slug=SLUG),
        name="Popołudnie z Villa Paletti",
        date=date(2026, 6, 13),
        seed=77,
        rule_options={"colours": "polish"},
    )
    for i, name in enumerate(NAMES[:4]):
        services.register(tournament=tournament, name=name, age=30 - i)
    table, match = on_site(tournament)
    seats = list(table.seats.order_by("position"))
    state = match_services.load_state(match)
    assert state.rules.choosing is not None
    assert state.rules.choosing.thrown == seats[0].colours[0]
    assert [s.colours for s in seats[1:]] == [[], [], []]
    assert state.rules.choosing.order[-1] == table.first_position - 1


def test_every_open_table_of_the_round_goes_on_the_site_at_once(tournament):
    round_ = services.start_round(tournament=tournament)
    started = services.play_on_site(tournament=tournament)
    assert [t.number for t in started] == [1, 2]
    assert TournamentMatch.objects.filter(table__round=round_).count() == 2
    assert services.play_on_site(tournament=tournament) == []


@pytest.mark.parametrize("size, players", [(4, 8), (3, 3), (2, 2)])
def test_the_end_of_the_match_is_the_tables_confirmed_result_and_counts_in_the_standings(
    seed, size, players
):
    tournament = Tournament.objects.create(
        game=Game.objects.get(slug=SLUG),
        name="Villa Paletti afternoon",
        date=date(2026, 6, 13),
        seed=2026 + size,
        table_size=size,
    )
    for i, name in enumerate(NAMES[:players]):
        services.register(tournament=tournament, name=name, age=8 + 3 * i)
    table, match = on_site(tournament)
    final = play_to_the_end(match)
    table.refresh_from_db()
    assert table.status == ResultStatus.CONFIRMED
    seats = list(table.seats.select_related("player").order_by("position"))
    rules = final.rules
    assert table.winner_id == seats[rules.winner].pk
    if rules.collapse is not None:
        assert table.brought_down_id == seats[rules.collapse.by].pk
    assert [s.points for s in seats] == rules.scores
    assert seats[rules.winner].place == 1
    history = Version.objects.get_for_object(table)
    # Written in the site's language, French, as the desk's history reads it.
    assert history[0].revision.comment == "Enregistré d'après la partie jouée sur le site"
    # The winner's 6 placement points (at any table size) in the standings.
    rows = {row.player.pk: row.standing for row in selectors.standings(tournament)}
    assert rows[seats[rules.winner].player_id].points == 6
    assert rows[seats[rules.winner].player_id].game_points == rules.scores[rules.winner]


def test_a_players_page_carries_their_own_seats_link_and_nobody_elses(tournament):
    table, match = on_site(tournament)
    seats = list(table.seats.select_related("player").order_by("position"))
    secrets = [seat_secret(match.pk, i) for i in range(len(seats))]
    for index, seat in enumerate(seats):
        page = Client().get(url("player", token=seat.player.token)).content.decode()
        assert f"#{secrets[index]}" in page
        assert "Play your table&#x27;s match" in page or "Play your table's match" in page
        for other, secret in enumerate(secrets):
            if other != index:
                assert secret not in page
        assert spectator_secret(match.pk) not in page
    # A player at another table sees none of them.
    elsewhere = table.round.tables.get(number=2).seats.select_related("player").first()
    page = Client().get(url("player", token=elsewhere.player.token)).content.decode()
    assert not any(secret in page for secret in secrets)
    assert "Play your table" not in page


def test_a_seats_link_opens_that_seat_in_the_match_and_no_other(tournament):
    table, match = on_site(tournament)
    seats = list(table.seats.select_related("player").order_by("position"))
    page = Client().get(url("player", token=seats[2].player.token)).content.decode()
    # The secret only after the #, which a browser never sends; no Referer either.
    found = re.search(r'href="[^"]*/paletti/join/[^"#]+/#([0-9a-f]+)" rel="noreferrer"', page)
    secret = found.group(1)
    device = Client(enforce_csrf_checks=False)
    answer = device.post(
        reverse("api:paletti-match-join", kwargs={"match_id": match.pk}),
        {"token": secret},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["viewer"]["seats"] == [2]


def test_the_big_screen_shows_the_match_and_the_spectators_link_not_a_seats(tournament):
    table, match = on_site(tournament)
    data = Client().get(url("screen-data", code=tournament.code)).json()
    card = next(t for t in data["tables"] if t["number"] == table.number)
    assert card["on_site"]["url"].endswith(f"#{spectator_secret(match.pk)}")
    assert not card["on_site"]["over"]
    body = str(data)
    assert not any(seat_secret(match.pk, i) in body for i in range(4))
    other = next(t for t in data["tables"] if t["number"] != table.number)
    assert other["on_site"] is None


def test_players_do_not_enter_a_result_by_hand_for_a_table_on_the_site(tournament):
    table, _match = on_site(tournament)
    seat = table.seats.select_related("player").first()
    others = list(table.seats.order_by("position"))
    data = {"winner": others[0].pk, "brought_down": ""}
    data.update({f"points_{s.pk}": 1 for s in others})
    answer = Client().post(url("player-result", token=seat.player.token), data)
    assert answer.status_code == 409
    table.refresh_from_db()
    assert table.status == ResultStatus.OPEN


def test_a_stuck_match_the_desk_enters_the_result_and_the_matchs_end_is_ignored(tournament, staff):
    table, match = on_site(tournament)
    seats = list(table.seats.order_by("position"))
    client = Client()
    client.force_login(staff)
    data = {"winner": seats[3].pk, "brought_down": "", "note": "The tablet ran flat"}
    data.update({f"points_{s.pk}": p for s, p in zip(seats, [1, 2, 3, 9], strict=True)})
    assert (
        client.post(url("table-correct", pk=tournament.pk, table_pk=table.pk), data).status_code
        == 302
    )
    play_to_the_end(match)
    table.refresh_from_db()
    assert table.status == ResultStatus.CONFIRMED
    assert table.winner_id == seats[3].pk
    assert [s.points for s in table.seats.order_by("position")] == [1, 2, 3, 9]


def test_the_desk_corrects_a_result_recorded_from_a_match_with_history(tournament, staff):
    table, match = on_site(tournament)
    play_to_the_end(match)
    seats = list(table.seats.order_by("position"))
    client = Client()
    client.force_login(staff)
    data = {"winner": seats[1].pk, "brought_down": "", "note": "Agreed at the table"}
    data.update({f"points_{s.pk}": 2 for s in seats})
    client.post(url("table-correct", pk=tournament.pk, table_pk=table.pk), data)
    table.refresh_from_db()
    assert table.winner_id == seats[1].pk
    comments = [v.revision.comment for v in Version.objects.get_for_object(table)]
    assert comments == ["Agreed at the table", "Enregistré d'après la partie jouée sur le site"]


def test_only_staff_put_a_table_on_the_site(tournament, staff):
    round_ = services.start_round(tournament=tournament)
    table = round_.tables.get(number=1)
    target = url("play-on-site", pk=tournament.pk)
    player = table.seats.select_related("player").first().player
    anonymous = Client().post(target, {"table": table.pk})
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert not TournamentMatch.objects.exists()
    nobody = User.objects.create_user("player", password="x-pass-1", is_staff=True)
    client = Client()
    client.force_login(nobody)
    assert client.post(target, {"table": table.pk}).status_code == 403
    client.force_login(staff)
    assert client.post(target, {"table": "nine"}).status_code == 400
    assert client.post(target, {"table": table.pk}).status_code == 302
    assert client.post(target, {"table": table.pk}).status_code == 409
    # The desk shows where the match stands, with the spectators' link, never a seat's.
    desk = client.get(url("desk", pk=tournament.pk)).content.decode()
    match = TournamentMatch.objects.get(table=table).match
    assert "The match is about to start." in desk
    assert spectator_secret(match.pk) in desk
    assert not any(seat_secret(match.pk, i) in desk for i in range(4))
    page = Client().get(url("player", token=player.token)).content.decode()
    assert "Play your table" in page


def test_a_game_the_site_does_not_play_has_no_tables_on_the_site(seed):
    tournament = Tournament.objects.create(
        game=Game.objects.get(slug="alhambra"), name="Alhambra", date=date(2026, 6, 13), seed=1
    )
    for i, name in enumerate(NAMES[:4]):
        services.register(tournament=tournament, name=name, age=20 + i)
    services.start_round(tournament=tournament)
    with pytest.raises(services.TournamentError):
        services.play_on_site(tournament=tournament)


def test_a_move_in_a_tables_match_wakes_the_big_screen(
    tournament, monkeypatch, django_capture_on_commit_callbacks
):
    """The big screen shows where each table's match stands: a move raises the
    tournament's version, published after the commit, as a result entered does; not the
    counter the phones follow."""
    from games.tournament import live

    published = []
    monkeypatch.setattr(live, "publish", lambda pk, version: published.append((pk, version)))
    table, match = on_site(tournament)
    before = Tournament.objects.get(pk=tournament.pk)
    state = match_services.load_state(match)
    action = engine.choose_action(state, "easy", random.Random(1))
    with django_capture_on_commit_callbacks(execute=True):
        match_services.play(match=match, version=match.version, action=action)
    after = Tournament.objects.get(pk=tournament.pk)
    assert after.version > before.version
    assert published[-1] == (tournament.pk, after.version)
    # The players' pages show nothing of it: their phones ask nothing.
    assert after.phones_version == before.phones_version
