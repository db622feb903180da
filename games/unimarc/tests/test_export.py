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
from games.unimarc.export import export_unimarc
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
                    "barcode", "call_number", "location", "status", "condition_note", "acquired"
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
    assert record["700"]["a"] == "Bill Payne" and record["700"]["4"] == "070"
    assert record["210"]["c"] == "Zoch"
    assert record["101"]["a"] == "fre"
    assert record["606"]["a"].startswith("A 404 ")
    custom = {f["n"]: (f["l"], f["a"]) for f in record.get_fields("900")}
    assert custom["nb_joueurs_min"] == ("Nombre minimum de joueurs", "2")
    assert custom["duree"] == ("Durée moyenne (minutes)", "30")
    assert "maître d'œuvre" in custom["contenu"][1]


def _round_trip(file_format):
    make_game(
        title="Jeu complet",
        slug="jeu-complet",
        ean="4010349602106",
        bgg_id=6249,
        year=2001,
        max_age=None,
        document_type="kit",
        rules="Ligne 1\nLigne 2",
    )
    GameAuthor.objects.create(
        game=Game.objects.get(slug="jeu-complet"),
        person=GameAuthor.objects.first().person,
        role="developer",
    )
    villa = Game.objects.get(slug="villa-paletti")
    Copy.objects.create(
        game=villa,
        barcode="J0001",
        call_number="JEU ADR PAY",
        location="Ludothèque",
        status="in_repair",
        condition_note="1 colonne fendue",
        acquired=datetime.date(2023, 10, 5),
    )
    Copy.objects.create(game=villa, barcode="J0002")
    before = catalogue()
    content = export_unimarc(file_format=file_format)
    RuleSummary.objects.all().delete()
    Game.objects.all().delete()
    report = import_unimarc(content, options=ImportOptions())
    assert [o.action for o in report.outcomes] == ["created"] * len(before), report.failed
    assert catalogue() == before


def test_round_trip_iso2709(seed):
    _round_trip("iso2709")


def test_round_trip_xml(seed):
    _round_trip("xml")


def test_the_command_writes_a_file(seed, tmp_path):
    path = tmp_path / "catalogue.xml"
    call_command("export_unimarc", "--format", "xml", "--output", str(path))
    records = pymarc.parse_xml_to_array(str(path))
    assert sorted(r["200"]["a"] for r in records) == sorted(
        Game.objects.values_list("title", flat=True)
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
