"""Copies in the admin: an inline on each game, and a list of every copy."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import TruncMonth
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from games.admin_inlines import MAX_COPY_ROWS, BoundedInlineMixin

from .checklist import ContentItem, CopyCheck, CopyCheckLine
from .copies import Copy, CopyStatus
from .households import Household, Member, MemberType


class CopyInline(BoundedInlineMixin, admin.TabularInline):
    model = Copy
    extra = 0
    max_num = MAX_COPY_ROWS
    fields = [
        "barcode",
        "call_number",
        "location",
        "section",
        "status",
        "condition_note",
        "acquired",
    ]


@admin.register(Copy)
class CopyAdmin(admin.ModelAdmin):
    list_display = ["barcode", "game", "call_number", "location", "status", "acquired"]
    list_filter = ["status", "location"]
    search_fields = ["barcode", "call_number", "game__title"]
    autocomplete_fields = ["game"]
    list_select_related = ["game"]


class ContentItemInline(BoundedInlineMixin, admin.TabularInline):
    model = ContentItem
    extra = 0
    max_num = MAX_COPY_ROWS
    fields = ["order", "count", "name_fr", "name_da", "name_pl", "name_en"]


class CopyCheckLineInline(BoundedInlineMixin, admin.TabularInline):
    model = CopyCheckLine
    extra = 0
    max_num = MAX_COPY_ROWS  # a line per content item
    fields = ["item", "expected", "found"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(CopyCheck)
class CopyCheckAdmin(admin.ModelAdmin):
    """The checks made at the desk, kept as they were made (read only), with statistics."""

    list_display = ["copy", "checked_at", "checked_by", "complete"]
    list_filter = ["complete", "checked_at"]
    search_fields = ["copy__barcode", "copy__game__title"]
    readonly_fields = ["copy", "checked_by", "checked_at", "complete", "note"]
    inlines = [CopyCheckLineInline]
    date_hierarchy = "checked_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_urls(self):
        from django.urls import path

        statistics = path(
            "statistics/",
            self.admin_site.admin_view(self.statistics_view),
            name="lending_copycheck_statistics",
        )
        return [statistics, *super().get_urls()]

    def statistics_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Checks and missing pieces"),
            "most_missing": games_with_most_missing(),
            "per_month": checks_per_month(),
        }
        return TemplateResponse(request, "admin/lending/copycheck/statistics.html", context)


def games_with_most_missing(limit: int = 20):
    """Games by the pieces their incomplete copies lack now (their latest checks)."""
    latest = (
        CopyCheck.objects.filter(copy=OuterRef("copy_check__copy"))
        .order_by("-checked_at", "-id")
        .values("pk")[:1]
    )
    rows = (
        CopyCheckLine.objects.filter(
            copy_check__copy__status=CopyStatus.INCOMPLETE,
            copy_check=Subquery(latest),
            found__lt=F("expected"),
        )
        .values("copy_check__copy__game__title", "copy_check__copy__game__slug")
        .annotate(
            missing=Sum(F("expected") - F("found")), copies=Count("copy_check", distinct=True)
        )
        .order_by("-missing", "copy_check__copy__game__title")[:limit]
    )
    return list(rows)


def checks_per_month():
    return list(
        CopyCheck.objects.annotate(month=TruncMonth("checked_at"))
        .values("month")
        .annotate(checks=Count("pk"), incomplete=Count("pk", filter=Q(complete=False)))
        .order_by("-month")
    )


class MemberInline(BoundedInlineMixin, admin.TabularInline):
    model = Member
    extra = 1
    fields = ["first_name", "last_name", "child_age"]


@admin.register(MemberType)
class MemberTypeAdmin(admin.ModelAdmin):
    list_display = ["name", "games_quota", "loan_days"]


@admin.register(Household)
class HouseholdAdmin(admin.ModelAdmin):
    """Personal data: in the admin only, for staff who hold the permission to view it."""

    list_display = ["card_number", "name", "member_type", "membership_end", "fee_paid"]
    list_filter = ["member_type", "fee_paid", "language"]
    search_fields = ["card_number", "name", "members__first_name", "members__last_name"]
    date_hierarchy = "membership_end"
    inlines = [MemberInline]
