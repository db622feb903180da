import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games.models import Game, Person, RuleSummary
from games.tests.factories import make_game

pytestmark = pytest.mark.django_db


def test_home_has_a_search_box_and_the_collection(client, seed):
    response = client.get(reverse("games:home"))
    assert response.status_code == 200
    assert b'role="search"' in response.content
    for title in ("Villa Paletti", "Alhambra", "Le Petit Prince\u00a0: Fabrique-moi une planète"):
        assert title.encode() in response.content


def test_list_filters_by_players_and_counts(client, seed):
    response = client.get(reverse("games:game-list"), {"players": 5})
    assert response.context["count"] == 2
    assert b"Alhambra" in response.content
    assert b"Villa Paletti" not in response.content


def test_list_text_search_is_accent_insensitive(client, seed):
    make_game(title="École de magie", slug="ecole-de-magie")
    response = client.get(reverse("games:game-list"), {"q": "ecole"})
    assert [g.slug for g in response.context["games"]] == ["ecole-de-magie"]


@pytest.mark.parametrize(
    "params",
    [{"players": "abc"}, {"age": "-1"}, {"duration_max": "2.5"}, {"esar": "<script>"}],
)
def test_bad_filter_is_a_message_not_an_error(client, seed, params):
    response = client.get(reverse("games:game-list"), params)
    assert response.status_code == 200
    assert response.context["valid"] is False
    assert b'class="field-error"' in response.content
    assert b"<script>" not in response.content


def test_very_long_query_is_refused_politely(client, seed):
    response = client.get(reverse("games:game-list"), {"q": "villa " * 2000})
    assert response.status_code == 200
    assert response.context["valid"] is False


def test_nothing_matches_offers_a_way_out(client, seed):
    response = client.get(reverse("games:game-list"), {"players": 12})
    assert response.context["count"] == 0
    assert f'href="{reverse("games:game-list")}"'.encode() in response.content


def test_sorting_and_pagination(client, seed):
    for n in range(14):
        make_game(title=f"Zz {n:02d}", slug=f"zz-{n:02d}", duration_minutes=5 + n)
    first = client.get(reverse("games:game-list"), {"ordering": "duration"})
    assert first.context["count"] == 17
    assert [g.slug for g in first.context["games"]][:2] == ["zz-00", "zz-01"]
    second = client.get(reverse("games:game-list"), {"ordering": "duration", "page": 2})
    assert len(second.context["games"]) == 5
    assert b"ordering=duration" in first.content  # the next-page link keeps the sort


def test_list_page_queries_do_not_grow_with_the_page(client, seed):
    url = reverse("games:game-list")
    with CaptureQueriesContext(connection) as three:
        response = client.get(url)
    assert len(response.context["games"]) == 3
    for n in range(12):
        make_game(title=f"Jeu {n}", slug=f"jeu-{n}")
    with CaptureQueriesContext(connection) as twelve:
        response = client.get(url)
    assert len(response.context["games"]) == 12
    assert len(twelve) == len(three)


def test_a_card_shows_the_same_on_every_page_listing_the_game(client, seed):
    client.cookies["sessionid"] = "a-visitor-with-a-session"  # past the page cache
    url = reverse("games:game-list")
    first = client.get(url, {"players": 2}).content.decode()
    again = client.get(url, {"players": 2, "ordering": "-title"}).content.decode()
    assert again.count('class="game-card"') == 3
    assert "Bill Payne" in first and "Bill Payne" in again


def test_a_rendered_card_follows_an_edit_of_a_person(client, seed):
    client.cookies["sessionid"] = "a-visitor-with-a-session"
    url = reverse("games:game-list")
    assert "Bill Payne" in client.get(url).content.decode()
    person = Person.objects.get(name="Bill Payne")
    person.name = "William Payne"
    person.save()
    page = client.get(url).content.decode()
    assert "William Payne" in page and "Bill Payne" not in page


def test_game_page_shows_the_whole_record(client, seed):
    response = client.get(reverse("games:game-detail", kwargs={"slug": "villa-paletti"}))
    for text in ("Bill Payne", "Zoch", "A 404", "2–4", "8–99", "30 min", "20 colonnes"):
        assert text.encode() in response.content


def test_game_page_json_ld_describes_the_game(client, seed):
    response = client.get(reverse("games:game-detail", kwargs={"slug": "villa-paletti"}))
    match = re.search(
        rb'<script type="application/ld\+json">(.*?)</script>', response.content, re.S
    )
    data = json.loads(match.group(1))
    assert data["@type"] == "Game"
    assert data["name"] == "Villa Paletti"
    assert data["numberOfPlayers"] == {"@type": "QuantitativeValue", "minValue": 2, "maxValue": 4}
    assert data["author"] == [{"@type": "Person", "name": "Bill Payne"}]


def test_json_ld_cannot_break_out_of_its_script(client, seed):
    make_game(title="</script><script>alert(1)</script>", slug="evil")
    response = client.get(reverse("games:game-detail", kwargs={"slug": "evil"}))
    assert b"<script>alert(1)" not in response.content


