"""The seam between the tournament and a game: the plain rules for a game without its
own, and a game's own rules, registered under its slug, deciding its options, its seats
and its result's form (here a test's own rules, as a game's module would register them)."""

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Game
from games.tournament import selectors, services, tables
from games.tournament.models import Tournament
from games.tournament.standings import places_by_score

from .conftest import GAME, register

pytestmark = pytest.mark.django_db
PLANET = "le-petit-prince-fabrique-moi-une-planete"


class PlanetTable(tables.TableRules):
    """Le Petit Prince's record: the youngest begins; each player scores their planet and
    the highest score wins. One option: the record's hidden-characters variant."""

    options = {
        "characters": tables.Option(
            "The characters are",
            {"open": "face up", "hidden": "hidden (the variant)"},
            default="open",
        )
    }
    asks_places = False
    points_label = "Planet score"
    points_max = 200

    def seat(self, players, ages, *, options, seed):
        drawn = super().seat(players, ages, options=options, seed=seed)
        youngest = min(range(len(drawn.order)), key=lambda i: ages[drawn.order[i]])
        return tables.Seating(order=drawn.order, colours=drawn.colours, first=youngest)

    def places(self, result, seats):
        if set(result.points) != set(seats):
            raise ValueError("A score is needed for every seat.")
        return places_by_score(result.points)


@pytest.fixture
def planet_rules(monkeypatch):
    rules = PlanetTable()
    monkeypatch.setitem(tables.TABLE_RULES, PLANET, rules)
    return rules


def url(name, **kwargs):
    with translation.override("en"):
        return reverse(f"tournament:{name}", kwargs=kwargs)


def test_a_game_without_rules_of_its_own_gets_the_plain_ones():
    plain = tables.rules_for(GAME)
    assert plain is tables.PLAIN and tables.rules_for("no-such-game") is tables.PLAIN
    assert plain.clean_options({}) == {} and plain.agreed({}) == []
    with pytest.raises(ValueError):
        plain.clean_options({"seal_start": "green"})
    seating = plain.seat([1, 2, 3, 4], {}, options={}, seed="7")
    assert sorted(seating.order) == [1, 2, 3, 4] and seating.first is None
    assert seating == plain.seat([1, 2, 3, 4], {}, options={}, seed="7")  # seeded
    assert plain.places(tables.Result(places={1: 1, 2: 1, 3: 3}), [1, 2, 3]) == {1: 1, 2: 1, 3: 3}
    with pytest.raises(ValueError):
        plain.places(tables.Result(places={1: 1, 2: 2}), [1, 2, 3])


def test_a_games_own_rules_set_its_options_seats_and_result(client, seed, planet_rules, staff):
    # Set-up: the game's option group is offered, its reading kept for that game only.
    client.force_login(staff)
    form = client.get(url("create")).content.decode()
    assert "hidden (the variant)" in form
    data = {
        "name": "Planets",
        "game": Game.objects.get(slug=PLANET).pk,
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
        f"rule_{PLANET}_characters": "hidden",
    }
    assert client.post(url("create"), data).status_code == 302
    tournament = Tournament.objects.get(name="Planets")
    assert tournament.rule_options == {"characters": "hidden"}
    other = {**data, "name": "Alhambra", "game": Game.objects.get(slug=GAME).pk}
    assert client.post(url("create"), other).status_code == 302
    assert Tournament.objects.get(name="Alhambra").rule_options == {}
    bad = {**data, "name": "Bad", f"rule_{PLANET}_characters": "lost"}
    assert client.post(url("create"), bad).status_code == 400

    # Seats: the youngest at each table begins.
    register(tournament, 4)
    table = services.start_round(tournament=tournament).tables.get()
    seats = list(table.seats.order_by("position").select_related("player"))
    youngest = min(seats, key=lambda s: s.player.age)
    assert table.first_position == youngest.position

    # The result: a score a seat, placed by the rules; two level at the top share the win.
    phone = client.get(url("player", token=seats[0].player.token))
    text = phone.content.decode()
    assert "Planet score" in text and "face up" not in text and "hidden (the variant)" in text
    scores = [41, 41, 30, 12]
    post = {f"points_{s.pk}": p for s, p in zip(seats, scores, strict=True)}
    assert client.post(url("player-result", token=seats[0].player.token), post).status_code == 302
    table.refresh_from_db()
    assert [s.place for s in table.seats.order_by("position")] == [1, 1, 3, 4]
    assert table.winner is None
    services.confirm_result(seat=seats[2], entry=table.entry)
    rows = {r.player.pk: r.standing for r in selectors.standings(tournament)}
    assert [rows[s.player_id].points for s in seats] == [6, 6, 2, 0]
    assert [rows[s.player_id].game_points for s in seats] == scores
