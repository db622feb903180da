"""Headless bot matches, for tuning the model and the bots (used by paletti_selfplay)."""

import random
import statistics
import time
from dataclasses import asdict, dataclass

from .bots import choose_action
from . import statics
from .pieces import PLATFORM_COLOURS
from .rules import State, apply_action, level_name, new_match
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
    turns: int = 0
    collapse_action: str | None = None  # the action type during which the villa fell
    collapse_reason: str | None = None
    collapse_view: str | None = None  # "front" or "side" (depth), where it showed first
    outcome: str | None = None
    protests: int = 0
    protests_won: int = 0
    claims: int = 0
    # With check_reload: every stored state reloaded and stepped with no action.
    states_checked: int = 0
    states_that_moved: int = 0
    worst_reload_shift: float = 0.0


def reload_shift(state: State) -> float:
    """How far (mm) the stored villa moves when reloaded and stepped 3 s with no action."""
    return World.load(state.blob).hold_shift()


def play_match(
    seed: int,
    players: int,
    level: str = "careful",
    options: dict | None = None,
    check_reload: bool = False,
):
    """Play one bot match from `seed`; returns (MatchReport, final state).

    `check_reload`: reload every state the match stores and count those that move more
    than HOLD_TOLERANCE in 3 s with no action (the stored-truth check, docs/paletti.md)."""
    state = new_match(seed, players, options)
    # The bots' own dice come from the match seed too, so a self-play run replays exactly.
    rng = random.Random(f"{seed}:bots")  # noqa: S311 - bot choices, not security
    started = time.perf_counter()
    slowest = 0.0
    counts = {"turns": 1, "protests": 0, "protests_won": 0, "claims": 0}
    checked, moved, worst = 0, 0, 0.0
    last_action = None
    while True:
        if check_reload:
            shift = reload_shift(state)
            checked += 1
            moved += shift > HOLD_TOLERANCE
            worst = max(worst, shift)
        if state.rules["phase"] == "over" or state.rules["actions"] >= MAX_ACTIONS:
            break
        tick = time.perf_counter()
        action = choose_action(state, level, rng)
        slowest = max(slowest, time.perf_counter() - tick)
        turn = state.rules["turn"]
        result = apply_action(state, action, record=False)
        state, last_action = result.state, action["type"]
        codes = {event["code"] for event in result.events}
        counts["protests"] += action["type"] == "protest"
        counts["claims"] += action["type"] == "ask_platform"
        counts["protests_won"] += bool(codes & {"protest_succeeded", "neutral_protest_upheld"})
        counts["turns"] += state.rules["phase"] != "over" and state.rules["turn"] != turn
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
        collapse_action=last_action if collapse else None,
        collapse_reason=collapse["reason"] if collapse else None,
        collapse_view=collapse.get("view", "front") if collapse else None,
        outcome=rules.get("outcome"),
        states_checked=checked,
        states_that_moved=moved,
        worst_reload_shift=round(worst, 3),
        **counts,
    )
    return report, state


def run(
    matches: int,
    seed: int,
    players: int,
    level: str = "careful",
    options=None,
    check_reload: bool = False,
):
    """Play `matches` matches with seeds seed, seed+1, ...; yields MatchReport dicts."""
    for k in range(matches):
        report, _ = play_match(seed + k, players, level, options, check_reload)
        yield asdict(report)


def _count(values) -> dict:
    counts: dict = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return dict(sorted(counts.items()))


def totals(reports: list[dict]) -> dict:
    """Sums and rates over a list of MatchReport dicts."""
    n = len(reports) or 1
    reached_green = sum(1 for r in reports if r["highest_platform"] != "blue")
    turns = [r["turns"] for r in reports] or [0]
    causes: dict[str, int] = {}
    for r in reports:
        if r["collapsed"]:
            causes[r["collapse_action"]] = causes.get(r["collapse_action"], 0) + 1
    return {
        "matches": len(reports),
        "mean_actions": round(sum(r["actions"] for r in reports) / n, 1),
        "turns": {"min": min(turns), "median": statistics.median(turns), "max": max(turns)},
        "collapse_causes": causes,
        "collapse_views": _count(r["collapse_view"] for r in reports if r["collapsed"]),
        "outcomes": _count(r["outcome"] or "none" for r in reports),
        "end_reasons": {
            reason: sum(1 for r in reports if r["end_reason"] == reason)
            for reason in sorted({r["end_reason"] for r in reports})
        },
        "protests": sum(r["protests"] for r in reports),
        "protests_won": sum(r["protests_won"] for r in reports),
        "claims": sum(r["claims"] for r in reports),
        "states_checked": sum(r["states_checked"] for r in reports),
        "states_that_moved": sum(r["states_that_moved"] for r in reports),
        "worst_reload_shift": max((r["worst_reload_shift"] for r in reports), default=0.0),
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
