"""The desk lends and takes back: a member's card, then copies; refusals with their reason;
the household's loans with their due dates; a return counted on the copy's page."""

import datetime

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation

from games.lending.models import Copy, CopyStatus, Household, Loan, Member, MemberType
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _every_day_open(settings):
    settings.LENDING_OPENING_WEEKDAYS = []


@pytest.fixture
def villa_copies(seed):
    call_command("loaddata", "fixtures/contents.json", verbosity=0)
    villa = Game.objects.get(slug="villa-paletti")
    return [Copy.objects.create(game=villa, barcode=f"J000{n}") for n in range(1, 4)]


@pytest.fixture
def nowak(db):
    today = timezone.localdate()
    household = Household.objects.create(
        card_number="L0042",
        name="Nowak",
        member_type=MemberType.objects.create(name="Famille", games_quota=2, loan_days=21),
        membership_start=today - datetime.timedelta(days=30),
        membership_end=today + datetime.timedelta(days=300),
        fee_paid=True,
    )
    Member.objects.create(household=household, first_name="Anna", last_name="Nowak")
    Member.objects.create(household=household, first_name="Ola", last_name="Nowak", child_age=7)
    return household


def scan(client, code, **extra):
    with translation.override("en"):
        return client.post(reverse("lending:desk"), {"barcode": code, **extra}, follow=True)


def text(response) -> str:
    return response.content.decode()


def test_a_card_then_copies_lends_them_until_the_quota(client, villa_copies, nowak, volunteer):
    page = scan(client, "L0042")
    assert "Nowak" in text(page) and "Nothing borrowed now." in text(page)
    ola = nowak.members.get(first_name="Ola")
    page = scan(client, "J0001", member=str(ola.pk))
    due = timezone.localdate() + datetime.timedelta(days=21)
    with translation.override("en"):
        day = f"{due.day} {due:%B}"
    assert f"J0001 (Villa Paletti) lent to Ola Nowak, due back {day}." in text(page)
    page = scan(client, "J0002")
    assert "2 games of 2 borrowed" in text(page)
    assert text(page).count('<li class="desk-loan') == 2
    page = scan(client, "J0003")
    assert "Nowak already borrows 2 games, as many as its membership allows." in text(page)
    assert Loan.objects.filter(household=nowak, member=ola).count() == 2  # Ola kept
    assert Copy.objects.get(barcode="J0003").status == CopyStatus.AVAILABLE


def test_a_copy_on_loan_scanned_is_taken_back_with_its_contents_counted(
    client, villa_copies, nowak, volunteer
):
    scan(client, "L0042")
    scan(client, "J0001")
    page = scan(client, "J0001")
    with translation.override("en"):
        assert page.redirect_chain[-1][0] == reverse("lending:desk-copy", args=["J0001"])
    assert "On loan to Nowak (L0042)" in text(page)
    copy = villa_copies[0]
    data = {
        f"item_{item.pk}": ("on" if item.count == 1 else item.count - (item.name_en == "columns"))
        for item in copy.game.content_items.all()
    }
    with translation.override("en"):
        page = client.post(reverse("lending:desk-copy", args=["J0001"]), data, follow=True)
    back = "J0001 (Villa Paletti) is back from Nowak, incomplete: columns (1 of 20 missing)."
    assert back in text(page)
    assert "Nothing borrowed now." in text(page)  # the household is still at the desk
    copy.refresh_from_db()
    assert copy.status == CopyStatus.INCOMPLETE
    assert Loan.objects.get().missing_pieces.get().item.name_en == "columns"


def test_a_lapsed_membership_is_refused_at_the_desk(client, villa_copies, nowak, volunteer):
    Household.objects.filter(pk=nowak.pk).update(fee_paid=False)
    scan(client, "L0042")
    page = scan(client, "J0001")
    assert "The membership fee of Nowak is not paid." in text(page)
    assert 'role="alert"' in text(page)
    assert not Loan.objects.exists()


