"""Households kept at the desk: a new one (at the desk once saved, its fee charged once),
a card already taken refused, an end before the start refused, its details edited, its
membership renewed in one click (the fee charged once), a member added; none of it for a
user without the desk's permission."""

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone, translation

from games.lending.desk_households import one_year_on
from games.lending.ledger import LedgerKind, balances
from games.lending.models import Household, Member, MemberType
from games.lending.tests.test_circulation import make_household

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fee(settings):
    settings.LENDING_MEMBERSHIP_FEE = Decimal("20.00")
    settings.LENDING_OPENING_WEEKDAYS = []


@pytest.fixture
def family(db):
    return MemberType.objects.create(name="Famille", games_quota=4, loan_days=21)


def url(name):
    with translation.override("en"):
        return reverse(f"lending:{name}")


def new_household(client, family, **changes):
    today = timezone.localdate()
    data = {
        "household-name": "Kowalski",
        "household-card_number": "L0100",
        "household-contact": "ul. Długa 3",
        "household-email": "kowalski@example.org",
        "household-language": "pl",
        "household-member_type": family.pk,
        "household-membership_start": today.isoformat(),
        "household-membership_end": one_year_on(today).isoformat(),
        "household-fee_paid": "on",
        "member-first_name": "Zofia",
        "member-last_name": "Kowalska",
        "member-child_age": "",
    }
    data.update(changes)
    data = {key: value for key, value in data.items() if value is not None}
    return client.post(url("household-new"), data, follow=True)


def fees(household):
    return household.ledger_entries.filter(kind=LedgerKind.FEE).count()


def test_the_desk_offers_a_new_household_when_no_one_is_there(client, volunteer):
    page = client.get(url("desk")).content.decode()
    assert url("household-new") in page
    form = client.get(url("household-new")).content.decode()
    today = timezone.localdate()
    assert f'value="{today.isoformat()}"' in form  # starts today…
    assert f'value="{one_year_on(today).isoformat()}"' in form  # …for a year


def test_a_new_household_is_at_the_desk_with_its_member_and_its_fee_paid(client, volunteer, family):
    response = new_household(client, family)
    household = Household.objects.get(card_number="L0100")
    assert household.language == "pl" and household.fee_paid
    assert [m.first_name for m in household.members.all()] == ["Zofia"]
    page = response.content.decode()
    assert "Kowalski" in page and "L0100" in page and "Borrowed now" in page  # at the desk
    assert "Zofia Kowalska" in page  # the member who borrows
    assert fees(household) == 1
    assert balances(household)["balance"] == Decimal("0.00")  # charged and paid


def test_a_new_household_whose_fee_is_not_paid_owes_it(client, volunteer, family):
    new_household(client, family, **{"household-fee_paid": None})
    household = Household.objects.get(card_number="L0100")
    assert not household.fee_paid
    assert balances(household)["balance"] == Decimal("20.00")


def test_a_card_already_given_is_refused_and_nothing_is_saved(client, volunteer, family):
    make_household(card="L0100", name="Nowak")
    response = new_household(client, family, **{"household-card_number": " L0100 "})
    assert response.status_code == 200
    assert "The card L0100 is already given to Nowak." in response.content.decode()
    assert not Household.objects.filter(name="Kowalski").exists()
    assert not Member.objects.filter(first_name="Zofia").exists()


def test_a_membership_ending_before_it_starts_is_refused(client, volunteer, family):
    today = timezone.localdate()
    yesterday = (today - datetime.timedelta(days=1)).isoformat()
    response = new_household(client, family, **{"household-membership_end": yesterday})
    assert "The membership cannot end before it starts." in response.content.decode()
    assert not Household.objects.exists()


def test_a_new_household_without_its_first_member_is_refused(client, volunteer, family):
    response = new_household(client, family, **{"member-first_name": ""})
    assert "Correct what is marked below." in response.content.decode()
    assert not Household.objects.exists()


def test_the_household_at_the_desk_is_edited_without_charging_again(client, volunteer, family):
    new_household(client, family)
    household = Household.objects.get(card_number="L0100")
    form = client.get(url("household-edit")).content.decode()
    assert 'value="Kowalski"' in form and "member-first_name" not in form
    client.post(
        url("household-edit"),
        {
            "household-name": "Kowalscy",
            "household-card_number": "L0100",
            "household-contact": "ul. Krótka 5",
            "household-email": "",
            "household-language": "pl",
            "household-member_type": family.pk,
            "household-membership_start": household.membership_start.isoformat(),
            "household-membership_end": household.membership_end.isoformat(),
            "household-fee_paid": "on",
        },
    )
    household.refresh_from_db()
    assert (household.name, household.contact, household.email) == ("Kowalscy", "ul. Krótka 5", "")
    assert fees(household) == 1  # the same period: no second fee


