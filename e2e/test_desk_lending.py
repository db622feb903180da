"""A morning at the desk, with a scanner typed as keystrokes: a household's card, three
games lent, a fourth refused (its quota), one brought back with a piece missing, one
reserved. On a
phone, a tablet and a desktop; screenshots of each."""

import datetime

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse
from django.utils import timezone, translation
from playwright.sync_api import expect

from e2e.conftest import SCREENSHOTS, assert_no_serious_violation
from e2e.conftest import english_url as url
from games.lending.models import Copy, CopyStatus, Household, Member, MemberType
from games.models import Game

SHOTS = SCREENSHOTS / "loans"


@pytest.fixture(params=[390, 820, 1280], ids=["phone", "tablet", "desktop"])
def desk_page(request, browser):
    width = request.param
    context = browser.new_context(
        viewport={"width": width, "height": 1180 if width == 820 else 900},
        has_touch=width < 1000,
    )
    page = context.new_page()
    page.width = width
    yield page
    context.close()


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}-{page.width}.png", full_page=True)


def scan(page, code):
    page.keyboard.type(code)  # what a barcode scanner does: the code, then Enter
    page.keyboard.press("Enter")


def test_a_morning_at_the_desk(seeded_server, desk_page, settings):
    settings.LENDING_OPENING_WEEKDAYS = []
    page = desk_page
    volunteer = User.objects.create_user("desk", password="desk-pass-1", is_staff=True)
    volunteer.user_permissions.add(  # the Ludothécaire group's, which a flush removes
        *Permission.objects.filter(
            codename__in=["add_copycheck", "add_loan", "change_loan", "add_hold", "change_hold"]
        )
    )
    games = {
        "V": Game.objects.get(slug="villa-paletti"),
        "P": Game.objects.get(slug="le-petit-prince-fabrique-moi-une-planete"),
        "A": Game.objects.get(slug="alhambra"),
    }
    for code, game in [("J0001", "V"), ("J0002", "P"), ("J0003", "A"), ("J0004", "A")]:
        Copy.objects.create(game=games[game], barcode=code)
    Copy.objects.create(game=games["V"], barcode="J0005", status=CopyStatus.IN_REPAIR)
    today = timezone.localdate()
    household = Household.objects.create(
        card_number="L0042",
        name="Nowak",
        member_type=MemberType.objects.create(name="Famille", games_quota=3, loan_days=21),
        membership_start=today - datetime.timedelta(days=60),
        membership_end=today + datetime.timedelta(days=300),
        fee_paid=True,
    )
    Member.objects.create(household=household, first_name="Anna", last_name="Nowak")
    due = today + datetime.timedelta(days=21)
    due_text = f"{due.day} {due:%B}"

    page.goto(url(seeded_server, "admin:login") + "?next=" + url(seeded_server, "lending:desk"))
    page.get_by_label("Username").fill("desk")
    page.get_by_label("Password").fill("desk-pass-1")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Barcode", exact=True)).to_be_focused()
    shot(page, "desk-empty")

    scan(page, "L0042")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Nowak")
    expect(page.get_by_text("Nothing borrowed now.")).to_be_visible()
    expect(page.get_by_label("Barcode", exact=True)).to_be_focused()
    for code in ("J0001", "J0002", "J0003"):
        scan(page, code)
        expect(page.get_by_role("status")).to_contain_text(f"{code} (")
        expect(page.get_by_role("status")).to_contain_text(f"due back {due_text}.")
        expect(page.get_by_label("Barcode", exact=True)).to_be_focused()
    loans = page.locator("li.desk-loan")
    expect(loans).to_have_count(3)
    expect(loans.first).to_contain_text(f"due back {due_text}")
    expect(page.get_by_text("3 games of 3 borrowed")).to_be_visible()

    scan(page, "J0004")  # a fourth: over the household's quota
    expect(page.get_by_role("alert")).to_have_text(
        "Nowak already borrows 3 games, as many as its membership allows."
    )
    assert Copy.objects.get(barcode="J0004").status == CopyStatus.AVAILABLE
    shot(page, "desk-household")
    assert_no_serious_violation(page, "desk household")

    scan(page, "J0001")  # back: the box is counted on the copy's page
    expect(page.get_by_text("On loan to Nowak (L0042)")).to_be_visible()
    expect(page.get_by_label("1 base")).to_be_focused()
    page.keyboard.press("Space")  # 1 base
    page.keyboard.press("Tab")
    page.keyboard.type("5")  # 5 platforms
    page.keyboard.press("Tab")
    page.keyboard.type("19")  # 19 of the 20 columns
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # the seal
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # the hook
    shot(page, "desk-return")
    assert_no_serious_violation(page, "desk return")
    page.keyboard.press("Tab")  # the note
    page.keyboard.press("Tab")  # minor? no: the column matters
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Record the return")).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.get_by_role("status")).to_have_text(
        "J0001 (Villa Paletti) is back from Nowak, incomplete: columns (1 of 20 missing)."
    )
    expect(page.locator("li.desk-loan")).to_have_count(2)
    expect(page.get_by_label("Barcode", exact=True)).to_be_focused()
    shot(page, "desk-after-return")

    # Villa Paletti has no copy on the shelf now: the household reserves it.
    page.get_by_label("Reserve a game").focus()
    page.keyboard.type("villa")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_have_text(
        "Villa Paletti reserved for Nowak: number 1 in the queue."
    )
    expect(page.locator(".desk-holds li")).to_contain_text("number 1 in the queue")
    shot(page, "desk-reserved")

    # The public record of a game whose only copy is out says when it is back.
    page.goto(url(seeded_server, "games:game-detail", slug=games["P"].slug))
    expect(page.locator(".copies-summary")).to_have_text(
        f"1 copy, 0 on the shelf now · on loan, back by {due_text}"
    )
    shot(page, "game-on-loan")
    with translation.override("fr"):
        page.goto(seeded_server.url + reverse("lending:desk"))
    expect(page.get_by_role("heading", level=2).first).to_have_text("Empruntés en ce moment")
    shot(page, "desk-household-fr")
    copy = Copy.objects.get(barcode="J0001")
    assert copy.status == CopyStatus.INCOMPLETE
    missing = copy.loans.get().missing_pieces.get()
    assert (missing.item.name_en, missing.count, missing.loan.household) == (
        "columns",
        1,
        household,
    )
