"""Every action the rules allow can be taken on the page, with a mouse, a finger or the keys
(a move the page does not offer is one the player cannot make): passing when asking for a
platform is the only move left, removing none after a failed protest, the Polish protest's
reward, declining to lay the platform, and the set-up page's Polish protest and abort
options.

Seed 42 with two people: Bob (seat 1) starts with pink and white, Ada plays black and
purple. The positions are reached by playing real actions through the API.
"""

import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import GUIDE_SEEN, PACE_ALL_AT_ONCE, assert_no_serious_violation, screenshot
from e2e.conftest import english_url as url
from e2e.test_paletti import ADA_AND_BOB, SEED, play_by_api, settled, three_builds

HANDS = {
    "mouse": {"viewport": {"width": 1280, "height": 900}},
    "keys": {"viewport": {"width": 1280, "height": 900}},
    "finger": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}


@pytest.fixture(params=list(HANDS))
def hand(request, browser):
    """A page driven by a mouse (desktop), the keyboard alone (desktop) or a finger (phone)."""
    options = HANDS[request.param]
    context = browser.new_context(**options)
    context.add_init_script(PACE_ALL_AT_ONCE)
    context.add_init_script(GUIDE_SEEN)
    page = context.new_page()
    page.width = options["viewport"]["width"]
    page.hand = request.param
    yield page
    context.close()


def take(page, control):
    """Use a control as this hand would: click, tap, or Tab to it and press Enter."""
    expect(control).to_be_enabled()
    if page.hand == "mouse":
        control.click()
    elif page.hand == "finger":
        control.scroll_into_view_if_needed()
        control.tap()
    else:
        for _ in range(120):
            if control.evaluate("node => node === document.activeElement"):
                break
            page.keyboard.press("Tab")
        else:
            raise AssertionError("Tab never reached the control")
        page.keyboard.press("Enter")


def create(server, page, options=None):
    response = page.request.post(
        server.url + "/api/paletti/matches/",
        data={"players": ADA_AND_BOB, "seed": SEED, "options": options or {}},
    )
    assert response.status == 201, response.text()
    return response.json()


def current_state(server, page, match):
    return page.request.get(f"{server.url}/api/paletti/matches/{match['id']}/").json()


def every_legal_action_has_a_control(server, page, match):
    """Each type of action in legal_actions has its own control on the page, one per
    column for the actions that name a column. Returns the state."""
    expect(page.locator("#paletti-match[data-busy]")).to_have_count(0)
    expect(page.locator("#paletti-match[data-telling]")).to_have_count(0)
    state = current_state(server, page, match)
    types = [a["type"] for a in state["legal_actions"]]
    assert types, state["phase"]
    for kind in dict.fromkeys(types):
        controls = page.locator(f"#actions [data-action='{kind}']")
        if kind in ("touch", "remove_column"):
            expect(controls).to_have_count(types.count(kind))
        else:
            expect(controls.first).to_be_visible()
    return state


