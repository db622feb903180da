"""A child and a parent around one screen: bots' turns told at a pace, the claim's risk said
before it is made, the villa in sight on a phone, the load at a glance, a first-game guide.

These tests use their own browser contexts: the bots' pace is left at its default (one
action at a time), and the phone is a touch screen (390 px wide).
"""

import re
import time

import pytest
from playwright.sync_api import expect

from e2e.conftest import assert_no_serious_violation, screenshot
from e2e.conftest import english_url as url
from e2e.test_paletti import (
    ADA_AND_BOB,
    SEED,
    create_by_api,
    place_spots,
    play_by_api,
    three_builds,
)

GUIDE_SEEN = "localStorage.setItem('paletti-guide-seen', 'yes');"
ADA_AND_BOT = [{"name": "Ada", "kind": "human"}, {"name": "Bob", "kind": "bot", "level": "easy"}]


@pytest.fixture(params=["phone", "desktop"])
def device(request, browser):
    """A touch phone 390 px wide, or a desktop with a mouse; the guide already read."""
    if request.param == "phone":
        options = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    else:
        options = {"viewport": {"width": 1280, "height": 900}}
    context = browser.new_context(**options)
    context.add_init_script(GUIDE_SEEN)
    page = context.new_page()
    page.width = options["viewport"]["width"]
    page.touch = request.param == "phone"
    yield page
    context.close()


def press(page, locator):
    """A tap on a touch screen, a click with a mouse."""
    if page.touch:
        locator.tap()
    else:
        locator.click()


def start_against_the_bot(server, page):
    """Seed 42: Bob (a bot) plays first, so the page opens on the story of his turn."""
    page.goto(url(server, "paletti:setup") + f"?seed={SEED}")
    page.get_by_label("Name").nth(0).fill("Ada")
    page.get_by_label("Name").nth(1).fill("Bob")
    page.get_by_label("Played by").nth(1).select_option(label="a bot (easy)")
    press(page, page.get_by_role("button", name="Start the match"))
    page.wait_for_url(re.compile(r"/paletti/[0-9a-f-]{36}/$"))
    expect(page.locator("#paletti-match.ready")).to_be_attached()


def lines(page):
    return page.locator("#narration .line")


def visible_share(page, selector):
    """How much of an element's height is inside the viewport (0 to 1)."""
    return page.evaluate(
        """(selector) => {
            const r = document.querySelector(selector).getBoundingClientRect();
            const seen = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
            return Math.max(0, seen) / r.height;
        }""",
        selector,
    )


def test_a_bots_turn_is_told_one_named_action_at_a_time(seeded_server, device):
    page = device
    start_against_the_bot(seeded_server, page)
    # One line first, naming the bot; the next only after a pause a child can read in.
    expect(lines(page).first).to_have_text(re.compile(r"^Bob plays (pink|white) this turn\.$"))
    expect(lines(page)).to_have_count(1)
    expect(page.locator("#turn-banner")).to_contain_text("Bob (bot) is playing.")
    expect(page.get_by_role("button", name="Skip ahead")).to_be_visible()
    # Ada cannot act before the bot's turn is told (or skipped), and is not shown "to play".
    expect(page.get_by_role("button", name="Play black")).to_have_count(0)
    expect(page.locator("#scoreboard .badge.turn")).to_be_hidden()
    shown = time.monotonic()
    expect(lines(page)).to_have_count(2, timeout=6000)
    assert time.monotonic() - shown > 1.0
    touch = re.compile(r"^Bob touches the \w+ [\w ]+ column: it bears \d+ g\.$")
    expect(lines(page).nth(1)).to_have_text(touch)
    screenshot(page, "paletti-bot-telling")
    # Skipping shows the rest at once and hands over to Ada.
    press(page, page.get_by_role("button", name="Skip ahead"))
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")
    expect(page.get_by_role("button", name="Play black")).to_be_visible()
    told = lines(page).all_text_contents()
    stands = re.compile(r"Bob stands the \w+ [\w ]+ column on the blue platform\.")
    assert any(stands.match(t) for t in told), told
    actions = [t for t in told if re.search(r"touches|pulls out|stands|puts .* back", t)]
    assert actions and all(t.startswith("Bob ") for t in actions), told
    expect(page.locator("#log li")).to_have_count(len(told))


