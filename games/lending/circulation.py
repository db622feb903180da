"""Writes of the desk's daily work: lend a copy, take it back (with its contents check),
renew a loan. Each refuses, with a reason a desk volunteer reads, what the rules forbid.

Every action locks the rows it decides on (the household for its quota, then the copy),
so two staff scanning the same copy, or two copies for one household, follow one another:
the second sees what the first did. The database's constraint (one open loan per copy) is
the last guard.
"""

import datetime

from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .copies import Copy, CopyStatus
from .holds import Hold, HoldOutcome
from .households import Household, Member
from .ledger import charge_late_fee
from .loans import MAX_RENEWALS, Loan
from .selectors import latest_missing, missing_text
from .services import end_hold, lock_copy, next_opening_day, record_check

__all__ = [
    "LendingRefused",
    "cancel_hold",
    "due_date",
    "expire_holds",
    "give_back",
    "lend",
    "renew",
    "reserve",
]


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
    return next_opening_day(start + datetime.timedelta(days=days))


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
        hold = _hold_on(copy, today, now)
        if hold is not None and hold.household_id != household.pk:
            raise LendingRefused(
                _("%(barcode)s (%(title)s) is set aside for %(name)s until %(date)s.")
                % {
                    "barcode": copy.barcode,
                    "title": copy.game.title,
                    "name": hold.household.name,
                    "date": _day(hold.ready_until),
                }
            )
        if hold is None:
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
        # The household's hold for this game, if any, is met (set aside or still waiting).
        for met in Hold.objects.active().filter(household=household, game_id=copy.game_id):
            end_hold(met, HoldOutcome.BORROWED, now)
    return loan


def _hold_on(copy: Copy, today: datetime.date, now) -> Hold | None:
    """The hold ``copy`` (locked) is set aside for, if it is and the hold has not run out;
    a hold run out ends here, and the copy passes to the next hold or to the shelf."""
    if copy.status != CopyStatus.SET_ASIDE:
        return None
    hold = copy.holds.active().select_related("household").first()
    if hold is not None and hold.ready_until and hold.ready_until < today:
        end_hold(hold, HoldOutcome.EXPIRED, now)
        copy.refresh_from_db(fields=["status"])
        return _hold_on(copy, today, now)
    if hold is None:  # set aside by hand, or imported so: lendable
        copy.status = CopyStatus.AVAILABLE
    return hold


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
        charge_late_fee(loan)  # off unless LENDING_LATE_FEE_PER_WEEK is set
    return loan


def renew(*, loan: Loan, by, now: datetime.datetime | None = None) -> Loan:
    """Renew ``loan`` once: due a new period after today (never earlier than it was), on an
    opening day. Refused: already renewed, a reminder sent, the game reserved by another
    household, a membership not current."""
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
        if Hold.objects.queue(loan.copy.game_id).exclude(household=loan.household_id).exists():
            raise LendingRefused(
                _("%(title)s is reserved by another household: %(barcode)s cannot be renewed.")
                % names
            )
        _refuse_lapsed(loan.household, today)
        loan.due_on = max(loan.due_on, due_date(today, loan.household.member_type.loan_days))
        loan.renewals += 1
        loan.renewed_by = by
        loan.save(update_fields=["due_on", "renewals", "renewed_by"])
    return loan


def reserve(*, member: Member, game, by, now: datetime.datetime | None = None) -> Hold:
    """Put ``member``'s household in the queue for ``game``. Refused: a membership not
    current, a hold on it already, a copy of it borrowed now or one on the shelf (lend it)."""
    now = now or timezone.now()
    with transaction.atomic():
        household = Household.objects.select_for_update(of=("self",)).get(pk=member.household_id)
        _refuse_lapsed(household, timezone.localdate(now))
        names = {"name": household.name, "title": game.title}
        if Hold.objects.active().filter(household=household, game=game).exists():
            raise LendingRefused(_("%(name)s has already reserved %(title)s.") % names)
        if household.loans.open().filter(copy__game=game).exists():
            raise LendingRefused(_("%(name)s is borrowing %(title)s now.") % names)
        if Copy.objects.on_the_shelf().filter(game=game).exists():
            raise LendingRefused(_("%(title)s has a copy on the shelf now: lend it.") % names)
        return Hold.objects.create(
            game=game, household=household, member=member, placed_at=now, placed_by=by
        )


def cancel_hold(*, hold: Hold, by, now: datetime.datetime | None = None) -> None:
    """End ``hold`` at the household's word; a copy set aside for it passes on."""
    with transaction.atomic():
        if hold.copy_id:
            lock_copy(hold.copy)
        hold = Hold.objects.select_for_update(of=("self",)).get(pk=hold.pk)
        if hold.ended_at is None:
            end_hold(hold, HoldOutcome.CANCELLED, now)


def expire_holds(*, now: datetime.datetime | None = None) -> int:
    """End the holds whose copy waited past its day; each copy passes to the next hold or
    back to the shelf. How many ended (for a command run by cron, or the desk's page)."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    ended = 0
    for hold_pk, copy_pk in (
        Hold.objects.active().filter(ready_until__lt=today).values_list("pk", "copy_id")
    ):
        with transaction.atomic():
            if copy_pk:
                lock_copy(Copy(pk=copy_pk))
            hold = Hold.objects.select_for_update(of=("self",)).get(pk=hold_pk)
            if hold.ended_at is None and hold.ready_until and hold.ready_until < today:
                end_hold(hold, HoldOutcome.EXPIRED, now)
                ended += 1
    return ended