def test_summary_in_the_interface_language_or_a_note(client, seed):
    game = Game.objects.get(slug="villa-paletti")
    RuleSummary.objects.create(game=game, language="da", text="## Mål\n\nByg <script>x()</script>")
    with translation.override("da"):
        response = client.get(game.get_absolute_url())
    assert b'lang="da"' in response.content
    assert "Mål".encode() in response.content
    assert b"<script>x()" not in response.content
    with translation.override("pl"):
        response = client.get(game.get_absolute_url())
        danish = reverse("games:game-rules", kwargs={"slug": game.slug, "language": "da"})
    assert danish.encode() in response.content
    assert b'class="markdown"' not in response.content


def test_unknown_game_is_404(client, seed):
    response = client.get(reverse("games:game-detail", kwargs={"slug": "no-such-game"}))
    assert response.status_code == 404


def test_rules_page_in_a_missing_language_is_404_with_the_others(client, seed):
    game = Game.objects.get(slug="villa-paletti")
    RuleSummary.objects.create(game=game, language="fr", text="## But du jeu")
    url = reverse("games:game-rules", kwargs={"slug": game.slug, "language": "pl"})
    response = client.get(url)
    assert response.status_code == 404
    assert b'hreflang="fr"' in response.content


def test_a_playable_game_links_to_its_game(client, seed):
    paletti = client.get(reverse("games:game-detail", kwargs={"slug": "villa-paletti"}))
    assert f'href="{reverse("paletti:setup")}"'.encode() in paletti.content
    alhambra = client.get(reverse("games:game-detail", kwargs={"slug": "alhambra"}))
    assert b'class="play-entry"' not in alhambra.content


def test_home_and_catalogue_cards_say_which_game_can_be_played_here(client, seed):
    with translation.override("en"):  # the English pages, whatever an earlier test activated
        setup = reverse("paletti:setup")
        home_url, list_url = reverse("games:home"), reverse("games:game-list")
    home = client.get(home_url).content.decode()
    assert f'href="{setup}"' in home
    assert "In your browser" in home
    listing = client.get(list_url, {"q": "Villa Paletti"}).content.decode()
    card = listing[listing.index("game-card-title") :]
    assert f'href="{setup}"' in card.split("</article>")[0]
    others = client.get(list_url, {"players": 5}).content.decode()
    assert f'href="{setup}"' not in others


def test_every_page_links_a_favicon_that_is_served(client, seed):
    from django.contrib.staticfiles import finders

    page = client.get(reverse("games:home")).content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page)
    assert icon, "no icon link in the base template"
    assert finders.find("favicon.svg")


def test_a_category_added_by_staff_is_offered_and_filters_at_once(client, seed):
    """The filter form's class is built once per process: the categories it offers must
    still be read from the database on every request."""
    from games.models import EsarCategory

    client.get(reverse("games:game-list"), {"players": 2})
    parent = EsarCategory.objects.get(code="A 400")
    EsarCategory.objects.create(code="A 499", parent=parent, family="A", label_fr="Essai")
    make_game(title="Jeu d'essai", slug="jeu-essai", esar=EsarCategory.objects.get(code="A 499"))
    response = client.get(reverse("games:game-list"), {"esar": "A 499"})
    assert response.context["valid"] is True
    assert [g.slug for g in response.context["games"]] == ["jeu-essai"]
    assert b"A 499" in response.content


def test_two_searches_in_a_row_keep_their_own_filters(client, seed):
    """Each request's filters are its own (the filters are copied, not shared)."""
    first = client.get(reverse("games:game-list"), {"players": 5})
    second = client.get(reverse("games:game-list"), {"q": "villa"})
    assert first.context["count"] == 2
    assert "villa-paletti" not in {g.slug for g in first.context["games"]}
    assert [g.slug for g in second.context["games"]] == ["villa-paletti"]


def test_language_links_keep_the_query_escaped_and_the_frame_follows_the_language(client, seed):
    """The switcher and the alternates point at the same page in each language, with the
    patron's query kept and escaped; the header, written once per language, is in the
    page's language."""
    danish = client.get("/da/games/", {"players": 4, "q": '<x>"'}).content.decode()
    query = "?players=4&amp;q=%3Cx%3E%22"
    for code in ("fr", "da", "pl", "en"):
        assert (
            f'<link rel="alternate" hreflang="{code}" href="http://testserver/{code}/games/{query}">'
            in danish
        )
        assert f'href="/{code}/games/{query}" hreflang="{code}" lang="{code}"' in danish
    assert 'lang="da" aria-current="true">Dansk</a>' in danish
    assert "<x>" not in danish
    assert ">Katalog</a>" in danish and 'aria-label="Sprog"' in danish
    polish = client.get("/pl/games/villa-paletti/").content.decode()
    assert 'href="/pl/games/">Katalog</a>' in polish and 'aria-current="page">Katalog' not in polish
    assert ">Przejdź do treści</a>" in polish
