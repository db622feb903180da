"""Lending, taking back and renewing: what the desk refuses and why, due dates on opening
days, a copy's status following its loans, missing pieces tied to the loan they went
missing in, and two desks scanning at once."""

import datetime
import threading

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, connections
from django.utils import timezone, translation

from games.lending.circulation import LendingRefused, due_date, give_back, lend, renew
from games.lending.models import (
    Copy,
    CopyStatus,
    Household,
    Loan,
    Member,
    MemberType,
    MissingPiece,
)
from games.lending.selectors import available_games
from games.lending.services import record_check
from games.models import Game

pytestmark = pytest.mark.django_db

# Saturday 21 November 2026, 11:00 in Paris: a morning at the desk.
MORNING = datetime.datetime(2026, 11, 21, 10, 0, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def _opening_days(settings):
    settings.LENDING_OPENING_WEEKDAYS = [2, 5]  # Wednesday and Saturday


def make_household(card="L0042", name="Nowak", quota=4, **fields):
    kind, _ = MemberType.objects.get_or_create(name=f"quota {quota}", games_quota=quota)
    household = Household.objects.create(
        card_number=card,
        name=name,
        member_type=kind,
        membership_start=fields.pop("start", datetime.date(2026, 9, 1)),
        membership_end=fields.pop("end", datetime.date(2027, 8, 31)),
        fee_paid=fields.pop("fee_paid", True),
    )
    return Member.objects.create(household=household, first_name="Ola", last_name=name)


def copies(game, *barcodes):
    return [Copy.objects.create(game=game, barcode=code) for code in barcodes]


def counts(copy, **short):
    """Every item found, but ``short`` (by English name) fewer."""
    with translation.override("en"):
        return {
            item.pk: item.count - short.get(item.name, 0) for item in copy.game.content_items.all()
        }


def refusal(**kwargs) -> str:
    with translation.override("en"), pytest.raises(LendingRefused) as refused:
        lend(**kwargs)
    return refused.value.reason


def test_due_dates_fall_on_an_opening_day(settings):
    saturday = datetime.date(2026, 11, 21)
    assert due_date(saturday, 21) == datetime.date(2026, 12, 12)  # a Saturday already
    assert due_date(saturday, 14) == datetime.date(2026, 12, 5)
    assert due_date(saturday, 10) == datetime.date(2026, 12, 2)  # Tuesday → Wednesday
    settings.LENDING_OPENING_WEEKDAYS = []
    assert due_date(saturday, 10) == datetime.date(2026, 12, 1)


def test_a_loan_is_due_after_the_member_types_period_and_the_copy_is_on_loan(villa, ola, desk_user):
    (copy,) = copies(villa, "J0001")
    loan = lend(member=ola, copy=copy, by=desk_user, now=MORNING)
    copy.refresh_from_db()
    assert copy.status == CopyStatus.ON_LOAN
    assert (loan.household, loan.member, loan.lent_by) == (ola.household, ola, desk_user)
    assert loan.due_on == datetime.date(2026, 12, 12)
    with translation.override("en"):
        assert refusal(member=make_household("L2", "Berg"), copy=copy, by=desk_user) == (
            "J0001 (Villa Paletti) is already on loan, due back 12 December."
        )
    with translation.override("fr"), pytest.raises(LendingRefused) as refused:
        lend(member=ola, copy=copy, by=desk_user)
    assert "12 décembre" in refused.value.reason


def test_the_database_keeps_one_open_loan_per_copy(villa, ola, desk_user):
    (copy,) = copies(villa, "J0001")
    lend(member=ola, copy=copy, by=desk_user, now=MORNING)
    with pytest.raises(IntegrityError):
        Loan.objects.create(copy=copy, household=ola.household, due_on=datetime.date(2026, 12, 12))


def test_a_household_at_its_quota_is_refused_a_fifth_game(villa, ola, desk_user):
    boxes = copies(villa, "J1", "J2", "J3", "J4", "J5")
    for copy in boxes[:4]:
        lend(member=ola, copy=copy, by=desk_user, now=MORNING)
    assert refusal(member=ola, copy=boxes[4], by=desk_user) == (
        "Nowak already borrows 4 games, as many as its membership allows."
    )
    with translation.override("pl"), pytest.raises(LendingRefused) as refused:
        lend(member=ola, copy=boxes[4], by=desk_user)
    assert refused.value.reason == (
        "Nowak ma już wypożyczone 4 gry, tyle, ile pozwala członkostwo."
    )
    boxes[4].refresh_from_db()
    assert boxes[4].status == CopyStatus.AVAILABLE


def test_a_lapsed_or_unpaid_membership_borrows_nothing(villa, desk_user):
    (copy,) = copies(villa, "J0001")
    lapsed = make_household(
        "L1", "Berg", start=datetime.date(2025, 9, 1), end=datetime.date(2026, 8, 31)
    )
    assert refusal(member=lapsed, copy=copy, by=desk_user, now=MORNING) == (
        "The membership of Berg ended on 31 August 2026: renew it first."
    )
    unpaid = make_household("L2", "Dupont", fee_paid=False)
    assert refusal(member=unpaid, copy=copy, by=desk_user, now=MORNING) == (
        "The membership fee of Dupont is not paid."
    )
    assert not Loan.objects.exists()


def test_a_copy_in_repair_or_incomplete_is_not_lent(villa, ola, desk_user):
    repair, broken = copies(villa, "J1", "J2")
    Copy.objects.filter(pk=repair.pk).update(status=CopyStatus.IN_REPAIR)
    assert refusal(member=ola, copy=repair, by=desk_user) == "J1 (Villa Paletti) is in repair."
    record_check(copy=broken, found=counts(broken, columns=2), user=desk_user)
    assert refusal(member=ola, copy=broken, by=desk_user) == (
        "J2 (Villa Paletti) is incomplete (columns (2 of 20 missing)): it is lent once whole."
    )


def test_a_return_runs_the_check_and_a_missing_piece_is_tied_to_the_loan(villa, ola, desk_user):
    (copy,) = copies(villa, "J0001")
    loan = lend(member=ola, copy=copy, by=desk_user, now=MORNING)
    back = give_back(copy=copy, by=desk_user, found=counts(copy, columns=1))
    copy.refresh_from_db()
    assert copy.status == CopyStatus.INCOMPLETE
    assert back.pk == loan.pk and back.returned_at and back.returned_by == desk_user
    assert not back.return_check.complete
    piece = MissingPiece.objects.get()
    assert (piece.loan, piece.loan.household, piece.item.name_fr, piece.count) == (
        loan,
        ola.household,
        "colonnes",
        1,
    )
    # Found later: a check finds the box whole, the copy is back and the piece cleared.
    record_check(copy=copy, found=counts(copy), user=desk_user)
    copy.refresh_from_db()
    piece.refresh_from_db()
    assert copy.status == CopyStatus.AVAILABLE and piece.found_at is not None
    assert not MissingPiece.objects.outstanding().exists()


def test_a_minor_missing_piece_leaves_the_copy_lendable_and_is_not_blamed_twice(
    villa, ola, desk_user
):
    (copy,) = copies(villa, "J0001")
    lend(member=ola, copy=copy, by=desk_user, now=MORNING)
    give_back(copy=copy, by=desk_user, found=counts(copy, hook=1), minor=True)
    copy.refresh_from_db()
    assert copy.status == CopyStatus.AVAILABLE
    berg = make_household("L2", "Berg")
    second = lend(member=berg, copy=copy, by=desk_user)
    # It comes back still without the hook: not Berg's loss, the copy stays lendable.
    give_back(copy=copy, by=desk_user, found=counts(copy, hook=1))
    copy.refresh_from_db()
    assert copy.status == CopyStatus.AVAILABLE
    assert not second.missing_pieces.exists()
    assert MissingPiece.objects.outstanding().get().loan.household == ola.household
    # Then a column goes missing too, not minor: the copy is incomplete.
    lend(member=berg, copy=copy, by=desk_user)
    give_back(copy=copy, by=desk_user, found=counts(copy, hook=1, columns=1))
    copy.refresh_from_db()
    assert copy.status == CopyStatus.INCOMPLETE


def test_available_now_stays_true_at_every_step_of_a_loan(villa, ola, desk_user):
    first, second = copies(villa, "J1", "J2")
    on_shelf = lambda: available_games(Game.objects.all()).filter(pk=villa.pk).exists()  # noqa: E731
    assert on_shelf()
    lend(member=ola, copy=first, by=desk_user)
    assert on_shelf()  # the second copy is on the shelf
    lend(member=ola, copy=second, by=desk_user)
    assert not on_shelf()
    give_back(copy=first, by=desk_user, found=counts(first, columns=1))
    assert not on_shelf()  # back, but incomplete
    give_back(copy=second, by=desk_user, found=counts(second))
    assert on_shelf()
    record_check(copy=first, found=counts(first), user=desk_user)
    assert Copy.objects.on_the_shelf().count() == 2


def test_a_check_puts_a_copy_marked_on_loan_by_hand_back_on_the_shelf(villa, desk_user):
    (copy,) = copies(villa, "J0001")
    Copy.objects.filter(pk=copy.pk).update(status=CopyStatus.ON_LOAN)  # no loan behind it
    record_check(copy=copy, found=counts(copy), user=desk_user)
    copy.refresh_from_db()
    assert copy.status == CopyStatus.AVAILABLE


def test_a_loan_is_renewed_once(villa, ola, desk_user):
    (copy,) = copies(villa, "J0001")
    loan = lend(member=ola, copy=copy, by=desk_user, now=MORNING)
    renewed = renew(loan=loan, by=desk_user, now=MORNING + datetime.timedelta(days=14))
    assert renewed.due_on == datetime.date(2026, 12, 26)  # 5 December + 21 days, a Saturday
    assert (renewed.renewals, renewed.renewed_by) == (1, desk_user)
    with translation.override("en"), pytest.raises(LendingRefused) as refused:
        renew(loan=loan, by=desk_user)
    assert refused.value.reason == "The loan of J0001 (Villa Paletti) was already renewed once."


def test_no_renewal_after_a_reminder(villa, ola, desk_user):
    (copy,) = copies(villa, "J0001")
    loan = lend(member=ola, copy=copy, by=desk_user, now=MORNING)
    Loan.objects.filter(pk=loan.pk).update(reminder_sent_at=timezone.now())
    with translation.override("da"), pytest.raises(LendingRefused) as refused:
        renew(loan=loan, by=desk_user)
    assert refused.value.reason == (
        "Der er sendt en påmindelse om J0001 (Villa Paletti): lånet kan ikke forlænges."
    )
    assert Loan.objects.get().due_on == datetime.date(2026, 12, 12)


def test_a_copy_not_on_loan_cannot_be_given_back(villa, desk_user):
    (copy,) = copies(villa, "J0001")
    with translation.override("en"), pytest.raises(LendingRefused) as refused:
        give_back(copy=copy, by=desk_user, found=counts(copy))
    assert refused.value.reason == "J0001 (Villa Paletti) is not on loan."
    assert not copy.checks.exists()


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL (SQLite: one writer)"
)


