"""The catalogue's search on PostgreSQL.

A stored ``tsvector`` per game built with each text's own configuration (``ludo_french``,
``ludo_danish``, ``ludo_english``; ``ludo_simple`` for Polish, which PostgreSQL cannot
stem), every one of them unaccented (migration 0004), stripped (no positions or weights:
small enough to stay in the row), GIN-indexed; titles trigram-indexed for typos. The
ranking reads the words' weights (``SearchWeight``), as on SQLite.
"""

from functools import lru_cache

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.search import SearchQuery, TrigramStrictWordSimilarity
from django.db import connections
from django.db.models import BigIntegerField, F, Lookup, Q, Value
from django.db.models.functions import Cast, Collate

from ..models import Game
from .common import MATCH_LIMIT, documents, ranked, store_weights
from .similarity import word_similarity

# Summary language → text search configuration (created by migration 0004).
CONFIGS = {"fr": "ludo_french", "da": "ludo_danish", "en": "ludo_english", "pl": "ludo_simple"}
# The record itself (principle, analysis, rules, contents) is the ludothèque's: French.
RECORD_CONFIG = "ludo_french"
# Each word of a query must be this similar to a word of a title for a typo to match: with
# pg_trgm's strict_word_similarity "paleti" ~ "paletti" 0.67, "palleti" 0.45, "alhambar"
# 0.5, "palae" 0.27, "joueurs" ~ "jouets" 0.36. Set on each connection (games.apps).
TYPO_THRESHOLD = 0.4
# Suggestions look for typos only in words this long: "kor" looks like every "ko…" word.
MIN_TYPO_LENGTH = 4

# What index_games writes: configuration names are constants, every text a parameter.
_SUMMARIES_SQL = " || ".join(
    f"to_tsvector('{config}', %({code})s)" for code, config in CONFIGS.items()
)
INDEX_SQL = f"""
    UPDATE games_game SET search_title = %(search_title)s, search_terms = strip(
        to_tsvector('ludo_simple', %(title)s)
        || to_tsvector('{RECORD_CONFIG}', %(title)s)
        || to_tsvector('ludo_simple', %(people)s)
        || to_tsvector('{RECORD_CONFIG}', %(record)s)
        || {_SUMMARIES_SQL}
        || to_tsvector('{RECORD_CONFIG}', %(body)s))
    WHERE id = %(id)s
"""  # noqa: S608


def index_games(ids, *, using) -> None:
    """Each text parsed in its own language, in one UPDATE a game, and the words' weights
    (a deleted game's search data went with its row)."""
    found = documents(ids, using=using)
    rows = [
        {
            "id": doc.id,
            "title": doc.title,
            "search_title": doc.search_title,
            "people": doc.people,
            "record": doc.record,
            "body": doc.body,
            **{code: doc.summaries.get(code, "") for code in CONFIGS},
        }
        for doc in found
    ]
    with connections[using].cursor() as cursor:
        cursor.executemany(INDEX_SQL, rows)
    store_weights(found, ids, using=using)


def search(queryset, terms, folded, *, rank):
    """The games having every word, found once, and how many they are (up to
    ``MATCH_LIMIT`` + 1): up to ``MATCH_LIMIT`` of them are kept by id, so the ranking
    and the page never evaluate the search again, and the count is the ids'; beyond, the
    words are common and any walk of the table meets matches at once.

    A title that only looks like the words (a typo) is looked for when no game has them
    as written, and its matches collected the same way. Checking the title's look on
    every row was most of a common word's time (at 100 000 games a walk of 7 573 rows for
    "zamek smoka": 117 ms under load, 30 ms without), and the page read by id instead of
    that walk takes a few milliseconds; "chateu" (3 296 look-alikes) was ranked whole,
    43 ms, and counted through the trigram index, 208 ms, before its ids were collected.
    """
    query = SearchQuery(
        _tsquery(tuple(terms), queryset.db), search_type="raw", config="ludo_simple"
    )
    found = queryset.filter(search_terms=query)
    ids = _first_ids(found)
    typo = not ids
    if len(ids) > MATCH_LIMIT:
        matching = found
    elif ids:
        matching = _with_ids(queryset, ids)
    else:
        found = queryset.filter(_looks_like(terms))
        ids = _first_ids(found)
        # At most MATCH_LIMIT + 1 look-alikes are kept, read once through the trigram
        # index: checking a title's look row by row along a walk of the table was slow
        # ("chateu", 3 296 look-alikes at 100 000 games: its count 208-280 ms, then 5).
        matching = _with_ids(queryset, ids)
    if not rank:
        return matching, len(ids)
    # A typo's matches have none of the words: how much their title looks like them.
    # Their weights are looked up match by match, not joined: the join grouped its rows
    # by the title's look, computed for each joined row ("troldens hemmelihed" at
    # 100 000 games, 343 matches: the page's statement 7.4-9.6 ms joined, 6.3-7.0 ms
    # looked up, three runs each).
    look_alike = TrigramStrictWordSimilarity(Value(folded), "search_title") if typo else None
    ranking = ranked(
        matching, terms, folded, matches=len(ids), look_alike=look_alike, join=not typo
    )
    return ranking, len(ids)


