"""French is the site's language (LANGUAGE_CODE): a visitor who asks for no language the
site offers is served French, a string a Danish or Polish catalogue lacked would read in
French (gettext's fallback; test_translations keeps every catalogue complete), and the
records' own texts are French on every page (test_wording covers their marking).
"""

import polib
import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db

HEADING = "Games to borrow, rules to read"
HEADING_FR = "Des jeux à emprunter"


def _home(language):
    with translation.override(language):
        return reverse("games:home")


@pytest.fixture
def french_only_catalogue(tmp_path):
    """A locale folder in which only French translates the home page's heading: Danish
    and Polish lack it, as they would lack a string nobody has translated yet."""
    catalogue = polib.POFile()
    catalogue.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    catalogue.append(polib.POEntry(msgid=HEADING, msgstr=HEADING_FR))
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalogue.save_as_mofile(str(folder / "django.mo"))
    with override_settings(LOCALE_PATHS=[tmp_path]):
        yield


@pytest.mark.parametrize("language", ["da", "pl"])
def test_a_string_missing_from_a_catalogue_reads_in_french_the_sites_language(
    client, seed, french_only_catalogue, language
):
    with translation.override(language):
        assert translation.gettext(HEADING) == HEADING_FR
    page = client.get(_home(language)).content.decode()
    assert f'<html lang="{language}">' in page
    assert HEADING_FR in page
    assert HEADING not in page
    # English reads the code's own words.
    assert HEADING in client.get(_home("en")).content.decode()


@pytest.mark.parametrize(
    ("headers", "language"),
    [
        ({}, "fr"),
        ({"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}, "fr"),
        ({"HTTP_ACCEPT_LANGUAGE": "en;q=0"}, "fr"),
        ({"HTTP_ACCEPT_LANGUAGE": "*"}, "fr"),
        ({"HTTP_ACCEPT_LANGUAGE": "de;q=0.9," * 60 + "en"}, "fr"),
        ({"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}, "en"),
        ({"HTTP_ACCEPT_LANGUAGE": "de, en-US;q=0.5"}, "en"),
        ({"HTTP_ACCEPT_LANGUAGE": "da, en;q=0.5"}, "da"),
        ({"HTTP_COOKIE": "django_language=en"}, "en"),
        ({"HTTP_COOKIE": "django_language=pl", "HTTP_ACCEPT_LANGUAGE": "en"}, "pl"),
    ],
)
def test_the_first_visit_lands_on_french_unless_another_language_is_asked_for(
    client, seed, headers, language
):
    response = client.get("/", **headers)
    assert response.status_code == 302
    assert response["Location"] == _home(language)


def test_the_api_answers_a_visitor_without_preference_in_french(client, seed):
    url = reverse("api:game-detail", kwargs={"slug": "nope"})
    assert client.get(url).json()["detail"] == "Introuvable."
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="en").json()["detail"] == "Not found."
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="de").json()["detail"] == "Introuvable."


def test_cached_api_answers_keep_french_and_english_visitors_apart(client, seed):
    url = reverse("api:esar-list")

    def labels(**headers):
        return {row["code"]: row["label"] for row in client.get(url, **headers).json()}

    french, english = labels(), labels(HTTP_ACCEPT_LANGUAGE="en")
    assert (french["A 100"], english["A 100"]) == ("Jeux d'exercice", "Exercise play")
    assert labels(HTTP_ACCEPT_LANGUAGE="de") == french
    assert labels(HTTP_ACCEPT_LANGUAGE="fr") == french
    assert labels(HTTP_ACCEPT_LANGUAGE="en") == english


@pytest.mark.parametrize(
    ("headers", "start"),
    [({}, "La requête contient"), ({"HTTP_ACCEPT_LANGUAGE": "da"}, "Forespørgslen indeholder")],
)
def test_a_request_refused_before_any_view_speaks_the_visitor_language(client, headers, start):
    url = reverse("api:game-list")
    response = client.get(url, {"q": "a\x00"}, **headers)
    assert response.status_code == 400
    assert response.json()["detail"].startswith(start)


@pytest.mark.parametrize("language", ["en", "da"])
def test_the_records_keep_their_french_text_on_every_page(client, seed, language):
    with translation.override(language):
        page = client.get(reverse("games:game-detail", kwargs={"slug": "villa-paletti"}))
    text = page.content.decode()
    assert "Chaque joueur cherche à hisser ses colonnes sur le plateau le plus haut" in text
    assert 'class="prose" lang="fr"' in text
