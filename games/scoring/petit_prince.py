"""The final count of *Le Petit Prince : Fabrique-moi une planète*, one function per rule.

Every rule comes from the ludothèque's record of the game (its "Fin de partie", "Gare aux
volcans !", "Les Personnages" and "Règles de construction" paragraphs; docs/sources.md,
"Le Petit Prince"). A player enters what their finished planet shows; the counts are of
what is visible, since what a face-down tile showed no longer counts ("Attention aux
Baobabs !").
"""

from dataclasses import dataclass
from enum import StrEnum

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

MIN_PLAYERS = 2
MAX_PLAYERS = 5
# A finished planet: 16 tiles, of which 4 characters in the corners ("Règles de
# construction": 4 cores, 4 rising edges, 4 falling edges, 4 characters, "ni plus, ni moins").
TILES = 16
CHARACTERS_PER_PLANET = 4
NON_CHARACTER_TILES = TILES - CHARACTERS_PER_PLANET
# Never more than 2 baobabs in view: a third turns all three baobab tiles face down.
MAX_VISIBLE_BAOBABS = 2
BAOBAB_SERIES = 3
# The four animal species the Hunter counts: fox, elephant, snake, sheep.
SPECIES = 4
# Not a rule of the game: the most of one thing a form accepts, to refuse nonsense early.
MAX_COUNT = 99


class Character(StrEnum):
    CONCEITED_MAN = "conceited_man"
    GEOGRAPHER = "geographer"
    KING = "king"
    HUNTER = "hunter"
    LAMPLIGHTER = "lamplighter"
    TIPPLER = "tippler"
    WHITE_BUSINESSMAN = "white_businessman"
    BEIGE_BUSINESSMAN = "beige_businessman"
    BROWN_BUSINESSMAN = "brown_businessman"
    GARDENER = "gardener"
    TURKISH_ASTRONOMER = "turkish_astronomer"
    LITTLE_PRINCE = "little_prince"

    @property
    def label(self):
        return CHARACTER_LABELS[self]


CHARACTER_LABELS = {
    Character.CONCEITED_MAN: pgettext_lazy("Le Petit Prince", "The Conceited Man"),
    Character.GEOGRAPHER: pgettext_lazy("Le Petit Prince", "The Geographer"),
    Character.KING: pgettext_lazy("Le Petit Prince", "The King"),
    Character.HUNTER: pgettext_lazy("Le Petit Prince", "The Hunter"),
    Character.LAMPLIGHTER: pgettext_lazy("Le Petit Prince", "The Lamplighter"),
    Character.TIPPLER: pgettext_lazy("Le Petit Prince", "The Tippler"),
    Character.WHITE_BUSINESSMAN: pgettext_lazy("Le Petit Prince", "The Businessman (white sheep)"),
    Character.BEIGE_BUSINESSMAN: pgettext_lazy("Le Petit Prince", "The Businessman (beige sheep)"),
    Character.BROWN_BUSINESSMAN: pgettext_lazy("Le Petit Prince", "The Businessman (brown sheep)"),
    Character.GARDENER: pgettext_lazy("Le Petit Prince", "The Gardener"),
    Character.TURKISH_ASTRONOMER: pgettext_lazy("Le Petit Prince", "The Turkish Astronomer"),
    Character.LITTLE_PRINCE: pgettext_lazy("Le Petit Prince", "The Little Prince"),
}

# What a player counts on their planet, in the order the page asks for it, with its label.
COUNTS = {
    "volcanoes": _("Volcanoes"),
    "snakes": _("Snakes"),
    "roses": _("Roses"),
    "lamps": _("Lamp posts"),
    "white_sheep": _("White sheep"),
    "beige_sheep": _("Beige sheep"),
    "brown_sheep": _("Brown sheep"),
    "boxes": _("Boxes"),
    "big_stars": _("Big stars, those on characters included"),
    "visible_baobabs": _("Baobabs in view"),
    "face_down_tiles": _("Tiles turned face down"),
    "animal_species": _("Animal species (fox, elephant, snake, sheep)"),
    "tiles_without_volcano": _("Tiles without a volcano, face-down ones included"),
}


