"""The desk: a scanner types a barcode and Enter, staff count the box with the keyboard,
on a phone and on a desktop; the public record then says what is missing."""

from django.contrib.auth.models import Permission, User
from playwright.sync_api import expect

from e2e.conftest import assert_no_serious_violation, screenshot
from e2e.conftest import english_url as url
from games.lending.models import Copy
from games.models import Game


def test_check_a_copy_with_a_scanner_and_the_keyboard(seeded_server, page):
    volunteer = User.objects.create_user("desk", password="desk-pass-1", is_staff=True)
    volunteer.user_permissions.add(Permission.objects.get(codename="add_copycheck"))
    Copy.objects.create(game=Game.objects.get(slug="villa-paletti"), barcode="J0001")

    page.goto(url(seeded_server, "admin:login") + "?next=" + url(seeded_server, "lending:desk"))
    page.get_by_label("Username").fill("desk")
    page.get_by_label("Password").fill("desk-pass-1")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Check a copy")
    screenshot(page, "desk-scan")

    page.keyboard.type("J0001")  # what a barcode scanner does: the code, then Enter
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text("J0001")
    expect(page.get_by_label("1 base")).to_be_focused()
    page.keyboard.press("Space")  # 1 base: there
    page.keyboard.press("Tab")
    page.keyboard.type("5")  # 5 platforms
    page.keyboard.press("Tab")
    page.keyboard.type("19")  # 19 of the 20 columns
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # the seal
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # the hook
    screenshot(page, "desk-check")
    assert_no_serious_violation(page, "desk check")
    page.keyboard.press("Tab")  # the note: nothing to say
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Record the check")).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.get_by_role("status")).to_contain_text(
        "J0001 (Villa Paletti) is incomplete: columns (1 of 20 missing)."
    )
    expect(page.get_by_label("Barcode")).to_be_focused()  # ready for the next scan
    screenshot(page, "desk-after")

    page.goto(url(seeded_server, "games:game-detail", slug="villa-paletti"))
    expect(page.locator(".copies-summary")).to_have_text("1 copy, 0 on the shelf now")
    expect(page.locator(".copies-missing")).to_have_text(
        "Missing from copy J0001: columns (1 of 20 missing)."
    )
    screenshot(page, "game-missing-piece")
