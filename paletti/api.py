"""Villa Paletti's REST API: create a match, read its state, follow it, post one action at
a time; join by a link, and replace a link. Thin views: who the requester is and what they
may do is paletti.seats, what they are shown paletti.serializers, the match's rules
paletti.services."""

from django.http import Http404
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from catalogue.errors import RETRY_AFTER_SECONDS
from catalogue.parsers import StrictJSONParser

from . import engine, messages, seats, services, stream, timeouts
from .engine.rules import shape
from .models import Match
from .serializers import (
    ActionRequestSerializer,
    ClockChoiceSerializer,
    CreatedMatchSerializer,
    CreateMatchSerializer,
    JoinedSerializer,
    JoinSerializer,
    LinkSerializer,
    MatchStateSerializer,
    ReplacedLinkSerializer,
    UpdatesSerializer,
    ViewerSerializer,
    opening_poses,
    state_payload,
)
from .throttles import EngineLimit, MatchActionThrottle, MatchCreationThrottle, engine_time

REFUSED = {
    400: OpenApiResponse(description="Malformed (a seat's key included)."),
    403: OpenApiResponse(
        description="No key of this match (`no_seat`), a key that is not, or no longer, "
        "one of its (`unknown_seat_token`), or a session's key without the CSRF token "
        "(`csrf_failed`)."
    ),
    404: OpenApiResponse(description="No such match."),
}
SINCE = OpenApiParameter(
    "since",
    OpenApiTypes.INT,
    required=True,
    description="The version this device has (the state's `version`).",
)


def _match_or_404(match_id) -> Match:
    try:
        return services.get_match(match_id)
    except Match.DoesNotExist:
        raise Http404 from None


def _names(match: Match) -> list[str]:
    return [seat.name for seat in services.seats_of(match)]


class MatchAPIView(APIView):
    """The match endpoints know no account: a requester is who the match's keys say it is
    (paletti.seats: the `X-Seat-Token` header, or the session of a browser that set the
    match up or opened a link). They speak JSON only: a game client is their reader, and
    every move would otherwise pay for choosing among formats."""

    authentication_classes = []
    permission_classes = [AllowAny]
    parser_classes = [StrictJSONParser]
    renderer_classes = [JSONRenderer]

    def check_throttles(self, request):
        """A method this view does not answer is a 405 (dispatch says so next), neither
        refused as too many nor counted against the client's rate."""
        method = request.method.lower()
        if method in self.http_method_names and hasattr(self, method):
            super().check_throttles(request)

    def finalize_response(self, request, response, *args, **kwargs):
        # What a match's answer says depends on who asks: no shared cache may keep it.
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Cache-Control"] = "private, no-cache"
        patch_vary_headers(response, ["Cookie", seats.TOKEN_HEADER])
        return response


def _error(code, detail, http_status, **extra):
    return Response({"code": code, "detail": str(detail), **extra}, status=http_status)


def _refused(refusal: seats.Refused):
    return _error(refusal.code, refusal.detail, refusal.status)


def _admitted(request, match, *, writing=False) -> seats.Viewer:
    """The requester in this match; seats.Refused when it holds no key of it."""
    viewer = seats.viewer_of(request, match, services.seats_of(match), writing=writing)
    if not viewer.admitted:
        raise seats.Refused(403, "no_seat", seats.REPLACED if viewer.replaced else seats.NO_SEAT)
    return viewer


def _engine_limited(limit: EngineLimit):
    """429: this address is over its share of the engine; the match is unchanged."""
    detail = messages.ENGINE_BUSY if limit.code == "engine_busy" else messages.ENGINE_BUDGET
    response = _error(limit.code, detail, status.HTTP_429_TOO_MANY_REQUESTS)
    response["Retry-After"] = str(limit.wait)
    return response


def _unknown(detail, **extra):
    """503: the database stopped answering while the write was under way, so it may or
    may not have been stored; the client is told so, and where to look."""
    response = _error("outcome_unknown", detail, status.HTTP_503_SERVICE_UNAVAILABLE, **extra)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


