"""The UNIMARC export: PMB's layout, UTF-8, and a round trip that gives the catalogue back."""

import datetime

import pymarc
import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.lending.models import Copy
from games.models import Game, GameAuthor, RuleSummary
from games.tests.factories import make_game
from games.unimarc.export import export_unimarc, title_parts
from games.unimarc.reading import read_file
from games.unimarc.services import ImportOptions, game_values, import_unimarc

pytestmark = pytest.mark.django_db


def catalogue():
    """Every game's every imported field and its copies, by slug."""
    return {
        game.slug: {
            **game_values(game),
            "copies": list(
                game.copies.values_list(
                    "barcode",
                    "call_number",
                    "location",
                    "section",
                    "status",
                    "condition_note",
                    "acquired",
                )
            ),
        }
        for game in Game.objects.all()
    }


def test_the_export_is_in_pmbs_layout_and_utf8(seed):
    content = export_unimarc(Game.objects.filter(slug="villa-paletti"))
    read = list(read_file(content))
    assert len(read) == 1 and read[0].encoding == "UTF-8"
    record = read[0].record
    assert str(record.leader)[5:9] == "nrm0"
    assert str(record.leader)[9] == " "  # UNIMARC leaves it blank; 100$a says UTF-8
    assert record["100"]["a"][26:30] == "50  "
    assert record["200"]["a"] == "Villa Paletti"
    assert record["210"]["c"] == "Zoch"
    assert record["101"]["a"] == "fre"
    assert record["606"]["a"].startswith("A 404 ")
    custom = {f["n"]: (f["l"], f["a"], f["t"]) for f in record.get_fields("900")}
    assert custom["nb_joueurs_min"] == ("Nombre minimum de joueurs", "2", "text")
    assert custom["duree"] == ("Durée moyenne (minutes)", "30", "text")
    assert "maître d'œuvre" in custom["contenu"][1] and custom["contenu"][2] == "comment"


def test_people_are_surname_and_forename_as_pmb_keeps_them(seed):
    villa = Game.objects.get(slug="villa-paletti")
    person = villa.credits.get().person
    person.name = "Jean de La Fontaine"
    person.save()
    record = next(read_file(export_unimarc(Game.objects.filter(pk=villa.pk)))).record
    assert (record["700"]["a"], record["700"]["b"], record["700"]["4"]) == (
        "La Fontaine",
        "Jean de",
        "070",
    )


def test_the_other_title_is_200_e_and_the_summary_and_contents_have_their_fields(seed):
    prince = Game.objects.get(slug="le-petit-prince-fabrique-moi-une-planete")
    record = next(read_file(export_unimarc(Game.objects.filter(pk=prince.pk)))).record
    assert record["200"]["a"] == "Le Petit Prince"
    assert record["200"]["e"] == "Fabrique-moi une planète"
    assert record["330"]["a"] == prince.principle
    extent = record["215"]["a"]
    assert len(extent) <= 255 and "\n" not in extent
    assert extent.split(" ; ")[0] == prince.contents.splitlines()[0].strip()


def test_copies_carry_pmbs_item_fields_lender_section_location_and_status_codes(seed):
    villa = Game.objects.get(slug="villa-paletti")
    Copy.objects.create(
        game=villa,
        barcode="J0001",
        call_number="JEU ADR PAY",
        location="Annexe",
        section="Jeux d'adresse",
        status="in_repair",
        condition_note="1 colonne fendue",
    )
    Copy.objects.create(game=villa, barcode="J0002")
    record = next(read_file(export_unimarc(Game.objects.filter(pk=villa.pk)))).record
    first, second = record.get_fields("995")
    assert [first.get(code) for code in "abcfkuoqr"] == [
        "Ludothèque",
        None,  # no lender code unless the site has one
        "Ludothèque",
        "J0001",
        "JEU ADR PAY",
        "1 colonne fendue",
        "r",
        "u",
        "zu",
    ]
    assert second["o"] == "d" and second["f"] == "J0002"
    items = record.get_fields("996")
    columns = dict(value.split(":", 1) for value in items[0].get_subfields("9"))
    assert columns["statut_libelle"] == "En réparation" == items[0]["1"]
    assert columns["statusdoc_codage_import"] == "r" and columns["pret_flag"] == "0"
    assert columns["location_libelle"] == "Annexe" == items[0]["v"]
    assert columns["section_libelle"] == "Jeux d'adresse" == items[0]["x"]
    assert columns["lender_libelle"] == "Ludothèque"
    # a copy without a section is written in the site's default one (PMB gives each one)
    assert dict(v.split(":", 1) for v in items[1].get_subfields("9"))["section_libelle"] == "Jeux"


