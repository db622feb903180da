"""What the play page tells, and when: the end once the pieces have landed, nobody's turn
while a bot thinks or its moves are being told, and on a phone the villa in sight once the
first-game guide is closed.

Seed 42 with two seats: Bob (seat 1) starts with pink and white, Ada plays black and
purple.
"""

import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import GUIDE_SEEN, screenshot
from e2e.conftest import english_url as url
from e2e.test_paletti import ADA_AND_BOB, SEED, create_by_api, play_pink, settled

ADA_AND_BOT = [{"name": "Ada", "kind": "human"}, {"name": "Bob", "kind": "bot", "level": "easy"}]

# Records, in the page, every change of the end panel, the drawing's animation, the banner
# and whether the page waits for the server or tells bots' moves.
WATCH = """() => {
    if (window.seen) return;
    const root = document.querySelector('#paletti-match');
    const banner = document.querySelector('#turn-banner');
    const end = document.querySelector('#game-over');
    window.seen = [];
    const note = () => window.seen.push({
        t: performance.now(),
        banner: banner.textContent,
        busy: root.hasAttribute('data-busy'),
        telling: root.hasAttribute('data-telling'),
        animating: root.hasAttribute('data-animating'),
        end: !end.hidden,
    });
    const options = { attributes: true, childList: true, subtree: true, characterData: true };
    new MutationObserver(note).observe(banner, options);
    new MutationObserver(note).observe(end, { attributes: true, attributeFilter: ['hidden'] });
    new MutationObserver(note).observe(root, {
        attributes: true, attributeFilter: ['data-busy', 'data-telling', 'data-animating'],
    });
    note();
}"""


@pytest.fixture(params=["phone", "desktop"])
def device(request, browser):
    """A touch phone 390 × 844, or a desktop with a mouse; the guide already read, the
    bots' moves told one at a time (the page's default)."""
    if request.param == "phone":
        options = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    else:
        options = {"viewport": {"width": 1280, "height": 900}}
    context = browser.new_context(**options)
    context.add_init_script(GUIDE_SEEN)
    page = context.new_page()
    page.width = options["viewport"]["width"]
    yield page
    context.close()


def watch(page):
    page.evaluate(WATCH)


def watch_from_the_start(page):
    page.add_init_script(f"addEventListener('DOMContentLoaded', {WATCH});")


def visible_share(page, selector):
    """How much of an element's height is inside the viewport (0 to 1)."""
    return page.evaluate(
        """(selector) => {
            const r = document.querySelector(selector).getBoundingClientRect();
            const seen = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
            return Math.max(0, seen) / r.height;
        }""",
        selector,
    )


def seen(page):
    return page.evaluate("window.seen")


def test_the_end_panel_waits_until_the_pieces_have_landed(seeded_server, page):
    from paletti.tests.setups import lopsided_setup

    play_pink(seeded_server, page, lopsided_setup(15))
    level = blue_rows(page, "#villa-depth")  # the blue platform, level on its columns
    assert level > 0
    page.locator(".column-choice[data-column='15']").click()
    expect(page.get_by_role("button", name="Pull it out quickly")).to_be_visible()
    watch(page)
    # Pulled quickly, with one hand, the villa's only support on the left: it falls.
    with page.expect_response(lambda r: "/actions/" in r.url) as answer:
        page.get_by_role("button", name="Pull it out quickly").click()
    frames = answer.value.json()["frames"]
    assert answer.value.json()["state"]["collapse"] is not None
    expect(page.locator("#game-over")).to_be_visible(timeout=15000)
    settled(page)
    records = seen(page)
    moving = [r["t"] for r in records if r["animating"]]
    still = [r["t"] for r in records if not r["animating"] and moving and r["t"] > moving[0]]
    shown = [r["t"] for r in records if r["end"]]
    # The fall was drawn for as long as the server simulated it, and the end panel came
    # after its last frame, never over falling pieces.
    assert still[0] - moving[0] >= 1000 * frames[-1]["t"] * 0.95, records
    assert not any(r["end"] and r["animating"] for r in records), records
    assert shown[0] >= still[0], records
    # The blue platform came to lie tilted across the width, on the columns: from the side
    # it is seen slantwise, a band as tall as its tilt, not a level board on top.
    assert abs(answer.value.json()["state"]["platforms"][0]["angle"]) > 0.3
    assert blue_rows(page, "#villa-depth") >= 4 * level, (level, blue_rows(page, "#villa-depth"))
    screenshot(page, "paletti-end-after-the-fall")


