"""The players place the columns on the base themselves before the match (French rules:
"comme ils le souhaitent"), on a phone and on a desktop."""

import re

from playwright.sync_api import expect

from e2e.conftest import english_url as url
from e2e.conftest import screenshot


def _own_arrangement(server, page):
    page.goto(url(server, "paletti:setup"))
    page.get_by_label("Played by").nth(1).select_option(label="a person")
    expect(page.locator("#arrange")).to_be_hidden()
    page.get_by_label("we place them ourselves").check()
    expect(page.locator("#arrange")).to_be_visible()
    expect(page.locator("#arrange-rows tr")).to_have_count(20)


def test_players_place_the_columns_and_the_match_starts_from_their_places(seeded_server, page):
    _own_arrangement(seeded_server, page)
    # The white thick round column (id 4) further left, in the back lane (still under blue,
    # which rests on every column); blue a little right.
    page.locator("#arrange-rows input[data-column='4']").fill("-80")
    page.locator("#arrange-rows select[data-column='4']").select_option(label="back lane")
    page.get_by_label("Blue platform: position (mm from the middle)").fill("1")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    match_id = page.url.rstrip("/").split("/")[-1]
    state = page.request.get(f"{seeded_server.url}/api/paletti/matches/{match_id}/").json()
    column = state["columns"][4]
    assert column["lane"] == 2 and abs(column["x"] - -80) < 1.0
    assert abs(state["platforms"][0]["x"] - 1) < 1.0
    assert state["options"]["setup"]["blue_x"] == 1


def test_a_column_in_the_forbidden_zone_is_refused_next_to_the_choice(seeded_server, page):
    _own_arrangement(seeded_server, page)
    page.locator("#arrange-rows input[data-column='0']").fill("0")
    page.get_by_role("button", name="Start the match").click()
    error = page.locator("#option-setup-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("forbidden zone")
    screenshot(page, "paletti-arrange")
    assert re.search(r"/paletti/$", page.url)
