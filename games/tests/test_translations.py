"""The interface exists in French, Danish and Polish: every string, nothing fuzzy."""

from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

LOCALE = Path(settings.BASE_DIR) / "locale"

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("language", ["fr", "da", "pl"])
def test_po_file_is_complete(language, domain):
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / f"{domain}.po"))
    untranslated = [entry.msgid for entry in po.untranslated_entries()]
    fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
    assert untranslated == [], f"{language}: untranslated {untranslated[:10]}"
    assert fuzzy == [], f"{language}: fuzzy {fuzzy[:10]}"


@pytest.mark.parametrize(
    ("language", "heading", "players"),
    [
        ("fr", "Des jeux à emprunter", "Nombre de joueurs"),
        ("da", "Spil", "Antal spillere"),
        ("pl", "Gry", "Liczba graczy"),
        ("en", "Games to borrow, rules to read", "Number of players"),
    ],
)
def test_pages_speak_the_language_of_their_url(client, seed, language, heading, players):
    with translation.override(language):
        home = client.get(reverse("games:home"))
        listing = client.get(reverse("games:game-list"))
    assert f'<html lang="{language}">'.encode() in home.content
    assert heading.encode() in home.content
    assert players.encode() in listing.content


@pytest.mark.parametrize(
    ("language", "label"),
    [("fr", "Jeu d'adresse"), ("da", "Fingerfærdighedsspil"), ("pl", "Gra zręcznościowa")],
)
def test_esar_labels_follow_the_language(client, seed, language, label):
    with translation.override(language):
        response = client.get(reverse("games:game-detail", kwargs={"slug": "villa-paletti"}))
    assert label.encode() in response.content


def test_first_visit_follows_accept_language(client, seed):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="pl,en;q=0.8")
    assert response.status_code == 302
    assert response["Location"] == "/pl/"


def test_switcher_keeps_the_page_and_its_query(client, seed):
    with translation.override("fr"):
        response = client.get(reverse("games:game-list"), {"players": "4"})
    assert b'href="/da/games/?players=4"' in response.content


@override_settings(DEBUG=False)
def test_not_found_page_is_translated(client, seed):
    with translation.override("da"):
        url = reverse("games:game-detail", kwargs={"slug": "findes-ikke"})
    response = client.get(url)
    assert response.status_code == 404
    assert b'<html lang="da">' in response.content
    assert b"Siden findes ikke" in response.content
