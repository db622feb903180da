"""Reminders sent by e-mail, each once per loan and kind, in the household's language; and
the household's personal link to its own page.

A run claims, in one transaction per household and kind, a ``Reminder`` row per loan (unique
per loan and kind) before it sends anything: a second run at the same time waits on the first
one's rows, then finds them taken and sends nothing for them. An e-mail that fails to go
gives its rows back, so the next run tries again. A household without an e-mail address is
claimed the same way and listed "to call" (the desk's overdue list marks it too).
"""

import datetime
import re
from collections import defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from .households import Household
from .loans import Loan
from .member_links import member_link
from .reminders import Reminder, ReminderKind

__all__ = ["RunReport", "candidates", "library_name", "send_member_link", "send_reminders"]

# Reminders sent in this order in a run; only the overdue ones forbid a renewal.
KINDS = [ReminderKind.DUE_SOON, ReminderKind.OVERDUE, ReminderKind.OVERDUE_AGAIN]
BLOCKS_RENEWAL = {ReminderKind.OVERDUE, ReminderKind.OVERDUE_AGAIN}


@dataclass
class RunReport:
    """What a run sent (household, kind, loans, address), left to call, or failed to send."""

    sent: list = field(default_factory=list)
    to_call: list = field(default_factory=list)
    failed: list = field(default_factory=list)


def _one_line(text: str) -> str:
    """A subject on one line; no-break spaces (French, before ":") stay."""
    return re.sub(r"[ \t\r\n]+", " ", text).strip()


def library_name() -> str:
    return settings.LIBRARY_NAME or _("Ludothèque")


def candidates(kind: str, today: datetime.date):
    """Open loans owed a reminder of ``kind`` today and not claimed for it yet: due within
    ``LENDING_REMINDER_DAYS_BEFORE`` days (due soon), past their due date (overdue), or
    ``LENDING_REMINDER_AGAIN_DAYS`` days after their first overdue reminder (again)."""
    loans = Loan.objects.open().exclude(
        Exists(Reminder.objects.filter(loan=OuterRef("pk"), kind=kind))
    )
    if kind == ReminderKind.DUE_SOON:
        soon = today + datetime.timedelta(days=settings.LENDING_REMINDER_DAYS_BEFORE)
        return loans.filter(due_on__gte=today, due_on__lte=soon)
    if kind == ReminderKind.OVERDUE:
        return loans.filter(due_on__lt=today)
    first_by = today - datetime.timedelta(days=settings.LENDING_REMINDER_AGAIN_DAYS)
    first = Reminder.objects.filter(
        loan=OuterRef("pk"), kind=ReminderKind.OVERDUE, claimed_at__date__lte=first_by
    )
    return loans.filter(due_on__lt=today).filter(Exists(first))


def _claim(loans: list, kind: str, email: str, now) -> list:
    """The loans whose (loan, kind) row this run wrote: those another run holds are left."""
    claimed = []
    with transaction.atomic():
        for loan in loans:
            try:
                with transaction.atomic():
                    Reminder.objects.create(loan=loan, kind=kind, email=email, claimed_at=now)
            except IntegrityError:  # another run claimed it (it waited for that run to end)
                continue
            claimed.append(loan)
    return claimed


def _render(household: Household, kind: str, loans: list) -> tuple[str, str]:
    with translation.override(household.language):
        context = {
            "household": household,
            "kind": kind,
            "loans": loans,
            "library": library_name(),
            "link": member_link(household),
            "link_days": settings.LENDING_MEMBER_LINK_DAYS,
        }
        subject = render_to_string("lending/email/reminder_subject.txt", context)
        body = render_to_string("lending/email/reminder_body.txt", context)
    return _one_line(subject), body


def send_reminders(*, now: datetime.datetime | None = None, dry_run: bool = False) -> RunReport:
    """Send what is owed today, one e-mail per household and kind listing its loans
    concerned. ``dry_run``: say what would go, claim and send nothing."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    report = RunReport()
    for kind in KINDS:
        by_household = defaultdict(list)
        for loan in (
            candidates(kind, today)
            .select_related("household", "copy__game")
            .order_by("household_id", "due_on", "copy__barcode")
        ):
            by_household[loan.household].append(loan)
        for household, loans in by_household.items():
            email = household.email.strip()
            if not dry_run:
                loans = _claim(loans, kind, email, now)
                if not loans:
                    continue
            if not email:
                report.to_call.append((household, kind, loans))
                continue
            if dry_run:
                report.sent.append((household, kind, loans, email))
                continue
            try:
                subject, body = _render(household, kind, loans)
                send_mail(subject, body, None, [email])
            except Exception as error:  # noqa: BLE001 - the next run tries again
                Reminder.objects.filter(kind=kind, loan__in=loans).delete()
                report.failed.append((household, kind, loans, str(error)))
                continue
            Reminder.objects.filter(kind=kind, loan__in=loans).update(sent_at=timezone.now())
            if kind in BLOCKS_RENEWAL:
                Loan.objects.filter(pk__in=[loan.pk for loan in loans]).filter(
                    reminder_sent_at__isnull=True
                ).update(reminder_sent_at=now)
            report.sent.append((household, kind, loans, email))
    return report


def send_member_link(household: Household) -> bool:
    """E-mail the household its personal link, in its language; False without an address."""
    if not household.email.strip():
        return False
    with translation.override(household.language):
        context = {
            "household": household,
            "library": library_name(),
            "link": member_link(household),
            "link_days": settings.LENDING_MEMBER_LINK_DAYS,
        }
        subject = render_to_string("lending/email/member_link_subject.txt", context)
        body = render_to_string("lending/email/member_link_body.txt", context)
    send_mail(_one_line(subject), body, None, [household.email.strip()])
    return True
