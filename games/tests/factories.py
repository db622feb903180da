"""Deterministic builders for records the seed data does not have."""

from itertools import count

from games.models import EsarCategory, Game

_serial = count(1)


def make_game(**fields):
    """A valid game; every field can be overridden."""
    n = next(_serial)
    esar = fields.pop("esar", None) or EsarCategory.objects.get(code="A 400")
    values = {
        "title": f"Jeu d'essai {n}",
        "slug": f"jeu-essai-{n}",
        "min_players": 2,
        "max_players": 4,
        "min_age": 6,
        "max_age": None,
        "duration_minutes": 20,
        "esar": esar,
    }
    values.update(fields)
    return Game.objects.create(**values)
