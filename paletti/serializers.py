"""What the match API reads and what each viewer is shown.

Requests: a new match (its players, each a person on the shared device, a person on their
own device, or a bot; its options and set-up), an action, a link to join by. Answers: the
state as one viewer sees it (`state_payload`: which seats are theirs, the actions they
may post, never another's secret), a new match for its organiser (with the links to hand
out), what a following device has missed. The `*Serializer` classes that describe answers
are what the OpenAPI schema says of them; the functions below them write them.
"""

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from catalogue.fields import (
    OneOfField,
    StrictCharField,
    StrictFloatField,
    StrictIntegerField,
)
from catalogue.schema import refuses_unknown_keys

from . import arrangement, clock, engine, messages, seats, timing
from .engine.pieces import LANES
from .engine.rules import shape
from .models import BotLevel, ClockPreset, Match, SeatDevice, SeatKind
from .store import seats_of

MAX_TREMOR_MM = 5.0
BOT_HAS_NO_DEVICE = _("A bot plays on the server: only a person plays on a device of their own.")


@refuses_unknown_keys
class PlayerSerializer(serializers.Serializer):
    name = StrictCharField(min_length=1, max_length=40, trim_whitespace=True)
    kind = serializers.ChoiceField(choices=SeatKind.choices, default=SeatKind.HUMAN)
    level = serializers.ChoiceField(choices=BotLevel.choices, required=False)
    device = serializers.ChoiceField(
        choices=SeatDevice.choices,
        default=SeatDevice.SHARED,
        help_text="A person plays on the organiser's device (`shared`) or on their own "
        "(`own`: the answer carries their seat's link).",
    )

    def validate(self, attrs):
        if attrs["kind"] == SeatKind.BOT:
            attrs.setdefault("level", BotLevel.CAREFUL)
            if attrs["device"] != SeatDevice.SHARED:
                raise serializers.ValidationError({"device": BOT_HAS_NO_DEVICE})
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


class ClockField(serializers.ChoiceField):
    """A match's turn clock: `off`, or a preset (ours: paletti.clock). The test-only
    preset `tiny` is taken only where the settings allow it, and the schema does not
    list it."""

    def __init__(self, **kwargs):
        public = [(c.value, c.label) for c in ClockPreset if c != ClockPreset.TINY]
        super().__init__(choices=public, **kwargs)

    def to_internal_value(self, data):
        if data == clock.TINY and settings.PALETTI_TINY_CLOCK:
            return clock.TINY
        return super().to_internal_value(data)


@refuses_unknown_keys
class CreateMatchSerializer(serializers.Serializer):
    players = PlayerSerializer(
        many=True,
        **PLAYERS,
        error_messages={"min_length": messages.PLAYER_COUNT, "max_length": messages.PLAYER_COUNT},
    )
    options = OptionsSerializer(required=False)
    seed = serializers.IntegerField(min_value=0, max_value=2**62, required=False)
    listed = serializers.BooleanField(
        default=False,
        help_text="Shown in the library's lobby, where anyone may watch it (as a spectator) "
        "and replay it once finished. Off by default: an unlisted match is reached only "
        "through its links.",
    )
    clock = ClockField(
        required=False,
        help_text="The turn clock: a time bank per person with an increment per turn, "
        "capped (`relaxed`: 5 min, +30 s, cap 5 min; `quick`: 2 min, +15 s, cap 3 min), or "
        "`off`. Default: `off` when every person plays on this device, else `relaxed`.",
    )

    def validate_players(self, players):
        if not 2 <= len(players) <= 4:
            raise serializers.ValidationError(messages.PLAYER_COUNT)
        if all(p["kind"] == SeatKind.BOT for p in players):
            raise serializers.ValidationError(messages.NEED_A_PERSON)
        return players

    def validate(self, attrs):
        if "clock" not in attrs:
            remote = any(p["device"] == SeatDevice.OWN for p in attrs["players"])
            attrs["clock"] = ClockPreset.RELAXED if remote else clock.OFF
        return attrs


