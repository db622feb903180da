"""Villa Paletti's REST API: create a match, read its state, post one action at a time."""

from django.http import Http404
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from catalogue.errors import RETRY_AFTER_SECONDS
from catalogue.fields import (
    OneOfField,
    StrictCharField,
    StrictFloatField,
    StrictIntegerField,
)
from catalogue.parsers import StrictJSONParser
from catalogue.schema import refuses_unknown_keys

from . import arrangement, engine, messages, services
from .engine.pieces import LANES
from .engine.rules import shape
from .models import BotLevel, Match, SeatKind
from .throttles import EngineLimit, MatchActionThrottle, MatchCreationThrottle, engine_time

MAX_TREMOR_MM = 5.0


@refuses_unknown_keys
class PlayerSerializer(serializers.Serializer):
    name = StrictCharField(min_length=1, max_length=40, trim_whitespace=True)
    kind = serializers.ChoiceField(choices=SeatKind.choices, default=SeatKind.HUMAN)
    level = serializers.ChoiceField(choices=BotLevel.choices, required=False)

    def validate(self, attrs):
        if attrs["kind"] == SeatKind.BOT:
            attrs.setdefault("level", BotLevel.CAREFUL)
        elif attrs.get("level"):
            raise serializers.ValidationError({"level": messages.PERSON_HAS_NO_LEVEL})
        else:
            attrs["level"] = ""
        return attrs


SETUP_SHORTCUTS = ("default", "random")
# Farther from the middle of the base than any piece can stand (mm): a figure past it can
# only be a mistake, and the rules would refuse it anyway.
MAX_MM = 1e6
MALFORMED = {"invalid": messages.SETUP_ERRORS["malformed"]}


def _mm(help_text: str) -> StrictFloatField:
    return StrictFloatField(min_value=-MAX_MM, max_value=MAX_MM, help_text=help_text)


def _column_id() -> StrictIntegerField:
    return StrictIntegerField(min_value=0, max_value=len(engine.COLUMNS) - 1)


@refuses_unknown_keys
class LaneColumnSerializer(serializers.Serializer):
    """A column in one of the three depth rows."""

    default_error_messages = MALFORMED
    id = _column_id()
    x = _mm("mm from the middle")
    lane = StrictIntegerField(
        min_value=min(LANES),
        max_value=max(LANES),
        error_messages={
            "min_value": messages.SETUP_ERRORS["bad_lane"],
            "max_value": messages.SETUP_ERRORS["bad_lane"],
        },
    )


@refuses_unknown_keys
class DepthColumnSerializer(serializers.Serializer):
    """A column at a depth in mm (negative: the front)."""

    default_error_messages = MALFORMED
    id = _column_id()
    x = _mm("mm from the middle")
    z = _mm("mm from the middle")


class SetupColumnField(OneOfField):
    """A column where the players stood it: in a row (`lane`) or at a depth (`z`)."""

    def __init__(self, **kwargs):
        super().__init__(shapes=[LaneColumnSerializer(), DepthColumnSerializer()], **kwargs)

    def shape_for(self, data):
        lane, depth = self.shapes
        return depth if isinstance(data, dict) and "z" in data else lane


@refuses_unknown_keys
class ArrangedSetupSerializer(serializers.Serializer):
    """Where the players stood each column, and where blue lies on them."""

    default_error_messages = MALFORMED
    columns = serializers.ListField(
        child=SetupColumnField(),
        min_length=len(engine.COLUMNS),
        max_length=len(engine.COLUMNS),
        error_messages={
            "min_length": messages.SETUP_ERRORS["columns_missing"],
            "max_length": messages.SETUP_ERRORS["columns_missing"],
        },
    )
    blue_x = _mm("blue's centre, mm")


class SetupField(OneOfField):
    """The columns as the players arranged them before blue is laid (French record: "comme
    ils le souhaitent"), or a shortcut: "default" or "random". A shape it cannot read is
    refused field by field (`columns.3.x`); an arrangement the rules refuse is refused with
    the rule's reason, naming the column at fault, as the field's own error."""

    def __init__(self, **kwargs):
        shortcut = serializers.ChoiceField(
            choices=SETUP_SHORTCUTS,
            error_messages={"invalid_choice": messages.SETUP_ERRORS["unknown_setup"]},
        )
        super().__init__(shapes=[shortcut, ArrangedSetupSerializer()], **kwargs)

    def shape_for(self, data):
        shortcut, arranged = self.shapes
        return shortcut if isinstance(data, str) else arranged

    def to_internal_value(self, data):
        setup = super().to_internal_value(data)
        if isinstance(setup, str):
            return setup
        setup = {"columns": [dict(c) for c in setup["columns"]], "blue_x": setup["blue_x"]}
        try:
            engine.validate_setup(setup)
        except engine.SetupError as error:
            named = arrangement.columns_at_fault(error.code, setup)
            raise serializers.ValidationError(
                messages.setup_error(error.code, error.reason, named)
            ) from error
        return setup


