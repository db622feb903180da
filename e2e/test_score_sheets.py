"""A family counts a finished game at the table: a phone in Polish, a laptop in French."""

import re

import pytest
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from e2e.conftest import SCREENSHOTS, assert_no_serious_violation

PETIT_PRINCE = "le-petit-prince-fabrique-moi-une-planete"


def sheet_url(server, slug, language):
    with translation.override(language):
        return server.url + reverse("scoring:game-score", kwargs={"slug": slug})


@pytest.fixture
def open_page(browser):
    contexts = []

    def open_page(width, **options):
        context = browser.new_context(viewport={"width": width, "height": 900}, **options)
        contexts.append(context)
        page = context.new_page()
        page.width = width
        return page

    yield open_page
    for context in contexts:
        context.close()


def shoot(page, name):
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}-{page.width}.png", full_page=True)


def test_a_phone_in_polish_counts_le_petit_prince_as_the_players_type(seeded_server, open_page):
    page = open_page(390, has_touch=True, is_mobile=True)
    with translation.override("pl"):
        detail = reverse("games:game-detail", kwargs={"slug": PETIT_PRINCE})
    page.goto(seeded_server.url + detail)
    page.get_by_role("link", name="Policz punkty").click()
    expect(page).to_have_url(re.compile(r"/pl/games/.+/score/$"))
    expect(page.locator("form.score-sheet")).to_have_attribute("data-live", "true")

    first, second = page.locator("fieldset.sheet-block").all()
    first.get_by_label("Imię").fill("Ada")
    for corner, character in enumerate(["Król", "Ogrodnik", "Myśliwy", "Pijak"], start=1):
        first.get_by_label(f"Postać {corner}", exact=True).select_option(label=character)
    first.get_by_label("Róże").fill("1")
    first.get_by_label("Widoczne baobaby").fill("2")
    first.get_by_label("Wulkany").fill("4")
    first.get_by_label("Odwrócone kafelki").fill("3")
    first.get_by_label("Węże").fill("1")
    first.get_by_label("Gatunki zwierząt", exact=False).fill("2")
    # The second planet is still empty: no totals yet, and the page says why.
    incomplete = page.locator("[data-sheet-incomplete]")
    expect(incomplete).to_be_visible()
    expect(incomplete).to_contain_text("Sumy pojawią się")
    expect(page.locator("[data-sheet-errors]")).to_be_hidden()
    second.get_by_label("Imię").fill("Bartek")
    for corner in range(1, 5):
        second.get_by_label(f"Postać {corner}", exact=True).select_option(label="Pijak")
    second.get_by_label("Odwrócone kafelki").fill("6")
    second.get_by_label("Wulkany").fill("1")

    # No button pressed: the totals follow the typing.
    expect(first.locator('[data-result="players.0.total"]')).to_have_text("39")
    expect(second.locator('[data-result="players.1.total"]')).to_have_text("72")
    expect(first.locator('[data-result="players.0.volcano_penalty"]')).to_have_text("−4")
    expect(page.locator(".verdict")).to_have_text("Wygrywa Bartek: 72 punkty.")
    expect(incomplete).to_be_hidden()
    shoot(page, "score-petit-prince-pl")
    assert_no_serious_violation(page, "Le Petit Prince score sheet, Polish phone")

    # A third baobab in view cannot be: the page says why, beside the field.
    first.get_by_label("Widoczne baobaby").fill("3")
    error = first.locator('[data-error-for="players.0.visible_baobabs"]')
    expect(error).to_contain_text("nigdy nie widać więcej niż 2 baobabów")
    expect(first.get_by_label("Widoczne baobaby")).to_have_attribute("aria-invalid", "true")
    expect(second.locator('[data-result="players.1.total"]')).to_have_text("—")
    assert_no_serious_violation(page, "Le Petit Prince score sheet with an error")
    box = page.locator("form.score-sheet").bounding_box()
    assert box["width"] <= 390

    # Alhambra's sheet fits the phone too, Dirk included with two players.
    page.goto(sheet_url(seeded_server, "alhambra", "pl"))
    expect(page.locator("fieldset.dirk").first).to_contain_text("Dirk")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, "score-alhambra-pl")
    assert_no_serious_violation(page, "Alhambra score sheet, Polish phone")


