"""Writes of the desk's daily work: lend a copy, take it back (with its contents check),
renew a loan. Each refuses, with a reason a desk volunteer reads, what the rules forbid.

Every action locks the rows it decides on (the household for its quota, then the copy),
so two staff scanning the same copy, or two copies for one household, follow one another:
the second sees what the first did. The database's constraint (one open loan per copy) is
the last guard.
"""

import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .copies import Copy, CopyStatus
from .households import Household, Member
from .loans import MAX_RENEWALS, Loan
from .selectors import latest_missing, missing_text
from .services import lock_copy, record_check

__all__ = ["LendingRefused", "due_date", "give_back", "lend", "renew"]


class LendingRefused(Exception):
    """What the desk refuses, with the reason to show (in the active language)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _day(date: datetime.date) -> str:
    return formats.date_format(date, "MONTH_DAY_FORMAT")


def due_date(start: datetime.date, days: int) -> datetime.date:
    """``days`` after ``start``, moved on to the next day the desk is open
    (``LENDING_OPENING_WEEKDAYS``; none set: any day)."""
    due = start + datetime.timedelta(days=days)
    opening = {day for day in settings.LENDING_OPENING_WEEKDAYS if 0 <= day <= 6}
    while opening and due.weekday() not in opening:
        due += datetime.timedelta(days=1)
    return due


def _refuse_lapsed(household: Household, today: datetime.date) -> None:
    if household.membership_end < today:
        raise LendingRefused(
            _("The membership of %(name)s ended on %(date)s: renew it first.")
            % {"name": household.name, "date": formats.date_format(household.membership_end)}
        )
    if household.membership_start > today:
        raise LendingRefused(
            _("The membership of %(name)s starts on %(date)s.")
            % {"name": household.name, "date": formats.date_format(household.membership_start)}
        )
    if not household.fee_paid:
        raise LendingRefused(
            _("The membership fee of %(name)s is not paid.") % {"name": household.name}
        )


def _refuse_unavailable(copy: Copy) -> None:
    names = {"barcode": copy.barcode, "title": copy.game.title}
    if copy.status == CopyStatus.ON_LOAN:
        loan = copy.loans.open().first()
        if loan:
            names["date"] = _day(loan.due_on)
            raise LendingRefused(
                _("%(barcode)s (%(title)s) is already on loan, due back %(date)s.") % names
            )
        raise LendingRefused(_("%(barcode)s (%(title)s) is already on loan.") % names)
    if copy.status == CopyStatus.INCOMPLETE:
        names["missing"] = missing_text(latest_missing(copy)) or "?"
        raise LendingRefused(
            _("%(barcode)s (%(title)s) is incomplete (%(missing)s): it is lent once whole.") % names
        )
    if copy.status == CopyStatus.IN_REPAIR:
        raise LendingRefused(_("%(barcode)s (%(title)s) is in repair.") % names)
    if copy.status == CopyStatus.WITHDRAWN:
        raise LendingRefused(_("%(barcode)s (%(title)s) is withdrawn from the collection.") % names)


def lend(*, member: Member, copy: Copy, by, now: datetime.datetime | None = None) -> Loan:
    """Lend ``copy`` to ``member``'s household, due back after its member type's period on
    an opening day. Refused: a membership not current, a copy not on the shelf, a
    household at its quota."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    with transaction.atomic():
        household = (
            Household.objects.select_for_update(of=("self",))
            .select_related("member_type")
            .get(pk=member.household_id)
        )
        copy = lock_copy(copy)
        _refuse_lapsed(household, today)
        _refuse_unavailable(copy)
        quota = household.member_type.games_quota
        borrowed = household.loans.open().count()
        if borrowed >= quota:
            raise LendingRefused(
                ngettext(
                    "%(name)s already borrows %(count)d game, as many as its membership allows.",
                    "%(name)s already borrows %(count)d games, as many as its membership allows.",
                    borrowed,
                )
                % {"name": household.name, "count": borrowed}
            )
        loan = Loan(
            copy=copy,
            household=household,
            member=member,
            lent_at=now,
            due_on=due_date(today, household.member_type.loan_days),
            lent_by=by,
        )
        try:
            with transaction.atomic():
                loan.save()
        except IntegrityError:  # another desk lent it first (the constraint's guard)
            raise LendingRefused(
                _("%(barcode)s (%(title)s) is already on loan.")
                % {"barcode": copy.barcode, "title": copy.game.title}
            ) from None
        copy.status = CopyStatus.ON_LOAN
        copy.save(update_fields=["status"])
    return loan


def give_back(
    *,
    copy: Copy,
    by,
    found: dict[int, int],
    minor: bool = False,
    note: str = "",
    now: datetime.datetime | None = None,
) -> Loan:
    """Close ``copy``'s open loan with the contents check of its return (``found``: item
    id → how many, as ``record_check``). A piece short is tied to this loan and its
    household and makes the copy incomplete, unless ``minor``: then it stays lendable."""
    now = now or timezone.now()
    with transaction.atomic():
        copy = lock_copy(copy)
        loan = copy.loans.open().select_for_update(of=("self",)).first()
        if loan is None:
            raise LendingRefused(
                _("%(barcode)s (%(title)s) is not on loan.")
                % {"barcode": copy.barcode, "title": copy.game.title}
            )
        loan.returned_at = max(now, loan.lent_at)
        loan.returned_by = by
        loan.save(update_fields=["returned_at", "returned_by"])
        loan.return_check = record_check(
            copy=copy, found=found, user=by, note=note, loan=loan, minor=minor
        )
        loan.save(update_fields=["return_check"])
    return loan


def renew(*, loan: Loan, by, now: datetime.datetime | None = None) -> Loan:
    """Renew ``loan`` once: due a new period after today (never earlier than it was), on an
    opening day. Refused: already renewed, a reminder sent, a membership not current.
    (Holds, which would also refuse it, do not exist yet.)"""
    now = now or timezone.now()
    today = timezone.localdate(now)
    with transaction.atomic():
        lock_copy(loan.copy)
        loan = (
            Loan.objects.select_for_update(of=("self",))
            .select_related("household__member_type", "copy__game")
            .get(pk=loan.pk)
        )
        names = {"barcode": loan.copy.barcode, "title": loan.copy.game.title}
        if not loan.is_open:
            raise LendingRefused(_("%(barcode)s (%(title)s) is back: nothing to renew.") % names)
        if loan.renewals >= MAX_RENEWALS:
            raise LendingRefused(
                _("The loan of %(barcode)s (%(title)s) was already renewed once.") % names
            )
        if loan.reminder_sent_at is not None:
            raise LendingRefused(
                _("A reminder was sent for %(barcode)s (%(title)s): it cannot be renewed.") % names
            )
        _refuse_lapsed(loan.household, today)
        loan.due_on = max(loan.due_on, due_date(today, loan.household.member_type.loan_days))
        loan.renewals += 1
        loan.renewed_by = by
        loan.save(update_fields=["due_on", "renewals", "renewed_by"])
    return loan
