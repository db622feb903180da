"""People play Villa Paletti in the browser: against a bot, hot-seat, with the keyboard only.

Seeds make every match the same: with seed 42 and two seats, seat 1 starts, seat 0 plays
black and purple, seat 1 pink and white; column 9 is black's thick round column.
"""

import math
import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import GUIDE_SEEN, PACE_ALL_AT_ONCE, assert_no_serious_violation, screenshot
from e2e.conftest import english_url as url

SEED = 42
# The drawing's geometry, an ES module the tests import into the page.
VIEW = "/static/js/paletti/view.js"
ADA_AND_BOB = [{"name": "Ada", "kind": "human"}, {"name": "Bob", "kind": "human"}]


def start_from_setup(server, page, second="a bot (careful)"):
    page.goto(url(server, "paletti:setup") + f"?seed={SEED}")
    page.get_by_label("Name").nth(0).fill("Ada")
    page.get_by_label("Name").nth(1).fill("Bob")
    page.get_by_label("Played by").nth(1).select_option(label=second)
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    expect(page.locator("#paletti-match.ready")).to_be_attached()


def create_by_api(server, page, players):
    response = page.request.post(
        server.url + "/api/paletti/matches/", data={"players": players, "seed": SEED}
    )
    assert response.status == 201, response.text()
    return response.json()


def place_spots(state):
    """The listed placement's area sampled as the page samples it: every `grid` mm across,
    in the three depth rows; each a postable place action, with the row it is in."""
    spots = []
    for listed in (a for a in state["legal_actions"] if a["type"] == "place"):
        area = listed["area"]
        aim = {k: v for k, v in listed.items() if k != "area"}
        (low, high), (z_low, z_high), grid = area["x"], area["z"], area["grid"]
        for lane, depth in enumerate(state["dimensions"]["lane_depths"]):
            z = max(z_low, min(z_high, depth))
            for k in range(math.ceil(low / grid), math.floor(high / grid) + 1):
                x = float(k * grid)
                if all(
                    (d["x"] - x) ** 2 + (d["z"] - z) ** 2 >= d["r"] ** 2 for d in area["outside"]
                ):
                    spots.append(({**aim, "x": x, "z": z}, lane))
    return spots


def play_by_api(server, page, match, actions):
    """Play actions straight through the API: a quick way to reach a given position."""
    state = match["state"]
    for action in actions:
        if action["type"] == "place":
            lane = action.get("lane", 0)
            action = min(
                place_spots(state),
                key=lambda spot: (spot[1] != lane, abs(spot[0]["x"] - action["x"])),
            )[0]
        response = page.request.post(
            f"{server.url}/api/paletti/matches/{match['id']}/actions/",
            data={"version": state["version"], "action": action},
        )
        assert response.ok, response.text()
        state = response.json()["state"]
    return state


def three_builds():
    """Three whole builds for seed 42 with two people, after which Ada may ask for the
    green platform. The three stand in the three lanes: on one row, green would tip over
    across the depth."""
    actions = []
    for colour, column, x, lane in [("pink", 19, -40, 0), ("black", 9, 0, 1), ("white", 4, 45, 2)]:
        actions += [
            {"type": "choose_colour", "colour": colour},
            {"type": "touch", "column": column},
            {"type": "pull", "column": column},
            {"type": "place", "column": column, "x": x, "lane": lane},
        ]
    return actions


def touch_with_the_mouse(page, canvas):
    """Sweep the pointer along the base columns until it rests on one the player may take,
    and click it; returns where."""
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    y = box["y"] + box["height"] * 0.7
    for step in range(101):
        x = box["x"] + box["width"] * step / 100
        page.mouse.move(x, y)
        if canvas.evaluate("c => c.style.cursor") == "pointer":
            break
    else:
        raise AssertionError("the pointer never found a column to take")
    page.mouse.down()
    page.mouse.up()
    return x, y


def settled(page):
    """Wait for the villa's animation to end, so a screenshot shows the final position."""
    expect(page.locator("#paletti-match[data-animating]")).to_have_count(0, timeout=10000)


def scoreboard_entry(page, name):
    return page.locator("#scoreboard li").filter(has_text=name)


