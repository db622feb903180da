"""The catalogue's filters, one definition for the HTML pages and the API alike."""

import copy

import django_filters
from django import forms
from django.urls import reverse_lazy
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from .models import MAX_AGE, MAX_DURATION, MAX_PLAYERS, EsarCategory, EsarFamily, Game, Language
from .search import MATCH_LIMIT, best_first, find


class StrictBooleanField(forms.NullBooleanField):
    """Yes or no as a query says it (``true``/``false``, a checkbox's ``on``, 1/0); any other
    word is an error, not "no filter" (``NullBooleanField`` reads "null" as unset)."""

    WORDS = {"true": True, "on": True, "1": True, "false": False, "off": False, "0": False}

    def to_python(self, value):
        if value in (None, "", True, False):
            return None if value == "" else value
        word = str(value).strip().lower()
        if word not in self.WORDS:
            raise forms.ValidationError(_("Enter yes or no."), code="invalid")
        return self.WORDS[word]

    def validate(self, value):
        pass


class StrictBooleanFilter(django_filters.BooleanFilter):
    field_class = StrictBooleanField


class RawCheckbox(forms.CheckboxInput):
    """A checkbox that hands the field the word it was sent (Django's own turns any word
    but "false" into yes), so that a word that is no yes or no can be refused."""

    def value_from_datadict(self, data, files, name):
        return data.get(name)


MAX_QUERY_LENGTH = 200


def esar_choices():
    families = [
        (
            family.value,
            _("Family %(letter)s — %(label)s") % {"letter": family.value, "label": family.label},
        )
        for family in EsarFamily
    ]
    categories = [(c.code, f"{c.code} — {c.label}") for c in EsarCategory.objects.all()]
    return families + categories


def language_choices():
    return [(lang.code, lang.name) for lang in Language.objects.all()]


class StableOrderingFilter(django_filters.OrderingFilter):
    """The patron's sort, ties broken by title and id (``in_a_stable_order``): a page
    never repeats a game another page showed."""

    def filter(self, qs, value):
        ordering = [self.get_ordering_value(param) for param in value or () if param]
        return qs.in_order(*ordering) if ordering else qs


class WholeNumberFilter(django_filters.NumberFilter):
    """Players, ages and minutes are whole numbers: "2.5" is refused, not rounded."""

    field_class = forms.IntegerField


class GameFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        label=_("Search"),
        method="filter_text",
        max_length=MAX_QUERY_LENGTH,
        help_text=_("Words from the title, authors, principle or rules; accents optional."),
        widget=forms.TextInput(
            attrs={"type": "search", "data-suggest-url": reverse_lazy("api:game-suggest")}
        ),
    )
    players = WholeNumberFilter(
        label=_("Number of players"),
        method="filter_players",
        min_value=1,
        max_value=MAX_PLAYERS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    age = WholeNumberFilter(
        label=_("Age of the child"),
        method="filter_age",
        min_value=0,
        max_value=MAX_AGE,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    duration_max = WholeNumberFilter(
        label=_("At most (minutes)"),
        method="filter_duration",
        min_value=1,
        max_value=MAX_DURATION,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    esar = django_filters.ChoiceFilter(
        label=capfirst(_("ESAR category")),
        method="filter_esar",
        choices=esar_choices,
        empty_label=_("All categories"),
    )
    language = django_filters.ChoiceFilter(
        label=_("Language of the material"),
        method="filter_language",
        choices=language_choices,
        empty_label=_("All languages"),
    )
    available = StrictBooleanFilter(
        label=_("Available now"),
        method="filter_available",
        widget=RawCheckbox,
        help_text=_("Only games with a copy on the shelf."),
    )
    ordering = StableOrderingFilter(
        label=_("Sort by"),
        fields=(
            ("title", "title"),
            ("duration_minutes", "duration"),
            ("min_age", "age"),
            ("max_players", "players"),
            ("year", "year"),
        ),
        # django-filter looks an ascending label up by the model field's name and a
        # descending one by the parameter with its minus sign.
        field_labels={
            "title": _("Title"),
            "-title": _("Title (Z–A)"),
            "duration_minutes": _("Shortest first"),
            "-duration": _("Longest first"),
            "min_age": _("Youngest first"),
            "-age": _("Oldest first"),
            "max_players": _("Fewest players"),
            "-players": _("Most players"),
            "year": _("Oldest edition"),
            "-year": _("Newest edition"),
        },
        empty_label=_("Relevance"),
    )

    class Meta:
        model = Game
        fields = []

    # How many games the text search found (``games.search.Matches.count``: up to
    # MATCH_LIMIT + 1), None without a text search; known once ``qs`` is read. The
    # paginator takes it instead of counting the games, which runs the search again.
    match_count = None

    def get_form_class(self):
        # The same filters for every request, so one form class, declared once as any
        # Django form is (each form still deep-copies its fields); django-filter's own
        # builds a new class and new fields per request (a tenth of an uncached page).
        return GameFilterForm

    def filter_queryset(self, queryset):
        # The text search after the other filters (the sort last): it ranks the matches
        # whole when they are few, so it must see the games the page lists, not more.
        data = self.form.cleaned_data
        names = [name for name in data if name not in ("q", "ordering")] + ["q", "ordering"]
        for name in names:
            if name in data:
                queryset = self.filters[name].filter(queryset, data[name])
        return queryset

    def filter_text(self, queryset, name, value: str):
        if not value.strip():
            return queryset
        # Ranked: the exact title, titles starting with the words, then by relevance.
        matches = find(queryset, value)
        self.match_count = matches.count
        return matches.games

    def filter_players(self, queryset, name, value: int):
        return queryset.playable_by(int(value))

    def filter_age(self, queryset, name, value: int):
        return queryset.suitable_for_age(int(value))

    def filter_duration(self, queryset, name, value: int):
        return queryset.within_minutes(int(value))

    def filter_esar(self, queryset, name, value: str):
        return queryset.in_esar(value)

    def filter_language(self, queryset, name, value: str):
        return queryset.in_language(value)

    def filter_available(self, queryset, name, value):
        from .copies import available_games

        return available_games(queryset) if value else queryset


GameFilterForm = type(
    "GameFilterForm",
    (GameFilter._meta.form,),
    {name: filter_.field for name, filter_ in copy.deepcopy(GameFilter.base_filters).items()},
)


def relevance_parts(queryset, params, match_count):
    """The two parts of the pages (``games.search.best_first``) of a text search listed by
    relevance (no sort asked for) with more matches than the search ranks whole
    (``match_count``, ``GameFilter.match_count``, above ``MATCH_LIMIT``), else None.
    ``params`` are the page's or the API's query parameters, already validated by
    ``GameFilter``. Fewer matches are ranked whole, so their parts are not built."""
    query = params.get("q") or ""
    if match_count is None or match_count <= MATCH_LIMIT:
        return None
    if not query.strip() or params.get("ordering"):
        return None
    return best_first(queryset, query)
