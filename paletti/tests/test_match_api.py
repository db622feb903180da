"""The match API: creation, state, each kind of action and each refusal."""

import json
import re
import threading

import pytest
from django.db import close_old_connections
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from paletti import engine, services
from paletti.models import Match, MatchAction, MatchStatus
from paletti.tests.conftest import in_area, place_spots
from paletti.tests.setups import rows_setup

pytestmark = pytest.mark.django_db

HUMAN_AND_BOT = [
    {"name": "Ada", "kind": "human"},
    {"name": "Robot", "kind": "bot", "level": "easy"},
]
TWO_PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Bo", "kind": "human"}]


@pytest.fixture
def api():
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


def create(api, players, seed=42, **options):
    body = {"players": players, "seed": seed}
    if options:
        body["options"] = options
    response = api.post(reverse("api:paletti-match-list"), body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def post_action(api, match_id, version, action, **extra):
    url = reverse("api:paletti-match-actions", kwargs={"match_id": match_id})
    return api.post(url, {"version": version, "action": action}, format="json", **extra)


def first(state, kind):
    return next(a for a in state["legal_actions"] if a["type"] == kind)


def test_creation_answers_the_promised_shape(api):
    body = create(api, HUMAN_AND_BOT)
    state = body["state"]
    assert body["id"] == state["id"]
    for key in (
        "version",
        "status",
        "turn",
        "legal_actions",
        "scores",
        "seal",
        "winner",
        "platforms",
        "columns",
    ):
        assert key in state
    assert state["status"] == "playing"
    assert set(state["seal"]) >= {"holder", "previous"}
    assert len(state["columns"]) == 20 and len(state["platforms"]) == 5
    # A person is to act: whatever bots came first has been played already.
    assert state["seats"][state["turn"]]["kind"] == "human"
    assert state["legal_actions"]
    assert Match.objects.get(pk=body["id"]).version == state["version"]


def test_match_ids_are_not_guessable(api):
    first_id = create(api, TWO_PEOPLE)["id"]
    second_id = create(api, TWO_PEOPLE)["id"]
    assert len(first_id) == 36 and first_id != second_id


@pytest.mark.parametrize(
    "body",
    [
        {"players": [{"name": "Solo"}]},
        {"players": [{"name": f"P{i}"} for i in range(5)]},
        {"players": [{"name": "A", "kind": "bot"}, {"name": "B", "kind": "bot"}]},
        {"players": [{"name": "A", "kind": "alien"}, {"name": "B"}]},
        {"players": [{"name": ""}, {"name": "B"}]},
        {"players": TWO_PEOPLE, "options": {"seal_start": "purple"}},
        {"players": TWO_PEOPLE, "options": {"tremor": 99}},
        {"players": TWO_PEOPLE, "options": {"tremor": "nan"}},
        {"players": TWO_PEOPLE, "options": {"tremor": "NaN"}},
        {"players": TWO_PEOPLE, "options": {"tremor": "inf"}},
        {"players": TWO_PEOPLE, "options": {"tremor": "-inf"}},
        {"players": TWO_PEOPLE, "seed": -1},
        {"players": "Ada"},
    ],
)
def test_bad_creation_is_a_400_with_reasons(api, body):
    response = api.post(reverse("api:paletti-match-list"), body, format="json")
    assert response.status_code == 400
    assert response.json()
    assert Match.objects.count() == 0


def test_state_can_be_read_back(api):
    body = create(api, TWO_PEOPLE)
    response = api.get(reverse("api:paletti-match-detail", kwargs={"match_id": body["id"]}))
    assert response.status_code == 200
    assert response.json()["version"] == body["state"]["version"]
    assert response.json()["columns"] == body["state"]["columns"]


def test_unknown_match_is_404(api):
    missing = "00000000-0000-4000-8000-000000000000"
    assert (
        api.get(reverse("api:paletti-match-detail", kwargs={"match_id": missing})).status_code
        == 404
    )
    assert post_action(api, missing, 0, {"type": "pass"}).status_code == 404


def test_malformed_json_is_400_and_changes_nothing(api):
    body = create(api, TWO_PEOPLE)
    url = reverse("api:paletti-match-actions", kwargs={"match_id": body["id"]})
    response = api.post(url, data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert post_action(api, body["id"], "x", {"type": "pass"}).status_code == 400
    assert api.post(url, {"version": body["state"]["version"]}, format="json").status_code == 400
    assert Match.objects.get(pk=body["id"]).version == body["state"]["version"]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"version": -1, "action": {"type": "pass"}}, "version", "greater than or equal to 0"),
        ({"version": True, "action": {"type": "pass"}}, "version", "valid integer"),
        ({"action": {"type": "pass"}}, "version", "required"),
        ({"version": 0, "action": ["pass"]}, "action", "dictionary"),
        ({"version": 0}, "action", "required"),
        (["version", 0], "non_field_errors", "Expected a dictionary"),
    ],
)
def test_a_malformed_action_request_names_the_field_and_changes_nothing(api, body, field, message):
    created = create(api, TWO_PEOPLE)
    url = reverse("api:paletti-match-actions", kwargs={"match_id": created["id"]})
    response = api.post(url, body, format="json")
    assert response.status_code == 400
    assert message in response.json()[field][0]
    assert Match.objects.get(pk=created["id"]).version == created["state"]["version"]


