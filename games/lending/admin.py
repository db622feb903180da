"""Lending in the admin: copies (an inline on each game, and a list), checks, households,
loans and holds."""

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import TruncMonth
from django.forms.models import BaseInlineFormSet
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from games.admin_inlines import MAX_COPY_ROWS, BoundedInlineMixin

from .checklist import ContentItem, CopyCheck, CopyCheckLine
from .copies import Copy, CopyStatus
from .holds import Hold
from .households import Household, Member, MemberType
from .ledger import LedgerEntry, record_membership
from .loans import Loan, MissingPiece
from .reminders import Reminder

# A household's open loans are at most its quota (a handful); the inline shows no more.
MAX_LOAN_ROWS = 20
# The household page shows its latest ledger entries only; the desk's ledger page has all.
MAX_LEDGER_ROWS = 20


def _changed_fields(form) -> list[str]:
    """The model fields a staff member changed in ``form``: what a save of an existing copy
    writes, so that the desk's work on the same copy meanwhile (a loan, a return, a check
    that changed its status) is not overwritten by the values the page was opened with."""
    columns = {field.name for field in form.instance._meta.concrete_fields}
    return [name for name in form.changed_data if name in columns]


class CopyForm(forms.ModelForm):
    """A copy as the page showed it: each field carries the value it was shown with
    (Django's hidden initial), so ``changed_data`` is what the staff member changed on the
    page, not what differs from the copy as it is now."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.show_hidden_initial = True


class ChangedFieldsFormSet(BaseInlineFormSet):
    """Saves an existing copy's changed fields only (``_changed_fields``)."""

    def save_existing(self, form, obj, commit=True):
        if not commit:
            return super().save_existing(form, obj, commit=False)
        obj = form.save(commit=False)
        obj.save(update_fields=_changed_fields(form))
        return obj


class CopyInline(BoundedInlineMixin, admin.TabularInline):
    model = Copy
    form = CopyForm
    formset = ChangedFieldsFormSet
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
    form = CopyForm

    def save_model(self, request, obj, form, change):
        if change:
            # Only what the staff member changed: a loan or a check of the copy made at the
            # desk while this page was open keeps its status.
            obj.save(update_fields=_changed_fields(form))
        else:
            super().save_model(request, obj, form, change)


class ContentItemInline(BoundedInlineMixin, admin.TabularInline):
    model = ContentItem
    extra = 0
    max_num = MAX_COPY_ROWS
    fields = ["order", "count", "name_fr", "name_da", "name_pl", "name_pl_many", "name_en"]


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


class OpenLoanInline(BoundedInlineMixin, admin.TabularInline):
    """The household's open loans, read only: loans are made and closed at the desk."""

    model = Loan
    extra = 0
    max_num = MAX_LOAN_ROWS
    fields = ["copy", "member", "lent_at", "due_on", "renewals"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True
    verbose_name_plural = _("Borrowed now")

    def get_queryset(self, request):
        return super().get_queryset(request).open().select_related("copy__game", "member")

    def has_add_permission(self, request, obj=None):
        return False


class MissingPieceInline(BoundedInlineMixin, admin.TabularInline):
    model = MissingPiece
    extra = 0
    max_num = MAX_COPY_ROWS  # a line per content item at most
    fields = ["item", "count", "minor", "found_at"]
    readonly_fields = fields  # set at the return, at the desk (minor decides the status)
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Loan)
class LoanAdmin(admin.ModelAdmin):
    """Loans as the desk made them. Lending, returns and renewals happen at the desk (which
    checks the rules and the copy's contents); here staff read them, and may move a due date
    or say which member borrowed."""

    list_display = ["copy", "household", "lent_at", "due_on", "returned_at", "renewals"]
    list_filter = [("returned_at", admin.EmptyFieldListFilter), "due_on", "lent_at"]
    search_fields = [
        "copy__barcode",
        "copy__game__title",
        "household__card_number",
        "household__name",
    ]
    list_select_related = ["copy__game", "household"]
    date_hierarchy = "lent_at"
    fields = [
        "copy",
        "household",
        "member",
        "lent_at",
        "lent_by",
        "due_on",
        "renewals",
        "renewed_by",
        "reminder_sent_at",
        "returned_at",
        "returned_by",
        "return_check",
    ]
    readonly_fields = [
        "copy",
        "household",
        "lent_at",
        "lent_by",
        "renewals",
        "renewed_by",
        "reminder_sent_at",
        "returned_at",
        "returned_by",
        "return_check",
    ]
    inlines = [MissingPieceInline]

    def has_add_permission(self, request):
        return False

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if obj is not None and "member" in form.base_fields:  # the household's members only
            form.base_fields["member"].queryset = (
                obj.household.members.all() if obj.household_id else Member.objects.none()
            )  # none once the loan is anonymised
        return form


class LatestLedgerFormSet(BaseInlineFormSet):
    """Only the latest entries: a long ledger is read whole at the desk's ledger page."""

    def get_queryset(self):
        return super().get_queryset()[:MAX_LEDGER_ROWS]


class LedgerEntryInline(BoundedInlineMixin, admin.TabularInline):
    """The household's ledger, read only and latest first: entries are written at the desk
    and by the rules (fee, bond, late fee), never changed."""

    model = LedgerEntry
    fk_name = "household"
    extra = 0
    max_num = MAX_LEDGER_ROWS
    fields = ["recorded_at", "kind", "amount", "note", "recorded_by"]
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = _("Ledger (latest entries)")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("recorded_by")

    formset = LatestLedgerFormSet

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


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
    inlines = [MemberInline, OpenLoanInline, LedgerEntryInline]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change or "membership_end" in form.changed_data:  # recorded or renewed
            paid_now = obj.fee_paid and (not change or "fee_paid" in form.changed_data)
            record_membership(household=obj, by=request.user, paid_now=paid_now)


@admin.register(Hold)
class HoldAdmin(admin.ModelAdmin):
    """Holds as the desk placed them, read only: reserving, cancelling and setting copies
    aside happen at the desk (which keeps each game's queue in order)."""

    list_display = ["game", "household", "placed_at", "copy", "ready_until", "outcome"]
    list_filter = [("ended_at", admin.EmptyFieldListFilter), "outcome"]
    search_fields = ["game__title", "household__card_number", "household__name"]
    list_select_related = ["game", "household", "copy"]
    fields = [
        "game",
        "household",
        "member",
        "placed_at",
        "placed_by",
        "copy",
        "ready_until",
        "ended_at",
        "outcome",
    ]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False


@admin.register(Reminder)
class ReminderAdmin(admin.ModelAdmin):
    """Reminders as ``send_reminders`` claimed and sent them, read only: one per loan and
    kind. No address: the household was listed to call."""

    list_display = ["loan", "kind", "claimed_at", "sent_at", "email"]
    list_filter = ["kind", ("sent_at", admin.EmptyFieldListFilter)]
    search_fields = ["loan__copy__barcode", "loan__household__card_number", "email"]
    list_select_related = ["loan__copy", "loan__household"]
    fields = ["loan", "kind", "claimed_at", "sent_at", "email"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
