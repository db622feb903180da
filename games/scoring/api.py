"""The score sheets' JSON endpoints: what the sheet's page asks while the players type.

The body is checked by the very forms the page submits (``sheets``), so a count refused
here is refused there with the same words; the serializers below only describe the JSON
for the schema and its readers."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from catalogue.parsers import StrictJSONParser
from catalogue.schema import refuses_unknown_keys

from . import alhambra, petit_prince, sheets
from .alhambra import Building
from .forms import MAX_WALL, NAME_LENGTH

PLAYER_COUNT = _("List from %(fewest)s to %(most)s players, each an object.")
SCORING_COUNT = _("List at most 3 scorings, each an object or null.")
REFUSED = _("Some counts cannot be right: see errors.")


def count_field(most, help_text=""):
    return serializers.IntegerField(
        min_value=0, max_value=most, required=False, allow_null=True, help_text=help_text
    )


@refuses_unknown_keys
class PlanetSerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=NAME_LENGTH, required=False, allow_blank=True, allow_null=True
    )
    characters = serializers.ListField(
        child=serializers.ChoiceField(choices=[c.value for c in petit_prince.Character]),
        help_text="The four characters in the corners (identical ones allowed).",
    )

    def get_fields(self):
        fields = super().get_fields()
        for name, label in petit_prince.COUNTS.items():
            fields[name] = count_field(petit_prince.MAX_COUNT, str(label))
        return fields


@refuses_unknown_keys
class PetitPrinceRequest(serializers.Serializer):
    players = PlanetSerializer(many=True, help_text="2 to 5 finished planets.")


class CharacterPointsSerializer(serializers.Serializer):
    character = serializers.CharField()
    label = serializers.CharField()
    points = serializers.IntegerField()


class PlanetScoreSerializer(serializers.Serializer):
    name = serializers.CharField()
    characters = CharacterPointsSerializer(many=True)
    characters_total = serializers.IntegerField()
    volcano_penalty = serializers.IntegerField(help_text="Points lost to the volcanoes.")
    total = serializers.IntegerField()
    winner = serializers.BooleanField()


class PetitPrinceReport(serializers.Serializer):
    players = PlanetScoreSerializer(many=True)
    verdict = serializers.CharField(help_text="Who wins, in the reader's language.")


class RefusedCount(serializers.Serializer):
    """A refused count: `errors` names each field at fault; a body that is not JSON (or
    holds a NUL character) has only `detail`."""

    code = serializers.CharField(required=False)
    detail = serializers.CharField()
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Each field at fault, by its path (`players.0.roses`), with the reasons.",
    )


@refuses_unknown_keys
class BuildingsSerializer(serializers.Serializer):
    def get_fields(self):
        return {b.value: count_field(alhambra.TILES[b]) for b in Building}


@refuses_unknown_keys
class HoldingsSerializer(BuildingsSerializer):
    def get_fields(self):
        return {**super().get_fields(), "wall": count_field(MAX_WALL, "Longest outer wall.")}


@refuses_unknown_keys
class ScoringSerializer(serializers.Serializer):
    players = HoldingsSerializer(
        many=True, required=False, help_text="Each player's Alhambra, in order."
    )
    dirk = BuildingsSerializer(required=False, allow_null=True, help_text="Two players only.")


@refuses_unknown_keys
class AlhambraPlayerSerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=NAME_LENGTH, required=False, allow_blank=True, allow_null=True
    )


@refuses_unknown_keys
class AlhambraRequest(serializers.Serializer):
    players = AlhambraPlayerSerializer(many=True, help_text="2 to 6 players.")
    scorings = serializers.ListField(
        child=ScoringSerializer(allow_null=True),
        max_length=3,
        required=False,
        help_text="The scorings so far; one not yet played is null or left out.",
    )


class BuilderScoreSerializer(serializers.Serializer):
    buildings = serializers.DictField(child=serializers.IntegerField())
    wall = serializers.IntegerField()
    total = serializers.IntegerField()
    running_total = serializers.IntegerField()


class RoundReportSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    players = BuilderScoreSerializer(many=True)
    dirk = BuilderScoreSerializer(allow_null=True)


class AlhambraReport(serializers.Serializer):
    players = AlhambraPlayerSerializer(many=True)
    scorings = RoundReportSerializer(many=True)
    totals = serializers.ListField(child=serializers.IntegerField())
    dirk_total = serializers.IntegerField(allow_null=True)
    verdict = serializers.CharField()


def _by_path(errors, prefix="") -> dict[str, list[str]]:
    """DRF's nested errors as the sheets give theirs: {"players.0.roses": [messages]}."""
    found: dict[str, list[str]] = {}
    if (
        isinstance(errors, dict)
        and errors
        and all(isinstance(k, int) for k in errors)
        and all(isinstance(v, list) for v in errors.values())
    ):
        # A list field's plain items (characters): the field itself is named, as the sheet
        # does. Items that are objects (scorings) keep their paths, below.
        messages = [str(m) for value in errors.values() for m in value]
        return {prefix: list(dict.fromkeys(messages))}
    if isinstance(errors, dict):
        items = errors.items()
    elif isinstance(errors, list) and errors and all(isinstance(e, (dict, list)) for e in errors):
        items = enumerate(errors)
    else:
        return {prefix or "non_field_errors": [str(e) for e in errors]}
    for key, value in items:
        path = f"{prefix}.{key}" if prefix else str(key)
        nested = isinstance(value, dict) or (
            isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)
        )
        if nested:
            found.update(_by_path(value, path))
        elif value:
            found[path] = [str(v) for v in (value if isinstance(value, list) else [value])]
    return found


