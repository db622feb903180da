"""The UNIMARC import's record of where a game came from, taken over from the catalogue's
app (games) in the state only: the table keeps its name (``games_importedrecord``) and every
row. Its content type moves to this app, so the permissions on it (the Ludothécaire group's
``view_importedrecord``, a user's own) and the admin's history stay attached."""

import django.db.models.deletion
from django.db import migrations, models


def move_content_type(apps, schema_editor, source="games", target="unimarc"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label=target, model="importedrecord").exists():
        ContentType.objects.filter(app_label=source, model="importedrecord").update(
            app_label=target
        )
    from django.contrib.contenttypes.models import ContentType as LiveContentType

    LiveContentType.objects.clear_cache()


def move_content_type_back(apps, schema_editor):
    move_content_type(apps, schema_editor, source="unimarc", target="games")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0020_imported_record_moves_to_unimarc"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="ImportedRecord",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "source_id",
                            models.CharField(
                                blank=True,
                                db_index=True,
                                max_length=50,
                                verbose_name="record number in the source",
                            ),
                        ),
                        (
                            "imported_values",
                            models.JSONField(default=dict, verbose_name="imported values"),
                        ),
                        (
                            "picture_url",
                            models.CharField(
                                blank=True, max_length=500, verbose_name="picture address (896 $a)"
                            ),
                        ),
                        (
                            "imported_at",
                            models.DateTimeField(auto_now=True, verbose_name="imported"),
                        ),
                        (
                            "game",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="imported_record",
                                to="games.game",
                                verbose_name="game",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "imported record",
                        "verbose_name_plural": "imported records",
                        "db_table": "games_importedrecord",
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_type, move_content_type_back),
    ]
