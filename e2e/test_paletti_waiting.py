"""Waiting is visible, the phone shows the villa and its controls together, and a refused
arrangement is explained beside the Start button, so a child and a parent always know
what the page is doing and what to fix.

Seed 42 with two seats: Bob (seat 1) starts with pink and white, Ada plays black and
purple.
"""

import re

from playwright.sync_api import expect

from e2e.conftest import GUIDE_SEEN, PACE_ALL_AT_ONCE, assert_no_serious_violation, screenshot
from e2e.conftest import english_url as url
from e2e.test_paletti import (
    ADA_AND_BOB,
    SEED,
    collapse_by_pulling,
    create_by_api,
    play_by_api,
    settled,
    three_builds,
)

ADA_AND_BOT = [{"name": "Ada", "kind": "human"}, {"name": "Bob", "kind": "bot", "level": "easy"}]


def open_match(server, page, match):
    page.goto(url(server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()


def current_state(server, page, match):
    return page.request.get(f"{server.url}/api/paletti/matches/{match['id']}/").json()


# -- Waiting is visible -----------------------------------------------------------------


def test_while_the_bot_thinks_the_page_says_so_and_controls_wait(seeded_server, page):
    match = create_by_api(seeded_server, page, ADA_AND_BOT)
    open_match(seeded_server, page, match)
    page.get_by_role("button", name="Play black").click()
    page.get_by_role("button", name=re.compile("Touch the black thick round column")).click()
    page.get_by_role("button", name="Pull it out gently").click()
    expect(page.get_by_role("button", name="Place it here")).to_be_enabled()
    held, holding = [], [True]
    page.route("**/actions/", lambda r: held.append(r) if holding[0] else r.continue_())
    page.get_by_role("button", name="Place it here").click()
    thinking = page.locator("#thinking")
    expect(thinking).to_have_text("Bob (bot) is thinking…")
    expect(thinking).to_have_attribute("role", "status")
    expect(page.get_by_role("button", name="Place it here")).to_be_disabled()
    expect(page.locator("#actions [role=slider]")).to_have_attribute("aria-disabled", "true")
    assert_no_serious_violation(page, "thinking")
    screenshot(page, "paletti-thinking")
    holding[0] = False
    held[0].continue_()
    expect(thinking).to_be_hidden()
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")
    # The column list is current after the bot's turn: blue carries both columns.
    state = current_state(seeded_server, page, match)
    on_blue = [c["id"] for c in state["columns"] if c["level"] == 1 and not c["removed"]]
    assert len(on_blue) == 3, on_blue
    index = page.locator("#column-index")
    index.locator("summary").click()
    expect(index.locator(".index-list").first.locator(".index-entry")).to_have_count(3)
    for column in on_blue:
        expect(
            index.locator(".index-list").first.locator(f"[data-column='{column}']")
        ).to_have_count(1)


def test_a_move_refused_because_another_table_of_the_address_is_moving_is_sent_again(
    seeded_server, browser
):
    """Two tables behind a library's one address: while the other's move is worked out the
    server answers 429 engine_busy; the page waits and sends the move again, unseen."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(PACE_ALL_AT_ONCE)
    context.add_init_script(GUIDE_SEEN)
    page = context.new_page()
    match = create_by_api(seeded_server, page, ADA_AND_BOT)
    open_match(seeded_server, page, match)
    before = current_state(seeded_server, page, match)["version"]
    posts = []

    def busy_once(route):
        posts.append(route.request.post_data)
        if len(posts) == 1:
            route.fulfill(
                status=429,
                headers={"Retry-After": "1", "Content-Type": "application/json"},
                body='{"code": "engine_busy", "detail": "Another move from your address."}',
            )
        else:
            route.continue_()

    page.route("**/actions/", busy_once)
    page.get_by_role("button", name="Play black").click()
    expect(page.locator("#narration")).to_have_text("Playing black this turn.", timeout=5000)
    assert len(posts) == 2 and posts[0] == posts[1]
    expect(page.locator("#error")).to_be_empty()
    assert current_state(seeded_server, page, match)["version"] == before + 1  # played once
    context.close()


def test_a_match_opened_on_a_bots_turn_animates_that_turn(seeded_server, page):
    page.goto(url(seeded_server, "paletti:setup") + f"?seed={SEED}")
    page.get_by_label("Played by").nth(1).select_option(label="a bot (easy)")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    # The bot played before the page opened: its frames are animated, from the opening.
    expect(page.locator("#paletti-match[data-animating]")).to_have_count(1, timeout=3000)
    settled(page)
    expect(page.locator("#turn-banner")).to_contain_text("Player 1, your turn")
    # The column list is filled at once, with the bot's column on blue.
    index = page.locator("#column-index")
    index.locator("summary").click()
    expect(index.locator(".level-name")).to_have_text(["On the blue platform", "On the base"])


def test_the_seal_line_is_said_when_the_seal_changes_not_after_every_action(seeded_server, page):
    response = page.request.post(
        seeded_server.url + "/api/paletti/matches/",
        data={"players": ADA_AND_BOB, "seed": SEED, "options": {"seal_start": "blue"}},
    )
    match = response.json()
    play_by_api(seeded_server, page, match, three_builds()[:4])
    open_match(seeded_server, page, match)
    expect(page.locator("#narration")).to_contain_text("Seal: Bob")
    page.get_by_role("button", name="Play black").click()
    expect(page.locator("#narration")).to_have_text("Playing black this turn.")
    page.get_by_role("button", name=re.compile("Touch the black thick round column")).click()
    expect(page.locator("#narration")).to_contain_text("bears")
    expect(page.locator("#narration")).not_to_contain_text("Seal")
    expect(page.locator("#log li").filter(has_text="Seal:")).to_have_count(1)


# -- A phone shows the villa and its controls together ----------------------------------


def fits_on_screen(page, *selectors):
    """Scrolled to the drawing's top, each element lies wholly inside the 844 px screen."""
    page.locator("#villa").evaluate("c => c.scrollIntoView({block: 'start'})")
    for selector in selectors:
        box = page.locator(selector).first.bounding_box()
        assert box is not None, selector
        assert box["y"] >= -1 and box["y"] + box["height"] <= 845, (selector, box)


def test_on_a_phone_the_drawing_and_each_steps_controls_share_the_screen(seeded_server, finger):
    page = finger
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    play_by_api(seeded_server, page, match, three_builds()[:4])
    open_match(seeded_server, page, match)
    fits_on_screen(page, "#villa", "#villa-depth", "[data-action=choose_colour]")
    page.get_by_role("button", name="Play black").tap()
    fits_on_screen(page, "#villa", "#prompt", "#actions [data-action=touch]")
    page.locator("#actions [data-action=touch][data-column='9']").tap()
    fits_on_screen(page, "#villa", ".load-gauge", "text=Pull it out gently")
    page.get_by_role("button", name="Pull it out gently").tap()
    expect(page.get_by_role("button", name="Place it here")).to_be_visible()
    settled(page)
    fits_on_screen(page, "#villa", "#villa-depth", ".placer", "text=Place it here")
    screenshot(page, "paletti-phone-holding")
    assert_no_serious_violation(page, "phone holding")


def test_on_a_phone_the_game_over_heading_does_not_scroll_the_collapse_away(seeded_server, finger):
    page = finger
    collapse_by_pulling(seeded_server, page)
    expect(page.locator("#game-over-heading")).to_be_focused()
    settled(page)
    box = page.locator("#villa").bounding_box()
    assert box["y"] >= -1 and box["y"] + box["height"] <= 845, box
    expect(page.locator("#game-over")).to_be_in_viewport()
    screenshot(page, "paletti-phone-collapsed")


# -- A refused arrangement is explained beside the Start button -------------------------


def test_a_refused_arrangement_names_the_column_next_to_the_start_button(seeded_server, page):
    page.goto(url(seeded_server, "paletti:setup"))
    page.get_by_label("we place them ourselves").check()
    page.locator("#arrange-rows input[data-column='0']").fill("0")
    start = page.get_by_role("button", name="Start the match")
    start.click()
    error = page.locator("#option-setup-error")
    expect(error).to_contain_text("The white thin round column (x 0 mm, ")
    expect(error).to_contain_text("forbidden zone")
    expect(error).to_be_focused()
    message, button = error.bounding_box(), start.bounding_box()
    assert 0 <= button["y"] - (message["y"] + message["height"]) < 80, (message, button)
    expect(error).to_be_in_viewport()
    expect(start).to_be_in_viewport()
    screenshot(page, "paletti-arrange-refused")


def test_a_person_skipped_turn_after_turn_is_told_why_and_one_who_passes_is_not(
    seeded_server, page
):
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    open_match(seeded_server, page, match)
    # Two of Ada's turns ending with Bob skipped (he can neither move nor ask), then two
    # turns Bob passes by choice: the page's narration module is asked what to add.
    lines = page.evaluate(
        """async () => {
            const N = await import('/static/js/paletti/narration.js');
            const skipped = [{ code: "player_skipped", seat: 1 }];
            const passed = [{ code: "passed", seat: 1 }];
            const ada = { seat: 0, type: "place", events: [0, 1] };
            const bob = { seat: 1, type: "pass", events: [0, 1] };
            return [
                N.streakLines(ada, skipped), N.streakLines(ada, skipped),
                N.streakLines(bob, passed), N.streakLines(bob, passed),
            ];
        }"""
    )
    assert lines[0] == []
    assert lines[1] == [
        "Bob has now been skipped 2 turns in a row: none of their columns can go up and no "
        "platform can be asked for, so they will go on being skipped as long as that lasts."
    ]
    assert lines[2] == [] and lines[3] == []
