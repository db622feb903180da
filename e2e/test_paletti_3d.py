"""The villa drawn as one object in three dimensions (scene.js): a fall in depth is seen in
the large drawing, a column is placed at a point (x, z) of the top platform by pointer and by
keyboard, and fewer columns hide behind others than in a flat front view."""

import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import GUIDE_SEEN, assert_no_serious_violation, screenshot
from e2e.conftest import english_url as url
from e2e.test_paletti import (
    ADA_AND_BOB,
    create_by_api,
    on_screen,
    play_by_api,
    settled,
    start_from_setup,
    three_builds,
    view_settled,
)
from e2e.test_paletti_depth import one_row

# Counts the green platform's pixels on the large drawing at every frame the browser paints,
# and where their middle is: read from the canvas itself, not from the drawing code.
WATCH_GREEN = """() => {
    const canvas = document.querySelector("#villa");
    const root = document.querySelector("#paletti-match");
    window.greenSamples = [];
    const look = () => {
        if (root.hasAttribute("data-animating")) {
            const { width, height } = canvas;
            const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
            let n = 0, sx = 0, sy = 0;
            for (let i = 0; i < data.length; i += 4) {
                const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
                if (g - r > 40 && g - b > 25 && g > 70) {
                    const p = i / 4;
                    n += 1;
                    sx += p % width;
                    sy += Math.floor(p / width);
                }
            }
            const dpr = width / canvas.clientWidth;
            window.greenSamples.push([n, n ? sx / n / dpr : 0, n ? sy / n / dpr : 0]);
        }
        requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
}"""


def test_a_collapse_towards_the_back_is_seen_falling_in_the_main_drawing(seeded_server, page):
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    play_by_api(
        seeded_server, page, match, one_row() + [{"type": "ask_platform"}, {"type": "decline"}]
    )
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    view_settled(page)
    page.evaluate(WATCH_GREEN)
    with page.expect_response(lambda r: "/actions/" in r.url) as answer:
        page.get_by_role("button", name="Lay it here").click()
    frames = answer.value.json()["frames"]
    expect(page.locator("#narration")).to_contain_text("It fell towards the back.")
    settled(page)
    # The server's frames: green turns across the depth only (its front pose keeps its
    # angle), the fall a flat front view cannot show.
    green = [f for f in frames if f.get("side", {}).get("p1")]
    assert max(abs(f["side"]["p1"][2]) for f in green) > 0.5
    assert max(abs(f["poses"]["p1"][2]) for f in frames if f["poses"].get("p1")) < 0.05
    # In the large drawing, green's pixels move down and change shape as it tips over
    # (its top face turns to the camera): frame after frame, not only at the end.
    samples = [s for s in page.evaluate("window.greenSamples") if s[0] > 30]
    assert len(samples) >= 10, samples
    counts = [n for n, _, _ in samples]
    heights = [y for _, _, y in samples]
    assert max(counts) > 1.2 * min(counts), counts
    assert max(heights) - min(heights) > 20, heights
    assert len({(n, round(y)) for n, _, y in samples}) >= 5, samples
    screenshot(page, "paletti-3d-fall-back")


def holding_black(server, page):
    """Bob holds black's thick round column 9 above blue (the second of three_builds, its
    place not yet chosen); returns the state."""
    match = create_by_api(server, page, ADA_AND_BOB)
    state = play_by_api(server, page, match, three_builds()[:7])
    page.goto(url(server, "paletti:match", match_id=match["id"]))
    expect(page.get_by_role("button", name="Place it here")).to_be_visible()
    view_settled(page)
    return state


def place_request(page):
    return page.expect_response(lambda r: "/actions/" in r.url and r.request.method == "POST")


def test_a_click_on_the_top_platform_places_the_column_at_that_point(seeded_server, page):
    state = holding_black(seeded_server, page)
    blue = state["platforms"][0]
    # 20 mm right of blue's centre, 25 mm behind it, on blue's upper face.
    top = blue["y"] + blue["thickness"] / 2
    page.mouse.click(*on_screen(page, blue["x"] + 20, top, blue["side"][0] + 25))
    slider = page.get_by_role("slider")
    expect(slider).to_contain_text(re.compile(r"x (19|20|21) mm, z (24|25|26) mm"))
    assert_no_serious_violation(page, "placing")
    screenshot(page, "paletti-3d-placing")
    with place_request(page) as sent:
        page.get_by_role("button", name="Place it here").click()
    action = sent.value.request.post_data_json["action"]
    assert action["type"] == "place" and "lane" not in action, action
    assert abs(action["x"] - 20) <= 1 and abs(action["z"] - 25) <= 1, action
    expect(page.locator("#narration")).to_contain_text("stands on the blue platform")
    # The engine has it there: its foot 25 mm behind blue's centre.
    column = sent.value.json()["state"]["columns"][state["holding"]]
    assert abs(column["x"] - blue["x"] - action["x"]) < 0.6, column
    assert abs(column["z"] - blue["side"][0] - action["z"]) < 0.6, column


