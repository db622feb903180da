"""Villa Paletti's lobby and replays in the browser: the big screen shows a listed match
being played and one finished (an unlisted one not at all); the finished one's replay,
stepped back and forth with the buttons and the arrow keys, shows at each step the state
recorded when that action was played, at an address of its own.

The finished match is played to its end by easy bots' choices for both seats (Ada and
Robot, seed 5), as fast as the engine goes; the one being played is only set up.
"""

import random
import re

import pytest
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from e2e.conftest import GUIDE_SEEN, SCREENSHOTS, assert_no_serious_violation
from e2e.conftest import english_url as url
from paletti import engine, services
from paletti.models import MatchStatus

SHOTS = SCREENSHOTS / "lobby"
ADA_AND_ROBOT = [
    services.SeatSpec("Ada"),
    services.SeatSpec("Robot", kind="bot", level="easy"),
]


def finished(seed, *, listed=True):
    outcome = services.create_match(seats=ADA_AND_ROBOT, seed=seed, listed=listed)
    match = outcome.match
    rng = random.Random(seed)
    while match.status == MatchStatus.PLAYING:
        action = engine.choose_action(services.load_state(match), "easy", rng)
        services.play(match=match, version=match.version, action=action)
    return services.get_match(match.pk)


@pytest.fixture
def matches(live_server, transactional_db):
    playing = services.create_match(
        seats=[services.SeatSpec("Zoé"), services.SeatSpec("Bo"), services.SeatSpec("Cy")],
        seed=8,
        listed=True,
    ).match
    hidden = services.create_match(seats=ADA_AND_ROBOT, seed=9).match
    return {"playing": playing, "finished": finished(5), "hidden": hidden}


def screen(browser, width, height=900, **extra):
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="en-GB", **extra
    )
    context.add_init_script(GUIDE_SEEN)
    return context.new_page()


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}-{page.viewport_size['width']}.png", full_page=True)


@pytest.mark.parametrize("width", [390, 1280, 1920])
def test_the_lobby_shows_listed_matches_and_keeps_itself_current(
    browser, live_server, matches, width
):
    page = screen(browser, width, 1080 if width == 1920 else 900)
    page.goto(url(live_server, "paletti:lobby"))
    playing = page.locator("#lobby-playing .lobby-card")
    done = page.locator("#lobby-finished .lobby-card")
    expect(playing).to_have_count(1)
    expect(done).to_have_count(1)
    expect(page.locator(f"[data-match='{matches['hidden'].pk}']")).to_have_count(0)
    expect(playing.first).to_contain_text("Zoé")
    expect(playing.first.get_by_role("link", name="Watch")).to_be_visible()
    expect(done.first).to_contain_text("Ada")
    expect(done.first).to_contain_text("Robot")
    expect(done.first.get_by_role("link", name="Replay")).to_be_visible()
    # No sideways scrolling on a phone; words big enough to read across a room on a screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width >= 1280:
        size = page.locator(".lobby-headline").first.evaluate(
            "n => parseFloat(getComputedStyle(n).fontSize)"
        )
        assert size >= 20
    shot(page, "lobby")
    if width == 1280:
        assert_no_serious_violation(page, "lobby")
        # A match listed while the screen is on appears by itself (the page polls).
        pair = [services.SeatSpec("Ida"), services.SeatSpec("Jo")]
        services.create_match(seats=pair, listed=True)
        expect(playing).to_have_count(2, timeout=15_000)
        # The same screen in French.
        with translation.override("fr"):
            page.goto(live_server.url + reverse("paletti:lobby"))
        expect(page.locator("#playing-heading")).to_have_text("Parties en cours")
        expect(page.locator("#lobby-finished .lobby-card").first).to_contain_text("Ada a gagné")
        expect(page.locator("#lobby-finished").get_by_role("link", name="Revoir")).to_be_visible()
        page.screenshot(path=SHOTS / "lobby-fr-1280.png", full_page=True)
    page.context.close()


def test_a_listed_match_is_watched_from_the_lobby_and_can_do_nothing(browser, live_server, matches):
    page = screen(browser, 1280)
    page.goto(url(live_server, "paletti:lobby"))
    page.locator("#lobby-playing").get_by_role("link", name="Watch").click()
    expect(page.locator("#viewer-role")).to_contain_text("You are watching this match")
    expect(page.locator("#actions button")).to_have_count(0)
    page.context.close()


def recorded_hashes(match):
    """The hash recorded with each action when it was played, by number (0: none)."""
    hashes = {row.number: row.told["hash"] for row in match.actions.all()}
    assert hashes[match.version] == match.state_hash
    return hashes


