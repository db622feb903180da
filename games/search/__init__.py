"""Full-text search over the catalogue, on PostgreSQL and on SQLite.

One entry point per need, the same on both databases:

- ``index_games(ids)`` rebuilds the search data of these games (and forgets deleted ones);
- ``search(queryset, query)`` keeps the games of ``queryset`` having every word of
  ``query`` (the last one as a prefix), or whose title looks like it (a typo), best first;
  ``find(queryset, query)`` does the same and also says how many games it found
  (``Matches``), so that the pages need not count them again;
- ``suggest(query)`` completes titles as a patron types;
- ``best_first(queryset, query)``: with more matches than ``MATCH_LIMIT`` (which
  ``search`` lists newest first), the games the query weighs most in, heaviest first,
  and the others: the two parts of the pages (``games.selectors.GameList``).

Relevance is the same on both databases: each game keeps the words that weigh most in it
(``games.text.word_weights``, the ``SearchWeight`` table), and a match ranks by the weight
of the query's words in it.

Each database has its backend module: ``postgresql`` (a stored, weighted ``tsvector`` per
game, ``django.contrib.postgres``'s search and trigram lookups) and ``sqlite`` (FTS5
tables, written in SQL where the ORM has no words for them). Both fold the text the same
way (``games.text.fold``): "søjle" and "sojle", "Łódź" and "lodz" are the same word
everywhere, and both call the same titles look-alikes (``similarity``).
"""

from dataclasses import dataclass

from django.db import connections
from django.db.models import QuerySet

from ..text import fold
from . import common, postgresql, sqlite
from .common import MATCH_LIMIT
from .similarity import WORD, word_similarity

__all__ = [
    "MATCH_LIMIT",
    "Matches",
    "best_first",
    "find",
    "index_games",
    "search",
    "suggest",
    "word_similarity",
    "words",
]

# Words this short say too little to search for on their own ("d" of "d'œuvre").
MIN_WORD = 2
SUGGESTION_LIMIT = 8


def words(query: str) -> list[str]:
    """The folded words of ``query`` worth searching for."""
    return [w for w in WORD.findall(fold(query)) if len(w) >= MIN_WORD or w.isdigit()]


@dataclass(frozen=True)
class Matches:
    """What a search found: ``games``, best first, and ``count``, how many they are, up
    to ``MATCH_LIMIT`` + 1 (more than ``MATCH_LIMIT`` stands for "more"), or None when
    the query has no word and the games are not searched at all.

    The search knows the count already (it collects up to ``MATCH_LIMIT`` + 1 matches
    once): counting ``games`` again would run the search again."""

    games: QuerySet
    count: int | None


def _backend(alias):
    return postgresql if connections[alias].vendor == "postgresql" else sqlite


def index_games(game_ids, *, using="default") -> None:
    """Rebuild the search data of these games from their record, people and summaries;
    ids of games that no longer exist are forgotten.

    Called once per transaction that changes what games are found by (``games.signals``)
    and, in batches, by ``generate_catalogue``."""
    ids = list(game_ids)
    if ids:
        _backend(using).index_games(ids, using=using)


def search(queryset, query: str, *, rank: bool = True):
    """The games of ``queryset`` having every word of ``query`` (accents and case
    ignored, the last word also as a prefix), or, when none has them, whose title looks
    like them (a typo). With ``rank``, best first: the exact title, titles starting with
    the query, then by relevance (``RELEVANCE``)."""
    return find(queryset, query, rank=rank).games


def find(queryset, query: str, *, rank: bool = True) -> Matches:
    """``search``, with how many games it found (``Matches``)."""
    terms = words(query)
    if not terms:
        return Matches(queryset.none(), 0) if query.strip() else Matches(queryset, None)
    games, count = _backend(queryset.db).search(queryset, terms, " ".join(terms), rank=rank)
    return Matches(games, count)


def best_first(queryset, query: str):
    """For the matches of ``query`` in ``queryset`` when there are more than
    ``MATCH_LIMIT``: ``(best, others)``, the games the query's longest word weighs most in
    (heaviest first) and the others (newest first), each read from an index in order. None
    when the query has no word to weigh."""
    terms = words(query)
    return common.best_first(queryset, terms) if terms else None


def suggest(query: str, limit: int = SUGGESTION_LIMIT, *, using="default") -> list[dict]:
    """Titles for a search box: those starting with what was typed, then those with a
    word starting with it, then look-alikes (typos). Each as ``{"title", "slug"}``, each
    title once (copies and editions share one)."""
    terms = words(query)
    if not terms:
        return []
    return _backend(using).suggest(terms, " ".join(terms), limit, using=using)
