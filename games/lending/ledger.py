"""A household's money, kept simple: an append-only ledger of what it was charged (the
membership fee, a bond for a missing piece, a late fee), what it paid, and the deposit the
ludothèque holds for it (held, returned, or cashed once a reminder was sent).

Amounts are in the site's currency (``LENDING_CURRENCY``), as ``Decimal``. An entry is never
changed nor deleted: a mistake is put right by another entry. The household's **balance** is
what it owes (charges less payments and refunds; below zero, the ludothèque owes it); the
**deposit** is what the ludothèque holds apart from it.
"""

import datetime
import math
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import Case, DecimalField, F, Q, Sum, Value, When
from django.db.models.functions import Coalesce
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

__all__ = [
    "LedgerEntry",
    "LedgerKind",
    "LedgerRefused",
    "balances",
    "charge_bonds",
    "charge_late_fee",
    "record",
    "record_membership",
    "refund_bonds",
]

ZERO = Decimal("0.00")
CENT = Decimal("0.01")


class LedgerKind(models.TextChoices):
    FEE = "fee", gettext_lazy("membership fee")
    PAYMENT = "payment", gettext_lazy("payment")
    DEPOSIT_HELD = "deposit_held", gettext_lazy("deposit held")
    DEPOSIT_RETURNED = "deposit_returned", gettext_lazy("deposit returned")
    DEPOSIT_CASHED = "deposit_cashed", gettext_lazy("deposit cashed")
    BOND = "bond", gettext_lazy("bond for a missing piece")
    BOND_REFUND = "bond_refund", gettext_lazy("bond refunded")
    LATE_FEE = "late_fee", gettext_lazy("late fee")
    PAID_OUT = "paid_out", gettext_lazy("money handed back")


# What an entry does to the balance (what the household owes) and to the deposit held.
CHARGES = [LedgerKind.FEE, LedgerKind.BOND, LedgerKind.LATE_FEE, LedgerKind.PAID_OUT]
CREDITS = [LedgerKind.PAYMENT, LedgerKind.BOND_REFUND]
DEPOSIT_IN = [LedgerKind.DEPOSIT_HELD]
DEPOSIT_OUT = [LedgerKind.DEPOSIT_RETURNED, LedgerKind.DEPOSIT_CASHED]
# What staff record by hand at the desk; the rest the ledger writes itself.
DESK_KINDS = [
    LedgerKind.PAYMENT,
    LedgerKind.DEPOSIT_HELD,
    LedgerKind.DEPOSIT_RETURNED,
    LedgerKind.DEPOSIT_CASHED,
    LedgerKind.PAID_OUT,
]
MAX_AMOUNT = Decimal("99999.99")


class LedgerRefused(Exception):
    """What the ledger refuses, with the reason to show (in the active language)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class LedgerEntryQuerySet(models.QuerySet):
    def balances(self):
        """One aggregate (a single query): ``balance`` (what is owed) and ``deposit``."""
        money = DecimalField(max_digits=10, decimal_places=2)
        return self.aggregate(
            balance=Coalesce(
                Sum(
                    Case(
                        When(kind__in=CHARGES, then=F("amount")),
                        When(kind__in=CREDITS, then=-F("amount")),
                        default=Value(ZERO),
                        output_field=money,
                    )
                ),
                Value(ZERO),
                output_field=money,
            ),
            deposit=Coalesce(
                Sum(
                    Case(
                        When(kind__in=DEPOSIT_IN, then=F("amount")),
                        When(kind__in=DEPOSIT_OUT, then=-F("amount")),
                        default=Value(ZERO),
                        output_field=money,
                    )
                ),
                Value(ZERO),
                output_field=money,
            ),
        )


class LedgerEntry(models.Model):
    """One line of a household's ledger, never changed once written."""

    household = models.ForeignKey(
        "lending.Household",
        on_delete=models.PROTECT,
        related_name="ledger_entries",
        verbose_name=gettext_lazy("household"),
    )
    recorded_at = models.DateTimeField(gettext_lazy("date"), default=timezone.now)
    kind = models.CharField(gettext_lazy("kind"), max_length=20, choices=LedgerKind.choices)
    amount = models.DecimalField(gettext_lazy("amount"), max_digits=7, decimal_places=2)
    note = models.CharField(gettext_lazy("note"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("recorded by"),
    )
    loan = models.ForeignKey(
        "lending.Loan",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=gettext_lazy("loan"),
    )
    missing_piece = models.ForeignKey(
        "lending.MissingPiece",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=gettext_lazy("missing piece"),
    )
    membership_until = models.DateField(
        gettext_lazy("membership until"),
        null=True,
        blank=True,
        help_text=gettext_lazy("For a membership fee: the end of the period it pays for."),
    )

    objects = LedgerEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-recorded_at", "-id"]
        verbose_name = gettext_lazy("ledger entry")
        verbose_name_plural = gettext_lazy("ledger entries")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="ledgerentry_amount_positive"),
            # Each rule charges once, even when two desks or a desk and a command race.
            models.UniqueConstraint(
                fields=["household", "membership_until"],
                condition=Q(kind="fee"),
                name="ledgerentry_one_fee_per_period",
            ),
            models.UniqueConstraint(
                fields=["missing_piece", "kind"],
                condition=Q(missing_piece__isnull=False),
                name="ledgerentry_one_bond_per_piece",
            ),
            models.UniqueConstraint(
                fields=["loan"], condition=Q(kind="late_fee"), name="ledgerentry_one_late_fee"
            ),
        ]
        indexes = [models.Index(fields=["household", "recorded_at"], name="ledger_household")]

    def __str__(self):
        return f"{self.recorded_at:%Y-%m-%d} {self.get_kind_display()} {self.amount}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("a ledger entry is never changed: add another one")
        super().save(*args, **kwargs)

    @property
    def signed_amount(self) -> Decimal:
        """The entry as it moves the balance or the deposit: a charge or a deposit taken in
        is positive, a payment, refund or deposit given out negative."""
        return -self.amount if self.kind in CREDITS + DEPOSIT_OUT else self.amount