@refuses_unknown_keys
class OptionsSerializer(serializers.Serializer):
    seal_start = serializers.ChoiceField(choices=["green", "blue"], default="green")
    protest = serializers.ChoiceField(choices=["french", "polish"], default="french")
    abort = serializers.ChoiceField(choices=["french", "polish"], default="french")
    colours = serializers.ChoiceField(choices=["french", "polish"], default="french")
    tremor = StrictFloatField(min_value=0.0, max_value=MAX_TREMOR_MM, default=0.0)
    setup = SetupField(default="default")


PLAYERS = {"min_length": 2, "max_length": 4}


@refuses_unknown_keys
class CreateMatchSerializer(serializers.Serializer):
    players = PlayerSerializer(
        many=True,
        **PLAYERS,
        error_messages={"min_length": messages.PLAYER_COUNT, "max_length": messages.PLAYER_COUNT},
    )
    options = OptionsSerializer(required=False)
    seed = serializers.IntegerField(min_value=0, max_value=2**62, required=False)

    def validate_players(self, players):
        if not 2 <= len(players) <= 4:
            raise serializers.ValidationError(messages.PLAYER_COUNT)
        if all(p["kind"] == SeatKind.BOT for p in players):
            raise serializers.ValidationError(messages.NEED_A_PERSON)
        return players


@extend_schema_field(shape.json_schema())
class ActionField(serializers.DictField):
    """An action: its schema is written from the engine's own table of action shapes
    (paletti/engine/rules/shape.py), which the view checks the action against, so the
    schema says exactly what is accepted."""


@refuses_unknown_keys
class ActionRequestSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
    action = ActionField(help_text="One of the objects listed in `legal_actions`.")


def state_payload(match: Match, state: engine.State) -> dict:
    """The state a client sees: the engine's view plus the match's seats and version."""
    view = engine.state_to_json(state)
    rules = state.rules
    seats = services.seats_of(match)
    playing = rules.phase != engine.Phase.OVER
    to_act = rules.to_act if playing else None
    human_to_act = to_act is not None and seats[to_act].kind == SeatKind.HUMAN
    for player, seat in zip(view["players"], seats, strict=True):
        player.update(kind=seat.kind, level=seat.level)
    view.update(
        id=str(match.id),
        version=match.version,
        status=match.status,
        turn=to_act,
        turn_player=rules.turn,
        seats=view["players"],
        legal_actions=engine.legal_actions(state) if human_to_act else [],
        end_reason_text=messages.end_reason(view, [seat.name for seat in seats]),
    )
    if view.get("touched"):
        # Rounded once, here: the page and the narration show the same figure.
        view["touched"]["grams"] = messages.grams(view["touched"]["load"])
    return view


def opening_poses(state: engine.State) -> dict:
    """Where the pieces stood before the bots' first actions (front and side poses), for a
    page to animate those actions from."""
    view = engine.state_to_json(state)
    column_keys = ("id", "x", "y", "angle", "side", "removed", "in_hand")
    platform_keys = ("index", "laid", "x", "y", "angle", "side")
    return {
        "columns": [{k: c[k] for k in column_keys} for c in view["columns"]],
        "platforms": [{k: p[k] for k in platform_keys} for p in view["platforms"]],
    }


def _match_or_404(match_id) -> Match:
    try:
        return services.get_match(match_id)
    except Match.DoesNotExist:
        raise Http404 from None


def _names(match: Match) -> list[str]:
    return [seat.name for seat in services.seats_of(match)]


class MatchAPIView(APIView):
    """The match endpoints serve anyone who holds a match's id: no account, so no session
    to read and no CSRF token to check. They speak JSON only: a game client is their
    reader, and every move would otherwise pay for choosing among formats."""

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


def _error(code, detail, http_status, **extra):
    return Response({"code": code, "detail": str(detail), **extra}, status=http_status)


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


