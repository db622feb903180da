"""Villa Paletti followed live: the site served by the ASGI server (uvicorn, as `make run`
serves it), a person on the organiser's screen and another on her phone; each device
follows the match through its event stream, sees the other's move within about a second,
told once, and never falls back to asking updates/ (a spectator refused the stream does,
and sees the moves too); with Redis, each person's seat shows
whether their device is connected, away about 10 s after its tab is closed, back when it
is reopened at the same point."""

import re
import time

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from e2e.conftest import GUIDE_SEEN, PACE_ALL_AT_ONCE, SCREENSHOTS
from e2e.test_paletti_seats import play_a_turn
from paletti.tests.test_stream import REDIS_URL, Server, redis_answers

SHOTS = SCREENSHOTS / "live"


@pytest.fixture
def asgi_server(transactional_db):
    call_command("seed", "--force", verbosity=0)
    server = Server(REDIS_URL if redis_answers() else "off", "e2e-live")
    yield server
    server.stop()


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
    page.seen = []
    page.on("request", lambda r: page.seen.append(r.url))
    return page


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}-{page.viewport_size['width']}.png", full_page=True)


def test_two_devices_follow_each_other_through_the_stream(asgi_server, browser):
    organiser, phone = device(browser, 1280), device(browser, 390, phone=True)
    spectator = device(browser, 1280)
    try:
        organiser.goto(f"{asgi_server.url}/en/paletti/?seed=42")
        organiser.get_by_label("Name").nth(0).fill("Ada")
        organiser.get_by_label("Name").nth(1).fill("Bo")
        organiser.get_by_label("Played by").nth(0).select_option(label="a person")
        organiser.get_by_label("Played by").nth(1).select_option(
            label="a person on their own phone or tablet"
        )
        organiser.get_by_role("button", name="Start the match").click()
        organiser.wait_for_url(re.compile(r"/en/paletti/[0-9a-f-]{36}/$"))
        bo_heading = organiser.get_by_role("heading", name="Bo")
        card = organiser.locator(".link-card").filter(has=bo_heading)
        phone.goto(card.locator("input.link-url").input_value())
        phone.wait_for_url(re.compile(r"/en/paletti/[0-9a-f-]{36}/$"))
        # A spectator whose network refuses the stream (a proxy in the way): it polls.
        spectators = organiser.locator(".link-card").filter(
            has=organiser.get_by_role("heading", name="Spectators")
        )
        refused = '{"code": "too_many_streams", "detail": "No stream here."}'
        spectator.route(
            re.compile(r".*/stream/\?.*"),
            lambda route: route.fulfill(status=503, content_type="application/json", body=refused),
        )
        spectator.goto(spectators.locator("input.link-url").input_value())
        pages = {"Ada": organiser, "Bo": phone}
        for page in pages.values():
            expect(page.locator("#paletti-match.ready")).to_be_attached()
            expect(page.locator("#paletti-match")).to_have_attribute("data-following", "stream")
        expect(spectator.locator("#paletti-match")).to_have_attribute("data-following", "poll")

        for _ in range(2):
            banner = organiser.locator("#turn-banner").inner_text()
            actor = "Ada" if "Ada, your turn" in banner else "Bo"
            watcher = pages["Bo" if actor == "Ada" else "Ada"]
            expect(watcher.locator("#turn-banner")).to_contain_text(f"{actor} is playing.")
            told = watcher.locator("#log li").count()
            play_a_turn(pages[actor])
            placed = time.monotonic()
            # The placement reaches the other device through its stream, at once.
            expect(watcher.locator("#turn-banner")).not_to_contain_text(
                f"{actor} is playing.", timeout=3000
            )
            assert time.monotonic() - placed < 2.0
            expect(watcher.locator("#log")).to_contain_text(actor)
            # The polling spectator sees it too, within its 2 s.
            expect(spectator.locator("#turn-banner")).not_to_contain_text(
                f"{actor} is playing.", timeout=5000
            )
            after = watcher.locator("#log li").count()
            assert after > told
            # Told once: nothing comes twice while the stream stays open.
            watcher.wait_for_timeout(2500)
            assert watcher.locator("#log li").count() == after
        for page in pages.values():
            assert not [u for u in page.seen if "/updates/" in u], "a device fell back to polling"
            assert len([u for u in page.seen if "/stream/" in u]) == 1  # one stream, kept open
        if redis_answers():
            # Presence: each person's seat shows whether a device of theirs is connected.
            bo_card = organiser.locator("#scoreboard li").filter(has_text="Bo")
            expect(bo_card.locator(".badge.presence")).to_have_text("connected")
            expect(
                phone.locator("#scoreboard li").filter(has_text="Ada").locator(".badge.presence")
            ).to_have_text("connected")
            shot(phone, "phone-seat-live")
            # Bo's tab closed: away about 10 s later; reopened: back, at the same point.
            match_url, context = phone.url, phone.context
            phone.close()
            closed = time.monotonic()
            expect(bo_card.locator(".badge.presence")).to_have_text("away", timeout=16000)
            assert 6 < time.monotonic() - closed < 15
            shot(organiser, "organiser-bo-away")
            phone = context.new_page()
            phone.goto(match_url)
            expect(phone.locator("#paletti-match.ready")).to_be_attached()
            expect(bo_card.locator(".badge.presence")).to_have_text("connected", timeout=4000)
            banner = organiser.locator("#turn-banner").inner_text().split(",")[0].split(" is ")[0]
            expect(phone.locator("#turn-banner")).to_contain_text(banner)
        shot(phone, "phone-seat-live")
        shot(organiser, "organiser-live")
        organiser.set_viewport_size({"width": 390, "height": 844})
        shot(organiser, "organiser-live")
        phone.set_viewport_size({"width": 1280, "height": 900})
        shot(phone, "phone-seat-live")
        assert [u for u in spectator.seen if "/updates/?since=" in u]
    finally:
        organiser.context.close()
        phone.context.close()
        spectator.context.close()