@dataclass(frozen=True)
class Planet:
    """What one finished planet shows. A count left out (None) was not entered: it
    scores as none, and the checks that need it are not made."""

    characters: tuple[Character, ...]
    volcanoes: int | None = None
    snakes: int | None = None
    roses: int | None = None
    lamps: int | None = None
    white_sheep: int | None = None
    beige_sheep: int | None = None
    brown_sheep: int | None = None
    boxes: int | None = None
    big_stars: int | None = None
    visible_baobabs: int | None = None
    face_down_tiles: int | None = None
    animal_species: int | None = None
    tiles_without_volcano: int | None = None

    def count(self, name: str) -> int:
        return getattr(self, name) or 0

    @property
    def sheep_colours(self) -> int:
        return sum(1 for colour in SHEEP if self.count(colour))


SHEEP = ("white_sheep", "beige_sheep", "brown_sheep")


class ImpossiblePlanet(ValueError):
    """A planet the rules cannot produce; ``problems`` maps each field at fault (or
    ``"planet"``) to what is wrong, in the reader's language."""

    def __init__(self, problems: dict[str, str]):
        super().__init__(problems)
        self.problems = problems


# The characters' rules ("Les Personnages"), one function each.


def conceited_man(planet: Planet) -> int:
    """The Conceited Man (le Vaniteux): 4 points per snake."""
    return 4 * planet.count("snakes")


def geographer(planet: Planet) -> int:
    """The Geographer: 1 point per tile without a volcano; face-down tiles count as tiles
    without a volcano, character tiles do not count (the count entered says so)."""
    return planet.count("tiles_without_volcano")


def king(planet: Planet) -> int:
    """The King: 14 points for a single rose, 7 for two, none for three or more. The
    record gives no points for a planet without a rose, so it scores none."""
    return {1: 14, 2: 7}.get(planet.count("roses"), 0)


def hunter(planet: Planet) -> int:
    """The Hunter: 3 points per animal species present (fox, elephant, snake, sheep; one
    sheep of any colour is enough for the sheep)."""
    return 3 * planet.count("animal_species")


def lamplighter(planet: Planet) -> int:
    """The Lamplighter (l'Allumeur de réverbères): 1 point per lamp post."""
    return planet.count("lamps")


def tippler(planet: Planet) -> int:
    """The Tippler (l'Ivrogne): 3 points per tile turned face down by the baobabs."""
    return 3 * planet.count("face_down_tiles")


def white_businessman(planet: Planet) -> int:
    """The businessman of the white sheep: 2 points per white sheep."""
    return 2 * planet.count("white_sheep")


def beige_businessman(planet: Planet) -> int:
    """The businessman of the beige sheep: 3 points per beige sheep."""
    return 3 * planet.count("beige_sheep")


def brown_businessman(planet: Planet) -> int:
    """The businessman of the brown sheep: 5 points per brown sheep."""
    return 5 * planet.count("brown_sheep")


def gardener(planet: Planet) -> int:
    """The Gardener (le Jardinier): 7 points per baobab in view (never more than two)."""
    return 7 * planet.count("visible_baobabs")


def turkish_astronomer(planet: Planet) -> int:
    """The Turkish Astronomer: 1 point per big star, those on character tiles included."""
    return planet.count("big_stars")


def little_prince(planet: Planet) -> int:
    """The Little Prince: 3 points per sheep colour present (white, beige, brown) and
    1 point per box."""
    return 3 * planet.sheep_colours + planet.count("boxes")


RULES = {
    Character.CONCEITED_MAN: conceited_man,
    Character.GEOGRAPHER: geographer,
    Character.KING: king,
    Character.HUNTER: hunter,
    Character.LAMPLIGHTER: lamplighter,
    Character.TIPPLER: tippler,
    Character.WHITE_BUSINESSMAN: white_businessman,
    Character.BEIGE_BUSINESSMAN: beige_businessman,
    Character.BROWN_BUSINESSMAN: brown_businessman,
    Character.GARDENER: gardener,
    Character.TURKISH_ASTRONOMER: turkish_astronomer,
    Character.LITTLE_PRINCE: little_prince,
}


def characters_points(planet: Planet) -> list[int]:
    """Each character's points, in the planet's order. Identical characters each score
    ("Si un joueur possède plusieurs Personnages du même type, il gagne des points pour
    chacun d'eux")."""
    return [RULES[character](planet) for character in planet.characters]


def volcano_penalties(volcanoes: list[int]) -> list[int]:
    """What each player loses to the volcanoes ("Gare aux volcans !"): whoever has the
    most volcanoes loses as many points as they have, and so does every player tied with
    them. With no volcano anywhere, nobody loses anything."""
    most = max(volcanoes)
    return [most if n == most else 0 for n in volcanoes]