def test_a_malformed_action_request_is_explained_in_the_reader_language(api):
    created = create(api, TWO_PEOPLE)
    url = reverse("api:paletti-match-actions", kwargs={"match_id": created["id"]})
    response = api.post(url, {"action": {}}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    assert response.json()["version"] == ["Ce champ est obligatoire."]


def test_a_whole_turn_touch_pull_place_then_the_bot_answers(api):
    body = create(api, HUMAN_AND_BOT, seed=3)
    state = body["state"]
    match_id = body["id"]
    if state["phase"] == "choose_colour":
        state = post_action(api, match_id, state["version"], first(state, "choose_colour")).json()[
            "state"
        ]
    touch = first(state, "touch")
    touched = post_action(api, match_id, state["version"], touch).json()
    assert touched["state"]["touched"]["column"] == touch["column"]
    assert touched["events"][0]["code"] == "touched"
    assert " g." in touched["events"][0]["text"]
    state = touched["state"]
    pulled = post_action(api, match_id, state["version"], first(state, "pull")).json()
    assert pulled["state"]["phase"] == "holding"
    assert pulled["frames"]
    state = pulled["state"]
    placements = [spot for spot, _ in place_spots(state)]
    placed = post_action(api, match_id, state["version"], placements[len(placements) // 2]).json()
    codes = [event["code"] for event in placed["events"]]
    assert "placed" in codes
    # The bot played its whole turn in the same response, with its own frames after ours.
    bot_moves = MatchAction.objects.filter(match_id=match_id, by_bot=True)
    assert bot_moves.exists()
    times = [frame["t"] for frame in placed["frames"]]
    assert times == sorted(times)
    assert placed["state"]["seats"][placed["state"]["turn"]]["kind"] == "human"
    assert placed["state"]["version"] == MatchAction.objects.filter(match_id=match_id).count()


def test_abort_locks_the_column_and_passes_the_turn(api):
    body = create(api, TWO_PEOPLE, seed=5)
    state, match_id = body["state"], body["id"]
    if state["phase"] == "choose_colour":
        state = post_action(api, match_id, state["version"], first(state, "choose_colour")).json()[
            "state"
        ]
    player = state["turn"]
    touch = first(state, "touch")
    state = post_action(api, match_id, state["version"], touch).json()["state"]
    aborted = post_action(api, match_id, state["version"], first(state, "abort")).json()
    column = aborted["state"]["columns"][touch["column"]]
    assert column["locked"] is True
    assert aborted["state"]["turn"] != player
    assert "aborted" in [e["code"] for e in aborted["events"]]


def test_illegal_action_is_400_with_a_translated_reason_and_no_change(api):
    body = create(api, TWO_PEOPLE, seed=5)
    state, match_id = body["state"], body["id"]
    before = Match.objects.get(pk=match_id)
    refused = post_action(
        api, match_id, state["version"], {"type": "place", "column": 0, "x": 0, "lane": 0}
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "wrong_phase"
    french = post_action(
        api, match_id, state["version"], {"type": "fly"}, HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert french.status_code == 400
    assert french.json()["detail"] == "Action inconnue."
    after = Match.objects.get(pk=match_id)
    assert (after.version, after.state_hash) == (before.version, before.state_hash)


def test_stale_version_is_409(api):
    body = create(api, TWO_PEOPLE, seed=5)
    state, match_id = body["state"], body["id"]
    action = state["legal_actions"][0]
    assert post_action(api, match_id, state["version"], action).status_code == 200
    stale = post_action(api, match_id, state["version"], action)
    assert stale.status_code == 409
    assert stale.json()["version"] == state["version"] + 1


def test_bots_turn_cannot_be_posted_by_a_client(api):
    outcome = services.create_match(
        seats=[services.SeatSpec("Ada"), services.SeatSpec("Robot", "bot", "easy")], seed=1
    )
    match = outcome.match
    state = services.load_state(match)
    bot_seat = 1
    action = {"type": "pass", "seat": bot_seat}
    response = post_action(
        api, match.id, match.version, action, HTTP_X_SEAT_TOKEN=outcome.secrets.organiser
    )
    assert response.status_code == 400
    assert state.rules.to_act == 0


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_posts_apply_exactly_one(api):
    body = create(api, TWO_PEOPLE, seed=5)
    state, match_id = body["state"], body["id"]
    action = (
        first(state, "touch")
        if state["phase"] != "choose_colour"
        else first(state, "choose_colour")
    )
    barrier = threading.Barrier(2)
    statuses = []

    def post():
        # Two devices holding the organiser's key, which acts for both persons here.
        client = APIClient(HTTP_X_SEAT_TOKEN=body["organiser_token"])
        barrier.wait()
        statuses.append(post_action(client, match_id, state["version"], action).status_code)
        close_old_connections()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409]
    assert MatchAction.objects.filter(match_id=match_id).count() == state["version"] + 1


def test_every_listed_action_is_accepted_over_whole_bot_driven_matches(api):
    """Replays whole matches through the API, posting what bots choose for every seat,
    and checking at each step that any listed action would have been accepted."""
    body = create(api, [{"name": n, "kind": "human"} for n in ("A", "B", "C")], seed=11)
    match_id, state = body["id"], body["state"]
    import random

    rng = random.Random(11)
    checked = 0
    while state["status"] == "playing":
        match = Match.objects.get(pk=match_id)
        engine_state = services.load_state(match)
        listed = state["legal_actions"]
        assert listed, state["phase"]
        # Any listed action applies in the engine as is (a placement at any point of its
        # area); check a sample, post the bot's.
        postable = [a for a in listed if a["type"] != "place"]
        postable += [spot for spot, _ in place_spots(state)]
        for action in rng.sample(postable, min(3, len(postable))):
            engine.apply_action(engine_state, action)
            checked += 1
        choice = engine.choose_action(engine_state, "easy", rng)
        # A bot adds its hand's gesture (speed, steadiness) to a listed action.
        chosen = {k: v for k, v in choice.items() if k not in ("speed", "steadiness")}
        if choice["type"] == "place":
            area = first(state, "place")["area"]
            assert in_area(area, choice["x"], choice["z"]), choice
        else:
            assert chosen in listed
        response = post_action(api, match_id, state["version"], choice)
        assert response.status_code == 200, response.json()
        state = response.json()["state"]
    assert state["status"] == "finished"
    assert state["legal_actions"] == []
    assert Match.objects.get(pk=match_id).status == MatchStatus.FINISHED
    assert checked > 20


def test_a_reloaded_match_continues_identically(api):
    body = create(api, HUMAN_AND_BOT, seed=9)
    match = Match.objects.get(pk=body["id"])
    # What the database holds replays from the log to the very same bits.
    assert engine.state_hash(services.replay_match(match)) == match.state_hash
    state = body["state"]
    action = state["legal_actions"][0]
    via_api = post_action(api, match.id, state["version"], action).json()
    match.refresh_from_db()
    replayed = services.replay_match(match)
    assert engine.state_hash(replayed) == match.state_hash
    assert json.dumps(engine.state_to_json(replayed)["columns"]) == json.dumps(
        via_api["state"]["columns"]
    )


def _reach_a_claim(api):
    """Three builds by two people (seed 42), after which Ada may ask for a platform.

    The three columns stand across the depth too (lanes 0, 1, 2): on one row, green would
    tip over."""
    body = create(api, TWO_PEOPLE, seed=42)
    match_id, state = body["id"], body["state"]
    for colour, column, x, lane in [("pink", 19, -40, 0), ("black", 9, 0, 1), ("white", 4, 45, 2)]:
        for action in (
            {"type": "choose_colour", "colour": colour},
            {"type": "touch", "column": column},
            {"type": "pull", "column": column},
        ):
            state = post_action(api, match_id, state["version"], action).json()["state"]
        places = [spot for spot, row in place_spots(state) if row == lane]
        place = min(places, key=lambda a: abs(a["x"] - x))
        state = post_action(api, match_id, state["version"], place).json()["state"]
    return match_id, state


def kinds(state):
    return {action["type"] for action in state["legal_actions"]}


def test_claim_declined_then_the_platform_is_laid(api):
    match_id, state = _reach_a_claim(api)
    assert "ask_platform" in kinds(state)
    claimant = state["turn"]
    state = post_action(api, match_id, state["version"], {"type": "ask_platform"}).json()["state"]
    assert state["turn"] != claimant and kinds(state) == {"protest", "decline"}
    answer = post_action(api, match_id, state["version"], {"type": "decline"}).json()
    state = answer["state"]
    assert "claim_unchallenged" in [e["code"] for e in answer["events"]]
    assert state["turn"] == claimant and "lay_platform" in kinds(state)
    lays = [a for a in state["legal_actions"] if a["type"] == "lay_platform"]
    # Listed in 2-D: the one over blue's middle (z 0 as well).
    middle = min(lays, key=lambda a: (abs(a["x"]), abs(a["z"])))
    laid = post_action(api, match_id, state["version"], middle).json()
    assert "platform_laid" in [e["code"] for e in laid["events"]]
    assert laid["state"]["platforms"][1]["laid"] is True


def test_failed_protest_lets_the_claimant_remove_a_column(api):
    match_id, state = _reach_a_claim(api)
    for action in ({"type": "ask_platform"}, {"type": "protest"}):
        state = post_action(api, match_id, state["version"], action).json()["state"]
    touch = first(state, "touch")
    state = post_action(api, match_id, state["version"], touch).json()["state"]
    abort = {"type": "abort", "column": touch["column"]}
    state = post_action(api, match_id, state["version"], abort).json()["state"]
    # The claimant may remove one of the protester's columns ("peut"), or not.
    assert kinds(state) == {"remove_column", "pass"}
    removal = first(state, "remove_column")
    removed = post_action(api, match_id, state["version"], removal).json()
    assert removed["state"]["columns"][removal["column"]]["removed"] is True
    refused = post_action(api, match_id, removed["state"]["version"], removal)
    assert refused.status_code == 400


def test_every_refusal_the_engine_can_give_is_translated():
    import ast
    from pathlib import Path

    from paletti import messages

    source = "\n".join(p.read_text() for p in (Path(engine.__file__).parent / "rules").glob("*.py"))
    codes = set()
    for node in ast.walk(ast.parse(source)):
        # Refusals are raised as IllegalAction(code, …) / refuse(code, …) or returned as
        # (code, reason) pairs by the *_problem helpers.
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in {
            "refuse",
            "IllegalAction",
        }:
            first_arg = node.args[0] if node.args else None
            if isinstance(first_arg, ast.Constant):
                codes.add(first_arg.value)
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
            head = node.value.elts[0] if node.value.elts else None
            if (
                isinstance(head, ast.Constant)
                and isinstance(head.value, str)
                and len(node.value.elts) == 2
            ):
                codes.add(head.value)
    assert codes, "no refusal codes found"
    assert codes - set(messages.REFUSALS) == set()


def test_every_event_the_engine_can_tell_has_a_sentence_in_each_language():
    import ast
    from pathlib import Path

    from django.utils import translation

    from paletti import messages

    source = "\n".join(p.read_text() for p in (Path(engine.__file__).parent / "rules").glob("*.py"))
    codes = {
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "event"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }
    assert {"passed", "penalty_waived", "platform_declined", "placement_failed"} <= codes
    assert codes - set(messages.EVENT_TEXTS) == set()
    event = {"code": "passed", "seat": 0, "text": "Ada passes rather than ask for a new platform."}
    for language in ("fr", "da", "pl"):
        with translation.override(language):
            assert messages.event_text(event, ["Ada"]) != event["text"]


def _arranged():
    """A set-up the players arranged themselves, in the page's depth rows ("lane"): every
    column 2 mm to the left of rows_setup's, blue with them (it must rest on every column)."""
    setup = rows_setup()
    for column in setup["columns"]:
        column["x"] -= 2.0
    setup["blue_x"] = -2.0
    return setup


def test_the_players_may_arrange_the_columns_before_blue_is_laid(api):
    setup = _arranged()
    body = create(api, TWO_PEOPLE, setup=setup)
    placed = {c["id"]: c for c in body["state"]["columns"]}
    for column in setup["columns"]:
        assert placed[column["id"]]["x"] == pytest.approx(column["x"], abs=0.5)
        assert placed[column["id"]]["lane"] == column["lane"]
    assert body["state"]["platforms"][0]["x"] == pytest.approx(-2.0, abs=0.5)
    match = Match.objects.get(pk=body["id"])
    assert match.options["setup"]["blue_x"] == -2.0


def _refused(api, setup):
    body = {"players": TWO_PEOPLE, "options": {"setup": setup}}
    response = api.post(reverse("api:paletti-match-list"), body, format="json")
    assert response.status_code == 400
    assert not Match.objects.exists()
    return response.json()["options"]["setup"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda s: s["columns"][0].update(x=1.0), "forbidden zone"),
        (lambda s: s.update(blue_x=30.0), "sticks out"),
        (
            lambda s: s["columns"][1].update(x=s["columns"][0]["x"], lane=s["columns"][0]["lane"]),
            "overlap",
        ),
    ],
)
def test_a_set_up_against_the_rules_is_refused_with_the_reason(api, change, reason):
    """The play page shows these beside its Start button: the set-up's errors are a list
    of sentences."""
    setup = _arranged()
    change(setup)
    errors = _refused(api, setup)
    assert isinstance(errors, list) and len(errors) == 1
    assert reason in errors[0]


@pytest.mark.parametrize(
    ("change", "where", "reason"),
    [
        (lambda s: s["columns"].pop(), ["columns"], "All 20 columns"),
        (lambda s: s["columns"].append(s["columns"][0]), ["columns"], "All 20 columns"),
        (lambda s: s["columns"][0].update(x="far"), ["columns", "0", "x"], "valid number"),
        (lambda s: s["columns"][0].update(x=True), ["columns", "0", "x"], "valid number"),
        (lambda s: s["columns"][0].update(x=10**400), ["columns", "0", "x"], "too large"),
        (lambda s: s["columns"][0].update(x=2e6), ["columns", "0", "x"], "less than or equal"),
        (lambda s: s["columns"][4].update(id="4"), ["columns", "4", "id"], "valid integer"),
        (lambda s: s["columns"][4].update(id=4.0), ["columns", "4", "id"], "valid integer"),
        (lambda s: s["columns"][4].update(id=20), ["columns", "4", "id"], "less than or equal"),
        (lambda s: s["columns"][0].update(lane=7), ["columns", "0", "lane"], "does not exist"),
        (lambda s: s["columns"][0].pop("lane"), ["columns", "0", "lane"], "required"),
        (lambda s: s["columns"][0].update(z=0.0), ["columns", "0", "lane"], "not part of"),
        (lambda s: s["columns"][0].update(colour="red"), ["columns", "0", "colour"], "not part"),
        (
            lambda s: s["columns"].__setitem__(3, "x"),
            ["columns", "3", "non_field_errors"],
            "id, x and lane",
        ),
        (lambda s: s.update(blue_x=None), ["blue_x"], "may not be null"),
        (lambda s: s.update(extra=1), ["extra"], "not part of the request"),
        (lambda s: s.update(columns={"0": 1}), ["columns"], "Expected a list"),
    ],
)
def test_a_malformed_set_up_is_a_400_naming_the_field_at_fault(api, change, where, reason):
    setup = _arranged()
    change(setup)
    errors = _refused(api, setup)
    for key in where:
        errors = errors[key]
    assert reason in errors[0], errors


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ("diagonal", "'default', 'random' or the columns' places"),
        (5, "id, x and lane"),
        ([], "id, x and lane"),
    ],
)
def test_a_set_up_that_is_neither_a_shortcut_nor_columns_is_refused(api, setup, reason):
    errors = _refused(api, setup)
    messages = errors if isinstance(errors, list) else errors["non_field_errors"]
    assert reason in messages[0]


