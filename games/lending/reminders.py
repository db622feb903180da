"""Reminders: "due soon" some days before a loan is due, "overdue" once it is past, "overdue
again" some days after that. Each is sent once per loan and kind: a row per (loan, kind) is
claimed in its own transaction before the e-mail goes, so two runs of the command at the same
time (cron overlapping a run by hand) never send it twice."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ReminderKind(models.TextChoices):
    DUE_SOON = "due_soon", _("due soon")
    OVERDUE = "overdue", _("overdue")
    OVERDUE_AGAIN = "overdue_again", _("overdue again")


class Reminder(models.Model):
    """One reminder of one kind for one loan: sent by e-mail (``email``), or, for a household
    without an address, listed for staff to call (``email`` empty)."""

    loan = models.ForeignKey(
        "lending.Loan", on_delete=models.CASCADE, related_name="reminders", verbose_name=_("loan")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=ReminderKind.choices)
    claimed_at = models.DateTimeField(_("claimed"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    email = models.EmailField(_("sent to"), blank=True)

    class Meta:
        ordering = ["-claimed_at", "-id"]
        verbose_name = _("reminder")
        verbose_name_plural = _("reminders")
        constraints = [
            models.UniqueConstraint(fields=["loan", "kind"], name="reminder_once_per_loan_and_kind")
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.loan}"

    @property
    def to_call(self) -> bool:
        return not self.email
