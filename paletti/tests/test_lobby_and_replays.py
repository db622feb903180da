"""The lobby shows only listed matches, being played now or finished today; a listed match
is watched by anyone, read-only; a finished match is replayed action by action, each
state rebuilt from the log equal to the one recorded when it was played; hostile
addresses get a clear 4xx or a redirect."""

import random
import uuid
from datetime import datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from paletti import engine, lobby, replays, services
from paletti.models import Match, MatchAction, MatchStatus

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")


def client():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


def create(api, *, listed=None, seed=5, players=None):
    body = {
        "players": players or [{"name": "Ada"}, {"name": "Robot", "kind": "bot", "level": "easy"}],
        "seed": seed,
    }
    if listed is not None:
        body["listed"] = listed
    response = api.post(reverse("api:paletti-match-list"), body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def finish(match_id, seed=3) -> Match:
    """Play the persons' turns as an easy bot would, until the match is over."""
    rng = random.Random(seed)
    match = services.get_match(match_id)
    while match.status == MatchStatus.PLAYING:
        state = services.load_state(match)
        services.play(
            match=match,
            version=match.version,
            action=engine.choose_action(state, "easy", rng),
        )
    return services.get_match(match_id)


def finished_match(*, listed=True, seed=5):
    api = client()
    body = create(api, listed=listed, seed=seed)
    return api, finish(body["id"])


def lobby_json(api=None):
    response = (api or client()).get(reverse("api:paletti-lobby"))
    assert response.status_code == 200
    return response.json()


def ids(cards):
    return {card["id"] for card in cards}


def replay_api(api, match_id, at=None):
    url = reverse("api:paletti-match-replay", kwargs={"match_id": match_id})
    return api.get(url, {} if at is None else {"at": at})


def move_in_time(match_id, when):
    Match.objects.filter(pk=match_id).update(updated_at=when)


# Listing --------------------------------------------------------------------------------


def test_a_match_is_unlisted_unless_its_organiser_lists_it():
    api = client()
    unlisted = create(api)
    listed = create(api, listed=True)
    assert not Match.objects.get(pk=unlisted["id"]).listed
    assert Match.objects.get(pk=listed["id"]).listed
    assert ids(lobby_json()["playing"]) == {listed["id"]}


def test_the_set_up_form_offers_the_choice_unticked():
    with translation.override("en"):
        page = client().get(reverse("paletti:setup"))
    html = page.content.decode()
    assert 'name="listed"' in html
    assert 'type="checkbox" name="listed" id="option-listed"' in html
    assert "checked" not in html.split('name="listed"')[1].split(">")[0]


def test_the_lobby_shows_playing_now_and_finished_today_only():
    api = client()
    now = timezone.now()
    playing = create(api, listed=True, seed=1)["id"]
    left = create(api, listed=True, seed=2)["id"]
    move_in_time(left, now - lobby.PLAYING_WINDOW - timedelta(minutes=1))
    _, today = finished_match(seed=5)
    _, yesterday = finished_match(seed=6)
    midnight = lobby.start_of_today(now)
    move_in_time(yesterday.pk, midnight - timedelta(minutes=5))
    _, hidden = finished_match(listed=False, seed=7)

    shown = lobby_json(api)
    assert ids(shown["playing"]) == {playing}
    assert ids(shown["finished"]) == {str(today.pk)}
    assert str(hidden.pk) not in ids(shown["playing"]) | ids(shown["finished"])


def test_today_is_the_calendar_day_in_the_site_time_zone():
    # 23:30 UTC on 1 July is 01:30 on 2 July in Paris: "today" began at 22:00 UTC.
    now = datetime(2026, 7, 1, 23, 30, tzinfo=ZoneInfo("UTC"))
    assert lobby.start_of_today(now) == datetime(2026, 7, 2, 0, 0, tzinfo=PARIS)
    _, before = finished_match(seed=5)
    _, after = finished_match(seed=6)
    move_in_time(before.pk, datetime(2026, 7, 1, 21, 59, tzinfo=ZoneInfo("UTC")))
    move_in_time(after.pk, datetime(2026, 7, 1, 22, 1, tzinfo=ZoneInfo("UTC")))
    assert [m.pk for m in lobby.finished_today(now=now)] == [after.pk]


def test_a_lobby_card_names_the_players_colours_turn_and_links():
    api = client()
    playing = create(api, listed=True)
    _, finished = finished_match(seed=6)
    shown = lobby_json(api)
    card = shown["playing"][0]
    assert [p["name"] for p in card["players"]] == ["Ada", "Robot"]
    assert [p["bot"] for p in card["players"]] == [False, True]
    assert all(p["colours"] for p in card["players"])
    to_play = engine.load(bytes(Match.objects.get(pk=playing["id"]).snapshot)).rules.to_act
    assert card["headline"] == f"{['Ada', 'Robot'][to_play]} to play"
    assert card["when"] == "last move just now"
    assert card["url"] == reverse("paletti:match", kwargs={"match_id": playing["id"]})
    done = shown["finished"][0]
    winner = engine.load(bytes(finished.snapshot)).rules.winner
    assert done["headline"] == (
        f"{['Ada', 'Robot'][winner]} won" if winner is not None else "Nobody won"
    )
    assert [p["won"] for p in done["players"]] == [i == winner for i in range(2)]
    assert done["url"] == reverse("paletti:replay", kwargs={"match_id": finished.pk})


def test_the_lobby_page_carries_the_lists_in_each_language():
    create(client(), listed=True)
    for language, heading in (
        ("en", "Being played now"),
        ("fr", "Parties en cours"),
        ("da", "Spilles nu"),
        ("pl", "Rozgrywki trwające teraz"),
    ):
        with translation.override(language):
            page = client().get(reverse("paletti:lobby"))
        assert page.status_code == 200
        assert heading in page.content.decode(), language
        assert "Ada" in page.content.decode()


# Watching -------------------------------------------------------------------------------


def test_anyone_watches_a_listed_match_and_can_do_nothing_in_it():
    body = create(client(), listed=True)
    stranger = client()
    page = stranger.get(reverse("paletti:match", kwargs={"match_id": body["id"]}))
    assert page.status_code == 200
    state = stranger.get(reverse("api:paletti-match-detail", kwargs={"match_id": body["id"]}))
    assert state.json()["viewer"]["role"] == "spectator"
    assert state.json()["legal_actions"] == []
    action = body["state"]["legal_actions"][0]
    posted = stranger.post(
        reverse("api:paletti-match-actions", kwargs={"match_id": body["id"]}),
        {"version": body["state"]["version"], "action": action},
        format="json",
    )
    assert posted.status_code == 403
    assert posted.json()["code"] == "spectator"
    assert Match.objects.get(pk=body["id"]).version == body["state"]["version"]


def test_an_unlisted_match_stays_behind_its_links():
    body = create(client())
    stranger = client()
    assert (
        stranger.get(reverse("paletti:match", kwargs={"match_id": body["id"]})).status_code == 403
    )


# Replays --------------------------------------------------------------------------------


def test_every_replayed_state_is_the_recorded_one():
    api, match = finished_match(seed=5)
    log = list(match.actions.order_by("number"))
    assert len(log) == match.version > 2
    made = replays.rebuild(match)
    assert made.last == match.version
    assert made.hashes[-1] == match.state_hash
    for row in log:
        assert made.hashes[row.number] == row.told["hash"], row.number
        assert made.matches_record(row.number) is True
    # Through the API too, at the start, in the middle and at the end.
    for at in (0, match.version // 2, match.version):
        step = replay_api(api, match.pk, at).json()
        assert step["at"] == at
        assert step["state"]["version"] == at
        assert step["state"]["legal_actions"] == []
        if at:
            assert step["hash"] == step["recorded_hash"] == log[at - 1].told["hash"]
            assert step["matches_record"] is True
            assert step["lines"], at
    assert replay_api(api, match.pk, match.version).json()["state"]["status"] == "finished"


def test_a_state_that_differs_from_the_record_is_told():
    api, match = finished_match(seed=5)
    row = match.actions.get(number=2)
    row.told = {**row.told, "hash": "0" * 64}
    row.save()
    step = replay_api(api, match.pk, 2).json()
    assert step["matches_record"] is False
    assert replay_api(api, match.pk, 3).json()["matches_record"] is True


def test_an_unlisted_replay_needs_one_of_its_links():
    organiser, match = finished_match(listed=False, seed=5)
    stranger = client()
    assert replay_api(stranger, match.pk).status_code == 403
    page = stranger.get(reverse("paletti:replay", kwargs={"match_id": match.pk}))
    assert page.status_code == 403
    assert replay_api(organiser, match.pk).status_code == 200
    assert (
        organiser.get(reverse("paletti:replay", kwargs={"match_id": match.pk})).status_code == 200
    )


def test_a_spectator_link_opens_an_unlisted_replay():
    api = client()
    body = create(api, listed=False, seed=5)
    finish(body["id"])
    secret = urlsplit(next(link["url"] for link in body["links"] if link["seat"] is None)).fragment
    holder = client()
    joined = holder.post(
        reverse("api:paletti-match-join", kwargs={"match_id": body["id"]}),
        {"token": secret},
        format="json",
    )
    assert joined.status_code == 200
    assert replay_api(holder, body["id"], 1).status_code == 200


def test_anyone_replays_a_listed_match():
    _, match = finished_match(seed=5)
    stranger = client()
    assert replay_api(stranger, match.pk, 1).status_code == 200
    with translation.override("en"):
        page = stranger.get(reverse("paletti:replay", kwargs={"match_id": match.pk}), {"at": 1})
    assert page.status_code == 200
    assert "Every action" in page.content.decode()


@pytest.mark.parametrize("at", ["-1", "abc", "1e3", "99999999999999999999", "0x1"])
def test_a_bad_action_number_is_a_400_from_the_api(at):
    api, match = finished_match(seed=5)
    response = replay_api(api, match.pk, at)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_at"


def test_the_api_refuses_an_action_past_the_last():
    api, match = finished_match(seed=5)
    assert replay_api(api, match.pk, match.version).status_code == 200
    response = replay_api(api, match.pk, match.version + 1)
    assert response.status_code == 400
    assert response.json()["last"] == match.version


def test_the_page_sends_an_out_of_range_action_to_the_nearest():
    api, match = finished_match(seed=5)
    url = reverse("paletti:replay", kwargs={"match_id": match.pk})
    low = api.get(url, {"at": "-1"})
    assert low.status_code == 302 and low["Location"].endswith("?at=0")
    high = api.get(url, {"at": "99999"})
    assert high.status_code == 302 and high["Location"].endswith(f"?at={match.version}")
    assert api.get(url, {"at": "abc"}).status_code == 400
    assert api.get(url, {"at": "1" * 40}).status_code == 400


def test_an_unknown_match_is_a_404():
    api = client()
    missing = uuid.uuid4()
    assert replay_api(api, missing).status_code == 404
    assert api.get(reverse("paletti:replay", kwargs={"match_id": missing})).status_code == 404


def test_an_unfinished_match_is_watched_not_replayed():
    api = client()
    body = create(api, listed=True)
    response = replay_api(api, body["id"])
    assert response.status_code == 409
    assert response.json()["code"] == "not_finished"
    page = api.get(reverse("paletti:replay", kwargs={"match_id": body["id"]}))
    assert page.status_code == 302
    assert page["Location"] == reverse("paletti:match", kwargs={"match_id": body["id"]})


def test_the_new_endpoints_are_in_the_schema():
    schema = client().get(reverse("api:schema"), {"format": "json"}).json()
    assert "/api/paletti/lobby/" in schema["paths"]
    assert "/api/paletti/matches/{match_id}/replay/" in schema["paths"]
    assert "listed" in schema["components"]["schemas"]["CreateMatch"]["properties"]


def test_a_replay_rebuilds_once_then_reads_the_cache():
    api, match = finished_match(seed=5)
    replay_api(api, match.pk, 1)
    MatchAction.objects.filter(match=match).update(action={"type": "pass"})
    # The log is not read again: a step back or forth reads the rebuilt states.
    assert replay_api(api, match.pk, 2).json()["matches_record"] is True


@pytest.mark.parametrize(
    "language, minutes, said",
    [
        ("pl", 1, "1 minutę temu"),
        ("pl", 3, "3 minuty temu"),
        ("pl", 5, "5 minut temu"),
        ("pl", 22, "22 minuty temu"),
        ("pl", 125, "2 godziny temu"),
        ("fr", 1, "il y a 1 minute"),
        ("da", 5, "for 5 minutter siden"),
        ("en", 60, "1 hour ago"),
    ],
)
def test_how_long_ago_reads_with_each_languages_count_forms(language, minutes, said):
    now = datetime(2026, 7, 1, 15, 0, tzinfo=ZoneInfo("UTC"))
    with translation.override(language):
        assert lobby._ago(now - timedelta(minutes=minutes, seconds=20), now) == said