@extend_schema_field(shape.json_schema())
class ActionField(serializers.DictField):
    """An action: its schema is written from the engine's own table of action shapes
    (paletti/engine/rules/shape.py), which the view checks the action against, so the
    schema says exactly what is accepted."""


@refuses_unknown_keys
class ActionRequestSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
    action = ActionField(help_text="One of the objects listed in `legal_actions`.")


@refuses_unknown_keys
class JoinSerializer(serializers.Serializer):
    token = serializers.RegexField(
        seats.TOKEN_SHAPE.pattern,
        help_text="The secret after the `#` of a seat's or the spectators' link.",
        error_messages={"invalid": seats.MALFORMED_TOKEN},
    )


class ViewerSerializer(serializers.Serializer):
    """Who is looking: `organiser` (the device that set the match up: it acts for the
    persons on it and hands out the links), `player` (a seat's link) or `spectator`."""

    role = serializers.ChoiceField(choices=[r.value for r in seats.Role])
    seats = serializers.SerializerMethodField(help_text="The seats this viewer acts for.")

    def get_seats(self, viewer) -> list[int]:
        return sorted(viewer.seats)


class SeatViewSerializer(serializers.Serializer):
    """A seat as every viewer sees it: never its secret."""

    seat = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=SeatKind.choices)
    level = serializers.CharField(help_text="A bot's level; empty for a person.")
    device = serializers.ChoiceField(choices=SeatDevice.choices)
    yours = serializers.BooleanField(help_text="Whether this viewer acts for this seat.")
    colours = serializers.ListField(child=serializers.CharField())
    score = serializers.IntegerField()


class BankSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    clocked = serializers.BooleanField(help_text="False for a bot: bots have no clock.")
    remaining_ms = serializers.IntegerField(help_text="What is left of the bank now.")
    running = serializers.BooleanField(help_text="Whether this seat's time runs now.")


class ClockEventSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The match's version it happened at.")
    kind = serializers.CharField(help_text="`out_of_time`, `skipped` or `handed_to_bot`.")
    seat = serializers.IntegerField()
    text = serializers.CharField()


class ClockViewSerializer(serializers.Serializer):
    """The turn clock as it stands when the answer was written (`now`, ms since the
    epoch, lets a device count down against its own clock). A person's time runs only
    while they are to act and the match waits for them: from the moment the answer that
    gave them the turn was stored plus the time its animation takes."""

    preset = serializers.CharField()
    increment_ms = serializers.IntegerField()
    cap_ms = serializers.IntegerField()
    now = serializers.IntegerField()
    running = serializers.IntegerField(allow_null=True, help_text="The seat whose time runs.")
    deadline = serializers.IntegerField(
        allow_null=True, help_text="When the running seat's bank reaches zero (ms)."
    )
    banks = BankSerializer(many=True)
    out_of_time = serializers.IntegerField(
        allow_null=True, help_text="The seat out of time, if any (then see `may_skip`)."
    )
    may_skip = serializers.BooleanField(
        help_text="Whether this viewer may skip that seat's turn now (`clock/` action `skip`)."
    )
    may_hand_over = serializers.BooleanField(
        help_text="Whether this viewer may hand that seat to a careful bot (`bot`)."
    )
    events = ClockEventSerializer(many=True, help_text="The latest clock events, in order.")


class MatchStateSerializer(serializers.Serializer):
    """A match's state as one viewer sees it (the engine's view, of which the fields below
    are the ones a client most needs; the others are the villa's pieces and the rules'
    phase). `legal_actions` is empty unless this viewer acts for the seat to act."""

    id = serializers.UUIDField()
    version = serializers.IntegerField(
        help_text="Bumped by every action: a device that follows the match asks for what "
        "came after the version it has (`updates/?since=`), so nothing is shown twice."
    )
    status = serializers.CharField()
    turn = serializers.IntegerField(allow_null=True, help_text="The seat to act.")
    seats = SeatViewSerializer(many=True)
    viewer = ViewerSerializer()
    legal_actions = serializers.ListField(child=serializers.DictField())
    clock = ClockViewSerializer(allow_null=True, help_text="Null: a match without a clock.")


