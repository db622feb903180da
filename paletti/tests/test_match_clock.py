"""The turn clock through the API: the banks every viewer is shown, the animation's time
never charged, a seat out of time reported, and only the others (or the organiser) may
skip its turn or hand it to a bot, each written in the match's log."""

import pytest
from django.urls import reverse

from paletti import engine, seats, services, timeouts, timing
from paletti.models import ClockEvent, Match, MatchAction
from paletti.tests.test_seats import client, create, detail, joined, post, stored
from paletti.throttles import EngineLimit

pytestmark = pytest.mark.django_db

# Bo and Cy on their own devices, Ada on the organiser's; with seed 42, Cy acts first.
BO_ADA_CY = [
    {"name": "Bo", "device": "own"},
    {"name": "Ada"},
    {"name": "Cy", "device": "own"},
]
QUICK_BANK = 120_000
CY, BO = 2, 0


@pytest.fixture
def now(monkeypatch):
    """The server's clock, moved by hand (ms since the epoch)."""
    at = [1_000_000_000_000.0]
    monkeypatch.setattr(timing, "now_ms", lambda: at[0])
    return at


def choose(api, match_id, version, choice, **extra):
    url = reverse("api:paletti-match-clock", kwargs={"match_id": match_id})
    return api.post(url, {"version": version, "choice": choice}, format="json", **extra)