def test_renewing_early_adds_a_year_from_the_old_end_and_charges_the_fee_once(client, volunteer):
    today = timezone.localdate()
    end = today + datetime.timedelta(days=10)
    household = make_household(start=today - datetime.timedelta(days=355), end=end).household
    client.post(url("desk"), {"barcode": household.card_number})
    client.post(url("household-renew"))
    household.refresh_from_db()
    assert household.membership_end == one_year_on(end)
    assert household.membership_current()  # still borrowing meanwhile
    assert fees(household) == 1
    assert balances(household)["balance"] == Decimal("20.00")  # the new period's fee owed
    client.post(url("household-renew"), {"paid_now": "on"})  # and again: a year more
    household.refresh_from_db()
    assert household.membership_end == one_year_on(one_year_on(end))
    assert fees(household) == 2
    assert balances(household)["balance"] == Decimal("20.00")  # the second one paid


def test_renewing_a_lapsed_membership_starts_today(client, volunteer):
    today = timezone.localdate()
    household = make_household(
        start=today - datetime.timedelta(days=400), end=today - datetime.timedelta(days=35)
    ).household
    client.post(url("desk"), {"barcode": household.card_number})
    response = client.post(url("household-renew"), {"paid_now": "on"}, follow=True)
    household.refresh_from_db()
    assert (household.membership_start, household.membership_end) == (today, one_year_on(today))
    assert household.membership_current()
    assert fees(household) == 1 and balances(household)["balance"] == Decimal("0.00")
    assert "membership not current" not in response.content.decode()


def test_a_member_is_added_and_borrows_next(client, volunteer):
    household = make_household().household
    client.post(url("desk"), {"barcode": household.card_number})
    response = client.post(
        url("member-new"),
        {"member-first_name": "Kuba", "member-last_name": "Nowak", "member-child_age": "9"},
        follow=True,
    )
    kuba = household.members.get(first_name="Kuba")
    assert kuba.child_age == 9
    assert f'<option value="{kuba.pk}" selected>' in response.content.decode()


@pytest.mark.parametrize("name", ["household-new", "household-edit", "member-new"])
def test_without_the_desk_permission_nothing_is_shown_nor_saved(client, family, name):
    staff = User.objects.create_user("clerk", is_staff=True)
    client.force_login(staff)
    assert client.get(url(name)).status_code == 403
    assert new_household(client, family).status_code == 403
    assert client.post(url("household-renew")).status_code == 403
    assert not Household.objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in(client, family):
    response = client.get(url("household-new"))
    assert response.status_code == 302 and "login" in response["Location"]
    new_household(client, family)
    assert not Household.objects.exists()


def test_renewing_with_no_household_at_the_desk_changes_nothing(client, volunteer):
    household = make_household().household
    end = household.membership_end
    response = client.post(url("household-renew"))
    assert response.status_code == 302
    household.refresh_from_db()
    assert household.membership_end == end and fees(household) == 0


def test_a_child_age_beyond_any_life_is_refused(client, volunteer, family):
    response = new_household(client, family, **{"member-child_age": "9999"})
    assert response.status_code == 200
    assert not Household.objects.exists()


def test_a_membership_ending_in_the_last_year_of_the_calendar_is_not_extended(client, volunteer):
    household = make_household(end=datetime.date(9999, 12, 31)).household
    client.post(url("desk"), {"barcode": household.card_number})
    response = client.post(url("household-renew"), follow=True)
    assert "This membership cannot be extended further." in response.content.decode()
    assert fees(household) == 0


def test_the_new_household_page_speaks_french(client, volunteer, family):
    with translation.override("fr"):
        page = client.get(reverse("lending:household-new")).content.decode()
    assert "Nouveau foyer" in page and "Créer le foyer" in page


@pytest.mark.parametrize(
    "field, value",
    [
        ("household-member_type", "99999999999999999999999"),
        ("household-member_type", "x"),
        ("household-membership_start", "0000-01-01"),
        ("household-membership_end", "9999-99-99"),
        ("household-language", "xx"),
        ("household-card_number", "L" * 51),
        ("household-name", "Kowal\x00ski"),
        ("member-child_age", "-1"),
    ],
)
def test_hostile_input_is_refused_with_a_form_not_a_crash(client, volunteer, family, field, value):
    response = new_household(client, family, **{field: value})
    if "\x00" in value:  # the site refuses a NUL character in any request
        assert response.status_code == 400
    else:
        assert response.status_code == 200
        assert "Correct what is marked below." in response.content.decode()
    assert not Household.objects.exists()
