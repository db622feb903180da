"""Villa Paletti at a tournament's table (paletti/tournament_table.py, registered with the
tournament app when the site starts): the youngest in seat 1, colours thrown with the
engine's own seal, the rule options under the engine's names, and a result of a winner,
who brought the villa down and the points on the top platform."""

import itertools
from datetime import date

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse
from django.utils import translation
from reversion.models import Version

from games.models import Game
from games.tournament import selectors, services, tables
from games.tournament.models import ResultStatus, Seat, Tournament
from games.tournament.standings import TableResult, placement_points
from paletti.engine import new_match
from paletti.tournament_table import OPTIONS, SLUG, VillaPalettiTable

pytestmark = pytest.mark.django_db

NAMES = [
    "Ada", "Bruno", "Chloé", "Dorota", "Emil", "Frida", "Gustav", "Hanna", "Igor", "Jeanne",
    "Kasper", "Lena", "Marek",
]  # fmt: skip
RULES = VillaPalettiTable()


@pytest.fixture
def tournament(seed):
    return Tournament.objects.create(
        game=Game.objects.get(slug=SLUG),
        name="Villa Paletti afternoon",
        date=date(2026, 6, 13),
        seed=2026,
        rule_options={"seal_start": "blue", "abort": "polish"},
    )


@pytest.fixture
def staff(db):
    user = User.objects.create_user("desk", password="desk-pass-1", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="tournament"))
    return user


def register(tournament, count):
    return [
        services.register(tournament=tournament, name=NAMES[i], age=8 + 3 * i) for i in range(count)
    ]


def url(name, **kwargs):
    with translation.override("en"):
        return reverse(f"tournament:{name}", kwargs=kwargs)


def result_for(table, *, winner=0, brought_down=None, points=None):
    """A Result naming seats by their position at the table (0-based)."""
    seats = list(table.seats.order_by("position"))
    points = points or list(range(len(seats)))
    return services.Result(
        winner=seats[winner].pk,
        brought_down=None if brought_down is None else seats[brought_down].pk,
        points={seat.pk: p for seat, p in zip(seats, points, strict=True)},
    )


def result_post(table, *, winner=0, brought_down=None, points=None):
    seats = list(table.seats.order_by("position"))
    points = points or [3] * len(seats)
    data = {"winner": seats[winner].pk, "brought_down": ""}
    if brought_down is not None:
        data["brought_down"] = seats[brought_down].pk
    data.update({f"points_{s.pk}": p for s, p in zip(seats, points, strict=True)})
    return data


def test_the_site_registers_villa_palettis_table_rules():
    assert isinstance(tables.rules_for(SLUG), VillaPalettiTable)
    assert SLUG in tables.with_options()


def test_the_options_not_named_are_the_french_rules(tournament):
    assert tournament.rule_options == {
        "seal_start": "blue",
        "colours": "french",
        "protest": "french",
        "abort": "polish",
    }


def test_every_rule_option_is_a_reading_the_engine_itself_accepts():
    for values in itertools.product(*(option.readings for option in OPTIONS.values())):
        options = dict(zip(OPTIONS, values, strict=True))
        assert RULES.clean_options(options) == options
        new_match(1, players=4, options=options)  # raises on a name it does not know
    with pytest.raises(ValueError):
        RULES.clean_options({"seal_start": "red"})
    with pytest.raises(ValueError):
        RULES.clean_options({"tremor": 1})


def test_round_one_seats_thirteen_players_youngest_first_with_thrown_colours(tournament):
    register(tournament, 13)
    round_ = services.start_round(tournament=tournament)
    tables_ = list(round_.tables.order_by("number"))
    assert [t.seats.count() for t in tables_] == [4, 3, 3, 3]
    for table in tables_:
        seats = list(table.seats.order_by("position").select_related("player"))
        youngest = min(s.player.age for s in seats)
        assert seats[0].player.age == youngest  # seat 1 throws the seal first
        colours = [c for s in seats for c in s.colours]
        assert len(colours) == len(set(colours)) == len(seats)  # one colour each, all different
        if len(seats) == 3:
            assert table.neutral and table.neutral not in colours
        # French colours: whoever got the last colour, clockwise from the youngest, begins.
        assert table.first_position == len(seats)


