"""A match's event stream: resuming from the last version seen, keys checked as for
updates/, bad input refused; and, with real ASGI servers over one database, an action
posted to one server reaches a stream open on the other within a second, through Redis
or, Redis away, through the stream's polling."""

import time
import uuid

import pytest
import requests
from django.urls import reverse

from catalogue.tests.servers import (
    NO_REDIS,
    REDIS_URL,
    Listener,
    Server,
    events_of,
    redis_answers,
)
from paletti.tests.test_seats import (
    ADA_BO_CY,
    client,
    create,
    detail,
    joined,
    post,
    secret_of,
)

TWO_HUMANS = [{"name": "Ada"}, {"name": "Bo", "device": "own"}]


def stream_url(match_id):
    return reverse("api:paletti-match-stream", kwargs={"match_id": match_id})


def actor_key(body):
    """The key of the device whose seat is to act (Ada's is the organiser's device)."""
    return body["organiser_token"] if body["state"]["turn"] == 0 else secret_of(body, 1)


def play_once(body):
    """The seat to act plays its first listed action from its own device (a touch)."""
    device = client(HTTP_X_SEAT_TOKEN=actor_key(body))
    state = detail(device, body["id"]).json()
    answer = post(device, body["id"], state["version"], state["legal_actions"][0])
    assert answer.status_code == 200, answer.content
    return answer.json()["state"]


@pytest.mark.django_db
class TestOneShot:
    """Through the test client (a WSGI request): the stream answers at once."""

    def test_resume_gives_the_missed_actions_and_their_version_as_id(self):
        organiser = client()
        body = create(organiser, TWO_HUMANS)
        start = body["state"]["version"]
        after = play_once(body)
        # Cy watches (a spectator's link).
        bo = client(HTTP_X_SEAT_TOKEN=secret_of(body, None))
        response = bo.get(stream_url(body["id"]), HTTP_LAST_EVENT_ID=str(start))
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/event-stream")
        assert response["X-Accel-Buffering"] == "no"
        text = response.content.decode()
        assert text.startswith("retry: 2000")
        (update,) = events_of(text)
        assert update["event"] == "update"
        assert int(update["id"]) == after["version"] > start
        assert update["data"]["since"] == start
        assert update["data"]["state"]["version"] == after["version"]
        assert len(update["data"]["steps"]) == 1 and update["data"]["steps"][0]["lines"]
        # Up to date: nothing to send.
        response = bo.get(stream_url(body["id"]), {"since": after["version"]})
        assert events_of(response.content.decode()) == []

    def test_last_event_id_wins_over_since_and_none_gives_the_whole_state(self):
        organiser = client()
        body = create(organiser, TWO_HUMANS)
        after = play_once(body)
        bo = client(HTTP_X_SEAT_TOKEN=secret_of(body, 1))
        response = bo.get(
            stream_url(body["id"]), {"since": 0}, HTTP_LAST_EVENT_ID=str(after["version"])
        )
        assert events_of(response.content.decode()) == []
        (whole,) = events_of(bo.get(stream_url(body["id"])).content.decode())
        assert whole["data"]["state"]["version"] == after["version"]
        assert whole["data"]["frames"] == [] and whole["data"]["since"] is None

    def test_a_spectator_follows_and_a_stranger_or_a_wrong_key_is_refused(self):
        body = create(client(), ADA_BO_CY)
        spectator = joined(body, None)
        assert spectator.get(stream_url(body["id"]), {"since": 0}).status_code == 200
        assert client().get(stream_url(body["id"]), {"since": 0}).status_code == 403
        wrong = client(HTTP_X_SEAT_TOKEN="x" * 32)
        response = wrong.get(stream_url(body["id"]), {"since": 0})
        assert response.status_code == 403
        assert response.json()["code"] == "unknown_seat_token"
        other = create(client(), ADA_BO_CY)
        bo_elsewhere = client(HTTP_X_SEAT_TOKEN=secret_of(other, 1))
        assert bo_elsewhere.get(stream_url(body["id"]), {"since": 0}).status_code == 403

    @pytest.mark.parametrize(
        "query, headers, field",
        [
            ({"since": "-1"}, {}, "since"),
            ({"since": "abc"}, {}, "since"),
            ({"since": str(2**31)}, {}, "since"),
            ({"once": "yes"}, {}, "once"),
            ({}, {"HTTP_LAST_EVENT_ID": "v12"}, "Last-Event-ID"),
            ({}, {"HTTP_LAST_EVENT_ID": ""}, "Last-Event-ID"),
        ],
    )
    def test_bad_input_is_a_400_naming_the_field(self, query, headers, field):
        body = create(client(), TWO_HUMANS)
        response = client().get(stream_url(body["id"]), query, **headers)
        assert response.status_code == 400
        assert field in response.json()

    def test_an_unknown_match_is_a_404(self):
        response = client().get(stream_url(uuid.uuid4()), {"since": 0})
        assert response.status_code == 404


