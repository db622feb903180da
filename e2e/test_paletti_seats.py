"""Villa Paletti across devices: the organiser sets up a match with two persons on their
own phones and a bot, hands out the links, and three devices and a spectator's screen
play the first turns, each seeing the others' moves as they are made (through the match's
event stream: here a WSGI server's, which answers at once and is asked again every 2 s); a
device cannot act for another's seat; a link's secret reaches no server address,
no Referer and no history entry.

Seed 42 with four seats: Ada (the organiser's device), Bo and Cy (their phones), Robot (a
bot, easy).
"""

import re

import pytest
from playwright.sync_api import expect

from e2e.conftest import GUIDE_SEEN, PACE_ALL_AT_ONCE, SCREENSHOTS, assert_no_serious_violation
from e2e.conftest import english_url as url

SEED = 42
SHOTS = SCREENSHOTS / "seats"
NAMES = ["Ada", "Bo", "Cy", "Robot"]


def device(browser, width, *, phone=False):
    context = browser.new_context(
        viewport={"width": width, "height": 844 if phone else 900},
        has_touch=phone,
        is_mobile=phone,
        locale="en-GB",
    )
    context.add_init_script(PACE_ALL_AT_ONCE)
    context.add_init_script(GUIDE_SEEN)
    page = context.new_page()
    page.seen = []  # every address the browser asked for, with its Referer
    page.on("request", lambda r: page.seen.append((r.url, r.headers.get("referer", ""))))
    return page


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    page.screenshot(path=SHOTS / f"{name}-{width}.png", full_page=True)


@pytest.fixture
def devices(browser):
    pages = {
        "organiser": device(browser, 1280),
        "Bo": device(browser, 390, phone=True),
        "Cy": device(browser, 390, phone=True),
        "spectator": device(browser, 1280),
    }
    yield pages
    for page in pages.values():
        page.context.close()


def set_up(server, page):
    page.goto(url(server, "paletti:setup") + f"?seed={SEED}")
    page.get_by_label("Number of players").select_option("4")
    own = "a person on their own phone or tablet"
    kinds = ["a person", own, own, "a bot (easy)"]
    for seat, (name, kind) in enumerate(zip(NAMES, kinds, strict=True)):
        page.get_by_label("Name").nth(seat).fill(name)
        page.get_by_label("Played by").nth(seat).select_option(label=kind)
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/en/paletti/[0-9a-f-]{36}/$"))
    expect(page.locator("#paletti-match.ready")).to_be_attached()


def open_link(page, link):
    page.goto(link)
    page.wait_for_url(re.compile(r"/en/paletti/[0-9a-f-]{36}/$"))
    expect(page.locator("#paletti-match.ready")).to_be_attached()


def state_of(server, page, match_id):
    return page.request.get(f"{server.url}/api/paletti/matches/{match_id}/").json()


def play_a_turn(page):
    """A whole build from the page's own controls: a colour if asked, the first column
    offered, pulled gently, placed where the page suggests."""
    choose = page.get_by_role("button", name=re.compile(r"^Play (black|white|purple|pink)$"))
    if choose.count():
        choose.first.click()
    page.get_by_role("button", name=re.compile(r"^Touch the ")).first.click()
    page.get_by_role("button", name="Pull it out gently").click()
    page.get_by_role("button", name="Place it here").click()