# What writing a move (an action, a clock choice) may raise; _move_refused answers each.
MOVE_REFUSALS = (
    seats.Refused,
    EngineLimit,
    services.OutcomeUnknown,
    services.MatchError,
    engine.OutdatedSnapshot,
    engine.IllegalAction,
)


def _move_refused(error: Exception, *, version: int, rules_status: int) -> Response:
    """The answer when writing a move raised `error` (one of MOVE_REFUSALS); the match is
    unchanged, except after a 503, which cannot tell. `rules_status` answers a move the
    rules refuse: 400 for an action (the request was wrong), 409 for a clock choice (the
    moment was)."""
    match error:
        case seats.Refused():
            return _refused(error)
        case EngineLimit():
            return _engine_limited(error)
        case services.OutcomeUnknown():
            return _unknown(messages.ACTION_OUTCOME_UNKNOWN, version=version)
        case services.MatchGone():
            return _error("match_gone", messages.MATCH_GONE, status.HTTP_404_NOT_FOUND)
        case engine.OutdatedSnapshot():
            return _error("outdated_match", messages.OUTDATED_MATCH, status.HTTP_410_GONE)
        case services.StaleVersion():
            return _error(
                error.code, messages.STALE_VERSION, status.HTTP_409_CONFLICT, version=error.current
            )
        case services.MatchError() | engine.IllegalAction():
            return _error(error.code, messages.refusal(error.code, error.reason), rules_status)
    raise error