def test_play_a_turn_against_a_bot(seeded_server, page):
    start_from_setup(seeded_server, page)
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")
    expect(scoreboard_entry(page, "Bob")).to_contain_text("3 points")
    expect(scoreboard_entry(page, "Ada")).to_contain_text("0 points")
    page.get_by_role("button", name="Play black").click()
    page.get_by_role("button", name=re.compile("Touch the black thick round column")).click()
    expect(page.locator("#prompt")).to_contain_text(re.compile(r"bears \d+ g"))
    screenshot(page, "paletti-touched")
    page.get_by_role("button", name="Pull it out gently").click()
    expect(page.get_by_role("slider")).to_be_visible()
    page.get_by_role("button", name="Place it here").click()
    # The bot answers in the same response; its events are narrated, scores updated.
    expect(page.locator("#narration")).to_contain_text("black thick round column stands")
    expect(page.locator("#narration")).to_contain_text(re.compile("Playing (pink|white)"))
    expect(scoreboard_entry(page, "Ada")).to_contain_text("3 points")
    expect(scoreboard_entry(page, "Bob")).to_contain_text(re.compile(r"[4-6] points"))
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")
    settled(page)
    screenshot(page, "paletti-after-bot")


def test_abort_locks_the_column_and_passes_the_turn(seeded_server, page):
    start_from_setup(seeded_server, page, second="a person")
    expect(page.locator("#turn-banner")).to_contain_text("Bob, your turn")
    page.get_by_role("button", name="Play pink").click()
    page.get_by_role("button", name=re.compile("Touch the pink thin round column")).first.click()
    expect(page.get_by_role("button", name="Pull it out gently")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#narration")).to_contain_text("locked for the rest of the game")
    expect(page.locator("#counts")).to_contain_text("1 locked column")
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")
    expect(page.locator("#narration")).to_contain_text("Ada, your turn.")
    settled(page)
    screenshot(page, "paletti-aborted")


def test_hot_seat_claim_and_answer(seeded_server, page):
    people = ADA_AND_BOB
    match = create_by_api(seeded_server, page, people)
    actions = three_builds()
    play_by_api(seeded_server, page, match, actions)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")
    page.get_by_role("button", name="Ask for the green platform").click()
    # The first claim says what it risks and asks again.
    page.get_by_role("button", name="Yes, ask for it").click()
    expect(page.locator("#turn-banner")).to_contain_text("Bob, your turn")
    expect(page.locator("#prompt")).to_contain_text("Ada asks for a new platform")
    screenshot(page, "paletti-claim")
    if page.width > 600:
        page.get_by_role("button", name="Protest").click()
        expect(page.locator("#prompt")).to_contain_text("move a column belonging to Ada")
        touch = re.compile("Touch the black thin round column")
        page.get_by_role("button", name=touch).first.click()
        page.get_by_role("button", name="Pull it out gently").click()
        page.get_by_role("button", name="Place it here").click()
        expect(page.locator("#narration")).to_contain_text("The protest succeeds")
        expect(page.locator("#counts")).to_contain_text("1 column out of the game")
        expect(page.locator("#tray")).to_contain_text("black thin round column")
    else:
        page.get_by_role("button", name="Decline").click()
        expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")
        expect(page.get_by_role("slider", name="Position of the new platform")).to_be_visible()
        page.get_by_role("button", name="Lay it here").click()
        expect(page.locator("#narration")).to_contain_text("green platform is laid")
        expect(page.locator("#top-platform")).to_contain_text("green")
    settled(page)
    screenshot(page, "paletti-answered")


def test_three_people_a_given_up_neutral_move_is_put_to_each_other_person(seeded_server, page):
    # Seed 42 with three seats: Cleo starts, and white is the neutral colour.
    people = [*ADA_AND_BOB, {"name": "Cleo", "kind": "human"}]
    match = create_by_api(seeded_server, page, people)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#turn-banner")).to_contain_text("Cleo, your turn")
    expect(page.locator("#prompt")).to_contain_text("First move a neutral column")
    expect(page.locator("#counts")).to_contain_text("neutral colour: white")
    page.get_by_role("button", name=re.compile("Touch the white")).first.click()
    expect(page.get_by_role("button", name="Pull it out gently")).to_be_visible()
    page.keyboard.press("Escape")
    # The screen passes to Ada, then to Bob: each is asked in turn.
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")
    expect(page.locator("#prompt")).to_contain_text("Cleo aborted the neutral move. Ada, do you")
    page.get_by_role("button", name="Decline").click()
    expect(page.locator("#turn-banner")).to_contain_text("Bob, your turn")
    expect(page.locator("#prompt")).to_contain_text("Bob, do you object")
    if page.width > 600:
        page.get_by_role("button", name="Decline").click()
        expect(page.locator("#narration")).to_contain_text("the builder moves their own column")
        expect(page.locator("#turn-banner")).to_contain_text("Cleo, your turn")
        expect(page.get_by_role("button", name=re.compile("Touch the purple"))).not_to_have_count(0)
    else:
        page.get_by_role("button", name="Protest").click()
        expect(page.locator("#prompt")).to_contain_text("move a neutral column to the top")
        expect(page.get_by_role("button", name=re.compile("Touch the white"))).not_to_have_count(0)
    screenshot(page, "paletti-neutral-protest")


@pytest.mark.parametrize(
    ("language", "ada_colours", "bob_colours"),
    [("fr", "noir violet", "rose blanc"), ("da", "sort lilla", "lyserød hvid")],
)
def test_the_scoreboard_names_colours_on_their_own(
    seeded_server, page, language, ada_colours, bob_colours
):
    from django.urls import reverse
    from django.utils import translation

    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    with translation.override(language):
        page.goto(seeded_server.url + reverse("paletti:match", kwargs={"match_id": match["id"]}))
    expect(scoreboard_entry(page, "Ada").locator(".colours")).to_have_text(ada_colours)
    expect(scoreboard_entry(page, "Bob").locator(".colours")).to_have_text(bob_colours)


def test_a_stale_page_reloads_the_match(seeded_server, page):
    people = ADA_AND_BOB
    match = create_by_api(seeded_server, page, people)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#turn-banner")).to_contain_text("Bob, your turn")
    # Someone else plays from another tab: this page's version is now stale.
    play_by_api(seeded_server, page, match, [{"type": "choose_colour", "colour": "white"}])
    page.get_by_role("button", name="Play pink").click()
    expect(page.locator("#narration")).to_contain_text("moved on")
    expect(page.locator("#prompt")).to_contain_text("Touch a column")
    expect(page.get_by_role("button", name=re.compile("Touch the white"))).to_have_count(5)


def test_failed_protest_costs_the_protester_a_column(seeded_server, page):
    if page.width < 600:
        pytest.skip("one viewport is enough for this path")
    people = ADA_AND_BOB
    match = create_by_api(seeded_server, page, people)
    actions = three_builds()
    # Ada claims, Bob protests, touches one of her columns and gives up: the protest fails.
    actions += [
        {"type": "ask_platform"},
        {"type": "protest"},
        {"type": "touch", "column": 5},
        {"type": "abort", "column": 5},
    ]
    play_by_api(seeded_server, page, match, actions)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#prompt")).to_contain_text("remove a column belonging to Bob")
    page.get_by_role("button", name=re.compile("Remove the white thin round column")).first.click()
    expect(page.locator("#tray")).to_contain_text("white thin round column")
    expect(page.locator("#counts")).to_contain_text("1 locked column · 1 column out of the game")
    expect(page.get_by_role("button", name="Lay it here")).to_be_visible()


def focused_text(page):
    return page.evaluate("document.activeElement && document.activeElement.textContent")


def test_one_turn_with_the_keyboard_only(seeded_server, page):
    start_from_setup(seeded_server, page)
    for _ in range(40):
        page.keyboard.press("Tab")
        if "Play black" in (focused_text(page) or ""):
            break
    else:
        raise AssertionError("Tab never reached the colour choice")
    page.keyboard.press("Enter")
    # Focus lands on the first column; Tab moves through the others.
    expect(page.locator(".column-choice").first).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator(".column-choice").nth(1)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#prompt")).to_contain_text("bears")
    expect(page.get_by_role("button", name="Pull it out gently")).to_be_focused()
    page.keyboard.press("Enter")
    slider = page.get_by_role("slider")
    expect(slider).to_be_focused()
    start = slider.get_attribute("aria-valuenow")
    for key in ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowUp"]:
        page.keyboard.press(key)
    expect(slider).not_to_have_attribute("aria-valuenow", start)
    expect(slider).to_contain_text("middle lane")
    page.keyboard.press("Enter")
    expect(page.locator("#narration")).to_contain_text("stands on the blue platform")
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")


def test_one_turn_with_the_mouse_on_the_drawing(seeded_server, page):
    start_from_setup(seeded_server, page)
    page.get_by_role("button", name="Play black").click()
    canvas = page.locator("#villa")
    touch_with_the_mouse(page, canvas)
    expect(page.locator("#prompt")).to_contain_text(re.compile(r"bears \d+ g"))
    page.get_by_role("button", name="Pull it out gently").click()
    slider = page.get_by_role("slider")
    expect(slider).to_be_visible()

    def drag(start, end):
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        y = box["y"] + box["height"] * 0.3
        page.mouse.move(box["x"] + box["width"] * start, y)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] * end, y, steps=8)
        page.mouse.up()
        return float(slider.get_attribute("aria-valuenow"))

    leftwards, rightwards = drag(0.6, 0.3), drag(0.4, 0.7)
    assert leftwards < 0 < rightwards, (leftwards, rightwards)
    page.get_by_role("button", name="Place it here").click()
    expect(page.locator("#narration")).to_contain_text("stands on the blue platform")
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")


