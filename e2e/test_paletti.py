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
# The drawing's modules, which the tests import into the page: the view, the 3-D
# geometry, the drawing itself (the same module instances as the page's).
VIEW = "/static/js/paletti/view.js"
SCENE = "/static/js/paletti/scene.js"
DRAWING = "/static/js/paletti/drawing.js"
POINTING = "/static/js/paletti/pointing.js"
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
    """Play actions straight through the API: a quick way to reach a given position, as
    the organiser (its key in the header: a program's request carries no CSRF token)."""
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
            headers={"X-Seat-Token": match["organiser_token"]},
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
    start, depth = slider.get_attribute("aria-valuenow"), float(slider.get_attribute("data-z"))
    # Across, then 30 mm in depth (six steps of 5 mm), towards the back.
    for key in ["ArrowRight"] * 3 + ["ArrowUp"] * 6:
        page.keyboard.press(key)
    expect(slider).not_to_have_attribute("aria-valuenow", start)
    expect(slider).to_have_attribute("data-z", re.compile(rf"^{depth + 30:g}$"))
    expect(slider).to_contain_text(f"z {depth + 30:g} mm")
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


# Pointing, hidden columns and the collapse: the column meant is the one drawn under the
# pointer, a hidden column can still be found, and a fall is seen. With seed 42 Bob
# starts and plays pink or white. The villa is drawn in 3-D (scene.js): the tests find where
# columns overlap as drawn rather than naming places.


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


def camera(page):
    """The drawing's camera (scene.js): its turn about the vertical and its look down."""
    return page.evaluate(f"import('{SCENE}').then((S) => [S.YAW, S.PITCH])")


def picture(page, x, y, z):
    """A world point (mm) on the picture plane, by the camera's own formula (the tests'
    copy of the projection, so that they do not ask the drawing where things are)."""
    yaw, pitch = camera(page)
    across = x * math.cos(yaw) + z * math.sin(yaw)
    depth = -x * math.sin(yaw) + z * math.cos(yaw)
    return across, y * math.cos(pitch) + depth * math.sin(pitch), depth


def to_screen(page, px, py):
    """A picture point (mm) on the screen, from the drawing's view (scrolled into sight
    first, as a player on a phone would scroll up to it after a button below it)."""
    page.locator("#villa").scroll_into_view_if_needed()
    box = page.locator("#villa").bounding_box()
    scale, ox, oy = map(float, page.locator("#villa").get_attribute("data-view").split())
    return box["x"] + ox + px * scale, box["y"] + oy - py * scale


def on_screen(page, x, y, z=0.0):
    """Where a world point (mm) is on the screen."""
    px, py, _ = picture(page, x, y, z)
    return to_screen(page, px, py)


def column_point(page, state, column):
    """A column's middle on the screen."""
    col = state["columns"][column]
    return on_screen(page, col["x"], col["y"], col["z"])


def visible_point(page, column):
    """A point of the picture where the column is drawn on top of everything else (the
    middle one of those points), on the screen."""
    point = page.evaluate(
        """async ([drawingUrl, sceneUrl, key]) => {
            const D = await import(drawingUrl);
            const S = await import(sceneUrl);
            const scene = D.currentScene();
            const item = scene.find((i) => i.key === key);
            const b = item.shape.box;
            const seen = [];
            for (let i = 1; i < 40; i += 1) {
                for (let j = 1; j < 40; j += 1) {
                    const x = b.xMin + ((b.xMax - b.xMin) * i) / 40;
                    const y = b.yMin + ((b.yMax - b.yMin) * j) / 40;
                    if (S.topAt(scene, x, y) === item) seen.push([x, y]);
                }
            }
            return seen.length ? seen[Math.floor(seen.length / 2)] : null;
        }""",
        [DRAWING, SCENE, f"c{column}"],
    )
    assert point, f"column {column} is nowhere in sight"
    return to_screen(page, *point)


