"""One client address cannot hold the engine: one engine request at a time per match, a
few per address (two tables behind one address play at once), and a share of engine CPU
time per minute per address; over any, 429 and the match unchanged."""

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from paletti.models import Match
from paletti.throttles import engine_time

pytestmark = pytest.mark.django_db

PERSON_AND_CAREFUL_BOT = [{"name": "Ada"}, {"name": "Robot", "kind": "bot", "level": "careful"}]


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def create(api, address, seed=4):
    return api.post(
        reverse("api:paletti-match-list"),
        {"players": PERSON_AND_CAREFUL_BOT, "seed": seed},
        format="json",
        REMOTE_ADDR=address,
    )


def first_action(api, body, address):
    state = body["state"]
    url = reverse("api:paletti-match-actions", kwargs={"match_id": body["id"]})
    payload = {"version": state["version"], "action": state["legal_actions"][0]}
    return api.post(url, payload, format="json", REMOTE_ADDR=address)


def test_a_second_engine_request_in_the_same_match_waits_for_the_first(settings):
    settings.PALETTI_ENGINE_LIMITS = {"concurrent": 1}
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    body = create(api, "192.0.2.1").json()
    holder = RequestFactory().post("/", REMOTE_ADDR="192.0.2.1")
    with engine_time(holder, body["id"]):  # a move in this match still being played
        busy = first_action(api, body, "192.0.2.1")
        other = create(api, "192.0.2.2")
    assert busy.status_code == 429
    assert busy.json()["code"] == "engine_busy"
    assert int(busy["Retry-After"]) >= 1
    assert Match.objects.get(pk=body["id"]).version == body["state"]["version"]  # unchanged
    assert other.status_code == 201  # another address is not held up
    assert first_action(api, body, "192.0.2.1").status_code == 200  # the slot is free again


def test_two_tables_behind_one_address_play_at_once(settings):
    """A library's tables share its address: one table's move does not hold the other's,
    up to `concurrent_per_address` at once."""
    settings.PALETTI_ENGINE_LIMITS = {"concurrent": 1, "concurrent_per_address": 2}
    first_table = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    second_table = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    third_table = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    first = create(first_table, "192.0.2.1", seed=4).json()
    second = create(second_table, "192.0.2.1", seed=5).json()
    third = create(third_table, "192.0.2.1", seed=6).json()
    holder = RequestFactory().post("/", REMOTE_ADDR="192.0.2.1")
    with engine_time(holder, first["id"]):  # the first table's move is being worked out
        assert first_action(second_table, second, "192.0.2.1").status_code == 200
        with engine_time(holder, second["id"]):  # and now the second's too
            crowded = first_action(third_table, third, "192.0.2.1")
    assert crowded.status_code == 429 and crowded.json()["code"] == "engine_busy"
    assert Match.objects.get(pk=third["id"]).version == third["state"]["version"]
    assert first_action(third_table, third, "192.0.2.1").status_code == 200


def test_an_address_over_its_engine_time_gets_429_until_the_minute_passes(settings):
    settings.PALETTI_ENGINE_LIMITS = {"seconds_per_minute": 0.001}
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    two_people = {"players": [{"name": "Ada"}, {"name": "Bo"}], "seed": 4}
    body = api.post(
        reverse("api:paletti-match-list"), two_people, format="json", REMOTE_ADDR="192.0.2.1"
    ).json()
    assert first_action(api, body, "192.0.2.1").status_code == 200  # its engine time counted
    again = api.get(reverse("api:paletti-match-detail", kwargs={"match_id": body["id"]}))
    spent = first_action(api, {"id": body["id"], "state": again.json()}, "192.0.2.1")
    assert spent.status_code == 429
    assert spent.json()["code"] == "engine_budget"
    assert 1 <= int(spent["Retry-After"]) <= 60
    assert "share of the game engine" in spent.json()["detail"]
    assert create(api, "192.0.2.1").status_code == 429  # a match whose bot would act first
    assert create(api, "192.0.2.2").status_code == 201  # another address has its own
    assert again.status_code == 200  # reading is never limited


def test_the_schema_documents_the_engine_429_on_both_operations(client):
    schema = client.get(reverse("api:schema"), {"format": "json"}).json()
    for path in ("/api/paletti/matches/", "/api/paletti/matches/{match_id}/actions/"):
        assert "429" in schema["paths"][path]["post"]["responses"]
