"""The catalogue list's parameters (words, filters, a sort), one definition for the list
page's form and the API alike: their fields, how each is validated and said, and the
API's schema. ``games.selectors.list_games`` lists the games they ask for."""

import copy

import django_filters
from django import forms
from django.urls import reverse_lazy
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from .lending.selectors import available_games
from .models import MAX_AGE, MAX_DURATION, MAX_PLAYERS, EsarCategory, EsarFamily, Game, Language
from .search import search
from .selectors import SORTS


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
    """What a patron may ask a list for. Valid, its form's ``cleaned_data`` are
    ``games.selectors.list_games``'s arguments; ``qs`` keeps the games they ask for
    (django-filter as shipped: the API looks a single game up among them)."""

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
        label=_("Duration, at most (minutes)"),
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
        fields=tuple((field, name) for name, field in SORTS.items()),
        # django-filter looks an ascending label up by the model field's name and a
        # descending one by the parameter with its minus sign.
        field_labels={
            "title": _("Title"),
            "-title": _("Title (Z–A)"),
            "duration_minutes": _("Shortest first"),
            "-duration": _("Longest first"),
            "min_age": _("For the youngest first"),
            "-age": _("For the oldest first"),
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

    def get_form_class(self):
        # The same filters for every request, so one form class, declared once as any
        # Django form is (each form still deep-copies its fields); django-filter's own
        # builds a new class and new fields per request (a tenth of an uncached page).
        return GameFilterForm

    def filter_text(self, queryset, name, value: str):
        # Ranked: the exact title, titles starting with the words, then by relevance.
        return search(queryset, value) if value.strip() else queryset

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
        return available_games(queryset) if value else queryset


GameFilterForm = type(
    "GameFilterForm",
    (GameFilter._meta.form,),
    {name: filter_.field for name, filter_ in copy.deepcopy(GameFilter.base_filters).items()},
)
