"""A Villa Paletti afternoon: 13 players, three rounds. Staff start each round at the desk,
each table's result is entered on one player's phone and confirmed on another's, and the
big screen on the wall follows the results and the standings by itself."""

import random
import re
import uuid
from datetime import date

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from catalogue import live
from catalogue.tests.servers import REDIS_URL, Server, redis_answers
from e2e.conftest import SCREENSHOTS, assert_no_serious_violation
from e2e.conftest import english_url as url
from games.models import Game
from games.tournament import selectors, services
from games.tournament.models import Player, Seat, Table, Tournament

NAMES = [
    "Ada", "Bruno", "Chloé", "Dorota", "Emil", "Frida", "Gustav", "Hanna", "Igor",
    "Jeanne", "Kasper", "Lena",
]  # fmt: skip


def shoot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"tournament-{name}-{page.width}.png", full_page=True)


@pytest.fixture
def contexts(browser):
    opened = []

    def open_context(width, height=900, **options):
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        opened.append(context)
        page = context.new_page()
        page.width = width
        return page

    yield open_context
    for context in opened:
        context.close()


def visit(phone, address):
    """Open a page on the phone, whose previous page may be reloading itself as the
    tournament moved on (a round started): then open it again."""
    try:
        phone.goto(address)
    except PlaywrightError as error:
        if "interrupted by another navigation" not in str(error):
            raise
        phone.goto(address)


def enter_on_phone(phone, server, player, table, rng, *, brought_down=None):
    """The first player at the table enters the result on their phone."""
    seats = list(table.seats.order_by("position").select_related("player"))
    winner = seats[rng.randrange(len(seats))].player.name
    visit(phone, url(server, "tournament:player", token=player.token))
    phone.get_by_role("group", name="Winner").get_by_label(winner, exact=True).check()
    if brought_down is not None:
        name = next(s.player.name for s in seats if s.player.name != winner)
        phone.get_by_role("group", name="Who brought the villa down?").get_by_label(
            name, exact=True
        ).check()
    points = phone.get_by_role("group", name="Points on the top platform")
    for seat in seats:
        points.get_by_label(seat.player.name, exact=True).fill(str(rng.randrange(0, 9)))
    phone.get_by_role("button", name="Send the result").click()
    expect(phone.locator(".result-state")).to_contain_text("Another player at your table")


def confirm_on_phone(phone, server, player):
    visit(phone, url(server, "tournament:player", token=player.token))
    expect(phone.locator(".result-state")).to_contain_text("entered this result")
    phone.get_by_role("button", name="Confirm the result").click()
    expect(phone.locator(".result-state")).to_contain_text("Confirmed by")


