"""A reader switches language on a game's page and reads two languages side by side."""

import re

from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from e2e.conftest import assert_no_serious_violation, screenshot


def test_switch_language_then_compare(seeded_server, page):
    with translation.override("fr"):
        path = reverse("games:game-detail", kwargs={"slug": "villa-paletti"})
    page.goto(seeded_server.url + path)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator('.rules-summary .markdown[lang="fr"]')).to_contain_text("sceau")

    page.locator(".lang-switch").get_by_role("link", name="Dansk").click()

    expect(page).to_have_url(re.compile(r"/da/games/villa-paletti/$"))
    expect(page.locator("html")).to_have_attribute("lang", "da")
    expect(page.locator('.rules-summary .markdown[lang="da"]')).to_contain_text("bygmester")
    expect(page.locator(".lang-switch [aria-current]")).to_have_text("Dansk")

    page.locator(".rules-summary .rule-languages a").last.click()  # the side-by-side link
    page.get_by_label(re.compile("^(Højre|Right)")).select_option("pl")
    page.get_by_role("button").filter(has_text=re.compile("Sammenlign|Compare")).click()

    expect(page).to_have_url(re.compile(r"left=da.*right=pl"))
    expect(page.locator('.side-by-side .markdown[lang="da"]').first).to_contain_text("Spillets mål")
    expect(page.locator('.side-by-side .markdown[lang="pl"]')).to_have_count(7)
    expect(page.locator(".side-by-side")).to_contain_text("Wielka Pieczęć")
    screenshot(page, "compare")

    assert_no_serious_violation(page, "compare")