def test_without_skipping_the_bot_finishes_its_turn_alone(seeded_server, device):
    page = device
    start_against_the_bot(seeded_server, page)
    expect(page.locator("#paletti-match[data-telling]")).to_have_count(0, timeout=20000)
    expect(page.locator("#turn-banner")).to_contain_text("Ada, your turn")
    assert lines(page).count() >= 4


def test_a_bot_declining_a_claim_is_told(seeded_server, device):
    page = device
    match = create_by_api(seeded_server, page, ADA_AND_BOT)
    state = build_until_ada_may_ask(seeded_server, page, match)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    press(page, page.get_by_role("button", name=re.compile("Ask for the green platform")))
    press(page, page.get_by_role("button", name="Yes, ask for it"))
    expect(lines(page).first).to_contain_text("Ada asks to lay a new platform")
    expect(lines(page).nth(1)).to_have_text(re.compile(r"^Bob (does not protest\.|protests)"))
    assert state["turn"] == 0


def build_until_ada_may_ask(server, page, match):
    """Ada builds (first colour, first column, the most central spot) until she may ask
    for a platform; the easy bot answers each turn."""
    state = match["state"]
    for _ in range(60):
        kinds = {a["type"] for a in state["legal_actions"]}
        if "ask_platform" in kinds and "touch" in kinds:
            return state
        for kind in ("choose_colour", "touch", "pull"):
            if kind in kinds:
                action = next(a for a in state["legal_actions"] if a["type"] == kind)
                break
        else:
            action = min(place_spots(state), key=lambda spot: (spot[1], abs(spot[0]["x"])))[0]
        state = play_by_api(server, page, {**match, "state": state}, [action])
        assert state["status"] == "playing"
    raise AssertionError("Ada never could ask for a platform")


def test_the_first_claim_says_what_it_risks_then_a_lighter_warning(seeded_server, device):
    page = device
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    play_by_api(seeded_server, page, match, three_builds())
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    expect(page.locator("#claim-risk")).to_have_text(
        "Risky: if another player proves that one of your columns can still go up, "
        "you lose that column."
    )
    posted = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    press(page, page.get_by_role("button", name="Ask for the green platform"))
    warning = page.locator(".claim-warning")
    expect(warning).to_be_visible()
    expect(page.get_by_role("heading", name="Ask for the green platform?")).to_be_focused()
    expect(warning).to_contain_text("that column leaves the game and no platform is laid")
    expect(warning).to_contain_text(
        re.compile(r"You still have \d+ columns that are not locked and not on the top platform")
    )
    assert_no_serious_violation(page, "claim warning")
    screenshot(page, "paletti-claim-warning")
    press(page, page.get_by_role("button", name="No, keep building"))
    # Nothing was sent: the claim waited for a yes.
    assert posted == []
    expect(page.get_by_role("button", name="Play black")).to_be_visible()
    # The second time, the short risk line beside the button is the warning.
    with page.expect_request(lambda r: "/actions/" in r.url and r.method == "POST"):
        press(page, page.get_by_role("button", name="Ask for the green platform"))
    expect(page.locator("#prompt")).to_contain_text("Ada asks for a new platform")


def test_on_a_phone_the_villa_stays_in_view_while_it_moves(seeded_server, device):
    page = device
    if not page.touch:
        pytest.skip("the desktop keeps the drawing sticky beside the panel")
    start_against_the_bot(seeded_server, page)
    press(page, page.get_by_role("button", name="Skip ahead"))
    press(page, page.get_by_role("button", name="Play black"))
    press(page, page.get_by_role("button", name=re.compile("Touch the black thick round column")))
    # Touch instructions, not keys, on a touch screen.
    expect(page.locator("#prompt")).to_contain_text("with your finger")
    expect(page.locator("#prompt")).not_to_contain_text("Escape")
    press(page, page.get_by_role("button", name="Pull it out gently"))
    expect(page.locator("#placer-help")).to_contain_text("Tap the drawing")
    expect(page.locator("#placer-help")).not_to_contain_text(re.compile("arrow|Enter"))
    # Read down the page, then place: the drawing comes back into view as it moves.
    place = page.get_by_role("button", name="Place it here")
    place.evaluate("b => b.scrollIntoView({block: 'start'})")
    assert visible_share(page, "#villa") < 0.5
    press(page, place)
    expect(page.locator("#paletti-match[data-telling]")).to_have_count(1)
    page.wait_for_function(
        """() => { const r = document.querySelector('#villa').getBoundingClientRect();
                   return r.top >= -1 && r.bottom <= window.innerHeight + 1; }""",
        timeout=3000,
    )
    assert page.locator("#paletti-match[data-telling]").count() == 1
    screenshot(page, "paletti-phone-in-view")


