"""The catalogue's REST API: games, their rule summaries and the ESAR vocabulary."""

from contextlib import contextmanager

import django_filters
import reversion
from django.db import models
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from django_filters.utils import translate_validation
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from catalogue.fields import StrictCharField, StrictSlugField
from catalogue.schema import refuses_unknown_keys

from .filters import MAX_QUERY_LENGTH, GameFilter
from .identifiers import validate_ean
from .models import (
    RECORD_FIELDS,
    EsarCategory,
    Game,
    GameAuthor,
    Language,
    Publisher,
    RuleLanguage,
    RuleSummary,
)
from .search import suggest
from .selectors import list_games


class EsarSerializer(serializers.ModelSerializer):
    label = serializers.CharField(read_only=True)
    parent = serializers.SlugRelatedField(slug_field="code", read_only=True, allow_null=True)

    class Meta:
        model = EsarCategory
        fields = [
            "code",
            "label",
            "family",
            "parent",
            "label_fr",
            "label_da",
            "label_pl",
            "label_en",
        ]


class EsarBriefSerializer(serializers.ModelSerializer):
    label = serializers.CharField(read_only=True)

    class Meta:
        model = EsarCategory
        fields = ["code", "label", "family"]


class CreditSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="person.name")

    class Meta:
        model = GameAuthor
        fields = ["name", "role"]


# What a listed game's ESAR category is read with: its code, family and every label.
ESAR_COLUMNS = ("code", "family", "label_fr", "label_da", "label_pl", "label_en")
# A listed game's languages, fetched once for the whole page (``GameList.prefetch_related``)
# as a plain list on each game: the related manager and queryset Django otherwise builds for
# every game of the page were 3 600 of the 30 000 Python calls of a 20-game text search.
LANGUAGES_OF_PAGE = Prefetch("languages", to_attr="language_list")
# A listed game's own fields, sent as they are stored.
LISTED_FIELDS = (
    "slug",
    "title",
    "min_players",
    "max_players",
    "min_age",
    "max_age",
    "duration_minutes",
)


@extend_schema_field({"type": "string", "description": Language._meta.get_field("code").help_text})
class LanguageCode(serializers.SlugRelatedField):
    """A language by its code, read from a list of languages (``LANGUAGES_OF_PAGE``)."""


class GameListSerializer(serializers.ModelSerializer):
    """A game in a list: its own numbers, its ESAR category and its languages' codes."""

    esar = EsarBriefSerializer(read_only=True)
    url = serializers.HyperlinkedIdentityField(view_name="api:game-detail", lookup_field="slug")
    languages = LanguageCode(slug_field="code", many=True, read_only=True, source="language_list")

    class Meta:
        model = Game
        fields = ["url", *LISTED_FIELDS, "esar", "languages"]


