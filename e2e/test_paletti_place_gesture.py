"""How a column is set down counts: the page sends the hand's gesture with a placement."""

import json

from playwright.sync_api import expect

from e2e.conftest import english_url as url
from e2e.test_paletti import ADA_AND_BOB, SEED, play_by_api, three_builds


def test_putting_a_column_down_quickly_sends_a_hurried_gesture(seeded_server, page):
    response = page.request.post(
        seeded_server.url + "/api/paletti/matches/", data={"players": ADA_AND_BOB, "seed": SEED}
    )
    match = response.json()
    play_by_api(seeded_server, page, match, three_builds()[:3])  # holding the pink column
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    quick = page.get_by_role("button", name="Put it down quickly")
    expect(quick).to_be_visible()
    with page.expect_request(lambda r: r.url.endswith("/actions/") and r.method == "POST") as sent:
        quick.click()
    action = json.loads(sent.value.post_data)["action"]
    assert action["type"] == "place" and action["speed"] == 250 and action["steadiness"] == 0.4
    expect(page.locator("#narration")).to_contain_text("pink")