def test_polish_colours_give_the_youngest_a_colour_and_leave_the_others_to_choose(seed):
    tournament = Tournament.objects.create(
        game=Game.objects.get(slug=SLUG),
        name="Polish",
        date=date(2026, 6, 13),
        seed=3,
        rule_options={"colours": "polish"},
    )
    register(tournament, 4)
    table = services.start_round(tournament=tournament).tables.get()
    seats = list(table.seats.order_by("position"))
    assert len(seats[0].colours) == 1 and all(s.colours == [] for s in seats[1:])
    assert table.first_position == 4  # the last to choose begins


def test_the_same_seed_seats_the_same_first_round_with_the_same_colours(seed):
    def seating(name):
        tournament = Tournament.objects.create(
            game=Game.objects.get(slug=SLUG), name=name, date=date(2026, 6, 13), seed=9
        )
        for i in range(9):
            services.register(tournament=tournament, name=f"P{i}", age=10 + i)
        round_ = services.start_round(tournament=tournament)
        return [
            [(s.player.name, s.position, tuple(s.colours)) for s in t.seats.order_by("position")]
            for t in round_.tables.order_by("number")
        ]

    assert seating("one") == seating("two")


def places(winner, points, brought_down=None):
    seats = list(points)
    result = services.Result(winner=winner, brought_down=brought_down, points=points)
    return RULES.places(result, seats)


def test_the_winner_first_the_others_by_their_points_on_top_sharing_ties():
    ranked = places(2, {1: 5, 2: 3, 3: 5, 4: 1})
    assert ranked == {2: 1, 1: 2, 3: 2, 4: 4}
    result = TableResult(players=(1, 2, 3, 4), places=ranked)
    assert placement_points(result) == {2: 6, 1: 4, 3: 4, 4: 0}


def test_whoever_brings_the_villa_down_comes_last_whatever_stood_on_top():
    assert places(1, {1: 0, 2: 2, 3: 7, 4: 2}, brought_down=3) == {1: 1, 2: 2, 4: 2, 3: 4}
    assert places(2, {1: 9, 2: 0}) == {2: 1, 1: 2}


@pytest.mark.parametrize(
    "winner, points, brought_down",
    [
        (1, {1: 0, 2: 0}, 1),  # whoever brings the villa down cannot win
        (9, {1: 0, 2: 0}, None),  # the winner sits at the table
        (1, {1: 0, 2: 0}, 9),
        (1, {1: 0, 2: 61}, None),  # 60 points at most: all 20 columns at 3
        (1, {1: 0, 2: -1}, None),
        (1, {1: 0}, None),  # points for every seat
    ],
)
def test_a_result_the_rules_cannot_give_is_refused(winner, points, brought_down):
    with pytest.raises(ValueError):
        RULES.places(
            services.Result(winner=winner, brought_down=brought_down, points=points), [1, 2]
        )


def test_staff_correct_a_confirmed_result_and_the_history_keeps_every_step(tournament, staff):
    # The history's comments are written in the active language: pinned to English.
    with translation.override("en"):
        register(tournament, 4)
        table = services.start_round(tournament=tournament).tables.get()
        a, b, c, d = table.seats.order_by("position")
        table = services.enter_result(
            seat=a, result=result_for(table, winner=0, points=[5, 1, 1, 1])
        )
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
        assert history[-1].field_dict["winner_id"] == a.pk  # what was entered first is kept


def test_the_phone_shows_the_colour_who_begins_and_the_agreed_rules(client, tournament):
    register(tournament, 8)
    table = services.start_round(tournament=tournament).tables.get(number=2)
    me = [s.player for s in table.seats.order_by("position")][1]
    page = client.get(url("player", token=me.token))
    text = page.content.decode()
    seat = table.seats.get(player=me)
    assert page.context["colours"] == seat.colours[0]  # "white", "black"… in English
    assert "the youngest: throws the seal first" in text and "begins" in text
    assert "the blue platform (Polish text)" in text
    assert "Points on the top platform" in text and "Who brought the villa down?" in text


