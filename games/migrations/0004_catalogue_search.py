"""Full-text search: a stored, weighted tsvector on PostgreSQL, FTS5 tables on SQLite.

Replaces the folded search document (a substring scan: 3 s at 100 000 games, see issue 12).

PostgreSQL: unaccented copies of the french, danish, english and simple configurations
(``unaccent`` as a filtering dictionary before the stemmer, so the stored vector and the
query are folded alike and stay IMMUTABLE), a GIN index on the vector and a trigram index on
the folded title (typos). SQLite: an FTS5 table of the folded texts (bm25-ranked) and an FTS5
trigram table of the folded titles. Existing games are indexed at the end.
"""

import django.contrib.postgres.search
from django.db import migrations, models

CONFIGS = {
    "ludo_french": "french_stem",
    "ludo_danish": "danish_stem",
    "ludo_english": "english_stem",
    "ludo_simple": "simple",
}


def create_search(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS unaccent")
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for name, dictionary in CONFIGS.items():
            schema_editor.execute(
                f"CREATE TEXT SEARCH CONFIGURATION {name} (COPY = {name.removeprefix('ludo_')})"
            )
            schema_editor.execute(
                f"ALTER TEXT SEARCH CONFIGURATION {name} ALTER MAPPING FOR "
                f"asciiword, asciihword, hword_asciipart, word, hword, hword_part "
                f"WITH unaccent, {dictionary}"
            )
        schema_editor.execute(
            "CREATE INDEX games_game_search_vector ON games_game USING gin (search_vector)"
        )
        schema_editor.execute(
            "CREATE INDEX games_game_search_title_trgm "
            "ON games_game USING gin (search_title gin_trgm_ops)"
        )
    elif vendor == "sqlite":
        schema_editor.execute(
            "CREATE VIRTUAL TABLE games_game_fts USING fts5("
            "title, people, record, summaries, body, "
            "tokenize='unicode61 remove_diacritics 2')"
        )
        schema_editor.execute(
            "CREATE VIRTUAL TABLE games_game_title_trgm USING fts5(title, tokenize='trigram')"
        )
    # The search data is built by the code that keeps it current (games.search).
    from games.search import index_games

    Game = apps.get_model("games", "Game")
    ids = list(Game.objects.values_list("pk", flat=True))
    for start in range(0, len(ids), 500):
        index_games(ids[start : start + 500])


def drop_search(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS games_game_search_vector")
        schema_editor.execute("DROP INDEX IF EXISTS games_game_search_title_trgm")
        for name in CONFIGS:
            schema_editor.execute(f"DROP TEXT SEARCH CONFIGURATION IF EXISTS {name}")
    elif vendor == "sqlite":
        schema_editor.execute("DROP TABLE IF EXISTS games_game_fts")
        schema_editor.execute("DROP TABLE IF EXISTS games_game_title_trgm")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_ludothecaire_group"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="game",
            name="search_document",
        ),
        migrations.AddField(
            model_name="game",
            name="search_title",
            field=models.CharField(blank=True, default="", editable=False, max_length=200),
        ),
        migrations.AddField(
            model_name="game",
            name="search_vector",
            field=django.contrib.postgres.search.SearchVectorField(editable=False, null=True),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["min_players", "max_players"], name="game_players_idx"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["min_age", "max_age"], name="game_age_idx"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["duration_minutes"], name="game_duration_idx"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["title"], name="game_title_idx"),
        ),
        migrations.RunPython(create_search, drop_search),
    ]
