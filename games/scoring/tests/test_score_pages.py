"""The score sheets' pages and endpoints: what a family at the table sees and gets."""

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.scoring.views import ALHAMBRA, PETIT_PRINCE, SLUGS

pytestmark = pytest.mark.django_db


def sheet_url(slug, language="en"):
    with translation.override(language):
        return reverse("scoring:game-score", kwargs={"slug": slug})


def planet_query(index, characters, **counts):
    query = {f"players.{index}.characters": characters}
    query.update({f"players.{index}.{name}": n for name, n in counts.items()})
    return query


def test_the_game_page_and_its_rules_link_to_the_score_sheet(client, seed):
    with translation.override("fr"):
        detail = client.get(reverse("games:game-detail", kwargs={"slug": PETIT_PRINCE}))
        rules = client.get(reverse("games:game-rules", kwargs={"slug": ALHAMBRA, "language": "fr"}))
        paletti = client.get(reverse("games:game-detail", kwargs={"slug": "villa-paletti"}))
    assert f'href="{sheet_url(PETIT_PRINCE, "fr")}"' in detail.content.decode()
    assert f'href="{sheet_url(ALHAMBRA, "fr")}"' in rules.content.decode()
    assert "/score/" not in paletti.content.decode()


def test_every_game_with_a_sheet_is_linked_from_the_catalogue_and_no_other(settings):
    assert set(settings.SCORE_SHEETS) == set(SLUGS)


def test_a_game_without_a_sheet_has_no_score_page(client, seed):
    assert client.get(sheet_url("villa-paletti")).status_code == 404
    assert client.get(sheet_url("no-such-game")).status_code == 404


def test_the_petit_prince_sheet_counts_without_script(client, seed):
    query = {"players": "2"}
    query.update(
        planet_query(
            0,
            ["king", "gardener", "hunter", "tippler"],
            roses=1,
            visible_baobabs=2,
            animal_species=2,
            snakes=1,
            white_sheep=1,
            face_down_tiles=3,
            volcanoes=4,
        )
    )
    query.update(planet_query(1, ["tippler"] * 4, face_down_tiles=6, volcanoes=1))
    query["players.0.name"] = "Ada"
    query["players.1.name"] = "<b>Ben</b>"
    response = client.get(sheet_url(PETIT_PRINCE), query)
    text = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'data-result="players.0.total">39<', text)
    assert re.search(r'data-result="players.1.total">72<', text)
    assert "&lt;b&gt;Ben&lt;/b&gt; wins with 72 points." in text
    assert "<b>Ben</b>" not in text


def test_the_sheet_refuses_an_impossible_planet_with_a_clear_message(client, seed):
    query = {"players": "2", **planet_query(0, ["king"] * 4, visible_baobabs=3)}
    query.update(planet_query(1, ["king"] * 4))
    response = client.get(sheet_url(PETIT_PRINCE), query)
    text = response.content.decode()
    assert response.status_code == 400
    assert "A planet never shows more than 2 baobabs" in text
    assert 'aria-describedby="id_players.0.visible_baobabs_error"' in text
    assert 'id="id_players.0.visible_baobabs_error"' in text


@pytest.mark.parametrize("players", ["1", "9", "many", "2" * 50])
def test_an_odd_player_count_gives_the_smallest_sheet(client, seed, players):
    response = client.get(sheet_url(PETIT_PRINCE), {"players": players})
    assert response.status_code == 200
    assert "players.1.name" in response.content.decode()
    assert "players.2.name" not in response.content.decode()


def post(client, name, body):
    return client.post(
        reverse(name),
        data=json.dumps(body),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="pl",
    )


def test_the_petit_prince_endpoint_counts_in_the_reader_language(client):
    body = {
        "players": [
            {"name": "Ada", "characters": ["king", "king", "king", "king"], "roses": 2},
            {"name": "Ben", "characters": ["little_prince"] * 4, "boxes": 3, "volcanoes": 1},
        ]
    }
    answer = post(client, "api:score-petit-prince", body)
    assert answer.status_code == 200
    data = answer.json()
    assert [p["total"] for p in data["players"]] == [28, 12 - 1]
    assert data["players"][0]["characters"][0] == {
        "character": "king",
        "label": "Król",
        "points": 7,
    }
    assert data["players"][0]["winner"] is True
    assert "Ada" in data["verdict"]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        (
            {"players": [{"characters": ["king"] * 5}, {"characters": ["king"] * 4}]},
            "players.0.characters",
        ),
        (
            {"players": [{"characters": ["king"] * 4, "roses": -1}, {"characters": ["king"] * 4}]},
            "players.0.roses",
        ),
        (
            {"players": [{"characters": ["king"] * 4}, {"characters": ["nobody"] * 4}]},
            "players.1.characters",
        ),
        (
            {
                "players": [
                    {"characters": ["king"] * 4},
                    {"characters": ["king"] * 4, "lamps": 10**400},
                ]
            },
            "players.1.lamps",
        ),
    ],
)
def test_the_petit_prince_endpoint_refuses_by_path(client, body, path):
    answer = post(client, "api:score-petit-prince", body)
    assert answer.status_code == 400
    assert path in answer.json()["errors"]


