"""The load's advice is what a hand that follows it gets: a heavy column the villa needs,
drawn out in one long, slow, straight stroke, is felt and put back (locked) with the villa
standing; a short, wobbly swipe of the same column, from the same villa, brings it down.

A finger on a phone (touch events) and a mouse on a desktop.
"""

import pytest
from playwright.sync_api import expect

from e2e.conftest import GUIDE_SEEN, PACE_ALL_AT_ONCE, screenshot
from e2e.conftest import english_url as url
from e2e.test_paletti import ADA_AND_BOB, column_point, create_with, view_settled
from paletti.tests.setups import lopsided_setup

PINK_THIN = 15


def heavy_needed_setup():
    """Blue (its centre at x = 16 mm) rests on pink's column 15 alone left of its centre of
    mass and on the 19 others right of it: column 15 bears 43 g, a heavy load, and blue
    cannot stand without it (its loaded centre 10 mm past the others' edge)."""
    setup = lopsided_setup(PINK_THIN)
    setup["blue_x"] = 16.0
    return setup


@pytest.fixture(params=["phone", "desktop"])
def hand(request, browser):
    """A touch phone 390 px wide, or a desktop with a mouse."""
    if request.param == "phone":
        options = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    else:
        options = {"viewport": {"width": 1280, "height": 900}}
    context = browser.new_context(**options)
    context.add_init_script(GUIDE_SEEN)
    context.add_init_script(PACE_ALL_AT_ONCE)
    page = context.new_page()
    page.width = options["viewport"]["width"]
    page.touch = request.param == "phone"
    yield page
    context.close()


def touch_the_heavy_column(server, page):
    match = create_with(server, page, ADA_AND_BOB, heavy_needed_setup())
    page.goto(url(server, "paletti:match", match_id=match["id"]))
    page.get_by_role("button", name="Play pink").click()
    page.locator(f".column-choice[data-column='{PINK_THIN}']").click()
    expect(page.get_by_role("button", name="Pull it out gently")).to_be_visible()
    view_settled(page)
    return match["state"]


def stroke(page, start, points, seconds):
    """The pointer (a finger on a touch screen) pressed at `start`, moved through `points`
    over `seconds`, then lifted."""
    pause = 1000 * seconds / len(points)
    if page.touch:
        touch = page.context.new_cdp_session(page)
        send = lambda kind, at: touch.send(  # noqa: E731
            "Input.dispatchTouchEvent",
            {"type": kind, "touchPoints": [{"x": at[0], "y": at[1]}] if at else []},
        )
        send("touchStart", start)
        for point in points:
            page.wait_for_timeout(pause)
            send("touchMove", point)
        send("touchEnd", None)
        touch.detach()
    else:
        page.mouse.move(*start)
        page.mouse.down()
        for point in points:
            page.wait_for_timeout(pause)
            page.mouse.move(*point)
        page.mouse.up()


def pull_by_stroke(page, state, length, seconds, wobble, back=0.0):
    """Drag the touched column out to the left: `length` px over `seconds`, the pointer
    wandering `wobble` px up and down, and jerking back `back` px twice on the way."""
    x, y = column_point(page, state, PINK_THIN)
    points = []
    for k in range(1, 25):
        dx = -length * k / 24 + (back if k in (8, 16) else 0.0)
        points.append((x + dx, y + (wobble if k % 2 else -wobble)))
    with page.expect_request(lambda r: "/actions/" in r.url and r.method == "POST") as sent:
        with page.expect_response(lambda r: "/actions/" in r.url) as answer:
            stroke(page, (x, y), points, seconds)
    return sent.value.post_data_json["action"], answer.value.json()


def test_a_heavy_column_pulled_as_the_advice_says_goes_back_locked_if_the_villa_needs_it(
    seeded_server, hand
):
    page = hand
    state = touch_the_heavy_column(seeded_server, page)
    gauge = page.locator(".load-gauge")
    expect(gauge).to_have_class("load-gauge load-heavy")
    expect(gauge.locator(".load-grams")).to_have_text("43 g")
    # What to do, and what it leads to if the villa needs the column.
    expect(gauge.locator(".load-word")).to_have_text(
        "Heavy load: pull it slowly, in one long straight stroke"
    )
    expect(gauge.locator(".load-advice")).to_contain_text(
        "If the villa needs this one, your other hand usually feels the platform sink and "
        "puts the column back (it is then locked)"
    )
    expect(page.locator("#prompt")).to_contain_text("one long, slow, straight stroke")
    screenshot(page, "paletti-heavy-advice")
    # Followed: 160 px in about 1.6 s, wandering a pixel and a half.
    action, result = pull_by_stroke(page, state, length=160, seconds=1.6, wobble=1.5)
    assert action["type"] == "pull" and action["steadiness"] >= 0.95, action
    assert result["state"]["collapse"] is None, result["events"]
    failed = [e for e in result["events"] if e["code"] == "pull_failed"]
    assert [e.get("problem") for e in failed] == ["caught"], result["events"]
    column = result["state"]["columns"][PINK_THIN]
    assert column["locked"] and column["x"] == state["columns"][PINK_THIN]["x"]
    expect(page.locator("#narration")).to_contain_text("settled onto the hand steadying it")
    view_settled(page)
    expect(page.locator("#game-over")).to_be_hidden()


def test_the_same_column_swiped_short_and_wobbly_brings_the_villa_down(seeded_server, hand):
    page = hand
    state = touch_the_heavy_column(seeded_server, page)
    # Not as the advice says: 40 px in 0.3 s, wandering 4 px, jerking back 3 px.
    action, result = pull_by_stroke(page, state, length=40, seconds=0.3, wobble=4, back=3)
    assert action["type"] == "pull" and action["steadiness"] < 0.8, action
    assert result["state"]["collapse"] is not None, result["events"]
    view_settled(page)
    expect(page.locator("#game-over")).to_be_visible()
