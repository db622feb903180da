"""What a native reader checks in every language: French typography, sort labels, counts
that say "no game" rather than "1 game found" for nothing, admin field names, titles."""

import json
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from games.filters import GameFilter
from paletti.models import Match

LOCALE = Path(settings.BASE_DIR) / "locale"
FIXTURES = Path(settings.BASE_DIR) / "fixtures"
LANGUAGES = ["fr", "da", "pl", "en"]

# A space that lets the line break before ":", ";", "?", "!" or "»", or after "«".
BREAKABLE_SPACE_IN_FRENCH = re.compile(r" [:;?!»]|« ")

pytestmark = pytest.mark.django_db


def french_breaks(text):
    return BREAKABLE_SPACE_IN_FRENCH.findall(text)


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_french_po_puts_a_no_break_space_before_high_punctuation(domain):
    po = polib.pofile(str(LOCALE / "fr" / "LC_MESSAGES" / f"{domain}.po"))
    wrong = []
    for entry in po.translated_entries():
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            if french_breaks(text) or "“" in text or "”" in text:
                wrong.append(text)
    assert wrong == []


def test_french_data_puts_a_no_break_space_before_high_punctuation():
    summaries = json.loads((FIXTURES / "rule_summaries.json").read_text(encoding="utf-8"))
    games = json.loads((FIXTURES / "games.json").read_text(encoding="utf-8"))
    texts = [s["fields"]["text"] for s in summaries if s["fields"]["language"] == "fr"]
    for game in (g["fields"] for g in games if g["model"] == "games.game"):
        texts += [game[field] for field in ("title", "principle", "rules", "contents")]
    assert [hit for text in texts for hit in french_breaks(text)] == []


SORT_LABELS = {
    "fr": ("Les plus courts d'abord", "Pour les plus jeunes d'abord", "Le moins de joueurs"),
    "da": ("Korteste først", "Til de yngste først", "Færrest spillere"),
    "pl": ("Najpierw najkrótsze", "Najpierw dla najmłodszych", "Najmniej graczy"),
    "en": ("Shortest first", "For the youngest first", "Fewest players"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_sort_menu_says_what_each_order_does(language):
    with translation.override(language):
        choices = {str(k): str(v) for k, v in GameFilter().form.fields["ordering"].choices}
    shortest, youngest, fewest = SORT_LABELS[language]
    assert choices["duration"] == shortest
    assert choices["age"] == youngest
    assert choices["players"] == fewest
    # Beside "Oldest edition", the age order says it is about the players' age.
    assert choices["-age"] != choices["year"]
    if language in ("da", "en"):
        assert (
            choices["-age"] == {"da": "Til de ældste først", "en": "For the oldest first"}[language]
        )


NO_GAMES = {
    "fr": ("Aucun jeu trouvé", "Aucun jeu"),
    "da": ("Intet spil fundet", "Ingen spil"),
    "pl": ("Nie znaleziono żadnej gry", "Brak gier"),
    "en": ("No game found", "No games"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_empty_search_says_no_game_was_found(client, seed, language):
    with translation.override(language):
        response = client.get(reverse("games:game-list"), {"q": "zzzz"})
    text = response.content.decode()
    found, heading = NO_GAMES[language]
    assert f'<a href="#results-heading">{found}</a>' in text
    assert re.search(rf">\s*{heading}\s*</h2>", text)
    assert not re.search(r">\s*0 ", text)


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("fr", "La ludothèque n'a encore aucun jeu dans son catalogue."),
        ("da", "Legoteket har endnu ingen spil i sit katalog."),
        ("pl", "Ludoteka nie ma jeszcze żadnej gry w katalogu."),
        ("en", "The ludothèque has no game in its catalogue yet."),
    ],
)
def test_an_empty_catalogue_does_not_lend_0_games(client, language, sentence):
    with translation.override(language):
        response = client.get(reverse("games:home"))
    assert sentence in response.content.decode()


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("fr", "Villa Paletti\u00a0: les règles en danois"),
        ("da", "Villa Paletti: reglerne på dansk"),
        ("pl", "Villa Paletti: zasady po duńsku"),
        ("en", "Villa Paletti: the rules in Danish"),
    ],
)
def test_rules_page_title_names_the_language_in_the_page_language(client, seed, language, title):
    call_command("loaddata", "fixtures/rule_summaries.json", verbosity=0)
    with translation.override(language):
        url = reverse("games:game-rules", kwargs={"slug": "villa-paletti", "language": "da"})
        response = client.get(url)
    assert f"<title>{title} · " in response.content.decode()


