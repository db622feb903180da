"""Staff's workbench: volunteers add and correct records here."""

import reversion
from django.contrib import admin
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from import_export.admin import ImportExportModelAdmin
from import_export.forms import SelectableFieldsExportForm
from reversion.admin import VersionAdmin

from .admin_inlines import MAX_INLINE_ROWS, BoundedInlineMixin
from .lending.admin import ContentItemInline, CopyInline
from .models import EsarCategory, Game, GameAuthor, Language, Person, Publisher, RuleSummary
from .resources import GameResource

admin.site.site_header = _("Ludothèque administration")
admin.site.site_title = _("Ludothèque administration")
admin.site.index_title = _("Catalogue and games")

# The temporary files of the imports this session uploaded, the last ten.
OWN_IMPORTS_KEY = "games_own_imports"


class NumberFilter(admin.SimpleListFilter):
    """A list filter offering a few numbers, each kept by a ``GameQuerySet`` method
    (the same ones the catalogue's own filters use)."""

    numbers: tuple = ()
    method = ""

    def label(self, number: int) -> str:
        raise NotImplementedError

    def lookups(self, request, model_admin):
        return [(str(n), self.label(n)) for n in self.numbers]

    def queryset(self, request, queryset):
        if self.value():
            return getattr(queryset, self.method)(int(self.value()))
        return queryset


class PlayersFilter(NumberFilter):
    title = _("playable with")
    parameter_name = "players"
    numbers, method = tuple(range(1, 9)), "playable_by"

    def label(self, n):
        return ngettext("%(count)d player", "%(count)d players", n) % {"count": n}


class AgeFilter(NumberFilter):
    title = _("suitable for a child of")
    parameter_name = "age"
    numbers, method = (3, 4, 5, 6, 8, 10, 12, 14), "suitable_for_age"

    def label(self, a):
        return ngettext("%(age)d year", "%(age)d years", a) % {"age": a}


class DurationFilter(NumberFilter):
    title = _("lasting at most")
    parameter_name = "duration_max"
    numbers, method = (15, 30, 45, 60, 90), "within_minutes"

    def label(self, m):
        return ngettext("%(minutes)d minute", "%(minutes)d minutes", m) % {"minutes": m}


class CheckedAutocompleteSelect(AutocompleteSelect):
    """Django's autocomplete widget looks the submitted ids up to show them again: an id
    that is not one (`publisher=abc`) raised ValueError while the form was redisplayed
    with its error. Values the related key cannot hold are dropped from the display; the
    form field itself still reports them."""

    def format_value(self, value):
        target = self.field.remote_field.model._meta.get_field(self.field.remote_field.field_name)
        kept = []
        for item in super().format_value(value):
            try:
                target.to_python(item)
            except ValidationError:
                continue
            kept.append(item)
        return kept


