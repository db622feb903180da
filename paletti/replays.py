"""Replays of finished matches: the villa as it stood after any action, stepped back and
forth, each action at its own address (`?at=N`).

A state shown is rebuilt with the engine from the match's seed, seats, options and log
(the database's truth), never drawn from the frames, and checked against what was
recorded: each action's log row keeps the hash of the state it led to (`told["hash"]`,
for matches played since it was kept) and the match keeps the hash of its last state.
The rebuilt snapshots of a match are kept in the shared cache for an hour, so that a
click back or forth reads one of them rather than replaying the whole log again.

Who may replay: anyone, a match its organiser showed in the lobby; otherwise whoever
holds one of its keys (paletti.seats). Only a finished match is replayed: one being
played is watched on its play page instead.
"""

from contextlib import nullcontext
from dataclasses import dataclass

from django.core.cache import cache
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from . import engine, messages, seats, services
from .api import MatchAPIView
from .messages import piece_names
from .models import Match, MatchStatus
from .serializers import MatchStateSerializer, state_payload
from .throttles import EngineLimit, engine_time

CACHE_SECONDS = 3600
# The largest `at` the API reads (the log's length is checked next): a bigger number is
# not an action of any match.
MAX_AT = 2**31 - 1

NOT_FINISHED = _("This match is still being played: it can be replayed once it is over.")
BAD_AT = _("“at” is the number of an action of this match, from 0 (the start) to %(last)s.")


@dataclass(frozen=True)
class Rebuilt:
    """A match's states rebuilt from its log: `snapshots[n]` and `hashes[n]` after action
    n (0: before the first); `recorded[n]` the hash the log kept for it (None where it
    kept none); `told[n]` what action n showed (its frames, events and step; {} at 0)."""

    snapshots: list[bytes]
    hashes: list[str]
    recorded: list[str | None]
    told: list[dict]

    @property
    def last(self) -> int:
        return len(self.snapshots) - 1

    def matches_record(self, at: int) -> bool | None:
        """Whether the state after action `at` is the one recorded (None: none kept)."""
        recorded = self.recorded[at]
        return None if recorded is None else recorded == self.hashes[at]


class ReplayRefused(Exception):
    """Why this replay cannot be shown: `status`, `code` and `detail` for the answer."""

    def __init__(self, status_code: int, code: str, detail):
        super().__init__(code)
        self.status = status_code
        self.code = code
        self.detail = detail


def _cache_key(match: Match) -> str:
    # The state hash is in the key: a match whose log grew (it cannot once finished, but
    # a cached entry must never outlive what it was rebuilt from) gets a new entry.
    return f"paletti:replay:{match.pk}:{match.version}:{match.state_hash}"


def rebuild(match: Match) -> Rebuilt:
    """Every state of `match`, from its seed through its log, with the hashes recorded
    as it was played (the match's own hash for the last one)."""
    names = [seat.name for seat in services.seats_of(match)]
    rows = list(match.actions.order_by("number").values_list("action", "told"))
    state = engine.new_match(match.seed, names, match.options)
    snapshot, digest = engine.snapshot_and_hash(state)
    snapshots, hashes, recorded, told = [snapshot], [digest], [None], [{}]
    for action, shown in rows:
        state = engine.apply_action(state, action, record=False).state
        snapshot, digest = engine.snapshot_and_hash(state)
        shown = shown if isinstance(shown, dict) else {}
        snapshots.append(snapshot)
        hashes.append(digest)
        recorded.append(shown.get("hash"))
        told.append(shown)
    recorded[-1] = match.state_hash
    return Rebuilt(snapshots, hashes, recorded, told)


def _no_meter(_match_id):
    return nullcontext()


def rebuilt(match: Match, meter=_no_meter) -> Rebuilt:
    """The match's rebuilt states, from the cache or rebuilt now (within `meter`)."""
    key = _cache_key(match)
    found = cache.get(key)
    if isinstance(found, Rebuilt):
        return found
    with meter(match.pk):
        made = rebuild(match)
    cache.set(key, made, CACHE_SECONDS)
    return made


