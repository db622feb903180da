"""Actions are checked exactly before the engine sees them: nothing invented is stored."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from paletti.engine.rules import shape as actions
from paletti.models import Match, MatchAction
from paletti.tests.conftest import place_spots

pytestmark = pytest.mark.django_db

TWO_PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Bo", "kind": "human"}]


@pytest.fixture
def api():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def holding(api):
    """A match whose person to act holds a pulled column, with that place action."""
    created = api.post(
        reverse("api:paletti-match-list"), {"players": TWO_PEOPLE, "seed": 7}, format="json"
    ).json()
    match_id, state = created["id"], created["state"]
    for kind in ("choose_colour", "touch", "pull"):
        action = next((a for a in state["legal_actions"] if a["type"] == kind), None)
        if action is None:
            continue
        response = post(api, match_id, state["version"], action)
        assert response.status_code == 200, response.json()
        state = response.json()["state"]
    place = place_spots(state)[0][0]
    return match_id, state["version"], place


def post(api, match_id, version, action, **body):
    url = reverse("api:paletti-match-actions", kwargs={"match_id": match_id})
    return api.post(url, {"version": version, "action": action, **body}, format="json")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"junk": "x" * 1000}, "does not take the key “junk”"),
        ({"x": 10**400}, "“x” must be a number from -100 to 100"),
        ({"x": -(10**400)}, "“x” must be a number from -100 to 100"),
        ({"x": 1e308}, "“x” must be a number from -100 to 100"),
        ({"x": "3"}, "“x” must be a number"),
        ({"x": True}, "“x” must be a number"),
        ({"lane": 3}, "“lane” must be a whole number from 0 to 2"),
        ({"lane": 1.0}, "“lane” must be a whole number"),
        ({"column": 10**400}, "“column” must be a whole number from 0 to 19"),
        ({"seat": 7}, "“seat” must be a whole number from 0 to 3"),
        ({"speed": 501}, "“speed” must be a number from 0 to 500"),
        ({"steadiness": 2}, "“steadiness” must be a number from 0 to 1"),
        ({"type": "teleport"}, "Unknown action."),
    ],
)
def test_a_place_action_with_an_invented_key_or_value_is_400_and_stores_nothing(
    api, holding, change, message
):
    match_id, version, place = holding
    response = post(api, match_id, version, {**place, **change})
    assert response.status_code == 400
    assert message in response.json()["detail"]
    assert response.json()["code"] in ("bad_action", "unknown_action")
    match = Match.objects.get(pk=match_id)
    assert match.version == version
    assert MatchAction.objects.filter(match=match).count() == version
    # The same place, as listed, is still accepted.
    assert post(api, match_id, version, place).status_code == 200


def test_a_missing_key_and_an_unknown_request_field_are_400(api, holding):
    match_id, version, place = holding
    # Where in depth: "z" (mm) or the page's row ("lane"); neither is refused.
    nowhere = {k: v for k, v in place.items() if k not in ("lane", "z")}
    missing = post(api, match_id, version, nowhere).json()
    assert missing == {
        "code": "bad_action",
        "detail": "This action needs the key “z”.",
        "key": "z",
    }
    response = post(api, match_id, version, place, padding="x")
    assert response.status_code == 400
    assert "padding" in response.json()
    assert Match.objects.get(pk=match_id).version == version


def test_the_hand_s_gesture_is_part_of_a_place_action(api, holding):
    match_id, version, place = holding
    response = post(api, match_id, version, {**place, "speed": 30, "steadiness": 0.9})
    assert response.status_code == 200, response.json()
    stored = MatchAction.objects.get(match_id=match_id, number=version + 1).action
    assert (stored["speed"], stored["steadiness"]) == (30, 0.9)


def test_the_shape_error_is_translated(api, holding):
    match_id, version, place = holding
    url = reverse("api:paletti-match-actions", kwargs={"match_id": match_id})
    body = {"version": version, "action": {**place, "lane": 9}}
    response = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.json()["detail"] == "«\u00a0lane\u00a0» doit être un nombre entier de 0 à 2."


def test_every_action_the_engine_lists_fits_the_table():
    """Each key the engine's own actions carry is in the table (else a listed action would
    be refused): checked over the documented action set and the shapes legal_actions uses."""
    from paletti import engine

    for options in ({}, {"colours": "polish"}):
        state = engine.new_match(3, ["A", "B", "C"], options)
        for action in engine.legal_actions(state):
            assert actions.check(action) == action
    assert set(actions.ACTIONS) == {
        "take_colour",
        "choose_colour",
        "touch",
        "pull",
        "abort",
        "place",
        "ask_platform",
        "protest",
        "decline",
        "remove_column",
        "lay_platform",
        "pass",
        "skip",
    }


def _schema_example(variant, pick):
    """An action built from a schema variant: each property at `pick` of its range."""
    action = {}
    for key, prop in variant["properties"].items():
        if "enum" in prop:
            action[key] = prop["enum"][0]
        elif prop["type"] == "integer":
            action[key] = pick(prop["minimum"], prop["maximum"])
        else:
            action[key] = float(pick(prop["minimum"], prop["maximum"]))
    return action


def test_the_api_schema_of_an_action_is_written_from_the_engines_table(client):
    """What the schema says an action may be, the check accepts; one step outside any of its
    ranges, or a key it does not list, the check refuses (CI fuzzes the API against it)."""
    schema = client.get(reverse("api:schema"), {"format": "json"}).json()
    request = schema["components"]["schemas"]["ActionRequest"]["properties"]["action"]
    variants = {v["title"]: v for v in request["oneOf"]}
    assert set(variants) == set(actions.ACTIONS)
    for kind, variant in variants.items():
        assert variant["additionalProperties"] is False
        for pick in (min, max):
            assert actions.check(_schema_example(variant, pick))["type"] == kind
        with pytest.raises(actions.BadAction):
            actions.check({**_schema_example(variant, min), "junk": 1})
        for key, prop in variant["properties"].items():
            if "maximum" in prop:
                beyond = {**_schema_example(variant, min), key: prop["maximum"] + 1}
                with pytest.raises(actions.BadAction):
                    actions.check(beyond)
    place = variants["place"]
    assert place["anyOf"] == [{"required": ["z"]}, {"required": ["lane"]}]
    assert place["properties"]["x"]["maximum"] == actions.PLACE_X.high
