"""A patron searches, filters and opens a record, on a phone and on a desktop."""

import re

from playwright.sync_api import expect

from e2e.conftest import assert_no_serious_violation, screenshot
from e2e.conftest import english_url as url


def test_search_from_home_then_open_a_record(seeded_server, page):
    page.goto(url(seeded_server, "games:home"))
    page.get_by_label("Find a game").fill("maitre d'oeuvre")
    page.get_by_label("Find a game").press("Enter")
    expect(page.locator(".results-count")).to_contain_text("1")
    page.get_by_role("link", name="Villa Paletti", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Villa Paletti")
    expect(page.locator(".record")).to_contain_text("Bill Payne")
    screenshot(page, "game")


def test_filter_by_players_with_the_keyboard(seeded_server, page):
    page.goto(url(seeded_server, "games:game-list"))
    page.get_by_label("Number of players").fill("6")
    page.get_by_label("Number of players").press("Enter")
    expect(page).to_have_url(re.compile(r"players=6"))
    expect(page.locator(".game-card")).to_have_count(1)
    expect(page.locator(".game-card")).to_contain_text("Alhambra")
    screenshot(page, "list")


def test_bad_filter_shows_a_message_and_a_way_out(seeded_server, page):
    page.goto(url(seeded_server, "games:game-list") + "?age=-3")
    expect(page.locator(".field-error")).to_be_visible()
    page.get_by_role("link", name="Show all games").click()
    expect(page.locator(".game-card")).to_have_count(3)


def test_no_serious_accessibility_violation(seeded_server, page):
    for name, kwargs in [
        ("games:home", {}),
        ("games:game-list", {}),
        ("games:game-detail", {"slug": "villa-paletti"}),
    ]:
        page.goto(url(seeded_server, name, **kwargs))
        assert_no_serious_violation(page, name)
    screenshot(page, "home")


def test_search_box_suggests_titles_while_typing(seeded_server, page):
    page.goto(url(seeded_server, "games:home"))
    box = page.get_by_label("Find a game")
    box.press_sequentially("paleti", delay=30)
    expect(page.locator("#search-q-suggestions option[value='Villa Paletti']")).to_have_count(1)
    box.fill("Villa Paletti")
    box.press("Enter")
    expect(page.locator(".game-card").first).to_contain_text("Villa Paletti")
