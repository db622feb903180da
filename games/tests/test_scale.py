"""A large catalogue: counts that stop at 1 000, and a fixed number of queries per page."""

import re
from unittest import mock

import pytest
from django.core.cache import caches
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games.generate import generate_catalogue
from games.models import EsarCategory, Game
from games.pagination import StatementMemo
from games.tests.factories import make_game

pytestmark = pytest.mark.django_db


def queries(client, url, params=None):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params or {})
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize(
    ("params", "api_params"),
    [({}, {}), ({"q": "cartes", "players": 3}, {"q": "kort"})],
)
def test_query_counts_do_not_grow_with_the_catalogue(client, seed, params, api_params):
    generate_catalogue(games=7, seed=1)
    for name, p in (("games:game-list", params), ("api:game-list", api_params)):
        client.get(reverse(name), p)  # PostgreSQL then knows the words' lexemes
        caches["pages"].clear()
    small = {
        name: queries(client, reverse(name), p)
        for name, p in (("games:game-list", params), ("api:game-list", api_params))
    }
    generate_catalogue(games=993, seed=2)
    large = {
        name: queries(client, reverse(name), p)
        for name, p in (("games:game-list", params), ("api:game-list", api_params))
    }
    assert large == small


def test_beyond_a_thousand_matches_the_count_says_more_than(client, seed):
    generate_catalogue(games=1001, seed=1)
    with translation.override("fr"):
        response = client.get(reverse("games:game-list"))
    assert response.context["count_capped"] is True
    assert re.search(r"Plus de 1\W000 jeux", response.content.decode())
    assert 'rel="next"' in response.content.decode()
    # Going deeper counts further: the last page is reached and the count is then exact.
    deep = client.get(reverse("games:game-list"), {"page": 84})
    assert deep.context["page_obj"].number == 84
    assert not deep.context["page_obj"].has_next()
    assert (deep.context["count"], deep.context["count_capped"]) == (1004, False)
    body = client.get(reverse("api:game-list")).json()
    assert (body["count"], body["count_capped"]) == (1000, True)
    few = client.get(reverse("api:game-list"), {"players": 1, "q": "paletti"}).json()
    assert (few["count"], few["count_capped"]) == (0, False)


def test_past_two_hundred_matches_the_newest_come_first(client, seed):
    generate_catalogue(games=210, seed=1)
    ranked = client.get(reverse("games:game-list"), {"q": "joueur"}).context
    assert ranked["count"] > 200
    newest = ranked["games"][0]
    assert newest.pk == max(g.pk for g in Game.objects.matching("joueur", rank=False))
    # A sort the patron chose is kept.
    by_title = client.get(reverse("games:game-list"), {"q": "joueur", "ordering": "title"})
    titles = [game.title for game in by_title.context["games"]]
    assert titles == sorted(titles)


@pytest.mark.parametrize("params", [{}, {"players": 4}, {"players": 4, "age": 8}])
def test_a_text_search_with_filters_counts_what_both_keep(client, seed, params):
    generate_catalogue(games=60, seed=3)
    expected = Game.objects.matching("joueur", rank=False)
    if "players" in params:
        expected = expected.playable_by(4)
    if "age" in params:
        expected = expected.suitable_for_age(8)
    body = client.get(reverse("api:game-list"), {"q": "joueur", **params}).json()
    assert 0 < body["count"] == expected.count()
    shown = {game["slug"] for game in body["results"]}
    assert shown <= set(expected.values_list("slug", flat=True))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's search")
@pytest.mark.parametrize(("games", "params"), [(60, {}), (60, {"players": 4}), (1001, {})])
def test_postgresql_evaluates_a_text_search_once_for_count_and_page(client, seed, games, params):
    generate_catalogue(games=games, seed=3)
    url = reverse("api:game-list")
    client.cookies["sessionid"] = "a-visitor-with-a-session"  # not the page cache's answer
    client.get(url, {"q": "joueur", **params})  # the words' lexemes are then known
    with CaptureQueriesContext(connection) as captured:
        body = client.get(url, {"q": "joueur", **params}).json()
    searches = [q["sql"] for q in captured if "search_terms @@" in q["sql"]]
    # With at most 1 000 matches the page is read by id; beyond, the page of the newest
    # matches evaluates the search as it walks, but the count does not.
    assert len(searches) == (1 if body["count"] < 1000 else 2), searches
    assert len(captured) == 3  # the ids, the page, its languages


def _listed(client, params):
    client.cookies["sessionid"] = "a-visitor-with-a-session"  # past the page cache
    response = client.get(reverse("games:game-list"), params)
    assert response.status_code == 200
    return response.context["count"], [game.title for game in response.context["games"]]


