"""The villa seen from its side: a platform laid on one row of columns tips over across the
depth, the side drawing shows it fall, and the page says where to look."""

from playwright.sync_api import expect

from e2e.conftest import english_url as url
from e2e.conftest import screenshot
from e2e.test_paletti import ADA_AND_BOB, SEED, play_by_api, settled, three_builds


def one_row():
    """The three builds of three_builds, all in the front lane."""
    return [
        {**action, "lane": 0} if action["type"] == "place" else action for action in three_builds()
    ]


def _side_drawing_changes(page):
    return page.evaluate(
        """() => {
            const canvas = document.getElementById("villa-depth");
            return canvas.toDataURL();
        }"""
    )


def test_green_on_one_row_falls_over_in_the_side_drawing(seeded_server, page):
    response = page.request.post(
        seeded_server.url + "/api/paletti/matches/", data={"players": ADA_AND_BOB, "seed": SEED}
    )
    match = response.json()
    actions = one_row() + [{"type": "ask_platform"}, {"type": "decline"}]
    state = play_by_api(seeded_server, page, match, actions)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    depth = page.locator("#villa-depth")
    expect(depth).to_be_visible()
    box = depth.bounding_box()
    assert box["width"] > 150 and box["height"] > 80
    before = _side_drawing_changes(page)
    page.get_by_role("button", name="Lay it here").click()
    # One row at the front, the board's centre behind it: it tips over backwards.
    expect(page.locator("#narration")).to_contain_text("It fell towards the back.")
    settled(page)
    page.wait_for_timeout(500)
    assert _side_drawing_changes(page) != before
    # The end says why, truthfully: green never stood, so the race for the seal (which
    # starts on green under the French rules) had not begun; the one who laid green
    # brought the villa down and cannot win: the other does.
    expect(page.locator("#game-over")).to_be_visible()
    claimant = state["seats"][state["turn"]]["name"]
    other = "Bob" if claimant == "Ada" else "Ada"
    expect(page.locator("#game-over-heading")).to_have_text(f"{other} wins!")
    expect(page.locator("#end-reason")).to_contain_text("the seal named no winner")
    screenshot(page, "paletti-depth-fall")
