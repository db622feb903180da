"""Fixtures the lending tests share: the seed games' contents, a household, a volunteer."""

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command

from games.models import Game


@pytest.fixture
def contents(seed):
    call_command("loaddata", "fixtures/contents.json", verbosity=0)


@pytest.fixture
def villa(contents):
    return Game.objects.get(slug="villa-paletti")


@pytest.fixture
def ola(db):
    """Ola of the Nowak household (4 games for 21 days, membership current, fee paid)."""
    from games.lending.tests.test_circulation import make_household

    return make_household()


@pytest.fixture
def desk_user(db):
    return User.objects.create_user("desk")


@pytest.fixture
def volunteer(client):
    """A volunteer of the Ludothécaire group, signed in on `client`."""
    user = User.objects.create_user("vol", is_staff=True)
    user.groups.add(Group.objects.get(name="Ludothécaire"))
    client.force_login(user)
    return user
