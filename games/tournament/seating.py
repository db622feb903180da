"""Who sits at which table in a round: plain Python, no Django (the web layer calls it).

A round's tables are fixed when the round starts (as at PrezCon, where brackets are set at
the start of a round so nobody can time a game to dodge an opponent); players who arrive
late or leave early change the next round's tables, never the current one's.

- Table sizes: as many tables of the largest size as the numbers allow, the others one
  smaller, so nobody sits out (13 players: 4 + 3 + 3 + 3). When that cannot be (5 players
  at tables of 4 and 3), a table of two if the tournament allows it, else byes.
- Round 1: a seeded shuffle, so the same seed gives the same tables.
- Later rounds: the players in order of standing are cut into tables, the leaders on
  table 1 (Board Game Arena's multiplayer Swiss groups players the same way), then
  players are swapped between tables while that lowers, first, the number of pairs who
  already met and then how far players moved from their standing's table.
- Byes (only when the numbers leave no other way): the lowest-ranked players who have not
  had one yet.

Everything is deterministic: the same inputs (and seed) give the same plan.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

PlayerId = Hashable

# A repeated pair costs more than any reshuffle by standing can: repeats come first.
REPEAT_WEIGHT = 10**12
# Seeded restarts from a shaken plan, when swaps alone leave repeats.
KICKS = 40


class SeatingError(ValueError):
    """The numbers cannot be seated (fewer players than the smallest table)."""


@dataclass(frozen=True)
class Plan:
    """A round's seating: `tables` from table 1 on (each a tuple of players, in order of
    standing), and the players who sit this round out (`byes`)."""

    tables: tuple[tuple[PlayerId, ...], ...]
    byes: tuple[PlayerId, ...] = ()

    def seated(self) -> list[PlayerId]:
        return [player for table in self.tables for player in table]


def table_sizes(players: int, *, largest: int = 4, pairs: bool = True) -> tuple[list[int], int]:
    """The sizes of the tables for `players`, largest first, and how many sit out.

    Tables hold `largest` or one fewer; a table of two only where no other split exists
    and `pairs` allows it (never below two). 13 → [4, 3, 3, 3], 0 byes; 5 → [3, 2], 0, or
    [4], 1 without pairs; 2 → [2], 0, or [], 2 without pairs.
    """
    if largest not in (2, 3, 4):
        raise ValueError("Tables hold 2, 3 or 4 players.")
    if players < 0:
        raise ValueError("A number of players cannot be negative.")
    smallest = max(largest - 1, 2 if pairs else 3)
    if largest == 2:
        smallest = 2
    for byes in range(players + 1):
        seated = players - byes
        if seated == 0:
            return [], byes
        sizes = _split(seated, largest, smallest)
        if sizes is None and pairs and smallest > 2:
            sizes = _split_with_pairs(seated, largest)
        if sizes is not None:
            return sizes, byes
    return [], players  # pragma: no cover - the loop always returns


def _split(players: int, largest: int, smallest: int) -> list[int] | None:
    tables = math.ceil(players / largest)
    base, extra = divmod(players, tables)
    if base < smallest:
        return None
    return [base + 1] * extra + [base] * (tables - extra)


def _split_with_pairs(players: int, largest: int) -> list[int] | None:
    # Only reached when tables of largest and largest - 1 cannot hold everybody (5 players
    # at tables of 4): the fewest tables of two that make the rest fit.
    for pairs in range(1, players // 2 + 1):
        rest = players - 2 * pairs
        if rest == 0:
            return [2] * pairs
        sizes = _split(rest, largest, max(largest - 1, 3))
        if sizes is not None:
            return sizes + [2] * pairs
    return None


def first_round(
    players: Sequence[PlayerId], *, seed: int | str, largest: int = 4, pairs: bool = True
) -> Plan:
    """Round 1: the players shuffled with the seed, then cut into tables."""
    order = list(players)
    random.Random(f"{seed}:round-1").shuffle(order)  # noqa: S311 - a draw, not a secret
    sizes, byes = table_sizes(len(order), largest=largest, pairs=pairs)
    if not sizes and order:
        raise SeatingError("Too few players for a table.")
    sitting_out = tuple(order[len(order) - byes :]) if byes else ()
    return Plan(tables=tuple(_cut(order[: len(order) - byes], sizes)), byes=sitting_out)


def next_round(
    ranking: Sequence[PlayerId],
    *,
    met: Mapping[frozenset, int],
    had_bye: Iterable[PlayerId] = (),
    seed: int | str = 0,
    largest: int = 4,
    pairs: bool = True,
) -> Plan:
    """A later round: `ranking` lists the players present, best standing first; `met`
    counts the games each pair of players (a frozenset of two ids) has played together.

    The leaders go to table 1 and so on down, then swaps between tables lower the repeated
    pairs (weighted by how often they met) and, after that, how far players moved.
    """
    ranking = list(ranking)
    if len(set(ranking)) != len(ranking):
        raise ValueError("A player appears twice in the ranking.")
    sizes, byes = table_sizes(len(ranking), largest=largest, pairs=pairs)
    if not sizes and ranking:
        raise SeatingError("Too few players for a table.")
    sitting_out = _byes(ranking, byes, set(had_bye))
    present = [p for p in ranking if p not in sitting_out]
    ideal = {}
    for index, table in enumerate(_cut(present, sizes)):
        for player in table:
            ideal[player] = index
    # Moving a player costs the square of the tables moved, a little more the higher they
    # stand: of two moves that avoid the same repeat, the lower-ranked player moves.
    weight = {p: 2 * len(present) - i for i, p in enumerate(present)}
    tables = [list(t) for t in _cut(present, sizes)]
    tables = _improve(tables, _Ideal(ideal, weight), met, seed)
    position = {p: i for i, p in enumerate(present)}
    ordered = tuple(tuple(sorted(t, key=position.__getitem__)) for t in tables)
    return Plan(tables=ordered, byes=tuple(sitting_out))


def _byes(ranking: list, count: int, had_bye: set) -> list:
    if count == 0:
        return []
    # From the bottom of the standings: first those without a bye yet, then the others.
    bottom_up = list(reversed(ranking))
    chosen = [p for p in bottom_up if p not in had_bye][:count]
    chosen += [p for p in bottom_up if p not in chosen][: count - len(chosen)]
    return chosen


def _cut(order: list, sizes: list[int]) -> list[tuple]:
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(order[start : start + size]))
        start += size
    return tables


def repeats(tables: Iterable[Iterable[PlayerId]], met: Mapping[frozenset, int]) -> int:
    """How many earlier meetings the tables repeat: each pair at a table counts the games
    it has already played together."""
    return sum(
        met.get(frozenset(pair), 0) for table in tables for pair in itertools.combinations(table, 2)
    )


@dataclass(frozen=True)
class _Ideal:
    """Each player's table by standing, and what moving them away from it costs."""

    table: Mapping
    weight: Mapping

    def moved(self, player, index: int) -> int:
        return (index - self.table[player]) ** 2 * self.weight[player]