def admit(request, match: Match) -> seats.Viewer:
    """The viewer of a replay: ReplayRefused for one who may not see it, or a match that
    cannot be replayed (still played, or stored by an earlier engine)."""
    try:
        viewer = seats.viewer_of(request, match, services.seats_of(match))
    except seats.Refused as refusal:
        raise ReplayRefused(refusal.status, refusal.code, refusal.detail) from None
    if not viewer.admitted:
        raise ReplayRefused(403, "no_seat", seats.REPLACED if viewer.replaced else seats.NO_SEAT)
    if not services.playable(match):
        raise ReplayRefused(410, "outdated_match", messages.OUTDATED_MATCH)
    if match.status != MatchStatus.FINISHED:
        raise ReplayRefused(409, "not_finished", NOT_FINISHED)
    return viewer


# Whoever looks at a replay acts for nobody: the state lists no action to post.
WATCHING = seats.Viewer(spectator=True)


def step_payload(match: Match, made: Rebuilt, at: int) -> dict:
    """The replay after action `at`: the state as it was then, the action's frames (from
    the state before it), its events and its sentences in the active language, and
    whether the state is the recorded one."""
    state = engine.load(made.snapshots[at])
    view = state_payload(match, state, WATCHING)
    playing = state.rules.phase != engine.Phase.OVER
    view.update(version=at, status=MatchStatus.PLAYING if playing else MatchStatus.FINISHED)
    names = [seat.name for seat in services.seats_of(match)]
    told = made.told[at]
    events, steps = [], []
    if told.get("step"):
        frames, raw_events, raw_steps = services.join_told([told])
        events = messages.translate_events(raw_events, names)
        steps = messages.translate_steps(raw_steps, events, names, named=True)
    return {
        "at": at,
        "last": made.last,
        "state": view,
        "frames": told.get("frames", []) if told.get("step") else [],
        "events": events,
        "steps": steps,
        "lines": [line for step in steps for line in step["lines"]],
        "hash": made.hashes[at],
        "recorded_hash": made.recorded[at],
        "matches_record": made.matches_record(at),
    }


def action_list(match: Match, made: Rebuilt) -> list[dict]:
    """Every action of the match, in order, in a sentence or two: the replay's contents."""
    names = [seat.name for seat in services.seats_of(match)]
    listed = []
    for at in range(1, made.last + 1):
        told = made.told[at]
        lines = []
        if told.get("step"):
            _frames, raw_events, raw_steps = services.join_told([told])
            events = messages.translate_events(raw_events, names)
            steps = messages.translate_steps(raw_steps, events, names, named=True)
            lines = [line for step in steps for line in step["lines"]]
        listed.append({"at": at, "text": " ".join(str(line) for line in lines[:2])})
    return listed


def _match_or_404(match_id) -> Match:
    try:
        return services.get_match(match_id)
    except Match.DoesNotExist:
        raise Http404 from None


def replay_url(match_id, at: int) -> str:
    return reverse("paletti:replay", kwargs={"match_id": match_id}) + f"?at={at}"


# The page -------------------------------------------------------------------------------


def page(request, match_id):
    """A finished match replayed action by action (`?at=N`, 0: the start). A number out
    of the log's range goes to the nearest action; a match still played goes to its play
    page, where it is watched."""
    match = _match_or_404(match_id)
    try:
        admit(request, match)
    except ReplayRefused as refusal:
        if refusal.code == "not_finished":
            return redirect(match.get_absolute_url())
        if refusal.code == "outdated_match":
            return render(request, "paletti/outdated.html", {"match": match}, status=410)
        return render(request, "paletti/no_seat.html", {"reason": refusal.detail}, status=403)
    raw = request.GET.get("at", "0")
    text = raw[1:] if raw.startswith("-") else raw
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        return render(
            request,
            "paletti/replay_error.html",
            {"match": match, "reason": BAD_AT % {"last": match.version}},
            status=400,
        )
    at = int(raw)
    if not 0 <= at <= match.version:
        return redirect(replay_url(match.pk, min(max(at, 0), match.version)))
    try:
        made = rebuilt(match, meter=lambda match_id: engine_time(request, match_id))
    except EngineLimit as limit:
        response = render(
            request,
            "paletti/replay_error.html",
            {"match": match, "reason": messages.ENGINE_BUSY},
            status=429,
        )
        response["Retry-After"] = str(limit.wait)
        return response
    return render(
        request,
        "paletti/replay.html",
        {
            "match": match,
            "step": step_payload(match, made, at),
            "actions": action_list(match, made),
            "names": piece_names(),
        },
    )