def test_a_drag_pulls_the_touched_column_with_its_speed_and_steadiness(seeded_server, page):
    start_from_setup(seeded_server, page)
    page.get_by_role("button", name="Play black").click()
    canvas = page.locator("#villa")
    box = canvas.bounding_box()
    x, y = touch_with_the_mouse(page, canvas)
    expect(page.locator("#prompt")).to_contain_text("Drag it sideways")
    expect(page.get_by_role("button", name="Pull it out quickly")).to_be_visible()
    # A slow, level drag from the touched column out to the side.
    with page.expect_request(lambda r: "/actions/" in r.url and r.method == "POST") as sent:
        page.mouse.move(x, y)
        page.mouse.down()
        direction = 1 if x > box["x"] + box["width"] / 2 else -1
        for k in range(1, 21):
            page.mouse.move(x + direction * 8 * k, y)
            page.wait_for_timeout(20)
        page.mouse.up()
    action = sent.value.post_data_json["action"]
    assert action["type"] == "pull"
    assert 20 <= action["speed"] <= 500 and action["steadiness"] > 0.8, action
    expect(page.get_by_role("slider")).to_be_visible()


def test_setup_shows_the_api_errors_next_to_the_fields(seeded_server, page):
    page.goto(url(seeded_server, "paletti:setup"))
    page.get_by_label("Name").nth(0).fill("")
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("#player-0-name-error")).to_be_visible()
    expect(page.get_by_label("Name").nth(0)).to_have_attribute("aria-invalid", "true")
    page.get_by_label("Name").nth(0).fill("Ada")
    page.get_by_label("Played by").nth(0).select_option(label="a bot (easy)")
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("#player-0-name-error")).to_be_hidden()
    expect(page.locator("#players-error")).to_contain_text("person")
    expect(page).to_have_url(re.compile(r"/paletti/$"))


