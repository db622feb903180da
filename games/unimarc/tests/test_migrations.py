"""The import's record of where a game came from moved from the catalogue's app to the
UNIMARC app: a record written before the move is there after it, still tied to its game, so
a re-import still knows what staff edited; and the permission staff held on it follows."""

import pytest
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.unimarc.models import ImportedRecord

BEFORE_THE_MOVE = [("games", "0019_copies_move_to_lending")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_imported_records_and_their_permission_survive_the_move_to_the_unimarc_app():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate(BEFORE_THE_MOVE)
    try:
        esar = old.get_model("games", "EsarCategory").objects.create(
            code="C302", family="R", label_fr="jeu d'adresse"
        )
        game = old.get_model("games", "Game").objects.create(
            esar=esar,
            title="Villa Paletti",
            slug="villa-paletti",
            document_type="object",
            min_players=2,
            max_players=4,
            min_age=8,
            duration_minutes=30,
        )
        old.get_model("games", "ImportedRecord").objects.create(
            game=game, source_id="101", imported_values={"title": "Villa Paletti"}
        )
        old_type = old.get_model("contenttypes", "ContentType").objects.get(
            app_label="games", model="importedrecord"
        )
        group = old.get_model("auth", "Group").objects.get_or_create(name="Ludothécaire")[0]
        group.permissions.add(
            old.get_model("auth", "Permission").objects.get(
                content_type=old_type, codename="view_importedrecord"
            )
        )
    finally:
        migrate(latest)
    record = ImportedRecord.objects.get()
    assert record.source_id == "101" and record.game.slug == "villa-paletti"
    assert record.imported_values == {"title": "Villa Paletti"}
    assert ContentType.objects.get_for_model(ImportedRecord).pk == old_type.pk
    assert not ContentType.objects.filter(app_label="games", model="importedrecord").exists()
    held = Group.objects.get(name="Ludothécaire").permissions.filter(
        content_type__app_label="unimarc"
    )
    assert list(held.values_list("codename", flat=True)) == ["view_importedrecord"]
