"""Every main page loads without a console error or a failed request (the favicon included)."""

import re

from playwright.sync_api import expect

from e2e.conftest import english_url as url


def test_no_page_logs_an_error_or_fails_a_request(seeded_server, page):
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"script: {e}"))
    page.on(
        "response",
        lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    pages = [
        url(seeded_server, "games:home"),
        url(seeded_server, "games:game-list"),
        url(seeded_server, "games:game-detail", slug="villa-paletti"),
        url(seeded_server, "scoring:game-score", slug="alhambra"),
        url(seeded_server, "scoring:game-score", slug="le-petit-prince-fabrique-moi-une-planete"),
        url(seeded_server, "paletti:setup"),
    ]
    for address in pages:
        page.goto(address)
        page.wait_for_load_state("networkidle")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    page.wait_for_load_state("networkidle")
    assert problems == []
    icon = page.evaluate("document.querySelector('link[rel=icon]').href")
    assert page.request.get(icon).ok


def test_the_home_page_offers_the_game_playable_here(seeded_server, page):
    page.goto(url(seeded_server, "games:home"))
    page.locator(".hero").get_by_role("link", name="Play Villa Paletti").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Play Villa Paletti")


INJECT_INLINE_SCRIPT = """() => new Promise((resolve) => {
  document.addEventListener("securitypolicyviolation", (e) => resolve(e.effectiveDirective));
  const script = document.createElement("script");
  script.textContent = "window.injected = true;";
  document.body.append(script);
  setTimeout(() => resolve(null), 2000);
})"""


def test_csp_the_browser_refuses_an_injected_inline_script(seeded_server, page):
    """The policy the pages send is one the browser enforces: a script written into the
    page (as an injection would) does not run, on the catalogue or on the play page."""
    for address in (
        url(seeded_server, "games:game-detail", slug="villa-paletti"),
        url(seeded_server, "paletti:setup"),
    ):
        page.goto(address)
        assert page.evaluate(INJECT_INLINE_SCRIPT) == "script-src-elem", address
        assert page.evaluate("window.injected") is None, address
