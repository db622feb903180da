"""A prefix index on the folded title, for suggestions (see games.search.suggest)."""

from django.db import migrations


def create(apps, schema_editor):
    """PostgreSQL: "LIKE 'tro%'" walks this index in byte order (collation "C", the order
    a prefix range has) and stops at the eighth title, 1 ms at 100 000 games; the trigram
    index handed over every title starting with "tro" (2 820) to be sorted, 19 ms. SQLite
    suggests through its FTS5 tables."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS games_game_search_title_prefix "
            'ON games_game ((search_title COLLATE "C"))'
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS games_game_search_title_prefix")


class Migration(migrations.Migration):
    dependencies = [("games", "0008_merge_search_and_esar_labels")]

    operations = [migrations.RunPython(create, drop)]
