"""Full-text search over the catalogue, on PostgreSQL and on SQLite.

One entry point per need — ``index_games`` keeps the search data current, ``search``
filters and ranks a queryset, ``suggest`` completes titles as a patron types — with one
implementation per database:

- PostgreSQL: a stored ``tsvector`` per game built with each text's own configuration
  (``ludo_french``, ``ludo_danish``, ``ludo_english``; ``ludo_simple`` for Polish, which
  PostgreSQL cannot stem), every one of them unaccented (migration 0004), weighted A (title)
  to D (rules, contents), for ranking; matched through its stripped copy (no positions,
  small enough to stay in the row), GIN-indexed; titles trigram-indexed for typos.
- SQLite: an FTS5 table (``unicode61 remove_diacritics 2``) ranked with ``bm25`` and an
  FTS5 ``trigram`` table over titles for typos, checked with the same similarity as
  PostgreSQL's ``strict_word_similarity``.

Every user word reaches SQL as a query parameter; what is put into SQL strings here is
only configuration names and integer ids (hence the ``noqa: S608/S611``).

Both sides fold the text the same way (``games.text.fold``): "søjle" and "sojle", "Łódź"
and "lodz" are the same word everywhere.
"""

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from django.db import connection
from django.db.models import BooleanField, Case, FloatField, IntegerField, Value, When
from django.db.models.expressions import RawSQL

from .text import fold

# Summary language → text search configuration (created by migration 0004).
PG_CONFIGS = {"fr": "ludo_french", "da": "ludo_danish", "en": "ludo_english", "pl": "ludo_simple"}
# The record itself (principle, analysis, rules, contents) is the ludothèque's: French.
RECORD_CONFIG = "ludo_french"
# Each word of a query must be this similar to a word of a title for a typo to match: with
# pg_trgm's strict_word_similarity "paleti" ~ "paletti" 0.67, "palleti" 0.45, "alhambar"
# 0.5, "palae" 0.27, "joueurs" ~ "jouets" 0.36. Set on each PostgreSQL connection (apps.py).
TYPO_THRESHOLD = 0.4
# Words this short say too little to search for on their own ("d" of "d'œuvre").
MIN_WORD = 2
# Candidates the SQLite trigram table hands to the similarity check.
TRIGRAM_CANDIDATES = 200
SUGGESTION_LIMIT = 8
# Suggestions look for typos only in words this long: "kor" looks like every "ko…" word.
MIN_TYPO_LENGTH = 4
# SQLite: rows read at most to find the suggestions' distinct titles.
SUGGESTION_ROWS = 500
# PostgreSQL: matches kept by id when there are at most this many (the capped count's).
MATCH_LIMIT = 1000
# Best first. Ranking reads every match's search data, so beyond a limit
# (games.pagination.RANK_LIMIT) matches are listed newest first: ``newest_if_many``.
RELEVANCE = ("title_tier", "-text_rank", "title", "pk")

_WORD = re.compile(r"\w+")


def words(query: str) -> list[str]:
    """The folded words of ``query`` worth searching for."""
    return [w for w in _WORD.findall(fold(query)) if len(w) >= MIN_WORD or w.isdigit()]


def is_postgresql() -> bool:
    return connection.vendor == "postgresql"


# ----------------------------------------------------------------------------- indexing


