"""The tournament's event stream: every change the big screen or a phone shows moves the
tournament's version, published after the commit; the stream answers what was missed,
refuses what it cannot read; and, served by uvicorn, a result entered elsewhere reaches an
open stream within a second through Redis, or within two with Redis away (its polling)."""

import time
import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from catalogue import live as hub
from catalogue.tests.servers import NO_REDIS, REDIS_URL, Listener, Server, events_of, redis_answers
from games.tournament import live, services
from games.tournament.models import Table, Tournament

from .conftest import register, result_for


def stream_url(tournament):
    with translation.override("en"):
        return reverse("tournament:stream", kwargs={"code": tournament.code})


def version_of(tournament):
    return Tournament.objects.get(pk=tournament.pk).version


def test_each_change_shown_moves_the_version_published_after_its_commit(
    tournament, staff, monkeypatch, django_capture_on_commit_callbacks
):
    published = []
    monkeypatch.setattr(live, "publish", lambda pk, version: published.append((pk, version)))
    seats = []

    def table():
        return Table.objects.get(pk=seats[0].table_id)

    def start():
        round_ = services.start_round(tournament=tournament)
        seats.extend(round_.tables.get().seats.order_by("position").select_related("player"))

    steps = {
        "registered": lambda: register(tournament, 4),
        "round started": start,
        "result entered": lambda: services.enter_result(seat=seats[0], result=result_for(table())),
        "result confirmed": lambda: services.confirm_result(seat=seats[1], entry=table().entry),
        "result corrected": lambda: services.correct_result(
            user=staff, table=table(), result=result_for(table(), places=[2, 1, 3, 4])
        ),
        "player left": lambda: services.set_present(player=seats[2].player, present=False),
        "registration closed": lambda: services.set_registration(
            tournament=tournament, open_=False
        ),
        "finished": lambda: services.finish(tournament=tournament),
    }
    seen = [version_of(tournament)]
    for name, step in steps.items():
        with django_capture_on_commit_callbacks() as callbacks:
            step()
        assert published[-1:] != [(tournament.pk, version_of(tournament))], name
        for callback in callbacks:
            callback()
        seen.append(version_of(tournament))
        assert seen[-1] > seen[-2], name
        # Only the id and the version, once committed.
        assert published[-1] == (tournament.pk, seen[-1]), name


def test_a_stale_copy_saved_never_puts_the_version_back(tournament):
    stale = Tournament.objects.get(pk=tournament.pk)
    register(tournament, 2)
    stale.name = "Renamed"
    stale.save()
    fresh = Tournament.objects.get(pk=tournament.pk)
    assert (fresh.name, fresh.version) == ("Renamed", 2)


def test_the_stream_answers_what_was_missed_at_once_under_wsgi(client, tournament):
    register(tournament, 3)  # version 3
    answer = client.get(stream_url(tournament), {"since": 1})
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/event-stream"
    body = answer.content.decode()
    assert body.startswith("retry: 2000\n\n")
    # The version alone: the big screen's JSON says the rest.
    assert events_of(body) == [{"id": "3", "event": "update", "data": {"version": 3, "phones": 3}}]
    # Up to date: nothing to send. Last-Event-ID wins over since.
    assert events_of(client.get(stream_url(tournament), {"since": 3}).content.decode()) == []
    resumed = client.get(stream_url(tournament), {"since": 3}, HTTP_LAST_EVENT_ID="2")
    assert [e["id"] for e in events_of(resumed.content.decode())] == ["3"]


@pytest.mark.parametrize(
    "query, headers, field",
    [
        ({"since": "-1"}, {}, "since"),
        ({"since": "tomorrow"}, {}, "since"),
        ({"since": str(2**31)}, {}, "since"),
        ({"once": "yes"}, {}, "once"),
        ({}, {"HTTP_LAST_EVENT_ID": "1e9"}, "Last-Event-ID"),
    ],
)
def test_hostile_input_is_a_400_naming_the_field(client, tournament, query, headers, field):
    answer = client.get(stream_url(tournament), query, **headers)
    assert answer.status_code == 400
    assert field in answer.json()


def test_an_unknown_tournament_is_a_404_and_a_post_a_405(client, tournament):
    with translation.override("en"):
        unknown = reverse("tournament:stream", kwargs={"code": "no-such-code"})
    assert client.get(unknown).status_code == 404
    assert client.post(stream_url(tournament)).status_code == 405


@pytest.fixture
def server(request, settings):
    redis_url = request.param
    if redis_url == REDIS_URL and not redis_answers():
        pytest.skip(f"no Redis server at {REDIS_URL}")
    prefix = f"test-tournament-stream-{uuid.uuid4().hex}"
    # This process (the other server) publishes where the server listens.
    settings.LIVE_STREAMS = {**settings.LIVE_STREAMS, "redis_url": redis_url, "key_prefix": prefix}
    hub._publisher.update(client=None, paused_until=0.0)
    started = Server(redis_url, prefix)
    yield started
    started.stop()
    hub._publisher.update(client=None, paused_until=0.0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "server, within",
    [(REDIS_URL, 1.0), (NO_REDIS, 2.0)],
    ids=["through-redis", "redis-down-polling"],
    indirect=["server"],
)
def test_a_result_entered_elsewhere_reaches_an_open_stream(server, within, tournament):
    register(tournament, 4)
    table = services.start_round(tournament=tournament).tables.get()
    since = version_of(tournament)
    listener = Listener(f"{server.url}{stream_url(tournament)}?since={since}", {})
    assert listener.response.status_code == 200
    listener.start()
    listener.opened.wait(5)
    time.sleep(0.3)  # the stream has read the tournament and waits
    try:
        seat = table.seats.order_by("position").first()
        services.enter_result(seat=seat, result=result_for(table))
        entered = time.monotonic()
        at, event = listener.wait_for(since + 1, 5)
        assert event is not None, "no event within 5 s"
        assert at - entered < within
        assert event["data"] == {"version": since + 1, "phones": since + 1}
    finally:
        listener.close()
