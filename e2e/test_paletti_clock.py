"""Villa Paletti's turn clock across devices: with the test-only clock (a 3 s bank, +1 s a
turn), Bo's phone and the organiser's screen (Ada) count down; Bo runs out and is told so,
with nothing to press about it; the organiser skips Bo's turn; Ada runs out and Bo's phone
skips hers; Bo runs out again and the organiser hands Bo's seat to a careful bot, which
plays at once. Every choice is told on every screen and written in the match's log.

Seed 42 with two seats: Ada (the organiser's device) and Bo (his phone), Bo first.
"""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from e2e.conftest import GUIDE_SEEN, PACE_ALL_AT_ONCE, SCREENSHOTS, assert_no_serious_violation
from paletti.models import ClockEvent, MatchAction, Seat

SHOTS = SCREENSHOTS / "clock"


def device(browser, width, *, phone=False):
    context = browser.new_context(
        viewport={"width": width, "height": 844 if phone else 900},
        has_touch=phone,
        is_mobile=phone,
        locale="en-GB",
    )
    context.add_init_script(PACE_ALL_AT_ONCE)
    context.add_init_script(GUIDE_SEEN)
    return context.new_page()


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    page.screenshot(path=SHOTS / f"{name}-{width}.png", full_page=False)


@pytest.fixture
def tiny_clock(settings):
    settings.PALETTI_TINY_CLOCK = True


@pytest.fixture
def screens(browser):
    pages = {"organiser": device(browser, 1280), "Bo": device(browser, 390, phone=True)}
    yield pages
    for page in pages.values():
        page.context.close()


def open_match(page, address):
    page.goto(address)
    page.wait_for_url(re.compile(r"/en/paletti/[0-9a-f-]{36}/$"))
    expect(page.locator("#paletti-match.ready")).to_be_attached()