@pytest.mark.parametrize(
    "body",
    [[], "x", {"players": "x"}, {"players": [1, 2]}, {"players": [{}] * 6}, {"players": [{}]}],
)
def test_the_petit_prince_endpoint_refuses_a_malformed_body(client, body):
    answer = post(client, "api:score-petit-prince", body)
    assert answer.status_code == 400
    assert answer.json()["detail"]


def test_the_alhambra_endpoint_counts_dirk_and_running_totals(client):
    body = {
        "players": [{"name": "Ada"}, {"name": "Ben"}],
        "scorings": [
            {
                "players": [{"tower": 1, "wall": 2}, {"pavilion": 1}],
                "dirk": {"tower": 6, "garden": 6},
            },
            {
                "players": [{"tower": 2, "wall": 4}, {"pavilion": 2}],
                "dirk": {"tower": 6, "garden": 6},
            },
        ],
    }
    answer = post(client, "api:score-alhambra", body)
    assert answer.status_code == 200, answer.json()
    data = answer.json()
    first, second = data["scorings"]
    assert [p["total"] for p in first["players"]] == [2, 1]
    assert first["dirk"]["total"] == 6 + 5
    # Second scoring: Dirk first in towers (13), Ada second (6); Ben alone with pavilions (8).
    assert [p["running_total"] for p in second["players"]] == [2 + 6 + 4, 1 + 8]
    assert data["dirk_total"] == 11 + 13 + 12
    assert data["totals"] == [12, 9]


@pytest.mark.parametrize(
    "endpoint, body",
    [
        (
            "api:score-petit-prince",
            {
                "players": [
                    {"name": None, "characters": ["king"] * 4},
                    {"name": "Ben", "characters": ["king"] * 4},
                ]
            },
        ),
        ("api:score-alhambra", {"players": [{"name": None}, {"name": "Ben"}]}),
    ],
)
def test_an_empty_name_as_the_page_sends_it_is_no_error(client, endpoint, body):
    # The page's script sends a field left empty as null.
    answer = post(client, endpoint, body)
    assert answer.status_code == 200, answer.json()


def test_the_alhambra_endpoint_refuses_scorings_out_of_order(client):
    body = {
        "players": [{}, {}, {}],
        "scorings": [None, {"players": [{"tower": 1}]}],
    }
    answer = post(client, "api:score-alhambra", body)
    assert answer.status_code == 400
    assert "scorings.1" in answer.json()["errors"]


@pytest.mark.parametrize(
    "endpoint, body, path",
    [
        ("api:score-petit-prince", {"players": [], "colour": "red"}, "colour"),
        (
            "api:score-petit-prince",
            {"players": [{"characters": ["king"] * 4, "rose": 1}, {"characters": ["king"] * 4}]},
            "players.0.rose",
        ),
        ("api:score-alhambra", {"players": [{}, {"nom": "Ada"}]}, "players.1.nom"),
        (
            "api:score-alhambra",
            {"players": [{}, {}], "scorings": [{"players": [{"towers": 1}, {}]}]},
            "scorings.0.players.0.towers",
        ),
    ],
)
def test_a_key_the_schema_does_not_list_is_refused_by_name(client, endpoint, body, path):
    answer = post(client, endpoint, body)
    assert answer.status_code == 400
    assert path in answer.json()["errors"], answer.json()


def test_the_schema_says_the_score_bodies_take_no_other_keys(client):
    components = client.get(reverse("api:schema"), {"format": "json"}).json()["components"]
    for name in ("PetitPrinceRequest", "Planet", "AlhambraRequest", "Holdings", "Buildings"):
        assert components["schemas"][name].get("additionalProperties") is False, name


def test_the_alhambra_sheet_counts_without_script(client, seed):
    query = {
        "players": "3",
        "players.0.name": "Ada",
        "scorings.0.players.0.tower": "2",
        "scorings.0.players.0.wall": "3",
        "scorings.0.players.1.tower": "1",
    }
    response = client.get(sheet_url(ALHAMBRA), query)
    text = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'data-result="scorings.0.players.0.running_total">9<', text)
    assert "After the first scoring, Ada leads with 9 points." in text


def test_the_alhambra_sheet_refuses_more_buildings_than_the_game_has(client, seed):
    query = {
        "players": "3",
        "scorings.0.players.0.pavilion": "5",
        "scorings.0.players.1.pavilion": "3",
    }
    response = client.get(sheet_url(ALHAMBRA), query)
    assert response.status_code == 400
    assert "The game has 7 tiles of this type" in response.content.decode()


def test_the_schema_documents_the_score_endpoints(client):
    schema = client.get(reverse("api:schema"), {"format": "json"}).json()
    assert "/api/scores/alhambra/" in schema["paths"]
    assert f"/api/scores/{PETIT_PRINCE}/" in schema["paths"]