def state_payload(match: Match, state: engine.State, viewer: seats.Viewer) -> dict:
    """The state one viewer sees: the engine's view plus the match's seats (which are
    theirs, never a secret), the version, and the actions they may post now."""
    view = engine.state_to_json(state)
    rules = state.rules
    seat_rows = seats_of(match)
    playing = rules.phase != engine.Phase.OVER
    to_act = rules.to_act if playing else None
    human_to_act = to_act is not None and seat_rows[to_act].kind == SeatKind.HUMAN
    for player, seat in zip(view["players"], seat_rows, strict=True):
        player.update(
            kind=seat.kind,
            level=seat.level,
            device=seat.device,
            yours=viewer.may_act_for(seat.index),
        )
    view.update(
        id=str(match.id),
        version=match.version,
        status=match.status,
        turn=to_act,
        turn_player=rules.turn,
        seats=view["players"],
        viewer=ViewerSerializer(viewer).data,
        legal_actions=(
            engine.legal_actions(state) if human_to_act and viewer.may_act_for(to_act) else []
        ),
        end_reason_text=messages.end_reason(view, [seat.name for seat in seat_rows]),
        clock=timing.view(match, state, viewer),
    )
    if view.get("touched"):
        # Rounded once, here: the page and the narration show the same figure.
        view["touched"]["grams"] = messages.grams(view["touched"]["load"])
    return view


class LinkSerializer(serializers.Serializer):
    """A link the organiser hands out: to a seat (`seat`, `name`) or to the spectators
    (`seat` null). Its secret is after the `#`: a browser never sends it to a server."""

    seat = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    url = serializers.URLField(
        allow_null=True, help_text="Null when this device no longer knows it."
    )


class CreatedMatchSerializer(serializers.Serializer):
    """A new match, for its organiser alone: the state, the bots' first actions (frames,
    events, steps; `opening`: the poses they start from, or null) and the organiser's key
    and links, which no other answer carries."""

    id = serializers.UUIDField()
    state = MatchStateSerializer()
    frames = serializers.ListField(child=serializers.DictField())
    events = serializers.ListField(child=serializers.DictField())
    steps = serializers.ListField(child=serializers.DictField())
    opening = serializers.DictField(allow_null=True)
    organiser_token = serializers.CharField(
        help_text="The organiser's key: send it as `X-Seat-Token` to act for the persons on "
        "this device and to replace links (a browser keeps it in its session instead)."
    )
    links = LinkSerializer(many=True)


class UpdatesSerializer(serializers.Serializer):
    """What a following device missed since the version it has: null `state` when
    nothing; else the state, and the actions' frames, events and steps when they are
    at most a few dozen back (else empty: the state is shown as it is)."""

    version = serializers.IntegerField()
    state = MatchStateSerializer(allow_null=True)
    frames = serializers.ListField(child=serializers.DictField())
    events = serializers.ListField(child=serializers.DictField())
    steps = serializers.ListField(child=serializers.DictField())


@refuses_unknown_keys
class ClockChoiceSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
    choice = serializers.ChoiceField(
        choices=[("skip", "skip the turn"), ("bot", "hand the seat to a careful bot")],
        help_text="`skip`: the seat out of time passes its turn; `bot`: a careful bot "
        "plays that seat from now on.",
    )


class JoinedSerializer(serializers.Serializer):
    viewer = ViewerSerializer()
    url = serializers.CharField(help_text="The match's page, without the secret.")


class ReplacedLinkSerializer(serializers.Serializer):
    link = LinkSerializer()
    token = serializers.CharField(help_text="The new secret (the old one no longer works).")


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
