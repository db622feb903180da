"""Full-text search: a stored, weighted tsvector on PostgreSQL, FTS5 tables on SQLite.

Replaces the folded search document (a substring scan: 3 s at 100 000 games).

PostgreSQL: unaccented copies of the french, danish, english and simple configurations
(``unaccent`` as a filtering dictionary before the stemmer, so the stored vector and the
query are folded alike and stay IMMUTABLE), a GIN index on the vector and a trigram index on
the folded title (typos). SQLite: an FTS5 table of the folded texts (bm25-ranked) and an FTS5
trigram table of the folded titles. Existing games are indexed at the end, with this
migration's historical models and its own copy of the indexing (``index_existing_games``).
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
    index_existing_games(apps, vendor, schema_editor)


# What games.search.index_games built when this migration was written, frozen here with the
# historical models: today's index_games reads columns later migrations add (0006's
# search_terms), so calling it from here broke the upgrade of a populated database.
SUMMARY_CONFIGS = {
    "fr": "ludo_french",
    "da": "ludo_danish",
    "en": "ludo_english",
    "pl": "ludo_simple",
}
RECORD_CONFIG = "ludo_french"


def index_existing_games(apps, vendor, schema_editor):
    from collections import defaultdict

    from games.text import fold  # a pure function of text, no model

    Game = apps.get_model("games", "Game")
    GameAuthor = apps.get_model("games", "GameAuthor")
    RuleSummary = apps.get_model("games", "RuleSummary")
    db = schema_editor.connection.alias
    games = list(Game.objects.using(db).select_related("publisher"))
    people = defaultdict(list)
    for game_id, name in GameAuthor.objects.using(db).values_list("game_id", "person__name"):
        people[game_id].append(name)
    summaries = defaultdict(dict)
    for game_id, language, text in RuleSummary.objects.using(db).values_list(
        "game_id", "language", "text"
    ):
        summaries[game_id][language] = text
    rows = []
    for game in games:
        names = people[game.pk] + ([game.publisher.name] if game.publisher_id else [])
        rows.append(
            {
                "id": game.pk,
                "title": game.title,
                "search_title": fold(game.title),
                "people": " ".join(names),
                "record": "\n".join(p for p in (game.principle, game.pedagogical_analysis) if p),
                "body": "\n".join(p for p in (game.rules, game.contents) if p),
                "summaries": summaries[game.pk],
            }
        )
    if not rows:
        return
    with schema_editor.connection.cursor() as cursor:
        if vendor == "postgresql":
            summary_parts = " || ".join(
                f"setweight(to_tsvector('{config}', %({code})s), 'C')"
                for code, config in SUMMARY_CONFIGS.items()
            )
            cursor.executemany(
                f"""UPDATE games_game SET search_title = %(search_title)s, search_vector =
                    setweight(to_tsvector('ludo_simple', %(title)s), 'A')
                    || setweight(to_tsvector('{RECORD_CONFIG}', %(title)s), 'A')
                    || setweight(to_tsvector('ludo_simple', %(people)s), 'B')
                    || setweight(to_tsvector('{RECORD_CONFIG}', %(record)s), 'C')
                    || {summary_parts}
                    || setweight(to_tsvector('{RECORD_CONFIG}', %(body)s), 'D')
                WHERE id = %(id)s""",  # noqa: S608 (configuration names only)
                [
                    {
                        **{k: row[k] for k in ("id", "title", "search_title", "people")},
                        "record": row["record"],
                        "body": row["body"],
                        **{code: row["summaries"].get(code, "") for code in SUMMARY_CONFIGS},
                    }
                    for row in rows
                ],
            )
        elif vendor == "sqlite":
            cursor.executemany(
                "UPDATE games_game SET search_title = %s WHERE id = %s",
                [(row["search_title"], row["id"]) for row in rows],
            )
            cursor.executemany(
                "INSERT INTO games_game_fts (rowid, title, people, record, summaries, body) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                [
                    (
                        row["id"],
                        row["search_title"],
                        fold(row["people"]),
                        fold(row["record"]),
                        fold("\n".join(row["summaries"].values())),
                        fold(row["body"]),
                    )
                    for row in rows
                ],
            )
            cursor.executemany(
                "INSERT INTO games_game_title_trgm (rowid, title) VALUES (%s, %s)",
                [(row["id"], row["search_title"]) for row in rows],
            )


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
