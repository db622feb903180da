"""The bots: `.venv/bin/python bench/bots_bench.py [matches]` from the root.

Prints (1) the careful bot's record against the easy one over two-player matches, seats
alternating (target: it wins at least 70 %), and (2) what one request costs the server with
three careful bots: the CPU time of everything between two actions of the one person at a
four-player table (the bots' decisions and the engine applying them), at the 50th and 95th
percentile and the most (target: p95 <= 0.5 s), with each bot decision's own CPU time
(target: p95 <= 60 ms). CPU time (time.process_time), not wall time: the machine is shared.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paletti.engine import apply_action, choose_action, new_match  # noqa: E402

FIRST_SEED = 60_000


def percentile(values: list, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def record(matches: int) -> tuple[int, int, int, dict]:
    """(careful wins, easy wins, no winner, why nobody won: outcome and end, counted) over
    `matches` two-player matches."""
    careful = easy = nobody = 0
    why: dict[str, int] = {}
    for k in range(matches):
        seed = FIRST_SEED + k
        levels = ("careful", "easy") if k % 2 == 0 else ("easy", "careful")
        state = new_match(seed, 2)
        rng = random.Random(f"{seed}:record")
        while state.rules.phase != "over" and state.rules.actions < 600:
            level = levels[state.rules.to_act]
            state = apply_action(state, choose_action(state, level, rng), record=False).state
        winner = state.rules.winner
        if winner is None:
            nobody += 1
            reason = f"{state.rules.outcome} ({state.rules.end_reason})"
            why[reason] = why.get(reason, 0) + 1
        elif levels[winner] == "careful":
            careful += 1
        else:
            easy += 1
    return careful, easy, nobody, dict(sorted(why.items()))


def requests(matches: int) -> tuple[list, list]:
    """CPU seconds per request (the bots' stretch between the person's actions, with
    frames recorded as the server does) and per careful decision."""
    per_request, per_decision = [], []
    for k in range(matches):
        seed = FIRST_SEED + 500 + k
        state = new_match(seed, 4)
        rng = random.Random(f"{seed}:requests")
        stretch = None
        while state.rules.phase != "over" and state.rules.actions < 600:
            person = state.rules.to_act == 0
            if person and stretch is not None:
                per_request.append(stretch)
                stretch = None
            tick = time.process_time()
            action = choose_action(state, "careful", rng)
            decided = time.process_time()
            state = apply_action(state, action, record=not person).state
            if not person:
                per_decision.append(decided - tick)
                stretch = (stretch or 0.0) + time.process_time() - tick
    return per_request, per_decision


def main(matches: int = 40) -> None:
    careful, easy, nobody, why = record(matches)
    share = careful / matches
    print(f"careful against easy, {matches} two-player matches, seats alternating:")
    print(f"  careful won {careful}, easy won {easy}, no winner {nobody}: {share:.0%}")
    if why:
        print("  no winner: " + ", ".join(f"{reason} {n}" for reason, n in why.items()))
    print("  (target: the careful bot wins >= 70 %)")
    per_request, per_decision = requests(max(4, matches // 4))
    for name, values, target in (
        ("per request, three careful bots", per_request, "p95 <= 0.5 s"),
        ("per careful decision", per_decision, "p95 <= 60 ms"),
    ):
        print(
            f"{name}: p50 {percentile(values, 0.5) * 1000:.1f} ms, p95 "
            f"{percentile(values, 0.95) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms "
            f"over {len(values)} ({target})"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
