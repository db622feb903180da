"""A match's event stream (Server-Sent Events), for the devices that follow it.

`GET /api/paletti/matches/<id>/stream/` with the keys of `updates/` (a seat's, the
organiser's, the spectators'). Each event is an `update` whose SSE `id` is the match's
version and whose data is what `updates/` answers (the state as this viewer sees it, and
the missed actions' frames, events and steps, or none when they lie too far back: a
resync), plus `since`, the version its frames start from. A device resumes by sending the
last version it saw, in `Last-Event-ID` (a browser's EventSource does so by itself when it
reconnects) or `?since=`. A match deleted, no longer playable, or whose link this device
holds was replaced ends the stream with a `gone` event (`code`, `detail`).

The view is async and meant for the ASGI server (catalogue.asgi, uvicorn): an open stream
costs a coroutine, not a thread. It waits on paletti.live's wake (Redis pub/sub), or reads
the match's version every second while Redis is away; it sends a comment every 15 s (so
that a proxy keeps it open) and ends after 10 min (the browser reconnects at once). Served
by a WSGI server (gunicorn, runserver) or asked with `?once=1`, it answers what the
device missed, if anything, and ends at once, with `retry: 2000`: an EventSource then asks
again every 2 s, as the polling does.

Its reads run in a small pool of threads of its own (STREAM_READERS), each keeping its
database connection: a process holds that many connections whatever the number of streams.
"""

import asyncio
import json
import threading
from collections import OrderedDict
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

from . import engine, live, messages, seats, services
from .models import Match, SeatKind
from .serializers import state_payload
from .store import SEATS_IN_ORDER

STREAM_READERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="paletti-stream")
# How long the browser waits before reconnecting: after a stream's lifetime, at once; after
# an answer of the WSGI server (one shot), as long as the polling's period.
RETRY_MS = 1000
ONE_SHOT_RETRY_MS = 2000
MAX_VERSION = 2**31 - 1

TOO_MANY = _("Too many devices follow matches on this server right now: try again shortly.")
BAD_VERSION = _("A version is a whole number from 0 to 2147483647.")
BAD_ONCE = _("once is 1 (answer what was missed and end) or 0.")
GONE = _("This match no longer exists.")


def update_payload(match: Match, state, viewer: seats.Viewer, since: int) -> dict:
    """What a device at version `since` is shown of `match` now (updates/ and the stream):
    the state, and the actions after `since` to animate, or none (too far back)."""
    missed = services.catch_up(match, since)
    names = [seat.name for seat in services.seats_of(match)]
    events = messages.translate_events(missed.events, names) if missed else []
    return {
        "version": match.version,
        "state": state_payload(match, state, viewer),
        "frames": missed.frames if missed else [],
        "events": events,
        "steps": (
            messages.translate_steps(missed.steps, events, names, named=True) if missed else []
        ),
    }


def _version(text, name):
    field = serializers.IntegerField(min_value=0, max_value=MAX_VERSION)
    try:
        return field.run_validation(text)
    except serializers.ValidationError:
        raise _BadInput(name, BAD_VERSION) from None


class _BadInput(Exception):
    def __init__(self, field, detail):
        super().__init__(field)
        self.field = field
        self.detail = detail


def _json(body: dict, status: int) -> JsonResponse:
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ["Cookie", seats.TOKEN_HEADER])
    return response


def _error(code, detail, status, **extra) -> JsonResponse:
    return _json({"code": code, "detail": str(detail), **extra}, status)


def _asked_version(request) -> tuple[int | None, bool]:
    """The version the device has (Last-Event-ID, else ?since=, else none: a full state)
    and whether it asked for one answer only. _BadInput for what cannot be read."""
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


