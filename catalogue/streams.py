"""An event stream (Server-Sent Events) of something that changes: a match's
(paletti.stream), a tournament's (games.tournament.live). The app says what a stream
follows and what each event says (a `Feed`); this module serves it.

Each event's SSE `id` is the followed thing's version. A device resumes by sending the last
version it saw, in `Last-Event-ID` (a browser's EventSource does so by itself when it
reconnects) or `?since=`.

The view is async and meant for the ASGI server (catalogue.asgi, uvicorn): an open stream
costs a coroutine, not a thread. It waits on catalogue.live's wake (Redis pub/sub), or
reads the version every `poll_seconds` while Redis is away; it sends a comment every 15 s
(so that a proxy keeps it open) and ends after 10 min (the browser reconnects at once).
Served by a WSGI server (gunicorn, runserver) or asked with `?once=1`, it answers what the
device missed, if anything, and ends at once, with `retry: 2000`: an EventSource then asks
again every 2 s, as a polling page does. A process serves at most `max_open` streams at
once (settings LIVE_STREAMS), then answers 503 with Retry-After.

Its reads run in a small pool of threads of its own (READERS), each keeping its database
connection: a process holds that many connections whatever the number of streams.
"""

import asyncio
import json
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from . import live

READERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="live-stream")
# How long the browser waits before reconnecting: after a stream's lifetime, at once; after
# an answer of the WSGI server (one shot), as long as a polling page's period.
RETRY_MS = 1000
ONE_SHOT_RETRY_MS = 2000
MAX_VERSION = 2**31 - 1

BAD_VERSION = _("A version is a whole number from 0 to 2147483647.")
BAD_ONCE = _("once is 1 (answer what was missed and end) or 0.")


