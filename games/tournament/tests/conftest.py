"""A tournament of Villa Paletti with players, for the web layer's tests."""

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


@pytest.fixture
def tournament(seed):
    return Tournament.objects.create(
        game=Game.objects.get(slug="villa-paletti"),
        name="Villa Paletti afternoon",
        date=date(2026, 6, 13),
        seed=2026,
        rule_options={
            "seal_start": "blue",
            "colours": "french",
            "protest": "french",
            "abort": "polish",
        },
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


def result_for(table, *, winner=0, brought_down=None, points=None):
    """A Result naming seats by their position at the table (0-based)."""
    seats = list(table.seats.order_by("position"))
    points = points or list(range(len(seats)))
    return services.Result(
        winner=seats[winner].pk,
        brought_down=None if brought_down is None else seats[brought_down].pk,
        points={seat.pk: p for seat, p in zip(seats, points, strict=True)},
    )
