"""The member's own page: reached by a signed link that expires, altered or made-up links
refused with a clear page; the household sees only its own loans and holds, renews under the
desk's rules, reserves and cancels; "send me my link" answers the same whatever was typed."""

import re
import time

import pytest
from django.contrib.auth.models import Permission
from django.core import mail, signing
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django_tasks_db.models import DBTaskResult

from games.lending.circulation import lend
from games.lending.member_links import member_token
from games.lending.models import Hold, Loan
from games.lending.tests.test_circulation import copies, make_household
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.LENDING_OPENING_WEEKDAYS = []
    settings.LENDING_MEMBER_LINK_DAYS = 30
    settings.SITE_URL = "https://ludo.example"
    settings.CACHES = {
        name: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": name}
        for name in ("default", "pages")
    }
    cache.clear()  # the throttle's counts start from nothing in each test


def page_url(household, lang="en"):
    with translation.override(lang):
        return reverse("lending:member-page", kwargs={"token": member_token(household)})


@pytest.fixture
def nowak(villa, desk_user):
    member = make_household("L0042", "Nowak")
    member.household.email = "nowak@example.org"
    member.household.save()
    (copy,) = copies(villa, "V1")
    lend(member=member, copy=copy, by=desk_user)
    return member.household


def test_the_page_shows_the_households_loans_and_holds_only(nowak, villa, desk_user):
    berg = make_household("L0043", "Bergström")
    (other,) = copies(villa, "THEIR-COPY-2")
    lend(member=berg, copy=other, by=desk_user)
    alhambra = Game.objects.get(slug="alhambra")
    Hold.objects.create(game=alhambra, household=nowak, member=nowak.members.first())
    page = Client().get(page_url(nowak)).content.decode()
    assert "Nowak" in page and "V1" in page and "Alhambra" in page
    assert "number 1 in the queue" in page
    # Text no token could hold (not base64): the other household's copy and name.
    assert "THEIR-COPY-2" not in page and "Bergström" not in page


def test_renew_on_the_page(nowak):
    loan = Loan.objects.get(household=nowak)
    url = page_url(nowak)
    client = Client()
    response = client.post(url, {"action": "renew", "loan": loan.pk}, follow=True)
    loan.refresh_from_db()
    assert loan.renewals == 1 and loan.renewed_by is None
    assert "Villa Paletti renewed: due back" in response.content.decode()
    # Once only, with the desk's reason.
    response = client.post(url, {"action": "renew", "loan": loan.pk}, follow=True)
    assert "was already renewed once" in response.content.decode()


def test_renewal_refused_after_a_reminder(nowak):
    loan = Loan.objects.get(household=nowak)
    Loan.objects.filter(pk=loan.pk).update(reminder_sent_at=timezone.now())
    client = Client()
    page = client.get(page_url(nowak)).content.decode()
    assert "A reminder was sent: bring it back." in page
    response = client.post(page_url(nowak), {"action": "renew", "loan": loan.pk}, follow=True)
    assert "A reminder was sent for V1 (Villa Paletti): it cannot be renewed." in (
        response.content.decode()
    )
    loan.refresh_from_db()
    assert loan.renewals == 0


def test_another_households_loan_cannot_be_renewed_from_the_page(nowak, villa, desk_user):
    berg = make_household("L0043", "Berg")
    (other,) = copies(villa, "V2")
    theirs = lend(member=berg, copy=other, by=desk_user)
    response = Client().post(page_url(nowak), {"action": "renew", "loan": theirs.pk}, follow=True)
    assert "There is no such loan to renew." in response.content.decode()
    theirs.refresh_from_db()
    assert theirs.renewals == 0


def test_reserve_and_cancel_on_the_page(nowak, villa):
    client = Client()
    response = client.post(page_url(nowak), {"action": "reserve", "game": "paletti"}, follow=True)
    # Its only copy is lent to Nowak: a household does not reserve what it borrows.
    assert "Nowak is borrowing Villa Paletti now." in response.content.decode()
    alhambra = Game.objects.get(slug="alhambra")
    lend(member=make_household("L0050", "Berg"), copy=copies(alhambra, "A1")[0], by=None)
    response = client.post(page_url(nowak), {"action": "reserve", "game": "Alhambra"}, follow=True)
    assert "Alhambra reserved: you are number 1 in the queue." in response.content.decode()
    hold = Hold.objects.get(household=nowak)
    response = client.post(page_url(nowak), {"action": "cancel", "hold": hold.pk}, follow=True)
    assert "The hold on Alhambra is cancelled." in response.content.decode()
    assert not Hold.objects.active().exists()


def test_the_page_speaks_the_languages(nowak):
    assert "Mes prêts et réservations" in Client().get(page_url(nowak, "fr")).content.decode()
    assert "Przedłuż" in Client().get(page_url(nowak, "pl")).content.decode()
    assert "Forlæng" in Client().get(page_url(nowak, "da")).content.decode()