class CheckedAutocompleteMixin:
    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if "widget" not in kwargs and db_field.name in self.get_autocomplete_fields(request):
            kwargs["widget"] = CheckedAutocompleteSelect(
                db_field, self.admin_site, using=kwargs.get("using")
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class GameAuthorInline(CheckedAutocompleteMixin, BoundedInlineMixin, admin.TabularInline):
    model = GameAuthor
    extra = 1
    max_num = MAX_INLINE_ROWS
    autocomplete_fields = ["person"]


class RuleSummaryInline(BoundedInlineMixin, admin.StackedInline):
    model = RuleSummary
    extra = 0
    max_num = MAX_INLINE_ROWS


def _labelled(fields_list):
    """import-export's field lists with each CSV column (kept in English, the file's
    format) named as the record names it in the staff member's language."""
    return [
        (name, [GameResource.field_label(column) for column in columns])
        for name, columns in fields_list
    ]


class TranslatedFieldsExportForm(SelectableFieldsExportForm):
    """The export form's field choices named as the record names them ("Durée moyenne
    (minutes)"), not import-export's title-cased column names ("Duration Minutes")."""

    def _get_field_label(self, resource, field_name):
        return resource.field_label(field_name)


@admin.register(Game)
class GameAdmin(CheckedAutocompleteMixin, ImportExportModelAdmin, VersionAdmin):
    """Games, with CSV import and export and their history (django-reversion: every saved
    version with who and when, under "History", each one revertible; a version holds the
    game with its credits and rule summaries). An import confirms only a file its own
    user uploaded in this session: the confirm step names the temporary file in a form
    field, which another staff member's upload must not satisfy."""

    resource_classes = [GameResource]
    export_form_class = TranslatedFieldsExportForm
    list_display = [
        "title",
        "publisher",
        "esar",
        "players",
        "ages",
        "duration_minutes",
        "summary_languages",
    ]
    list_filter = [PlayersFilter, AgeFilter, DurationFilter, "esar", "languages", "document_type"]
    search_fields = ["title", "principle", "authors__name", "publisher__name"]
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["publisher"]
    filter_horizontal = ["languages"]
    inlines = [GameAuthorInline, ContentItemInline, CopyInline, RuleSummaryInline]
    list_select_related = ["publisher", "esar"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "title",
                    "sort_title",
                    "slug",
                    "document_type",
                    "publisher",
                    "year",
                    "languages",
                ]
            },
        ),
        (
            _("Classification and audience"),
            {
                "fields": [
                    "esar",
                    ("min_players", "max_players"),
                    ("min_age", "max_age"),
                    "duration_minutes",
                ]
            },
        ),
        (
            _("Description"),
            {"fields": ["principle", "pedagogical_analysis", "rules", "contents"]},
        ),
        (_("Identifiers"), {"fields": ["ean", "bgg_id", "image"], "classes": ["collapse"]}),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("summaries")

    def import_action(self, request, *args, **kwargs):
        response = super().import_action(request, *args, **kwargs)
        context = getattr(response, "context_data", None)
        if context and "fields_list" in context:
            context["fields_list"] = _labelled(context["fields_list"])
        return response

    def init_request_context_data(self, request, form):
        context = super().init_request_context_data(request, form)
        context["fields_list"] = _labelled(context["fields_list"])
        return context

    @admin.display(description=_("players"), ordering="min_players")
    def players(self, game):
        return game.players_label

    @admin.display(description=_("ages"), ordering="min_age")
    def ages(self, game):
        return game.age_label

    @admin.display(description=_("summaries"))
    def summary_languages(self, game):
        return ", ".join(summary.language for summary in game.summaries.all()) or "—"

    def get_confirm_form_initial(self, request, import_form):
        initial = super().get_confirm_form_initial(request, import_form)
        if initial.get("import_file_name"):
            own = request.session.get(OWN_IMPORTS_KEY, [])[-9:]
            request.session[OWN_IMPORTS_KEY] = [*own, initial["import_file_name"]]
        return initial

    def process_import(self, request, **kwargs):
        own = request.session.get(OWN_IMPORTS_KEY, [])
        name = request.POST.get("import_file_name", "")
        if request.method == "POST" and name not in own:
            raise PermissionDenied
        with reversion.create_revision():
            reversion.set_user(request.user)
            reversion.set_comment(_("CSV import"))
            response = super().process_import(request, **kwargs)
        request.session[OWN_IMPORTS_KEY] = [n for n in own if n != name]
        return response


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    search_fields = ["name"]
    ordering = ["name"]
    list_display = ["name", "game_count"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(game_count=Count("games", distinct=True))

    @admin.display(description=_("games"), ordering="game_count")
    def game_count(self, person):
        return person.game_count


@admin.register(Publisher)
class PublisherAdmin(admin.ModelAdmin):
    search_fields = ["name"]
    list_display = ["name"]


@admin.register(Language)
class LanguageAdmin(admin.ModelAdmin):
    list_display = ["code", "language_name"]
    search_fields = ["code"]

    @admin.display(description=_("name"))
    def language_name(self, language):
        return language.name


@admin.register(EsarCategory)
class EsarCategoryAdmin(admin.ModelAdmin):
    list_display = ["code", "label_fr", "label_en", "family", "parent"]
    list_filter = ["family"]
    search_fields = ["code", "label_fr", "label_da", "label_pl", "label_en"]
    autocomplete_fields = ["parent"]


@admin.register(RuleSummary)
class RuleSummaryAdmin(VersionAdmin):
    list_display = ["game", "language", "updated_at"]
    list_filter = ["language"]
    search_fields = ["game__title", "text"]
    autocomplete_fields = ["game"]
    list_select_related = ["game"]
