"""What the play page tells, and when: the end once the pieces have landed.

Seed 42 with two seats: Bob (seat 1) starts with pink and white, Ada plays black and
purple.
"""

from playwright.sync_api import expect

from e2e.conftest import screenshot
from e2e.test_paletti import play_pink, settled

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


def watch(page):
    page.evaluate(WATCH)


def seen(page):
    return page.evaluate("window.seen")


def test_the_end_panel_waits_until_the_pieces_have_landed(seeded_server, page):
    from paletti.tests.setups import lopsided_setup

    play_pink(seeded_server, page, lopsided_setup(15))
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
    screenshot(page, "paletti-end-after-the-fall")