def test_a_loan_is_renewed_at_the_desk_once(client, villa_copies, nowak, volunteer):
    scan(client, "L0042")
    scan(client, "J0001")
    loan = Loan.objects.get()
    with translation.override("en"):
        page = client.post(
            reverse("lending:desk"), {"action": "renew", "loan": loan.pk}, follow=True
        )
        assert "J0001 (Villa Paletti) renewed" in text(page)
        assert "Renew" not in text(page)  # once only
        again = client.post(
            reverse("lending:desk"), {"action": "renew", "loan": loan.pk}, follow=True
        )
    assert "already renewed once" in text(again)
    assert Loan.objects.get().renewals == 1


@pytest.mark.parametrize(
    "data",
    [
        {"action": "renew", "loan": "x"},
        {"action": "renew", "loan": "99999999999999999999999"},
        {"action": "scan"},
        {"action": "??", "barcode": "a" * 500},
        {"barcode": "L0042", "member": "-1"},
    ],
)
def test_hostile_posts_get_a_clear_answer(client, villa_copies, nowak, volunteer, data):
    with translation.override("en"):
        response = client.post(reverse("lending:desk"), data)
    assert response.status_code == 302
    assert client.get(response.url).status_code == 200
    assert not Loan.objects.exists()


def test_lending_needs_the_permission_to_lend(client, villa_copies, nowak):
    checker = User.objects.create_user("checker", is_staff=True)
    checker.user_permissions.add(Permission.objects.get(codename="add_copycheck"))
    client.force_login(checker)
    scan(client, "L0042")
    page = scan(client, "J0001")
    assert "You may check copies, not lend them." in text(page)
    assert not Loan.objects.exists()


def test_done_sends_the_household_away(client, villa_copies, nowak, volunteer):
    scan(client, "L0042")
    with translation.override("en"):
        page = client.post(reverse("lending:desk"), {"action": "done"}, follow=True)
    assert "Check a copy" in text(page) and "L0042" not in text(page)
    page = scan(client, "J0001")  # no one at the desk: the copy's checklist
    with translation.override("en"):
        assert page.redirect_chain[-1][0] == reverse("lending:desk-copy", args=["J0001"])


def test_loans_in_the_admin_are_for_staff_and_read_as_the_desk_made_them(
    client, villa_copies, nowak, volunteer
):
    scan(client, "L0042")
    scan(client, "J0001")
    loan = Loan.objects.get()
    with translation.override("en"):
        listing = client.get(reverse("admin:lending_loan_changelist"))
        change = client.get(reverse("admin:lending_loan_change", args=[loan.pk]))
        household = client.get(reverse("admin:lending_household_change", args=[nowak.pk]))
        add = client.get(reverse("admin:lending_loan_add"))
    assert listing.status_code == 200 and "J0001" in text(listing)
    assert change.status_code == 200
    # Who borrowed is chosen among the household's members; the copy is not editable.
    assert text(change).count("<option") == 3  # blank, Anna, Ola
    assert 'name="copy"' not in text(change)
    assert "Borrowed now" in text(household) and "J0001" in text(household)
    assert add.status_code == 403  # loans are made at the desk
    client.force_login(User.objects.create_user("patron"))
    assert client.get(reverse("admin:lending_loan_changelist")).status_code == 302


def test_the_desk_lists_what_is_overdue(client, villa_copies, nowak, volunteer):
    scan(client, "L0042")
    scan(client, "J0001")
    scan(client, "J0002")
    late = timezone.localdate() - datetime.timedelta(days=3)
    Loan.objects.filter(copy__barcode="J0002").update(due_on=late)
    page = scan(client, "L0042")
    assert text(page).count("is-overdue") == 1  # the household's own list marks it
    with translation.override("en"):
        client.post(reverse("lending:desk"), {"action": "done"})
        page = client.get(reverse("lending:desk"))
    assert "1 loan is overdue." in text(page)
    assert "J0002" in text(page) and "Nowak (L0042)" in text(page)
    assert "J0001" not in text(page)
    with translation.override("pl"):
        assert "1 wypożyczenie jest po terminie." in text(client.get(reverse("lending:desk")))


