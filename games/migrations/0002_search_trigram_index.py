"""On PostgreSQL, index the folded search text with trigrams so "contains" uses the index.

SQLite has no such index; its scan of a few thousand records is fast enough.
"""

from django.db import migrations


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS games_game_search_trgm "
        "ON games_game USING gin (search_document gin_trgm_ops)"
    )


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP INDEX IF EXISTS games_game_search_trgm")


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(create_index, drop_index)]
