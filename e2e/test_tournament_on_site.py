"""A tournament table played on the site: staff put table 1 of a Villa Paletti round on
the site at the desk, a player opens their own link from their personal page and takes
their seat in the match, the big screen shows the match under way, and when the match
ends its result appears on the big screen and in the standings by itself."""

import random
from datetime import date

from django.contrib.auth.models import Permission, User
from playwright.sync_api import expect

from e2e.conftest import assert_no_serious_violation
from e2e.conftest import english_url as url
from e2e.test_tournament import contexts, shoot  # noqa: F401 (contexts: a fixture)
from games.models import Game
from games.tournament import services
from games.tournament.models import Tournament
from paletti import engine
from paletti import services as match_services
from paletti.models import TournamentMatch

NAMES = ["Ada", "Bruno", "Chloé", "Dorota", "Emil", "Frida", "Gustav", "Hanna"]


def play_to_the_end(match, *, seed=7):
    """Every seat played by the engine's easy bot through the site's play service."""
    for number in range(600):
        match = match_services.get_match(match.pk)
        state = match_services.load_state(match)
        if state.rules.phase == engine.Phase.OVER:
            return state
        action = engine.choose_action(state, "easy", random.Random(f"{seed}:{number}"))
        match_services.play(match=match, version=match.version, action=action)
    raise AssertionError("the match did not end")


def test_a_table_played_on_the_site_reaches_the_big_screen(seeded_server, contexts):  # noqa: F811
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
    for i, name in enumerate(NAMES):
        services.register(tournament=tournament, name=name, age=8 + 5 * i)

    desk = contexts(1280)
    desk.goto(
        url(server, "admin:login") + "?next=" + url(server, "tournament:desk", pk=tournament.pk)
    )
    desk.get_by_label("Username").fill("desk")
    desk.get_by_label("Password").fill("desk-pass-1")
    desk.keyboard.press("Enter")
    desk.get_by_role("button", name="Start round 1").click()
    expect(desk.get_by_role("status")).to_contain_text("Round 1 has started.")
    table = tournament.round_set.get(number=1).tables.get(number=1)
    desk.locator(".table-card").first.get_by_role("button", name="Play it on the site").click()
    expect(desk.get_by_role("status")).to_contain_text("Table 1 is played on the site.")
    expect(desk.locator(".table-card").first.locator(".on-site-note")).to_be_visible()
    shoot(desk, "on-site-desk")
    match = TournamentMatch.objects.get(table=table).match

    wall = contexts(1280, 800)
    wall.goto(url(server, "tournament:screen", code=tournament.code))
    first_card = wall.locator(".screen-table").first
    expect(first_card.locator(".screen-on-site")).to_contain_text("Played on the site")
    expect(first_card.get_by_role("link", name="Watch the match")).to_be_visible()
    expect(wall.locator(".screen-table").nth(1).locator(".screen-on-site")).to_have_count(0)
    shoot(wall, "on-site-wall")

    # The second seat's player opens their page, then their own link: they take their
    # seat in the match, and no address the browser keeps carries the seat's secret.
    seats = list(table.seats.order_by("position").select_related("player"))
    player = seats[1].player
    phone = contexts(390, 844, has_touch=True, is_mobile=True)
    phone.goto(url(server, "tournament:player", token=player.token))
    link = phone.get_by_role("link", name="Play your table's match")
    expect(link).to_be_visible()
    expect(phone.get_by_role("button", name="Send the result")).to_have_count(0)
    assert_no_serious_violation(phone, "player page with a match on the site")
    shoot(phone, "on-site-phone")
    link.click()
    expect(phone.locator("#viewer-role")).to_have_text(f"This device plays for {player.name}.")
    assert "#" not in phone.url
    expect(phone.locator("#turn-banner")).not_to_have_text("Loading the match…", timeout=20000)
    shoot(phone, "on-site-match")

    # The players play on; the match ends. The wall shows the result without a reload.
    final = play_to_the_end(match)
    winner = seats[final.rules.winner].player.name
    expect(first_card).to_have_class("screen-table status-confirmed", timeout=8000)
    expect(first_card.locator(".screen-winner")).to_have_text(f"{winner} wins")
    expect(first_card.locator(".on-site-status")).to_have_text("The match is over.")
    top = wall.locator("#screen-standings tr").first
    expect(top).to_contain_text(winner)
    expect(top.locator("td").nth(2)).to_have_text("6")
    shoot(wall, "on-site-wall-result")

    phone.goto(url(server, "tournament:player", token=player.token))
    expect(phone.locator(".result-state")).to_have_text(
        "Recorded from your table's match on the site."
    )
    shoot(phone, "on-site-phone-result")

    for width in (390, 1280):
        page = contexts(width, 844)
        page.goto(url(server, "tournament:screen", code=tournament.code))
        expect(page.locator(".screen-table.status-confirmed")).to_have_count(1)
        shoot(page, "on-site-wall-both")