def test_thirteen_players_three_rounds_from_phones_to_the_big_screen(seeded_server, contexts):
    server = seeded_server
    staff = User.objects.create_user("desk", password="desk-pass-1", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(content_type__app_label="tournament"))
    tournament = Tournament.objects.create(
        game=Game.objects.get(slug="villa-paletti"),
        name="Villa Paletti Saturday",
        date=date(2026, 6, 13),
        seed=13,
        rule_options={"seal_start": "blue"},
    )
    for i, name in enumerate(NAMES[:11]):
        services.register(tournament=tournament, name=name, age=8 + 5 * i)

    desk = contexts(1280)
    phone = contexts(390, 844, has_touch=True, is_mobile=True)
    wall = contexts(1280, 800)

    # Staff sign in; the twelfth player registers at the desk, the thirteenth on a phone.
    desk.goto(
        url(server, "admin:login") + "?next=" + url(server, "tournament:desk", pk=tournament.pk)
    )
    desk.get_by_label("Username").fill("desk")
    desk.get_by_label("Password").fill("desk-pass-1")
    desk.keyboard.press("Enter")
    expect(desk.get_by_role("heading", level=1)).to_have_text("Villa Paletti Saturday")
    desk.get_by_label("Name", exact=True).fill(NAMES[11])
    desk.get_by_label("Age", exact=True).fill("10")
    desk.get_by_role("button", name="Register").click()
    expect(desk.get_by_role("status")).to_contain_text("Lena is registered.")

    phone.goto(url(server, "tournament:join", code=tournament.code))
    phone.get_by_label("Name", exact=True).fill("Zoé")
    phone.get_by_label("Age", exact=True).fill("9")
    phone.get_by_role("button", name="Take part").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Zoé")
    expect(phone.locator(".notice")).to_contain_text("You are registered.")
    assert tournament.players.count() == 13

    wall.goto(url(server, "tournament:screen", code=tournament.code))
    expect(wall.locator("#screen-round")).to_have_text("Registration: 13 players so far")

    rng = random.Random(13)
    for number in (1, 2, 3):
        desk.get_by_role("button", name=f"Start round {number}").click()
        expect(desk.get_by_role("status")).to_contain_text(f"Round {number} has started.")
        round_ = tournament.round_set.get(number=number)
        tables = list(round_.tables.order_by("number"))
        assert [t.seats.count() for t in tables] == [4, 3, 3, 3]
        # The wall follows without a reload: the round and its four tables.
        expect(wall.locator("#screen-round")).to_have_text(f"Round {number} of 3", timeout=8000)
        expect(wall.locator(".screen-table")).to_have_count(4)
        expect(wall.locator("#screen-timer")).to_have_text(re.compile(r"^2[45]:\d\d$"))

        for index, table in enumerate(tables):
            first, second = [s.player for s in table.seats.order_by("position")[:2]]
            if number == 1 and index == 0:
                visit(phone, url(server, "tournament:player", token=first.token))
                expect(phone.locator(".seat-facts dd").first).to_have_text("1")
                shoot(phone, "phone-seat")
            enter_on_phone(
                phone, server, first, table, rng, brought_down=True if index == 1 else None
            )
            if number == 2 and index == 0:
                visit(phone, url(server, "tournament:player", token=second.token))
                shoot(phone, "phone-confirm")
            confirm_on_phone(phone, server, second)
        expect(wall.locator(".screen-table.status-confirmed")).to_have_count(4, timeout=8000)
        if number == 2:
            shoot(wall, "screen")
        desk.reload()
        if number == 1:
            shoot(desk, "desk")

    desk.get_by_role("button", name="End the tournament").click()
    expect(desk.get_by_role("heading", level=1)).to_contain_text("Standings")
    shoot(desk, "standings")
    expect(wall.locator("#screen-round")).to_have_text("The tournament is over", timeout=8000)

    # The standings on the wall are the ones the results give, in the same order.
    expected = [(r.player.name, str(r.standing.points)) for r in selectors.standings(tournament)]
    rows = wall.locator("#screen-standings tr")
    expect(rows).to_have_count(13)
    shown = [
        (row.locator("td").nth(1).inner_text(), row.locator("td").nth(2).inner_text())
        for row in rows.all()
    ]
    assert shown == expected
    assert {r.standing.games for r in selectors.standings(tournament)} == {3}
    shoot(wall, "screen-final")
    assert_no_serious_violation(wall, "big screen")
    # Every player played three games and never sat out: 13 players at 4 + 3 + 3 + 3.
    assert Seat.objects.filter(round__tournament=tournament).count() == 39
    assert not Player.objects.filter(tournament=tournament, byes__isnull=False).exists()


@pytest.fixture
def asgi_server(transactional_db, settings):
    """The site served by uvicorn, as `make run` serves it: the event streams stay open.
    This process (where the tests change the tournament) publishes where it listens."""
    call_command("seed", "--force", verbosity=0)
    redis_url = REDIS_URL if redis_answers() else "off"
    prefix = f"e2e-tournament-{uuid.uuid4().hex}"
    settings.LIVE_STREAMS = {
        **settings.LIVE_STREAMS,
        "redis_url": "" if redis_url == "off" else redis_url,
        "key_prefix": prefix,
    }
    live._publisher.update(client=None, paused_until=0.0)
    server = Server(redis_url, prefix)
    yield server
    server.stop()
    live._publisher.update(client=None, paused_until=0.0)


