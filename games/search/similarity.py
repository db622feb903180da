"""How much a word looks like another: pg_trgm's trigram similarity, in Python.

SQLite has no pg_trgm: its typo matches are checked here, on the few candidates its FTS5
trigram table hands over, so that both databases call the same words look-alikes.
"""

import re

WORD = re.compile(r"\w+")


def trigrams(text: str) -> set[str]:
    """pg_trgm's trigrams: each word padded with two spaces before and one after."""
    result = set()
    for word in WORD.findall(text):
        padded = f"  {word} "
        result.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return result


def word_similarity(word: str, title: str) -> float:
    """How much ``word`` looks like the closest word of ``title``: shared trigrams over
    all trigrams of the two words (pg_trgm's strict_word_similarity for a one-word query)."""
    wanted = trigrams(word)
    best = 0.0
    for other in WORD.findall(title):
        theirs = trigrams(other)
        if wanted and theirs:
            best = max(best, len(wanted & theirs) / len(wanted | theirs))
    return best
