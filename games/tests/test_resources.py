"""CSV export and import of games round-trip without loss."""

import csv
import io

import pytest
import tablib

from games.models import Game, GameAuthor, Person
from games.resources import GameResource

pytestmark = pytest.mark.django_db

FIELDS = [
    "slug",
    "title",
    "document_type",
    "year",
    "min_players",
    "max_players",
    "min_age",
    "max_age",
    "duration_minutes",
    "principle",
    "pedagogical_analysis",
    "rules",
    "contents",
    "ean",
    "bgg_id",
]


def snapshot():
    records = {}
    for game in Game.objects.order_by("slug"):
        records[game.slug] = {
            **{field: getattr(game, field) for field in FIELDS},
            "publisher": game.publisher.name if game.publisher else None,
            "esar": game.esar.code,
            "languages": sorted(game.languages.values_list("code", flat=True)),
            "credits": [(c.person.name, c.role) for c in game.credits.order_by("order", "id")],
        }
    return records


def test_export_then_import_restores_every_field(seed):
    before = snapshot()
    csv_text = GameResource().export().csv
    assert "Bill Payne (author)" in csv_text
    GameAuthor.objects.all().delete()
    Game.objects.all().delete()
    Person.objects.all().delete()

    result = GameResource().import_data(tablib.Dataset().load(csv_text, format="csv"))

    assert not result.has_errors() and not result.has_validation_errors()
    assert snapshot() == before


def test_a_cell_a_spreadsheet_would_run_is_exported_inert_and_imports_back_whole(seed):
    game = Game.objects.get(slug="alhambra")
    game.title = '=HYPERLINK("http://evil.example","Alhambra")'
    game.principle = "-1+2 @ every turn"
    game.save()
    csv_text = GameResource().export().csv
    cells = [cell for row in csv.reader(io.StringIO(csv_text)) for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]
    assert "'=HYPERLINK" in csv_text and "'-1+2 @ every turn" in csv_text
    before = snapshot()
    result = GameResource().import_data(tablib.Dataset().load(csv_text, format="csv"))
    assert not result.has_errors() and not result.has_validation_errors()
    assert snapshot() == before


def test_reimport_updates_in_place(seed):
    csv_text = GameResource().export().csv.replace("Villa Paletti", "Villa Paletti (2e éd.)", 1)
    result = GameResource().import_data(tablib.Dataset().load(csv_text, format="csv"))
    assert not result.has_errors()
    assert Game.objects.count() == 3
    assert Game.objects.get(slug="villa-paletti").title == "Villa Paletti (2e éd.)"
    assert GameAuthor.objects.filter(game__slug="villa-paletti").count() == 1


def test_bad_row_is_reported_and_nothing_is_written(seed):
    dataset = GameResource().export()
    dataset.append(
        [
            "broken",
            "Broken",
            "",
            "object",
            "",
            "",
            "",
            "",
            "A 400",
            "5",
            "2",
            "8",
            "",
            "30",
            "",
            "",
            "",
            "",
            "",
            "",
        ]
    )
    result = GameResource().import_data(dataset, raise_errors=False, use_transactions=True)
    assert result.has_errors() or result.has_validation_errors()
    assert not Game.objects.filter(slug="broken").exists()
