"""Full-text search as a patron meets it, on whichever database the tests run on.

CI runs this module on SQLite (FTS5) and on PostgreSQL (tsvector, unaccent, pg_trgm).
"""

import pytest
import tablib
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from games.esar import ensure_facet_a
from games.models import Game, RuleSummary
from games.resources import GameResource
from games.search import search, suggest, word_similarity
from games.tests.factories import make_game

pytestmark = pytest.mark.django_db

PALETTI = "villa-paletti"


def found(query):
    return list(search(Game.objects.all(), query).values_list("slug", flat=True))


@pytest.fixture
def summaries(seed):
    call_command("loaddata", "fixtures/rule_summaries.json", verbosity=0)


def test_exact_title_first_then_titles_then_texts(seed):
    make_game(title="Palais", slug="palais", principle="Un jeu comme Alhambra, en plus court.")
    make_game(title="Le Jardin de l'Alhambra", slug="jardin")
    make_game(title="Alhambra : Le Duel", slug="alhambra-duel")
    assert found("alhambra") == ["alhambra", "alhambra-duel", "jardin", "palais"]


def test_last_word_is_a_prefix_for_typing(seed):
    assert found("alham") == ["alhambra"]
    assert found("petit prin") == ["le-petit-prince-fabrique-moi-une-planete"]


@pytest.mark.parametrize("query", ["planete", "PLANÈTE", "Planète"])
def test_accents_and_case_do_not_matter(seed, query):
    assert found(query) == ["le-petit-prince-fabrique-moi-une-planete"]


@pytest.mark.parametrize("query", ["paleti", "palleti", "Vila Paletti", "alhambar"])
def test_a_typo_in_a_title_still_finds_the_game(seed, query):
    expected = "alhambra" if query == "alhambar" else PALETTI
    assert found(query)[:1] == [expected]


def test_look_alikes_rank_by_their_look_then_by_how_much_the_words_weigh(seed):
    """No game holds "hemmelihed": the titles that look most like the query come first,
    and of two that look the same, the game whose text says the words most."""
    make_game(title="Troldenes hemmeligheder", slug="troldenes-hemmeligheder")
    make_game(title="Troldens hemmelighed", slug="troldens-hemmelighed")
    make_game(
        title="Troldens hemmelighed",
        slug="troldens-hemmelighed-2",
        rules="Trolden gemmer hemmeligheden; hvem finder troldens hemmelighed først?",
    )
    assert found("troldens hemmelihed") == [
        "troldens-hemmelighed-2",
        "troldens-hemmelighed",
        "troldenes-hemmeligheder",
    ]


def test_a_word_without_a_near_title_finds_nothing(seed):
    assert found("xylophone") == []
    assert found("paletti alhambra") == []


@pytest.mark.parametrize("query", ["søjle", "sojle", "SØJLERNE", "kolumna", "kolumnę"])
def test_danish_and_polish_words_find_games_through_their_summaries(summaries, query):
    assert found(query) == [PALETTI]


def test_search_follows_an_admin_edit(client, seed):
    client.force_login(User.objects.create_superuser("root", password="x"))
    game = Game.objects.get(slug="alhambra")
    assert found("kalifat") == []
    data = {
        "title": game.title,
        "slug": game.slug,
        "document_type": game.document_type,
        "publisher": game.publisher_id,
        "year": game.year,
        "languages": list(game.languages.values_list("pk", flat=True)),
        "esar": game.esar_id,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "min_age": game.min_age,
        "max_age": "",
        "duration_minutes": game.duration_minutes,
        "principle": "Bâtir le plus bel Alhambra du Kalifat.",
        "pedagogical_analysis": "",
        "rules": "",
        "contents": "",
        "ean": "",
        "bgg_id": "",
        "credits-TOTAL_FORMS": 0,
        "credits-INITIAL_FORMS": 0,
        "content_items-TOTAL_FORMS": 0,
        "content_items-INITIAL_FORMS": 0,
        "copies-TOTAL_FORMS": 0,
        "copies-INITIAL_FORMS": 0,
        "summaries-TOTAL_FORMS": 1,
        "summaries-INITIAL_FORMS": 0,
        "summaries-0-language": "da",
        "summaries-0-text": "Byg det smukkeste palæ.",
    }
    response = client.post(reverse("admin:games_game_change", args=[game.pk]), data)
    assert response.status_code == 302, response.context and response.context["errors"]
    assert found("kalifat") == ["alhambra"]
    assert found("palæ") == ["alhambra"]


def test_search_follows_a_csv_import(seed):
    csv_text = (
        GameResource().export().csv.replace("Villa Paletti", "Villa Paletti Jubilæumsudgave", 1)
    )
    result = GameResource().import_data(tablib.Dataset().load(csv_text, format="csv"))
    assert not result.has_errors()
    assert found("jubilaeumsudgave") == [PALETTI]


def test_search_follows_a_fixture_load(db):
    ensure_facet_a()
    call_command("loaddata", "fixtures/games.json", verbosity=0)
    assert found("payne") == [PALETTI]  # a person, loaded after the game
    assert found("zoch") == [PALETTI]
    call_command("loaddata", "fixtures/rule_summaries.json", verbosity=0)
    assert found("kolumna") == [PALETTI]


def test_search_forgets_what_was_removed(summaries):
    RuleSummary.objects.filter(game__slug=PALETTI, language="da").delete()
    assert found("søjle") == []
    Game.objects.filter(slug="alhambra").delete()
    assert found("alhambra") == []


def test_typo_similarity_matches_pg_trgm_on_words():
    assert word_similarity("paleti", "villa paletti") == pytest.approx(6 / 9)
    assert word_similarity("palleti", "villa paletti") == pytest.approx(5 / 11)  # as pg_trgm
    assert word_similarity("xyz", "villa paletti") == 0


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("troldens hemmelihed", "troldens hemmelighed"),
        ("troldens hemmelihed", "troldenes hemmeligheder"),
        ("vila paletti", "villa paletti"),
        ("chateu dragon", "le chateau des dragons"),
        ("zamek smok", "zamek smoka i rycerza"),
        ("palleti", "villa paletti"),
    ],
)
def test_the_database_measures_a_titles_look_as_pg_trgm_does(query, title):
    """On PostgreSQL, pg_trgm's own function; on SQLite, the one registered for it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT strict_word_similarity(%s, %s)", [query, title])
        (measured,) = cursor.fetchone()
    assert measured == pytest.approx(word_similarity(query, title), abs=1e-6)
    assert 0 < measured < 1


def test_suggestions_complete_titles_and_forgive_typos(seed):
    make_game(title="Palettes et pinceaux", slug="palettes")
    assert [s["slug"] for s in suggest("pal")] == ["palettes", PALETTI]
    assert "Villa Paletti" in [s["title"] for s in suggest("paleti")]
    assert [s["slug"] for s in suggest("fabrique")] == ["le-petit-prince-fabrique-moi-une-planete"]
    assert suggest("") == [] and suggest("'") == []


def test_suggestions_name_each_title_once_however_many_copies(seed):
    for n in range(40):
        make_game(title="Troldens have", slug=f"troldens-have-{n}")
    make_game(title="Troldens hemmelighed", slug="troldens-hemmelighed")
    make_game(title="Le Trésor des trolls", slug="tresor-trolls")
    assert [s["title"] for s in suggest("trol")] == [
        "Troldens have",
        "Troldens hemmelighed",
        "Le Trésor des trolls",
    ]