class MatchListView(MatchAPIView):
    """Start a Villa Paletti match.

    `players` lists 2 to 4 seats in playing order, each a person (`"kind": "human"`) or a
    bot (`"kind": "bot"`, `"level": "easy"` or `"careful"`); at least one must be a person.
    A person plays on this device (`"device": "shared"`, the default: everyone around one
    screen) or on their own (`"device": "own"`): the answer then carries their seat's link.
    The answer is the organiser's alone: `organiser_token` (this device's key: it acts for
    the persons on the shared device and replaces links; a browser's session keeps it),
    and `links`, one per person on their own device and one for spectators, each with its
    secret after the `#`.
    `options`: `seal_start` (`green`, the French rules, or `blue`, the Polish reading),
    `protest`, `abort` and `colours` (`french`, or `polish` for the Polish text's own rules;
    under `colours: polish` the youngest's colour is thrown and the others choose theirs
    with `take_colour` actions before the first turn), `tremor`
    (a seeded hand tremor in mm, 0–5) and `setup`: `default` (the usual arrangement, five
    columns in each quarter of the base), `random` (columns at seeded points anywhere under
    blue), or the columns as the players arranged them,
    `{"columns": [{"id", "x", "z"} × 20], "blue_x"}` (x and z in mm from the middle of the
    base, z negative at the front; `"lane"`: 0–2 instead of `z` names a row; a set-up the
    server cannot read is a 400 naming the field at fault, `options.setup.columns.3.x`, and
    one the rules refuse a 400 whose `options.setup` gives the reason).
    A `seed` replays a match exactly. `listed` shows the match in the library's lobby,
    where anyone may watch it and replay it once finished (off by default). Bots who act
    first have played when this answers.
    """

    serializer_class = CreateMatchSerializer
    throttle_classes = [MatchCreationThrottle]

    @extend_schema(
        request=CreateMatchSerializer,
        responses={201: CreatedMatchSerializer},
        examples=[
            OpenApiExample(
                "Against a careful bot",
                value={
                    "players": [
                        {"name": "Ada", "kind": "human"},
                        {"name": "Robot", "kind": "bot", "level": "careful"},
                    ],
                    "options": {"seal_start": "green"},
                    "seed": 42,
                },
                request_only=True,
            ),
            OpenApiExample(
                "One person here, one on their own phone",
                value={
                    "players": [
                        {"name": "Ada", "kind": "human"},
                        {"name": "Bo", "kind": "human", "device": "own"},
                    ]
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request):
        serializer = CreateMatchSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        specs = [
            services.SeatSpec(p["name"], p["kind"], p["level"], p["device"])
            for p in data["players"]
        ]
        try:
            outcome = services.create_match(
                seats=specs,
                options=dict(data.get("options") or {}),
                seed=data.get("seed"),
                listed=data["listed"],
                meter=lambda match_id: engine_time(request, match_id),
                clock=data["clock"],
            )
        except EngineLimit as limit:
            return _engine_limited(limit)
        except services.OutcomeUnknown as unknown:
            return _unknown(messages.CREATION_OUTCOME_UNKNOWN, id=str(unknown.match_id))
        match, issued = outcome.match, outcome.secrets
        seats.remember_organiser(request.session, match.pk, issued)
        seat_rows = services.seats_of(match)
        names = _names(match)
        events = messages.translate_events(outcome.events, names)
        return Response(
            {
                "id": str(match.id),
                "state": state_payload(match, outcome.state, seats.organiser_view(seat_rows)),
                "frames": outcome.frames,
                "events": events,
                "steps": messages.translate_steps(outcome.steps, events, names),
                "opening": opening_poses(outcome.opening) if outcome.opening else None,
                "organiser_token": issued.organiser,
                "links": LinkSerializer(seats.links_of(request, match, seat_rows), many=True).data,
            },
            status=status.HTTP_201_CREATED,
        )


class MatchDetailView(MatchAPIView):
    """A match's state as the requester sees it: version, status, whose turn, every
    platform and column, scores, the seal, the winner when over; `seats` (each says
    whether it is `yours`), `viewer` (organiser, player or spectator, and the seats it
    acts for) and `legal_actions`, the complete action objects the requester may post now
    (empty unless it acts for the seat to act)."""

    @extend_schema(
        responses={
            200: MatchStateSerializer,
            **REFUSED,
            410: OpenApiResponse(description="Stored by an earlier engine: no longer playable."),
        }
    )
    def get(self, request, match_id):
        match = _match_or_404(match_id)
        try:
            viewer = _admitted(request, match)
            state = services.load_state(match)
        except seats.Refused as refusal:
            return _refused(refusal)
        except engine.OutdatedSnapshot:
            return _error("outdated_match", messages.OUTDATED_MATCH, status.HTTP_410_GONE)
        return Response(state_payload(match, state, viewer))


class MatchUpdatesView(MatchAPIView):
    """What happened after the version this device has, for a device that follows the
    match (every 2 s while another seat acts): `{"version", "state": null}` when nothing
    has; else the state and the actions' `frames`, `events` and `steps` (as an action's
    answer gives them; empty when they lie too far back), so each is animated once."""

    @extend_schema(
        parameters=[SINCE],
        responses={
            200: UpdatesSerializer,
            **REFUSED,
            410: OpenApiResponse(description="Stored by an earlier engine: no longer playable."),
        },
    )
    def get(self, request, match_id):
        since = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
        try:
            since = since.run_validation(request.query_params.get("since"))
        except serializers.ValidationError as error:
            return Response({"since": error.detail}, status=status.HTTP_400_BAD_REQUEST)
        match = _match_or_404(match_id)
        try:
            viewer = _admitted(request, match)
            if since == match.version:
                nothing = {"state": None, "frames": [], "events": [], "steps": []}
                return Response({"version": match.version, **nothing})
            state = services.load_state(match)
        except seats.Refused as refusal:
            return _refused(refusal)
        except engine.OutdatedSnapshot:
            return _error("outdated_match", messages.OUTDATED_MATCH, status.HTTP_410_GONE)
        return Response(stream.update_payload(match, state, viewer, since))


STREAM_SINCE = OpenApiParameter(
    "since",
    OpenApiTypes.INT,
    required=False,
    description="The version this device has (the state's `version`); `Last-Event-ID`, "
    "when sent, takes its place. Without either, the first event is the whole state.",
)
LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    required=False,
    description="The `id` of the last event this device received, which is the match's "
    "version: a browser's EventSource sends it by itself when it reconnects.",
)
ONCE = OpenApiParameter(
    "once",
    OpenApiTypes.INT,
    required=False,
    enum=[0, 1],
    description="1: answer what this device missed, if anything, and end at once.",
)


class MatchStreamView(MatchAPIView):
    """Follow a match as it is played: a stream of Server-Sent Events (`text/event-stream`),
    with the keys `updates/` takes (a seat's, the organiser's, the spectators').

    Each `update` event's `id` is the match's version and its `data` is what `updates/`
    answers (the state as this viewer sees it; the actions' `frames`, `events` and `steps`
    to animate, empty when they lie too far back: a full resync), plus `since`, the version
    those frames start from. **Resume**: send the last version seen in `Last-Event-ID`
    (an EventSource does it by itself) or `?since=`; the first event then carries what was
    missed; without either, the whole state. A `presence` event (no `id`) says, when it
    changes, which persons' seats have a device connected (`seats`: `seat`, `connected`; a
    closed tab is away about 10 s later; with Redis only). A `gone` event (`code`: `match_gone`,
    `no_seat` when this device's link was replaced, `outdated_match`) ends it.
    A comment (`: keep-alive`) comes every 15 s; the stream ends after 10 minutes and
    `retry:` says when to reconnect. Served by the ASGI server (catalogue.asgi); a WSGI
    server, or `?once=1`, answers what was missed and ends at once (`retry: 2000`).
    Over the streams one process serves at once: 503 `too_many_streams`, `Retry-After`.
    """

    @classmethod
    def as_view(cls, **initkwargs):
        """An async view (paletti.stream.serve), not DRF's sync dispatch: an open stream
        must hold no thread. The class stays for the schema."""

        async def view(request, match_id):
            return await stream.serve(request, match_id)

        view.cls = cls
        view.initkwargs = initkwargs
        view.csrf_exempt = True
        return view

    @extend_schema(
        parameters=[STREAM_SINCE, LAST_EVENT_ID, ONCE],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                inline_serializer(
                    "MatchStreamEvent",
                    {
                        "id": serializers.RegexField(
                            r"^[0-9]+$",
                            required=False,
                            help_text="The match's version after this event.",
                        ),
                        "event": serializers.ChoiceField(choices=["update", "presence", "gone"]),
                        "data": serializers.CharField(
                            help_text="JSON: for `update`, what `updates/` answers plus "
                            "`since`; for `presence`, `seats`; for `gone`, `code` and `detail`."
                        ),
                        "retry": serializers.IntegerField(
                            required=False, help_text="Milliseconds before reconnecting."
                        ),
                    },
                ),
                description="Each item is one event (`retry: 1000` comes first, then "
                "`id: <version>`, `event: update`, `data: <JSON>`).",
            ),
            400: OpenApiResponse(description="`since`, `Last-Event-ID` or `once` unreadable."),
            403: REFUSED[403],
            404: REFUSED[404],
            410: OpenApiResponse(description="Stored by an earlier engine: no longer playable."),
            503: OpenApiResponse(description="Too many open streams (`too_many_streams`)."),
        },
    )
    def get(self, request, match_id):  # pragma: no cover (as_view serves stream.serve)
        raise NotImplementedError


