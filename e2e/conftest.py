"""Browser tests: Playwright for Python driving Debian's Chromium against live_server."""

import os
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Where the browser tests leave their screenshots to look at: e2e/screenshots/ (ignored by
# git), or the folder E2E_SCREENSHOTS names.
SCREENSHOTS = Path(os.environ.get("E2E_SCREENSHOTS") or Path(__file__).parent / "screenshots")
PACE_ALL_AT_ONCE = "localStorage.setItem('paletti-bots-one-by-one', 'no');"
# The first-game guide, once read, stays closed (test_paletti_guidance.py opens it).
GUIDE_SEEN = "localStorage.setItem('paletti-guide-seen', 'yes');"

# live_server runs in a thread; Playwright's sync API keeps an event loop in this one.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make test`, which installs it.")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def seeded_server(live_server, transactional_db):
    call_command("seed", "--force", verbosity=0)
    return live_server


@pytest.fixture(params=[390, 1280], ids=["phone", "desktop"])
def page(request, browser):
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    # Most tests check what a turn leads to, not its pace: they choose, as a player can,
    # to see the bots' moves all at once (test_paletti_pace.py covers the pace).
    context.add_init_script(PACE_ALL_AT_ONCE)
    context.add_init_script(GUIDE_SEEN)
    page = context.new_page()
    page.width = request.param
    yield page
    context.close()


def screenshot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}-{page.width}.png", full_page=True)


def english_url(server, name, **kwargs):
    """A page's address in English, so tests read the same whatever the translations say."""
    from django.urls import reverse
    from django.utils import translation

    with translation.override("en"):
        return server.url + reverse(name, kwargs=kwargs or None)


def assert_no_serious_violation(page, name):
    """axe-core (bundled with axe-playwright-python, no network) finds nothing serious."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    serious = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == [], f"{name}: {serious}"


@pytest.fixture
def finger(browser):
    """A phone held in the hand: 390 × 844, touch screen, no mouse; the guide already
    read, the bots' moves shown at once."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    context.add_init_script(PACE_ALL_AT_ONCE)
    context.add_init_script(GUIDE_SEEN)
    page = context.new_page()
    page.width = 390
    yield page
    context.close()