def test_no_serious_accessibility_violation(seeded_server, page):
    page.goto(url(seeded_server, "paletti:setup") + f"?seed={SEED}")
    pages = [("setup", page.url)]
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    pages.append(("match", page.url))
    for name, address in pages:
        page.goto(address)
        if name == "match":
            expect(page.locator("#paletti-match.ready")).to_be_attached()
        assert_no_serious_violation(page, name)
    # The placing controls (slider, lanes) appear only while holding a column.
    page.get_by_role("button", name="Play black").click()
    page.locator(".column-choice").first.click()
    page.get_by_role("button", name="Pull it out gently").click()
    expect(page.get_by_role("slider")).to_be_visible()
    assert_no_serious_violation(page, "holding")
    settled(page)
    screenshot(page, "paletti-holding")


# Pointing, hidden columns and the collapse (issue 9, points 2, 3 and 6). With seed 42 Bob
# starts and plays pink or white. On the default base pink's thin columns overlap as drawn:
# 15 (middle lane, x 33..46 mm) and 16 (front lane, x 42..55 mm).


def create_with(server, page, players, setup):
    response = page.request.post(
        server.url + "/api/paletti/matches/",
        data={"players": players, "seed": SEED, "options": {"setup": setup}},
    )
    assert response.status == 201, response.text()
    return response.json()