def test_an_expired_link_says_so(nowak, monkeypatch):
    past = time.time() - 31 * 24 * 3600
    with monkeypatch.context() as patch:
        patch.setattr(signing.time, "time", lambda: past)
        url = page_url(nowak)
    response = Client().get(url)
    assert response.status_code == 410
    assert "This link has expired." in response.content.decode()
    # 29 days old still works.
    recent = time.time() - 29 * 24 * 3600
    with monkeypatch.context() as patch:
        patch.setattr(signing.time, "time", lambda: recent)
        url = page_url(nowak)
    assert Client().get(url).status_code == 200


@pytest.mark.parametrize(
    "token",
    ["abc", "x" * 500, "eyJoIjoxfQ:1v:bad", "%C3%A9:é", "..", "a:b:c:d"],
)
def test_a_made_up_link_is_a_clear_400(nowak, token):
    with translation.override("en"):
        url = reverse("lending:member-page", kwargs={"token": "T"}).replace("/T/", f"/{token}/")
    response = Client().get(url)
    assert response.status_code == 400
    assert "This link is not valid" in response.content.decode()


def test_an_altered_link_is_refused(nowak):
    berg = make_household("L0043", "Berg").household
    token = member_token(nowak)
    # Change the household named in the token: the signature no longer matches.
    payload, rest = token.split(":", 1)
    forged = signing.b64_encode(
        signing.JSONSerializer().dumps({"h": berg.pk, "c": berg.card_number})
    ).decode()
    for bad in (f"{forged}:{rest}", token[:-2] + ("AA" if token[-2:] != "AA" else "BB")):
        url = page_url(nowak).replace(token, bad)
        assert Client().get(url).status_code == 400
    # A link made for a card that has changed no longer works.
    url = page_url(nowak)
    nowak.card_number = "L9999"
    nowak.save()
    assert Client().get(url).status_code == 400
    assert Client().post(url, {"action": "renew", "loan": 1}).status_code == 400


def run_worker():
    """The task worker as ``make run`` starts it, until its queue is empty."""
    call_command("db_worker", "--batch", "--no-startup-delay", "--interval", "0", verbosity=0)


@pytest.mark.django_db(transaction=True)  # the worker closes its connections
def test_send_me_my_link_answers_the_same_whatever_was_typed(nowak):
    url = reverse("lending:member-link")
    client = Client()
    answers = []
    for card, email in [
        ("L0042", "NOWAK@example.org"),  # ours: the link goes
        ("L0042", "someone@example.org"),  # the card, another address
        ("L7777", "nowak@example.org"),  # no such card
    ]:
        response = client.post(url, {"card_number": card, "email": email}, REMOTE_ADDR="10.0.0.1")
        assert response.status_code == 200
        answers.append(re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.text))
    assert answers[0] == answers[1] == answers[2]
    # Each answer did the same work: one task for the worker, no e-mail yet.
    assert not mail.outbox
    assert DBTaskResult.objects.count() == 3
    run_worker()
    (message,) = mail.outbox
    assert message.to == ["nowak@example.org"]
    assert "https://ludo.example/fr/my-loans/" in message.body  # the household's language
    link = message.body.split("https://ludo.example", 1)[1].split()[0]
    assert "Nowak" in client.get(link).content.decode()


@pytest.mark.django_db(transaction=True)  # the worker closes its connections
def test_send_me_my_link_is_throttled(nowak):
    url = reverse("lending:member-link")
    client = Client()
    statuses = [
        client.post(
            url, {"card_number": f"X{n}", "email": "a@example.org"}, REMOTE_ADDR="10.0.0.2"
        ).status_code
        for n in range(7)
    ]
    assert statuses == [200] * 5 + [429] * 2
    # Per card too: a fourth ask for one card within the hour sends nothing.
    for n in range(4):
        client.post(
            url, {"card_number": "L0042", "email": "nowak@example.org"}, REMOTE_ADDR=f"10.1.0.{n}"
        )
    run_worker()
    assert len(mail.outbox) == 3


def test_bad_input_on_the_link_form_is_a_400(nowak):
    response = Client().post(
        reverse("lending:member-link"), {"card_number": "x" * 80, "email": "not an address"}
    )
    assert response.status_code == 400 and not mail.outbox


def test_staff_send_the_link_from_the_desk(nowak, desk_user):
    for codename in ("add_copycheck", "add_loan"):
        desk_user.user_permissions.add(Permission.objects.get(codename=codename))
    staff = Client()
    staff.force_login(desk_user)
    with translation.override("en"):
        desk = reverse("lending:desk")
    staff.post(desk, {"action": "scan", "barcode": "L0042"})
    response = staff.post(desk, {"action": "member_link"}, follow=True)
    assert "The link to their page is sent to nowak@example.org" in response.content.decode()
    assert mail.outbox[0].to == ["nowak@example.org"]