def test_the_pages_at_both_widths_with_a_final_table(seeded_server, contexts, settings):  # noqa: F811
    """Screenshots at 390 and 1280 px: a player's page with their match link, the desk
    with its buttons, the join page's 429, and the final table on the wall and a phone."""
    server = seeded_server
    staff = User.objects.create_user("desk", password="desk-pass-1", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(content_type__app_label="tournament"))
    tournament = Tournament.objects.create(
        game=Game.objects.get(slug="villa-paletti"),
        name="Villa Paletti Saturday",
        date=date(2026, 6, 13),
        seed=21,
        rounds=1,
        final_table=True,
    )
    for i, name in enumerate(NAMES):
        services.register(tournament=tournament, name=name, age=8 + 5 * i)
    round_ = services.start_round(tournament=tournament)
    on_site = round_.tables.get(number=1)
    services.play_on_site(tournament=tournament, table=on_site)
    player = on_site.seats.order_by("position").first().player
    for width in (390, 1280):
        phone = contexts(width, 844)
        phone.goto(url(server, "tournament:player", token=player.token))
        expect(phone.get_by_role("link", name="Play your table's match")).to_be_visible()
        shoot(phone, "on-site-phone-widths")
        desk = contexts(width, 900)
        desk.goto(
            url(server, "admin:login") + "?next=" + url(server, "tournament:desk", pk=tournament.pk)
        )
        desk.get_by_label("Username").fill("desk")
        desk.get_by_label("Password").fill("desk-pass-1")
        desk.keyboard.press("Enter")
        expect(desk.get_by_role("button", name="Play it on the site")).to_be_visible()
        assert_no_serious_violation(desk, f"desk at {width}")
        shoot(desk, "on-site-desk-widths")

    settings.TOURNAMENT_THROTTLE_RATES = {"tournament-join": "1/hour"}
    contexts(390).goto(url(server, "tournament:join", code=tournament.code))  # the one allowed
    for width in (390, 1280):
        phone = contexts(width, 844)
        phone.goto(url(server, "tournament:join", code=tournament.code))
        expect(phone.get_by_role("alert")).to_contain_text("Too many requests")
        shoot(phone, "join-429")
    settings.TOURNAMENT_THROTTLE_RATES = {}

    play_to_the_end(TournamentMatch.objects.get(table=on_site).match)
    for table in round_.tables.exclude(pk=on_site.pk):
        seats = list(table.seats.order_by("position"))
        services.correct_result(
            user=staff,
            table=table,
            result=services.Result(
                winner=seats[0].pk, points={s.pk: 3 - i for i, s in enumerate(seats)}
            ),
        )
    final = services.start_round(tournament=tournament)
    finalist = final.tables.get().seats.first().player
    for width in (390, 1280):
        wall = contexts(width, 800)
        wall.goto(url(server, "tournament:screen", code=tournament.code))
        expect(wall.locator("#screen-round")).to_have_text("The final table")
        expect(wall.locator(".screen-table")).to_have_count(1)
        shoot(wall, "final-wall")
        phone = contexts(width, 844)
        phone.goto(url(server, "tournament:player", token=finalist.token))
        expect(phone.locator("#seat-title")).to_have_text("The final table")
        shoot(phone, "final-phone")