def finger_chooser_point(page):
    """A point a finger may tap beside two or more columns the player may take, on none of
    them: returns it on the screen."""
    point = page.evaluate(
        """async ([drawingUrl, pointingUrl]) => {
            const D = await import(drawingUrl);
            const P = await import(pointingUrl);
            const view = D.currentView();
            const ids = new Set(P.columnChoices().list.map((a) => a.column));
            const scene = D.currentScene();
            const slack = 14 / view.scale;
            for (let py = 0; py < view.height; py += 2) {
                for (let px = 0; px < view.width; px += 2) {
                    // Two or more around it too, so that a rounded tap still means them.
                    const around = [[0, 0], [-3, 0], [3, 0], [0, -3], [0, 3]].every(([dx, dy]) => {
                        const [x, y] = D.toPicture(px + dx, py + dy);
                        return P.columnsMeant(scene, ids, x, y, slack).length >= 2;
                    });
                    if (around) return D.toPicture(px, py);
                }
            }
            return null;
        }""",
        [DRAWING, POINTING],
    )
    assert point, "no point lies beside two columns at once"
    return to_screen(page, *point)


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


def overlap_point(page, ids):
    """A point of the picture inside two of these columns' outlines at once, where one of
    them is drawn on top, both being in sight somewhere: (screen point, the two ids)."""
    found = page.evaluate(
        """async ([drawingUrl, sceneUrl, ids]) => {
            const D = await import(drawingUrl);
            const S = await import(sceneUrl);
            const scene = D.currentScene();
            const items = scene.filter((i) => ids.includes(i.piece.id) && i.kind === "column");
            const seen = (item) => S.visibility(scene, item).share > 0.05;
            for (const a of items) {
                for (const b of items) {
                    if (a === b || !seen(a) || !seen(b)) continue;
                    const box = a.shape.box;
                    for (let i = 1; i < 30; i += 1) {
                        for (let j = 1; j < 30; j += 1) {
                            const x = box.xMin + ((box.xMax - box.xMin) * i) / 30;
                            const y = box.yMin + ((box.yMax - box.yMin) * j) / 30;
                            const top = S.topAt(scene, x, y);
                            const inA = S.inside(a.shape.hull, x, y);
                            const both = inA && S.inside(b.shape.hull, x, y);
                            const pair = [a.piece.id, b.piece.id];
                            if (both && (top === a || top === b)) return [[x, y], pair];
                        }
                    }
                }
            }
            return null;
        }""",
        [DRAWING, SCENE, ids],
    )
    assert found, f"none of {ids} overlap as drawn"
    (px, py), pair = found
    return to_screen(page, px, py), pair


def test_a_click_touches_the_front_most_column_where_two_overlap(seeded_server, page):
    state = play_pink(seeded_server, page)
    pink = [c["id"] for c in state["columns"] if c["colour"] == "pink"]
    point, pair = overlap_point(page, pink)
    # The nearer of the two to the camera, from the tests' own copy of its geometry.
    depth = {i: picture(page, *(state["columns"][i][k] for k in ("x", "y", "z")))[2] for i in pair}
    front, back = sorted(pair, key=lambda i: depth[i])
    with touch_request(page) as sent:
        page.mouse.click(*point)
    assert touched(sent) == front
    expect(page.locator("#prompt")).to_contain_text("The pink")
    # No chooser: what is drawn on top is what is meant.
    expect(page.locator("#pointing")).to_be_hidden()


def test_a_click_where_only_the_back_column_shows_touches_it(seeded_server, page):
    state = play_pink(seeded_server, page)
    pink = [c["id"] for c in state["columns"] if c["colour"] == "pink"]
    _, pair = overlap_point(page, pink)
    depth = {i: picture(page, *(state["columns"][i][k] for k in ("x", "y", "z")))[2] for i in pair}
    back = max(pair, key=lambda i: depth[i])
    with touch_request(page) as sent:
        page.mouse.click(*visible_point(page, back))
    assert touched(sent) == back


@pytest.fixture(params=[390, 1280], ids=["phone", "tablet"])
def fingers(request, browser):
    """A touch screen, no mouse: a phone or a large tablet."""
    context = browser.new_context(
        viewport={"width": request.param, "height": 900}, has_touch=True, is_mobile=True
    )
    context.add_init_script(PACE_ALL_AT_ONCE)
    context.add_init_script(GUIDE_SEEN)
    page = context.new_page()
    page.width = request.param
    yield page
    context.close()