def test_the_keyboard_moves_the_point_across_and_in_depth(seeded_server, page):
    state = holding_black(seeded_server, page)
    blue = state["platforms"][0]
    slider = page.get_by_role("slider")
    slider.focus()
    start_x = float(slider.get_attribute("aria-valuenow"))
    start_z = float(slider.get_attribute("data-z"))
    for key in ["ArrowRight"] * 4 + ["ArrowUp"] * 3:
        page.keyboard.press(key)
    expect(slider).to_have_attribute("aria-valuenow", str(round(start_x + 20)))
    with place_request(page) as sent:
        page.keyboard.press("Enter")
    action = sent.value.request.post_data_json["action"]
    assert (action["x"], action["z"]) == (start_x + 20, start_z + 15), action
    expect(page.locator("#narration")).to_contain_text("stands on the blue platform")
    column = sent.value.json()["state"]["columns"][state["holding"]]
    assert abs(column["z"] - blue["side"][0] - action["z"]) < 0.6, column


def test_fewer_columns_hide_behind_others_at_the_start(seeded_server, page):
    """A flat front view of the usual base hid 11 to 12 of the 20 columns behind others;
    drawn in 3-D, at most 8, each still in the list."""
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    summary = page.locator("#column-index summary")
    expect(summary).to_contain_text(re.compile(r"\((\d+) hidden behind"))
    hidden = int(re.search(r"\((\d+) hidden", summary.inner_text()).group(1))
    assert 0 < hidden <= 8, hidden
    summary.click()
    expect(page.locator("#column-index .index-entry")).to_have_count(20)
    expect(page.locator("#column-index .index-entry", has_text="hidden")).to_have_count(hidden)


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_the_drawing_in_french_and_polish(seeded_server, page, language):
    """The 3-D drawing while a column is placed and after a fall towards the back, as a
    French or Polish reader sees them (screenshots to look at), axe clean."""
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    play_by_api(seeded_server, page, match, three_builds()[:7])
    address = url(seeded_server, "paletti:match", match_id=match["id"])
    page.goto(address.replace("/en/", f"/{language}/", 1))
    expect(page.locator(".placer")).to_be_visible()
    view_settled(page)
    assert_no_serious_violation(page, f"placing ({language})")
    page.locator("#villa").scroll_into_view_if_needed()
    screenshot(page, f"paletti-3d-placing-{language}")
    fall = create_by_api(seeded_server, page, ADA_AND_BOB)
    play_by_api(
        seeded_server, page, fall, one_row() + [{"type": "ask_platform"}, {"type": "decline"}]
    )
    address = url(seeded_server, "paletti:match", match_id=fall["id"])
    page.goto(address.replace("/en/", f"/{language}/", 1))
    expect(page.locator("[data-action=lay_platform]")).to_be_visible()
    view_settled(page)
    page.locator("[data-action=lay_platform]").click()
    expect(page.locator("#game-over")).to_be_visible()
    view_settled(page)
    assert_no_serious_violation(page, f"after the fall ({language})")
    screenshot(page, f"paletti-3d-fallen-{language}")


def test_a_bots_turn_told_step_by_step_keeps_every_piece_in_3d(seeded_server, browser):
    """While a bot's actions are told one at a time, the pieces between two steps keep their
    depth (each pose has its front and its side half, none lost)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(GUIDE_SEEN)
    context.add_init_script("localStorage.setItem('paletti-bots-one-by-one', 'yes');")
    page = context.new_page()
    page.width = 1280
    try:
        start_from_setup(seeded_server, page)
        page.get_by_role("button", name="Play black").click()
        page.get_by_role("button", name=re.compile("Touch the black thick round column")).click()
        page.get_by_role("button", name="Pull it out gently").click()
        page.evaluate(
            """() => import("/static/js/paletti/state.js").then(({ game }) => {
                window.badPoses = [];
                const root = document.querySelector("#paletti-match");
                const look = () => {
                    if (root.hasAttribute("data-telling")) {
                        for (const [key, pose] of Object.entries(game.poses)) {
                            const whole = (v) => Number.isFinite(v);
                            if (pose && (pose.length !== 5 || !pose.every(whole))) {
                                window.badPoses.push([key, pose]);
                            }
                        }
                    }
                    requestAnimationFrame(look);
                };
                requestAnimationFrame(look);
            })"""
        )
        page.get_by_role("button", name="Place it here").click()
        expect(page.locator("#paletti-match[data-telling]")).to_be_attached()
        expect(page.locator("#paletti-match[data-telling]")).to_have_count(0, timeout=30000)
        assert page.evaluate("window.badPoses") == []
    finally:
        context.close()
