"""A match's event stream (Server-Sent Events), for the devices that follow it.

`GET /api/paletti/matches/<id>/stream/` with the keys of `updates/` (a seat's, the
organiser's, the spectators'). Each event is an `update` whose SSE `id` is the match's
version and whose data is what `updates/` answers (the state as this viewer sees it, and
the missed actions' frames, events and steps, or none when they lie too far back: a
resync), plus `since`, the version its frames start from. A device resumes by sending the
last version it saw, in `Last-Event-ID` (a browser's EventSource does so by itself when it
reconnects) or `?since=`. A match deleted, no longer playable, or whose link this device
holds was replaced ends the stream with a `gone` event (`code`, `detail`).

The stream itself (the async view for the ASGI server, the wake through Redis or the
polling without it, the comment every 15 s, the end after 10 min, the one answer of a WSGI
server or of `?once=1`, the bound per process) is catalogue.streams': this module says
who may follow a match (`admit`) and what each event says (`MatchFeed`), and adds the
`presence` events.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

from django.http import JsonResponse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from catalogue import streams
from catalogue.streams import Read, event, gone

from . import engine, live, messages, seats, services
from .models import Match, SeatKind
from .serializers import state_payload
from .store import SEATS_IN_ORDER

TOO_MANY = _("Too many devices follow matches on this server right now: try again shortly.")
GONE = _("This match no longer exists.")
VARY = ["Cookie", seats.TOKEN_HEADER]


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


def _error(code, detail, status, **extra):
    return streams.answer({"code": code, "detail": str(detail), **extra}, status, VARY)


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
            return gone("match_gone", GONE)
        seat_rows = services.seats_of(match)
        viewer = seats.viewer_holding(match, seat_rows, keys)
        if not viewer.admitted:
            return gone("no_seat", seats.REPLACED)
        if since == match.version:
            return Read("", since)
        key = (match_id, match.version, since, viewer.role, viewer.seats, language)
        text = RECENT.get(key)
        if text is None:
            try:
                state = services.load_state(match)
            except engine.OutdatedSnapshot:
                return gone("outdated_match", messages.OUTDATED_MATCH)
            payload = update_payload(match, state, viewer, since if since is not None else -1)
            payload["since"] = since
            text = event("update", payload, match.version)
            RECENT.put(key, text)
        return Read(text, match.version)


def current_version(match_id) -> int | None:
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first()


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


class MatchFeed(streams.Feed):
    """A device following a match: its updates as it sees them, and, where Redis is, who
    is connected (a `presence` event when that changes)."""

    def __init__(self, match_id, admission: Admission):
        self.match_id = str(match_id)
        self.key = live.key(self.match_id)
        self.admission = admission
        self.present = None
        if live.presence_on():
            self.beside_seconds = live.PRESENCE_REFRESH

    def read(self, since):
        return read_update(self.match_id, since, self.admission.keys, translation.get_language())

    def version(self):
        return current_version(self.match_id)

    def beside(self) -> str:
        admission = self.admission
        present = live.refresh_presence(self.match_id, admission.mine, admission.humans)
        if present is None or present == self.present:
            return ""
        self.present = present
        seats_now = [{"seat": s, "connected": c} for s, c in present.items()]
        return event("presence", {"seats": seats_now})


def _feed(request, match_id):
    admission = admit(request, match_id)
    if admission.refusal is not None:
        return admission.refusal
    return MatchFeed(match_id, admission)


async def serve(request, match_id):
    """The stream's view (async); see the module's docstring."""
    return await streams.serve(
        request, lambda request: _feed(request, match_id), too_many=TOO_MANY, vary=VARY
    )
