"""Laying the next platform where a person would: across and in depth. The French record
lets it be offset from the one below ("peut maintenant être décalé par rapport à la
base"); the villa is square, so either way. The ghost platform moves by the side drawing,
the large drawing, the buttons and the arrow keys, and the platform is laid there."""

from playwright.sync_api import expect

from e2e.conftest import english_url as url
from e2e.conftest import screenshot
from e2e.test_paletti import (
    ADA_AND_BOB,
    create_by_api,
    on_screen,
    play_by_api,
    three_builds,
    view_settled,
)

DEPTH = "/static/js/paletti/depth.js"


def _at_the_lay(server, page):
    """Three builds (the columns across the depth, on a diagonal), Ada's claim let stand:
    Ada may lay green. Answers the match and the slider of the new platform's position."""
    match = create_by_api(server, page, ADA_AND_BOB)
    play_by_api(
        server, page, match, three_builds() + [{"type": "ask_platform"}, {"type": "decline"}]
    )
    page.goto(url(server, "paletti:match", match_id=match["id"]))
    slider = page.get_by_role("slider", name="Position of the new platform")
    expect(slider).to_be_visible()
    view_settled(page)
    # It starts over blue, whose middle is the base's.
    expect(slider).to_have_attribute("aria-valuetext", "x 0 mm, z 0 mm")
    return match, slider


def _side_drawing(page):
    """The side drawing, scrolled into view and taking pointers: (the screen x where a
    depth in mm is, the y of its middle). Its own scale: depthAt is linear in the x."""
    depth = page.locator("#villa-depth")
    depth.scroll_into_view_if_needed()
    expect(depth).to_have_attribute("data-pointable", "")
    box = depth.bounding_box()
    a, b = page.evaluate(
        f"import('{DEPTH}').then((D) => [D.depthAt({box['x']}), D.depthAt({box['x'] + 100})])"
    )

    def x_of(z):
        return box["x"] + (z - a) * 100 / (b - a)

    return x_of, box["y"] + box["height"] / 2


def _lay_and_check(server, page, match, x, z, press):
    with page.expect_request(lambda r: "/actions/" in r.url and r.method == "POST") as sent:
        press()
    action = sent.value.post_data_json["action"]
    assert (action["type"], action["x"], action["z"]) == ("lay_platform", x, z)
    expect(page.locator("#narration")).to_contain_text("green platform is laid")
    expect(page.locator("#top-platform")).to_contain_text("green")
    state = page.request.get(f"{server.url}/api/paletti/matches/{match['id']}/").json()
    green = state["platforms"][1]
    assert green["laid"] and (green["x"], green["side"][0]) == (x, z)


def test_the_side_drawing_and_the_buttons_move_the_platform_in_depth(seeded_server, page):
    match, slider = _at_the_lay(seeded_server, page)
    x_of, y = _side_drawing(page)
    page.mouse.click(x_of(10.0), y)  # 10 mm behind the middle
    expect(slider).to_have_attribute("aria-valuetext", "x 0 mm, z 10 mm")
    page.get_by_role("button", name="Move right").click()
    expect(slider).to_have_attribute("aria-valuetext", "x 10 mm, z 10 mm")
    # Back and forth in depth with the buttons.
    page.get_by_role("button", name="Move to the back").click()
    expect(slider).to_have_attribute("aria-valuetext", "x 10 mm, z 20 mm")
    page.get_by_role("button", name="Move to the front").click()
    expect(slider).to_have_attribute("aria-valuetext", "x 10 mm, z 10 mm")
    page.locator("#villa").scroll_into_view_if_needed()
    screenshot(page, "paletti-lay-in-depth")
    lay = page.get_by_role("button", name="Lay it here")
    _lay_and_check(seeded_server, page, match, 10.0, 10.0, lay.click)
    view_settled(page)
    screenshot(page, "paletti-laid-in-depth")


def test_the_large_drawing_and_the_arrow_keys_move_the_platform_in_depth(seeded_server, page):
    match, slider = _at_the_lay(seeded_server, page)
    state = page.request.get(f"{seeded_server.url}/api/paletti/matches/{match['id']}/").json()
    blue = state["platforms"][0]
    # A click on the large drawing where green's underside would be, 10 mm left of the
    # middle and 10 mm before it: the ghost goes there, across and in depth.
    underside = blue["y"] + blue["thickness"] / 2 + state["dimensions"]["column_height"]
    page.mouse.click(*on_screen(page, -10.0, underside, -10.0))
    expect(slider).to_have_attribute("aria-valuetext", "x -10 mm, z -10 mm")
    slider.focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(slider).to_have_attribute("aria-valuetext", "x -10 mm, z 10 mm")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(slider).to_have_attribute("aria-valuetext", "x -10 mm, z -10 mm")
    _lay_and_check(seeded_server, page, match, -10.0, -10.0, lambda: page.keyboard.press("Enter"))


def test_a_finger_drawn_along_the_side_drawing_moves_the_platform_in_depth(seeded_server, finger):
    """On a phone, a finger drawn along the side drawing carries the new platform in depth
    with it, the page staying where it is though the finger drifts up as it goes, and it is
    laid there."""
    page = finger
    match, slider = _at_the_lay(seeded_server, page)
    x_of, y = _side_drawing(page)
    scrolled = page.evaluate("window.scrollY")
    # The page has room to scroll down: a finger drifting up would pan it, were the
    # drawing not keeping the finger for itself.
    assert page.evaluate("document.documentElement.scrollHeight - innerHeight") > scrolled + 100
    touch = page.context.new_cdp_session(page)
    touch.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x_of(0), "y": y}]}
    )
    for step, z in enumerate((2.5, 5.0, 7.5, 10.0), start=1):
        point = {"x": x_of(z), "y": y - 20 * step}
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    expect(slider).to_have_attribute("aria-valuetext", "x 0 mm, z 10 mm")
    # The finger is lifted, and the page has seen it go, before the next tap: a tap
    # dispatched while the drag's end is still queued can be lost (once in CI, 3 December).
    page.evaluate(
        "window.fingerLifted = new Promise((done) => { for (const type of"
        " ['pointerup', 'pointercancel']) addEventListener(type, done, { once: true }); }); true"
    )
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.evaluate("window.fingerLifted.then(() => true)")
    touch.detach()
    assert page.evaluate("window.scrollY") == scrolled
    page.locator("#villa").scroll_into_view_if_needed()
    screenshot(page, "paletti-lay-in-depth-by-finger")
    lay = page.get_by_role("button", name="Lay it here")
    expect(lay).to_be_enabled()
    _lay_and_check(seeded_server, page, match, 0.0, 10.0, lay.tap)
