"""Holds: a household waits for a title; the first copy back is set aside for the first in
the queue, who alone borrows it for a set number of days, then the next; a reserved title is
not renewed; the public record says how many wait."""

import datetime

import pytest
from django.core.management import call_command
from django.utils import timezone, translation

from games.lending.circulation import (
    LendingRefused,
    cancel_hold,
    expire_holds,
    give_back,
    lend,
    renew,
    reserve,
)
from games.lending.models import Copy, CopyStatus, Hold, HoldOutcome
from games.lending.selectors import household_holds
from games.lending.tests.test_circulation import copies, counts, make_household

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _opening_days(settings):
    settings.LENDING_OPENING_WEEKDAYS = [2, 5]  # Wednesday and Saturday


def refused(call, **kwargs) -> str:
    with translation.override("en"), pytest.raises(LendingRefused) as refusal:
        call(**kwargs)
    return refusal.value.reason


@pytest.fixture
def out_on_loan(villa, ola, desk_user):
    """Villa Paletti's only copy, lent to the Nowaks."""
    (copy,) = copies(villa, "J0001")
    lend(member=ola, copy=copy, by=desk_user)
    return copy


def test_a_returned_copy_is_set_aside_for_the_first_in_the_queue_only(
    settings, villa, out_on_loan, desk_user
):
    settings.LENDING_OPENING_WEEKDAYS = []
    settings.LENDING_HOLD_DAYS = 7
    berg, dupont = make_household("B1", "Berg"), make_household("D1", "Dupont")
    first = reserve(member=berg, game=villa, by=desk_user)
    reserve(member=dupont, game=villa, by=desk_user)
    assert [h.position for h in household_holds(dupont.household)] == [2]

    give_back(copy=out_on_loan, by=desk_user, found=counts(out_on_loan))
    out_on_loan.refresh_from_db()
    first.refresh_from_db()
    assert out_on_loan.status == CopyStatus.SET_ASIDE  # not on the shelf for anyone
    assert first.copy == out_on_loan
    assert first.ready_until == timezone.localdate() + datetime.timedelta(days=7)
    assert not Copy.objects.on_the_shelf().exists()
    day = f"{first.ready_until.day} {first.ready_until:%B}"
    assert refused(lend, member=dupont, copy=out_on_loan, by=desk_user) == (
        f"J0001 (Villa Paletti) is set aside for Berg until {day}."
    )
    loan = lend(member=berg, copy=out_on_loan, by=desk_user)
    first.refresh_from_db()
    assert loan.household == berg.household
    assert (first.outcome, first.ended_at is not None) == (HoldOutcome.BORROWED, True)
    assert Hold.objects.active().get().household == dupont.household


def test_a_hold_not_collected_in_time_passes_to_the_next(settings, villa, out_on_loan, desk_user):
    settings.LENDING_OPENING_WEEKDAYS = []
    berg, dupont = make_household("B1", "Berg"), make_household("D1", "Dupont")
    first = reserve(member=berg, game=villa, by=desk_user)
    second = reserve(member=dupont, game=villa, by=desk_user)
    give_back(copy=out_on_loan, by=desk_user, found=counts(out_on_loan))
    later = timezone.now() + datetime.timedelta(days=settings.LENDING_HOLD_DAYS + 1)
    assert expire_holds(now=later) == 1
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.outcome == HoldOutcome.EXPIRED
    assert second.copy == out_on_loan
    out_on_loan.refresh_from_db()
    assert out_on_loan.status == CopyStatus.SET_ASIDE
    # The last in the queue lets it go too: the copy is back on the shelf.
    call_command("expire_holds", verbosity=0)  # nothing due yet
    assert expire_holds(now=later + datetime.timedelta(days=30)) == 1
    out_on_loan.refresh_from_db()
    assert out_on_loan.status == CopyStatus.AVAILABLE


def test_lending_a_set_aside_copy_after_its_day_ends_the_hold(
    settings, villa, out_on_loan, desk_user
):
    settings.LENDING_OPENING_WEEKDAYS = []
    berg, dupont = make_household("B1", "Berg"), make_household("D1", "Dupont")
    reserve(member=berg, game=villa, by=desk_user)
    give_back(copy=out_on_loan, by=desk_user, found=counts(out_on_loan))
    later = timezone.now() + datetime.timedelta(days=30)
    loan = lend(member=dupont, copy=out_on_loan, by=desk_user, now=later)  # Berg's ran out
    assert loan.household == dupont.household
    assert Hold.objects.get().outcome == HoldOutcome.EXPIRED


def test_a_reserved_title_is_not_renewed(villa, out_on_loan, desk_user):
    berg = make_household("B1", "Berg")
    reserve(member=berg, game=villa, by=desk_user)
    loan = out_on_loan.loans.get()
    assert refused(renew, loan=loan, by=desk_user) == (
        "Villa Paletti is reserved by another household: J0001 cannot be renewed."
    )
    cancel_hold(hold=Hold.objects.get(), by=desk_user)
    assert renew(loan=loan, by=desk_user).renewals == 1


def test_what_a_reservation_refuses(villa, ola, out_on_loan, desk_user):
    assert refused(reserve, member=ola, game=villa, by=desk_user) == (
        "Nowak is borrowing Villa Paletti now."
    )
    berg = make_household("B1", "Berg")
    reserve(member=berg, game=villa, by=desk_user)
    assert refused(reserve, member=berg, game=villa, by=desk_user) == (
        "Berg has already reserved Villa Paletti."
    )
    copies(villa, "J0002")
    dupont = make_household("D1", "Dupont")
    assert refused(reserve, member=dupont, game=villa, by=desk_user) == (
        "Villa Paletti has a copy on the shelf now: lend it."
    )


def test_a_set_aside_copy_cancelled_goes_back_to_the_shelf(villa, out_on_loan, desk_user):
    berg = make_household("B1", "Berg")
    hold = reserve(member=berg, game=villa, by=desk_user)
    give_back(copy=out_on_loan, by=desk_user, found=counts(out_on_loan))
    cancel_hold(hold=hold, by=desk_user)
    out_on_loan.refresh_from_db()
    assert out_on_loan.status == CopyStatus.AVAILABLE


def test_a_copy_back_incomplete_is_not_set_aside(villa, out_on_loan, desk_user):
    berg = make_household("B1", "Berg")
    hold = reserve(member=berg, game=villa, by=desk_user)
    give_back(copy=out_on_loan, by=desk_user, found=counts(out_on_loan, columns=1))
    hold.refresh_from_db()
    assert hold.copy is None
    # Found: the check completes it, and it goes to the hold, not the shelf.
    from games.lending.services import record_check

    record_check(copy=out_on_loan, found=counts(out_on_loan), user=desk_user)
    hold.refresh_from_db()
    out_on_loan.refresh_from_db()
    assert (hold.copy, out_on_loan.status) == (out_on_loan, CopyStatus.SET_ASIDE)


@pytest.mark.parametrize(
    "language, wording",
    [
        ("en", "2 households waiting"),
        ("fr", "2 foyers en attente"),
        ("da", "2 husstande venter"),
        ("pl", "2 gospodarstwa czekają"),
    ],
)
def test_the_public_record_says_how_many_wait(
    client, villa, out_on_loan, desk_user, language, wording
):
    for card, name in (("B1", "Berg"), ("D1", "Dupont")):
        reserve(member=make_household(card, name), game=villa, by=desk_user)
    with translation.override(language):
        assert wording in client.get(villa.get_absolute_url()).content.decode()
