"""The UNIMARC import's record of where a game came from now belongs to the UNIMARC app
(games.unimarc): this removes it from the catalogue's state only. Its table stays as it is,
with every row; the UNIMARC app's first migration takes it over under the same name."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_copies_move_to_lending"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[migrations.DeleteModel(name="ImportedRecord")],
        )
    ]