def test_where_a_finger_lands_between_columns_the_player_chooses(seeded_server, fingers):
    page = fingers
    play_pink(seeded_server, page)
    page.touchscreen.tap(*finger_chooser_point(page))
    chooser = page.locator("#pointing")
    expect(chooser).to_contain_text("These columns overlap here")
    choices = chooser.get_by_role("button", name=re.compile("Touch the pink"))
    assert choices.count() >= 2
    expect(choices.nth(0)).to_contain_text("lane")
    assert_no_serious_violation(page, "chooser")
    screenshot(page, "paletti-chooser")
    second = int(choices.nth(1).get_attribute("data-column"))
    with touch_request(page) as sent:
        choices.nth(1).tap()
    assert touched(sent) == second
    expect(chooser).to_be_hidden()


def test_escape_closes_the_chooser_without_touching_anything(seeded_server, fingers):
    page = fingers
    play_pink(seeded_server, page)
    page.touchscreen.tap(*finger_chooser_point(page))
    chooser = page.locator("#pointing")
    expect(chooser).to_contain_text("These columns overlap here")
    chooser.get_by_role("button").first.focus()
    page.keyboard.press("Escape")
    expect(chooser).to_be_hidden()
    expect(page.locator("#prompt")).to_contain_text("Touch a column")


def test_on_a_touch_screen_the_first_tap_selects_and_the_second_commits(seeded_server, finger):
    from paletti.tests.setups import rows_setup

    page = finger
    # In rows, pink's thin column 16 stands in the front row, where a tap finds it.
    play_pink(seeded_server, page, rows_setup())
    posted = []
    page.on("request", lambda r: posted.append(r) if "/actions/" in r.url else None)
    page.touchscreen.tap(*visible_point(page, 16))
    selection = page.locator("#pointing")
    expect(selection).to_contain_text("Selected: the pink thin round column")
    expect(selection).to_contain_text("front lane")
    screenshot(page, "paletti-selected")
    assert posted == [], "a first tap must not touch the column"
    # A tap beside every column clears the selection; a tap beside two at once asks which.
    page.touchscreen.tap(*on_screen(page, 0, 190, 0))
    expect(selection).to_be_hidden()
    page.touchscreen.tap(*finger_chooser_point(page))
    expect(selection).to_contain_text("These columns overlap here")
    page.touchscreen.tap(*visible_point(page, 16))
    expect(selection).to_contain_text("Selected: the pink thin round column")
    with touch_request(page) as sent:
        page.touchscreen.tap(*visible_point(page, 16))
    assert touched(sent) == 16
    expect(page.locator("#prompt")).to_contain_text("The pink thin round column bears")


def behind_setup(page):
    """The columns in the page's three rows (rows_setup) with white's thin column 1 moved
    exactly behind white's column 0 as the camera sees it: two rows further back and as far
    to the left as the camera's turn makes up (white's column 4, in its way, takes column
    1's place)."""
    from paletti.tests.setups import rows_setup

    yaw, _ = camera(page)
    setup = rows_setup()
    front = setup["columns"][0]
    back_z = 30.0
    setup["columns"][1] = {
        "id": 1,
        "x": round(front["x"] - (back_z + 30.0) * math.tan(yaw), 1),
        "z": back_z,
    }
    setup["columns"][4] = {"id": 4, "x": -38.2, "lane": 2}
    return setup