def _cost(tables: list[list], ideal: _Ideal, met: Mapping) -> int:
    moved = sum(ideal.moved(p, index) for index, table in enumerate(tables) for p in table)
    return REPEAT_WEIGHT * repeats(tables, met) + moved


def _clashes(player, others: Iterable, met: Mapping) -> int:
    return sum(met.get(frozenset((player, other)), 0) for other in others)


def _climb(tables: list[list], ideal: _Ideal, met: Mapping) -> list[list]:
    """Best swap between two tables, again and again, while one lowers the cost.

    Swapping p (table i) with q (table j) changes only the pairs p and q form with the
    rest of their old and new tables, and their own distances from their ideal tables.
    """
    while True:
        best_gain, best = 0, None
        for (i, a), (j, b) in itertools.combinations(enumerate(tables), 2):
            for x, p in enumerate(a):
                rest_a = a[:x] + a[x + 1 :]
                for y, q in enumerate(b):
                    rest_b = b[:y] + b[y + 1 :]
                    clash_before = _clashes(p, rest_a, met) + _clashes(q, rest_b, met)
                    clash_after = _clashes(q, rest_a, met) + _clashes(p, rest_b, met)
                    moved_before = ideal.moved(p, i) + ideal.moved(q, j)
                    moved_after = ideal.moved(p, j) + ideal.moved(q, i)
                    gain = REPEAT_WEIGHT * (clash_before - clash_after) + (
                        moved_before - moved_after
                    )
                    if gain > best_gain:
                        best_gain, best = gain, (i, x, j, y)
        if best is None:
            return tables
        i, x, j, y = best
        tables[i][x], tables[j][y] = tables[j][y], tables[i][x]


def _improve(tables: list[list], ideal: _Ideal, met: Mapping, seed) -> list[list]:
    if len(tables) < 2:
        return tables
    best = _climb([list(t) for t in tables], ideal, met)
    best_cost = _cost(best, ideal, met)
    if repeats(best, met) == 0:
        return best
    # Swaps alone can stop at a plan no single swap improves: shake it (seeded) and climb
    # again, keeping the cheapest plan found.
    rng = random.Random(f"{seed}:kicks")  # noqa: S311 - a draw, not a secret
    for _ in range(KICKS):
        trial = [list(t) for t in best]
        for _ in range(3):
            i, j = rng.sample(range(len(trial)), 2)
            x, y = rng.randrange(len(trial[i])), rng.randrange(len(trial[j]))
            trial[i][x], trial[j][y] = trial[j][y], trial[i][x]
        trial = _climb(trial, ideal, met)
        cost = _cost(trial, ideal, met)
        if cost < best_cost:
            best, best_cost = trial, cost
            if repeats(best, met) == 0:
                break
    return best


def meetings(rounds: Iterable[Iterable[Iterable[PlayerId]]]) -> dict[frozenset, int]:
    """How often each pair has sat at one table, over the given rounds' tables."""
    met: dict[frozenset, int] = {}
    for tables in rounds:
        for table in tables:
            for pair in itertools.combinations(table, 2):
                key = frozenset(pair)
                met[key] = met.get(key, 0) + 1
    return met