@pytest.mark.parametrize("language", ["da", "pl", "en"])
def test_french_record_texts_are_marked_french_on_other_pages(client, seed, language):
    with translation.override(language):
        detail = client.get(reverse("games:game-detail", kwargs={"slug": "villa-paletti"}))
        listing = client.get(reverse("games:game-list"))
    text = detail.content.decode()
    assert '<h1 id="game-title" lang="fr">Villa Paletti</h1>' in text
    assert 'class="prose" lang="fr"' in text
    assert 'class="help record-language"' in text
    assert 'class="game-card-title" lang="fr"' in listing.content.decode()


def test_a_french_page_marks_nothing(client, seed):
    with translation.override("fr"):
        detail = client.get(reverse("games:game-detail", kwargs={"slug": "villa-paletti"}))
    text = detail.content.decode()
    assert '<h1 id="game-title">Villa Paletti</h1>' in text
    assert "record-language" not in text
    assert "(en français)" not in text


@pytest.mark.parametrize(
    ("language", "footer"),
    [
        ("fr", "en français, en danois, en polonais et en anglais"),
        ("da", "på fransk, dansk, polsk og engelsk"),
        ("pl", "po francusku, duńsku, polsku i angielsku"),
        ("en", "in French, Danish, Polish and English"),
    ],
)
def test_footer_names_the_four_languages_of_the_rules(client, seed, language, footer):
    with translation.override(language):
        response = client.get(reverse("games:home"))
    assert footer in response.content.decode()


ADMIN_WORDS = {
    # (export choice for duration_minutes, the languages' "name" column, the match id)
    "fr": ("Durée moyenne (minutes) (duration_minutes)", "Nom", "Identifiant"),
    "da": ("Gennemsnitlig varighed (minutter) (duration_minutes)", "Navn", "Identifikator"),
    "pl": ("Średni czas gry (w minutach) (duration_minutes)", "Nazwa", "Identyfikator"),
}


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("admin", password="x"))
    return client


@pytest.mark.parametrize("language", ["fr", "da", "pl"])
def test_admin_names_fields_in_the_staff_language(admin_client, seed, language):
    duration, name, identifier = ADMIN_WORDS[language]
    Match.objects.create(seed=1, options={}, snapshot=b"", state_hash="")
    with translation.override(language):
        export = admin_client.get(reverse("admin:games_game_export"))
        import_page = admin_client.get(reverse("admin:games_game_import"))
        languages = admin_client.get(reverse("admin:games_language_changelist"))
        matches = admin_client.get(reverse("admin:paletti_match_changelist"))
    export_text = export.content.decode()
    assert duration in export_text
    assert "Duration Minutes" not in export_text and "Bgg Id" not in export_text
    assert duration in import_page.content.decode()
    assert re.search(rf"column-language_name.*?>{name}</span>", languages.content.decode(), re.S)
    assert re.search(rf"column-identifier.*?>{identifier}</a>", matches.content.decode(), re.S)


# Wording a native reader checks, where a rule can be checked mechanically: one guard each.

GUILLEMETS_WRONG_IN_DANISH = re.compile(r"[“”„]")


def test_danish_quotes_with_guillemets_pointing_in():
    texts = []
    for domain in ("django", "djangojs"):
        po = polib.pofile(str(LOCALE / "da" / "LC_MESSAGES" / f"{domain}.po"))
        texts += [e.msgstr for e in po.translated_entries()]
    summaries = json.loads((FIXTURES / "rule_summaries.json").read_text(encoding="utf-8"))
    texts += [s["fields"]["text"] for s in summaries if s["fields"]["language"] == "da"]
    assert [t for t in texts if GUILLEMETS_WRONG_IN_DANISH.search(t)] == []
    assert any("»Dirk«" in t for t in texts)


def test_danish_calls_the_ludotheque_a_legotek():
    po = polib.pofile(str(LOCALE / "da" / "LC_MESSAGES" / "django.po"))
    assert [e.msgstr for e in po.translated_entries() if "udotek" in e.msgstr.lower()] == []
    assert po.find("Ludothèque").msgstr == "Legotek"


