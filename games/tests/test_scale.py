"""A large catalogue: counts that stop at 1 000, and a fixed number of queries per page."""

import re

import pytest
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import translation

from games.esar import ensure_facet_a
from games.generate import generate_catalogue
from games.models import EsarCategory, Game
from games.search import search
from games.tests.factories import make_game

pytestmark = pytest.mark.django_db


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


def test_a_search_beyond_a_thousand_matches_says_more_than_and_a_deep_page_counts_on(client, seed):
    generate_catalogue(games=1001, seed=1)
    matches = search(Game.objects.all(), "joueurs", rank=False).count()
    assert matches > 1000
    with translation.override("fr"):
        response = client.get(reverse("games:game-list"), {"q": "joueurs"})
    assert (response.context["count"], response.context["count_capped"]) == (1000, True)
    assert re.search(r"Plus de 1\W000 jeux", response.content.decode())
    assert 'rel="next"' in response.content.decode()
    last = (matches + 11) // 12
    deep = client.get(reverse("games:game-list"), {"q": "joueurs", "page": last})
    assert deep.context["page_obj"].number == last
    assert not deep.context["page_obj"].has_next()
    assert (deep.context["count"], deep.context["count_capped"]) == (matches, False)
    body = client.get(reverse("api:game-list"), {"q": "joueurs"}).json()
    assert (body["count"], body["count_capped"], len(body["results"])) == (1000, True, 20)
    page = (matches + 99) // 100
    body = client.get(
        reverse("api:game-list"), {"q": "joueurs", "page_size": 100, "page": page}
    ).json()
    assert (body["count"], body["count_capped"], body["next"]) == (matches, False, None)
    assert len(body["results"]) == matches - (page - 1) * 100


def test_a_search_counts_its_matches_and_its_look_alikes(client, seed):
    generate_catalogue(games=40, seed=2)
    for query in ("joueurs", "paletti", "paleti"):
        expected = list(search(Game.objects.all(), query).values_list("title", flat=True))
        response = client.get(reverse("games:game-list"), {"q": query})
        assert response.context["count"] == len(expected) > 0, query
        assert [game.title for game in response.context["games"]] == expected[:12], query
        body = client.get(reverse("api:game-list"), {"q": query}).json()
        assert (body["count"], body["count_capped"]) == (len(expected), False), query
        assert [game["title"] for game in body["results"]] == expected[:20], query
    nothing = client.get(reverse("games:game-list"), {"q": "xqzwv"})
    assert nothing.context["count"] == 0
    assert list(nothing.context["games"]) == []


@pytest.fixture(scope="class")
def thousands(django_db_setup, django_db_blocker):
    """The seed games with their rule summaries, among 3 000 generated games: made once for
    a class's tests (about 10 s), in a transaction rolled back after its last one. Each test
    runs in a savepoint within it (the `db` fixture's own transaction, nested), so what a
    test writes is undone before the next, as with Django's TestCase.setUpTestData. What the
    site does on commit is done at once, as for every test (conftest.py)."""
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        patch.setattr("games.signals.on_commit", lambda callback: callback())
        with transaction.atomic():
            ensure_facet_a()  # with the seed games: conftest.py's seed fixture
            call_command(
                "loaddata",
                "fixtures/games.json",
                "fixtures/rule_summaries.json",
                verbosity=0,
            )
            generate_catalogue(games=3000, seed=1)
            yield
            transaction.set_rollback(True)


@pytest.mark.usefixtures("thousands")
class TestAmongThousands:
    """Searches in a catalogue of 3 000 generated games and the seed games."""

    # Villa Paletti is about columns: its summaries say so 33 times in each language, where a
    # generated game says it at most three times ("Slottets søjler", and twice in a summary).
    @pytest.mark.parametrize(
        "word",
        [
            "søjle",  # Danish: hundreds of matches at 3 000 games, titles "… søjler" among them
            "søjler",
            "colonnes",  # French
            "kolumny",  # Polish
            "joueurs",  # French, in every game: the pages' best-first part
        ],
    )
    def test_the_best_match_of_a_common_word_is_on_the_first_page(self, client, word):
        page = client.get(reverse("games:game-list"), {"q": word})
        assert page.context["count"] > 200
        assert "villa-paletti" in [game.slug for game in page.context["games"]]
        assert "Villa Paletti" in page.content.decode()
        body = client.get(reverse("api:game-list"), {"q": word}).json()
        assert "villa-paletti" in [game["slug"] for game in body["results"]]

    def test_with_more_matches_than_counted_the_best_come_first_then_the_newest(self, client):
        first = client.get(reverse("api:game-list"), {"q": "joueurs", "page_size": 100}).json()
        assert first["count_capped"] is True
        slugs = [game["slug"] for game in first["results"]]
        # The seed games' long rules say "joueur" far more often than any generated one.
        assert {"villa-paletti", "alhambra", "le-petit-prince-fabrique-moi-une-planete"} <= set(
            slugs[:10]
        )
        # Paging on lists every match once: the best, then the others newest first.
        listed = list(slugs)
        for number in range(2, 32):
            page = client.get(
                reverse("api:game-list"), {"q": "joueurs", "page_size": 100, "page": number}
            ).json()
            listed += [game["slug"] for game in page["results"]]
        matches = set(
            search(Game.objects.all(), "joueurs", rank=False).values_list("slug", flat=True)
        )
        assert len(listed) == len(set(listed)) == len(matches) == 3003
        assert set(listed) == matches
        newest_last = Game.objects.filter(slug__in=listed[-50:]).order_by("-pk")
        assert listed[-50:] == list(newest_last.values_list("slug", flat=True))
        # A filter narrows both parts; a sort the patron chose is kept.
        four = client.get(reverse("api:game-list"), {"q": "joueurs", "players": 4}).json()
        assert "villa-paletti" in [game["slug"] for game in four["results"]]
        assert all(g["min_players"] <= 4 <= g["max_players"] for g in four["results"])
        by_title = client.get(reverse("games:game-list"), {"q": "joueurs", "ordering": "title"})
        titles = [game.title for game in by_title.context["games"]]
        assert titles == sorted(titles)


@pytest.mark.parametrize("params", [{}, {"players": 4}, {"players": 4, "age": 8}])
def test_a_text_search_with_filters_counts_what_both_keep(client, seed, params):
    generate_catalogue(games=60, seed=3)
    expected = search(Game.objects.all(), "joueur", rank=False)
    if "players" in params:
        expected = expected.playable_by(4)
    if "age" in params:
        expected = expected.suitable_for_age(8)
    body = client.get(reverse("api:game-list"), {"q": "joueur", **params}).json()
    assert 0 < body["count"] == expected.count()
    shown = {game["slug"] for game in body["results"]}
    assert shown <= set(expected.values_list("slug", flat=True))


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
