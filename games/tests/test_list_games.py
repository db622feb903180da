"""The catalogue's list (``list_games``): what its count and its pages say is what the list
page and the API show, and a count that stops at 1 000 says so everywhere."""

import re

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games.esar import ensure_facet_a
from games.generate import generate_catalogue
from games.models import CatalogueVersion, Game
from games.search import best_first, search
from games.selectors import list_games
from games.tests.factories import make_game

pytestmark = pytest.mark.django_db

SEED_GAMES = {"villa-paletti", "alhambra", "le-petit-prince-fabrique-moi-une-planete"}


def slugs(games):
    return [game.slug for game in games]


def test_a_search_lists_and_counts_what_the_page_and_the_api_show(client, seed):
    generate_catalogue(games=40, seed=2)
    for query in ("joueurs", "paletti", "paleti", "xqzwv"):
        games = list_games(q=query, per_page=12)
        page = client.get(reverse("games:game-list"), {"q": query})
        assert page.context["count"] == games.count(), query
        assert slugs(page.context["games"]) == slugs(games[0:12]), query
        body = client.get(reverse("api:game-list"), {"q": query}).json()
        assert (body["count"], body["count_capped"]) == (games.count(), False), query
        assert [game["slug"] for game in body["results"]] == slugs(games[0:20]), query
    assert list_games(q="paleti", per_page=12)[0].slug == "villa-paletti"  # a typo
    assert list_games(q="xqzwv", per_page=12).count() == 0


def test_the_filters_narrow_the_games_before_the_search_counts_them(seed):
    generate_catalogue(games=60, seed=3)
    expected = search(Game.objects.all(), "joueur").playable_by(4).suitable_for_age(8)
    games = list_games(q="joueur", players=4, age=8, per_page=20)
    assert 0 < games.count() == expected.count()
    assert set(slugs(games[0:100])) == set(expected.values_list("slug", flat=True))


def test_a_sort_asked_for_replaces_the_relevance(seed):
    generate_catalogue(games=60, seed=3)
    ranked = list_games(q="joueur", per_page=20)
    by_title = list_games(q="joueur", ordering=["title"], per_page=20)
    assert by_title.count() == ranked.count()
    titles = [game.title for game in by_title[0:20]]
    assert titles == sorted(titles) and titles != [game.title for game in ranked[0:20]]
    longest = list_games(q="joueur", ordering=["-duration"], per_page=20)[0:20]
    assert [g.duration_minutes for g in longest] == sorted(
        (g.duration_minutes for g in longest), reverse=True
    )


def test_the_count_of_a_list_without_words_is_kept_until_the_catalogue_changes(seed):
    version = CatalogueVersion.current().version
    assert list_games(players=4, per_page=12, version=version).count() == 3
    with CaptureQueriesContext(connection) as queries:
        again = list_games(players=4, per_page=12, version=version)
        assert (again.count(), again.count_capped) == (3, False)
    assert queries.captured_queries == []  # kept: paging through a filter counts once
    make_game(title="Aaa, pour quatre", slug="aaa", min_players=2, max_players=6)
    changed = CatalogueVersion.current().version
    assert changed != version
    assert list_games(players=4, per_page=12, version=changed).count() == 4
    # Other filters are other counts.
    assert list_games(players=6, per_page=12, version=changed).count() == 2


def test_a_count_is_kept_only_for_the_whole_catalogue(seed):
    with pytest.raises(ValueError):
        list_games(games=Game.objects.none(), per_page=12, version=1)


@pytest.fixture(scope="class")
def over_a_thousand(django_db_setup, django_db_blocker):
    """The seed games with their rule summaries among 1 100 generated games (every one says
    "joueurs"), made once for the class and rolled back after it (as test_scale.py's)."""
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        patch.setattr("games.signals.on_commit", lambda callback: callback())
        with transaction.atomic():
            ensure_facet_a()  # the ESAR vocabulary (conftest.py's seed fixture)
            call_command(
                "loaddata",
                "fixtures/games.json",
                "fixtures/rule_summaries.json",
                verbosity=0,
            )
            generate_catalogue(games=1100, seed=1)
            yield
            transaction.set_rollback(True)


@pytest.mark.usefixtures("over_a_thousand")
class TestOverAThousand:
    def test_a_list_of_more_than_a_thousand_says_more_than_on_the_page_and_in_the_api(self, client):
        for params in ({}, {"q": "joueurs"}):
            games = list_games(**params, per_page=12)
            assert (games.count(), games.count_capped) == (1000, True), params
            with translation.override("fr"):
                page = client.get(reverse("games:game-list"), params)
            assert (page.context["count"], page.context["count_capped"]) == (1000, True)
            assert re.search(r"Plus de 1\W000 jeux", page.content.decode())
            assert slugs(page.context["games"]) == slugs(games[0:12]), params
            body = client.get(reverse("api:game-list"), params).json()
            assert (body["count"], body["count_capped"]) == (1000, True), params
            assert [g["slug"] for g in body["results"]] == slugs(games[0:20]), params

    def test_a_deep_page_counts_on_to_the_last_game(self, client):
        matches = search(Game.objects.all(), "joueurs", rank=False).count()
        assert matches > 1000
        last = (matches + 11) // 12
        games = list_games(q="joueurs", page=last, per_page=12)
        assert (games.count(), games.count_capped) == (matches, False)
        page = client.get(reverse("games:game-list"), {"q": "joueurs", "page": last})
        assert (page.context["count"], page.context["count_capped"]) == (matches, False)
        assert not page.context["page_obj"].has_next()
        assert slugs(page.context["games"]) == slugs(games[(last - 1) * 12 : matches])
        # A page that is no number is the first one, as the paginator reads it.
        assert list_games(q="joueurs", page="abc", per_page=12).count_capped

    # "jeu" is in every game, and weighs much only in the seed games' long rules: the best
    # part is theirs, then come the other matches, newest first.
    def test_the_best_matches_come_first_then_the_others_newest_first_in_any_pages(self, client):
        games = list_games(q="jeu", per_page=100)
        listed = [game.pk for game in games]
        matches = search(Game.objects.all(), "jeu", rank=False)
        assert sorted(listed) == sorted(matches.values_list("pk", flat=True))
        assert set(slugs(games[0:3])) == SEED_GAMES
        assert listed[3:] == sorted(listed[3:], reverse=True)
        # Pages of 7 and the API's pages of 100 read the same list, each game once.
        sevens = [
            game.pk for start in range(0, len(listed), 7) for game in games[start : start + 7]
        ]
        assert sevens == listed
        api, url = [], reverse("api:game-list") + "?q=jeu&page_size=100"
        while url:
            body = client.get(url).json()
            api += [game["slug"] for game in body["results"]]
            url = body["next"]
        by_id = Game.objects.in_bulk(listed)
        assert api == [by_id[pk].slug for pk in listed]

    def test_an_api_page_across_both_parts_reads_its_games_languages_once(self, client):
        best, _others = best_first(Game.objects.all(), "jeu")
        assert best.count() == 3  # the first page holds the best and the first others
        with CaptureQueriesContext(connection) as queries:
            body = client.get(reverse("api:game-list"), {"q": "jeu", "page_size": 100}).json()
        assert {game["slug"] for game in body["results"][:3]} == SEED_GAMES
        assert len(body["results"]) == 100
        languages = [q for q in queries if "games_game_languages" in q["sql"]]
        assert len(languages) == 1
