"""The three scoring rounds of *Alhambra*, one function per rule.

Sources (docs/sources.md, "Alhambra"): the French rules extract the ludothèque holds (the
building types and how many of each, the first two rows of the table, "le plus long
tronçon de mur d'enceinte"); the published rule book in its English transcription
(`lukfugl/alhambra`, `doc/rules.txt`; `MV-Alhambra/Webclient`, `rules.js`): the places
each scoring pays, ties sharing the points of the places they occupy, rounded down,
reserves not counted, 1 point per wall side of the longest connected outer wall, the
two-player builder Dirk; Board Game Arena's implementation (`thoun/bga-alhambra`,
`material.inc.php`) for the complete table.
"""

from dataclasses import dataclass
from enum import StrEnum

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

MIN_PLAYERS = 2
MAX_PLAYERS = 6
SCORINGS = 3
# A building tile carries at most 3 wall segments (the extract: "3 au maximum"); the
# starting tile carries none.
MAX_WALLS_PER_BUILDING = 3
# Dirk's buildings: 6 at set-up, 6 more straight after the first scoring (two players).
DIRK_AT_SET_UP = 6
DIRK_AFTER_FIRST_SCORING = 6


class Building(StrEnum):
    PAVILION = "pavilion"
    SERAGLIO = "seraglio"
    ARCADES = "arcades"
    CHAMBERS = "chambers"
    GARDEN = "garden"
    TOWER = "tower"

    @property
    def label(self):
        return BUILDING_LABELS[self]


BUILDING_LABELS = {
    Building.PAVILION: pgettext_lazy("Alhambra", "Pavilions"),
    Building.SERAGLIO: pgettext_lazy("Alhambra", "Seraglios"),
    Building.ARCADES: pgettext_lazy("Alhambra", "Arcades"),
    Building.CHAMBERS: pgettext_lazy("Alhambra", "Chambers"),
    Building.GARDEN: pgettext_lazy("Alhambra", "Gardens"),
    Building.TOWER: pgettext_lazy("Alhambra", "Towers"),
}

# How many tiles of each type the game has (the extract's table: 7 pavilions, 7 seraglios,
# 9 arcades, 11 gardens, 11 towers; chambers are the other 9 of the 54).
TILES = {
    Building.PAVILION: 7,
    Building.SERAGLIO: 7,
    Building.ARCADES: 9,
    Building.CHAMBERS: 9,
    Building.GARDEN: 11,
    Building.TOWER: 11,
}

# The third scoring's points for the first, second and third places. The first scoring
# pays the last column to the first place, the second the last two to the first two
# places (the extract's rows: pavilion 1, then 8/1; tower 6, then 13/6).
THIRD_SCORING_POINTS = {
    Building.PAVILION: (16, 8, 1),
    Building.SERAGLIO: (17, 9, 2),
    Building.ARCADES: (18, 10, 3),
    Building.CHAMBERS: (19, 11, 4),
    Building.GARDEN: (20, 12, 5),
    Building.TOWER: (21, 13, 6),
}


def points_by_place(building: Building, scoring: int) -> tuple[int, ...]:
    """The points of the first, second… places of a type at scoring 1, 2 or 3: the first
    scoring pays the first place only, the second the first two, the third three."""
    if scoring not in (1, 2, 3):
        raise ValueError("Alhambra has three scorings.")
    return THIRD_SCORING_POINTS[building][SCORINGS - scoring :]


def majority_points(counts: list[int], building: Building, scoring: int) -> list[int]:
    """Each holder's points for one building type: the most buildings take the first
    place, and so on. Holders with equal counts occupy as many places as they are and
    share those places' points, rounded down; the places they use up are gone for the
    next holders. A holder with no building of the type scores nothing for it."""
    table = points_by_place(building, scoring)
    points = [0] * len(counts)
    place = 0
    for count in sorted({n for n in counts if n > 0}, reverse=True):
        tied = [i for i, n in enumerate(counts) if n == count]
        shared = sum(table[place : place + len(tied)])
        for i in tied:
            points[i] = shared // len(tied)
        place += len(tied)
    return points


def wall_points(longest_wall: int) -> int:
    """1 point per wall segment of the player's longest connected outer wall."""
    return longest_wall


@dataclass(frozen=True)
class Holdings:
    """What a builder has in their Alhambra (not in the reserve) at a scoring. Dirk has
    no Alhambra and scores no wall: his ``wall`` stays 0."""

    buildings: dict[Building, int]
    wall: int = 0

    @property
    def building_count(self) -> int:
        return sum(self.buildings.values())


@dataclass(frozen=True)
class BuilderScore:
    by_building: dict[Building, int]
    wall: int
    total: int


@dataclass(frozen=True)
class RoundScore:
    scoring: int
    players: tuple[BuilderScore, ...]
    dirk: BuilderScore | None


class ImpossibleScoring(ValueError):
    """Counts the game cannot produce. ``problems`` maps a place in the sheet —
    ``(scoring, builder, field)``, builder a player's index or ``"dirk"``, field a
    building type, ``"wall"`` or ``None`` for the whole — to what is wrong."""

    def __init__(self, problems: dict[tuple, str]):
        super().__init__(problems)
        self.problems = problems


