"""The catalogue's search on SQLite.

An FTS5 table (``unicode61 remove_diacritics 2``) over the folded texts (``bm25`` orders
the suggestions), and an FTS5 ``trigram`` table over titles for typos, checked and ranked
with the same similarity as PostgreSQL's ``strict_word_similarity`` (``similarity``,
registered on each connection by ``games.apps``). The ORM has no words for FTS5: its
tables are written and matched in SQL here, every user word a query parameter, quoted so
that no word is read as FTS5 syntax.
"""

from django.db import connections
from django.db.models import Case, IntegerField, Value, When

from ..models import Game
from ..text import fold
from .common import MATCH_LIMIT, documents, ranked, store_weights
from .similarity import WORD, StrictWordSimilarity, word_similarity

# Each word of a query must be this similar to a word of a title for a typo to match
# (PostgreSQL's threshold, games.search.postgresql).
TYPO_THRESHOLD = 0.4
# Candidates the trigram table hands to the similarity check.
TRIGRAM_CANDIDATES = 200
# Rows read at most to find the suggestions' distinct titles.
SUGGESTION_ROWS = 500
# bm25's weights of the FTS5 table's columns: title, people, record, summaries, body
# (the suggestions' order; a search ranks by the words' weights, as on PostgreSQL).
RANK = "-bm25(games_game_fts, 10.0, 4.0, 2.0, 2.0, 1.0)"


def index_games(ids, *, using) -> None:
    found = documents(ids, using=using)
    gone = [(pk,) for pk in ids]
    with connections[using].cursor() as cursor:
        cursor.executemany("DELETE FROM games_game_fts WHERE rowid = %s", gone)
        cursor.executemany("DELETE FROM games_game_title_trgm WHERE rowid = %s", gone)
        cursor.executemany(
            "UPDATE games_game SET search_title = %s WHERE id = %s",
            [(doc.search_title, doc.id) for doc in found],
        )
        cursor.executemany(
            "INSERT INTO games_game_fts (rowid, title, people, record, summaries, body) "
            "VALUES (%s, %s, %s, %s, %s, %s)",
            [
                (
                    doc.id,
                    doc.search_title,
                    fold(doc.people),
                    fold(doc.record),
                    fold("\n".join(doc.summaries.values())),
                    fold(doc.body),
                )
                for doc in found
            ],
        )
        cursor.executemany(
            "INSERT INTO games_game_title_trgm (rowid, title) VALUES (%s, %s)",
            [(doc.id, doc.search_title) for doc in found],
        )
    store_weights(found, ids, using=using)


def search(queryset, terms, folded, *, rank):
    matching = _join_fts(queryset, _fts5_query(terms))
    matches = matching.order_by().values("pk")[: MATCH_LIMIT + 1].count()
    look_alike = None
    if not matches:
        # No game has every word as written: titles that look like them (typos), ranked
        # as on PostgreSQL by how much the title looks like the query.
        matching = _join_fts(
            queryset, _fts5_query(terms, similar_title_words(terms, using=queryset.db))
        )
        matches = matching.order_by().values("pk")[: MATCH_LIMIT + 1].count()
        look_alike = StrictWordSimilarity(Value(folded), "search_title")
    if not rank:
        return matching, matches
    return ranked(matching, terms, folded, matches=matches, look_alike=look_alike), matches


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


def _join_fts(queryset, match, *, with_rank=False):
    """Join the FTS5 table on the game's id, so SQLite walks the matches once; with
    ``with_rank`` (the suggestions), ``fts_rank``, their ``bm25``, computed as it goes (a
    correlated bm25 subquery took 4.9 s for a common word at 2 000 games). A search ranks
    by the words' weights and the title's look (``ranked``), so it asks for no bm25."""
    return queryset.extra(  # noqa: S610
        select={"fts_rank": RANK} if with_rank else None,
        tables=["games_game_fts"],
        where=["games_game_fts.rowid = games_game.id", "games_game_fts MATCH %s"],
        params=[match],
    )


def similar_title_words(terms: list[str], *, using, limit: int = TRIGRAM_CANDIDATES) -> dict:
    """For each word of the query, the title words that look like it (typos).

    The FTS5 trigram table hands over the titles sharing most trigrams with the query;
    the similarity is then computed here on those few titles' words.
    """
    grams = {term[i : i + 3] for term in terms for i in range(len(term) - 2)}
    if not grams:
        return {}
    match = " OR ".join(f'"{g}"' for g in sorted(grams))
    with connections[using].cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT title FROM (SELECT title FROM games_game_title_trgm "
            "WHERE games_game_title_trgm MATCH %s ORDER BY rank LIMIT %s)",
            [match, limit],
        )
        candidates = {word for (title,) in cursor.fetchall() for word in WORD.findall(title)}
    return {
        term: {word for word in candidates if word_similarity(term, word) >= TYPO_THRESHOLD}
        for term in terms
    }


def suggest(terms, folded, limit, *, using) -> list[dict]:
    match = _fts5_query(terms, similar_title_words(terms, using=using), column="title")
    games = (
        _join_fts(Game.objects.using(using).all(), match, with_rank=True)
        .annotate(
            tier=Case(
                When(search_title=folded, then=Value(0)),
                When(search_title__startswith=folded, then=Value(1)),
                When(search_title__contains=f" {folded}", then=Value(2)),
                default=Value(3),
                output_field=IntegerField(),
            )
        )
        .order_by("tier", "-fts_rank", "title")
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