def test_a_result_with_a_fall_is_entered_confirmed_and_shown(client, tournament):
    register(tournament, 4)
    table = services.start_round(tournament=tournament).tables.get()
    seats = [s.player for s in table.seats.order_by("position")]
    post = result_post(table, winner=2, brought_down=0, points=[9, 3, 3, 1])
    assert client.post(url("player-result", token=seats[0].token), post).status_code == 302
    page = client.get(url("player", token=seats[1].token)).content.decode()
    assert "entered this result. Is it right?" in page
    table.refresh_from_db()
    client.post(url("player-confirm", token=seats[1].token), {"entry": table.entry})
    table.refresh_from_db()
    assert table.status == ResultStatus.CONFIRMED
    assert [s.place for s in table.seats.order_by("position")] == [4, 2, 1, 3]
    screen = client.get(url("screen-data", code=tournament.code)).json()["tables"][0]
    assert screen["winners"] == [seats[2].name] and screen["brought_down"] == seats[0].name
    wall = client.get(url("screen", code=tournament.code)).content.decode()
    assert "%(name)s brought the villa down" in wall and "Game points" in wall
    standings = client.get(url("standings", code=tournament.code)).content.decode()
    assert "Ties are broken by the game points, then by the opponents" in standings


@pytest.mark.parametrize(
    "change",
    [
        {"winner": "x"},
        {"winner": ""},
        {"winner": "99999999999999999999999"},
        {"brought_down": "-1"},
        {"points": -1},
        {"points": 61},
        {"points": "lots"},
        {"points": "1e9"},
        {"same": True},
    ],
)
def test_hostile_result_forms_are_refused_with_400(client, tournament, change):
    register(tournament, 8)
    table = services.start_round(tournament=tournament).tables.get(number=1)
    me = table.seats.order_by("position").first().player
    data = result_post(table)
    if "points" in change:
        key = next(k for k in data if k.startswith("points_"))
        data[key] = change["points"]
    elif "same" in change:
        data["brought_down"] = data["winner"]
    else:
        data.update(change)
    answer = client.post(url("player-result", token=me.token), data)
    assert answer.status_code == 400
    if "same" in change:
        assert "Whoever brings the villa down cannot win." in answer.content.decode()
    table.refresh_from_db()
    assert table.status == ResultStatus.OPEN
    assert not Seat.objects.filter(table=table, place__isnull=False).exists()


def test_staff_create_a_tournament_with_its_rules_and_points(client, seed, staff):
    client.force_login(staff)
    form = client.get(url("create"))
    assert form.status_code == 200
    assert "the blue platform (Polish text)" in form.content.decode()
    data = {
        "name": "Sobota",
        "game": Game.objects.get(slug=SLUG).pk,
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
        f"rule_{SLUG}_seal_start": "blue",
        f"rule_{SLUG}_colours": "polish",
        f"rule_{SLUG}_protest": "polish",
        f"rule_{SLUG}_abort": "french",
    }
    assert client.post(url("create"), {**data, "points_4": "6 4 5 0"}).status_code == 400
    assert client.post(url("create"), {**data, f"rule_{SLUG}_seal_start": "red"}).status_code == 400
    assert client.post(url("create"), {**data, "rounds": 99}).status_code == 400
    answer = client.post(url("create"), data)
    assert answer.status_code == 302
    tournament = Tournament.objects.get(name="Sobota")
    assert tournament.rule_options == {
        "seal_start": "blue",
        "colours": "polish",
        "protest": "polish",
        "abort": "french",
    }
    assert tournament.points_table() == {4: (6, 4, 2, 0), 3: (6, 3, 0), 2: (6, 0)}


def test_the_join_page_says_why_the_age_is_asked(client, tournament):
    text = client.get(url("join", code=tournament.code)).content.decode()
    assert "The youngest at each table begins (the rules say so)." in text
    assert "the blue platform (Polish text)" in text
