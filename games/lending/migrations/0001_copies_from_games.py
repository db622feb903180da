"""Copies, contents and their checks, taken over from the catalogue's app (games) in the
state only: the tables keep their names (``games_copy``…) and every row. Their content types
move to this app, so the permissions on them (the Ludothécaire group's, a user's own) and
the admin's history stay attached."""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ["copy", "contentitem", "copycheck", "copycheckline"]


def move_content_types(apps, schema_editor, source="games", target="lending"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not ContentType.objects.filter(app_label=target, model=model).exists():
            ContentType.objects.filter(app_label=source, model=model).update(app_label=target)
    from django.contrib.contenttypes.models import ContentType as LiveContentType

    LiveContentType.objects.clear_cache()


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, source="lending", target="games")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0019_copies_move_to_lending"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="ContentItem",
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
                        ("name_fr", models.CharField(max_length=200, verbose_name="name (French)")),
                        (
                            "name_da",
                            models.CharField(
                                blank=True, max_length=200, verbose_name="name (Danish)"
                            ),
                        ),
                        (
                            "name_pl",
                            models.CharField(
                                blank=True, max_length=200, verbose_name="name (Polish)"
                            ),
                        ),
                        (
                            "name_en",
                            models.CharField(
                                blank=True, max_length=200, verbose_name="name (English)"
                            ),
                        ),
                        (
                            "count",
                            models.PositiveSmallIntegerField(
                                default=1,
                                validators=[django.core.validators.MinValueValidator(1)],
                                verbose_name="count",
                            ),
                        ),
                        (
                            "order",
                            models.PositiveSmallIntegerField(default=0, verbose_name="order"),
                        ),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="content_items",
                                to="games.game",
                                verbose_name="game",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "content item",
                        "verbose_name_plural": "content items",
                        "db_table": "games_contentitem",
                        "ordering": ["game", "order", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="Copy",
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
                            "barcode",
                            models.CharField(max_length=50, unique=True, verbose_name="barcode"),
                        ),
                        (
                            "call_number",
                            models.CharField(blank=True, max_length=50, verbose_name="call number"),
                        ),
                        (
                            "location",
                            models.CharField(blank=True, max_length=100, verbose_name="location"),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("available", "available"),
                                    ("on_loan", "on loan"),
                                    ("in_repair", "in repair"),
                                    ("incomplete", "incomplete"),
                                    ("withdrawn", "withdrawn"),
                                ],
                                default="available",
                                max_length=20,
                                verbose_name="status",
                            ),
                        ),
                        (
                            "condition_note",
                            models.TextField(blank=True, verbose_name="condition note"),
                        ),
                        (
                            "acquired",
                            models.DateField(blank=True, null=True, verbose_name="date acquired"),
                        ),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="copies",
                                to="games.game",
                                verbose_name="game",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "copy",
                        "verbose_name_plural": "copies",
                        "db_table": "games_copy",
                        "ordering": ["barcode"],
                    },
                ),
                migrations.CreateModel(
                    name="CopyCheck",
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
                            "checked_at",
                            models.DateTimeField(auto_now_add=True, verbose_name="checked"),
                        ),
                        ("complete", models.BooleanField(verbose_name="complete")),
                        ("note", models.TextField(blank=True, verbose_name="note")),
                        (
                            "checked_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="copy_checks",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="checked by",
                            ),
                        ),
                        (
                            "copy",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="checks",
                                to="lending.copy",
                                verbose_name="copy",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "check of a copy",
                        "verbose_name_plural": "checks of copies",
                        "db_table": "games_copycheck",
                        "ordering": ["-checked_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="CopyCheckLine",
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
                        ("expected", models.PositiveSmallIntegerField(verbose_name="expected")),
                        ("found", models.PositiveSmallIntegerField(verbose_name="found")),
                        (
                            "copy_check",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="lines",
                                to="lending.copycheck",
                            ),
                        ),
                        (
                            "item",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="lending.contentitem",
                                verbose_name="item",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_copycheckline",
                        "ordering": ["item__order", "item_id"],
                    },
                ),
                migrations.AddConstraint(
                    model_name="contentitem",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("count__gte", 1)), name="contentitem_count_positive"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="contentitem",
                    constraint=models.UniqueConstraint(
                        fields=("game", "order"), name="contentitem_one_per_place"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="copy",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("barcode", ""), _negated=True),
                        name="copy_barcode_not_empty",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="copycheckline",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("found__lte", models.F("expected"))),
                        name="checkline_found_le_expected",
                    ),
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
