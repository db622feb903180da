"""A tournament of a game without table rules of its own (Alhambra, from the seed data):
the plain rules, whose result is the placing order. What a game's own rules change is
tested beside those rules, in the game's own app."""

from datetime import date

import pytest
from django.contrib.auth.models import Permission, User

from games.models import Game
from games.tournament import services
from games.tournament.models import Tournament

NAMES = [
    "Ada", "Bruno", "Chloé", "Dorota", "Emil", "Frida", "Gustav", "Hanna", "Igor", "Jeanne",
    "Kasper", "Lena", "Marek", "Nora", "Oskar", "Paulina",
]  # fmt: skip
GAME = "alhambra"


@pytest.fixture
def tournament(seed):
    return Tournament.objects.create(
        game=Game.objects.get(slug=GAME),
        name="Alhambra afternoon",
        date=date(2026, 6, 13),
        seed=2026,
    )


def register(tournament, count, *, start=0):
    return [
        services.register(tournament=tournament, name=NAMES[i], age=8 + 3 * i)
        for i in range(start, start + count)
    ]


@pytest.fixture
def staff(db):
    user = User.objects.create_user("desk", password="desk-pass-1", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="tournament",
            codename__in=["view_tournament", "add_tournament", "change_tournament", "change_table"],
        )
    )
    return user


def result_for(table, *, places=None):
    """A Result placing the seats in the order given, by position at the table (the
    first seat first unless told)."""
    seats = list(table.seats.order_by("position"))
    places = places or list(range(1, len(seats) + 1))
    return services.Result(places={seat.pk: p for seat, p in zip(seats, places, strict=True)})