def canvas_picture(page):
    return page.locator("#villa").evaluate("c => c.toDataURL()")


def shows(page, at, hashes, last):
    """The page shows action `at`, the state recorded after it, at its own address."""
    root = page.locator("#paletti-replay")
    expect(root).to_have_attribute("data-at", str(at))
    expect(page).to_have_url(page.url.split("?")[0] + f"?at={at}")
    expect(root).not_to_have_attribute("data-animating", "")
    if at:
        expect(root).to_have_attribute("data-hash", hashes[at])
        expect(page.locator("#replay-check")).to_have_text(
            "This is the state recorded when the action was played."
        )
        expect(page.locator("#replay-position")).to_have_text(f"Action {at} of {last}")
    else:
        expect(page.locator("#narration")).to_have_text("Nothing has been played yet.")
    return root.get_attribute("data-hash"), canvas_picture(page)


def test_a_replay_stepped_back_and_forth_shows_the_recorded_states(browser, live_server, matches):
    match = matches["finished"]
    hashes = recorded_hashes(match)
    last = match.version
    # Reduced motion: each step is drawn at once, so that the test reads the end state.
    page = screen(browser, 1280, reduced_motion="reduce")
    page.goto(url(live_server, "paletti:lobby"))
    page.locator("#lobby-finished").get_by_role("link", name="Replay").click()
    page.wait_for_url("**/replay/**")
    page.goto(page.url.split("?")[0] + "?at=0")
    seen = [shows(page, 0, hashes, last)]
    # Forward with the button and the key, back with the key and the button.
    page.get_by_role("button", name="Next action").click()
    seen.append(shows(page, 1, hashes, last))
    for at in (2, 3, 4):
        page.keyboard.press("ArrowRight")
        seen.append(shows(page, at, hashes, last))
    # Each action changed the state, and what is drawn with it.
    assert len({state for state, _ in seen}) == len(seen)
    assert len({picture for _, picture in seen}) > 1
    page.keyboard.press("ArrowLeft")
    back = shows(page, 3, hashes, last)
    assert back == seen[3]
    page.get_by_role("button", name="Previous action").click()
    assert shows(page, 2, hashes, last) == seen[2]
    page.go_back()
    assert shows(page, 3, hashes, last) == seen[3]
    # The last action: the match over, its result told; Next can go no further.
    page.get_by_role("button", name="End").click()
    shows(page, last, hashes, last)
    # Its story ends the match: nobody is to play any more.
    expect(page.locator("#narration")).not_to_be_empty()
    expect(page.locator("#scoreboard .badge.turn")).to_have_count(0)
    expect(page.get_by_role("button", name="Next action")).to_be_disabled()
    shot(page, "replay-end")
    # An action's own address opens the replay at it.
    middle = last // 2
    page.goto(page.url.split("?")[0] + f"?at={middle}")
    shows(page, middle, hashes, last)
    shot(page, "replay-middle")
    assert_no_serious_violation(page, "replay")
    page.context.close()


def test_a_replay_on_a_phone_animates_the_action_stepped_to(browser, live_server, matches):
    match = matches["finished"]
    hashes = recorded_hashes(match)
    page = screen(browser, 390, 844, has_touch=True, is_mobile=True)
    page.goto(url(live_server, "paletti:replay", match_id=match.pk) + "?at=2")
    shows(page, 2, hashes, match.version)
    page.get_by_role("button", name="Next action").tap()
    expect(page.locator("#paletti-replay")).to_have_attribute("data-at", "3")
    shows(page, 3, hashes, match.version)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "replay")
    page.context.close()


@pytest.mark.parametrize("listed", [True, False], ids=["ticked", "unticked"])
def test_the_organiser_chooses_at_set_up_whether_the_lobby_shows_the_match(
    browser, live_server, transactional_db, listed
):
    page = screen(browser, 1280)
    page.goto(url(live_server, "paletti:setup"))
    page.get_by_label("Name").nth(0).fill("Lou")
    box = page.get_by_label("Show this match in the lobby")
    expect(box).not_to_be_checked()
    if listed:
        box.check()
        box.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / "setup-listed-1280.png")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/en/paletti/[0-9a-f-]{36}/$"))
    page.goto(url(live_server, "paletti:lobby"))
    expect(page.locator("#lobby-playing .lobby-card")).to_have_count(1 if listed else 0)
    if listed:
        expect(page.locator("#lobby-playing")).to_contain_text("Lou")
    page.context.close()
