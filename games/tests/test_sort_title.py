"""The sort title: a title whose record marks its article sorts without it, in the
catalogue's pages, the API and the admin; a title typed by staff sorts as typed."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from games.models import Game
from games.tests.factories import make_game
from games.unimarc.services import ImportOptions, import_unimarc
from games.unimarc.tests import corpus

pytestmark = pytest.mark.django_db


@pytest.fixture
def shelf(db):
    """Alhambra and Mikado typed by staff, and "Le Petit Prince" imported from a record
    that marks "Le " as not sorting: under P, between Mikado and Villa."""
    make_game(title="Alhambra", slug="alhambra", duration_minutes=20)
    make_game(title="Mikado", slug="mikado", duration_minutes=20)
    make_game(title="Villa", slug="villa", duration_minutes=20)
    record = corpus.alhambra(
        title="\x88Le \x89Petit Prince", custom={**corpus.ALHAMBRA_CUSTOM, "duree": "20"}
    )
    with translation.override("en"):
        report = import_unimarc(corpus.iso([record]), options=ImportOptions())
    assert [o.action for o in report.outcomes] == ["created"], report.failed
    return Game.objects.get(title="Le Petit Prince")


def test_the_import_keeps_the_article_in_the_title_and_drops_it_from_the_sort_title(shelf):
    assert (shelf.title, shelf.sort_title) == ("Le Petit Prince", "Petit Prince")


def test_the_catalogue_lists_a_marked_title_under_its_first_sorting_word(client, shelf):
    page = client.get(reverse("games:game-list"))
    assert [game.title for game in page.context["games"]] == [
        "Alhambra",
        "Mikado",
        "Le Petit Prince",
        "Villa",
    ]
    home = client.get(reverse("games:home"))
    assert [game.title for game in home.context["games"]][2] == "Le Petit Prince"
    backwards = client.get(reverse("games:game-list"), {"ordering": "-title"})
    assert [game.title for game in backwards.context["games"]][:2] == ["Villa", "Le Petit Prince"]


def test_the_api_orders_by_the_sort_title_too(shelf):
    api = APIClient()
    listed = api.get(reverse("api:game-list")).json()["results"]
    assert [item["title"] for item in listed] == ["Alhambra", "Mikado", "Le Petit Prince", "Villa"]
    # Ties in another order (the same duration) are broken by the sort title.
    by_duration = api.get(reverse("api:game-list"), {"ordering": "duration"}).json()["results"]
    assert [item["slug"] for item in by_duration][2] == shelf.slug
    detail = api.get(reverse("api:game-detail", args=[shelf.slug])).json()
    assert (detail["title"], detail["sort_title"]) == ("Le Petit Prince", "Petit Prince")


def test_a_title_typed_by_staff_sorts_as_typed():
    game = make_game(title="Le Cochon qui rit")
    assert game.sort_title == "Le Cochon qui rit"


def test_the_sort_title_follows_a_new_title_unless_only_the_marked_article_changed():
    game = make_game(title="Le Petit Prince", sort_title="Petit Prince")
    game.title = "La Petit Prince"
    game.save()
    assert game.sort_title == "Petit Prince"  # still ends with it: only the article changed
    game.title = "Le Petit Prince : Fabrique-moi une planète"
    game.save()
    game.refresh_from_db()
    assert game.sort_title == "Le Petit Prince : Fabrique-moi une planète"
    typed = make_game(title="Mikado")
    typed.title = "Mikado géant"
    typed.save(update_fields=["title"])
    typed.refresh_from_db()
    assert typed.sort_title == "Mikado géant"


def test_staff_see_and_edit_the_sort_title_in_the_admin(client):
    game = make_game(title="Le Cochon qui rit", slug="le-cochon-qui-rit")
    client.force_login(User.objects.create_superuser("admin"))
    url = reverse("admin:games_game_change", args=[game.pk])
    assert 'name="sort_title"' in client.get(url).text
    data = {
        "title": game.title,
        "sort_title": "Cochon qui rit",
        "slug": game.slug,
        "document_type": game.document_type,
        "esar": game.esar_id,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "min_age": game.min_age,
        "duration_minutes": game.duration_minutes,
        **{f"{inline}-{count}": 0 for inline in INLINES for count in FORM_COUNTS},
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    game.refresh_from_db()
    assert game.sort_title == "Cochon qui rit"


INLINES = ("credits", "content_items", "copies", "summaries")
FORM_COUNTS = ("TOTAL_FORMS", "INITIAL_FORMS")