def fill_scoring(block, counts):
    for label, value in counts.items():
        block.get_by_label(label, exact=True).fill(str(value))


def test_a_laptop_in_french_counts_alhambra_with_and_without_script(seeded_server, open_page):
    page = open_page(1280)
    page.goto(sheet_url(seeded_server, "alhambra", "fr"))
    page.get_by_label("Nombre de joueurs").select_option("3")
    page.get_by_role("button", name="Nouvelle feuille").click()
    expect(page).to_have_url(re.compile(r"players=3"))
    expect(page.locator("form.score-sheet")).to_have_attribute("data-live", "true")

    names = page.locator("fieldset.names")
    for i, name in enumerate(["Ada", "Ben", "Chloé"], start=1):
        names.get_by_label(f"Joueur {i}").fill(name)
    first_scoring = page.locator("fieldset.scoring").first
    ada, ben, chloe = first_scoring.locator("fieldset.holder").all()
    fill_scoring(ada, {"Tours": 2, "Plus long mur d'enceinte": 3})
    fill_scoring(ben, {"Tours": 2, "Jardins": 1})
    fill_scoring(chloe, {"Pavillons": 1})

    # Ada and Ben share the towers' first place: 6 // 2 = 3 each.
    expect(ada.locator('[data-result="scorings.0.players.0.total"]')).to_have_text("6")
    expect(ben.locator('[data-result="scorings.0.players.1.running_total"]')).to_have_text("8")
    expect(ada.locator('[data-result="scorings.0.players.0.buildings.tower"]')).to_have_text("+3")
    expect(page.locator(".verdict")).to_have_text(
        "Après le premier comptage, Ben mène avec 8 points."
    )
    shoot(page, "score-alhambra-fr")
    assert_no_serious_violation(page, "Alhambra score sheet, French desktop")

    # The same sheet, submitted by a browser without script, counts the same.
    bare = open_page(1280, java_script_enabled=False)
    bare.goto(page.url)
    bare_names = bare.locator("fieldset.names")
    for i, name in enumerate(["Ada", "Ben", "Chloé"], start=1):
        bare_names.get_by_label(f"Joueur {i}").fill(name)
    holders = bare.locator("fieldset.scoring").first.locator("fieldset.holder").all()
    fill_scoring(holders[0], {"Tours": 2, "Plus long mur d'enceinte": 3})
    fill_scoring(holders[1], {"Tours": 2, "Jardins": 1})
    fill_scoring(holders[2], {"Pavillons": 1})
    bare.get_by_role("button", name="Compter les points").click()
    expect(bare.locator(".verdict")).to_have_text(
        "Après le premier comptage, Ben mène avec 8 points."
    )
    expect(bare.locator('[data-result="scorings.0.players.2.running_total"]')).to_have_text("1")

    page.goto(sheet_url(seeded_server, PETIT_PRINCE, "fr"))
    shoot(page, "score-petit-prince-fr")
    assert_no_serious_violation(page, "Le Petit Prince score sheet, French desktop")


def test_the_alhambra_sheet_names_the_part_still_to_enter(seeded_server, open_page):
    # Two players: Dirk's buildings are needed at every scoring played, and the page says so
    # by name rather than "fill in the parts still empty".
    page = open_page(390)
    page.goto(sheet_url(seeded_server, "alhambra", "en"))
    expect(page.locator("form.score-sheet")).to_have_attribute("data-live", "true")
    names = page.locator("fieldset.names")
    names.get_by_label("Player 1", exact=True).fill("Ada")
    names.get_by_label("Player 2", exact=True).fill("Ben")
    first_scoring = page.locator("fieldset.scoring").first
    ada, ben = first_scoring.locator("fieldset.holder:not(.dirk)").all()
    fill_scoring(ada, {"Towers": 2, "Longest outer wall": 3})
    fill_scoring(ben, {"Gardens": 1})

    incomplete = page.locator("[data-sheet-incomplete]")
    expect(incomplete).to_have_text("First scoring: enter Dirk's buildings too.")
    shoot(page, "score-alhambra-missing-en")
    fill_scoring(first_scoring.locator("fieldset.dirk"), {"Pavilions": 3, "Seraglios": 3})
    expect(incomplete).to_be_hidden()
    expect(page.locator(".verdict")).to_contain_text("After the first scoring")