# Any JSON value (no NUL: the parser refuses a body holding one before any field sees it).
TEXT = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=8)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(where=st.sampled_from(["setup", "column", "x", "key"]), value=JSON)
def test_any_json_in_a_set_up_is_read_or_refused_with_a_400_never_a_500(api, where, value):
    setup = _arranged()
    if where == "setup":
        setup = value
    elif where == "column":
        setup["columns"][5] = value
    elif where == "x":
        setup["columns"][5]["x"] = value
    else:
        setup[str(value)[:20]] = value
    body = {"players": TWO_PEOPLE, "options": {"setup": setup}}
    response = api.post(reverse("api:paletti-match-list"), body, format="json")
    assert response.status_code in (201, 400), response.content
    if response.status_code == 400:
        assert response.json()["options"]["setup"]


def test_a_set_up_given_in_depth_rather_than_rows_is_read(api):
    setup = _arranged()
    for column in setup["columns"]:
        column["z"] = {0: -30.0, 1: 0.0, 2: 30.0}[column.pop("lane")]
    body = create(api, TWO_PEOPLE, setup=setup)
    assert Match.objects.get(pk=body["id"]).options["setup"]["columns"][0] == setup["columns"][0]


def test_the_polish_readings_are_options_of_a_match(api):
    body = create(api, TWO_PEOPLE, protest="polish", abort="polish", seal_start="blue")
    options = body["state"]["options"]
    assert (options["protest"], options["abort"], options["seal_start"]) == (
        "polish",
        "polish",
        "blue",
    )
    response = api.post(
        reverse("api:paletti-match-list"),
        {"players": TWO_PEOPLE, "options": {"protest": "danish"}},
        format="json",
    )
    assert response.status_code == 400


