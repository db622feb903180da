"""The players place the columns on the base themselves before the match (French rules:
"comme ils le souhaitent"), on a phone and on a desktop."""

import json
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
    # The white thick round column (id 4, usually at the back right corner) to the left,
    # a little behind the middle (still under blue, which rests on every column); blue a
    # little right.
    page.locator("#arrange-rows input[data-column='4']").fill("-65")
    page.locator("#arrange-rows input[data-depth-column='4']").fill("20")
    page.get_by_label("Blue platform: position (mm from the middle)").fill("1")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    match_id = page.url.rstrip("/").split("/")[-1]
    state = page.request.get(f"{seeded_server.url}/api/paletti/matches/{match_id}/").json()
    column = state["columns"][4]
    assert abs(column["z"] - 20) < 1.0 and abs(column["x"] - -65) < 1.0
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


def test_setup_a_column_the_server_cannot_read_is_said_next_to_the_choice(seeded_server, page):
    """The server names the field at fault in a set-up it cannot read (columns, then the
    column, then its x); the page says its sentence beside the Start button all the same.
    The page itself always sends numbers: the request is altered on its way."""
    _own_arrangement(seeded_server, page)

    def alter(route):
        body = route.request.post_data_json
        body["options"]["setup"]["columns"][0]["x"] = "far"
        route.continue_(post_data=json.dumps(body))

    page.route(re.compile(r"/api/paletti/matches/$"), alter)
    page.get_by_role("button", name="Start the match").click()
    error = page.locator("#option-setup-error")
    expect(error).to_have_text("A valid number is required.")
    expect(error).to_be_focused()
    expect(page.locator("#form-error")).to_be_hidden()
    assert re.search(r"/paletti/$", page.url)


def preview_point(page, x, z):
    """Where a point (x, z) of the base is on the set-up drawing (the base seen from above,
    the back at the top, square): from the drawn base's corners."""
    canvas = page.locator("#arrange-preview")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    width = box["width"]
    label, half = 44, 120.0
    scale = min((width - label - 12) / 240.0, 320 / 240.0)
    return box["x"] + label + 6 + (x + half) * scale, box["y"] + 8 + (half - z) * scale


def started_setup(server, page):
    with page.expect_request(lambda r: r.url.endswith("/api/paletti/matches/")) as sent:
        page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    return {c["id"]: c for c in sent.value.post_data_json["options"]["setup"]["columns"]}


def test_a_column_is_placed_on_the_set_up_drawing_by_pointer_and_keys(seeded_server, page):
    _own_arrangement(seeded_server, page)
    # White's thick round column 4 (usually at (80, 80) mm, the back right corner):
    # chosen with a click on it, then a click at (62, 18) moves it there (a click is
    # as precise as a pixel of the drawing, under a millimetre, rounded to the mm).
    page.mouse.click(*preview_point(page, 80, 80))
    page.mouse.click(*preview_point(page, 62, 18))
    expect(page.locator("#arrange-rows input[data-column='4']")).to_have_value(
        re.compile(r"^(61|61\.5|62|62\.5|63)$")
    )
    # Black's thin column 5 (usually at (85, 42) mm): chosen in the table, then moved
    # 1 mm right and 3 mm to the front with the arrow keys on the drawing.
    page.locator("#arrange-rows input[data-column='5']").focus()
    page.locator("#arrange-preview").focus()
    for key in ["ArrowRight"] + ["ArrowDown"] * 3:
        page.keyboard.press(key)
    screenshot(page, "paletti-arrange-pointer")
    columns = started_setup(seeded_server, page)
    assert abs(columns[4]["x"] - 62) <= 1 and abs(columns[4]["z"] - 18) <= 1, columns[4]
    assert (columns[5]["x"], columns[5]["z"]) == (86, 39), columns[5]