# Two ASGI servers over the test database -----------------------------------------------


@pytest.fixture
def servers(request):
    redis_url = request.param
    if redis_url == REDIS_URL and not redis_answers():
        pytest.skip(f"no Redis server at {REDIS_URL}")
    prefix = f"test-stream-{uuid.uuid4().hex}"
    started = []
    try:
        started.append(Server(redis_url, prefix))
        started.append(Server(redis_url, prefix))
        yield started
    finally:
        for server in started:
            server.stop()


def post_over_http(server, body):
    headers = {"X-Seat-Token": actor_key(body), "Accept-Language": "en"}
    url = f"{server.url}/api/paletti/matches/{body['id']}/"
    state = requests.get(url, headers=headers, timeout=30).json()
    response = requests.post(
        url + "actions/",
        json={"version": state["version"], "action": state["legal_actions"][0]},
        headers=headers,
        timeout=30,
    )
    assert response.status_code == 200, response.text
    return response.json()["state"]["version"]


def create_over_http(server):
    response = requests.post(
        f"{server.url}/api/paletti/matches/",
        json={"players": TWO_HUMANS, "seed": 7},
        headers={"Accept-Language": "en"},
        timeout=30,
    )
    assert response.status_code == 201, response.text
    return response.json()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "servers",
    [REDIS_URL, NO_REDIS],
    ids=["through-redis", "redis-down-polling"],
    indirect=True,
)
def test_an_action_on_one_server_reaches_a_stream_on_the_other_within_a_second(servers):
    one, other = servers
    body = create_over_http(one)
    spectator = secret_of(body, None)
    listener = Listener(
        f"{other.url}/api/paletti/matches/{body['id']}/stream/?since={body['state']['version']}",
        {"X-Seat-Token": spectator, "Accept-Language": "en"},
    )
    assert listener.response.status_code == 200
    listener.start()
    listener.opened.wait(5)
    time.sleep(0.3)  # the stream has read the match and waits
    try:
        version = post_over_http(one, body)
        stored = time.monotonic()
        at, event = listener.wait_for(version, 5)
        assert event is not None, "no event within 5 s"
        assert at - stored < 1.0
        assert len(event["data"]["steps"]) == 1 and event["data"]["steps"][0]["lines"]
        assert event["data"]["state"]["version"] == version
        # The stream speaks to the spectator: no action to post.
        assert event["data"]["state"]["viewer"]["role"] == "spectator"
        assert event["data"]["state"]["legal_actions"] == []
    finally:
        listener.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("servers", [REDIS_URL], indirect=True)
def test_a_replaced_link_ends_the_stream_of_the_device_holding_the_old_one(servers):
    one, other = servers
    body = create_over_http(one)
    listener = Listener(
        f"{other.url}/api/paletti/matches/{body['id']}/stream/?since={body['state']['version']}",
        {"X-Seat-Token": secret_of(body, 1), "Accept-Language": "en"},
    )
    listener.start()
    time.sleep(0.3)
    try:
        replaced = requests.post(
            f"{one.url}/api/paletti/matches/{body['id']}/links/1/",
            headers={"X-Seat-Token": body["organiser_token"]},
            timeout=30,
        )
        assert replaced.status_code == 200
        deadline = time.monotonic() + 3

        def told():  # what the stream said but who is connected
            return [e for _, e in listener.received if e["event"] != "presence"]

        while time.monotonic() < deadline and not told():
            time.sleep(0.02)
        assert [e["event"] for e in told()] == ["gone"]
        assert told()[0]["data"]["code"] == "no_seat"
        time.sleep(0.5)
        assert listener.response.raw.closed or not listener.is_alive()  # the stream ended
    finally:
        listener.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("servers", [REDIS_URL], indirect=True)
def test_streams_over_the_bound_are_refused_with_a_503(servers):
    one, _other = servers
    small = Server(REDIS_URL, "test-stream-small", DJANGO_STREAMS_MAX_OPEN="2")
    try:
        body = create_over_http(one)
        url = f"{small.url}/api/paletti/matches/{body['id']}/stream/?since=0"
        headers = {"X-Seat-Token": body["organiser_token"]}
        open_ones = [requests.get(url, headers=headers, stream=True, timeout=10) for _ in range(2)]
        assert [r.status_code for r in open_ones] == [200, 200]
        refused = requests.get(url, headers=headers, stream=True, timeout=10)
        assert refused.status_code == 503
        assert refused.json()["code"] == "too_many_streams"
        assert refused.headers["Retry-After"]
        for response in open_ones:
            response.close()
        # A closed stream frees its place.
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            again = requests.get(url, headers=headers, stream=True, timeout=10)
            again.close()
            if again.status_code == 200:
                break
            time.sleep(0.2)
        assert again.status_code == 200
    finally:
        small.stop()