PMB_SITE = {
    "lender": "Ludothèque de Roubaix",
    "lender_code": "LR",
    "custom_fields": {
        "min_players": ("cp_joueurs_min", "Joueurs (minimum)", "text"),
        "principle": None,
    },
    "statuses": {"in_repair": ("À réparer", "REP", False), "on_loan": ("Sorti", "S", True)},
    "section_codes": {"Jeux d'adresse": "adr"},
}


def test_the_site_setting_names_custom_fields_statuses_and_lender(seed, settings):
    settings.UNIMARC_PMB_SITE = PMB_SITE
    villa = Game.objects.get(slug="villa-paletti")
    Copy.objects.create(game=villa, barcode="J0001", status="in_repair", section="Jeux d'adresse")
    record = next(read_file(export_unimarc(Game.objects.filter(pk=villa.pk)))).record
    names = {f["n"]: f["a"] for f in record.get_fields("900")}
    assert names["cp_joueurs_min"] == "2" and "nb_joueurs_min" not in names
    assert "principe" not in names and names["duree"] == "30"  # the others keep ours
    item = record["995"]
    assert (item["a"], item["b"], item["o"], item["q"]) == (
        "Ludothèque de Roubaix",
        "LR",
        "REP",
        "adr",
    )
    assert record["996"]["1"] == "À réparer"


def _round_trip(file_format):
    make_game(
        title="Le Jeu complet",
        sort_title="Jeu complet",  # the export marks "Le " as not sorting
        slug="le-jeu-complet",
        ean="4010349602106",
        bgg_id=6249,
        year=2001,
        max_age=None,
        document_type="kit",
        rules="Ligne 1\nLigne 2",
    )
    GameAuthor.objects.create(
        game=Game.objects.get(slug="le-jeu-complet"),
        person=GameAuthor.objects.first().person,
        role="developer",
    )
    villa = Game.objects.get(slug="villa-paletti")
    Copy.objects.create(
        game=villa,
        barcode="J0001",
        call_number="JEU ADR PAY",
        location="Ludothèque",
        section="Jeux d'adresse",
        status="in_repair",
        condition_note="1 colonne fendue",
        acquired=datetime.date(2023, 10, 5),
    )
    Copy.objects.create(game=villa, barcode="J0002", status="on_loan")
    Copy.objects.create(game=villa, barcode="J0003", status="withdrawn", location="Réserve")
    before = catalogue()
    content = export_unimarc(file_format=file_format)
    RuleSummary.objects.all().delete()
    Game.objects.all().delete()
    report = import_unimarc(content, options=ImportOptions())
    assert [o.action for o in report.outcomes] == ["created"] * len(before), report.failed
    assert catalogue() == before


def test_the_export_marks_the_article_the_sort_title_drops(seed):
    make_game(title="Le Petit Prince", sort_title="Petit Prince", slug="le-petit-prince")
    read = read_file(export_unimarc(Game.objects.filter(slug__in=["le-petit-prince", "alhambra"])))
    titles = sorted(item.record["200"]["a"] for item in read)
    assert titles == ["Alhambra", "\x88Le \x89Petit Prince"]


def test_round_trip_iso2709(seed):
    _round_trip("iso2709")


def test_round_trip_xml(seed):
    _round_trip("xml")


def test_round_trip_with_the_sites_own_names(seed, settings):
    settings.UNIMARC_PMB_SITE = PMB_SITE
    _round_trip("iso2709")


def test_the_command_writes_a_file(seed, tmp_path):
    path = tmp_path / "catalogue.xml"
    call_command("export_unimarc", "--format", "xml", "--output", str(path))
    records = pymarc.parse_xml_to_array(str(path))
    assert sorted(r["200"]["a"] for r in records) == sorted(
        title_parts(title)[0] for title in Game.objects.values_list("title", flat=True)
    )


def test_the_admin_action_exports_the_chosen_games(seed):
    volunteer = User.objects.create_user("vol", password="x", is_staff=True)
    volunteer.groups.add(Group.objects.get(name="Ludothécaire"))
    client = Client()
    client.force_login(volunteer)
    alhambra = Game.objects.get(slug="alhambra")
    response = client.post(
        reverse("admin:games_game_changelist"),
        {"action": "export_unimarc_iso2709", "_selected_action": [alhambra.pk]},
    )
    assert response.status_code == 200
    assert (
        response["Content-Disposition"].endswith('.iso"')
        or ".iso" in response["Content-Disposition"]
    )
    records = [r.record for r in read_file(response.content)]
    assert [r["200"]["a"] for r in records] == ["Alhambra"]