def open_match(server, page, match):
    page.goto(url(server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()


def test_a_whole_claim_walked_through_on_the_page(seeded_server, hand):
    """Every phase of a claim, each action taken on the page: colour, touch, pull, place,
    the claim, the protest, the touch given up, removing none, not laying the platform."""
    page = hand
    match = create(seeded_server, page)
    play_by_api(seeded_server, page, match, three_builds()[:8])
    open_match(seeded_server, page, match)
    # Bob builds white's thick round column into the back lane, all on the page.
    every_legal_action_has_a_control(seeded_server, page, match)
    take(page, page.get_by_role("button", name="Play white"))
    every_legal_action_has_a_control(seeded_server, page, match)
    take(page, page.locator("#actions [data-action='touch'][data-column='4']"))
    every_legal_action_has_a_control(seeded_server, page, match)
    take(page, page.get_by_role("button", name="Pull it out gently"))
    every_legal_action_has_a_control(seeded_server, page, match)
    take(page, page.get_by_role("button", name="Place it here"))
    expect(page.locator("#narration")).to_contain_text("stands on the blue platform")
    # Ada claims; Bob protests, touches one of her columns and gives up.
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")
    every_legal_action_has_a_control(seeded_server, page, match)
    take(page, page.get_by_role("button", name="Ask for the green platform"))
    take(page, page.get_by_role("button", name="Yes, ask for it"))
    every_legal_action_has_a_control(seeded_server, page, match)
    take(page, page.get_by_role("button", name="Protest"))
    expect(page.locator("#prompt")).to_contain_text("move a column belonging to Ada")
    every_legal_action_has_a_control(seeded_server, page, match)
    take(page, page.locator("#actions [data-action='touch'][data-column='5']"))
    take(page, page.get_by_role("button", name="Abort: put it back (locked)"))
    # The claimant may spare the protester's columns: "Remove none".
    expect(page.locator("#prompt")).to_contain_text("or remove none")
    state = every_legal_action_has_a_control(seeded_server, page, match)
    assert state["phase"] == "penalty"
    take(page, page.get_by_role("button", name="Remove none"))
    expect(page.locator("#narration")).to_contain_text(
        "Ada removes none of the protester's columns"
    )
    expect(page.locator("#counts")).to_contain_text("no column out of the game")
    # The platform can be laid: declining it is worded as a choice, not as impossible.
    state = every_legal_action_has_a_control(seeded_server, page, match)
    assert state["phase"] == "lay"
    expect(page.get_by_role("button", name="Lay it here")).to_be_visible()
    expect(page.get_by_text("the platform cannot be laid")).to_have_count(0)
    take(page, page.get_by_role("button", name="Do not lay the platform"))
    expect(page.locator("#narration")).to_contain_text("Ada decides not to lay the platform")
    expect(page.locator("#top-platform")).to_contain_text("blue")
    expect(page.locator("#turn-banner")).to_contain_text("Bob, your turn")


def test_the_polish_reward_can_be_taken_or_waived(seeded_server, hand):
    page = hand
    match = create(seeded_server, page, {"protest": "polish"})
    state = play_by_api(
        seeded_server, page, match, [*three_builds(), {"type": "ask_platform"}, {"type": "protest"}]
    )
    # Bob proves the claim wrong with purple's outer column, from under blue.
    play_by_api(
        seeded_server,
        page,
        {**match, "state": state},
        [
            {"type": "touch", "column": 14},
            {"type": "pull", "column": 14},
            {"type": "place", "column": 14, "x": -60, "lane": 1},
        ],
    )
    open_match(seeded_server, page, match)
    expect(page.locator("#turn-banner")).to_contain_text("Bob, your turn")
    expect(page.locator("#prompt")).to_contain_text("You may remove any column from the game")
    expect(page.get_by_role("button", name="Reload the match")).to_have_count(0)
    state = every_legal_action_has_a_control(seeded_server, page, match)
    assert state["phase"] == "reward"
    assert_no_serious_violation(page, "reward")
    settled(page)
    screenshot(page, f"paletti-reward-{page.hand}")
    if page.hand == "finger":
        take(page, page.get_by_role("button", name="Remove none"))
        expect(page.locator("#narration")).to_contain_text("Bob removes no column from the game")
        expect(page.locator("#counts")).to_contain_text("no column out of the game")
    else:
        remove = re.compile("Remove the black thick round column")
        take(page, page.get_by_role("button", name=remove))
        expect(page.locator("#tray")).to_contain_text("black thick round column")
    # The turn after Ada's claim is Bob's own again.
    expect(page.locator("#prompt")).to_contain_text("Choose the colour you play this turn")
    expect(page.locator("#turn-banner")).to_contain_text("Bob, your turn")


def lock_until_only_asking_is_left(server, page, match):
    """Both players touch and put back one column a turn (each locked, French rules) until
    the player to act can only ask for a platform or pass."""
    state = play_by_api(server, page, match, three_builds())
    for _ in range(40):
        kinds = {a["type"] for a in state["legal_actions"]}
        if kinds == {"ask_platform", "pass"}:
            return state
        actions = []
        if "choose_colour" in kinds:
            actions.append(next(a for a in state["legal_actions"] if a["type"] == "choose_colour"))
            state = play_by_api(server, page, {**match, "state": state}, actions)
        column = next(a for a in state["legal_actions"] if a["type"] == "touch")["column"]
        state = play_by_api(
            server,
            page,
            {**match, "state": state},
            [{"type": "touch", "column": column}, {"type": "abort", "column": column}],
        )
    raise AssertionError("the players never ran out of columns")


def test_a_player_whose_only_move_is_asking_may_pass(seeded_server, hand):
    page = hand
    match = create(seeded_server, page)
    state = lock_until_only_asking_is_left(seeded_server, page, match)
    name = state["seats"][state["turn"]]["name"]
    open_match(seeded_server, page, match)
    expect(page.locator("#prompt")).to_contain_text("None of your columns can go up")
    every_legal_action_has_a_control(seeded_server, page, match)
    settled(page)
    screenshot(page, f"paletti-pass-{page.hand}")
    take(page, page.get_by_role("button", name="Pass this turn"))
    expect(page.locator("#narration")).to_contain_text(
        f"{name} passes rather than ask for a new platform"
    )
    expect(page.locator("#top-platform")).to_contain_text("blue")


def test_the_setup_offers_the_polish_protest_and_abort(seeded_server, hand):
    page = hand
    page.goto(url(seeded_server, "paletti:setup") + f"?seed={SEED}")
    page.get_by_label("Played by").nth(1).select_option(label="a person")
    protest = page.get_by_role("group", name="A protest against a new platform")
    abort = page.get_by_role("group", name="A column touched and then put back")
    expect(protest.get_by_role("radio", name=re.compile("French rules"))).to_be_checked()
    expect(abort.get_by_role("radio", name=re.compile("French rules"))).to_be_checked()
    if page.hand == "keys":
        protest.get_by_role("radio", name=re.compile("French rules")).focus()
        page.keyboard.press("ArrowDown")
        abort.get_by_role("radio", name=re.compile("French rules")).focus()
        page.keyboard.press("ArrowDown")
    elif page.hand == "finger":
        protest.get_by_role("radio", name=re.compile("Polish text")).tap()
        abort.get_by_role("radio", name=re.compile("Polish text")).tap()
    else:
        protest.get_by_role("radio", name=re.compile("Polish text")).check()
        abort.get_by_role("radio", name=re.compile("Polish text")).check()
    expect(protest.get_by_role("radio", name=re.compile("Polish text"))).to_be_checked()
    expect(abort.get_by_role("radio", name=re.compile("Polish text"))).to_be_checked()
    assert_no_serious_violation(page, "setup options")
    take(page, page.get_by_role("button", name="Start the match"))
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    match_id = page.url.rstrip("/").split("/")[-1]
    options = current_state(seeded_server, page, {"id": match_id})["options"]
    assert options["protest"] == "polish" and options["abort"] == "polish", options
    # Under the Polish abort rule a column put back is not locked, and the page says so.
    take(page, page.get_by_role("button", name="Play pink"))
    take(page, page.locator("#actions [data-action='touch']").first)
    expect(page.get_by_role("button", name="Abort: put it back", exact=True)).to_be_visible()


def test_under_the_polish_colours_each_player_takes_a_colour_after_the_throw(seeded_server, hand):
    page = hand
    page.goto(url(seeded_server, "paletti:setup") + f"?seed={SEED}")
    page.get_by_label("Played by").nth(1).select_option(label="a person")
    colours = page.get_by_role("group", name="The players' colours")
    expect(colours.get_by_role("radio", name=re.compile("French rules"))).to_be_checked()
    polish = colours.get_by_role("radio", name=re.compile("Polish text"))
    if page.hand == "keys":
        colours.get_by_role("radio", name=re.compile("French rules")).focus()
        page.keyboard.press("ArrowDown")
    elif page.hand == "finger":
        polish.tap()
    else:
        polish.check()
    expect(polish).to_be_checked()
    take(page, page.get_by_role("button", name="Start the match"))
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    match = {"id": page.url.rstrip("/").split("/")[-1]}
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    state = current_state(seeded_server, page, match)
    assert state["options"]["colours"] == "polish" and state["phase"] == "colours"
    thrower = state["seats"][state["choosing"]["youngest"]]["name"]
    expect(page.locator("#prompt")).to_contain_text(f"The seal's die gave {thrower}")
    state = every_legal_action_has_a_control(seeded_server, page, match)
    expect(page.locator("#actions [data-action='take_colour']")).to_have_count(3)
    chooser = state["seats"][state["turn"]]["name"]
    colour = state["legal_actions"][0]["colour"]
    take(page, page.get_by_role("button", name=f"Take {colour}"))
    expect(page.locator("#narration")).to_contain_text(f"{chooser} takes {colour}")
    # Two players: the choosing goes round twice, the last colour is left to the last seat.
    state = every_legal_action_has_a_control(seeded_server, page, match)
    expect(page.locator("#actions [data-action='take_colour']")).to_have_count(2)
    take(page, page.locator("#actions [data-action='take_colour']").first)
    expect(page.locator("#narration")).to_contain_text("gets the last colour")
    expect(page.locator("#prompt")).to_contain_text("Choose the colour you play this turn")
    state = current_state(seeded_server, page, match)
    assert [len(seat["colours"]) for seat in state["seats"]] == [2, 2]
    assert_no_serious_violation(page, "polish colours")
