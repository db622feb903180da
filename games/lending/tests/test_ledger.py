"""A household's ledger: the membership fee, payments, the deposit (cashed only after a
reminder), a bond for a piece missing at a return (refunded when it is found), late fees
(off unless set), every amount a Decimal, every entry kept as written."""

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse
from django.utils import timezone, translation

from games.lending.circulation import give_back, lend
from games.lending.ledger import (
    LedgerEntry,
    LedgerKind,
    LedgerRefused,
    balances,
    record,
    record_membership,
)
from games.lending.services import record_check
from games.lending.tests.test_circulation import MORNING, copies, counts, make_household

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _money(settings):
    settings.LENDING_OPENING_WEEKDAYS = [2, 5]
    settings.LENDING_MEMBERSHIP_FEE = Decimal("20.00")
    settings.LENDING_MISSING_PIECE_BOND = Decimal("2.00")
    settings.LENDING_LATE_FEE_PER_WEEK = Decimal("0.00")


def kinds(household):
    return sorted(household.ledger_entries.values_list("kind", "amount"))


def test_a_membership_fee_is_charged_once_per_period_and_again_at_renewal(ola, desk_user):
    household = ola.household
    record_membership(household=household, by=desk_user)
    record_membership(household=household, by=desk_user)  # the same period: nothing more
    assert balances(household) == {"balance": Decimal("20.00"), "deposit": Decimal("0.00")}
    household.membership_end = datetime.date(2028, 8, 31)  # renewed for a year
    household.save()
    record_membership(household=household, by=desk_user, paid_now=True)
    assert kinds(household) == [
        (LedgerKind.FEE, Decimal("20.00")),
        (LedgerKind.FEE, Decimal("20.00")),
        (LedgerKind.PAYMENT, Decimal("20.00")),
    ]
    assert balances(household)["balance"] == Decimal("20.00")
    assert isinstance(balances(household)["balance"], Decimal)


def test_no_fee_is_charged_when_the_setting_is_zero(ola, settings):
    settings.LENDING_MEMBERSHIP_FEE = Decimal("0")
    assert record_membership(household=ola.household) is None
    assert not LedgerEntry.objects.exists()


def test_a_payment_that_settles_the_fee_marks_it_paid(desk_user):
    household = make_household(fee_paid=False).household
    record_membership(household=household)
    record(household=household, kind=LedgerKind.PAYMENT, amount=Decimal("15.00"), by=desk_user)
    household.refresh_from_db()
    assert not household.fee_paid and balances(household)["balance"] == Decimal("5.00")
    record(household=household, kind=LedgerKind.PAYMENT, amount=Decimal("5.00"), by=desk_user)
    household.refresh_from_db()
    assert household.fee_paid and balances(household)["balance"] == Decimal("0.00")


def test_a_deposit_is_held_returned_and_cashed_only_after_a_reminder(villa, ola, desk_user):
    household = ola.household
    record(household=household, kind=LedgerKind.DEPOSIT_HELD, amount=Decimal("50"), by=desk_user)
    with translation.override("en"), pytest.raises(LedgerRefused, match="held as a deposit"):
        record(
            household=household,
            kind=LedgerKind.DEPOSIT_RETURNED,
            amount=Decimal("60"),
            by=desk_user,
        )
    with translation.override("en"), pytest.raises(LedgerRefused, match="after a reminder"):
        record(
            household=household, kind=LedgerKind.DEPOSIT_CASHED, amount=Decimal("50"), by=desk_user
        )
    (copy,) = copies(villa, "J0001")
    loan = lend(member=ola, copy=copy, by=desk_user, now=MORNING)
    loan.reminder_sent_at = timezone.now()
    loan.save()
    record(household=household, kind=LedgerKind.DEPOSIT_CASHED, amount=Decimal("30"), by=desk_user)
    assert balances(household) == {"balance": Decimal("0.00"), "deposit": Decimal("20.00")}
    # Once that game is back, the rest of the deposit is no longer cashed, but returned.
    give_back(copy=copy, by=desk_user, found=counts(copy))
    with pytest.raises(LedgerRefused):
        record(
            household=household, kind=LedgerKind.DEPOSIT_CASHED, amount=Decimal("20"), by=desk_user
        )
    record(
        household=household, kind=LedgerKind.DEPOSIT_RETURNED, amount=Decimal("20"), by=desk_user
    )
    assert balances(household)["deposit"] == Decimal("0.00")


def test_the_ledger_writes_its_own_charges_not_the_desk(ola, desk_user):
    for kind, amount in [(LedgerKind.BOND, Decimal("2")), (LedgerKind.PAYMENT, Decimal("0"))]:
        with pytest.raises(LedgerRefused):
            record(household=ola.household, kind=kind, amount=amount, by=desk_user)
    assert not LedgerEntry.objects.exists()


def test_a_piece_missing_at_a_return_charges_a_bond_refunded_when_found(villa, ola, desk_user):
    (copy,) = copies(villa, "J0001")
    loan = lend(member=ola, copy=copy, by=desk_user, now=MORNING)
    give_back(copy=copy, by=desk_user, found=counts(copy, columns=3))
    bond = LedgerEntry.objects.get(kind=LedgerKind.BOND)
    assert (bond.household, bond.loan, bond.amount) == (ola.household, loan, Decimal("6.00"))
    assert balances(ola.household)["balance"] == Decimal("6.00")
    record(household=ola.household, kind=LedgerKind.PAYMENT, amount=Decimal("6"), by=desk_user)
    # Found later: the bond comes back, once, however many checks find the box whole.
    record_check(copy=copy, found=counts(copy), user=desk_user)
    record_check(copy=copy, found=counts(copy), user=desk_user)
    refund = LedgerEntry.objects.get(kind=LedgerKind.BOND_REFUND)
    assert refund.amount == Decimal("6.00") and refund.missing_piece == bond.missing_piece
    assert balances(ola.household)["balance"] == Decimal("-6.00")  # the household is owed 6