def test_a_repeated_list_page_shows_what_the_catalogue_holds_now(client, seed):
    generate_catalogue(games=30, seed=4)
    count, titles = _listed(client, {"players": 4})
    make_game(title="Aaa, le premier", slug="aaa", min_players=2, max_players=6)
    make_game(title="Aab, pour deux", slug="aab", min_players=2, max_players=2)
    again, titles_again = _listed(client, {"players": 4})
    assert again == count + 1
    assert titles_again[0] == "Aaa, le premier"
    assert titles_again[1:] == titles[:-1]
    # The next page of the same filters is its own.
    _, second = _listed(client, {"players": 4, "page": 2})
    assert second[0] == titles[-1]


def test_a_category_filter_follows_a_new_subcategory(client, seed):
    _listed(client, {"esar": "A 400"})
    parent = EsarCategory.objects.get(code="A 400")
    child = EsarCategory.objects.create(code="A 499", parent=parent, family="A", label_fr="Essai")
    make_game(title="Jeu de la nouvelle catégorie", slug="nouvelle", esar=child)
    count, titles = _listed(client, {"esar": "A 400"})
    assert "Jeu de la nouvelle catégorie" in titles
    assert count == Game.objects.filter(esar__code__in=["A 400", "A 404", "A 499"]).count()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement on PostgreSQL")
def test_a_repeated_list_page_writes_no_sql_again(client, seed):
    """The count-and-page statement of a list page is written once per process for its
    parameters: cloning and compiling its queries was a tenth of an uncached page."""
    url = reverse("games:game-list")
    client.cookies["sessionid"] = "a-visitor-with-a-session"  # past the page cache
    first = client.get(url, {"players": 3, "ordering": "-year"}).content
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True, side_effect=SQLCompiler.as_sql):
        with CaptureQueriesContext(connection) as captured:
            again = client.get(url, {"players": 3, "ordering": "-year"}).content
        assert SQLCompiler.as_sql.call_count == 0
    assert len(captured) == 1
    assert again == first
    # Other parameters, another statement.
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True, side_effect=SQLCompiler.as_sql):
        client.get(url, {"players": 3, "ordering": "year"})
        assert SQLCompiler.as_sql.call_count > 0


def test_written_statements_are_bounded():
    memo = StatementMemo(3)
    for n in range(10):
        memo.put(("key", n), ("SELECT %s", (n,)))
        assert len(memo.statements) <= 3
    assert memo.get(("key", 9)) == ("SELECT %s", (9,))


@pytest.mark.parametrize("ordering", ["", "-title", "duration", "-players", "age", "-year"])
def test_paging_through_a_sort_shows_every_game_once(client, seed, ordering):
    # Many games equal in every sort (a few durations, ages, years), copies of one title.
    generate_catalogue(games=150, seed=5)
    for n in range(5):
        make_game(title="Villa Paletti", slug=f"villa-paletti-{n}")
    expected = set(Game.objects.values_list("slug", flat=True))
    client.cookies["sessionid"] = "a-visitor-with-a-session"
    listed, page = [], 1
    while True:
        response = client.get(reverse("games:game-list"), {"ordering": ordering, "page": page})
        listed += [game.slug for game in response.context["games"]]
        if not response.context["page_obj"].has_next():
            break
        page += 1
    assert sorted(listed) == sorted(expected)
    api, url = [], reverse("api:game-list") + f"?ordering={ordering}&page_size=7"
    while url:
        body = client.get(url).json()
        api += [game["slug"] for game in body["results"]]
        url = body["next"]
    assert sorted(api) == sorted(expected)


@pytest.mark.parametrize(
    ("ordering", "minutes", "expected"),
    [
        ("duration", 7, ["Abeille", "Mouton", "Zèbre"]),
        # "Longest first" is "Shortest first" reversed, ties included.
        ("-duration", 500, ["Zèbre", "Mouton", "Abeille"]),
    ],
)
def test_games_equal_in_the_chosen_sort_are_listed_by_title(
    client, seed, ordering, minutes, expected
):
    # Shorter or longer than the seed games, catalogued neither from A nor from Z.
    for slug, title in (("mouton", "Mouton"), ("zebre", "Zèbre"), ("abeille", "Abeille")):
        make_game(title=title, slug=slug, duration_minutes=minutes)
    assert _listed(client, {"ordering": ordering})[1][:3] == expected
    api = client.get(reverse("api:game-list"), {"ordering": ordering}).json()["results"]
    assert [game["title"] for game in api[:3]] == expected
