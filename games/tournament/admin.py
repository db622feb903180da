"""Tournaments in the admin: set up and look; results are corrected on the desk's page
(each change kept with who and when, by django-reversion)."""

from django.contrib import admin
from reversion.admin import VersionAdmin

from . import services
from .models import Bye, Player, Round, Seat, Table, Tournament


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["name", "age", "present"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "date", "rounds", "table_size", "registration_open"]
    list_filter = ["game", "date"]
    search_fields = ["name"]
    readonly_fields = ["code", "finished_at"]
    inlines = [PlayerInline]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        services.changed(form.instance.pk)  # the big screen and the phones redraw


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player", "colours", "points", "place"]
    readonly_fields = ["position", "player", "colours", "place"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(VersionAdmin):
    list_display = ["__str__", "status", "digital", "entered_at", "confirmed_at", "corrected_at"]
    list_filter = ["status", "round__tournament"]
    fields = [
        "status",
        "digital",
        "winner",
        "brought_down",
        "entered_by",
        "confirmed_by",
        "corrected_by",
    ]
    readonly_fields = fields
    inlines = [SeatInline]

    def has_add_permission(self, request):
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "final", "started_at", "ends_at"]
    readonly_fields = ["tournament", "number", "final"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        services.changed(obj.tournament_id)  # the round's timer on the big screen

    def has_add_permission(self, request):
        return False


admin.site.register(Bye)
