"""Reminders: due soon, overdue and overdue again on the right days, each once per loan and
kind (two runs at once too), in the household's language; a reminder forbids a renewal; a
household without an e-mail address is listed to call."""

import datetime
import io

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.lending.circulation import LendingRefused, lend, renew
from games.lending.models import Loan, Reminder, ReminderKind
from games.lending.notices import send_reminders
from games.lending.tests.test_circulation import (
    MORNING,
    at_once,
    copies,
    make_household,
    postgresql_only,
)

pytestmark = pytest.mark.django_db

# Lent Saturday 21 November 2026 for 21 days: due Saturday 12 December.
DUE = datetime.date(2026, 12, 12)


@pytest.fixture(autouse=True)
def _reminder_settings(settings):
    settings.LENDING_OPENING_WEEKDAYS = [2, 5]
    settings.LENDING_REMINDER_DAYS_BEFORE = 3
    settings.LENDING_REMINDER_AGAIN_DAYS = 7
    settings.LIBRARY_NAME = "Ludothèque des Tilleuls"
    settings.SITE_URL = "https://ludo.example"


def on(day: datetime.date) -> datetime.datetime:
    """8:00 in Paris on ``day``: when cron runs the command."""
    return datetime.datetime.combine(day, datetime.time(7, 0), tzinfo=datetime.UTC)


def lent(villa, desk_user, card="L0042", name="Nowak", email="nowak@example.org", lang="fr"):
    member = make_household(card, name)
    member.household.email, member.household.language = email, lang
    member.household.save()
    (copy,) = copies(villa, f"V-{card}")
    return lend(member=member, copy=copy, by=desk_user, now=MORNING)


def run(day):
    mail.outbox.clear()
    report = send_reminders(now=on(day))
    return report, list(mail.outbox)


def test_due_soon_goes_three_days_before_and_once(villa, desk_user):
    loan = lent(villa, desk_user)
    assert loan.due_on == DUE
    assert run(DUE - datetime.timedelta(days=4))[1] == []
    _, sent = run(DUE - datetime.timedelta(days=3))
    assert [m.to for m in sent] == [["nowak@example.org"]]
    assert run(DUE - datetime.timedelta(days=2))[1] == []
    assert run(DUE)[1] == []  # due today: not overdue yet
    # A due-soon notice invites a renewal: it does not forbid one.
    loan.refresh_from_db()
    assert loan.reminder_sent_at is None
    assert renew(loan=loan, by=None, now=on(DUE - datetime.timedelta(days=2))).renewals == 1


def test_overdue_the_day_after_then_again_a_week_later(villa, desk_user):
    loan = lent(villa, desk_user)
    kinds = {}
    for offset in range(-3, 20):
        day = DUE + datetime.timedelta(days=offset)
        for message in run(day)[1]:
            kinds.setdefault(day, []).append(message.subject)
    assert sorted(kinds) == [
        DUE - datetime.timedelta(days=3),
        DUE + datetime.timedelta(days=1),
        DUE + datetime.timedelta(days=8),
    ]
    assert kinds[DUE + datetime.timedelta(days=1)] == [
        "Ludothèque des Tilleuls\u00a0: jeux à rapporter"
    ]
    assert "second rappel" in kinds[DUE + datetime.timedelta(days=8)][0]
    assert set(Reminder.objects.filter(loan=loan).values_list("kind", flat=True)) == set(
        ReminderKind.values
    )


def test_renewal_refused_after_an_overdue_reminder(villa, desk_user):
    loan = lent(villa, desk_user)
    run(DUE + datetime.timedelta(days=1))
    loan.refresh_from_db()
    assert loan.reminder_sent_at is not None
    with translation.override("en"), pytest.raises(LendingRefused, match="A reminder was sent"):
        renew(loan=loan, by=desk_user, now=on(DUE + datetime.timedelta(days=2)))


