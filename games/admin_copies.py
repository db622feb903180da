"""Copies in the admin: an inline on each game, and a list of every copy."""

from django.contrib import admin

from .copies import Copy


class CopyInline(admin.TabularInline):
    model = Copy
    extra = 0
    fields = ["barcode", "call_number", "location", "status", "condition_note", "acquired"]


@admin.register(Copy)
class CopyAdmin(admin.ModelAdmin):
    list_display = ["barcode", "game", "call_number", "location", "status", "acquired"]
    list_filter = ["status", "location"]
    search_fields = ["barcode", "call_number", "game__title"]
    autocomplete_fields = ["game"]
    list_select_related = ["game"]
