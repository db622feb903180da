"""A household's ledger at the desk and the lending statistics, in a browser on a phone
and a desktop: the card scanned, the ledger opened from the desk, a deposit recorded, the
statistics reached from the desk with their CSV; screenshots of each."""

import datetime
from decimal import Decimal
from pathlib import Path

from django.contrib.auth.models import Permission, User
from django.utils import timezone
from playwright.sync_api import expect

from e2e.conftest import SCREENSHOTS, assert_no_serious_violation
from e2e.conftest import english_url as url
from games.lending.circulation import give_back, lend
from games.lending.ledger import LedgerKind, record, record_membership
from games.lending.models import Copy, Household, Loan, Member, MemberType
from games.models import Game

SHOTS = SCREENSHOTS / "ledger"


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}-{page.width}.png", full_page=True)


def a_season(volunteer):
    """The Nowak household: its fee, a payment, a return with two columns missing (a bond),
    and loans of the three seed games over the last months."""
    today = timezone.localdate()
    household = Household.objects.create(
        card_number="L0042",
        name="Nowak",
        member_type=MemberType.objects.create(name="Famille", games_quota=4, loan_days=21),
        membership_start=today - datetime.timedelta(days=60),
        membership_end=today + datetime.timedelta(days=300),
        fee_paid=False,
    )
    anna = Member.objects.create(household=household, first_name="Anna", last_name="Nowak")
    Member.objects.create(household=household, first_name="Zosia", child_age=7)
    record_membership(household=household, by=volunteer)
    record(household=household, kind=LedgerKind.PAYMENT, amount=Decimal("20"), by=volunteer)
    games = list(Game.objects.order_by("title"))
    boxes = [Copy.objects.create(game=game, barcode=f"J000{n}") for n, game in enumerate(games)]
    villa = Copy.objects.get(game__slug="villa-paletti")
    lend(member=anna, copy=villa, by=volunteer)
    found = {item.pk: item.count for item in villa.game.content_items.all()}
    columns = villa.game.content_items.get(name_en="columns")
    found[columns.pk] -= 2
    give_back(copy=villa, by=volunteer, found=found)
    now = timezone.now()
    Loan.objects.bulk_create(
        Loan(
            copy=boxes[n % len(boxes)],
            household=household,
            lent_at=now - datetime.timedelta(days=30 * (n % 8) + 1),
            due_on=today,
            returned_at=now - datetime.timedelta(days=30 * (n % 8)),
        )
        for n in range(20)
    )


def test_the_ledger_and_the_statistics_from_the_desk(seeded_server, page):
    volunteer = User.objects.create_user("desk", password="desk-pass-1", is_staff=True)
    volunteer.user_permissions.add(
        *Permission.objects.filter(
            codename__in=[
                "add_copycheck",
                "add_loan",
                "change_loan",
                "view_loan",
                "view_ledgerentry",
                "add_ledgerentry",
            ]
        )
    )
    a_season(volunteer)
    page.goto(url(seeded_server, "admin:login") + "?next=" + url(seeded_server, "lending:desk"))
    page.get_by_label("Username").fill("desk")
    page.get_by_label("Password").fill("desk-pass-1")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Barcode", exact=True)).to_be_focused()
    page.keyboard.type("L0042")
    page.keyboard.press("Enter")
    expect(page.locator(".desk-ledger")).to_contain_text("Balance: 4.00 EUR")
    shot(page, "desk-household")
    page.get_by_role("link", name="Ledger: fee, deposit, bonds").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ledger: Nowak")
    figures = page.locator(".ledger-figures")
    expect(figures).to_contain_text("4.00 EUR")  # the 2 columns' bond, 2.00 each
    expect(page.locator(".ledger-table")).to_contain_text("bond for a missing piece")

    page.get_by_label("What").select_option("deposit_held")
    page.get_by_label("Amount (EUR)").fill("50")
    page.get_by_role("button", name="Record").click()
    expect(page.get_by_role("status")).to_have_text("Recorded: deposit held, 50.00 EUR.")
    expect(figures).to_contain_text("50.00 EUR")
    page.get_by_label("What").select_option("deposit_cashed")
    page.get_by_label("Amount (EUR)").fill("50")
    page.get_by_role("button", name="Record").click()
    expect(page.get_by_role("alert")).to_contain_text("only after a reminder")
    assert_no_serious_violation(page, "ledger")
    shot(page, "ledger")

    page.get_by_role("link", name="Back to the lending desk").click()
    page.get_by_role("button", name="Done: next household").click()
    page.get_by_role("link", name="Statistics of the last twelve months").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lending statistics")
    loans = page.locator("#table-loans + p + .table-scroll table")
    expect(loans.locator("tbody tr")).to_have_count(3)
    expect(page.get_by_role("row", name="columns")).to_contain_text("Villa Paletti")
    expect(page.get_by_role("row", name="7 1", exact=True)).to_be_visible()  # Zosia's age
    with page.expect_download() as download:
        page.locator("#table-loans + p a").click()
    assert Path(download.value.path()).read_text().startswith("Game,")
    assert_no_serious_violation(page, "statistics")
    shot(page, "statistics")

    page.goto(seeded_server.url + "/fr/desk/households/L0042/ledger/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Compte\u00a0: Nowak")
    shot(page, "ledger-fr")
