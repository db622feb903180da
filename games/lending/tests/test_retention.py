"""Retention: past loans lose their household after the retention period (kept for the
statistics), ended memberships lose their personal data, the ledger keeps its amounts."""

import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games.lending.circulation import lend
from games.lending.ledger import LedgerKind, balances, record
from games.lending.models import Household, Loan, Member
from games.lending.retention import anonymise
from games.lending.tests.test_circulation import copies, make_household

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2029, 6, 1, 10, 0, tzinfo=datetime.UTC)


def past_loan(copy, member, returned: datetime.datetime) -> Loan:
    lent = returned - datetime.timedelta(days=14)
    return Loan.objects.create(
        copy=copy,
        household=member.household,
        member=member,
        lent_at=lent,
        due_on=returned.date(),
        returned_at=returned,
    )


def test_loans_older_than_the_period_lose_their_household(villa, ola, settings):
    settings.LENDING_RETENTION_DAYS = 730
    (box,) = copies(villa, "J0001")
    old = past_loan(box, ola, NOW - datetime.timedelta(days=800))
    recent = past_loan(box, ola, NOW - datetime.timedelta(days=100))
    done = anonymise(now=NOW)
    old.refresh_from_db()
    recent.refresh_from_db()
    assert done.loans == 1
    assert (old.household, old.member, old.copy, old.lent_at.date()) == (
        None,
        None,
        box,
        (NOW - datetime.timedelta(days=814)).date(),
    )
    assert recent.household == ola.household and recent.member == ola
    assert anonymise(now=NOW).loans == 0  # a second run changes nothing more
    # A shorter period, set in the settings, reaches the recent one too.
    settings.LENDING_RETENTION_DAYS = 90
    assert anonymise(now=NOW).loans == 1


def test_an_ended_membership_loses_its_personal_data_and_keeps_its_amounts(desk_user, villa):
    gone = make_household(card="G1", name="Kowalski", end=datetime.date(2027, 1, 31))
    gone.household.contact = "ul. Długa 1, Kraków"
    gone.household.save()
    Member.objects.create(household=gone.household, first_name="Jan", child_age=6)
    record(
        household=gone.household,
        kind=LedgerKind.PAYMENT,
        amount=Decimal("20"),
        by=desk_user,
        note="Jan Kowalski paid",
    )
    staying = make_household(card="S1", name="Hansen", end=datetime.date(2029, 8, 31))
    done = anonymise(now=NOW)
    assert done.households == 1
    household = Household.objects.get(pk=gone.household.pk)
    assert household.name == "—" and household.contact == "" and household.anonymised_at
    assert "Kowalski" not in household.card_number
    assert not household.members.exists()
    entry = household.ledger_entries.get()
    assert (entry.amount, entry.note) == (Decimal("20.00"), "")
    assert balances(household)["balance"] == Decimal("-20.00")
    assert Household.objects.get(pk=staying.household.pk).name == "Hansen"


def test_a_household_that_still_borrows_is_left_alone(villa, desk_user):
    member = make_household(card="B1", name="Berg", end=datetime.date(2027, 1, 31))
    (box,) = copies(villa, "J0001")
    lend(
        member=member,
        copy=box,
        by=desk_user,
        now=datetime.datetime(2026, 11, 21, tzinfo=datetime.UTC),
    )
    assert anonymise(now=NOW).households == 0
    assert Household.objects.get(pk=member.household.pk).name == "Berg"


def test_the_command_for_cron_says_what_it_did(villa, ola, capsys):
    (box,) = copies(villa, "J0001")
    past_loan(box, ola, timezone.now() - datetime.timedelta(days=1000))
    call_command("anonymise_loans")
    assert "1 loan(s) and 0 household(s) anonymised." in capsys.readouterr().out


def test_an_anonymised_loan_still_opens_in_the_admin(villa, ola, admin_client):
    (box,) = copies(villa, "J0001")
    loan = past_loan(box, ola, NOW - datetime.timedelta(days=800))
    anonymise(now=NOW)
    page = admin_client.get(reverse("admin:lending_loan_change", args=[loan.pk]))
    assert page.status_code == 200 and "J0001" in page.content.decode()