def event(name: str, data: dict, version: int | None = None) -> str:
    lines = [f"event: {name}"]
    if version is not None:
        lines.insert(0, f"id: {version}")
    lines.append("data: " + json.dumps(data, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(lines) + "\n\n"


@dataclass
class Read:
    """One look at the followed thing for a stream: `text` to send (an event, or "" when
    nothing is new), the version it leaves the stream at, and whether the stream ends."""

    text: str
    version: int | None
    ended: bool = False


def gone(code: str, detail) -> Read:
    """The last event of a stream whose thing is gone (or no longer its device's)."""
    return Read(event("gone", {"code": code, "detail": str(detail)}), None, ended=True)


class Feed:
    """What one stream follows, made for its request once admitted. Its methods are sync,
    run in a reading thread (in the request's language)."""

    key: str  # catalogue.live's key: what wakes this stream
    # `beside` runs at each wake and at least this often (None: never): paletti's presence.
    beside_seconds: float | None = None

    def read(self, since: int | None) -> Read:
        """The event for a device at `since` (None: it has nothing)."""
        raise NotImplementedError

    def version(self) -> int | None:
        """The version now (one small query), or None when the thing is gone."""
        raise NotImplementedError

    def beside(self) -> str:
        """An event beside the updates to send now, or ""."""
        return ""


class _BadInput(Exception):
    def __init__(self, field, detail):
        super().__init__(field)
        self.field = field
        self.detail = detail


def _version(text, name):
    field = serializers.IntegerField(min_value=0, max_value=MAX_VERSION)
    try:
        return field.run_validation(text)
    except serializers.ValidationError:
        raise _BadInput(name, BAD_VERSION) from None


def asked_version(request) -> tuple[int | None, bool]:
    """The version the device has (Last-Event-ID, else ?since=, else none: everything) and
    whether it asked for one answer only. _BadInput for what cannot be read."""
    once = request.GET.get("once", "0")
    if once not in ("0", "1"):
        raise _BadInput("once", BAD_ONCE)
    last_event = request.headers.get("Last-Event-ID")
    since = None
    if "since" in request.GET:
        since = _version(request.GET["since"], "since")
    if last_event is not None:
        since = _version(last_event, "Last-Event-ID")
    return since, once == "1"


def answer(body: dict, status: int, vary: Iterable[str] = ("Cookie",)) -> JsonResponse:
    """A JSON answer of a stream's address (a refusal), never cached for others."""
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, list(vary))
    return response


def _with_connection(function):
    """Run a read in a stream thread; a kept connection the database dropped is opened
    again once (these threads see no request start or end to do it)."""

    def run(*args):
        try:
            return function(*args)
        except (OperationalError, InterfaceError):
            connection.close()
            return function(*args)

    return run


def _speaking(language: str, function):
    def run(*args):
        with translation.override(language):
            return function(*args)

    return run


async def _in_reader(function, *args):
    return await sync_to_async(
        _with_connection(function), thread_sensitive=False, executor=READERS
    )(*args)


async def _in_request_thread(function, *args):
    """A WSGI request's reads: in its own thread and transaction, as any view's."""
    return await sync_to_async(function, thread_sensitive=True)(*args)


class Streams:
    """The streams open in this process (of every kind), bounded by `max_open`."""

    def __init__(self):
        self.open = 0

    def take(self) -> bool:
        if self.open >= live.limits()["max_open"]:
            return False
        self.open += 1
        return True

    def release(self) -> None:
        self.open -= 1


STREAMS = Streams()


async def serve(
    request,
    admit: Callable[..., "Feed | HttpResponse"],
    *,
    too_many,
    vary: Iterable[str] = ("Cookie",),
):
    """A stream's view (async): `admit(request)` (sync, run in a reading thread) gives the
    Feed this requester may follow, or the refusal to answer; `too_many` is the 503's
    detail; `vary` the request headers the answers depend on."""
    vary = list(vary)
    try:
        since, once = asked_version(request)
    except _BadInput as bad:
        return answer({bad.field: [str(bad.detail)]}, 400, vary)
    # Never compressed: GZipMiddleware would make each event a gzip member of its own, and
    # a proxy may hold a compressed stream back.
    request.META.pop("HTTP_ACCEPT_ENCODING", None)
    streaming = isinstance(request, ASGIRequest) and not once
    read = _in_reader if isinstance(request, ASGIRequest) else _in_request_thread
    feed = await read(admit, request)
    if isinstance(feed, HttpResponse):
        return feed
    language = translation.get_language()
    if not streaming:
        first = await read(_speaking(language, feed.read), since)
        body = f"retry: {ONE_SHOT_RETRY_MS}\n\n" + first.text
        return _stream_headers(HttpResponse(body, content_type="text/event-stream"), vary)
    if not STREAMS.take():
        response = answer({"code": "too_many_streams", "detail": str(too_many)}, 503, vary)
        response["Retry-After"] = "5"
        return response
    released = []

    def release():
        if not released:
            released.append(True)
            STREAMS.release()

    events = _events(feed, since, language, release)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response._resource_closers.append(release)
    return _stream_headers(response, vary)


def _stream_headers(response, vary):
    response["Cache-Control"] = "private, no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    patch_vary_headers(response, vary)
    return response


async def _events(feed: Feed, since, language, release):
    settings = live.limits()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings["lifetime_seconds"]
    read = _speaking(language, feed.read)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        with live.HUB.watch(feed.key) as wake:
            first = await _in_reader(read, since)
            if first.text:
                yield first.text
            if first.ended:
                return
            last, written = first.version, loop.time()
            beside_due = loop.time()
            while True:
                keepalive = settings["keepalive_seconds"]
                wait = keepalive if live.HUB.live else settings["poll_seconds"]
                wait = min(wait, deadline - loop.time(), written + keepalive - loop.time())
                if feed.beside_seconds:
                    wait = min(wait, beside_due - loop.time())
                if wait > 0:
                    try:
                        await asyncio.wait_for(wake.wait(), wait)
                    except TimeoutError:
                        pass
                woken = wake.is_set()
                wake.clear()
                if loop.time() >= deadline:
                    return
                try:
                    # Woken (a change, a link replaced, a device come back): read it all
                    # again; polling: only the version, one small query.
                    version = None if woken else await _in_reader(feed.version)
                    if woken or version != last:
                        now = await _in_reader(read, last)
                        if now.text:
                            yield now.text
                            written = loop.time()
                        if now.ended:
                            return
                        last = now.version
                except DatabaseError:
                    pass  # the database away: try again at the next wake or poll
                if feed.beside_seconds and (woken or loop.time() >= beside_due):
                    text = await _in_reader(feed.beside)
                    beside_due = loop.time() + feed.beside_seconds
                    if text:
                        yield text
                        written = loop.time()
                if loop.time() - written >= settings["keepalive_seconds"] - 0.05:
                    yield ": keep-alive\n\n"
                    written = loop.time()
    finally:
        release()