def _first_ids(found) -> list:
    return list(found.order_by().values_list("pk", flat=True)[: MATCH_LIMIT + 1])


class InArray(Lookup):
    """``lhs = ANY(rhs)``: ``__in`` with the values as one array."""

    lookup_name = "in_array"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} = ANY({rhs})", (*lhs_params, *rhs_params)


def _with_ids(queryset, ids):
    """The games of ``queryset`` with these ids, sent as one array (``id = ANY(…)``).

    As ``pk__in``, each of up to 1 001 ids was a parameter of its own, prepared by
    Django, written into the statement by psycopg, and parsed and planned by PostgreSQL,
    in each query that reads the matches (the ranked page, the best of them, the
    others): at 100 000 games an API search for "chateu" (1 001 look-alikes kept) made
    58 000 Python calls and its page took 2.5 ms to plan; with one array, 28 000 calls
    and 0.6 ms. The array goes as its text, one string: psycopg's list dumper takes
    each element in Python (7 000 calls for those 1 001 ids)."""
    array = Cast(Value("{" + ",".join(map(str, ids)) + "}"), ArrayField(BigIntegerField()))
    return queryset.filter(InArray(F("pk"), array))


def _looks_like(terms) -> Q:
    """Every word looks like a word of the title (through the title's trigram index)."""
    condition = Q()
    for term in terms:
        condition &= Q(search_title__trigram_strict_word_similar=term)
    return condition


def _tsquery(terms: tuple, using) -> str:
    """A tsquery matching every word in any configuration; the last word also as a prefix.

    Written out once with each distinct lexeme once: most words stem alike in every
    configuration, and "'zoch' | 'zoch' | 'zoch' | 'zoch' | 'zoch':*" made the planner
    expect four times the matches it has (18 561 for 5 034 at 100 000 games), so it
    scanned the table (54 ms) instead of reading the GIN index (4 ms).
    """
    groups = []
    for i, alternatives in enumerate(_lexemes(terms, using)):
        if i == len(terms) - 1:
            # The prefix ('zoch':*) already matches the word as written ('zoch').
            prefix = alternatives[-1]
            alternatives = [a for a in alternatives if a + ":*" != prefix]
        kept = list(dict.fromkeys(a for a in alternatives if a))
        if kept:
            groups.append("(" + " | ".join(f"({a})" for a in kept) + ")")
    return " & ".join(groups)


@lru_cache(maxsize=4096)
def _lexemes(terms: tuple, using) -> list[list[str]]:
    """Each word's tsquery in every configuration (the last word's also as a prefix), as
    PostgreSQL writes them: "joueurs" is 'joueur' in French, 'joueurs' in Polish. The
    configurations change only with a migration, so the answers are kept per process."""
    configs = sorted(set(CONFIGS.values()))
    columns, params = [], []
    for i, term in enumerate(terms):
        for config in configs:
            columns.append(f"to_tsquery('{config}', %s)::text")
            params.append(term)
        if i == len(terms) - 1:
            columns.append("to_tsquery('ludo_simple', %s)::text")
            params.append(f"{term}:*")
    with connections[using].cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(columns)}", params)  # noqa: S608
        row = list(cursor.fetchone())
    result, start = [], 0
    for i in range(len(terms)):
        width = len(configs) + (1 if i == len(terms) - 1 else 0)
        result.append(row[start : start + width])
        start += width
    return result


def suggest(terms, folded, limit, *, using) -> list[dict]:
    """Each kind of match asked for in turn, only while fewer than ``limit`` titles are
    found: the titles starting with the words through the title's prefix index (in title
    order, so the exact title comes first), titles with a word starting with them through
    the trigram index, and look-alikes only for words of at least ``MIN_TYPO_LENGTH``
    letters. At 100 000 games one query for all three sorted every title sharing a
    trigram with "tro" (thousands), 90 ms; and the copies of one title filled the list.
    """
    games = Game.objects.using(using).order_by()
    suggestions, seen = [], set()

    def add(rows):
        for row in rows:
            if row["title"] not in seen and len(suggestions) < limit:
                seen.add(row["title"])
                suggestions.append({"title": row["title"], "slug": row["slug"]})

    # Byte order ("C"): the order of the prefix index of migration 0009.
    by_bytes = games.annotate(key=Collate("search_title", "C"))
    add(
        by_bytes.filter(key__startswith=folded)
        .order_by("key")
        .distinct("key")
        .values("title", "slug", "key")[:limit]
    )
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
        add(
            games.filter(_looks_like(terms))
            .annotate(similarity=TrigramStrictWordSimilarity(Value(folded), "search_title"))
            .order_by("-similarity", "title")
            .values("title", "slug")[: limit * 4]
        )
    return suggestions
