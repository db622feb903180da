"""What the catalogue's filters mean, at their edges."""

import pytest

from games.models import Game
from games.search import search
from games.tests.factories import make_game

pytestmark = pytest.mark.django_db

PALETTI = "villa-paletti"
PRINCE = "le-petit-prince-fabrique-moi-une-planete"
ALHAMBRA = "alhambra"


def slugs(queryset):
    return sorted(queryset.values_list("slug", flat=True))


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (1, []),
        (2, [ALHAMBRA, PRINCE, PALETTI]),
        (4, [ALHAMBRA, PRINCE, PALETTI]),
        (5, [ALHAMBRA, PRINCE]),
        (6, [ALHAMBRA]),
        (7, []),
    ],
)
def test_playable_by_means_min_le_n_le_max(seed, players, expected):
    assert slugs(Game.objects.playable_by(players)) == sorted(expected)


@pytest.mark.parametrize(
    ("age", "expected"),
    [
        (7, []),
        (8, [ALHAMBRA, PRINCE, PALETTI]),
        (99, [ALHAMBRA, PRINCE, PALETTI]),
        (100, []),
    ],
)
def test_suitable_for_age_respects_both_bounds(seed, age, expected):
    assert slugs(Game.objects.suitable_for_age(age)) == sorted(expected)


def test_within_minutes(seed):
    assert slugs(Game.objects.within_minutes(24)) == []
    assert slugs(Game.objects.within_minutes(25)) == [PRINCE]
    assert slugs(Game.objects.within_minutes(60)) == sorted([ALHAMBRA, PRINCE, PALETTI])


def test_esar_by_family_category_and_descriptor(seed):
    assert slugs(Game.objects.in_esar("R")) == sorted([ALHAMBRA, PRINCE, PALETTI])
    assert slugs(Game.objects.in_esar("A 400")) == sorted([ALHAMBRA, PRINCE, PALETTI])
    assert slugs(Game.objects.in_esar("A 404")) == [PALETTI]
    assert slugs(Game.objects.in_esar("E")) == []
    assert slugs(Game.objects.in_esar("Z 999")) == []


def test_language_of_the_material(seed):
    make_game(title="Spil", slug="spil")
    assert slugs(Game.objects.in_language("fr")) == sorted([ALHAMBRA, PRINCE, PALETTI])
    assert slugs(Game.objects.in_language("da")) == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("ecole", ["ecole-des-sorciers"]),
        ("ÉCOLE", ["ecole-des-sorciers"]),
        ("paletti", [PALETTI]),
        ("maitre d'oeuvre", [PALETTI]),
        ("edifices", [ALHAMBRA]),
        ("Bauza planete", [PRINCE]),
        ("Cathala", [PRINCE]),
        ("zoch", [PALETTI]),
        ("paletti alhambra", []),
    ],
)
def test_text_search_ignores_accents_and_needs_every_word(seed, query, expected):
    make_game(title="L'École des sorciers", slug="ecole-des-sorciers")
    assert slugs(search(Game.objects.all(), query)) == sorted(expected)