@refuses_unknown_keys
class GameSerializer(serializers.ModelSerializer):
    """The whole record. Staff write ESAR by code, publisher by name, languages by code.
    Text fields take strings only (`"title": 0` is a 400), and a key that is not a field
    of the record is a 400 naming it."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: StrictCharField,
        models.TextField: StrictCharField,
        models.SlugField: StrictSlugField,
    }

    url = serializers.HyperlinkedIdentityField(view_name="api:game-detail", lookup_field="slug")
    authors = CreditSerializer(source="credits", many=True, read_only=True)
    publisher = serializers.SlugRelatedField(
        slug_field="name", queryset=Publisher.objects.all(), allow_null=True, required=False
    )
    languages = serializers.SlugRelatedField(
        slug_field="code", many=True, queryset=Language.objects.all(), required=False
    )
    esar = serializers.SlugRelatedField(slug_field="code", queryset=EsarCategory.objects.all())
    esar_label = serializers.CharField(source="esar.label", read_only=True)
    # The model's validator; a string only, and empty for no EAN.
    ean = StrictCharField(
        max_length=13,
        allow_blank=True,
        required=False,
        validators=[validate_ean],
        help_text="EAN-8 or EAN-13, its check digit right; empty for none.",
    )
    rule_languages = serializers.SerializerMethodField()
    html_url = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "url",
            "html_url",
            *RECORD_FIELDS[: RECORD_FIELDS.index("esar") + 1],
            "esar_label",
            *RECORD_FIELDS[RECORD_FIELDS.index("esar") + 1 :],
            "rule_languages",
            "updated_at",
        ]
        read_only_fields = ["updated_at"]

    def get_rule_languages(self, game) -> list[str]:
        return [summary.language for summary in game.summaries.all()]

    def get_html_url(self, game) -> str:
        request = self.context.get("request")
        url = game.get_absolute_url()
        return request.build_absolute_uri(url) if request else url

    def validate(self, attrs):
        instance = self.instance or Game()
        for key, value in attrs.items():
            if key != "languages":
                setattr(instance, key, value)
        try:
            instance.clean()
        except Exception as error:  # ValidationError from the model, as DRF errors
            raise serializers.ValidationError(getattr(error, "message_dict", str(error))) from None
        return attrs


class RuleSummarySerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    language_name = serializers.CharField(read_only=True)
    html = serializers.CharField(read_only=True)

    class Meta:
        model = RuleSummary
        fields = ["game", "language", "language_name", "text", "html", "updated_at"]


class SuggestionSerializer(serializers.Serializer):
    title = serializers.CharField()
    slug = serializers.SlugField()
    html_url = serializers.CharField(help_text="The game's page in the request's language.")


class SuggestionQuerySerializer(serializers.Serializer):
    q = serializers.CharField(
        max_length=MAX_QUERY_LENGTH, allow_blank=True, trim_whitespace=True, required=True
    )


class StrictFilterBackend(DjangoFilterBackend):
    """The catalogue's filters, as the pages have them, but a number sent empty
    (``?age=``) is a 400 in the API, as its schema says a number is asked for: a form
    sends empty fields, a program means something by them."""

    def filter_queryset(self, request, queryset, view):
        return self.filterset(request, queryset, view).qs

    def filterset(self, request, queryset, view):
        """The view's ``GameFilter`` bound to the request's parameters and valid (else a
        400 naming each bad parameter)."""
        filterset_class = self.get_filterset_class(view, queryset)
        empty = [
            name
            for name, spec in filterset_class.base_filters.items()
            if isinstance(spec, django_filters.NumberFilter)
            and name in request.query_params
            and not request.query_params.get(name, "").strip()
        ]
        if empty:
            raise serializers.ValidationError({name: [_("Enter a number.")] for name in empty})
        filterset = self.get_filterset(request, queryset, view)
        if not filterset.is_valid():
            raise translate_validation(filterset.errors)
        return filterset


@extend_schema_view(
    list=extend_schema(
        summary="List and search the catalogue",
        parameters=[
            OpenApiParameter("q", str, description="Words to find (accent-insensitive)."),
            OpenApiParameter("players", int, description="Playable with this many players."),
            OpenApiParameter("age", int, description="Suitable for a child of this age."),
            OpenApiParameter("duration_max", int, description="Lasts at most this many minutes."),
            OpenApiParameter("esar", str, description="ESAR family (E, S, A, R) or code."),
            OpenApiParameter("language", str, description="ISO 639-1 code of the material."),
        ],
    ),
)
class GameViewSet(viewsets.ModelViewSet):
    """Games of the ludothèque's catalogue.

    Reading is public. Filters mean what the catalogue page's filters mean: `players=5`
    keeps games whose minimum ≤ 5 ≤ maximum, `age=8` games for an 8-year-old,
    `duration_max=30` games of at most 30 minutes. A bad filter value is a 400 whose body
    names the parameter and the reason.
    """

    lookup_field = "slug"
    filterset_class = GameFilter
    filter_backends = [StrictFilterBackend]

    def get_queryset(self):
        if self.action == "list":
            # The columns a listed game shows (the record's long texts stay in the database).
            queryset = Game.objects.select_related("esar").only(
                *LISTED_FIELDS, *(f"esar__{name}" for name in ESAR_COLUMNS)
            )
        else:
            queryset = (
                Game.objects.for_display()
                .select_related("esar", "publisher")
                .prefetch_related("languages")
            ).prefetch_related(
                Prefetch("credits", queryset=GameAuthor.objects.select_related("person")),
                Prefetch("summaries", queryset=RuleSummary.objects.only("game_id", "language")),
            )
        return queryset.in_order("sort_title")

    def get_serializer_class(self):
        return GameListSerializer if self.action == "list" else GameSerializer

    def filter_queryset(self, queryset):
        if self.action != "list":
            return super().filter_queryset(queryset)
        # The list: the games ``list_games`` lists for the request's filters (each bad one
        # named in a 400, after a bad page size), read as ``queryset`` reads them, and
        # counted as far as the page asked for; DRF's list pages through it.
        paginator = self.paginator
        per_page = paginator.get_page_size(self.request)
        filters = StrictFilterBackend().filterset(self.request, queryset, self)
        games = list_games(
            games=queryset,
            **filters.form.cleaned_data,
            page=self.request.query_params.get(paginator.page_query_param),
            per_page=per_page,
        )
        return games.prefetch_related(LANGUAGES_OF_PAGE)

    # Writes through the API are versions in the admin's history too, with their author.
    def perform_create(self, serializer):
        with self._revision():
            super().perform_create(serializer)

    def perform_update(self, serializer):
        with self._revision():
            super().perform_update(serializer)

    def perform_destroy(self, instance):
        with self._revision():
            super().perform_destroy(instance)

    @contextmanager
    def _revision(self):
        with reversion.create_revision():
            reversion.set_user(self.request.user)
            reversion.set_comment(_("Changed through the API."))
            yield

    @extend_schema(
        summary="Suggest titles as a patron types",
        parameters=[
            OpenApiParameter(
                "q", str, required=True, description="What was typed so far (accents optional)."
            )
        ],
        responses=SuggestionSerializer(many=True),
    )
    @action(
        detail=False,
        methods=["get"],
        url_path="suggest",
        pagination_class=None,
        filter_backends=[],
    )
    def suggest(self, request):
        """Up to 8 titles for a search box: titles starting with what was typed, then
        titles with a word starting with it, then titles that look like it (typos).
        A missing or over-long `q` is a 400."""
        query = SuggestionQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        suggestions = [
            {**found, "html_url": reverse("games:game-detail", kwargs={"slug": found["slug"]})}
            for found in suggest(query.validated_data["q"])
        ]
        return Response(SuggestionSerializer(suggestions, many=True).data)

    @extend_schema(responses=RuleSummarySerializer(many=True))
    @action(
        detail=True, methods=["get"], url_path="rules", pagination_class=None, filter_backends=[]
    )
    def rules(self, request, slug=None):
        """Every rule summary of the game, one per language."""
        game = get_object_or_404(Game, slug=slug)
        summaries = game.summaries.select_related("game").order_by("language")
        return Response(RuleSummarySerializer(summaries, many=True).data)

    @extend_schema(
        responses=RuleSummarySerializer,
        parameters=[OpenApiParameter("language", str, OpenApiParameter.PATH)],
    )
    @action(
        detail=True, methods=["get"], url_path=r"rules/(?P<language>[^/.]+)", filter_backends=[]
    )
    def rules_in_language(self, request, slug=None, language=None):
        """The game's rule summary in one language (ISO 639-1). A 404 lists the others."""
        game = get_object_or_404(Game, slug=slug)
        summary = game.summaries.select_related("game").filter(language=language).first()
        if summary is None:
            available = list(game.summaries.order_by("language").values_list("language", flat=True))
            known = language in RuleLanguage.values
            return Response(
                {
                    "detail": _("No rule summary in this language.")
                    if known
                    else _("Unknown language code."),
                    "available_languages": available,
                },
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(RuleSummarySerializer(summary).data)


class EsarViewSet(viewsets.ReadOnlyModelViewSet):
    """The ESAR classification, a controlled vocabulary: families, categories and descriptors."""

    queryset = EsarCategory.objects.select_related("parent").order_by("code")
    serializer_class = EsarSerializer
    lookup_field = "code"
    pagination_class = None
    filterset_class = None