class MatchActionView(MatchAPIView):
    """Play one action: `{"version": n, "action": <an object from legal_actions>}`, for a
    seat the requester acts for (the organiser's device for the persons on it, a seat's
    link for that seat).

    Answers `{state, frames, events, steps}`, with the bots' answers already played and
    their frames appended. `steps` has one entry per action in order (the person's, then
    each bot's): `seat`, `name`, `by_bot`, `type`, the `[start, end)` slices of `frames`
    and `events` it produced, and `lines`, what it did in sentences (a bot's first one
    names it). A stale version is a 409 (the match moved on: reload it); an action
    the rules refuse now is a 400 whose `detail` says why; an action for a seat the
    requester does not act for is a 403 (`not_your_seat`, `spectator`, `no_seat`); in
    each case the match is unchanged.
    """

    throttle_classes = [MatchActionThrottle]

    @extend_schema(
        request=ActionRequestSerializer,
        responses={
            200: inline_serializer(
                "ActionResult",
                {
                    "state": MatchStateSerializer(),
                    "frames": serializers.ListField(),
                    "events": serializers.ListField(),
                    "steps": serializers.ListField(),
                },
            ),
            400: OpenApiResponse(description="Malformed, or refused by the rules."),
            403: OpenApiResponse(
                description="Not a seat this requester acts for: another's turn "
                "(`not_your_seat`), a spectator's link (`spectator`), no key of this match "
                "(`no_seat`), a key that is not its (`unknown_seat_token`), or a session's "
                "key without the CSRF token (`csrf_failed`). The match is unchanged."
            ),
            404: OpenApiResponse(description="No such match."),
            409: OpenApiResponse(description="Stale version."),
            410: OpenApiResponse(description="Stored by an earlier engine: no longer playable."),
        },
    )
    def post(self, request, match_id):
        match = _match_or_404(match_id)
        serializer = ActionRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            action = shape.check(serializer.validated_data["action"])
        except shape.BadAction as error:
            return _error(error.code, messages.bad_action(error), 400, **error.where)
        version = serializer.validated_data["version"]
        try:
            viewer = _admitted(request, match, writing=True)
            refusal = seats.refuse_to_act(viewer)
            if refusal:
                return _refused(refusal)
            outcome = services.play(
                match=match,
                version=version,
                action=action,
                acting_for=viewer.seats,
                meter=lambda match_id: engine_time(request, match_id),
            )
        except services.NotYourSeat as other:
            return _refused(seats.not_your_seat(_names(match)[other.seat]))
        except MOVE_REFUSALS as error:
            return _move_refused(error, version=version, rules_status=status.HTTP_400_BAD_REQUEST)
        names = _names(outcome.match)
        events = messages.translate_events(outcome.events, names)
        return Response(
            {
                "state": state_payload(outcome.match, outcome.state, viewer),
                "frames": outcome.frames,
                "events": events,
                "steps": messages.translate_steps(outcome.steps, events, names),
            }
        )


