"""A tournament of a game with no table rules of its own (Alhambra, from the seed data),
from the set-up page to the standings: seated in a drawn order, with no colours and
nobody named to begin, each table's result its placing order."""

import csv
import io

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Game
from games.tournament import selectors, tables
from games.tournament.models import Tournament

from .conftest import GAME, NAMES

pytestmark = pytest.mark.django_db


def url(name, **kwargs):
    with translation.override("en"):
        return reverse(f"tournament:{name}", kwargs=kwargs)


def test_an_alhambra_afternoon_from_set_up_to_standings(client, seed, staff):
    assert tables.rules_for(GAME) is tables.PLAIN
    client.force_login(staff)
    answer = client.post(
        url("create"),
        {
            "name": "Alhambra Saturday",
            "game": Game.objects.get(slug=GAME).pk,
            "date": "2026-06-13",
            "meets_at": "15:00",
            "plays_from": "15:30",
            "ends_around": "17:00",
            "rounds": 2,
            "round_minutes": 50,
            "table_size": 4,
            "pairs_when_needed": "on",
            "bye_points": 3,
            "points_4": "6 4 2 0",
            "points_3": "6 3 0",
            "points_2": "6 0",
        },
    )
    assert answer.status_code == 302
    tournament = Tournament.objects.get(name="Alhambra Saturday")
    assert tournament.rule_options == {} and tournament.rounds == 2

    # Seven players join through the public link: tables of 4 and 3.
    join = client.get(url("join", code=tournament.code)).content.decode()
    assert "Rules agreed" not in join  # nothing to agree for this game
    for i, name in enumerate(NAMES[:7]):
        answer = client.post(url("join", code=tournament.code), {"name": name, "age": 20 + i})
        assert answer.status_code == 302
    expected = dict.fromkeys(NAMES[:7], 0)
    points = {4: (6, 4, 2, 0), 3: (6, 3, 0)}

    for number in (1, 2):
        assert client.post(url("round-start", pk=tournament.pk)).status_code == 302
        round_ = tournament.round_set.get(number=number)
        tables_ = list(round_.tables.order_by("number"))
        assert [t.seats.count() for t in tables_] == [4, 3]
        for table in tables_:
            seats = list(table.seats.order_by("position").select_related("player"))
            assert table.first_position is None and all(s.colours == [] for s in seats)
            # The last seat won, the others in seat order; two level on a table of four.
            places = [2, 3, 3, 1] if len(seats) == 4 else [2, 3, 1]
            post = {f"place_{s.pk}": p for s, p in zip(seats, places, strict=True)}
            for seat, place in zip(seats, places, strict=True):
                expected[seat.player.name] += points[len(seats)][place - 1]
            entered = client.post(url("player-result", token=seats[0].player.token), post)
            assert entered.status_code == 302
            table.refresh_from_db()
            page = client.get(url("player", token=seats[1].player.token)).content.decode()
            assert f"1. {seats[-1].player.name}" in page  # the placing order, best first
            confirm = {"entry": table.entry}
            confirmed = client.post(url("player-confirm", token=seats[1].player.token), confirm)
            assert confirmed.status_code == 302
            table.refresh_from_db()
            assert table.status == "confirmed" and table.winner == seats[-1]
        # The wall shows each table's winner as the results come in.
        screen = client.get(url("screen-data", code=tournament.code)).json()
        assert [t["winners"] for t in screen["tables"]] == [
            [t.seats.order_by("position").last().player.name] for t in tables_
        ]

    assert client.post(url("finish", pk=tournament.pk)).status_code == 302
    rows = selectors.standings(tournament)
    assert {r.standing.games for r in rows} == {2}
    assert all(r.standing.game_points == 0 for r in rows)  # the placing order only
    # Each place's points: two level in third place at a table of four both take 2.
    assert {r.player.name: r.standing.points for r in rows} == expected
    assert [r.standing.points for r in rows] == sorted(expected.values(), reverse=True)
    page = client.get(url("standings", code=tournament.code)).content.decode()
    assert "Game points" not in page  # no column of zeros for a game without them
    assert "Ties are broken by the opponents' points." in page
    csv_rows = list(
        csv.reader(io.StringIO(client.get(url("standings-csv", code=tournament.code)).text))
    )
    assert [(r[1], int(r[2])) for r in csv_rows[1:]] == [
        (r.player.name, r.standing.points) for r in rows
    ]
