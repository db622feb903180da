"""Copies, contents and their checks now belong to the lending app (games.lending): this
removes them from the catalogue's state only. Their tables stay as they are, with every row;
lending's first migration takes them over under the same names."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_ean_check_digit"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name="copycheckline",
                    name="item",
                ),
                migrations.RemoveField(
                    model_name="copy",
                    name="game",
                ),
                migrations.RemoveField(
                    model_name="copycheck",
                    name="copy",
                ),
                migrations.RemoveField(
                    model_name="copycheck",
                    name="checked_by",
                ),
                migrations.RemoveField(
                    model_name="copycheckline",
                    name="copy_check",
                ),
                migrations.DeleteModel(
                    name="ContentItem",
                ),
                migrations.DeleteModel(
                    name="Copy",
                ),
                migrations.DeleteModel(
                    name="CopyCheck",
                ),
                migrations.DeleteModel(
                    name="CopyCheckLine",
                ),
            ],
        )
    ]