def test_the_phone_page_and_the_big_screen_at_both_widths(asgi_server, contexts):
    """Screenshots of the phone page and the big screen at 390, 1280 and 1920 px; the
    screen and the phone follow the tournament's stream: a result confirmed is on both
    within 2 s, the screen never polling."""
    server = asgi_server
    tournament = Tournament.objects.create(
        game=Game.objects.get(slug="villa-paletti"),
        name="Villa Paletti Saturday",
        date=date(2026, 6, 13),
        seed=5,
    )
    for i, name in enumerate(NAMES[:10]):
        services.register(tournament=tournament, name=name, age=30 - 2 * i)
    round_ = services.start_round(tournament=tournament)
    table = round_.tables.get(number=2)
    seats = list(table.seats.order_by("position"))
    services.enter_result(
        seat=seats[0],
        result=services.Result(
            winner=seats[1].pk, brought_down=None, points={s.pk: 2 for s in seats}
        ),
    )
    for width in (390, 1280):
        page = contexts(width, 844)
        page.goto(url(server, "tournament:player", token=seats[1].player.token))
        expect(page.get_by_role("button", name="Confirm the result")).to_be_visible()
        shoot(page, "phone")
        assert_no_serious_violation(page, f"phone page at {width}")
        page.goto(page.url.replace("/en/", "/pl/"))
        expect(page.get_by_role("button", name="Potwierdź wynik")).to_be_visible()
        shoot(page, "phone-pl")
        wall = contexts(width, 800)
        wall.goto(url(server, "tournament:screen", code=tournament.code))
        expect(wall.locator(".screen-table.status-pending")).to_have_count(1)
        shoot(wall, "wall")
        wall.goto(wall.url.replace("/en/", "/fr/"))
        expect(wall.locator("#screen-round")).to_have_text("Manche 1 sur 3")
        shoot(wall, "wall-fr")

    wall = contexts(1920, 1080)
    asked = []
    wall.on("request", lambda r: asked.append(r.url) if "screen.json" in r.url else None)
    wall.goto(url(server, "tournament:screen", code=tournament.code))
    phone = contexts(390, 844, has_touch=True, is_mobile=True)
    phone.goto(url(server, "tournament:player", token=seats[1].player.token))
    for device in (wall, phone):
        expect(device.locator("[data-following]")).to_have_attribute("data-following", "stream")
    expect(wall.locator(".screen-table.status-pending")).to_have_count(1)
    asked.clear()
    services.confirm_result(seat=seats[1], entry=Table.objects.get(pk=table.pk).entry)
    # Through the stream (its polling would take 5 s): one event, one read of the JSON.
    expect(wall.locator(".screen-table.status-confirmed")).to_have_count(1, timeout=2000)
    expect(phone.locator(".result-state")).to_contain_text("Confirmed by", timeout=2000)
    assert len(asked) == 1
    shoot(wall, "wall-live")
    shoot(phone, "phone-live")


def test_forty_players_standings_print_on_one_a4_page(seeded_server, contexts):
    tournament = Tournament.objects.create(
        game=Game.objects.get(slug="villa-paletti"),
        name="Villa Paletti Saturday",
        date=date(2026, 6, 13),
        seed=40,
    )
    for i in range(40):
        services.register(tournament=tournament, name=f"Player with a long name {i + 1:02d}", age=9)
    page = contexts(1280)
    page.goto(url(seeded_server, "tournament:standings", code=tournament.code))
    expect(page.locator(".standings tbody tr")).to_have_count(40)
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1  # one A4 sheet


def test_a_game_without_table_rules_on_the_phone_and_the_wall(seeded_server, contexts):
    """Alhambra has no table rules of its own: a phone enters the placing order, the wall
    shows each player's place and a win shared by two."""
    server = seeded_server
    tournament = Tournament.objects.create(
        game=Game.objects.get(slug="alhambra"), name="Alhambra Saturday", date=date(2026, 6, 13)
    )
    for i, name in enumerate(NAMES[:4]):
        services.register(tournament=tournament, name=name, age=30 + i)
    table = services.start_round(tournament=tournament).tables.get()
    seats = list(table.seats.order_by("position").select_related("player"))
    for width in (390, 1280):
        page = contexts(width, 844)
        page.goto(url(server, "tournament:player", token=seats[0].player.token))
        expect(page.get_by_role("group", name="Places")).to_be_visible()
        expect(page.get_by_role("group", name="Winner")).to_have_count(0)
        shoot(page, "phone-places")
        assert_no_serious_violation(page, f"phone page with places at {width}")
    places = page.get_by_role("group", name="Places")
    for seat, place in zip(seats, ["1", "1", "3", "4"], strict=True):
        places.get_by_label(seat.player.name, exact=True).select_option(place)
    page.get_by_role("button", name="Send the result").click()
    expect(page.locator(".result-state")).to_contain_text("Another player at your table")
    expect(page.locator(".result-summary ol li").first).to_have_text(f"1. {seats[0].player.name}")
    for width in (390, 1280):
        wall = contexts(width, 800)
        wall.goto(url(server, "tournament:screen", code=tournament.code))
        expect(wall.locator(".screen-winner")).to_have_text(
            f"{seats[0].player.name}, {seats[1].player.name} share the win"
        )
        expect(wall.locator(".screen-table li.winner")).to_have_count(2)
        shoot(wall, "wall-places")
        assert_no_serious_violation(wall, f"big screen with places at {width}")