@pytest.mark.parametrize(
    ("language", "authors"),
    [
        ("fr", "Antoine Bauza, auteur\u00a0; Bruno Cathala, auteur"),
        ("da", "Antoine Bauza, forfatter; Bruno Cathala, forfatter"),
        ("en", "Antoine Bauza, author; Bruno Cathala, author"),
    ],
)
def test_record_separates_credits_in_the_page_language(client, seed, language, authors):
    slug = "le-petit-prince-fabrique-moi-une-planete"
    with translation.override(language):
        response = client.get(reverse("games:game-detail", kwargs={"slug": slug}))
    text = response.content.decode()
    assert authors in text
    if language == "fr":
        assert "auteur; " not in text


def test_a_filter_error_is_announced_with_the_field(client, seed):
    with translation.override("en"):
        response = client.get(reverse("games:game-list"), {"players": "many"})
    text = response.content.decode()
    described = re.findall(r'aria-describedby="([^"]+)"', text)
    assert described, "the field in error names its message"
    for ids in described:
        for id_ in ids.split():
            assert f'id="{id_}"' in text, id_
    assert 'id="id_players_error"' in text


def test_english_dates_are_british(client, seed):
    call_command("loaddata", "fixtures/rule_summaries.json", verbosity=0)
    with translation.override("en"):
        url = reverse("games:game-rules", kwargs={"slug": "villa-paletti", "language": "en"})
        response = client.get(url)
    assert "Last updated 29 November 2026." in response.content.decode()


@pytest.mark.parametrize(
    ("language", "family", "category"),
    [
        ("fr", "Famille A — Jeux d'assemblage", "A 400 — Jeux de règles"),
        ("da", "Familie A — Konstruktionslege", "A 400 — Regelspil"),
        ("pl", "Rodzina A — Zabawy konstrukcyjne", "A 400 — Gry z regułami"),
        ("en", "Family A — Assembly play", "A 400 — Games with rules"),
    ],
)
def test_esar_filter_labels_families_as_families(seed, language, family, category):
    with translation.override(language):
        labels = [str(label) for _, label in GameFilter().form.fields["esar"].choices]
    assert family in labels
    assert category in labels


@pytest.mark.parametrize(
    ("language", "link"),
    [
        ("fr", "Voir les jeux trouvés (plus de %(count)s)"),
        ("da", "Se de fundne spil (over %(count)s)"),
    ],
)
def test_the_capped_count_link_reads_naturally(language, link):
    with translation.override(language):
        assert translation.gettext("See the more than %(count)s games found") == link


def test_every_alhambra_summary_gives_dirk_his_buildings_and_the_72_cards():
    summaries = json.loads((FIXTURES / "rule_summaries.json").read_text(encoding="utf-8"))
    alhambra = [s["fields"] for s in summaries if s["fields"]["game"] == ["alhambra"]]
    assert sorted(s["language"] for s in alhambra) == sorted(LANGUAGES)
    for summary in alhambra:
        variant = summary["text"].split("## ")[-1]
        assert "Dirk" in variant and " 6 " in variant and "72" in variant, summary["language"]


# The apps whose words staff read in the admin. What Django and these apps do not translate
# into Danish or Polish, locale/ does: a Danish page should show neither the fallback's
# French (settings.LANGUAGE_CODE; test_visitor_language) nor English words.
THIRD_PARTY_APPS = [
    "django.conf",
    "django.contrib.admin",
    "django.contrib.auth",
    "import_export",
    "axes",
    "rest_framework",
    "reversion",
    "django_filters",
]


def _catalogue(package, language):
    import importlib

    folder = Path(importlib.import_module(package).__file__).parent
    path = folder / "locale" / language / "LC_MESSAGES" / "django.mo"
    if not path.exists():
        return set()
    return {(e.msgctxt, e.msgid) for e in polib.mofile(str(path)) if e.msgstr or e.msgstr_plural}