def index_games(game_ids) -> None:
    """Rebuild the search data of these games from their record, people and summaries.

    Called on every save that changes what a game is found by (see ``games.signals``)
    and, in batches, by ``generate_catalogue``.
    """
    from .models import Game, GameAuthor, RuleSummary

    ids = list(game_ids)
    if not ids:
        return
    games = Game.objects.filter(pk__in=ids).select_related("publisher")
    people = defaultdict(list)
    for game_id, name in GameAuthor.objects.filter(game_id__in=ids).values_list(
        "game_id", "person__name"
    ):
        people[game_id].append(name)
    summaries = defaultdict(dict)
    for game_id, language, text in RuleSummary.objects.filter(game_id__in=ids).values_list(
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
    if is_postgresql():
        _index_postgresql(rows)
    else:
        _index_sqlite(rows)


def _index_postgresql(rows):
    summary_parts = " || ".join(
        f"setweight(to_tsvector('{config}', %({code})s), 'C')"
        for code, config in PG_CONFIGS.items()
    )
    sql = f"""
        UPDATE games_game SET search_title = %(search_title)s,
            (search_vector, search_terms) = (SELECT vector, strip(vector) FROM (SELECT
            setweight(to_tsvector('ludo_simple', %(title)s), 'A')
            || setweight(to_tsvector('{RECORD_CONFIG}', %(title)s), 'A')
            || setweight(to_tsvector('ludo_simple', %(people)s), 'B')
            || setweight(to_tsvector('{RECORD_CONFIG}', %(record)s), 'C')
            || {summary_parts}
            || setweight(to_tsvector('{RECORD_CONFIG}', %(body)s), 'D') AS vector) AS built)
        WHERE id = %(id)s
    """  # noqa: S608
    params = [
        {
            **{k: row[k] for k in ("id", "title", "search_title", "people", "record", "body")},
            **{code: row["summaries"].get(code, "") for code in PG_CONFIGS},
        }
        for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def _index_sqlite(rows):
    ids = [(row["id"],) for row in rows]
    with connection.cursor() as cursor:
        cursor.executemany("DELETE FROM games_game_fts WHERE rowid = %s", ids)
        cursor.executemany("DELETE FROM games_game_title_trgm WHERE rowid = %s", ids)
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


def unindex_games(game_ids) -> None:
    """Forget deleted games (PostgreSQL keeps its search data in the deleted row)."""
    if is_postgresql():
        return
    ids = [(pk,) for pk in game_ids]
    with connection.cursor() as cursor:
        cursor.executemany("DELETE FROM games_game_fts WHERE rowid = %s", ids)
        cursor.executemany("DELETE FROM games_game_title_trgm WHERE rowid = %s", ids)


# ----------------------------------------------------------------------------- searching


def search(queryset, query: str, *, rank: bool = True):
    """Games of ``queryset`` matching every word of ``query`` (the last one as a prefix),
    or whose title looks like ``query`` (a typo). With ``rank``, ordered best first: the
    exact title, titles starting with the query, then by text relevance and title.
    """
    terms = words(query)
    if not terms:
        return queryset.none() if query.strip() else queryset
    folded = " ".join(terms)
    if is_postgresql():
        queryset = _search_postgresql(queryset, terms, folded)
    else:
        queryset = _search_sqlite(queryset, terms, folded)
    if not rank:
        return queryset
    return queryset.annotate(
        title_tier=Case(
            When(search_title=folded, then=Value(0)),
            When(search_title__startswith=folded, then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        )
    ).order_by(*RELEVANCE)


def newest_if_many(queryset, many: bool):
    """A relevance-ordered queryset, newest records first when it has too many matches to
    rank.

    At 100 000 games a word found in nearly every record ("joueurs") took 2.6 s to rank on
    PostgreSQL (every match's weighted vector read from TOAST). By title was no better for
    a word whose matches share a first letter ("trol", all "Troldens …": 1.1 s walking the
    title index from A); by id the matches are spread evenly and the first page costs
    7-25 ms whatever the word.
    """
    if many and tuple(queryset.query.order_by) == RELEVANCE:
        return queryset.order_by("-pk")
    return queryset


def _pg_tsquery(terms):
    """A tsquery matching every word in any configuration; the last word also as a prefix.

    Written out once with each distinct lexeme once: most words stem alike in every
    configuration, and "'zoch' | 'zoch' | 'zoch' | 'zoch' | 'zoch':*" made the planner
    expect four times the matches it has (18 561 for 5 034 at 100 000 games), so it
    scanned the table (54 ms) instead of reading the GIN index (4 ms).
    """
    groups = []
    for i, alternatives in enumerate(_pg_lexemes(tuple(terms))):
        if i == len(terms) - 1:
            # The prefix ('zoch':*) already matches the word as written ('zoch').
            prefix = alternatives[-1]
            alternatives = [a for a in alternatives if a + ":*" != prefix]
        kept = list(dict.fromkeys(a for a in alternatives if a))
        if kept:
            groups.append("(" + " | ".join(f"({a})" for a in kept) + ")")
    return "%s::tsquery", [" & ".join(groups)]


@lru_cache(maxsize=4096)
def _pg_lexemes(terms: tuple) -> list[list[str]]:
    """Each word's tsquery in every configuration (the last word's also as a prefix), as
    PostgreSQL writes them: "joueurs" is 'joueur' in French, 'joueurs' in Polish. The
    configurations change only with a migration, so the answers are kept per process."""
    configs = sorted(set(PG_CONFIGS.values()))
    columns, params = [], []
    for i, term in enumerate(terms):
        for config in configs:
            columns.append(f"to_tsquery('{config}', %s)::text")
            params.append(term)
        if i == len(terms) - 1:
            columns.append("to_tsquery('ludo_simple', %s)::text")
            params.append(f"{term}:*")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(columns)}", params)  # noqa: S608
        row = list(cursor.fetchone())
    result, start = [], 0
    for i in range(len(terms)):
        width = len(configs) + (1 if i == len(terms) - 1 else 0)
        result.append(row[start : start + width])
        start += width
    return result


def _pg_typo(terms):
    """Every word looks like a word of the title (indexed by the title's trigram index)."""
    sql = " AND ".join("%s <<%% games_game.search_title" for _term in terms)
    return f"({sql})", list(terms)


def _search_postgresql(queryset, terms, folded):
    """The games having every word, found once: up to ``MATCH_LIMIT`` of them are kept by
    id, so the count, the ranking and the page never evaluate the search again; beyond,
    the words are common and any walk of the table meets matches at once.

    A title that only looks like the words (a typo) is looked for when no game has them
    as written. Checking the title's look on every row was most of a common word's time
    (at 100 000 games a walk of 7 573 rows for "zamek smoka": 117 ms under load, 30 ms
    without), and the page read by id instead of that walk takes a few milliseconds.
    """
    tsquery, params = _pg_tsquery(terms)
    found = RawSQL(  # noqa: S611
        f"games_game.search_terms @@ ({tsquery})", params, output_field=BooleanField()
    )
    pks = list(queryset.filter(found).order_by().values_list("pk", flat=True)[: MATCH_LIMIT + 1])
    if not pks:
        typo, typo_params = _pg_typo(terms)
        matching = queryset.filter(RawSQL(typo, typo_params, output_field=BooleanField()))  # noqa: S611
    elif len(pks) <= MATCH_LIMIT:
        matching = queryset.filter(pk__in=pks)
    else:
        matching = queryset.filter(found)
    result = matching.annotate(
        text_rank=RawSQL(  # noqa: S611
            f"ts_rank(games_game.search_vector, {tsquery}) "
            "+ strict_word_similarity(%s, games_game.search_title)",
            [*params, folded],
            output_field=FloatField(),
        )
    )
    if pks:
        result.query.text_matches = Matches(
            pks=pks if len(pks) <= MATCH_LIMIT else None, clause=result.query.where.children[-1]
        )
    return result


@dataclass(frozen=True)
class Matches:
    """What a PostgreSQL search learnt when it collected its matches' ids."""

    # Every match's id when there are at most MATCH_LIMIT; None when there are more.
    pks: list | None
    # The search's condition in the query's WHERE: a filter added later comes after it.
    clause: object


def collected_matches(queryset) -> Matches | None:
    """The ids ``queryset``'s text search collected, when no filter has narrowed the
    queryset since: its count is then known without evaluating the search again.
    (``GameFilter`` applies the text search after the other filters for this.)"""
    matches = getattr(queryset.query, "text_matches", None)
    where = queryset.query.where.children
    if matches is not None and where and where[-1] is matches.clause:
        return matches
    return None


def _fts5_query(terms, similar_words=None, column=""):
    """Every word, the last as a prefix, or a title word that looks like it (a typo);
    quoted, so no word is read as FTS5 syntax."""
    prefix = f"{column} : " if column else ""
    groups = []
    for i, term in enumerate(terms):
        alternatives = [f'{prefix}"{term}"' + ("*" if i == len(terms) - 1 else "")]
        alternatives += [
            f'title : "{word}"' for word in sorted((similar_words or {}).get(term, ()))
        ]
        groups.append("(" + " OR ".join(alternatives) + ")")
    return " AND ".join(groups)


def _join_fts(queryset, match):
    """Join the FTS5 table on the game's id, so SQLite walks the matches once and ranks them
    as it goes (a correlated bm25 subquery took 4.9 s for a common word at 2 000 games)."""
    # bm25 weights: title, people, record, summaries, body. Lower bm25 is better.
    return queryset.extra(  # noqa: S610
        select={"text_rank": "-bm25(games_game_fts, 10.0, 4.0, 2.0, 2.0, 1.0)"},
        tables=["games_game_fts"],
        where=["games_game_fts.rowid = games_game.id", "games_game_fts MATCH %s"],
        params=[match],
    )


def _search_sqlite(queryset, terms, folded):
    exact = _join_fts(queryset, _fts5_query(terms))
    if exact.exists():
        return exact
    # No game has every word as written: titles that look like them (typos).
    return _join_fts(queryset, _fts5_query(terms, similar_title_words(terms)))


def trigrams(text: str) -> set[str]:
    """pg_trgm's trigrams: each word padded with two spaces before and one after."""
    result = set()
    for word in _WORD.findall(text):
        padded = f"  {word} "
        result.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return result


def word_similarity(word: str, title: str) -> float:
    """How much ``word`` looks like the closest word of ``title``: shared trigrams over
    all trigrams of the two words (pg_trgm's strict_word_similarity for a one-word query)."""
    wanted = trigrams(word)
    best = 0.0
    for other in _WORD.findall(title):
        theirs = trigrams(other)
        if wanted and theirs:
            best = max(best, len(wanted & theirs) / len(wanted | theirs))
    return best


def similar_title_words(terms: list[str], limit: int = TRIGRAM_CANDIDATES) -> dict:
    """SQLite: for each word of the query, the title words that look like it (typos).

    The FTS5 trigram table hands over the titles sharing most trigrams with the query;
    the similarity is then computed here on those few titles' words.
    """
    grams = {term[i : i + 3] for term in terms for i in range(len(term) - 2)}
    if not grams:
        return {}
    match = " OR ".join(f'"{g}"' for g in sorted(grams))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT title FROM (SELECT title FROM games_game_title_trgm "
            "WHERE games_game_title_trgm MATCH %s ORDER BY rank LIMIT %s)",
            [match, limit],
        )
        candidates = {word for (title,) in cursor.fetchall() for word in _WORD.findall(title)}
    return {
        term: {word for word in candidates if word_similarity(term, word) >= TYPO_THRESHOLD}
        for term in terms
    }


# ----------------------------------------------------------------------------- suggestions


def suggest(query: str, limit: int = SUGGESTION_LIMIT) -> list[dict]:
    """Titles for a search box: those starting with what was typed, then those with a
    word starting with it, then look-alikes (typos). Each as ``{"title", "slug"}``, each
    title once (copies and editions share one)."""
    terms = words(query)
    if not terms:
        return []
    folded = " ".join(terms)
    if is_postgresql():
        return _suggest_postgresql(terms, folded, limit)
    return _suggest_sqlite(terms, folded, limit)


def _suggest_postgresql(terms, folded, limit):
    """Each kind of match asked for in turn, only while fewer than ``limit`` titles are
    found: the titles starting with the words through the title's prefix index (in title
    order, so the exact title comes first), titles with a word starting with them through
    the trigram index, and look-alikes only for words of at least ``MIN_TYPO_LENGTH``
    letters. At 100 000 games one query for all three sorted every title sharing a
    trigram with "tro" (thousands), 90 ms; and the copies of one title filled the list.
    """
    from .models import Game

    suggestions, seen = [], set()

    def add(rows):
        for row in rows:
            if row["title"] not in seen and len(suggestions) < limit:
                seen.add(row["title"])
                suggestions.append({"title": row["title"], "slug": row["slug"]})

    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT DISTINCT ON (search_title COLLATE "C") title, slug FROM games_game '
            'WHERE search_title COLLATE "C" LIKE %s ORDER BY search_title COLLATE "C" LIMIT %s',
            [f"{_like(folded)}%", limit],
        )
        add({"title": title, "slug": slug} for title, slug in cursor.fetchall())
    games = Game.objects.order_by()
    if len(suggestions) < limit:
        inside = games.filter(search_title__contains=f" {folded}").values(
            "title", "slug", "search_title"
        )[: limit * 4]
        add(
            sorted(
                inside,
                key=lambda row: (-word_similarity(folded, row["search_title"]), row["title"]),
            )
        )
    if len(suggestions) < limit and all(len(term) >= MIN_TYPO_LENGTH for term in terms):
        typo, typo_params = _pg_typo(terms)
        add(
            games.filter(RawSQL(typo, typo_params, output_field=BooleanField()))  # noqa: S611
            .annotate(
                similarity=RawSQL(
                    "strict_word_similarity(%s, games_game.search_title)",
                    [folded],
                    output_field=FloatField(),
                )
            )
            .order_by("-similarity", "title")
            .values("title", "slug")[: limit * 4]
        )
    return suggestions


def _suggest_sqlite(terms, folded, limit):
    from .models import Game

    match = _fts5_query(terms, similar_title_words(terms), column="title")
    games = (
        _join_fts(Game.objects.all(), match)
        .annotate(
            tier=Case(
                When(search_title=folded, then=Value(0)),
                When(search_title__startswith=folded, then=Value(1)),
                When(search_title__contains=f" {folded}", then=Value(2)),
                default=Value(3),
                output_field=IntegerField(),
            )
        )
        .order_by("tier", "-text_rank", "title")
    )
    # The same title twice (copies, editions) would be one suggestion shown twice: read
    # on until ``limit`` titles (or SUGGESTION_ROWS rows) are found.
    suggestions, seen = [], set()
    for found in games.values("title", "slug")[:SUGGESTION_ROWS].iterator(chunk_size=limit * 4):
        if found["title"] not in seen:
            seen.add(found["title"])
            suggestions.append(found)
            if len(suggestions) == limit:
                break
    return suggestions


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
