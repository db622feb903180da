"""Matches in the admin: to look at, not to edit (the engine alone changes a match)."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import ClockEvent, Match, MatchAction, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ["index", "name", "kind", "level"]

    def has_add_permission(self, request, obj=None):
        return False


class MatchActionInline(admin.TabularInline):
    model = MatchAction
    extra = 0
    can_delete = False
    readonly_fields = ["number", "seat", "action", "by_bot", "created_at"]

    def has_add_permission(self, request, obj=None):
        return False


class ClockEventInline(admin.TabularInline):
    """The turn clock's events in the match's log (paletti.timing)."""

    model = ClockEvent
    extra = 0
    can_delete = False
    readonly_fields = ["version", "kind", "seat", "by", "at"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["identifier", "status", "listed", "version", "created_at", "updated_at"]
    list_filter = ["status", "listed"]
    readonly_fields = [
        "identifier",
        "seed",
        "options",
        "status",
        "version",
        "state_hash",
        "created_at",
    ]
    exclude = ["snapshot"]
    inlines = [SeatInline, MatchActionInline, ClockEventInline]

    def has_add_permission(self, request):
        return False

    @admin.display(description=_("identifier"), ordering="id")
    def identifier(self, match):
        return match.id

    def has_change_permission(self, request, obj=None):
        return False