class MatchJoinView(MatchAPIView):
    """Take a seat, or a spectator's place, on this device: `{"token": <the secret after
    the # of the link>}`. The session keeps it for this match from now on (the join page
    posts it, then opens `url`, the match's page, which carries no secret). An API client
    sends the secret as `X-Seat-Token` instead, and needs no join."""

    throttle_classes = [MatchActionThrottle]

    @extend_schema(
        request=JoinSerializer,
        responses={
            200: JoinedSerializer,
            400: OpenApiResponse(description="Malformed."),
            403: OpenApiResponse(
                description="Not, or no longer, a key of this match (`unknown_seat_token`), "
                "or no CSRF token (`csrf_failed`)."
            ),
            404: OpenApiResponse(description="No such match."),
        },
    )
    def post(self, request, match_id):
        match = _match_or_404(match_id)
        serializer = JoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        secret = serializer.validated_data["token"]
        if seats.csrf_refusal(request):
            return _refused(seats.Refused(403, "csrf_failed", seats.CSRF_FAILED))
        granted = seats.grants(match, services.seats_of(match), secret)
        if granted is None:
            return _refused(seats.Refused(403, "unknown_seat_token", seats.UNKNOWN_TOKEN))
        seats.remember(request.session, match.pk, secret)
        viewer = seats.viewer_of(request, match, services.seats_of(match))
        return Response(
            {
                "viewer": ViewerSerializer(viewer).data,
                "url": reverse("paletti:match", kwargs={"match_id": match.pk}),
            }
        )