# The API --------------------------------------------------------------------------------


def _error(code, detail, http_status, **extra):
    return Response({"code": code, "detail": str(detail), **extra}, status=http_status)


class ReplayStepSerializer(serializers.Serializer):
    """The replay of a finished match after one action."""

    at = serializers.IntegerField(help_text="The action shown: 0 is the start.")
    last = serializers.IntegerField(help_text="The match's last action (its version).")
    state = MatchStateSerializer(
        help_text="The state after action `at`, as it was then (`version` is `at`; "
        "`legal_actions` always empty: a replay acts for nobody)."
    )
    frames = serializers.ListField(
        child=serializers.DictField(), help_text="Action `at`'s motion, from the state before."
    )
    events = serializers.ListField(child=serializers.DictField())
    steps = serializers.ListField(child=serializers.DictField())
    lines = serializers.ListField(
        child=serializers.CharField(), help_text="What action `at` did, in sentences."
    )
    hash = serializers.CharField(help_text="The rebuilt state's hash.")
    recorded_hash = serializers.CharField(
        allow_null=True, help_text="The hash recorded when the action was played, if kept."
    )
    matches_record = serializers.BooleanField(
        allow_null=True,
        help_text="Whether the rebuilt state is the recorded one (null: none was kept).",
    )


AT = OpenApiParameter(
    "at",
    OpenApiTypes.INT,
    required=False,
    description="The action after which to show the match: 0 (the start, the default) to "
    "the match's version.",
)


class MatchReplayView(MatchAPIView):
    """A finished match as it stood after action `at`, rebuilt with the engine from its
    seed and log and checked against the state recorded when it was played. A match
    shown in the lobby is replayed by anyone; another by whoever holds one of its keys.
    A match still being played is a 409 (watch it instead)."""

    @extend_schema(
        parameters=[AT],
        responses={
            200: ReplayStepSerializer,
            400: OpenApiResponse(description="`at` is not one of the match's actions."),
            403: OpenApiResponse(description="An unlisted match, and no key of it."),
            404: OpenApiResponse(description="No such match."),
            409: OpenApiResponse(description="Still being played (`not_finished`)."),
            410: OpenApiResponse(description="Stored by an earlier engine."),
            429: OpenApiResponse(description="This address is over its share of the engine."),
        },
    )
    def get(self, request, match_id):
        match = _match_or_404(match_id)
        try:
            admit(request, match)
        except ReplayRefused as refusal:
            return _error(refusal.code, refusal.detail, refusal.status)
        field = serializers.IntegerField(min_value=0, max_value=MAX_AT)
        try:
            at = field.run_validation(request.query_params.get("at", "0"))
        except serializers.ValidationError:
            at = -1
        if not 0 <= at <= match.version:
            detail = BAD_AT % {"last": match.version}
            return _error("bad_at", detail, status.HTTP_400_BAD_REQUEST, last=match.version)
        try:
            made = rebuilt(match, meter=lambda match_id: engine_time(request, match_id))
        except EngineLimit as limit:
            response = _error(limit.code, messages.ENGINE_BUSY, status.HTTP_429_TOO_MANY_REQUESTS)
            response["Retry-After"] = str(limit.wait)
            return response
        return Response(step_payload(match, made, at))