def view_settled(page):
    settled(page)
    expect(page.locator("#villa[data-view-moving]")).to_have_count(0, timeout=5000)


def on_screen(page, x, y):
    """Where a world point (mm) is on the screen, from the drawing's view (scrolled into sight
    first, as a player on a phone would scroll up to it after a button below it)."""
    page.locator("#villa").scroll_into_view_if_needed()
    box = page.locator("#villa").bounding_box()
    scale, ox, oy = map(float, page.locator("#villa").get_attribute("data-view").split())
    return box["x"] + ox + x * scale, box["y"] + oy - y * scale


def column_point(page, state, column, x=None):
    """A point on a column as drawn: at its middle height, at world x (its centre by default)."""
    col = state["columns"][column]
    return on_screen(page, col["x"] if x is None else x, col["y"])


def touch_request(page):
    return page.expect_request(lambda r: "/actions/" in r.url and r.method == "POST")


def touched(sent):
    """The column a posted action touched."""
    action = sent.value.post_data_json["action"]
    assert action["type"] == "touch", action
    return action["column"]


def play_pink(server, page, setup="default"):
    match = create_with(server, page, ADA_AND_BOB, setup)
    page.goto(url(server, "paletti:match", match_id=match["id"]))
    page.get_by_role("button", name="Play pink").click()
    expect(page.locator("#prompt")).to_contain_text("Touch a column")
    view_settled(page)
    return match["state"]