def _refused(detail, errors=None, code="invalid"):
    return Response(
        {"code": code, "detail": str(detail), "errors": errors or {}},
        status=status.HTTP_400_BAD_REQUEST,
    )


def _players(data, fewest, most):
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, list) or not fewest <= len(players) <= most:
        return None
    if not all(isinstance(p, dict) for p in players):
        return None
    return len(players)


class ScoreAPIView(APIView):
    """No account and nothing stored: no session, no CSRF token, JSON in and out."""

    authentication_classes = []
    permission_classes = [AllowAny]
    parser_classes = [StrictJSONParser]
    renderer_classes = [JSONRenderer]

    def refused_shape(self, serializer_class, data):
        """A 400 for a body that does not have the shape the schema documents (a count out
        of range, a key of the wrong type), before any counting; None if it has."""
        serializer = serializer_class(data=data)
        if serializer.is_valid():
            return None
        return _refused(REFUSED, _by_path(serializer.errors))

    def answer(self, sheet):
        if sheet.check():
            return Response(sheet.report)
        return _refused(REFUSED, sheet.errors())


class PetitPrinceScoreView(ScoreAPIView):
    """Count a finished game of *Le Petit Prince : Fabrique-moi une planète*.

    Each player lists their four characters and what their planet shows (counts left out
    or null score as none). The answer gives each character's points, the volcano
    penalty, the totals and who wins; impossible planets are refused with the reasons,
    by field path. Nothing is stored."""

    @extend_schema(
        request=PetitPrinceRequest,
        responses={200: PetitPrinceReport, 400: OpenApiResponse(RefusedCount)},
        examples=[
            OpenApiExample(
                "Two planets",
                value={
                    "players": [
                        {
                            "name": "Ada",
                            "characters": ["king", "gardener", "hunter", "tippler"],
                            "roses": 1,
                            "visible_baobabs": 2,
                            "animal_species": 2,
                            "snakes": 1,
                            "white_sheep": 1,
                            "face_down_tiles": 3,
                            "volcanoes": 4,
                        },
                        {"name": "Ben", "characters": ["tippler"] * 4, "face_down_tiles": 6},
                    ]
                },
                request_only=True,
            )
        ],
    )
    def post(self, request):
        refused = self.refused_shape(PetitPrinceRequest, request.data)
        if refused is not None:
            return refused
        fewest, most = petit_prince.MIN_PLAYERS, petit_prince.MAX_PLAYERS
        players = _players(request.data, fewest, most)
        if players is None:
            return _refused(PLAYER_COUNT % {"fewest": fewest, "most": most})
        return self.answer(sheets.petit_prince_sheet(sheets.flatten(request.data), players))


class AlhambraScoreView(ScoreAPIView):
    """Count the scorings of a game of *Alhambra*.

    Per scoring, each player's buildings per type in their Alhambra (not the reserve) and
    longest outer wall; with two players, Dirk's buildings (no wall). The answer gives
    each scoring's points, the running totals and who leads, or wins after the third;
    impossible counts are refused with the reasons, by field path. Nothing is stored."""

    @extend_schema(
        request=AlhambraRequest,
        responses={200: AlhambraReport, 400: OpenApiResponse(RefusedCount)},
        examples=[
            OpenApiExample(
                "The first scoring, three players",
                value={
                    "players": [{"name": "Ada"}, {"name": "Ben"}, {"name": "Cy"}],
                    "scorings": [
                        {
                            "players": [
                                {"tower": 1, "wall": 2},
                                {"garden": 1, "pavilion": 1},
                                {"tower": 1, "wall": 3},
                            ]
                        }
                    ],
                },
                request_only=True,
            )
        ],
    )
    def post(self, request):
        refused = self.refused_shape(AlhambraRequest, request.data)
        if refused is not None:
            return refused
        fewest, most = alhambra.MIN_PLAYERS, alhambra.MAX_PLAYERS
        players = _players(request.data, fewest, most)
        if players is None:
            return _refused(PLAYER_COUNT % {"fewest": fewest, "most": most})
        scorings = request.data.get("scorings", [])
        if (
            not isinstance(scorings, list)
            or len(scorings) > alhambra.SCORINGS
            or not all(s is None or isinstance(s, dict) for s in scorings)
        ):
            return _refused(SCORING_COUNT)
        for scoring in scorings:
            if scoring and (
                not isinstance(scoring.get("players", []), list)
                or len(scoring.get("players", [])) > players
            ):
                return _refused(SCORING_COUNT)
        return self.answer(sheets.alhambra_sheet(sheets.flatten(request.data), players))