@pytest.mark.parametrize("language", ["da", "pl"])
def test_no_third_party_text_falls_back_to_french(language):
    own = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    translated = {(e.msgctxt, e.msgid) for e in own.translated_entries()}
    for package in THIRD_PARTY_APPS:
        translated |= _catalogue(package, language)
    french_only = sorted(
        f"{package}: {msgid}"
        for package in THIRD_PARTY_APPS
        for context, msgid in _catalogue(package, "fr")
        if (context, msgid) not in translated and msgid != "DATE_FORMAT"
    )
    assert french_only == []


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("da", ("Eksportér", "Denne eksport omfatter følgende felter", "Vælg alle")),
        ("pl", ("Eksport obejmie następujące pola", "Zaznacz wszystkie")),
        ("fr", ("Tout sélectionner",)),
    ],
)
def test_the_export_page_speaks_the_staff_language(admin_client, seed, language, words):
    with translation.override(language):
        text = admin_client.get(reverse("admin:games_game_export")).content.decode()
    for word in words:
        assert word in text
    assert "Select all" not in text
    if language != "fr":
        assert "Cet exportateur" not in text and "Exporter" not in text
        with translation.override(language):
            import_page = admin_client.get(reverse("admin:games_game_import")).content.decode()
        assert "Cet importateur" not in import_page and "Envoyer" not in import_page
        axes = admin_client.get(f"/{language}/admin/").content.decode()
        assert "Échecs de connexion" not in axes and "Jeton d&#x27;authentification" not in axes


@pytest.mark.parametrize(
    ("language", "header"),
    [
        ("fr", "Administration de la ludothèque"),
        ("da", "Legotekets administration"),
        ("en", "Ludothèque administration"),
    ],
)
def test_the_admin_header_names_the_site(admin_client, language, header):
    with translation.override(language):
        text = admin_client.get(reverse("admin:index")).content.decode()
    assert header in text
    assert "Django administration" not in text


@pytest.mark.parametrize(
    ("language", "not_found", "not_json"),
    [
        ("da", "Ikke fundet.", "Forespørgslens indhold er ikke gyldig JSON."),
        ("pl", None, "Treść żądania nie jest poprawnym JSON-em."),
        ("fr", None, "Le corps de la requête n'est pas du JSON valide."),
    ],
)
def test_api_errors_speak_the_reader_language(client, seed, language, not_found, not_json):
    with translation.override(language):
        expected_not_found = translation.gettext("Not found.")
    missing = client.get(
        reverse("api:game-detail", kwargs={"slug": "nope"}), HTTP_ACCEPT_LANGUAGE=language
    )
    assert missing.status_code == 404
    assert missing.json() == {"code": "not_found", "detail": expected_not_found}
    if not_found:
        assert expected_not_found == not_found
    broken = client.post(
        reverse("api:score-alhambra"),
        data="{oops",
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert broken.status_code == 400
    assert broken.json()["detail"] == not_json


@pytest.mark.parametrize(
    ("language", "done", "updated"),
    [
        ("fr", "Terminé\u00a0: aucune notice.", "Terminé\u00a0: 1 mis à jour."),
        ("da", "Færdig: ingen poster.", "Færdig: 1 opdateret."),
        ("pl", "Gotowe: brak rekordów.", "Gotowe: 1 zaktualizowany."),
        ("en", "Done: no records.", "Done: 1 updated."),
    ],
)
def test_the_import_report_ends_with_a_sentence_in_the_staff_language(language, done, updated):
    from games.unimarc.report import report_lines
    from games.unimarc.services import ImportReport, RecordOutcome

    with translation.override(language):
        assert report_lines(ImportReport(), verbose=False) == [done]
        one = ImportReport(outcomes=[RecordOutcome(number=1, action="updated", title="Alhambra")])
        assert report_lines(one, verbose=False)[-1] == updated


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", "les joueurs suivants choisissent la leur"),
        ("da", "de følgende spillere vælger selv deres"),
        ("pl", "kolejni gracze sami wybierają swoje kolory"),
        ("en", "the following players choose theirs"),
    ],
)
def test_the_polish_rules_note_names_the_polish_colour_choice(language, words):
    # The Polish text: "Kolejni gracze wybierają swoje kolory" (only the youngest throws).
    summaries = json.loads((FIXTURES / "rule_summaries.json").read_text(encoding="utf-8"))
    (text,) = [
        s["fields"]["text"]
        for s in summaries
        if s["fields"]["game"] == ["villa-paletti"] and s["fields"]["language"] == language
    ]
    headings = ("- **Règles polonaises**", "- **Polske regler**", "- **Zasady polskie**")
    (note,) = [line for line in text.splitlines() if line.startswith((*headings, "- **Polish"))]
    assert words in note


