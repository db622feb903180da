"""Text helpers shared by search and records: accent- and case-insensitive matching."""

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
