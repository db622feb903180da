import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games.models import Game, RuleSummary
from games.search import search
from games.tests.factories import make_game
from games.text import fold

pytestmark = pytest.mark.django_db


def test_fold_ignores_case_accents_and_ligatures():
    assert fold("École") == "ecole"
    assert fold("Maître d'Œuvre") == "maitre d'oeuvre"
    assert fold("Wielka Pieczęć, Łódź") == "wielka pieczec, lodz"
    assert fold("Bygmesterseglet på Ø") == "bygmesterseglet pa o"


@pytest.mark.parametrize(
    "fields",
    [
        {"min_players": 5, "max_players": 4},
        {"min_players": 0, "max_players": 4},
        {"min_age": 12, "max_age": 8},
        {"duration_minutes": 0},
    ],
)
def test_database_refuses_inconsistent_numbers(seed, fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        make_game(**fields)


def test_clean_explains_inverted_ranges(seed):
    game = Game(title="X", slug="x", min_players=5, max_players=2, min_age=10, max_age=6)
    with pytest.raises(ValidationError) as error:
        game.clean()
    assert set(error.value.message_dict) == {"max_players", "max_age"}


def test_one_summary_per_game_and_language(seed):
    game = Game.objects.get(slug="villa-paletti")
    RuleSummary.objects.create(game=game, language="da", text="## Mål")
    with pytest.raises(IntegrityError), transaction.atomic():
        RuleSummary.objects.create(game=game, language="da", text="## Igen")


def test_seed_records_carry_the_catalogue_facts(seed):
    paletti = Game.objects.get(slug="villa-paletti")
    assert (paletti.min_players, paletti.max_players) == (2, 4)
    assert (paletti.min_age, paletti.max_age, paletti.duration_minutes) == (8, 99, 30)
    assert paletti.esar.code == "A 404"
    assert paletti.esar.parent.code == "A 400"
    assert [c.person.name for c in paletti.credits.all()] == ["Bill Payne"]
    assert paletti.publisher.name == "Zoch"
    prince = Game.objects.get(slug="le-petit-prince-fabrique-moi-une-planete")
    assert [c.person.name for c in prince.credits.all()] == ["Antoine Bauza", "Bruno Cathala"]
    assert (prince.min_players, prince.max_players, prince.duration_minutes) == (2, 5, 25)
    alhambra = Game.objects.get(slug="alhambra")
    assert (alhambra.year, alhambra.max_players, alhambra.max_age) == (2003, 6, 99)
    assert alhambra.publisher.name == "Queen Games"


def test_search_text_follows_new_summaries_and_authors(seed):
    game = Game.objects.get(slug="alhambra")
    assert not search(Game.objects.all(), "bygmester").exists()
    RuleSummary.objects.create(game=game, language="da", text="Bygmesteren vinder.")
    assert list(search(Game.objects.all(), "bygmester")) == [game]
