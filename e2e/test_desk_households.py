"""A new household made at the desk with the keyboard (its card already given is refused
first), then lent a game by scanning; its details edited, a member added, its membership
extended. On a phone and a desktop; screenshots of each page."""

from django.contrib.auth.models import Permission, User
from playwright.sync_api import expect

from e2e.conftest import SCREENSHOTS, assert_no_serious_violation
from e2e.conftest import english_url as url
from e2e.test_desk_lending import scan
from games.lending.ledger import LedgerKind
from games.lending.models import Copy, Household, Loan, MemberType
from games.lending.tests.test_circulation import make_household
from games.models import Game

SHOTS = SCREENSHOTS / "desk-households"


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}-{page.width}.png", full_page=True)


def type_into(page, label, text):
    page.get_by_label(label, exact=True).focus()
    page.keyboard.type(text)


def test_a_new_household_at_the_desk_borrows_a_game(seeded_server, page, settings):
    settings.LENDING_OPENING_WEEKDAYS = []
    volunteer = User.objects.create_user("desk", password="desk-pass-1", is_staff=True)
    volunteer.user_permissions.add(  # the Ludothécaire group's, which a flush removes
        *Permission.objects.filter(
            codename__in=[
                "add_copycheck",
                "add_loan",
                "change_loan",
                "add_household",
                "change_household",
                "add_member",
            ]
        )
    )
    MemberType.objects.create(name="Famille", games_quota=4, loan_days=21)
    make_household(card="L0042", name="Nowak")
    Copy.objects.create(game=Game.objects.get(slug="villa-paletti"), barcode="J0001")

    page.goto(url(seeded_server, "admin:login") + "?next=" + url(seeded_server, "lending:desk"))
    page.get_by_label("Username").fill("desk")
    page.get_by_label("Password").fill("desk-pass-1")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Barcode", exact=True)).to_be_focused()
    shot(page, "desk-empty")

    page.get_by_role("link", name="New household").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("New household")
    expect(page.get_by_label("Name", exact=True)).to_be_focused()
    page.keyboard.type("Kowalski")
    page.keyboard.press("Tab")
    page.keyboard.type("L0042")  # a card already given: refused
    page.keyboard.press("Tab")
    page.keyboard.type("ul. Długa 3, 00-001 Warszawa")
    page.keyboard.press("Tab")
    page.keyboard.type("kowalski@example.org")
    page.keyboard.press("Tab")
    page.keyboard.type("polski")  # the language, chosen by typing its name
    type_into(page, "First name", "Zofia")
    page.keyboard.press("Tab")
    page.keyboard.type("Kowalska")
    page.get_by_label("Fee paid").focus()
    page.keyboard.press("Space")
    shot(page, "household-new")
    assert_no_serious_violation(page, "new household")
    page.get_by_role("button", name="Create the household").focus()
    page.keyboard.press("Enter")

    expect(page.get_by_role("alert")).to_have_text("Correct what is marked below.")
    expect(page.get_by_text("The card L0042 is already given to Nowak.")).to_be_visible()
    shot(page, "household-new-refused")
    card = page.get_by_label("Card number")
    expect(card).to_have_value("L0042")
    expect(card).to_be_focused()  # the field to correct
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("L0100")
    page.keyboard.press("Enter")  # Enter in a field submits the form

    expect(page.get_by_role("heading", level=1)).to_contain_text("Kowalski")
    expect(page.get_by_role("status")).to_contain_text("Kowalski (L0100) is a member until")
    expect(page.get_by_label("Borrowed by")).to_have_value(
        str(Household.objects.get(card_number="L0100").members.get().pk)
    )
    expect(page.get_by_label("Barcode", exact=True)).to_be_focused()
    scan(page, "J0001")
    expect(page.get_by_role("status")).to_contain_text(
        "J0001 (Villa Paletti) lent to Zofia Kowalska, due back"
    )
    expect(page.locator("li.desk-loan")).to_have_count(1)
    shot(page, "desk-new-household")
    assert_no_serious_violation(page, "desk with a new household")

    household = Household.objects.get(card_number="L0100")
    assert household.language == "pl" and household.fee_paid
    assert Loan.objects.get().household == household
    assert household.ledger_entries.filter(kind=LedgerKind.FEE).count() == 1

    page.get_by_role("link", name="Add a member").click()
    expect(page.get_by_label("First name")).to_be_focused()
    page.keyboard.type("Kuba")
    page.get_by_label("Child's age").focus()
    page.keyboard.type("8")
    shot(page, "member-new")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_have_text("Kuba is a member of Kowalski.")
    expect(page.get_by_label("Borrowed by").locator("option:checked")).to_have_text("Kuba")

    page.get_by_role("link", name="Edit household").click()
    expect(page.get_by_label("Contact")).to_have_value("ul. Długa 3, 00-001 Warszawa")
    shot(page, "household-edit")
    page.get_by_role("link", name="Back to the desk").click()
    page.get_by_role("button", name="Extend membership by a year").click()
    expect(page.get_by_role("status")).to_contain_text("Kowalski is a member until")
    assert household.ledger_entries.filter(kind=LedgerKind.FEE).count() == 2
