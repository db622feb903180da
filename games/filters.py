"""The catalogue's filters, one definition for the HTML pages and the API alike."""

import copy

import django_filters
from django import forms
from django.http import QueryDict
from django.urls import reverse_lazy
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from .models import MAX_AGE, MAX_DURATION, MAX_PLAYERS, EsarCategory, EsarFamily, Game, Language

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


class SharedFields(dict):
    """A form class's fields that every form made from it uses as they are.

    A Django form deep-copies its class's fields (with their widgets, choices and
    messages) so that one form may change its own; the filter form never changes a field
    once built, and the copies were a third of its validation on every list page and API
    request. The field objects are not modified by validating or rendering a form."""

    def __deepcopy__(self, memo):
        return dict(self)


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
    available = django_filters.BooleanFilter(
        label=_("Available now"),
        method="filter_available",
        widget=forms.CheckboxInput,
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

    def __init__(self, data=None, queryset=None, *, request=None, prefix=None):
        # django-filter's own __init__, with each filter copied shallowly: it deep-copies
        # every filter with its arguments, labels and choices on every request, and with
        # the form class built anew (``get_form_class``) that was 0.3 of the 0.7 ms this
        # filter set took per list page. A filter keeps no state of its own per request
        # but its model and parent, set here on the copy.
        if queryset is None:
            queryset = self._meta.model._default_manager.all()
        self.is_bound = data is not None
        self.data = data or QueryDict()
        self.queryset = queryset
        self.request = request
        self.form_prefix = prefix
        self.filters = {name: copy.copy(f) for name, f in self.base_filters.items()}
        for filter_ in self.filters.values():
            filter_.model = queryset.model
            filter_.parent = self
            if filter_.method:
                # The copy's own bound method (it finds ``filter_<name>`` on its parent).
                filter_.method = filter_.method

    @classmethod
    def _form_class(cls):
        # Built once per process: its fields are deep-copied by every form made from it,
        # and the choices that come from the database (ESAR categories, languages) are
        # read when the form is validated or shown, not when the class is built.
        if "_built_form_class" not in cls.__dict__:
            fields = {name: f.field for name, f in cls.base_filters.items()}
            form_class = type(f"{cls.__name__}Form", (cls._meta.form,), fields)
            form_class.base_fields = SharedFields(form_class.base_fields)
            cls._built_form_class = form_class
        return cls._built_form_class

    def get_form_class(self):
        return self._form_class()

    def filter_text(self, queryset, name, value: str):
        if not value.strip():
            return queryset
        # Ranked: the exact title, titles starting with the words, then by relevance.
        return queryset.matching(value)

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

    def filter_queryset(self, queryset):
        # The text search after the filters that narrow (and before the sort, which
        # replaces its ranking): on PostgreSQL it collects the ids of its matches among
        # the games the other filters kept, and the page's count reuses them instead of
        # evaluating the search again (``games.pagination.CappedPaginator``).
        data = self.form.cleaned_data
        for name in sorted(data, key=lambda name: {"q": 1, "ordering": 2}.get(name, 0)):
            queryset = self.filters[name].filter(queryset, data[name])
        return queryset

    @property
    def qs(self):
        queryset = super().qs
        if not self.is_bound or not self.is_valid():
            return queryset
        if (
            not self.form.cleaned_data.get("ordering")
            and not self.form.cleaned_data.get("q", "").strip()
        ):
            queryset = queryset.in_order("title")
        return queryset
