"""Seats across devices: each person on their own device acts through their seat's link,
the organiser's device for the persons on it, a spectator for nobody; a refused action
changes nothing; a replaced link stops working; no viewer is sent another's secret."""

import re
from urllib.parse import urlsplit

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from paletti import services
from paletti.models import Match, MatchAction
from paletti.tests.conftest import place_spots

pytestmark = pytest.mark.django_db

# Ada plays on the organiser's device, Bo and Cy on their own.
ADA_BO_CY = [
    {"name": "Ada"},
    {"name": "Bo", "device": "own"},
    {"name": "Cy", "device": "own"},
]


def client(**headers):
    return APIClient(HTTP_ACCEPT_LANGUAGE="en", **headers)


def create(api, players, seed=42):
    response = api.post(
        reverse("api:paletti-match-list"), {"players": players, "seed": seed}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def secret_of(body, seat):
    """The secret after the # of a seat's link (None: the spectators')."""
    url = next(link["url"] for link in body["links"] if link["seat"] == seat)
    return urlsplit(url).fragment


def join(api, match_id, secret, **extra):
    url = reverse("api:paletti-match-join", kwargs={"match_id": match_id})
    return api.post(url, {"token": secret}, format="json", **extra)


def joined(body, seat):
    """A device that opened a seat's link (None: the spectators')."""
    device = client()
    assert join(device, body["id"], secret_of(body, seat)).status_code == 200
    return device


def detail(api, match_id, **extra):
    return api.get(reverse("api:paletti-match-detail", kwargs={"match_id": match_id}), **extra)


def updates(api, match_id, since, **extra):
    url = reverse("api:paletti-match-updates", kwargs={"match_id": match_id})
    return api.get(url, {"since": since}, **extra)


def post(api, match_id, version, action, **extra):
    url = reverse("api:paletti-match-actions", kwargs={"match_id": match_id})
    return api.post(url, {"version": version, "action": action}, format="json", **extra)


def replace(api, match_id, which, **extra):
    url = reverse("api:paletti-match-link", kwargs={"match_id": match_id, "which": which})
    return api.post(url, **extra)


def stored(match_id):
    match = Match.objects.get(pk=match_id)
    return match.version, match.state_hash, MatchAction.objects.filter(match=match).count()


@pytest.fixture
def table():
    """A three-player match: the organiser's device (Ada), Bo's and Cy's phones (each
    joined through its link) and a spectator's screen."""
    organiser = client()
    body = create(organiser, ADA_BO_CY)
    devices = {0: organiser, 1: joined(body, 1), 2: joined(body, 2)}
    return body, devices, joined(body, None)


def play_turns(body, devices, count):
    """Each seat to act plays its first listed action (a placement near the middle)
    from its own device, `count` times; the last state."""
    state = body["state"]
    for _ in range(count):
        device = devices[state["turn"]]
        state = detail(device, body["id"]).json()
        action = state["legal_actions"][0]
        if action["type"] == "place":
            action = min(place_spots(state), key=lambda spot: (spot[1], abs(spot[0]["x"])))[0]
        response = post(device, body["id"], state["version"], action)
        assert response.status_code == 200, response.content
        state = response.json()["state"]
    return state


def test_everyone_around_one_screen_plays_as_before():
    organiser = client()
    body = create(organiser, [{"name": "Ada"}, {"name": "Bo"}])
    assert body["state"]["viewer"] == {"role": "organiser", "seats": [0, 1]}
    assert all(seat["yours"] and seat["device"] == "shared" for seat in body["state"]["seats"])
    assert [link["seat"] for link in body["links"]] == [None]  # the spectators' only
    state = play_turns(body, {0: organiser, 1: organiser}, 6)
    assert len({step["seat"] for step in MatchAction.objects.values("seat")}) == 2
    assert state["version"] == 6


def test_each_device_acts_for_its_own_seat_and_a_wrong_seat_changes_nothing(table):
    body, devices, spectator = table
    turn = body["state"]["turn"]
    state = detail(devices[turn], body["id"]).json()
    assert state["viewer"]["seats"] == [turn]  # the organiser's device plays for Ada alone
    assert state["legal_actions"]
    action = state["legal_actions"][0]
    before = stored(body["id"])
    for seat, device in devices.items():
        if seat == turn:
            continue
        # Another seat's device sees no action to post, and posting one anyway is refused.
        assert detail(device, body["id"]).json()["legal_actions"] == []
        refused = post(device, body["id"], state["version"], action)
        assert refused.status_code == 403
        name = body["state"]["seats"][turn]["name"]
        assert refused.json() == {
            "code": "not_your_seat",
            "detail": f"It is {name}'s turn, and this device does not play for {name}.",
        }
        assert stored(body["id"]) == before
    assert post(devices[turn], body["id"], state["version"], action).status_code == 200
    assert stored(body["id"])[0] == before[0] + 1


def test_the_organisers_device_acts_for_the_persons_on_it_only(table):
    body, devices, _ = table
    state = play_turns(body, devices, 9)  # a few turns, round the table
    while state["turn"] == 0:
        state = play_turns({**body, "state": state}, devices, 1)
    organiser = devices[0]
    listed = detail(devices[state["turn"]], body["id"]).json()["legal_actions"][0]
    before = stored(body["id"])
    refused = post(organiser, body["id"], state["version"], listed)
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_seat"
    assert stored(body["id"]) == before
    assert detail(organiser, body["id"]).json()["viewer"] == {"role": "organiser", "seats": [0]}


def test_a_spectator_sees_the_match_and_cannot_act(table):
    body, devices, spectator = table
    seen = detail(spectator, body["id"]).json()
    assert seen["viewer"] == {"role": "spectator", "seats": []}
    assert seen["legal_actions"] == [] and not any(seat["yours"] for seat in seen["seats"])
    action = detail(devices[seen["turn"]], body["id"]).json()["legal_actions"][0]
    before = stored(body["id"])
    refused = post(spectator, body["id"], seen["version"], action)
    assert refused.status_code == 403
    assert refused.json()["code"] == "spectator"
    assert stored(body["id"]) == before


def test_a_device_without_a_key_sees_nothing_and_does_nothing(table):
    body, devices, _ = table
    stranger = client()
    response = detail(stranger, body["id"])
    assert response.status_code == 403 and response.json()["code"] == "no_seat"
    assert "columns" not in response.json()
    assert updates(stranger, body["id"], 0).status_code == 403
    action = detail(devices[body["state"]["turn"]], body["id"]).json()["legal_actions"][0]
    before = stored(body["id"])
    assert post(stranger, body["id"], body["state"]["version"], action).status_code == 403
    assert stored(body["id"]) == before


def test_a_replaced_link_stops_working_and_the_new_one_works(table):
    body, devices, _ = table
    old = secret_of(body, 1)
    bo_by_header = client(HTTP_X_SEAT_TOKEN=old)
    assert detail(bo_by_header, body["id"]).status_code == 200
    replaced = replace(devices[0], body["id"], "1")
    assert replaced.status_code == 200
    new = replaced.json()["token"]
    assert new != old and replaced.json()["link"]["url"].endswith("#" + new)
    # The old link, by header or through the session that opened it, opens nothing now.
    refused = detail(bo_by_header, body["id"])
    assert refused.status_code == 403 and refused.json()["code"] == "unknown_seat_token"
    session = detail(devices[1], body["id"])
    assert session.status_code == 403 and "replaced" in session.json()["detail"]
    assert join(client(), body["id"], old).status_code == 403
    # The new one works, on the phone that had the old one.
    assert join(devices[1], body["id"], new).status_code == 200
    assert detail(devices[1], body["id"]).json()["viewer"]["seats"] == [1]
    # The spectators' link is replaced the same way.
    spectators = replace(devices[0], body["id"], "spectator").json()
    assert spectators["link"]["seat"] is None
    assert join(client(), body["id"], secret_of(body, None)).status_code == 403
    assert join(client(), body["id"], spectators["token"]).status_code == 200


def test_only_the_organiser_replaces_links_and_only_a_linked_seats(table):
    body, devices, spectator = table
    for device in (devices[1], spectator):
        refused = replace(device, body["id"], "1")
        assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
    for which in ("0", "3", "9", "x", "spectators"):
        refused = replace(devices[0], body["id"], which)
        assert refused.status_code == 400 and refused.json()["code"] == "no_link", which
    assert join(client(), body["id"], secret_of(body, 1)).status_code == 200  # unchanged


def test_no_viewer_is_sent_another_viewers_secret(table):
    body, devices, spectator = table
    secrets = {
        "organiser": body["organiser_token"],
        "spectators": secret_of(body, None),
        "Bo": secret_of(body, 1),
        "Cy": secret_of(body, 2),
    }
    state = play_turns(body, devices, 4)
    viewers = {"Bo": devices[1], "Cy": devices[2], "spectators": spectator}
    for name, device in viewers.items():
        answers = [
            detail(device, body["id"]),
            updates(device, body["id"], 0),
            updates(device, body["id"], state["version"]),
        ]
        if state["turn"] in detail(device, body["id"]).json()["viewer"]["seats"]:
            action = detail(device, body["id"]).json()["legal_actions"][0]
            answers.append(post(device, body["id"], state["version"], action))
        for answer in answers:
            assert answer.status_code == 200
            for other, secret in secrets.items():
                assert secret not in answer.content.decode(), (name, other)
    # The organiser's page shows the links; a player's page shows none of them.
    with translation.override("en"):
        page = reverse("paletti:match", kwargs={"match_id": body["id"]})
    organiser_page = devices[0].get(page).content.decode()
    assert secrets["Bo"] in organiser_page and secrets["Cy"] in organiser_page
    assert 'src="data:image/svg+xml' in organiser_page  # each link's QR code
    player_page = devices[1].get(page).content.decode()
    assert not any(secret in player_page for secret in secrets.values())


def test_a_link_keeps_its_secret_out_of_every_address_a_server_sees(table):
    body, _, _ = table
    for link in body["links"]:
        parts = urlsplit(link["url"])
        secret = parts.fragment
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", secret)  # 24 random bytes
        # Before the #: what a browser requests, logs record and a Referer can carry.
        assert secret not in parts.path and not parts.query
        assert parts.path == reverse("paletti-join", kwargs={"match_id": body["id"]})
    page = client().get(urlsplit(body["links"][0]["url"]).path)
    assert page.status_code == 200
    html = page.content.decode()
    assert '<meta name="referrer" content="no-referrer">' in html
    assert "no-store" in page["Cache-Control"] or "max-age=0" in page["Cache-Control"]
    # The join answer leads to the match's page, which carries no secret either.
    joined_answer = join(client(), body["id"], secret_of(body, 1)).json()
    assert joined_answer["url"] == reverse("paletti:match", kwargs={"match_id": body["id"]})
    # The database keeps digests only.
    row = Match.objects.get(pk=body["id"])
    digests = [row.organiser_digest, row.spectator_digest]
    stored_text = " ".join([*digests, *row.seats.values_list("key_digest", flat=True)])
    assert secret_of(body, 1) not in stored_text and body["organiser_token"] not in stored_text


@pytest.mark.parametrize(
    "token, status, code",
    [
        ("short", 400, "malformed_seat_token"),
        ("bad token with spaces!", 400, "malformed_seat_token"),
        ("x" * 200, 400, "malformed_seat_token"),
        ("A" * 32, 403, "unknown_seat_token"),
    ],
)
def test_a_bad_key_in_the_header_is_a_clear_4xx(table, token, status, code):
    body, devices, _ = table
    before = stored(body["id"])
    action = {"type": "pass"}
    for response in (
        detail(client(HTTP_X_SEAT_TOKEN=token), body["id"]),
        updates(client(HTTP_X_SEAT_TOKEN=token), body["id"], 0),
        post(client(HTTP_X_SEAT_TOKEN=token), body["id"], 0, action),
        replace(client(HTTP_X_SEAT_TOKEN=token), body["id"], "1"),
    ):
        assert response.status_code == status
        assert response.json()["code"] == code
    assert stored(body["id"]) == before


def test_another_matchs_key_opens_nothing_here(table):
    body, _, _ = table
    other = create(client(), ADA_BO_CY, seed=7)
    for secret in (other["organiser_token"], secret_of(other, 1), secret_of(other, None)):
        refused = detail(client(HTTP_X_SEAT_TOKEN=secret), body["id"])
        assert refused.status_code == 403 and refused.json()["code"] == "unknown_seat_token"
        assert join(client(), body["id"], secret).status_code == 403
    malformed = join(client(), body["id"], "not a secret")
    assert malformed.status_code == 400 and "token" in malformed.json()


def test_a_key_in_the_session_needs_the_csrf_token_to_write(table):
    body, _, _ = table
    strict = APIClient(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    strict.get(reverse("paletti-join", kwargs={"match_id": body["id"]}))  # the CSRF cookie
    token = strict.cookies["csrftoken"].value
    assert join(strict, body["id"], body["organiser_token"]).status_code == 403
    with_token = join(strict, body["id"], body["organiser_token"], HTTP_X_CSRFTOKEN=token)
    assert with_token.status_code == 200
    state = detail(strict, body["id"]).json()  # reading needs no CSRF token
    before = stored(body["id"])
    if state["legal_actions"]:
        refused = post(strict, body["id"], state["version"], state["legal_actions"][0])
        assert refused.status_code == 403 and refused.json()["code"] == "csrf_failed"
        assert stored(body["id"]) == before
    refused = replace(strict, body["id"], "1")
    assert refused.status_code == 403 and refused.json()["code"] == "csrf_failed"
    assert replace(strict, body["id"], "1", HTTP_X_CSRFTOKEN=token).status_code == 200


def test_a_following_device_is_shown_what_it_missed_once(table):
    body, devices, spectator = table
    version = body["state"]["version"]
    nothing = updates(spectator, body["id"], version).json()
    assert nothing == {
        "version": version,
        "state": None,
        "frames": [],
        "events": [],
        "steps": [],
    }
    state = play_turns(body, devices, 3)
    missed = updates(spectator, body["id"], version).json()
    assert missed["version"] == state["version"] == version + 3
    assert missed["state"]["viewer"]["role"] == "spectator"
    assert [step["seat"] for step in missed["steps"]] == list(
        MatchAction.objects.filter(match_id=body["id"], number__gt=version)
        .order_by("number")
        .values_list("seat", flat=True)
    )
    assert all(step["lines"] for step in missed["steps"])
    assert missed["frames"] or missed["events"]
    # The frames run on in time, one action after another.
    times = [frame["t"] for frame in missed["frames"]]
    assert times == sorted(times)
    assert updates(spectator, body["id"], state["version"]).json()["state"] is None
    for since in (-1, "x", ""):
        assert updates(spectator, body["id"], since).status_code == 400


def test_a_bot_plays_on_the_server_not_on_a_device_of_its_own():
    response = client().post(
        reverse("api:paletti-match-list"),
        {"players": [{"name": "Ada"}, {"name": "Robot", "kind": "bot", "device": "own"}]},
        format="json",
    )
    assert response.status_code == 400
    assert "device" in response.json()["players"][1]


def test_a_match_stored_before_keys_is_played_by_whoever_holds_its_id():
    outcome = services.create_match(seats=[services.SeatSpec("Ada"), services.SeatSpec("Bo")])
    Match.objects.filter(pk=outcome.match.pk).update(organiser_digest="", spectator_digest="")
    anyone = client()
    state = detail(anyone, outcome.match.pk).json()
    assert state["viewer"]["seats"] == [0, 1]
    action = state["legal_actions"][0]
    assert post(anyone, outcome.match.pk, state["version"], action).status_code == 200


def test_the_organiser_replaces_a_link_from_the_play_page(table):
    body, devices, _ = table
    with translation.override("en"):
        page = reverse("paletti:match", kwargs={"match_id": body["id"]})
        form = reverse("paletti:replace-link", kwargs={"match_id": body["id"]})
    old = secret_of(body, 2)
    assert devices[1].post(form, {"which": "2"}).status_code == 403  # Bo is not the organiser
    answer = devices[0].post(form, {"which": "2"})
    assert answer.status_code == 302 and answer["Location"] == page + "#links"
    shown = devices[0].get(page).content.decode()
    assert old not in shown
    new = re.search(r"/paletti/join/[0-9a-f-]+/#([A-Za-z0-9_-]+)", shown.split("Cy", 1)[1])[1]
    assert detail(devices[2], body["id"]).status_code == 403  # Cy's phone had the old one
    assert join(devices[2], body["id"], new).status_code == 200
    assert devices[0].post(form, {"which": "0"}).status_code == 400  # Ada has no link


def test_the_schema_says_how_a_seats_key_is_sent(client):
    schema = client.get(reverse("api:schema"), {"format": "json"}).json()
    scheme = schema["components"]["securitySchemes"]["seatToken"]
    assert (scheme["type"], scheme["in"], scheme["name"]) == ("apiKey", "header", "X-Seat-Token")
    actions = schema["paths"]["/api/paletti/matches/{match_id}/actions/"]["post"]
    assert {"seatToken": []} in actions["security"] and "403" in actions["responses"]
    state = schema["components"]["schemas"]["MatchState"]["properties"]
    assert {"viewer", "seats", "version", "legal_actions"} <= set(state)
    seat = schema["components"]["schemas"]["SeatView"]["properties"]
    assert {"yours", "device"} <= set(seat) and "key_digest" not in seat
    created = schema["components"]["schemas"]["CreatedMatch"]["properties"]
    assert {"organiser_token", "links"} <= set(created)
    player = schema["components"]["schemas"]["Player"]["properties"]
    assert player["device"]["default"] == "shared"
    assert schema["components"]["schemas"]["DeviceEnum"]["enum"] == ["shared", "own"]


def test_a_bad_key_on_the_play_page_is_refused_not_an_error(table):
    body, _, _ = table
    with translation.override("en"):
        page = reverse("paletti:match", kwargs={"match_id": body["id"]})
        form = reverse("paletti:replace-link", kwargs={"match_id": body["id"]})
    for token in ("A" * 32, "not a key"):
        assert client(HTTP_X_SEAT_TOKEN=token).get(page).status_code == 403
        assert client(HTTP_X_SEAT_TOKEN=token).post(form, {"which": "1"}).status_code == 403


def test_an_organiser_whose_players_all_play_elsewhere_is_told_whose_turn_it_is():
    organiser = client()
    body = create(organiser, [{"name": "Bo", "device": "own"}, {"name": "Cy", "device": "own"}])
    state = detail(organiser, body["id"]).json()
    assert state["viewer"] == {"role": "organiser", "seats": []}
    assert state["legal_actions"] == []
    listed = detail(client(HTTP_X_SEAT_TOKEN=secret_of(body, state["turn"])), body["id"])
    refused = post(organiser, body["id"], state["version"], listed.json()["legal_actions"][0])
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_seat"