class MatchListView(MatchAPIView):
    """Start a Villa Paletti match.

    `players` lists 2 to 4 seats in playing order, each a person (`"kind": "human"`) or a
    bot (`"kind": "bot"`, `"level": "easy"` or `"careful"`); at least one must be a person.
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
    A `seed` replays a match exactly. Bots who act first have played when this answers.
    """

    serializer_class = CreateMatchSerializer
    throttle_classes = [MatchCreationThrottle]

    @extend_schema(
        request=CreateMatchSerializer,
        responses={201: OpenApiResponse(description="`{id, state}`")},
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
            )
        ],
    )
    def post(self, request):
        serializer = CreateMatchSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        seats = [services.SeatSpec(p["name"], p["kind"], p["level"]) for p in data["players"]]
        try:
            outcome = services.create_match(
                seats=seats,
                options=dict(data.get("options") or {}),
                seed=data.get("seed"),
                meter=lambda: engine_time(request),
            )
        except EngineLimit as limit:
            return _engine_limited(limit)
        except services.OutcomeUnknown as unknown:
            return _unknown(messages.CREATION_OUTCOME_UNKNOWN, id=str(unknown.match_id))
        names = _names(outcome.match)
        events = messages.translate_events(outcome.events, names)
        return Response(
            {
                "id": str(outcome.match.id),
                "state": state_payload(outcome.match, outcome.state),
                "frames": outcome.frames,
                "events": events,
                "steps": messages.translate_steps(outcome.steps, events, names),
                "opening": opening_poses(outcome.opening) if outcome.opening else None,
            },
            status=status.HTTP_201_CREATED,
        )


class MatchDetailView(MatchAPIView):
    """A match's state: version, status, whose turn, every platform and column, scores,
    the seal, the winner when over, and `legal_actions` — the complete action objects the
    person to act may post (empty while nobody but a bot could act)."""

    @extend_schema(
        responses={
            200: OpenApiResponse(description="The match's state."),
            410: OpenApiResponse(description="Stored by an earlier engine: no longer playable."),
        }
    )
    def get(self, request, match_id):
        match = _match_or_404(match_id)
        try:
            state = services.load_state(match)
        except engine.OutdatedSnapshot:
            return _error("outdated_match", messages.OUTDATED_MATCH, status.HTTP_410_GONE)
        return Response(state_payload(match, state))


class MatchActionView(MatchAPIView):
    """Play one action: `{"version": n, "action": <an object from legal_actions>}`.

    Answers `{state, frames, events, steps}`, with the bots' answers already played and
    their frames appended. `steps` has one entry per action in order (the person's, then
    each bot's): `seat`, `name`, `by_bot`, `type`, the `[start, end)` slices of `frames`
    and `events` it produced, and `lines`, what it did in sentences (a bot's first one
    names it). A stale version is a 409 (the match moved on: reload it); an action
    the rules refuse now is a 400 whose `detail` says why, and the match is unchanged.
    """

    throttle_classes = [MatchActionThrottle]

    @extend_schema(
        request=ActionRequestSerializer,
        responses={
            200: inline_serializer(
                "ActionResult",
                {
                    "state": serializers.DictField(),
                    "frames": serializers.ListField(),
                    "events": serializers.ListField(),
                    "steps": serializers.ListField(),
                },
            ),
            400: OpenApiResponse(description="Malformed, or refused by the rules."),
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
            outcome = services.play(
                match=match, version=version, action=action, meter=lambda: engine_time(request)
            )
        except EngineLimit as limit:
            return _engine_limited(limit)
        except services.OutcomeUnknown:
            return _unknown(messages.ACTION_OUTCOME_UNKNOWN, version=version)
        except services.MatchGone:
            return _error("match_gone", messages.MATCH_GONE, status.HTTP_404_NOT_FOUND)

        except engine.OutdatedSnapshot:
            return _error("outdated_match", messages.OUTDATED_MATCH, status.HTTP_410_GONE)
        except services.StaleVersion as stale:
            return _error(
                stale.code, messages.STALE_VERSION, status.HTTP_409_CONFLICT, version=stale.current
            )
        except services.MatchError as error:
            return _error(error.code, messages.refusal(error.code, error.reason), 400)
        except engine.IllegalAction as illegal:
            return _error(illegal.code, messages.refusal(illegal.code, illegal.reason), 400)
        names = _names(outcome.match)
        events = messages.translate_events(outcome.events, names)
        return Response(
            {
                "state": state_payload(outcome.match, outcome.state),
                "frames": outcome.frames,
                "events": events,
                "steps": messages.translate_steps(outcome.steps, events, names),
            }
        )