def test_late_fees_are_off_by_default_and_charged_per_week_when_set(
    villa, ola, desk_user, settings
):
    first, second = copies(villa, "J1", "J2")
    for copy in (first, second):
        lend(member=ola, copy=copy, by=desk_user, now=MORNING)  # due Saturday 12 December
    late = datetime.datetime(2026, 12, 20, 10, 0, tzinfo=datetime.UTC)  # 8 days late
    give_back(copy=first, by=desk_user, found=counts(first), now=late)
    assert not LedgerEntry.objects.filter(kind=LedgerKind.LATE_FEE).exists()
    settings.LENDING_LATE_FEE_PER_WEEK = Decimal("0.75")
    give_back(copy=second, by=desk_user, found=counts(second), now=late)
    fee = LedgerEntry.objects.get(kind=LedgerKind.LATE_FEE)
    assert fee.amount == Decimal("1.50")  # two weeks begun late


def test_an_entry_is_never_changed(ola, desk_user):
    entry = record(
        household=ola.household, kind=LedgerKind.PAYMENT, amount=Decimal("1"), by=desk_user
    )
    entry.amount = Decimal("100")
    with pytest.raises(ValueError):
        entry.save()
    entry.refresh_from_db()
    assert entry.amount == Decimal("1.00")


@pytest.fixture
def cashier(client):
    user = User.objects.create_user("cashier", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="lending",
            codename__in=["add_copycheck", "view_ledgerentry", "add_ledgerentry"],
        )
    )
    client.force_login(user)
    return client


def test_the_desk_shows_the_ledger_and_records_a_payment(ola, cashier):
    household = ola.household
    household.card_number = "N/42"  # any card the admin accepts
    household.save()
    record_membership(household=household)
    with translation.override("en"):
        url = reverse("lending:household-ledger", kwargs={"card": "N/42"})
        page = cashier.get(url)
        assert "20.00 EUR" in page.content.decode() and "membership fee" in page.content.decode()
        response = cashier.post(url, {"kind": "payment", "amount": "20.00", "note": "cash"})
    assert response.status_code == 302
    assert balances(household)["balance"] == Decimal("0.00")


@pytest.mark.parametrize("amount", ["abc", "-5", "0", "1e9", "NaN", "12.345"])
def test_a_bad_amount_is_refused_with_the_form(ola, cashier, amount):
    url = reverse("lending:household-ledger", kwargs={"card": ola.household.card_number})
    response = cashier.post(url, {"kind": "payment", "amount": amount})
    assert response.status_code == 200 and response.context["form"].errors
    assert not LedgerEntry.objects.exists()


def test_a_volunteer_without_the_permission_cannot_add_entries(ola, client):
    user = User.objects.create_user("reader")
    user.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_copycheck", "view_ledgerentry"])
    )
    client.force_login(user)
    url = reverse("lending:household-ledger", kwargs={"card": ola.household.card_number})
    assert client.get(url).status_code == 200
    assert client.post(url, {"kind": "payment", "amount": "5"}).status_code == 403
    assert not LedgerEntry.objects.exists()


def test_the_admin_charges_the_fee_when_a_membership_is_recorded_and_shows_the_ledger(
    admin_client, ola
):
    household = ola.household
    url = reverse("admin:lending_household_change", args=[household.pk])
    page = admin_client.get(url)
    assert page.status_code == 200
    data = {
        key: value
        for key, value in page.context["adminform"].form.initial.items()
        if key in page.context["adminform"].form.fields
    }
    data.update(membership_start="2026-09-01", membership_end="2028-08-31", fee_paid="on")
    data["member_type"] = household.member_type_id
    for formset in page.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        for name, value in management.initial.items():
            data[f"{formset.formset.prefix}-{name}"] = value
        for index, form in enumerate(formset.formset.initial_forms):
            data[f"{formset.formset.prefix}-{index}-id"] = form.instance.pk
            for name in ("first_name", "last_name", "household"):
                if name in form.fields:
                    value = getattr(form.instance, f"{name}_id", None) or getattr(
                        form.instance, name, ""
                    )
                    data[f"{formset.formset.prefix}-{index}-{name}"] = value
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    # Renewed (a new end) with the fee ticked already: charged, its payment left to the desk.
    assert kinds(household) == [(LedgerKind.FEE, Decimal("20.00"))]
    page = admin_client.get(url)
    assert "membership fee" in page.content.decode() or "cotisation" in page.content.decode()


def test_the_desk_shows_the_household_balance_beside_its_loans(villa, ola, cashier):
    (copy,) = copies(villa, "J0001")
    lend(member=ola, copy=copy, by=None, now=MORNING)
    give_back(copy=copy, by=None, found=counts(copy, columns=1))
    with translation.override("en"):
        cashier.post(reverse("lending:desk"), {"action": "scan", "barcode": "L0042"})
        page = cashier.get(reverse("lending:desk")).content.decode()
        assert reverse("lending:household-ledger", kwargs={"card": "L0042"}) in page
    assert "Balance: 2.00 EUR" in page and "deposit held: 0.00 EUR" in page