def test_three_devices_and_a_spectator_play_the_first_turns(seeded_server, devices):
    organiser, bo, cy, spectator = (devices[k] for k in ("organiser", "Bo", "Cy", "spectator"))
    set_up(seeded_server, organiser)
    match_id = organiser.url.rstrip("/").rsplit("/", 1)[1]
    panel = organiser.locator("#links")
    expect(panel).to_have_attribute("open", "")
    expect(panel.locator(".link-card")).to_have_count(3)  # Bo, Cy, the spectators
    expect(panel.locator("img.qr")).to_have_count(3)
    links = {
        card.locator("h3").inner_text(): card.locator("input.link-url").input_value()
        for card in panel.locator(".link-card").all()
    }
    assert set(links) == {"Bo", "Cy", "Spectators"}
    expect(organiser.locator("#viewer-role")).to_have_text(
        "This device plays for Ada; the others play on their own devices."
    )
    assert_no_serious_violation(organiser, "organiser's links")
    shot(organiser, "organiser-links")
    organiser.set_viewport_size({"width": 390, "height": 844})
    shot(organiser, "organiser-links")
    organiser.set_viewport_size({"width": 1280, "height": 900})

    for page, name in ((bo, "Bo"), (cy, "Cy"), (spectator, "Spectators")):
        open_link(page, links[name])
    expect(bo.locator("#viewer-role")).to_have_text("This device plays for Bo.")
    assert_no_serious_violation(bo, "a seat's phone")
    expect(cy.locator("#viewer-role")).to_have_text("This device plays for Cy.")
    expect(spectator.locator("#viewer-role")).to_contain_text("You are watching this match")
    for page in (bo, cy, spectator):
        expect(page.locator("#links")).to_have_count(0)  # only the organiser sees links

    seat_pages = {0: organiser, 1: bo, 2: cy}
    everyone = [organiser, bo, cy, spectator]
    played = []
    for _ in range(4):
        state = state_of(seeded_server, spectator, match_id)
        turn = state["turn"]
        actor = seat_pages[turn]
        name = NAMES[turn]
        for page in everyone:
            if page is actor:
                expect(page.locator("#turn-banner")).to_contain_text(f"{name}, your turn")
            else:
                # Another seat's device waits, with nothing to press.
                expect(page.locator("#turn-banner")).to_contain_text(f"{name} is playing.")
                expect(page.get_by_role("button", name=re.compile(r"^Touch the "))).to_have_count(0)
        if len(played) == 1:
            wrong = cy if actor is not cy else bo
            refused = post_from_page(wrong, match_id, state["version"])
            assert refused["status"] == 403, refused
            assert refused["body"]["code"] == "not_your_seat"
            assert state_of(seeded_server, spectator, match_id)["version"] == state["version"]
        if actor is bo and "Bo" not in played:
            shot(bo, "phone-seat-turn")
        play_a_turn(actor)
        played.append(name)
        # Every other screen learns of the move, and shows whose turn is next.
        new = wait_for_the_next_turn(seeded_server, spectator, match_id, turn)
        following = NAMES[new["turn"]]
        for page in everyone:
            expect(page.locator("#turn-banner")).to_contain_text(following, timeout=8000)
    assert set(played) >= {"Ada", "Bo", "Cy"}, played
    # The bot played in the answer to the seat before it: the other devices saw it too.
    expect(spectator.locator("#log")).to_contain_text("Robot")
    for page in (bo, cy, spectator):
        asked = [u for u, _ in page.seen if re.search(r"/(stream|updates)/\?since=", u)]
        assert asked, "this device never asked for the others' moves"
    shot(bo, "phone-seat")
    bo.set_viewport_size({"width": 1280, "height": 900})
    shot(bo, "phone-seat")

    # No secret ever left a browser in an address or a Referer, and none is in a history.
    secrets = [link.split("#", 1)[1] for link in links.values()]
    for page in everyone:
        for address, referer in page.seen:
            assert not any(s in address or s in referer for s in secrets), address
        assert not any(s in page.url for s in secrets)
    bo.go_back()
    assert not any(s in bo.url for s in secrets)


def test_a_replaced_link_stops_working_on_the_phone_that_had_it(seeded_server, devices):
    organiser, bo = devices["organiser"], devices["Bo"]
    set_up(seeded_server, organiser)
    card = organiser.locator(".link-card").filter(has=organiser.get_by_role("heading", name="Bo"))
    old = card.locator("input.link-url").input_value()
    open_link(bo, old)
    expect(bo.locator("#viewer-role")).to_have_text("This device plays for Bo.")
    card.get_by_role("button", name="Replace this link").click()
    organiser.wait_for_url(re.compile(r"/en/paletti/[0-9a-f-]{36}/#links$"))
    new = card.locator("input.link-url").input_value()
    assert new != old and new.split("#")[0] == old.split("#")[0]
    # Bo's phone, following the match, is told at its next question; the old link fails.
    expect(bo.locator("#error")).to_contain_text("replaced", timeout=8000)
    bo.goto(old)
    expect(bo.locator("#join-error")).to_contain_text("ask its organiser for a new link")
    assert "#" not in bo.url  # taken off the address even when refused
    bo.reload()
    expect(bo.locator("#join-error")).to_contain_text("This link is incomplete")
    open_link(bo, new)
    expect(bo.locator("#viewer-role")).to_have_text("This device plays for Bo.")


def wait_for_the_next_turn(server, page, match_id, turn, tries=60):
    """The state once `turn` has built (touch, pull and place stored), as a program sees it."""
    for _ in range(tries):
        state = state_of(server, page, match_id)
        if state["turn"] != turn:
            return state
        page.wait_for_timeout(250)
    raise AssertionError("the turn never passed")


def post_from_page(page, match_id, version):
    """What a tampered page would send: an action for the seat to act, from a device that
    does not play it, with its own session and CSRF token."""
    return page.evaluate(
        """async ([url, version]) => {
            const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
            const response = await fetch(url, {
                method: "POST",
                headers: {"Content-Type": "application/json", "X-CSRFToken": token},
                body: JSON.stringify({version, action: {type: "ask_platform"}}),
            });
            return {status: response.status, body: await response.json()};
        }""",
        [f"/api/paletti/matches/{match_id}/actions/", version],
    )
