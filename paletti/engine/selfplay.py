"""Headless bot matches, for tuning the model and the bots (used by paletti_selfplay)."""

import random
import time
from dataclasses import asdict, dataclass

from .bots import choose_action
from .pieces import PLATFORM_COLOURS
from .rules import apply_action, level_name, new_match
from .store import state_hash

# A match that has not ended after this many actions is stopped (and reported so).
MAX_ACTIONS = 600


@dataclass
class MatchReport:
    """One self-play match, as printed."""

    seed: int
    players: int
    actions: int
    highest_platform: str
    collapsed: bool
    collapse_level: str | None
    collapse_by: int | None
    end_reason: str | None
    winner: int | None
    hash: str
    seconds: float
    slowest_decision: float


def play_match(seed: int, players: int, level: str = "careful", options: dict | None = None):
    """Play one bot match from `seed`; returns (MatchReport, final state)."""
    state = new_match(seed, players, options)
    # The bots' own dice come from the match seed too, so a self-play run replays exactly.
    rng = random.Random(f"{seed}:bots")  # noqa: S311 - bot choices, not security
    started = time.perf_counter()
    slowest = 0.0
    while state.rules["phase"] != "over" and state.rules["actions"] < MAX_ACTIONS:
        tick = time.perf_counter()
        action = choose_action(state, level, rng)
        slowest = max(slowest, time.perf_counter() - tick)
        state = apply_action(state, action, record=False).state
    rules = state.rules
    collapse = rules["collapse"]
    report = MatchReport(
        seed=seed,
        players=players,
        actions=rules["actions"],
        highest_platform=PLATFORM_COLOURS[rules["laid"] - 1],
        collapsed=collapse is not None,
        collapse_level=level_name(collapse["level"]) if collapse else None,
        collapse_by=collapse["by"] if collapse else None,
        end_reason=rules["end_reason"] or "unfinished",
        winner=rules["winner"],
        hash=state_hash(state),
        seconds=round(time.perf_counter() - started, 2),
        slowest_decision=round(slowest, 3),
    )
    return report, state


def run(matches: int, seed: int, players: int, level: str = "careful", options=None):
    """Play `matches` matches with seeds seed, seed+1, ...; yields MatchReport dicts."""
    for k in range(matches):
        report, _ = play_match(seed + k, players, level, options)
        yield asdict(report)


def totals(reports: list[dict]) -> dict:
    """Sums and rates over a list of MatchReport dicts."""
    n = len(reports) or 1
    reached_green = sum(1 for r in reports if r["highest_platform"] != "blue")
    return {
        "matches": len(reports),
        "mean_actions": round(sum(r["actions"] for r in reports) / n, 1),
        "reached_green": reached_green,
        "collapses": sum(1 for r in reports if r["collapsed"]),
        "no_winner": sum(1 for r in reports if r["winner"] is None),
        "highest": {
            colour: sum(1 for r in reports if r["highest_platform"] == colour)
            for colour in PLATFORM_COLOURS
        },
        "slowest_decision": max((r["slowest_decision"] for r in reports), default=0.0),
        "seconds": round(sum(r["seconds"] for r in reports), 1),
    }