class MatchLinkView(MatchAPIView):
    """Replace a link, for the match's organiser alone: `which` is a seat's number (a
    person on their own device) or `spectator`. The old link stops working at once, on
    every device that opened it; the answer carries the new one."""

    throttle_classes = [MatchActionThrottle]

    @extend_schema(
        request=None,
        parameters=[
            OpenApiParameter(
                "which",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                pattern=r"^(spectator|[0-3])$",
                description="A seat's number, or `spectator`.",
            )
        ],
        responses={
            200: ReplacedLinkSerializer,
            400: OpenApiResponse(description="Not a seat with a link of its own (`no_link`)."),
            403: OpenApiResponse(
                description="Not the organiser (`not_organiser`), or a key refused as for "
                "any request."
            ),
            404: OpenApiResponse(description="No such match."),
        },
    )
    def post(self, request, match_id, which):
        match = _match_or_404(match_id)
        seat_rows = services.seats_of(match)
        try:
            viewer = _admitted(request, match, writing=True)
            if not viewer.organiser:
                raise seats.Refused(403, "not_organiser", seats.NOT_ORGANISER)
            seat = seats.link_target(which, seat_rows)
        except seats.Refused as refusal:
            return _refused(refusal)
        secret = services.replace_link(match=match, seat=seat)
        seats.remember_links(request.session, match.pk, {which: secret})
        link = seats.link_for(request, match, seat_rows, seat, secret)
        return Response({"link": LinkSerializer(link).data, "token": secret})


# The turn clock ---------------------------------------------------------------------------


class MatchClockView(MatchAPIView):
    """When a seat is out of time (the state's `clock.out_of_time`), another seat's
    device or the organiser's may choose, by `{"version": n, "choice": ...}`: `skip` (the
    seat's turn ends as a pass would: it passes, declines to protest, or puts back the
    column it touched) or `bot` (a careful bot plays that seat from now on; its link stops
    working). Both are written in the match's log. Answers like an action:
    `{state, frames, events, steps}`, the bots' answers played.

    403 for a spectator (`spectator`) or the seat's own link (`own_seat`); 409 when the
    version is stale (`stale_version`), the match has no clock (`no_clock`), nobody is out
    of time (`not_out_of_time`), or the turn is one only its player can end (`no_skip`:
    hand it to a bot instead). The match is then unchanged."""

    throttle_classes = [MatchActionThrottle]

    @extend_schema(
        request=ClockChoiceSerializer,
        responses={
            200: inline_serializer(
                "ClockChoiceResult",
                {
                    "state": MatchStateSerializer(),
                    "frames": serializers.ListField(),
                    "events": serializers.ListField(),
                    "steps": serializers.ListField(),
                },
            ),
            400: OpenApiResponse(description="Malformed."),
            403: OpenApiResponse(
                description="A spectator (`spectator`), the seat's own link (`own_seat`), "
                "or a key refused as for any request."
            ),
            404: OpenApiResponse(description="No such match."),
            409: OpenApiResponse(
                description="Stale version, no clock, nobody out of time, or a turn that "
                "cannot be skipped now."
            ),
            410: OpenApiResponse(description="Stored by an earlier engine: no longer playable."),
        },
    )
    def post(self, request, match_id):
        match = _match_or_404(match_id)
        serializer = ClockChoiceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = serializer.validated_data["version"]
        choose = (
            timeouts.skip_turn
            if serializer.validated_data["choice"] == timeouts.SKIP
            else timeouts.hand_to_bot
        )
        try:
            viewer = _admitted(request, match, writing=True)
            outcome = choose(
                match=match,
                version=version,
                viewer=viewer,
                meter=lambda match_id: engine_time(request, match_id),
            )
        except timeouts.NotOutOfTime as refused:
            return _error(refused.code, refused.reason, status.HTTP_409_CONFLICT)
        except MOVE_REFUSALS as error:
            return _move_refused(error, version=version, rules_status=status.HTTP_409_CONFLICT)
        names = _names(outcome.match)
        events = messages.translate_events(outcome.events, names)
        viewer = _admitted(request, outcome.match)
        return Response(
            {
                "state": state_payload(outcome.match, outcome.state, viewer),
                "frames": outcome.frames,
                "events": events,
                "steps": messages.translate_steps(outcome.steps, events, names, named=True),
            }
        )