def test_each_bot_action_is_its_own_step_named_after_the_bot(api):
    """The page tells a bot's turn one action at a time: each step says who acted, which
    frames and events are its own, and opens on a sentence naming the bot."""
    body = create(api, HUMAN_AND_BOT, seed=3)
    state, match_id = body["state"], body["id"]
    for kind in ("choose_colour", "touch", "pull", "place"):
        if state["status"] != "playing" or kind not in kinds(state):
            continue
        action = place_spots(state)[0][0] if kind == "place" else first(state, kind)
        result = post_action(api, match_id, state["version"], action).json()
        state = result["state"]
    steps = result["steps"]
    assert steps[0]["by_bot"] is False and steps[0]["name"] == "Ada"
    bot_steps = steps[1:]
    assert len(bot_steps) >= 3, [s["type"] for s in steps]
    assert (
        len(bot_steps)
        == MatchAction.objects.filter(match_id=match_id, by_bot=True).count()
        - (body["state"]["version"])
    )
    for step in bot_steps:
        assert step["lines"][0].startswith("Robot "), step
    # Steps cover the frames and events in order, without gaps or overlaps.
    assert [s["frames"][0] for s in steps[1:]] == [s["frames"][1] for s in steps[:-1]]
    assert steps[-1]["frames"][1] == len(result["frames"])
    assert steps[-1]["events"][1] == len(result["events"])
    touch = next(s for s in bot_steps if s["type"] == "touch")
    assert re.match(r"Robot touches the \w+ [\w ]+ column: it bears \d+ g\.", touch["lines"][0])


