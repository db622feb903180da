"""Loans: a copy lent to a household (by one of its members), due back on an opening day,
renewed once at most; and the pieces found missing when it came back.

A copy has at most one open loan (one without a return), which the database enforces: two
desks scanning the same box can never both lend it.
"""

import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# One renewal, as PMB and ludothèques' rules allow.
MAX_RENEWALS = 1


class LoanQuerySet(models.QuerySet):
    def open(self):
        return self.filter(returned_at__isnull=True)

    def overdue(self, on: datetime.date | None = None):
        return self.open().filter(due_on__lt=on or timezone.localdate())


class Loan(models.Model):
    """One copy lent to a household: who borrowed it, who lent it and took it back, when."""

    copy = models.ForeignKey(
        "lending.Copy", on_delete=models.PROTECT, related_name="loans", verbose_name=_("copy")
    )
    household = models.ForeignKey(
        "lending.Household",
        on_delete=models.PROTECT,
        null=True,  # none once the loan is anonymised (kept for the statistics)
        related_name="loans",
        verbose_name=_("household"),
    )
    member = models.ForeignKey(
        "lending.Member",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="loans",
        verbose_name=_("borrowed by"),
    )
    lent_at = models.DateTimeField(_("lent"), default=timezone.now)
    due_on = models.DateField(_("due back"))
    returned_at = models.DateTimeField(_("returned"), null=True, blank=True)
    renewals = models.PositiveSmallIntegerField(_("renewals"), default=0)
    reminder_sent_at = models.DateTimeField(
        _("reminder sent"),
        null=True,
        blank=True,
        help_text=_("A loan whose household was reminded cannot be renewed."),
    )
    lent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("lent by"),
    )
    returned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("returned to"),
    )
    renewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("renewed by"),
    )
    return_check = models.ForeignKey(
        "lending.CopyCheck",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("check at return"),
    )

    objects = LoanQuerySet.as_manager()

    class Meta:
        ordering = ["-lent_at", "-id"]
        verbose_name = _("loan")
        verbose_name_plural = _("loans")
        constraints = [
            models.UniqueConstraint(
                fields=["copy"],
                condition=models.Q(returned_at__isnull=True),
                name="loan_one_open_per_copy",
            ),
            models.CheckConstraint(
                condition=models.Q(returned_at__isnull=True)
                | models.Q(returned_at__gte=models.F("lent_at")),
                name="loan_returned_after_lent",
            ),
            models.CheckConstraint(
                condition=models.Q(renewals__lte=MAX_RENEWALS), name="loan_renewed_once_at_most"
            ),
        ]
        indexes = [models.Index(fields=["household", "returned_at"], name="loan_household_open")]

    def __str__(self):
        card = self.household.card_number if self.household_id else "—"
        return f"{self.copy.barcode} → {card} ({self.lent_at:%Y-%m-%d})"

    @property
    def is_open(self) -> bool:
        return self.returned_at is None

    def is_overdue(self, on: datetime.date | None = None) -> bool:
        return self.is_open and self.due_on < (on or timezone.localdate())


class MissingPieceQuerySet(models.QuerySet):
    def outstanding(self):
        return self.filter(found_at__isnull=True)


class MissingPiece(models.Model):
    """Pieces a return found short, tied to the loan (and so the household) they went
    missing in. A minor piece leaves the copy lendable. Found later (a check finds the item
    whole), it is cleared."""

    loan = models.ForeignKey(
        Loan, on_delete=models.CASCADE, related_name="missing_pieces", verbose_name=_("loan")
    )
    item = models.ForeignKey(
        "lending.ContentItem",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("item"),
    )
    count = models.PositiveSmallIntegerField(_("how many"))
    minor = models.BooleanField(
        _("minor"), default=False, help_text=_("The copy stays lendable without it.")
    )
    found_at = models.DateTimeField(_("found"), null=True, blank=True)

    objects = MissingPieceQuerySet.as_manager()

    class Meta:
        ordering = ["loan", "item__order", "id"]
        verbose_name = _("missing piece")
        verbose_name_plural = _("missing pieces")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(count__gte=1), name="missingpiece_count_positive"
            ),
            models.UniqueConstraint(fields=["loan", "item"], name="missingpiece_one_per_item"),
        ]

    def __str__(self):
        return f"{self.count} {self.item.name}"