def quick_match(organiser, players=BO_ADA_CY):
    response = organiser.post(
        reverse("api:paletti-match-list"),
        {"players": players, "seed": 42, "clock": "quick"},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["state"]["turn"] == CY
    return body


def test_hot_seat_matches_have_no_clock_unless_asked():
    organiser = client()
    body = create(organiser, [{"name": "Ada"}, {"name": "Bo"}])
    assert body["state"]["clock"] is None
    refused = choose(organiser, body["id"], 0, "skip")
    assert refused.status_code == 409
    assert refused.json()["code"] == "no_clock"


def test_matches_across_devices_get_the_relaxed_clock_by_default(now):
    body = create(client(), BO_ADA_CY)
    shown = body["state"]["clock"]
    assert shown["preset"] == "relaxed"
    assert [b["remaining_ms"] for b in shown["banks"]] == [300_000] * 3
    assert shown["running"] == CY


def test_the_test_only_clock_is_refused_unless_the_settings_allow_it(settings):
    settings.PALETTI_TINY_CLOCK = False
    response = client().post(
        reverse("api:paletti-match-list"),
        {"players": BO_ADA_CY, "clock": "tiny"},
        format="json",
    )
    assert response.status_code == 400
    assert "clock" in response.json()


def test_every_device_sees_the_banks_and_whose_time_runs(now):
    organiser = client()
    body = quick_match(organiser)
    now[0] += 10_000
    for device in (organiser, joined(body, BO), joined(body, None)):
        shown = detail(device, body["id"]).json()["clock"]
        assert shown["running"] == CY
        remaining = [b["remaining_ms"] for b in shown["banks"]]
        assert remaining == [QUICK_BANK, QUICK_BANK, QUICK_BANK - 10_000]
        assert shown["out_of_time"] is None


def test_the_time_the_physics_takes_to_animate_is_not_charged(now):
    organiser = client()
    body = quick_match(organiser)
    cy = joined(body, CY)
    match_id = body["id"]
    state = detail(cy, match_id).json()
    first = next(a for a in state["legal_actions"] if a["type"] in ("choose_colour", "touch"))
    now[0] += 2_000
    state = post(cy, match_id, state["version"], first).json()["state"]
    if first["type"] == "choose_colour":
        touch = next(a for a in state["legal_actions"] if a["type"] == "touch")
        state = post(cy, match_id, state["version"], touch).json()["state"]
    touched = state["touched"]["column"]
    now[0] += 1_000
    answer = post(cy, match_id, state["version"], {"type": "pull", "column": touched}).json()
    animation = answer["frames"][-1]["t"] * 1000
    assert animation > 100
    # Up to the end of the pull's animation, Bo's bank stands still: 3 s spent so far.
    now[0] += animation
    bank = detail(cy, match_id).json()["clock"]["banks"][CY]
    assert bank["running"] and bank["remaining_ms"] == QUICK_BANK - 3_000
    now[0] += 4_000
    bank = detail(cy, match_id).json()["clock"]["banks"][CY]
    assert bank["remaining_ms"] == QUICK_BANK - 7_000


def test_only_the_others_may_skip_a_seat_and_only_once_it_is_out_of_time(now):
    organiser = client()
    body = quick_match(organiser)
    match_id = body["id"]
    cy, bo, spectator = joined(body, CY), joined(body, BO), joined(body, None)
    early = choose(bo, match_id, 0, "skip")
    assert early.status_code == 409 and early.json()["code"] == "not_out_of_time"
    now[0] += QUICK_BANK + 1
    shown = detail(spectator, match_id).json()["clock"]
    assert shown["out_of_time"] == CY
    assert not shown["may_skip"] and not shown["may_hand_over"]
    assert not detail(cy, match_id).json()["clock"]["may_skip"]
    assert detail(bo, match_id).json()["clock"]["may_skip"]
    before = stored(match_id)
    for device, code in ((cy, "own_seat"), (spectator, "spectator")):
        refused = choose(device, match_id, 0, "skip")
        assert refused.status_code == 403 and refused.json()["code"] == code
        assert stored(match_id) == before
    assert choose(bo, match_id, 5, "skip").status_code == 409
    # A player cannot skip their own turn through the actions either.
    assert post(cy, match_id, 0, {"type": "skip"}).status_code == 400
    assert stored(match_id) == before

    answer = choose(bo, match_id, 0, "skip")
    assert answer.status_code == 200, answer.content
    state = answer.json()["state"]
    assert state["turn"] != CY and state["clock"]["out_of_time"] is None
    assert "Cy is out of time: the turn is skipped." in [e["text"] for e in answer.json()["events"]]
    logged = MatchAction.objects.get(match_id=match_id, number=1)
    assert (logged.seat, logged.action["type"], logged.by_bot) == (CY, "skip", False)
    kinds = list(ClockEvent.objects.filter(match_id=match_id).values_list("kind", "seat", "by"))
    assert kinds == [("out_of_time", CY, ""), ("skipped", CY, str(BO))]
    # Skipping ended Cy's turn: her empty bank got the increment.
    assert state["clock"]["banks"][CY]["remaining_ms"] == 15_000
    match = Match.objects.get(pk=match_id)
    assert engine.state_hash(services.replay_match(match)) == match.state_hash


def test_the_organiser_may_hand_a_seat_out_of_time_to_a_careful_bot(now):
    organiser = client()
    body = quick_match(organiser)
    match_id = body["id"]
    cy = joined(body, CY)
    now[0] += QUICK_BANK + 1
    answer = choose(organiser, match_id, 0, "bot")
    assert answer.status_code == 200, answer.content
    data = answer.json()
    seat = data["state"]["seats"][CY]
    assert (seat["kind"], seat["level"]) == ("bot", "careful")
    # The bot played Cy's turn at once, and the log says who.
    assert data["steps"] and data["steps"][0]["seat"] == CY and data["steps"][0]["by_bot"]
    assert MatchAction.objects.filter(match_id=match_id, seat=CY, by_bot=True).exists()
    events = data["state"]["clock"]["events"]
    assert events[-1]["kind"] == "handed_to_bot"
    assert events[-1]["text"] == "Cy ran out of time: a careful bot plays that seat from now on."
    assert data["state"]["clock"]["running"] != CY
    # Cy's link no longer acts for anything.
    assert detail(cy, match_id).status_code == 403


def test_a_hand_over_the_bot_cannot_play_now_changes_nothing(now):
    from paletti import timeouts
    from paletti.models import Seat
    from paletti.seats import Viewer

    body = quick_match(client())
    now[0] += QUICK_BANK + 1
    match = services.get_match(body["id"])

    def engine_refused(_match_id):
        raise RuntimeError("over this address's engine budget")

    with pytest.raises(RuntimeError):
        timeouts.hand_to_bot(
            match=match, version=0, viewer=Viewer(organiser=True), meter=engine_refused
        )
    assert Seat.objects.get(match_id=body["id"], index=CY).kind == "human"
    assert not ClockEvent.objects.filter(match_id=body["id"], kind="handed_to_bot").exists()
    assert stored(body["id"])[0] == 0


def test_a_malformed_choice_is_a_clear_400_and_an_unknown_match_a_404():
    organiser = client()
    body = quick_match(organiser)
    url = reverse("api:paletti-match-clock", kwargs={"match_id": body["id"]})
    for payload in (
        {"version": 0, "choice": "nap"},
        {"version": -1, "choice": "skip"},
        {"version": 0, "choice": "skip", "seat": 1},
        {"choice": "bot"},
        [],
    ):
        response = organiser.post(url, payload, format="json")
        assert response.status_code == 400, (payload, response.content)
    response = organiser.post(url, "{not json", content_type="application/json")
    assert response.status_code == 400
    assert client().post(url, {"version": 0, "choice": "skip"}, format="json").status_code == 403
    unknown = reverse(
        "api:paletti-match-clock", kwargs={"match_id": "00000000-0000-0000-0000-000000000000"}
    )
    assert (
        organiser.post(unknown, {"version": 0, "choice": "skip"}, format="json").status_code == 404
    )
    assert stored(body["id"])[0] == 0


FAILURES = {
    "outcome_unknown": lambda: services.OutcomeUnknown("m"),
    "match_gone": services.MatchGone,
    "outdated_match": lambda: engine.OutdatedSnapshot("stored by an earlier engine"),
    "stale_version": lambda: services.StaleVersion(3),
    "engine_busy": lambda: EngineLimit("engine_busy", 2.5),
    "spectator": lambda: seats.Refused(403, "spectator", seats.SPECTATING),
    "illegal": lambda: engine.IllegalAction("not_now", "Not now."),
}


@pytest.mark.parametrize("code", FAILURES)
def test_a_clock_choice_fails_as_an_action_does(now, monkeypatch, code):
    """The clock's choices and the actions share one answer per failure; only a move the
    rules refuse differs: 409 for a choice (the moment is wrong), 400 for an action."""
    organiser = client()
    body = quick_match(organiser)
    now[0] += QUICK_BANK + 1

    def fail(**_kwargs):
        raise FAILURES[code]()

    monkeypatch.setattr(timeouts, "skip_turn", fail)
    monkeypatch.setattr(services, "play", fail)
    chosen = choose(organiser, body["id"], 0, "skip")
    acted = post(organiser, body["id"], 0, {"type": "pass"})
    assert chosen.json() == acted.json()
    assert chosen.get("Retry-After") == acted.get("Retry-After")
    if code == "illegal":
        assert (chosen.status_code, acted.status_code) == (409, 400)
    else:
        assert chosen.status_code == acted.status_code >= 400
    assert stored(body["id"])[0] == 0