def test_a_bot_that_declines_a_claim_says_so_in_every_language(api):
    body = create(api, HUMAN_AND_BOT, seed=42)
    match_id, state = body["id"], body["state"]
    state = _play_until(api, match_id, state, lambda s: "ask_platform" in kinds(s))
    french = APIClient(HTTP_ACCEPT_LANGUAGE="fr", HTTP_X_SEAT_TOKEN=body["organiser_token"])
    result = post_action(french, match_id, state["version"], first(state, "ask_platform")).json()
    answer = next(s for s in result["steps"] if s["by_bot"])
    assert answer["type"] in ("decline", "protest")
    if answer["type"] == "decline":
        assert answer["lines"][0] == "Robot ne proteste pas."
    else:
        assert answer["lines"][0].startswith("Robot proteste")


def _play_until(api, match_id, state, wanted, turns=12):
    """Ada builds (first colour, first column, the most central placement) until `wanted`
    holds for her state."""
    for _ in range(turns * 4):
        if wanted(state):
            return state
        assert state["status"] == "playing", "the match ended first"
        for kind in ("choose_colour", "touch", "pull"):
            if kind in kinds(state):
                action = first(state, kind)
                break
        else:
            action = min(place_spots(state), key=lambda spot: (spot[1], abs(spot[0]["x"])))[0]
        state = post_action(api, match_id, state["version"], action).json()["state"]
    raise AssertionError("never reached")