@pytest.mark.parametrize(
    ("language", "too_few"),
    [
        ("fr", "Cette valeur doit être supérieure ou égale à 1."),
        ("da", "Værdien skal være mindst 1."),
        ("en", "Ensure this value is greater than or equal to 1."),
    ],
)
def test_a_number_below_its_minimum_is_refused_in_a_whole_sentence(seed, language, too_few):
    # Django's own Danish lacks "med" ("større end eller lig 1"), its French is empty.
    with translation.override(language):
        form = GameFilter(data={"players": "0"}).form
        assert not form.is_valid()
        assert form.errors["players"] == [too_few]


@pytest.mark.parametrize(
    ("url", "title"),
    [
        ("admin:games_game_changelist", "Wybierz do zmiany: gra"),
        ("admin:games_game_add", "Dodawanie: gra"),
    ],
)
def test_polish_admin_titles_do_not_decline_the_model_name_wrongly(admin_client, seed, url, title):
    # "Wybierz gra do zmiany" needs the accusative ("grę"); the name after a colon needs none.
    with translation.override("pl"):
        page = admin_client.get(reverse(url))
    assert f"<title>{title} |" in page.content.decode()


def _po_entries(language):
    for domain in ("django", "djangojs"):
        yield from polib.pofile(
            str(LOCALE / language / "LC_MESSAGES" / f"{domain}.po")
        ).translated_entries()


# "match" the noun (a match, this match, the match's), not the verb ("does not match").
MATCH_THE_NOUN = re.compile(
    r"\b(the|a|this|new|that|Paletti) match(es)?\b|\bmatch's\b|^match(es)?$", re.IGNORECASE
)


@pytest.mark.parametrize(("language", "word"), [("da", "parti"), ("pl", "rozgryw")])
def test_a_match_is_a_parti_in_danish_and_a_rozgrywka_in_polish(language, word):
    wrong = [
        entry.msgid
        for entry in _po_entries(language)
        if MATCH_THE_NOUN.search(entry.msgid)
        and not all(word in text.lower() for text in [entry.msgstr, *entry.msgstr_plural.values()])
    ]
    assert wrong == []


def test_french_does_not_call_a_named_player_il():
    # A player named by %(name)s may be anyone: the sentence repeats the name or avoids the
    # pronoun ("… et passera son tour tant que …").
    wrong = [
        text
        for entry in _po_entries("fr")
        if "%(name)s" in entry.msgid and re.search(r"\b(they|their|them)\b", entry.msgid)
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if re.search(r"\b(il|ils|lui)\b", text)
    ]
    assert wrong == []


def test_polish_names_a_language_field_po_francusku_everywhere():
    fields = [
        entry.msgstr
        for entry in _po_entries("pl")
        if re.fullmatch(r"(name|label) \((French|Danish|Polish|English)\)", entry.msgid)
    ]
    assert len(fields) == 8
    assert [text for text in fields if not re.fullmatch(r"nazwa \(po \w+\)", text)] == []


@pytest.mark.parametrize(
    ("language", "section", "heading"),
    [("fr", "Tâches en arrière-plan", "tâche"), ("da", "Baggrundsopgaver", "opgave")],
)
def test_the_background_tasks_read_in_the_staff_language(admin_client, language, section, heading):
    from django_tasks_db.models import DBTaskResult

    from games.lending.tasks import send_member_link_if_known

    send_member_link_if_known.enqueue("L0001", "someone@example.org")
    with translation.override(language):
        index = admin_client.get(reverse("admin:index")).content.decode()
        listing = admin_client.get(
            reverse("admin:django_tasks_database_dbtaskresult_changelist")
        ).content.decode()
    assert section in index and "Tasks Database Backend" not in index
    assert f">{heading.capitalize()}<" in listing or f">{heading}<" in listing
    assert "send_member_link_if_known" in listing
    assert "Task name" not in listing and "Task Results" not in listing
    assert DBTaskResult.objects.count() == 1
