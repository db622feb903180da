"""Pages served for less: 304 on a repeat, the anonymous page cache, gzip."""

import gzip

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import CatalogueVersion, Game, RuleSummary

pytestmark = pytest.mark.django_db


def reads_games(queries) -> bool:
    return any('"games_game"' in query["sql"] for query in queries)


def detail_url():
    return reverse("games:game-detail", kwargs={"slug": "villa-paletti"})


def test_a_repeated_request_is_answered_304(client, seed):
    first = client.get(reverse("games:game-list"))
    assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
    again = client.get(reverse("games:game-list"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    since = client.get(reverse("games:game-list"), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304


@pytest.mark.parametrize("params", [{}, {"players": 5, "ordering": "-duration"}, {"q": "villa"}])
def test_a_visitor_with_a_session_gets_validators_that_follow_edits(client, seed, params):
    """The list page reads the catalogue's version itself (on PostgreSQL with its count):
    a rendered page still carries the version's ETag and Last-Modified, a repeat is a 304,
    and an edit changes them."""
    client.cookies["sessionid"] = "a-visitor-with-a-session"  # past the page cache
    url = reverse("games:game-list")
    first = client.get(url, params)
    assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
    assert client.get(url, params, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    again = client.get(url, params)
    assert again["ETag"] == first["ETag"] and again["Last-Modified"] == first["Last-Modified"]
    game = Game.objects.get(slug="alhambra")
    game.duration_minutes = 61
    game.save()
    edited = client.get(url, params, HTTP_IF_NONE_MATCH=first["ETag"])
    assert edited.status_code == 200 and edited["ETag"] != first["ETag"]


def test_anonymous_pages_come_from_the_cache(client, seed):
    first = client.get(detail_url())
    with CaptureQueriesContext(connection) as queries:
        second = client.get(detail_url())
    assert not reads_games(queries)  # the catalogue's version, no game
    assert second.content == first.content


def test_an_edit_reaches_cached_pages_and_changes_the_etag(client, seed):
    before = client.get(detail_url())
    game = Game.objects.get(slug="villa-paletti")
    game.title = "Villa Paletti (édition anniversaire)"
    game.save()
    after = client.get(detail_url(), HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert "édition anniversaire" in after.content.decode()
    assert after["ETag"] != before["ETag"]


def test_a_summary_edit_reaches_the_cached_rules_page(client, seed):
    game = Game.objects.get(slug="villa-paletti")
    summary = RuleSummary.objects.create(game=game, language="da", text="## Mål\n\nByg højt.")
    url = reverse("games:game-rules", kwargs={"slug": game.slug, "language": "da"})
    assert "Byg højt" in client.get(url).content.decode()
    summary.text = "## Mål\n\nByg højere end de andre."
    summary.save()
    assert "Byg højere" in client.get(url).content.decode()


def test_signed_in_staff_are_never_served_a_cached_page(client, seed):
    client.get(detail_url())
    client.force_login(User.objects.create_superuser("root", password="x"))
    with CaptureQueriesContext(connection) as queries:
        client.get(detail_url())
    assert reads_games(queries)


@pytest.mark.parametrize("name", ["games:game-list", "api:game-list"])
def test_html_and_json_are_compressed(client, seed, name):
    response = client.get(reverse(name), HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert b"Villa Paletti" in gzip.decompress(response.content)


def test_anonymous_api_answers_come_from_the_cache_and_follow_an_edit(client, seed):
    url = reverse("api:game-list")
    first = client.get(url)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url)
    assert not reads_games(queries) and again.content == first.content
    game = Game.objects.get(slug="villa-paletti")
    game.title = "Villa Paletti (édition anniversaire)"
    game.save()
    titles = [g["title"] for g in client.get(url).json()["results"]]
    assert "Villa Paletti (édition anniversaire)" in titles


def test_a_cached_page_is_compressed_only_for_who_takes_gzip(client, seed):
    url = reverse("games:game-list")
    zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    plain = client.get(url)
    assert zipped["Content-Encoding"] == "gzip"
    assert not plain.has_header("Content-Encoding")
    assert gzip.decompress(zipped.content) == plain.content


def test_api_answers_are_cached_per_language(client, seed):
    url = reverse("api:esar-list")
    danish = client.get(url, HTTP_ACCEPT_LANGUAGE="da").json()
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").json()
    assert [c["label"] for c in danish] == [c["label_da"] or c["label_fr"] for c in danish]
    assert [c["label"] for c in french] == [c["label_fr"] for c in french]


def test_a_token_client_is_never_served_a_cached_answer(client, seed):
    url = reverse("api:game-list")
    assert client.get(url).status_code == 200
    # Had the cached answer been served, the bad token would have gone unnoticed.
    assert client.get(url, HTTP_AUTHORIZATION="Token not-a-real-one").status_code == 403


def test_the_filter_fields_of_one_query_are_not_shown_for_another(client, seed):
    """ "age=8%26q%3DX" (an age of "8&q=X") and "age=8&q=X" are different filters."""
    url = reverse("games:game-list")
    refused = client.get(f"{url}?age=8%26q%3DX")
    assert refused.status_code == 200 and "has-error" in refused.content.decode()
    asked = client.get(f"{url}?age=8&q=X").content.decode()
    assert "has-error" not in asked
    assert 'value="X"' in asked


def test_a_client_that_says_xgzip_does_not_take_gzip_from_others(client, seed):
    url = reverse("games:game-list")
    odd = client.get(url, HTTP_ACCEPT_ENCODING="xgzip")
    assert not odd.has_header("Content-Encoding")
    for _visitor in range(3):
        usual = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")
        assert usual["Content-Encoding"] == "gzip"


def test_each_page_has_its_own_etag_and_an_unknown_page_is_never_a_304(client, seed):
    listed = client.get(reverse("games:game-list"))
    detail = client.get(detail_url())
    assert listed["ETag"] != detail["ETag"]
    missing = reverse("games:game-detail", kwargs={"slug": "no-such-game"})
    for etag in (listed["ETag"], detail["ETag"]):
        assert client.get(missing, HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert client.get(detail_url(), HTTP_IF_NONE_MATCH=listed["ETag"]).status_code == 200


def test_an_if_modified_since_in_the_future_is_ignored(client, seed):
    far = "Fri, 31 Dec 9999 23:59:59 GMT"
    assert client.get(detail_url(), HTTP_IF_MODIFIED_SINCE=far).status_code == 200
    client.cookies["sessionid"] = "a-visitor-with-a-session"  # past the page cache
    assert client.get(detail_url(), HTTP_IF_MODIFIED_SINCE=far).status_code == 200


def test_deleting_a_language_reaches_cached_pages(client, seed):
    from games.models import Language

    Language.objects.get_or_create(code="de")
    url = reverse("games:game-list")
    assert 'value="de"' in client.get(url).content.decode()
    Language.objects.filter(code="de").delete()
    assert 'value="de"' not in client.get(url).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_game_written_in_one_transaction_is_indexed_and_counted_once_on_commit(client, seed):
    from django.db import transaction

    from games.models import CatalogueVersion, GameAuthor, Person
    from games.search import search
    from games.tests.factories import make_game

    before = CatalogueVersion.current().version
    with transaction.atomic():
        game = make_game(title="Le Jardin des Brumes", slug="jardin-des-brumes")
        for name in ("Odile Marchal", "Tadeusz Wrona"):
            GameAuthor.objects.create(game=game, person=Person.objects.create(name=name))
        for language, word in (
            ("fr", "brouillard"),
            ("da", "taage"),
            ("pl", "mgla"),
            ("en", "fog"),
        ):
            RuleSummary.objects.create(game=game, language=language, text=f"## {word}")
        # Nothing is indexed before the commit: the search still knows nothing of it.
        assert not search(Game.objects.all(), "wrona").exists()
    assert CatalogueVersion.current().version == before + 1
    for words in ("wrona", "marchal", "brouillard", "taage", "mgla", "fog brumes"):
        assert list(search(Game.objects.all(), words)) == [game], words


def test_a_script_name_sent_once_does_not_reach_other_visitors_links(client, seed):
    """From a peer gunicorn trusts, SCRIPT_NAME becomes the script prefix (Django's WSGI
    handler sets it from the request; the test client does not, so it is set here): the
    page frame and the game cards, shared by every visitor, must not keep it."""
    from django.urls import set_script_prefix

    client.cookies["sessionid"] = "a-visitor-with-a-session"  # past the page cache
    path = reverse("games:game-list")
    set_script_prefix("/elsewhere/")
    try:
        poisoned = client.get(path, SCRIPT_NAME="/elsewhere").content.decode()
    finally:
        set_script_prefix("/")
    assert 'href="/elsewhere/fr/games/villa-paletti/"' in poisoned
    page = client.get(path).content.decode()
    assert "/elsewhere" not in page
    assert 'href="/fr/games/villa-paletti/"' in page
    assert f'href="{path}"' in page  # the header's own link


def test_a_version_the_database_did_not_give_is_asked_for_once(seed, monkeypatch):
    """A locked table or a database that does not answer costs a visitor one wait, not
    one in the cache's middleware and another in the page."""
    asked = []

    def refused():
        asked.append(1)
        raise OperationalError("canceling statement due to lock timeout")

    monkeypatch.setattr(CatalogueVersion, "current", refused)
    response = Client(raise_request_exception=False).get(reverse("games:game-list"))
    assert response.status_code == 503
    assert len(asked) == 1