@pytest.fixture
def finger(browser):
    """A phone held in the hand: 390 px wide, touch screen, no mouse."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    context.add_init_script(PACE_ALL_AT_ONCE)
    context.add_init_script(GUIDE_SEEN)
    page = context.new_page()
    page.width = 390
    yield page
    context.close()


def test_a_click_touches_the_column_under_the_pointer_not_its_neighbour_in_front(
    seeded_server, page
):
    state = play_pink(seeded_server, page)
    # x 40 mm is on column 15 alone, 8.5 mm from the front column 16's middle.
    with touch_request(page) as sent:
        page.mouse.click(*column_point(page, state, 15, x=40))
    assert touched(sent) == 15
    expect(page.locator("#prompt")).to_contain_text("The pink thin round column bears")


def test_where_two_columns_overlap_the_player_chooses(seeded_server, page):
    state = play_pink(seeded_server, page)
    page.mouse.click(*column_point(page, state, 15, x=44))
    chooser = page.locator("#pointing")
    expect(chooser).to_contain_text("These columns overlap here")
    choices = chooser.get_by_role("button", name=re.compile("Touch the pink thin round column"))
    expect(choices).to_have_count(2)
    expect(choices.nth(0)).to_contain_text("front lane")
    expect(choices.nth(1)).to_contain_text("middle lane")
    expect(choices.nth(0)).to_be_focused()
    assert_no_serious_violation(page, "chooser")
    screenshot(page, "paletti-chooser")
    with touch_request(page) as sent:
        choices.nth(1).click()
    assert touched(sent) == 15
    expect(chooser).to_be_hidden()


def test_escape_closes_the_chooser_without_touching_anything(seeded_server, page):
    state = play_pink(seeded_server, page)
    page.mouse.click(*column_point(page, state, 15, x=44))
    chooser = page.locator("#pointing")
    expect(chooser).to_contain_text("These columns overlap here")
    expect(chooser.get_by_role("button").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(chooser).to_be_hidden()
    expect(page.locator("#prompt")).to_contain_text("Touch a column")


def test_on_a_touch_screen_the_first_tap_selects_and_the_second_commits(seeded_server, finger):
    page = finger
    state = play_pink(seeded_server, page)
    posted = []
    page.on("request", lambda r: posted.append(r) if "/actions/" in r.url else None)
    page.touchscreen.tap(*column_point(page, state, 16, x=50))
    selection = page.locator("#pointing")
    expect(selection).to_contain_text("Selected: the pink thin round column")
    expect(selection).to_contain_text("front lane")
    screenshot(page, "paletti-selected")
    assert posted == [], "a first tap must not touch the column"
    # A tap beside every column clears the selection; a tap on two at once asks which.
    page.touchscreen.tap(*on_screen(page, 0, 150))
    expect(selection).to_be_hidden()
    page.touchscreen.tap(*column_point(page, state, 15, x=44))
    expect(selection).to_contain_text("These columns overlap here")
    page.touchscreen.tap(*column_point(page, state, 16, x=50))
    expect(selection).to_contain_text("Selected: the pink thin round column")
    with touch_request(page) as sent:
        page.touchscreen.tap(*column_point(page, state, 16, x=50))
    assert touched(sent) == 16
    expect(page.locator("#prompt")).to_contain_text("The pink thin round column bears")


def behind_setup():
    """The default base with white's thin column 1 moved exactly behind white's column 0."""
    from paletti.engine import default_setup

    setup = default_setup()
    setup["columns"][1] = {"id": 1, "x": -33.5, "lane": 2}
    return setup


def dark_pixels(page, state, column):
    """How many pixels inside a column's drawn rectangle are the outline's near-black."""
    col = state["columns"][column]
    left, top = on_screen(page, col["x"] - col["width"] / 2, col["y"] + col["height"] / 2)
    right, bottom = on_screen(page, col["x"] + col["width"] / 2, col["y"] - col["height"] / 2)
    box = page.locator("#villa").bounding_box()
    return page.locator("#villa").evaluate(
        """(canvas, [x, y, w, h]) => {
            const dpr = canvas.width / canvas.clientWidth;
            const [px, py, pw, ph] = [x, y, w, h].map((v) => Math.round(v * dpr));
            const data = canvas.getContext("2d").getImageData(px, py, pw, ph).data;
            const near = (i, value) => Math.abs(data[i] - value) < 14;
            let n = 0;
            for (let i = 0; i < data.length; i += 4) {
                if (near(i, 31) && near(i + 1, 35) && near(i + 2, 40)) n++;
            }
            return n;
        }""",
        [left - box["x"] + 2, top - box["y"] + 2, right - left - 4, bottom - top - 4],
    )


def test_a_column_exactly_behind_another_of_its_colour_is_drawn_and_listed(seeded_server, page):
    match = create_with(seeded_server, page, ADA_AND_BOB, behind_setup())
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    page.get_by_role("button", name="Play white").click()
    view_settled(page)
    # Its outline and ringed dot, in dark and light, show over the white front column.
    assert dark_pixels(page, match["state"], 0) > 20
    index = page.locator("#column-index")
    expect(index.locator("summary")).to_contain_text("hidden behind")
    index.locator("summary").click()
    entry = index.locator("[data-column='1']")
    expect(entry).to_contain_text("back lane")
    expect(entry).to_contain_text("hidden behind the white thin round column")
    assert_no_serious_violation(page, "column index")
    screenshot(page, "paletti-column-index")
    with touch_request(page) as sent:
        entry.click()
    assert touched(sent) == 1
    expect(page.locator("#prompt")).to_contain_text("The white thin round column bears")


def test_the_column_list_names_every_column_level_by_level(seeded_server, page):
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    play_by_api(seeded_server, page, match, three_builds()[:4])
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    index = page.locator("#column-index")
    index.locator("summary").click()
    expect(index.locator(".level-name")).to_have_text(["On the blue platform", "On the base"])
    expect(index.locator(".index-entry")).to_have_count(20)
    # Ada may take none of them now (it is her colour choice): nothing in it is a button.
    expect(index.get_by_role("button")).to_have_count(0)


def collapse_by_pulling(seeded_server, page):
    """Blue resting on pink's column 15 alone left of its centre of mass: pulling it brings
    the villa down. Returns the pull's answer (state and frames)."""
    from paletti.tests.setups import lopsided_setup

    state = play_pink(seeded_server, page, lopsided_setup(15))
    page.locator(".column-choice[data-column='15']").click()
    # (The prompt before touching says "bears" too: wait for the touched column's buttons.)
    expect(page.get_by_role("button", name="Pull it out gently")).to_be_visible()
    # When the drawing starts and stops moving, timed in the page.
    page.evaluate(
        """() => {
            const root = document.querySelector('#paletti-match');
            new MutationObserver(() => {
                const moving = root.hasAttribute('data-animating');
                const key = moving ? 'animationStarted' : 'animationEnded';
                if (!(key in window)) window[key] = performance.now();
            }).observe(root, { attributes: true, attributeFilter: ['data-animating'] });
        }"""
    )
    with page.expect_response(lambda r: "/actions/" in r.url) as answer:
        page.get_by_role("button", name="Pull it out gently").click()
    assert state["columns"][15]["x"] < state["platforms"][0]["x"]
    return answer.value.json()