def dark_pixels(page, column):
    """How many pixels inside a column's drawn outline are the hidden outline's near-black."""
    return page.evaluate(
        """async ([drawingUrl, sceneUrl, key]) => {
            const D = await import(drawingUrl);
            const S = await import(sceneUrl);
            const item = D.currentScene().find((i) => i.key === key);
            const canvas = document.querySelector("#villa");
            const dpr = canvas.width / canvas.clientWidth;
            const context = canvas.getContext("2d");
            const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
            const near = (i, value) => Math.abs(data[i] - value) < 14;
            let n = 0;
            for (let py = 0; py < canvas.height; py += 1) {
                for (let px = 0; px < canvas.width; px += 1) {
                    const [x, y] = D.toPicture(px / dpr, py / dpr);
                    if (!S.inside(item.shape.hull, x, y)) continue;
                    const i = 4 * (py * canvas.width + px);
                    if (near(i, 31) && near(i + 1, 35) && near(i + 2, 40)) n++;
                }
            }
            return n;
        }""",
        [DRAWING, SCENE, f"c{column}"],
    )


def test_a_column_exactly_behind_another_of_its_colour_is_drawn_and_listed(seeded_server, page):
    page.goto(seeded_server.url + "/en/paletti/")
    match = create_with(seeded_server, page, ADA_AND_BOB, behind_setup(page))
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    page.get_by_role("button", name="Play white").click()
    view_settled(page)
    # Its outline and ringed dot, in dark and light, show over the white front column.
    assert dark_pixels(page, 0) > 20
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
    """Blue resting on pink's column 15 alone left of its centre of mass: pulling it
    quickly, with one hand, brings the villa down (a gentle pull, blue steadied with the
    other hand, would be caught and put back). Returns the pull's answer (state and
    frames)."""
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
        page.get_by_role("button", name="Pull it out quickly").click()
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
        x, y = on_screen(page, piece["x"], piece["y"], piece["side"][0])
        assert box["x"] <= x <= box["x"] + box["width"], piece
        assert box["y"] <= y <= box["y"] + box["height"], piece
    screenshot(page, "paletti-collapsed")


def test_a_gentle_pull_of_a_column_the_villa_needs_is_caught_and_put_back(seeded_server, page):
    # The same villa as above, pulled gently: the builder's other hand steadies blue, feels
    # it settle as the column comes clear, and puts the column back (rule 1 and the
    # interrupted build); the page says so and the turn passes with the villa standing.
    from paletti.tests.setups import lopsided_setup

    play_pink(seeded_server, page, lopsided_setup(15))
    page.locator(".column-choice[data-column='15']").click()
    with page.expect_response(lambda r: "/actions/" in r.url) as answer:
        page.get_by_role("button", name="Pull it out gently").click()
    result = answer.value.json()
    assert result["state"]["collapse"] is None, result["events"]
    expect(page.locator("#narration")).to_contain_text("settled onto the hand steadying it")
    settled(page)
    expect(page.locator("#game-over")).to_be_hidden()
    screenshot(page, "paletti-caught")


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
    # A 60 mm column lying on its side at (100, 20, 0) (fallen to the right, or to the
    # back): its padlock lies beside its middle, at its own height, not in the air above it.
    lock = f"""([front, side]) => import('{SCENE}').then(
        (S) => S.lockPoint(S.pose3d([100, 20, front, 0, side]), 60))"""
    assert page.evaluate(lock, [-math.pi / 2, 0]) == pytest.approx([122, 20, 0])
    assert page.evaluate(lock, [0, -math.pi / 2]) == pytest.approx([100, 20, 22])
    assert page.evaluate(lock, [0, 0]) == pytest.approx([100, 42, 0])


def test_a_piece_thrown_far_over_the_table_stays_in_the_picture(seeded_server, page):
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    # The red platform lying on the table 600 mm right of the middle of the base, 300 mm
    # behind it: every corner of it on the canvas.
    inside = page.evaluate(
        """async ([state, viewUrl, sceneUrl]) => {
            const V = await import(viewUrl);
            const S = await import(sceneUrl);
            const far = { p4: S.pose3d([600, 3, 0, 300, 0]) };
            const view = V.fitView(S.pictureBounds(state, [far], 190), 358, 500);
            const red = S.buildScene(state, far)[0];
            return red.shape.hull.every(([x, y]) => {
                const px = view.ox + x * view.scale;
                const py = view.oy - y * view.scale;
                return px >= 0 && px <= view.width && py >= 0 && py <= view.height;
            });
        }""",
        [match["state"], VIEW, SCENE],
    )
    assert inside