def score_round(scoring: int, players: list[Holdings], dirk: Holdings | None) -> RoundScore:
    """One scoring: every type's majorities among the players (and Dirk, with two
    players), then each player's wall."""
    holders = [*players, *([dirk] if dirk else [])]
    by_building = [{} for _ in holders]
    for building in Building:
        counts = [h.buildings.get(building, 0) for h in holders]
        for i, points in enumerate(majority_points(counts, building, scoring)):
            by_building[i][building] = points
    scores = []
    for i, holdings in enumerate(holders):
        is_dirk = dirk is not None and i == len(players)
        wall = 0 if is_dirk else wall_points(holdings.wall)
        scores.append(BuilderScore(by_building[i], wall, sum(by_building[i].values()) + wall))
    return RoundScore(
        scoring=scoring,
        players=tuple(scores[: len(players)]),
        dirk=scores[-1] if dirk else None,
    )


@dataclass(frozen=True)
class ScoringInput:
    players: list[Holdings]
    dirk: Holdings | None = None


@dataclass(frozen=True)
class GameScore:
    rounds: tuple[RoundScore, ...]
    running_totals: tuple[tuple[int, ...], ...]  # after each scoring, per player
    dirk_running_totals: tuple[int, ...] | None
    leaders: tuple[int, ...]  # the winners once the third scoring is in
    finished: bool


def check_scorings(scorings: list[ScoringInput]) -> None:
    """Raises ImpossibleScoring for counts no game can show."""
    problems = {}
    if not 1 <= len(scorings) <= SCORINGS:
        raise ValueError("Alhambra has one to three scorings to count.")
    players = len(scorings[0].players)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError("Alhambra is played by 2 to 6 players.")
    previous_dirk = None
    for number, scoring in enumerate(scorings, start=1):
        if len(scoring.players) != players:
            raise ValueError("Every scoring counts the same players.")
        if (scoring.dirk is not None) != (players == 2):
            raise ValueError("Dirk plays in two-player games only.")
        holders = [*enumerate(scoring.players), *([("dirk", scoring.dirk)] if scoring.dirk else [])]
        for building in Building:
            total = sum(h.buildings.get(building, 0) for _, h in holders)
            if total > TILES[building]:
                for who, _h in holders:
                    problems[(number, who, building)] = _(
                        "The game has %(tiles)s tiles of this type; these counts add up to "
                        "%(total)s."
                    ) % {"tiles": TILES[building], "total": total}
        for who, holdings in enumerate(scoring.players):
            most = MAX_WALLS_PER_BUILDING * holdings.building_count
            if holdings.wall > most and not holdings.building_count:
                # Not "at most 0 segments": without a building there is no wall at all.
                problems[(number, who, "wall")] = _(
                    "Walls stand on buildings: with no building in this Alhambra, there is "
                    "no wall yet."
                )
            elif holdings.wall > most:
                problems[(number, who, "wall")] = _(
                    "Each building carries at most 3 wall segments. Buildings in this "
                    "Alhambra: %(buildings)s; so the longest wall is at most %(most)s."
                ) % {"buildings": holdings.building_count, "most": most}
        if scoring.dirk is not None:
            fewest = DIRK_AT_SET_UP + (DIRK_AFTER_FIRST_SCORING if number > 1 else 0)
            if scoring.dirk.building_count < fewest:
                problems[(number, "dirk", None)] = _(
                    "Dirk gets 6 buildings at set-up and 6 more straight after the first "
                    "scoring: at this scoring he has at least %(fewest)s."
                ) % {"fewest": fewest}
            if previous_dirk is not None:
                for building in Building:
                    if scoring.dirk.buildings.get(building, 0) < previous_dirk.buildings.get(
                        building, 0
                    ):
                        problems[(number, "dirk", building)] = _(
                            "Dirk never loses a building: he had more at the previous scoring."
                        )
            previous_dirk = scoring.dirk
    if problems:
        raise ImpossibleScoring(problems)


def leaders(totals: tuple[int, ...]) -> tuple[int, ...]:
    """The players with the highest total. After the third scoring they are the winners;
    two or more tie for a draw ("If two players are tied, the game is a draw")."""
    best = max(totals)
    return tuple(i for i, total in enumerate(totals) if total == best)


def score_game(scorings: list[ScoringInput]) -> GameScore:
    """The scorings entered so far (the first, then the second, then the third), their
    running totals and who leads. Dirk's total is kept as the box's scoring board keeps
    it; no source says whether he can win, so the leaders are among the players."""
    check_scorings(scorings)
    rounds = tuple(
        score_round(number, scoring.players, scoring.dirk)
        for number, scoring in enumerate(scorings, start=1)
    )
    running, so_far = [], [0] * len(scorings[0].players)
    dirk_running, dirk_so_far = [], 0
    for round_score in rounds:
        so_far = [a + b.total for a, b in zip(so_far, round_score.players, strict=True)]
        running.append(tuple(so_far))
        if round_score.dirk is not None:
            dirk_so_far += round_score.dirk.total
            dirk_running.append(dirk_so_far)
    return GameScore(
        rounds=rounds,
        running_totals=tuple(running),
        dirk_running_totals=tuple(dirk_running) if dirk_running else None,
        leaders=leaders(running[-1]),
        finished=len(rounds) == SCORINGS,
    )
