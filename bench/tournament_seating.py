"""Tournament seating figures: run `.venv/bin/python bench/tournament_seating.py` from the root.

For 5 to 40 players, plays seeded tournaments of three rounds (the default) and of four
with random results, seating each round as the site does (games/tournament/seating.py),
and prints the table sizes of a round, the repeated opponents over the whole tournament
(the most over 20 seeds, summed round by round: a pair at one table again counts the games
it has already played together) and the slowest seating of a round (CPU time).
docs/tournament.md keeps the table it printed.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.tournament.seating import (  # noqa: E402
    first_round,
    meetings,
    next_round,
    repeats,
    table_sizes,
)
from games.tournament.standings import TableResult, places_by_score, standings  # noqa: E402

SEEDS = 20


def tournament(n_players: int, n_rounds: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    players = list(range(n_players))
    plans, results, slowest, repeated = [], [], 0.0, 0
    for number in range(1, n_rounds + 1):
        start = time.process_time()
        if number == 1:
            plan = first_round(players, seed=seed)
        else:
            ranking = [s.player for s in standings(players, results)]
            met = meetings(p.tables for p in plans)
            plan = next_round(ranking, met=met, seed=seed)
            repeated += repeats(plan.tables, met)
        slowest = max(slowest, time.process_time() - start)
        plans.append(plan)
        for table in plan.tables:
            points = {p: rng.randrange(10) for p in table}
            winner = rng.choice(table)
            # The winner first, the others by their game points.
            places = places_by_score({p: (p == winner, points[p]) for p in table})
            results.append(TableResult(table, places=places, game_points=points))
    return repeated, slowest


def main() -> None:
    print("| players | tables of a round | repeats, 3 rounds | repeats, 4 rounds | slowest round |")
    print("|---:|---|---:|---:|---:|")
    for n in (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 20, 24, 30, 40):
        sizes, byes = table_sizes(n)
        three = [tournament(n, 3, seed) for seed in range(SEEDS)]
        four = [tournament(n, 4, seed) for seed in range(SEEDS)]
        slowest = max(t for _, t in three + four)
        print(
            f"| {n} | {' + '.join(map(str, sizes))} | {max(r for r, _ in three)} "
            f"| {max(r for r, _ in four)} | {slowest * 1000:.0f} ms |"
        )


if __name__ == "__main__":
    main()
