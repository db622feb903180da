"""A large catalogue: counts that stop at 1 000, and a fixed number of queries per page."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games.generate import generate_catalogue
from games.models import Game

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