def winners(totals: list[int], volcanoes: list[int]) -> list[int]:
    """The indexes of the winning players: the highest total; between tied players, the
    fewest volcanoes; players still tied share the victory."""
    best = max(totals)
    tied = [i for i, total in enumerate(totals) if total == best]
    fewest = min(volcanoes[i] for i in tied)
    return [i for i in tied if volcanoes[i] == fewest]


@dataclass(frozen=True)
class PlanetScore:
    characters: tuple[tuple[Character, int], ...]
    character_total: int
    volcano_penalty: int
    total: int


@dataclass(frozen=True)
class GameScore:
    planets: tuple[PlanetScore, ...]
    winners: tuple[int, ...]


def check_planet(planet: Planet) -> None:
    """Raises ImpossiblePlanet for what no finished planet can show."""
    problems = {}
    if len(planet.characters) != CHARACTERS_PER_PLANET:
        problems["characters"] = _(
            "A finished planet has exactly 4 characters, one in each corner."
        )
    out_of_bounds = {
        name: _("Enter a number from 0 to %(most)s.") % {"most": MAX_COUNT}
        for name in COUNTS
        if getattr(planet, name) is not None and not 0 <= getattr(planet, name) <= MAX_COUNT
    }
    if out_of_bounds:  # the checks below compare counts that must be numbers in bounds
        raise ImpossiblePlanet({**problems, **out_of_bounds})
    if planet.count("visible_baobabs") > MAX_VISIBLE_BAOBABS:
        problems["visible_baobabs"] = _(
            "A planet never shows more than 2 baobabs: a third one turns all three baobab "
            "tiles face down."
        )
    face_down = planet.count("face_down_tiles")
    if face_down % BAOBAB_SERIES or face_down > TILES:
        problems["face_down_tiles"] = _(
            "Tiles are turned face down three at a time, by the baobabs: 0, 3, 6, 9, 12 "
            "or 15 on a planet of 16 tiles."
        )
    without = planet.tiles_without_volcano
    if without is not None and without > NON_CHARACTER_TILES:
        problems["tiles_without_volcano"] = _(
            "A planet has 16 tiles, 4 of them characters, which the Geographer does not "
            "count: at most 12 tiles without a volcano."
        )
    elif without is not None and planet.volcanoes is not None:
        with_volcano = NON_CHARACTER_TILES - without
        if planet.volcanoes < with_volcano:
            problems["volcanoes"] = _(
                "Tiles that are neither characters nor without a volcano: %(tiles)s. So "
                "there are at least %(tiles)s volcanoes."
            ) % {"tiles": with_volcano}
    if planet.animal_species is not None:
        low, high = _species_range(planet)
        if not low <= planet.animal_species <= high:
            problems["animal_species"] = _(
                "With the snakes and sheep entered, this planet shows from %(low)s to "
                "%(high)s animal species (fox, elephant, snake, sheep)."
            ) % {"low": low, "high": high}
    if problems:
        raise ImpossiblePlanet(problems)


def _species_range(planet: Planet) -> tuple[int, int]:
    """How few and how many species the other counts allow: a snake or a sheep entered is
    a species present, a zero entered one absent; the fox and the elephant are not counted
    on the page, so either may be there."""
    sheep = [getattr(planet, colour) for colour in SHEEP]
    present = (planet.count("snakes") > 0) + (any(sheep))
    unknown = (planet.snakes is None) + (not any(sheep) and None in sheep)
    return present, min(SPECIES, present + unknown + 2)


def score_game(planets: list[Planet]) -> GameScore:
    """Every player's points, penalty and total, and the winners. Checks each planet
    first (ImpossiblePlanet) and the number of players (ValueError)."""
    if not MIN_PLAYERS <= len(planets) <= MAX_PLAYERS:
        raise ValueError("Le Petit Prince is played by 2 to 5 players.")
    for planet in planets:
        check_planet(planet)
    points = [characters_points(planet) for planet in planets]
    volcanoes = [planet.count("volcanoes") for planet in planets]
    penalties = volcano_penalties(volcanoes)
    totals = [sum(p) - penalty for p, penalty in zip(points, penalties, strict=True)]
    return GameScore(
        planets=tuple(
            PlanetScore(
                characters=tuple(zip(planet.characters, p, strict=True)),
                character_total=sum(p),
                volcano_penalty=penalty,
                total=total,
            )
            for planet, p, penalty, total in zip(planets, points, penalties, totals, strict=True)
        ),
        winners=tuple(winners(totals, volcanoes)),
    )