def at_once(*calls):
    """Run each call in its own thread and connection, released together; what each
    returned, or the reason it was refused (in English: a thread starts in the site's
    language)."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            with translation.override("en"):
                results[index] = call()
        except LendingRefused as refused:
            results[index] = refused.reason
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_two_desks_scanning_one_copy_lend_it_once(contents):
    villa = Game.objects.get(slug="villa-paletti")
    desk_user = User.objects.create_user("desk")
    for round_ in range(5):
        (copy,) = copies(villa, f"R{round_}")
        nowak, berg = make_household(f"A{round_}", "Nowak"), make_household(f"B{round_}", "Berg")
        results = at_once(
            lambda: lend(member=nowak, copy=copy, by=desk_user),
            lambda: lend(member=berg, copy=copy, by=desk_user),
        )
        assert sum(isinstance(r, Loan) for r in results) == 1, results
        assert sum(isinstance(r, str) and "already on loan" in r for r in results) == 1
        assert Loan.objects.filter(copy=copy).count() == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_two_desks_lending_to_one_household_keep_its_quota(contents):
    villa = Game.objects.get(slug="villa-paletti")
    desk_user = User.objects.create_user("desk")
    for round_ in range(5):
        one, two = copies(villa, f"X{round_}", f"Y{round_}")
        member = make_household(f"Q{round_}", "Nowak", quota=1)
        results = at_once(
            lambda: lend(member=member, copy=one, by=desk_user),
            lambda: lend(member=member, copy=two, by=desk_user),
        )
        assert Loan.objects.filter(household=member.household).count() == 1, results
        assert sum(isinstance(r, str) and "already borrows 1 game" in r for r in results) == 1


@pytest.mark.parametrize(
    "language, back",
    [
        ("en", "on loan, back by 12 December"),
        ("fr", "en prêt, retour prévu le 12 décembre"),
        ("da", "udlånt, tilbage senest 12. december"),
        ("pl", "wypożyczona, wróci do 12 grudnia"),
    ],
)
def test_the_public_record_says_when_a_game_on_loan_is_back(
    client, villa, ola, desk_user, language, back
):
    first, second = copies(villa, "J0001", "J0002")
    lend(member=ola, copy=first, by=desk_user)
    with translation.override(language):
        assert back.split(",")[0] not in client.get(villa.get_absolute_url()).content.decode()
    loan = lend(member=ola, copy=second, by=desk_user)  # none on the shelf now
    Loan.objects.filter(copy=first).update(due_on=datetime.date(2099, 12, 19))
    Loan.objects.filter(pk=loan.pk).update(due_on=datetime.date(2099, 12, 12))
    with translation.override(language):
        page = client.get(villa.get_absolute_url()).content.decode()
    assert back in page  # the first one due back
    assert available_games(Game.objects.filter(pk=villa.pk)).count() == 0
    # One back on the shelf: the record no longer says when.
    give_back(copy=second, by=desk_user, found=counts(second))
    with translation.override(language):
        assert back not in client.get(villa.get_absolute_url()).content.decode()