def test_the_desktop_shows_keyboard_help(seeded_server, device):
    page = device
    if page.touch:
        pytest.skip("the phone has its own test")
    start_against_the_bot(seeded_server, page)
    press(page, page.get_by_role("button", name="Skip ahead"))
    press(page, page.get_by_role("button", name="Play black"))
    press(page, page.get_by_role("button", name=re.compile("Touch the black thick round column")))
    expect(page.locator("#prompt")).to_contain_text("abort (Escape)")
    press(page, page.get_by_role("button", name="Pull it out gently"))
    expect(page.locator("#placer-help")).to_contain_text("Left and right arrows")


def test_the_load_is_shown_at_a_glance_with_its_grams(seeded_server, device):
    page = device
    start_against_the_bot(seeded_server, page)
    press(page, page.get_by_role("button", name="Skip ahead"))
    press(page, page.get_by_role("button", name="Play black"))
    press(page, page.get_by_role("button", name=re.compile("Touch the black thick round column")))
    gauge = page.locator(".load-gauge")
    expect(gauge).to_be_visible()
    grams = int(re.search(r"bears (\d+) g", page.locator("#prompt").inner_text()).group(1))
    expect(gauge.locator(".load-grams")).to_have_text(f"{grams} g")
    expect(gauge.locator("meter")).to_have_attribute("aria-valuetext", f"{grams} g")
    word = {0: "Nothing rests on it", 1: "Light load", 2: "Heavy load", 3: "Very heavy load"}
    band = 0 if grams < 1 else 1 if grams < 40 else 2 if grams < 100 else 3
    expect(gauge.locator(".load-word")).to_contain_text(word[band])
    assert_no_serious_violation(page, "load gauge")
    screenshot(page, "paletti-load-gauge")


def test_a_first_game_guide_that_can_be_skipped(seeded_server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.width = 390
    match = create_by_api(seeded_server, page, ADA_AND_BOB)
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    guide = page.locator("#guide")
    expect(guide).to_have_attribute("open", "")
    for step in ("Touch.", "Pull.", "Place.", "The seal."):
        expect(guide.locator("li").filter(has_text=step)).to_be_visible()
    assert_no_serious_violation(page, "guide")
    screenshot(page, "paletti-guide")
    page.get_by_role("button", name="Got it, let's play").tap()
    expect(guide).not_to_have_attribute("open", "")
    page.reload()
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    expect(guide).not_to_have_attribute("open", "")
    expect(page.get_by_text("First game? How to play in four steps")).to_be_visible()
    context.close()


def test_the_setup_explains_shaky_hands(seeded_server, device):
    page = device
    page.goto(url(seeded_server, "paletti:setup"))
    group = page.get_by_role("group", name="Shaky hands (harder)")
    expect(group).to_be_visible()
    expect(group).to_contain_text("about 1.5 mm")
    expect(group.get_by_label("a little")).to_have_value("1.5")


def test_under_the_polish_protest_rule_the_warning_says_what_that_rule_costs(seeded_server, device):
    page = device
    response = page.request.post(
        seeded_server.url + "/api/paletti/matches/",
        data={"players": ADA_AND_BOB, "seed": SEED, "options": {"protest": "polish"}},
    )
    match = response.json()
    play_by_api(seeded_server, page, match, three_builds())
    page.goto(url(seeded_server, "paletti:match", match_id=match["id"]))
    expect(page.locator("#paletti-match.ready")).to_be_attached()
    expect(page.locator("#claim-risk")).to_contain_text("no platform is laid")
    press(page, page.get_by_role("button", name="Ask for the green platform"))
    warning = page.locator(".claim-warning")
    expect(warning).to_contain_text("they may take any column out of the game")
    expect(warning.locator(".claim-count")).to_have_count(0)