@pytest.mark.parametrize(
    ("lang", "words", "date"),
    [
        ("fr", "Ces jeux empruntés à Ludothèque des Tilleuls", "12 décembre 2026"),
        ("da", "Disse spil, lånt hos Ludothèque des Tilleuls", "12. december 2026"),
        ("pl", "Ludothèque des Tilleuls: wkrótce mija termin zwrotu", "12 grudnia 2026"),
        ("en", "These games borrowed from Ludothèque des Tilleuls", "12 December 2026"),
    ],
)
def test_the_email_is_in_the_households_language(villa, desk_user, lang, words, date):
    lent(villa, desk_user, lang=lang)
    (message,) = run(DUE - datetime.timedelta(days=3))[1]
    assert words in message.body
    assert "Villa Paletti (V-L0042): " in message.body
    assert date in message.body
    assert "https://ludo.example/" + lang + "/my-loans/" in message.body


def test_one_email_per_household_lists_its_loans(villa, desk_user):
    member = make_household("L7", "Berg")
    member.household.email = "berg@example.org"
    member.household.save()
    for copy in copies(villa, "B1", "B2"):
        lend(member=member, copy=copy, by=desk_user, now=MORNING)
    (message,) = run(DUE + datetime.timedelta(days=1))[1]
    assert "B1" in message.body and "B2" in message.body


def test_a_household_without_email_is_listed_to_call(villa, desk_user):
    loan = lent(villa, desk_user, email="")
    loan.household.contact = "06 12 34 56 78"
    loan.household.save()
    report, sent = run(DUE + datetime.timedelta(days=1))
    assert sent == [] and [h.name for h, _, _ in report.to_call] == ["Nowak"]
    loan.refresh_from_db()
    assert loan.reminder_sent_at is None  # nobody was reminded yet: staff call
    # The desk's overdue list (today's) says so.
    Loan.objects.update(due_on=timezone.localdate() - datetime.timedelta(days=1))
    desk_user.user_permissions.add(Permission.objects.get(codename="add_copycheck"))
    staff = Client()
    staff.force_login(desk_user)
    with translation.override("en"):
        page = staff.get(reverse("lending:desk")).content.decode()
    assert "No e-mail: to call" in page and "06 12 34 56 78" in page


def test_the_command_dry_run_sends_and_claims_nothing(villa, desk_user, monkeypatch):
    lent(villa, desk_user)
    lent(villa, desk_user, card="L9", name="Dupont", email="")
    monkeypatch.setattr(timezone, "now", lambda: on(DUE + datetime.timedelta(days=1)))
    out = io.StringIO()
    call_command("send_reminders", "--dry-run", stdout=out)
    text = out.getvalue()
    assert "would send overdue to nowak@example.org (L0042): V-L0042 due 2026-12-12" in text
    assert "to call: Dupont (L9, no contact), overdue: V-L9 due 2026-12-12" in text
    assert mail.outbox == [] and not Reminder.objects.exists()
    out = io.StringIO()
    call_command("send_reminders", stdout=out)
    assert "1 e-mail(s) sent, 1 household(s) to call, 0 failed." in out.getvalue()
    assert len(mail.outbox) == 1


def test_a_failed_email_is_tried_again_next_run(villa, desk_user, monkeypatch):
    lent(villa, desk_user)

    def refuse(*args, **kwargs):
        raise OSError("mail server down")

    monkeypatch.setattr("games.lending.notices.send_mail", refuse)
    report, _ = run(DUE + datetime.timedelta(days=1))
    assert len(report.failed) == 1 and not Reminder.objects.exists()
    assert Loan.objects.get().reminder_sent_at is None
    monkeypatch.undo()
    _, sent = run(DUE + datetime.timedelta(days=2))
    assert len(sent) == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_send_each_reminder_once(contents):
    from django.contrib.auth.models import User

    from games.models import Game

    villa = Game.objects.get(slug="villa-paletti")
    desk_user = User.objects.create_user("desk")
    for round_ in range(3):
        for n in range(4):
            lent(villa, desk_user, card=f"R{round_}-{n}", email=f"h{round_}-{n}@example.org")
        mail.outbox.clear()
        day = on(DUE + datetime.timedelta(days=1))
        reports = at_once(lambda: send_reminders(now=day), lambda: send_reminders(now=day))
        recipients = sorted(m.to[0] for m in mail.outbox)
        assert recipients == sorted(f"h{round_}-{n}@example.org" for n in range(4)), reports
        assert sum(len(r.sent) for r in reports) == 4
        Loan.objects.update(returned_at=on(DUE + datetime.timedelta(days=1)))
