"""Text helpers shared by search and records: accent- and case-insensitive matching."""

import math
import re
import unicodedata

from django.utils.text import slugify

# Ligatures that NFKD leaves whole but a patron types as two letters.
_LIGATURES = str.maketrans(
    {
        "œ": "oe",
        "Œ": "oe",
        "æ": "ae",
        "Æ": "ae",
        "ß": "ss",
        "ø": "o",
        "Ø": "o",
        "ł": "l",
        "Ł": "l",
        "å": "a",
        "Å": "a",
    }
)


def fold(text: str) -> str:
    """Lower-case ``text`` and strip its accents, so "École" and "ecole" compare equal.

    Danish and Polish letters that are not accented Latin letters in Unicode (ø, ł, æ)
    are mapped to what a keyboard without them types.
    """
    text = text.translate(_LIGATURES)
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


def slug_for(title: str) -> str:
    """A URL slug that keeps a title's letters: "Slottets søjler" is "slottets-sojler",
    "Zamek Łodzi" "zamek-lodzi" (``slugify`` alone drops ø and ł: "slottets-sjler")."""
    return slugify(fold(title))


# How much a word weighs in a game, by where it is said (``word_weights``): a title or a
# name counts as much as a word said three times in a summary.
FIELD_WEIGHTS = {"title": 2.0, "people": 2.0, "record": 1.0, "summary": 1.0, "body": 0.5}
# A game keeps the weights of the words that weigh at least this much in it: its title's
# words and names, and what its texts say at least three times (or twice and elsewhere).
SALIENT = 1.3
# Words are weighed by their first letters: "søjle", "søjler" and "søjlerne" are one word
# in every language, as "colonne" and "colonnes", "kolumna" and "kolumny" (a stemmer
# for no language in particular; Polish has none in PostgreSQL either).
KEY_LENGTH = 5
_WORD = re.compile(r"\w+")


def word_key(word: str) -> str:
    """What a folded word is weighed under: its first ``KEY_LENGTH`` letters."""
    return word[:KEY_LENGTH]


def word_weights(fields) -> dict[str, float]:
    """The words that weigh most in a record, each with its weight.

    ``fields`` are ``(kind, text)`` pairs, ``kind`` a key of ``FIELD_WEIGHTS``. In each
    field a word weighs its field's weight times log(1 + the times it is said there): said
    33 times, as "søjle" is in Villa Paletti's Danish rules, 3.5; in a title, 1.4. Words of
    fewer than three letters and numbers are left out."""
    counts = {}
    for kind, text in fields:
        for word in _WORD.findall(fold(text)):
            if len(word) >= 3 and not word.isdigit():
                key = (kind, word_key(word))
                counts[key] = counts.get(key, 0) + 1
    weights = {}
    for (kind, key), times in counts.items():
        weights[key] = weights.get(key, 0.0) + FIELD_WEIGHTS[kind] * math.log1p(times)
    return {key: round(weight, 3) for key, weight in weights.items() if weight >= SALIENT}