def test_a_hold_at_the_desk_from_reservation_to_loan(client, villa_copies, nowak, volunteer):
    today = timezone.localdate()
    berg = Household.objects.create(
        card_number="L0043",
        name="Berg",
        member_type=nowak.member_type,
        membership_start=today - datetime.timedelta(days=1),
        membership_end=today + datetime.timedelta(days=100),
        fee_paid=True,
    )
    Member.objects.create(household=berg, first_name="Lars", last_name="Berg")
    scan(client, "L0042")
    scan(client, "J0001")
    scan(client, "J0002")
    Copy.objects.filter(barcode="J0003").update(status=CopyStatus.IN_REPAIR)
    scan(client, "L0043")
    with translation.override("en"):
        typo = client.post(
            reverse("lending:desk"), {"action": "reserve", "game": "Mono"}, follow=True
        )
        page = client.post(
            reverse("lending:desk"), {"action": "reserve", "game": "villa pal"}, follow=True
        )
    assert "No game is called Mono." in text(typo)
    assert "Villa Paletti reserved for Berg: number 1 in the queue." in text(page)
    assert "number 1 in the queue" in text(page).split("Reserved")[1]
    scan(client, "L0042")  # the Nowaks bring J0001 back
    with translation.override("en"):
        page = client.post(
            reverse("lending:desk-copy", args=["J0001"]), {"all_there": "1"}, follow=True
        )
        renewal = client.post(
            reverse("lending:desk"),
            {"action": "renew", "loan": Loan.objects.get(copy__barcode="J0002").pk},
            follow=True,
        )
    assert "Put J0001 aside for Berg (L0043)" in text(page)
    assert "reserved by another household" in text(renewal)
    page = scan(client, "J0001")  # not for the Nowaks
    assert "J0001 (Villa Paletti) is set aside for Berg until" in text(page)
    scan(client, "L0043")
    page = scan(client, "J0001")
    assert "J0001 (Villa Paletti) lent to Lars Berg" in text(page)
    assert "Nothing reserved." in text(page)


@pytest.mark.parametrize(
    "data",
    [
        {"action": "reserve"},
        {"action": "reserve", "game": "x" * 300},
        {"action": "cancel", "hold": "abc"},
        {"action": "cancel", "hold": "12"},
    ],
)
def test_hostile_holds_get_a_clear_answer(client, villa_copies, nowak, volunteer, data):
    scan(client, "L0042")
    with translation.override("en"):
        response = client.post(reverse("lending:desk"), data)
    assert response.status_code == 302
    assert client.get(response.url).status_code == 200


def test_holds_in_the_admin_are_read_only(client, villa_copies, nowak, volunteer):
    from games.lending.models import Hold

    hold = Hold.objects.create(game=villa_copies[0].game, household=nowak)
    with translation.override("en"):
        listing = client.get(reverse("admin:lending_hold_changelist"))
        change = client.get(reverse("admin:lending_hold_change", args=[hold.pk]))
    assert listing.status_code == 200 and "Nowak" in text(listing)
    assert change.status_code == 200 and 'name="game"' not in text(change)
    assert client.get(reverse("admin:lending_hold_add")).status_code == 403


def test_a_household_without_members_is_pointed_to_the_desks_own_button(
    client, villa_copies, nowak, volunteer
):
    nowak.members.all().delete()
    scan(client, "L0042")
    page = text(scan(client, "J0001"))
    assert "Nowak has no member yet: add one with “Add a member”." in page
    assert ">Add a member</a>" in page  # the button it names is on the page
    with translation.override("fr"):
        desk = reverse("lending:desk")
    page = text(client.post(desk, {"barcode": "J0001"}, follow=True))
    assert "ajoutez-en un avec le bouton «\u00a0Ajouter un membre\u00a0»" in page
    assert not Loan.objects.exists()