def event(name: str, data: dict, version: int | None = None) -> str:
    lines = [f"event: {name}"]
    if version is not None:
        lines.insert(0, f"id: {version}")
    lines.append("data: " + json.dumps(data, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(lines) + "\n\n"


@dataclass
class Read:
    """One look at the match for a stream: `text` to send (an event, or "" when nothing
    is new), the version it leaves the stream at, and whether the stream ends."""

    text: str
    version: int | None
    ended: bool = False


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


def _gone(code, detail) -> Read:
    return Read(event("gone", {"code": code, "detail": str(detail)}), None, ended=True)


class _Recent:
    """The events made lately, by match, versions, viewer and language: the spectators of
    one match, woken together, are sent one event made once."""

    SIZE = 256

    def __init__(self):
        self.lock = threading.Lock()
        self.texts: OrderedDict = OrderedDict()

    def get(self, key):
        with self.lock:
            return self.texts.get(key)

    def put(self, key, text):
        with self.lock:
            self.texts[key] = text
            while len(self.texts) > self.SIZE:
                self.texts.popitem(last=False)


RECENT = _Recent()


def read_update(match_id, since: int | None, keys: list[str], language: str) -> Read:
    """The event for a device at `since` (None: it has nothing), in its language."""
    with translation.override(language):
        try:
            # The snapshot (the largest column) only when this event is not made yet.
            match = (
                Match.objects.defer("snapshot").prefetch_related(SEATS_IN_ORDER).get(pk=match_id)
            )
        except Match.DoesNotExist:
            return _gone("match_gone", GONE)
        seat_rows = services.seats_of(match)
        viewer = seats.viewer_holding(match, seat_rows, keys)
        if not viewer.admitted:
            return _gone("no_seat", seats.REPLACED)
        if since == match.version:
            return Read("", since)
        key = (match_id, match.version, since, viewer.role, viewer.seats, language)
        text = RECENT.get(key)
        if text is None:
            try:
                state = services.load_state(match)
            except engine.OutdatedSnapshot:
                return _gone("outdated_match", messages.OUTDATED_MATCH)
            payload = update_payload(match, state, viewer, since if since is not None else -1)
            payload["since"] = since
            text = event("update", payload, match.version)
            RECENT.put(key, text)
        return Read(text, match.version)


def current_version(match_id) -> int | None:
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first()


async def _in_reader(function, *args):
    return await sync_to_async(
        _with_connection(function), thread_sensitive=False, executor=STREAM_READERS
    )(*args)


async def _in_request_thread(function, *args):
    """A WSGI request's reads: in its own thread and transaction, as any view's."""
    return await sync_to_async(function, thread_sensitive=True)(*args)


@dataclass
class Admission:
    keys: list
    refusal: JsonResponse | None = None
    # The seats this device plays, and every person's seat (presence).
    mine: tuple = ()
    humans: tuple = ()


def admit(request, match_id) -> Admission:
    """Whether the requester holds a key of the match (as updates/ asks), and the keys it
    holds, checked again at each wake."""
    try:
        match = services.get_match(match_id)
    except Match.DoesNotExist:
        return Admission([], _error("not_found", _("No such match."), 404))
    seat_rows = services.seats_of(match)
    try:
        viewer = seats.viewer_of(request, match, seat_rows)
        # The stream never writes the session: a replaced link is forgotten by updates/ or
        # the page, which tell the device so (an EventSource cannot read a refusal's body).
        request.session.modified = False
        if not viewer.admitted:
            detail = seats.REPLACED if viewer.replaced else seats.NO_SEAT
            raise seats.Refused(403, "no_seat", detail)
    except seats.Refused as refusal:
        return Admission([], _error(refusal.code, refusal.detail, refusal.status))
    if not services.playable(match):
        return Admission([], _error("outdated_match", messages.OUTDATED_MATCH, 410))
    humans = tuple(seat.index for seat in seat_rows if seat.kind == SeatKind.HUMAN)
    return Admission(seats.held_keys(request, match), mine=tuple(viewer.seats), humans=humans)


class Streams:
    """The streams open in this process, bounded by PALETTI_LIVE["max_open"]."""

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


async def serve(request, match_id):
    """The stream's view (async); see the module's docstring."""
    try:
        since, once = _asked_version(request)
    except _BadInput as bad:
        return _json({bad.field: [str(bad.detail)]}, 400)
    # Never compressed: GZipMiddleware would make each event a gzip member of its own, and
    # a proxy may hold a compressed stream back.
    request.META.pop("HTTP_ACCEPT_ENCODING", None)
    streaming = isinstance(request, ASGIRequest) and not once
    read = _in_reader if isinstance(request, ASGIRequest) else _in_request_thread
    admission = await read(admit, request, match_id)
    if admission.refusal is not None:
        return admission.refusal
    language = translation.get_language()
    keys, match_id = admission.keys, str(match_id)
    if not streaming:
        first = await read(read_update, match_id, since, keys, language)
        body = f"retry: {ONE_SHOT_RETRY_MS}\n\n" + first.text
        return _stream_headers(HttpResponse(body, content_type="text/event-stream"))
    if not STREAMS.take():
        response = _error("too_many_streams", TOO_MANY, 503)
        response["Retry-After"] = "5"
        return response
    released = []

    def release():
        if not released:
            released.append(True)
            STREAMS.release()

    events = _events(match_id, since, admission, language, release)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response._resource_closers.append(release)
    return _stream_headers(response)


def _stream_headers(response):
    response["Cache-Control"] = "private, no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    patch_vary_headers(response, ["Cookie", seats.TOKEN_HEADER])
    return response


async def _events(match_id, since, admission, language, release):
    settings = live.limits()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings["lifetime_seconds"]
    keys, presence = admission.keys, live.presence_on()
    try:
        yield f"retry: {RETRY_MS}\n\n"
        with live.HUB.watch(match_id) as wake:
            first = await _in_reader(read_update, match_id, since, keys, language)
            if first.text:
                yield first.text
            if first.ended:
                return
            last, written = first.version, loop.time()
            present, presence_due = None, loop.time()
            while True:
                keepalive = settings["keepalive_seconds"]
                wait = keepalive if live.HUB.live else settings["poll_seconds"]
                wait = min(wait, deadline - loop.time(), written + keepalive - loop.time())
                if presence:
                    wait = min(wait, presence_due - loop.time())
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
                    # Woken (an action, a link replaced, a device come back): read the match
                    # and check the keys again; polling: only its version, one small query.
                    version = None if woken else await _in_reader(current_version, match_id)
                    if woken or version != last:
                        read = await _in_reader(read_update, match_id, last, keys, language)
                        if read.text:
                            yield read.text
                            written = loop.time()
                        if read.ended:
                            return
                        last = read.version
                except DatabaseError:
                    pass  # the database away: try again at the next wake or poll
                if presence and (woken or loop.time() >= presence_due):
                    now_present = await _in_reader(
                        live.refresh_presence, match_id, admission.mine, admission.humans
                    )
                    presence_due = loop.time() + live.PRESENCE_REFRESH
                    if now_present is not None and now_present != present:
                        present = now_present
                        seats_now = [{"seat": s, "connected": c} for s, c in present.items()]
                        yield event("presence", {"seats": seats_now})
                        written = loop.time()
                if loop.time() - written >= settings["keepalive_seconds"] - 0.05:
                    yield ": keep-alive\n\n"
                    written = loop.time()
    finally:
        release()
