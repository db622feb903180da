"""The OpenAPI schema says what the API really does: who may call, the limits it enforces,
the parameters it reads, the errors it can answer."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game
from paletti.models import Match

pytestmark = pytest.mark.django_db

TWO_PEOPLE = [{"name": "Ada"}, {"name": "Bo"}]


@pytest.fixture
def schema(client):
    return client.get(reverse("api:schema"), {"format": "json"}).json()


@pytest.fixture
def staff_api(seed):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(User.objects.create_superuser("admin", password="x"))
    return api


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_reads_say_they_need_no_account_and_writes_say_they_do(schema):
    for path, method, operation in operations(schema):
        anonymous = {} in operation["security"]
        # Matches and score sheets are for anyone (a score sheet's post stores nothing).
        if method == "get" or path.startswith(("/api/paletti/", "/api/scores/")):
            assert anonymous, (method, path)
        else:
            assert not anonymous, (method, path)


def test_every_operation_documents_server_errors_and_throttled_ones_429(schema):
    throttled = {
        ("post", "/api/paletti/matches/"),
        ("post", "/api/paletti/matches/{match_id}/actions/"),
        ("post", "/api/paletti/matches/{match_id}/join/"),
        ("post", "/api/paletti/matches/{match_id}/links/{which}/"),
        # Not counted by a throttle, but a replay's rebuild runs under the engine's limit.
        ("get", "/api/paletti/matches/{match_id}/replay/"),
        ("post", "/api/paletti/matches/{match_id}/clock/"),
    }
    for path, method, operation in operations(schema):
        codes = set(operation["responses"])
        assert {"500", "503"} <= codes, (method, path)
        assert ("429" in codes) == ((method, path) in throttled), (method, path)


def test_the_limits_the_api_enforces_are_in_the_schema(schema):
    components = schema["components"]["schemas"]
    players = components["CreateMatch"]["properties"]["players"]
    assert (players["minItems"], players["maxItems"]) == (2, 4)
    name = components["Player"]["properties"]["name"]
    assert (name["minLength"], name["maxLength"]) == (1, 40)
    for body in ("CreateMatch", "Player", "Options", "ActionRequest", "Game", "PatchedGame"):
        assert components[body]["additionalProperties"] is False, body
    listing = schema["paths"]["/api/games/"]["get"]["parameters"]
    page_size = next(p for p in listing if p["name"] == "page_size")["schema"]
    assert (page_size["minimum"], page_size["maximum"]) == (1, 100)


def test_rules_and_suggestions_declare_only_what_they_read(schema):
    def query(path):
        return sorted(
            p["name"]
            for p in schema["paths"][path]["get"].get("parameters", [])
            if p["in"] == "query"
        )

    assert query("/api/games/{slug}/rules/") == []
    assert query("/api/games/{slug}/rules/{language}/") == []
    assert query("/api/games/suggest/") == ["q"]


def test_a_number_where_a_string_is_due_is_refused_not_turned_into_text(staff_api):
    url = reverse("api:game-detail", kwargs={"slug": "alhambra"})
    response = staff_api.patch(url, {"title": 0}, format="json")
    assert response.status_code == 400
    assert "title" in response.json()
    assert Game.objects.get(slug="alhambra").title == "Alhambra"


def test_a_key_the_record_does_not_have_is_refused(staff_api):
    url = reverse("api:game-detail", kwargs={"slug": "alhambra"})
    response = staff_api.patch(url, {"title": "Alhambra 2", "colour": "red"}, format="json")
    assert response.status_code == 400
    assert "colour" in response.json()
    assert Game.objects.get(slug="alhambra").title == "Alhambra"


@pytest.mark.parametrize(
    "body",
    [
        {"players": TWO_PEOPLE, "speed": 3},
        {"players": [{"name": "Ada", "age": 7}, {"name": "Bo"}]},
        {"players": TWO_PEOPLE, "options": {"gravity": 2}},
        {"players": [{"name": 0}, {"name": "Bo"}]},
    ],
)
def test_match_creation_refuses_what_the_schema_does_not_list(body):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    response = api.post(reverse("api:paletti-match-list"), body, format="json")
    assert response.status_code == 400
    assert Match.objects.count() == 0


@pytest.mark.parametrize("size", ["0", "101", "-120", "abc"])
def test_a_page_size_outside_the_schema_is_a_400(client, seed, size):
    response = client.get(reverse("api:game-list"), {"page_size": size})
    assert response.status_code == 400
    assert "page_size" in response.json()


def test_a_method_the_match_list_does_not_answer_is_405_even_when_throttled(settings):
    settings.PALETTI_THROTTLE_RATES = {"match-creation": "1/hour"}
    api = APIClient()
    url = reverse("api:paletti-match-list")
    assert api.post(url, {"players": TWO_PEOPLE}, format="json").status_code == 201
    assert [api.get(url).status_code for _ in range(3)] == [405, 405, 405]
    assert api.post(url, {"players": TWO_PEOPLE}, format="json").status_code == 429
