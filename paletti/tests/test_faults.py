"""Honest answers around faults: a write the database may have stored is said to be so, a
match is stored with its bots' first turns or not at all, a deleted match is a 404."""

import pytest
from django.db import OperationalError, connection
from django.urls import reverse
from rest_framework.test import APIClient

from paletti import engine, services, store
from paletti.models import Match, MatchAction

pytestmark = pytest.mark.django_db

TWO_PEOPLE = [{"name": "Ada"}, {"name": "Bo"}]
BOT_FIRST = [{"name": "Robot", "kind": "bot", "level": "easy"}, {"name": "Ada"}]
DROPPED = OperationalError("server closed the connection unexpectedly")


@pytest.fixture
def api():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


def create(api, players, seed=3):
    return api.post(
        reverse("api:paletti-match-list"), {"players": players, "seed": seed}, format="json"
    )


def act(api, match_id, version, action):
    url = reverse("api:paletti-match-actions", kwargs={"match_id": match_id})
    return api.post(url, {"version": version, "action": action}, format="json")


def test_an_action_stored_but_whose_answer_was_lost_says_it_may_have_been_played(api, monkeypatch):
    body = create(api, TWO_PEOPLE).json()
    real_store = store.store_turn

    def stored_then_dropped(*args, **kwargs):
        real_store(*args, **kwargs)
        raise DROPPED

    monkeypatch.setattr(store, "store_turn", stored_then_dropped)
    state = body["state"]
    response = act(api, body["id"], state["version"], state["legal_actions"][0])
    assert response.status_code == 503
    assert response.json()["code"] == "outcome_unknown"
    assert "may have been played" in response.json()["detail"]
    assert int(response["Retry-After"]) > 0
    monkeypatch.undo()
    # Reading the match tells the client what happened: the action was played.
    detail = api.get(reverse("api:paletti-match-detail", kwargs={"match_id": body["id"]}))
    assert detail.json()["version"] == state["version"] + 1


def a_seed_where_the_bot_acts_first() -> int:
    names = [player["name"] for player in BOT_FIRST]
    return next(s for s in range(100) if engine.new_match(s, names).rules.to_act == 0)


def test_a_match_is_stored_with_its_bots_first_turns_or_not_at_all(api):
    seed = a_seed_where_the_bot_acts_first()

    def drop_on_the_action_log(execute, sql, params, many, context):
        if "paletti_matchaction" in sql and sql.lstrip().upper().startswith(("INSERT", "WITH")):
            raise DROPPED
        return execute(sql, params, many, context)

    with connection.execute_wrapper(drop_on_the_action_log):
        response = create(api, BOT_FIRST, seed)
    assert response.status_code == 503
    assert response.json()["code"] == "outcome_unknown"
    # Nothing half made: no match waiting for ever for a bot that will not play.
    assert not Match.objects.exists()
    created = create(api, BOT_FIRST, seed).json()
    match = Match.objects.get(pk=created["id"])
    assert match.version >= 1
    assert MatchAction.objects.filter(match=match, by_bot=True).count() == match.version
    assert created["state"]["legal_actions"]  # the person's turn


def test_an_action_on_a_match_deleted_meanwhile_is_a_404(api, monkeypatch):
    body = create(api, TWO_PEOPLE).json()
    real_run = services.run_engine

    def deleted_while_playing(match, *args, **kwargs):
        turn = real_run(match, *args, **kwargs)
        Match.objects.filter(pk=match.pk).delete()  # the cleanup ran meanwhile
        return turn

    monkeypatch.setattr(services, "run_engine", deleted_while_playing)
    state = body["state"]
    response = act(api, body["id"], state["version"], state["legal_actions"][0])
    assert response.status_code == 404
    assert response.json()["code"] == "match_gone"
    assert not MatchAction.objects.exists()
