"""Places at a table, the points they earn, and the standings: plain Python, no Django.

A table's result reaches this module as each player's place (1 the best; players level
share the better place: 1, 2, 2, 4) and their game points, whatever the game: how a game's
own result gives the places is its table rules' (tables.py).

Readings that are ours (docs/tournament.md says so too):
- Placement points: +6/+4/+2/0 at a table of four (Board Game Arena's multiplayer Swiss
  gives +6/+4/+2/0); at three +6/+3/0 and at two +6/0, so the winner of any table takes 6,
  the last 0, and a table's average is 3 whatever its size. A bye is worth 3, that
  average, by default.
- Standings: placement points, then the sum of one's own game points, then the
  opponents' placement points (each opponent's total, counted once per game played
  together); players level on all three share a rank.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

PlayerId = Hashable

DEFAULT_POINTS: dict[int, tuple[int, ...]] = {4: (6, 4, 2, 0), 3: (6, 3, 0), 2: (6, 0)}
DEFAULT_BYE_POINTS = 3


@dataclass(frozen=True)
class TableResult:
    """One game's result: the players at the table, each one's place, and their game
    points (a game without them leaves them out: 0 each)."""

    players: tuple[PlayerId, ...]
    places: Mapping[PlayerId, int]
    game_points: Mapping[PlayerId, int] = field(default_factory=dict)

    def __post_init__(self):
        if len(set(self.players)) != len(self.players):
            raise ValueError("A player sits twice at the table.")
        if set(self.places) != set(self.players):
            raise ValueError("Every player at the table, and only they, have a place.")
        check_places(self.places)
        if set(self.game_points) - set(self.players):
            raise ValueError("Game points for a player not at the table.")
        if any(points < 0 for points in self.game_points.values()):
            raise ValueError("Game points cannot be negative.")


def check_places(places: Mapping[PlayerId, int]) -> None:
    """Places as a table gives them: whole numbers, 1 the best, each place one more than
    the number of players placed better (1, 2, 2, 4; 1, 1, 3). ValueError otherwise."""
    values = list(places.values())
    if any(not isinstance(p, int) or isinstance(p, bool) for p in values):
        raise ValueError("Places are whole numbers.")
    for place in values:
        if place != 1 + sum(1 for other in values if other < place):
            raise ValueError("Places run from 1, players level sharing the better place.")


def places_by_score(scores: Mapping[PlayerId, float]) -> dict[PlayerId, int]:
    """Places from scores, the highest first, players level sharing the better place."""
    return {
        player: 1 + sum(1 for other in scores.values() if other > score)
        for player, score in scores.items()
    }


def placement_points(
    result: TableResult, table: Mapping[int, Sequence[int]] | None = None
) -> dict[PlayerId, int]:
    """The tournament points each player takes from the game: their place's points in the
    table for that many players (DEFAULT_POINTS unless given)."""
    points = (table or DEFAULT_POINTS)[len(result.players)]
    return {player: points[place - 1] for player, place in result.places.items()}


@dataclass(frozen=True)
class Standing:
    player: PlayerId
    rank: int
    points: int
    game_points: int
    opponents_points: int
    games: int
    byes: int

    def key(self) -> tuple[int, int, int]:
        return (self.points, self.game_points, self.opponents_points)


def standings(
    players: Sequence[PlayerId],
    results: Iterable[TableResult],
    *,
    byes: Iterable[PlayerId] = (),
    table: Mapping[int, Sequence[int]] | None = None,
    bye_points: int = DEFAULT_BYE_POINTS,
) -> list[Standing]:
    """Every player's standing, best first. `players` in registration order: that order
    breaks what the tie-breaks leave level for the list's order (not for the rank, which
    is then shared). `byes` lists a player once for each round they sat out."""
    results = list(results)
    points = dict.fromkeys(players, 0)
    game_points = dict.fromkeys(players, 0)
    games = dict.fromkeys(players, 0)
    bye_count = dict.fromkeys(players, 0)
    opponents: dict[PlayerId, list[PlayerId]] = {p: [] for p in players}
    for result in results:
        for player, earned in placement_points(result, table).items():
            points[player] += earned
            games[player] += 1
            game_points[player] += result.game_points.get(player, 0)
            opponents[player].extend(q for q in result.players if q != player)
    for player in byes:
        points[player] += bye_points
        bye_count[player] += 1
    rows = [
        Standing(
            player=p,
            rank=0,
            points=points[p],
            game_points=game_points[p],
            opponents_points=sum(points[q] for q in opponents[p]),
            games=games[p],
            byes=bye_count[p],
        )
        for p in players
    ]
    order = {p: i for i, p in enumerate(players)}
    rows.sort(key=lambda s: (-s.points, -s.game_points, -s.opponents_points, order[s.player]))
    ranked, previous = [], None
    for index, row in enumerate(rows):
        rank = previous.rank if previous and previous.key() == row.key() else index + 1
        previous = Standing(**{**row.__dict__, "rank": rank})
        ranked.append(previous)
    return ranked


def with_final(rows: Sequence[Standing], places: Mapping[PlayerId, int]) -> list[Standing]:
    """The standings once the final table is played: its players first, ranked by their
    place at it (players level share it; between them the standings' order), then the
    others in their order, ranked after them. *Ours*: the final decides the places, it
    adds no points (the points shown are the rounds')."""
    finalists = sorted(
        (row for row in rows if row.player in places), key=lambda row: places[row.player]
    )
    ranked = [Standing(**{**row.__dict__, "rank": places[row.player]}) for row in finalists]
    previous = None
    for index, row in enumerate(row for row in rows if row.player not in places):
        same = previous is not None and previous.key() == row.key()
        rank = previous.rank if same else len(finalists) + index + 1
        previous = Standing(**{**row.__dict__, "rank": rank})
        ranked.append(previous)
    return ranked


def check_points_table(points: Sequence[int], size: int) -> None:
    """A table's placement points: one per place, whole numbers from 0 to 99, never more
    for a worse place. Raises ValueError with the reason."""
    if len(points) != size:
        raise ValueError(f"A table of {size} needs {size} values.")
    if any(not isinstance(p, int) or isinstance(p, bool) or not 0 <= p <= 99 for p in points):
        raise ValueError("Points are whole numbers from 0 to 99.")
    if any(a < b for a, b in zip(points, points[1:], strict=False)):
        raise ValueError("A worse place cannot earn more points.")
