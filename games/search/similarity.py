"""How much a title looks like a query: pg_trgm's strict word similarity, in Python.

SQLite has no pg_trgm: its typo matches are checked here, on the few candidates its FTS5
trigram table hands over, and its look-alikes ranked by the same measure (registered on
each SQLite connection as ``strict_word_similarity``, ``games.apps``), so that both
databases call the same words look-alikes and put them in the same order.
"""

import re
from functools import lru_cache

from django.db.models import FloatField, Func

WORD = re.compile(r"\w+")


@lru_cache(maxsize=8192)
def word_trigrams(word: str) -> frozenset[str]:
    """pg_trgm's trigrams of one word, padded with two spaces before and one after (kept:
    ranking a typo's matches on SQLite measures the same title words again and again)."""
    padded = f"  {word} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


def trigrams(text: str) -> set[str]:
    """pg_trgm's trigrams of every word of ``text``."""
    return set().union(*map(word_trigrams, WORD.findall(text)))


def word_similarity(query: str, title: str | None) -> float:
    """pg_trgm's ``strict_word_similarity(query, title)``: the trigrams the query shares
    with the run of whole words of ``title`` closest to it, over all the trigrams of the
    two ("paleti" and "villa paletti": 6 of 9, 0.67; "troldens hemmelihed" and "troldens
    hemmelighed": 18 of 23, 0.78)."""
    wanted = trigrams(query)
    if not wanted:
        return 0.0
    # A run's trigrams are its words' together: each word's are taken once.
    words = [word_trigrams(word) for word in WORD.findall(title or "")]
    best = 0.0
    for start in range(len(words)):
        run = set()
        for word in words[start:]:
            run |= word
            shared = len(wanted & run)
            best = max(best, shared / (len(wanted) + len(run) - shared))
    return best


class StrictWordSimilarity(Func):
    """``word_similarity`` in a query on SQLite (PostgreSQL has Django's
    ``TrigramStrictWordSimilarity``, the same function of pg_trgm)."""

    function = "STRICT_WORD_SIMILARITY"
    output_field = FloatField()