def balances(household) -> dict[str, Decimal]:
    """``balance`` (what ``household`` owes; below zero, what it is owed) and ``deposit``
    (what the ludothèque holds for it), in one query."""
    sums = LedgerEntry.objects.filter(household=household).balances()
    return {name: Decimal(value).quantize(CENT) for name, value in sums.items()}


def _create_once(**fields) -> LedgerEntry | None:
    """Write an entry a rule charges once; None if it was written already (a race)."""
    try:
        with transaction.atomic():
            return LedgerEntry.objects.create(**fields)
    except IntegrityError:
        return None


def record_membership(*, household, by=None, paid_now: bool = False) -> LedgerEntry | None:
    """A membership recorded or renewed (the household's end date is new): charge the fee
    (``LENDING_MEMBERSHIP_FEE``) once for that period, and its payment if staff marked the
    fee paid on the same save. Nothing when the fee is set to 0."""
    fee = settings.LENDING_MEMBERSHIP_FEE
    if fee <= 0:
        return None
    entry = _create_once(
        household=household,
        kind=LedgerKind.FEE,
        amount=fee,
        membership_until=household.membership_end,
        recorded_by=by,
    )
    if entry is not None and paid_now:
        LedgerEntry.objects.create(
            household=household, kind=LedgerKind.PAYMENT, amount=fee, recorded_by=by
        )
    return entry


def record(*, household, kind: str, amount: Decimal, by, note: str = "") -> LedgerEntry:
    """What staff record at the desk: a payment, a deposit held, returned or cashed, money
    handed back. Refused: an amount not above zero, a deposit returned or cashed beyond
    what is held, a deposit cashed while none of the household's loans out now had a
    reminder sent (the deposit answers for games not brought back: our reading).
    A payment that settles the balance while the fee is unpaid marks the fee paid."""
    from .households import Household

    if kind not in DESK_KINDS:
        raise LedgerRefused(_("This kind of entry is written by the ledger itself."))
    if not isinstance(amount, Decimal) or not ZERO < amount <= MAX_AMOUNT:
        raise LedgerRefused(_("The amount must be above zero."))
    amount = amount.quantize(CENT)
    with transaction.atomic():
        household = Household.objects.select_for_update().get(pk=household.pk)
        held = balances(household)["deposit"]
        if kind in DEPOSIT_OUT and amount > held:
            raise LedgerRefused(
                _("Only %(held)s %(currency)s is held as a deposit.")
                % {"held": formats.number_format(held, 2), "currency": settings.LENDING_CURRENCY}
            )
        if (
            kind == LedgerKind.DEPOSIT_CASHED
            and not household.loans.open().filter(reminder_sent_at__isnull=False).exists()
        ):
            raise LedgerRefused(
                _("A deposit is cashed only after a reminder was sent for one of its loans.")
            )
        entry = LedgerEntry.objects.create(
            household=household, kind=kind, amount=amount, recorded_by=by, note=note.strip()[:200]
        )
        if (
            kind == LedgerKind.PAYMENT
            and not household.fee_paid
            and balances(household)["balance"] <= 0
        ):
            household.fee_paid = True
            household.save(update_fields=["fee_paid"])
    return entry


def charge_bonds(pieces) -> int:
    """Pieces just found missing at a return: charge the household a bond per piece
    (``LENDING_MISSING_PIECE_BOND``), refunded when the piece is found. How many charged."""
    bond = settings.LENDING_MISSING_PIECE_BOND
    if bond <= 0:
        return 0
    charged = 0
    for piece in pieces:
        if piece.loan.household_id is None:
            continue
        entry = _create_once(
            household_id=piece.loan.household_id,
            kind=LedgerKind.BOND,
            amount=bond * piece.count,
            loan=piece.loan,
            missing_piece=piece,
            recorded_by=piece.loan.returned_by,
        )
        charged += entry is not None
    return charged


def refund_bonds(piece_ids) -> int:
    """Pieces found again: refund each one's bond, once. How many refunded."""
    refunded = 0
    bonds = LedgerEntry.objects.filter(kind=LedgerKind.BOND, missing_piece_id__in=list(piece_ids))
    for bond in bonds:
        entry = _create_once(
            household_id=bond.household_id,
            kind=LedgerKind.BOND_REFUND,
            amount=bond.amount,
            loan_id=bond.loan_id,
            missing_piece_id=bond.missing_piece_id,
        )
        refunded += entry is not None
    return refunded


def weeks_late(due_on: datetime.date, returned_on: datetime.date) -> int:
    """Weeks begun after the due date (a day late is a week late)."""
    return max(0, math.ceil((returned_on - due_on).days / 7))


def charge_late_fee(loan) -> LedgerEntry | None:
    """A loan back after its due date: charge ``LENDING_LATE_FEE_PER_WEEK`` a week begun
    late, once. Off (nothing charged) when that setting is 0, its default."""
    per_week = settings.LENDING_LATE_FEE_PER_WEEK
    weeks = weeks_late(loan.due_on, timezone.localdate(loan.returned_at))
    if per_week <= 0 or weeks == 0 or loan.household_id is None:
        return None
    return _create_once(
        household_id=loan.household_id,
        kind=LedgerKind.LATE_FEE,
        amount=per_week * weeks,
        loan=loan,
        recorded_by=loan.returned_by,
    )