def test_under_the_polish_colours_the_people_choose_theirs_after_the_throw(api):
    body = create(api, TWO_PEOPLE, seed=42, colours="polish")
    state = body["state"]
    assert state["phase"] == "colours"
    thrower = state["choosing"]["youngest"]
    assert state["seats"][thrower]["colours"] == [state["choosing"]["thrown"]]
    offered = [a["colour"] for a in state["legal_actions"] if a["type"] == "take_colour"]
    assert len(offered) == 3
    taken = post_action(api, body["id"], state["version"], first(state, "take_colour"))
    assert taken.status_code == 200, taken.content
    after = taken.json()
    assert after["events"][0]["text"].endswith(f"takes {offered[0]}.")
    again = post_action(
        api,
        body["id"],
        after["state"]["version"],
        {"type": "take_colour", "colour": offered[0]},
    )
    assert again.status_code == 400
    assert again.json()["code"] == "colour_taken"


def test_a_platform_laid_offset_in_depth_through_the_api_lies_there(api):
    """The API lists lay positions in 2-D and passes a posted depth through to the engine:
    green laid 10 mm behind blue's middle (and 10 mm right, along the three columns' line)
    lies there."""
    match_id, state = _reach_a_claim(api)
    state = post_action(api, match_id, state["version"], {"type": "ask_platform"}).json()["state"]
    state = post_action(api, match_id, state["version"], {"type": "decline"}).json()["state"]
    lays = [a for a in state["legal_actions"] if a["type"] == "lay_platform"]
    assert all(set(a) == {"type", "seat", "x", "z"} for a in lays)
    offset = next(a for a in lays if (a["x"], a["z"]) == (10.0, 10.0))
    laid = post_action(api, match_id, state["version"], offset).json()
    assert "platform_laid" in [e["code"] for e in laid["events"]]
    green = laid["state"]["platforms"][1]
    assert green["laid"] is True
    assert green["side"][0] == pytest.approx(10.0, abs=0.1)
    assert green["x"] == pytest.approx(10.0, abs=0.1)