def test_a_collapse_is_animated_until_the_pieces_lie_still_and_all_stay_in_the_picture(
    seeded_server, page
):
    answer = collapse_by_pulling(seeded_server, page)
    assert answer["state"]["collapse"] is not None, answer["events"]
    last = answer["frames"][-1]["t"]
    assert last > 1.0, "the server sends the pieces' fall until they lie still"
    settled(page)
    started, ended = page.evaluate("[window.animationStarted, window.animationEnded]")
    assert ended - started >= 1000 * last * 0.95, (started, ended, last)
    view_settled(page)
    expect(page.locator("#game-over")).to_be_visible()
    box = page.locator("#villa").bounding_box()
    pieces = [c for c in answer["state"]["columns"] if c["x"] is not None]
    pieces += [p for p in answer["state"]["platforms"] if p["laid"]]
    for piece in pieces:
        x, y = on_screen(page, piece["x"], piece["y"])
        assert box["x"] <= x <= box["x"] + box["width"], piece
        assert box["y"] <= y <= box["y"] + box["height"], piece
    screenshot(page, "paletti-collapsed")


def test_with_reduced_motion_the_collapse_shows_its_end_at_once(seeded_server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    page.width = 1280
    try:
        page.goto(seeded_server.url)
        collapse_by_pulling(seeded_server, page)
        expect(page.locator("#game-over")).to_be_visible()
        moved = page.evaluate(
            """() => document.querySelector('#paletti-match').hasAttribute('data-animating')
                  || document.querySelector('#villa').hasAttribute('data-view-moving')"""
        )
        assert moved is False
    finally:
        context.close()


def test_the_view_moves_smoothly_when_a_platform_is_laid(seeded_server, page):
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    play_by_api(seeded_server, page, match, [*three_builds(), {"type": "ask_platform"}])
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    page.get_by_role("button", name="Decline").click()
    view_settled(page)
    # Record the view (px per mm, and the canvas's height) at every drawn frame while the
    # green platform is laid.
    page.evaluate(
        """() => {
            window.views = [];
            const canvas = document.querySelector('#villa');
            const record = () => {
                window.views.push([parseFloat(canvas.dataset.view), canvas.clientHeight]);
                requestAnimationFrame(record);
            };
            requestAnimationFrame(record);
        }"""
    )
    page.get_by_role("button", name="Lay it here").click()
    expect(page.locator("#narration")).to_contain_text("green platform is laid")
    view_settled(page)
    page.wait_for_timeout(100)
    views = [tuple(v) for v in dict.fromkeys(map(tuple, page.evaluate("window.views")))]
    (scale_before, height_before), (scale_after, height_after) = views[0], views[-1]
    # A taller villa: drawn smaller (wide screen) or on a taller canvas (phone).
    assert scale_after < scale_before or height_after > height_before, views
    assert len(views) >= 5, f"the view jumped instead of moving: {views}"


def test_a_padlock_stays_on_its_column_when_the_column_falls(seeded_server, page):
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    # A 60 mm column lying on its side at (100, 20): its padlock lies beside its middle, at
    # its own height, not in the air above it.
    x, y = page.evaluate(f"import('{VIEW}').then((V) => V.lockPoint([100, 20, Math.PI / 2], 60))")
    assert x == pytest.approx(78) and y == pytest.approx(20)
    x, y = page.evaluate(f"import('{VIEW}').then((V) => V.lockPoint([100, 50, 0], 60))")
    assert x == pytest.approx(100) and y == pytest.approx(72)


def test_a_piece_thrown_far_over_the_table_stays_in_the_picture(seeded_server, page):
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    # The red platform lying on the table 600 mm right of the middle of the base.
    left, right, top, width = page.evaluate(
        """async ([state, viewUrl]) => {
            const V = await import(viewUrl);
            const far = { p4: [600, 3, 0] };
            const bounds = V.sceneBounds(state, [far], 190);
            const view = V.fitView(bounds, 358, 500);
            const sx = (x) => view.ox + x * view.scale;
            const half = state.platforms[4].length / 2;
            return [sx(-138), sx(600 + half), view.oy - 3 * view.scale, view.width];
        }""",
        [match["state"], VIEW],
    )
    assert 0 <= left and right <= width and top >= 0
