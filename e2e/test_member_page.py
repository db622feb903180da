"""A member opens their own page from the link in their e-mail, on a phone and a desktop:
renews one loan, reserves a game. Screenshots of the page, the "send me my link" form and
an expired link."""

import datetime

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from e2e.conftest import SCREENSHOTS, assert_no_serious_violation
from games.lending.circulation import lend
from games.lending.models import Copy, CopyStatus, Household, Loan, Member, MemberType
from games.lending.notices import send_member_link
from games.models import Game

SHOTS = SCREENSHOTS / "reminders"


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}-{page.width}.png", full_page=True)


@pytest.fixture
def household(seeded_server, settings):
    settings.LENDING_OPENING_WEEKDAYS = []
    settings.SITE_URL = seeded_server.url
    kind = MemberType.objects.create(name="Famille")
    nowak = Household.objects.create(
        card_number="L0042",
        name="Nowak",
        email="nowak@example.org",
        language="en",
        member_type=kind,
        membership_start=datetime.date.today() - datetime.timedelta(days=60),
        membership_end=datetime.date.today() + datetime.timedelta(days=300),
        fee_paid=True,
    )
    ola = Member.objects.create(household=nowak, first_name="Ola", last_name="Nowak")
    berg = Member.objects.create(
        household=Household.objects.create(
            card_number="L0043",
            name="Berg",
            member_type=kind,
            membership_end=datetime.date.today() + datetime.timedelta(days=300),
            fee_paid=True,
        ),
        first_name="Anna",
    )
    villa = Game.objects.get(slug="villa-paletti")
    prince = Game.objects.get(slug="le-petit-prince-fabrique-moi-une-planete")
    alhambra = Game.objects.get(slug="alhambra")
    for barcode, game, who in [
        ("J0001", villa, ola),
        ("J0002", prince, ola),
        ("J0003", alhambra, berg),
    ]:
        lend(member=who, copy=Copy.objects.create(game=game, barcode=barcode), by=None)
    # Le Petit Prince was reminded: it can no longer be renewed.
    Loan.objects.filter(copy__barcode="J0002").update(
        reminder_sent_at=datetime.datetime.now(datetime.UTC)
    )
    assert Copy.objects.get(barcode="J0003").status == CopyStatus.ON_LOAN
    return nowak


def test_from_the_link_renew_a_loan_and_reserve_a_game(household, page):
    mail.outbox = []
    send_member_link(household)
    (message,) = mail.outbox
    link = next(word for word in message.body.split() if "/my-loans/" in word)
    page.goto(link)
    expect(page.get_by_role("heading", name="Nowak")).to_be_visible()
    loans = page.locator(".desk-loans").first
    expect(loans).to_contain_text("Villa Paletti")
    expect(loans).to_contain_text("A reminder was sent: bring it back.")
    shot(page, "member-page")
    assert_no_serious_violation(page, "member page")

    page.get_by_role("button", name="Renew Villa Paletti").click()
    expect(page.get_by_role("status")).to_contain_text("Villa Paletti renewed: due back")
    expect(page.get_by_text("Renewed once already.")).to_be_visible()
    assert Loan.objects.get(copy__barcode="J0001").renewals == 1

    page.get_by_label("Reserve a game (its title)").fill("Alhambra")
    page.get_by_role("button", name="Reserve", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text(
        "Alhambra reserved: you are number 1 in the queue."
    )
    expect(page.locator(".desk-holds")).to_contain_text("number 1 in the queue")
    shot(page, "member-page-after")

    # Someone else's link, cut short: a clear page, not an error.
    page.goto(link[:-6] + "/")
    expect(page.get_by_role("alert")).to_contain_text("This link is not valid")
    shot(page, "member-link-invalid")


def test_send_me_my_link(household, page, live_server):
    mail.outbox = []
    with translation.override("fr"):
        page.goto(live_server.url + reverse("lending:member-link"))
    page.get_by_label("Numéro de carte").fill("L0042")
    page.get_by_label("Adresse e-mail").fill("nowak@example.org")
    page.get_by_role("button", name="M'envoyer mon lien").click()
    expect(page.get_by_role("status")).to_contain_text("un lien vers votre page part")
    # The worker sends it, after the answer.
    call_command("db_worker", "--batch", "--no-startup-delay", "--interval", "0", verbosity=0)
    assert [m.to for m in mail.outbox] == [["nowak@example.org"]]
    shot(page, "member-link-form")


def test_the_desk_marks_whom_to_call_and_sends_the_link(household, page, live_server):
    from django.contrib.auth.models import Permission, User

    volunteer = User.objects.create_user("desk", password="desk-pass-1", is_staff=True)
    volunteer.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_copycheck", "add_loan", "change_loan"])
    )
    # Berg's game is overdue and Berg has no e-mail address: staff call.
    Loan.objects.filter(copy__barcode="J0003").update(
        due_on=datetime.date.today() - datetime.timedelta(days=3)
    )
    Household.objects.filter(card_number="L0043").update(contact="06 12 34 56 78")
    with translation.override("en"):
        login, desk = reverse("admin:login"), reverse("lending:desk")
    page.goto(live_server.url + login + "?next=" + desk)
    page.get_by_label("Username").fill("desk")
    page.get_by_label("Password").fill("desk-pass-1")
    page.keyboard.press("Enter")
    overdue = page.locator(".desk-overdue")
    expect(overdue).to_contain_text("No e-mail: to call · 06 12 34 56 78")
    shot(page, "desk-overdue-to-call")
    page.keyboard.type("L0042")
    page.keyboard.press("Enter")
    mail.outbox = []
    page.get_by_role("button", name="Send their page's link").click()
    expect(page.get_by_role("status").first).to_contain_text(
        "The link to their page is sent to nowak@example.org"
    )
    assert [m.to for m in mail.outbox] == [["nowak@example.org"]]
    shot(page, "desk-member-link")