def test_a_clock_runs_out_and_the_others_skip_then_hand_the_seat_to_a_bot(
    seeded_server, tiny_clock, screens
):
    organiser, bo = screens["organiser"], screens["Bo"]
    # The organiser's browser sets the match up (its session keeps the organiser's key).
    organiser.goto(f"{seeded_server.url}/en/paletti/")
    created = organiser.request.post(
        f"{seeded_server.url}/api/paletti/matches/",
        data={
            "players": [{"name": "Ada"}, {"name": "Bo", "device": "own"}],
            "seed": 42,
            "clock": "tiny",
        },
    )
    assert created.status == 201, created.text()
    body = created.json()
    match_id = body["id"]
    assert body["state"]["turn"] == 1
    bo_link = next(link["url"] for link in body["links"] if link["seat"] == 1)
    open_match(bo, bo_link)
    open_match(organiser, f"{seeded_server.url}/en/paletti/{match_id}/")

    # Both screens count down Bo's bank; a bot's seat would show no clock.
    for page in (organiser, bo):
        expect(page.locator("#clock .clock-bank")).to_have_count(2)
        running = page.locator("#clock .clock-bank.running")
        expect(running).to_contain_text("Bo")
        expect(running.locator(".clock-time")).to_have_text(re.compile(r"^0:0[0-3]$"))
    shot(bo, "countdown-phone")
    shot(organiser, "countdown")
    assert_no_serious_violation(bo, "the clock on a phone")

    # Bo runs out: every screen says so; Bo's own phone is offered nothing about it.
    for page in (organiser, bo):
        expect(page.locator("#clock .clock-out")).to_have_text("Bo is out of time.", timeout=8000)
    expect(bo.locator("#clock .clock-choices")).to_have_count(0)
    expect(bo.locator("#clock")).to_contain_text("You may still play")
    skip_bo = organiser.get_by_role("button", name="Skip Bo's turn")
    expect(skip_bo).to_be_visible()
    expect(organiser.get_by_role("button", name="Hand Bo's seat to a bot")).to_be_visible()
    shot(bo, "out-of-time-phone")
    shot(organiser, "out-of-time")
    skip_bo.click()
    expect(organiser.locator("#log")).to_contain_text("Bo is out of time: the turn is skipped.")
    expect(organiser.locator("#clock .clock-bank.running")).to_contain_text("Ada")

    # Ada runs out in turn: Bo's phone skips her turn.
    skip_ada = bo.get_by_role("button", name="Skip Ada's turn")
    expect(skip_ada).to_be_visible(timeout=10000)
    expect(organiser.get_by_role("button", name="Skip Ada's turn")).to_be_visible(timeout=8000)
    skip_ada.click()
    expect(bo.locator("#log")).to_contain_text("Ada is out of time: the turn is skipped.")

    # Bo's bank holds only the increment now: out again, his seat goes to a careful bot.
    hand_over = organiser.get_by_role("button", name="Hand Bo's seat to a bot")
    expect(hand_over).to_be_visible(timeout=10000)
    links = organiser.locator("#links .link-card")
    bo_card = links.filter(has=organiser.get_by_role("heading", name="Bo", exact=True))
    expect(bo_card).to_be_visible()
    expect(organiser.locator("#links summary")).to_have_text(
        "Links for the players on their own devices", use_inner_text=True
    )
    hand_over.click()
    expect(organiser.locator("#clock .clock-news")).to_have_text(
        "Bo ran out of time: a careful bot plays that seat from now on.", timeout=15000
    )
    expect(organiser.locator("#clock .clock-bank").nth(1)).to_contain_text("bot: no clock")
    expect(organiser.locator("#clock .clock-bank.running")).to_contain_text("Ada")
    # The organiser's links no longer offer Bo's: a bot needs none (no reload needed).
    expect(bo_card).to_be_hidden()
    expect(links.filter(has=organiser.get_by_role("heading", name="Spectators"))).to_be_visible()
    expect(organiser.locator("#links summary")).to_have_text(
        "Let others watch on their own screen", use_inner_text=True
    )
    shot(organiser, "handed-to-bot")

    # The log keeps each choice in order, and the bot has played Bo's seat.
    assert Seat.objects.get(match_id=match_id, index=1).kind == "bot"
    kinds = list(
        ClockEvent.objects.filter(match_id=match_id)
        .order_by("version", "pk")
        .values_list("kind", "seat")
    )
    assert kinds == [
        ("out_of_time", 1),
        ("skipped", 1),
        ("out_of_time", 0),
        ("skipped", 0),
        ("out_of_time", 1),
        ("handed_to_bot", 1),
    ]
    actions = list(
        MatchAction.objects.filter(match_id=match_id).values_list("seat", "by_bot", "action__type")
    )
    assert actions[:2] == [(1, False, "skip"), (0, False, "skip")]
    assert actions[2][:2] == (1, True)
    # Bo's phone, following the match, is told its link no longer plays.
    expect(bo.locator("#error")).not_to_be_empty(timeout=8000)
    assert "#" not in urlsplit(bo.url).path


@pytest.mark.parametrize("width", [390, 1280])
def test_the_set_up_form_offers_a_clock_on_when_someone_plays_on_their_own_device(
    seeded_server, browser, width
):
    page = device(browser, width, phone=width < 500)
    page.goto(f"{seeded_server.url}/en/paletti/?seed=42")
    clock = page.locator("#clock-choice")
    expect(clock.get_by_label("no clock")).to_be_checked()
    page.get_by_label("Played by").nth(1).select_option(
        label="a person on their own phone or tablet"
    )
    relaxed = clock.get_by_label("relaxed: 5 minutes, plus 30 seconds a turn (at most 5 minutes)")
    expect(relaxed).to_be_checked()
    quick = clock.get_by_label("quick: 2 minutes, plus 15 seconds a turn (at most 3 minutes)")
    quick.check()
    clock.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    clock.screenshot(path=SHOTS / f"setup-clock-{width}.png")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/en/paletti/[0-9a-f-]{36}/$"))
    expect(page.locator("#clock .clock-bank")).to_have_count(2)
    expect(page.locator("#clock .clock-bank.running .clock-time")).to_have_text(
        re.compile(r"^[12]:\d\d$")
    )
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    state = page.request.get(f"{seeded_server.url}/api/paletti/matches/{match_id}/").json()
    assert state["clock"]["preset"] == "quick"
    # The same clock, in French, on the organiser's screen.
    page.goto(f"{seeded_server.url}/fr/paletti/{match_id}/")
    expect(page.locator("#clock .clock-heading")).to_have_text("Temps restant")
    shot(page, "countdown-fr")
    page.context.close()
