"""Households and their members: a membership runs between its dates with its fee paid;
member types say how many games and for how long; personal data is for staff only."""

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.db import IntegrityError
from django.urls import reverse
from django.utils import translation

from games.lending.models import Household, Member, MemberType

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 12, 5)


@pytest.fixture
def family():
    kind = MemberType.objects.create(name="Famille")
    household = Household.objects.create(
        card_number=" L0042 ",
        name="Nowak",
        contact="3 rue des Jeux, 0102030405",
        language="pl",
        member_type=kind,
        membership_start=datetime.date(2026, 9, 1),
        membership_end=datetime.date(2027, 8, 31),
        fee_paid=True,
    )
    Member.objects.create(household=household, first_name="Ola", last_name="Nowak", child_age=7)
    return household


def test_a_member_type_lends_four_games_for_three_weeks_unless_set(family):
    assert (family.member_type.games_quota, family.member_type.loan_days) == (4, 21)


def test_a_membership_runs_between_its_dates_with_its_fee_paid(family):
    assert family.card_number == "L0042"  # as a scanner types it, spaces gone
    assert family.membership_current(TODAY)
    assert not family.membership_current(datetime.date(2027, 9, 1))  # lapsed
    assert not family.membership_current(datetime.date(2026, 8, 31))  # not begun
    family.fee_paid = False
    assert not family.membership_current(TODAY)


def test_a_membership_cannot_end_before_it_starts(family):
    family.membership_end = datetime.date(2026, 1, 1)
    with pytest.raises(IntegrityError):
        family.save()


def test_households_are_for_staff_only(client, family):
    url = reverse("admin:lending_household_change", args=[family.pk])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(User.objects.create_user("patron"))
    assert client.get(url).status_code == 302  # not staff: the login again
    volunteer = User.objects.create_user("vol", is_staff=True)
    volunteer.groups.add(Group.objects.get(name="Ludothécaire"))
    client.force_login(volunteer)
    with translation.override("en"):
        page = client.get(url)
    assert page.status_code == 200
    assert b"0102030405" in page.content and b"Ola" in page.content
    assert b"Nowak" not in client.get(reverse("games:home")).content
