"""Hostile input gets a clear 4xx, never a 500: NUL characters, huge and deep bodies."""

import json
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework.parsers import JSONParser
from rest_framework.test import APIClient

from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize(
    ("name", "kwargs", "query"),
    [
        ("api:game-detail", {"slug": "a\x00b"}, {}),
        ("api:game-rules", {"slug": "villa\x00"}, {}),
        ("api:esar-detail", {"code": "A\x00"}, {}),
        ("api:game-list", {}, {"q": "pal\x00etti"}),
        ("api:game-list", {}, {"esar": "A\x00"}),
        ("api:game-list", {}, {"language": "\x00"}),
        ("api:game-list", {}, {"ordering": "title\x00"}),
    ],
)
def test_a_nul_in_an_api_path_or_filter_is_a_json_400(api, seed, name, kwargs, query):
    response = api.get(reverse(name, kwargs=kwargs), query)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert "NUL" in response.json()["detail"]


def test_a_nul_in_a_page_filter_or_a_header_is_a_400(client, api, seed):
    assert client.get(reverse("games:game-list"), {"q": "a\x00"}).status_code == 400
    assert api.get(reverse("api:game-list"), HTTP_AUTHORIZATION="Token a\x00b").status_code == 400
    cookie = "sessionid=abcdefgh\x00ijkl"
    assert client.get(reverse("games:game-list"), HTTP_COOKIE=cookie).status_code == 400


def test_a_nul_in_staff_input_is_a_400(api, client, seed):
    admin = User.objects.create_superuser("admin", password="x")
    client.force_login(admin)
    assert client.get(reverse("admin:games_game_changelist"), {"q": "a\x00"}).status_code == 400
    game = Game.objects.get(slug="alhambra")
    change = reverse("admin:games_game_change", args=[game.pk])
    assert client.post(change, {"title": "Al\x00hambra"}).status_code == 400
    api.force_authenticate(admin)
    url = reverse("api:game-detail", kwargs={"slug": "alhambra"})
    for body in ({"publisher": "Queen\x00"}, {"esar": "A\x00"}, {"title\x00": "x"}):
        response = api.patch(url, body, format="json")
        assert response.status_code == 400, body
    form = api.patch(url, "title=Al%00hambra", content_type="application/x-www-form-urlencoded")
    assert form.status_code == 415  # the API reads JSON only
    assert Game.objects.get(slug="alhambra").title == game.title


def test_a_body_over_the_limit_is_413_before_it_is_parsed(api, settings):
    settings.API_MAX_BODY_BYTES = 1000
    body = json.dumps({"players": [{"name": "x" * 2000}]})
    with mock.patch.object(JSONParser, "parse") as parse:
        response = api.post(
            reverse("api:paletti-match-list"), body, content_type="application/json"
        )
    assert response.status_code == 413
    assert response.json()["code"] == "body_too_large"
    assert parse.call_count == 0


def test_the_default_limit_refuses_a_megabyte(api, seed):
    body = json.dumps({"players": [], "padding": "x" * 1_000_000})
    response = api.post(reverse("api:paletti-match-list"), body, content_type="application/json")
    assert response.status_code == 413


def test_json_nested_100000_deep_is_a_400(api, seed):
    deep = "[" * 100_000 + "]" * 100_000
    response = api.post(reverse("api:paletti-match-list"), deep, content_type="application/json")
    assert response.status_code == 400
    assert "nested too deeply" in response.json()["detail"]
    api.force_authenticate(User.objects.create_superuser("admin"))
    deep_object = '{"a":' * 20_000 + "1" + "}" * 20_000
    response = api.post(reverse("api:game-list"), deep_object, content_type="application/json")
    assert response.status_code == 400


@pytest.mark.parametrize(
    "page", ["22393692179774463747911648461407903644", "99999999999999999", "1e400", "-5"]
)
def test_an_absurd_page_number_is_a_404_or_the_last_page_not_a_500(api, client, seed, page):
    """Found by schemathesis: counting up to a page that large did not fit PostgreSQL's
    LIMIT (a 500). The API says the page does not exist; the list page shows the last."""
    params = {"ordering": "-age,-age,players", "esar": "A 404", "page": page}
    answer = api.get(reverse("api:game-list"), params)
    assert answer.status_code == 404, answer.content
    listed = client.get(reverse("games:game-list"), params)
    assert listed.status_code == 200
    assert "Villa Paletti" in listed.content.decode()