# Rows of a canvas holding the blue platform's colour (drawn whole or half see-through).
BLUE_ROWS = """(selector) => {
    const canvas = document.querySelector(selector);
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let rows = 0;
    for (let y = 0; y < canvas.height; y += 1) {
        for (let x = 0; x < canvas.width; x += 1) {
            const i = 4 * (y * canvas.width + x);
            if (data[i + 2] > 150 && data[i + 2] - data[i] > 60 && data[i + 2] - data[i + 1] > 25) {
                rows += 1;
                break;
            }
        }
    }
    return rows;
}"""


def blue_rows(page, selector):
    return page.evaluate(BLUE_ROWS, selector)


def test_nobody_is_told_your_turn_while_a_bot_thinks_or_its_moves_are_told(seeded_server, device):
    page = device
    banner = page.locator("#turn-banner")
    watch_from_the_start(page)
    # Bob (a bot) plays first: the page opens on the story of his turn.
    page.goto(url(seeded_server, "paletti:setup") + f"?seed={SEED}")
    page.get_by_label("Name").nth(0).fill("Ada")
    page.get_by_label("Name").nth(1).fill("Bob")
    page.get_by_label("Played by").nth(1).select_option(label="a bot (easy)")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    expect(page.locator("#paletti-match[data-telling]")).to_have_count(1)
    expect(page.locator("#paletti-match[data-telling]")).to_have_count(0, timeout=20000)
    expect(banner).to_have_text(re.compile("Ada, your turn"))
    page.get_by_role("button", name="Play black").click()
    page.get_by_role("button", name=re.compile("Touch the black thick round column")).click()
    page.get_by_role("button", name="Pull it out gently").click()
    place = page.get_by_role("button", name="Place it here")
    expect(place).to_be_enabled()
    # Bob thinks while the server holds Ada's placement.
    held, holding = [], [True]
    page.route("**/actions/", lambda r: held.append(r) if holding[0] else r.continue_())
    page.evaluate("window.seen.push({ mark: 'place' })")
    place.click()
    expect(page.locator("#thinking")).to_have_text("Bob (bot) is thinking…")
    expect(banner).not_to_contain_text("your turn")
    expect(banner).to_contain_text("Bob")
    screenshot(page, "paletti-banner-while-the-bot-thinks")
    holding[0] = False
    held[0].continue_()
    expect(page.locator("#paletti-match[data-telling]")).to_have_count(1)
    expect(banner).not_to_contain_text("your turn")
    expect(page.locator("#paletti-match[data-telling]")).to_have_count(0, timeout=20000)
    expect(banner).to_have_text(re.compile("Ada, your turn"))
    # Throughout: while bots' moves were told, and from the placement that hands over to Bob
    # until his turn had been told.
    records = seen(page)
    placed = records.index({"mark": "place"})
    bots = [r for r in records[:placed] if r["telling"]]
    bots += [r for r in records[placed + 1 :] if r["telling"] or r["busy"]]
    assert bots and not [r for r in bots if "your turn" in r["banner"]], bots


@pytest.mark.parametrize("players", [ADA_AND_BOB, ADA_AND_BOT], ids=["hot-seat", "bot"])
def test_on_a_phone_closing_the_guide_shows_the_villa(seeded_server, browser, players):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.width = 390
    try:
        match = create_by_api(seeded_server, page, players)
        page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
        expect(page.locator("#paletti-match.ready")).to_be_attached()
        guide = page.locator("#guide")
        expect(guide).to_have_attribute("open", "")
        # Read to its end: its last button has reached the top of the screen.
        done = page.get_by_role("button", name="Got it, let's play")
        done.evaluate("b => b.scrollIntoView({ block: 'start' })")
        done.tap()
        expect(guide).not_to_have_attribute("open", "")
        expect(page.locator("#turn-banner")).to_be_focused()
        assert visible_share(page, "#villa") >= 0.9
        expect(page.locator("#turn-banner")).to_be_in_viewport()
        expect(page.locator("#actions button").first).to_be_in_viewport()
        screenshot(page, f"paletti-guide-closed-{players[1]['kind']}")
    finally:
        context.close()
