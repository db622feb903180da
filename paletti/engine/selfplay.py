"""Headless bot matches, for tuning the model and the bots (used by paletti_selfplay)."""

import math
import random
import statistics
import time
from dataclasses import asdict, dataclass

from .bots import choose_action
from .pieces import COLUMNS, PLATFORM_COLOURS, PLATFORM_LENGTHS, PLATFORM_MASSES
from .rules import Phase, Rules, apply_action, level_name, new_match
from .store import load, snapshot, state_hash

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
    collapse_view: str | None = None  # "front" or "side": the flat drawing that shows it
    collapse_direction: str | None = None  # left, right, front or back
    outcome: str | None = None
    protests: int = 0
    protests_won: int = 0
    claims: int = 0
    passes: int = 0
    # With check_reload: every action applied to the live state and to the state reloaded
    # from its snapshot, and every stored state audited in 3-D (outside_hull).
    states_checked: int = 0
    reload_mismatches: int = 0
    outside_hull: int = 0  # stored states with a platform's load > 1 mm outside its supports
    worst_margin: float | None = None  # the smallest margin of any stored platform (mm)
    bot_action_cpu: list | None = None  # seconds of CPU per bot decision
    levels: list | None = None  # each seat's bot level
    touch_aborts: int = 0  # columns touched and then put back without being pulled
    light_touch_aborts: int = 0  # of those, columns bearing under 10 g
    green_laid_by: int | None = None  # the seat that laid green, if anyone did


# How far outside the hull of its supports a stored platform's load may lie (mm).
AUDIT_TOLERANCE = 1.0


def audit_margin(rules: Rules) -> float:
    """The smallest margin (mm) of any laid platform's load over the columns under it,
    computed here on its own from the stored places, as an audit of the engine's statics
    (statics.py is not used): over 720 directions, the least of how far the supports' tops
    reach beyond the load's centre: a top wholly under the board reaches its centre plus its
    radius; one that sticks out past the board's edge is sampled at 720 points round its
    rim, kept where they are under the board."""
    columns = [c for c in rules.columns if c.in_play]
    laid = [p for p in rules.platforms if p.x is not None]
    rim = [(math.cos(k * math.pi / 360), math.sin(k * math.pi / 360)) for k in range(720)]
    worst = math.inf
    for platform in laid:
        index = platform.index
        parts = [(PLATFORM_MASSES[index], platform.x, platform.z)]
        parts += [(COLUMNS[c.id].mass, c.x, c.z) for c in columns if c.level > index]
        parts += [(PLATFORM_MASSES[p.index], p.x, p.z) for p in laid if p.index > index]
        mass = sum(m for m, _, _ in parts)
        cx = sum(m * x for m, x, _ in parts) / mass
        cz = sum(m * z for m, _, z in parts) / mass
        half = PLATFORM_LENGTHS[index] / 2
        whole, points = [], []
        for c in columns:
            if c.level != index or c.on is not None:
                continue
            r = COLUMNS[c.id].width / 2
            dx, dz = abs(c.x - platform.x), abs(c.z - platform.z)
            if dx + r <= half and dz + r <= half:
                whole.append((c.x, c.z, r))
                continue
            for ux, uz in rim:
                x, z = c.x + r * ux, c.z + r * uz
                if abs(x - platform.x) <= half and abs(z - platform.z) <= half:
                    points.append((x, z))
        if not whole and len(points) < 3:
            return -math.inf
        margin = math.inf
        for ux, uz in rim:
            reach = max(
                max((x * ux + z * uz + r for x, z, r in whole), default=-math.inf),
                max((x * ux + z * uz for x, z in points), default=-math.inf),
            )
            margin = min(margin, reach - (cx * ux + cz * uz))
        worst = min(worst, margin)
    return worst


def play_match(
    seed: int,
    players: int,
    level: str | list[str] = "careful",
    options: dict | None = None,
    check_reload: bool = False,
):
    """Play one bot match from `seed`; returns (MatchReport, final state). `level`: every
    seat's bot level, or a list of one per seat.

    `check_reload`: reload every state the match stores and count those that move more
    than HOLD_TOLERANCE in 3 s with no action (the stored-truth check, docs/paletti.md)."""
    state = new_match(seed, players, options)
    levels = [level] * players if isinstance(level, str) else list(level)
    if len(levels) != players:
        raise ValueError(f"{players} players need {players} levels, not {len(levels)}.")
    # The bots' own dice come from the match seed too, so a self-play run replays exactly.
    rng = random.Random(f"{seed}:bots")  # noqa: S311 - bot choices, not security
    started = time.perf_counter()
    slowest = 0.0
    counts = {
        "turns": 1,
        "protests": 0,
        "protests_won": 0,
        "claims": 0,
        "passes": 0,
        "touch_aborts": 0,
        "light_touch_aborts": 0,
    }
    checked, mismatches, outside, worst = 0, 0, 0, math.inf
    cpu = []
    last_action = None
    while True:
        if check_reload and state.rules.phase != Phase.OVER:
            margin = audit_margin(state.rules)
            checked += 1
            outside += margin < -AUDIT_TOLERANCE
            worst = min(worst, margin)
        if state.rules.phase == Phase.OVER or state.rules.actions >= MAX_ACTIONS:
            break
        tick = time.perf_counter()
        cpu_tick = time.process_time()
        action = choose_action(state, levels[state.rules.to_act], rng)
        cpu.append(time.process_time() - cpu_tick)
        slowest = max(slowest, time.perf_counter() - tick)
        turn = state.rules.turn
        if action["type"] == "abort" and state.rules.phase == "touched":
            counts["touch_aborts"] += 1
            counts["light_touch_aborts"] += (state.rules.touch_load or 0) < 10
        result = apply_action(state, action, record=False)
        if check_reload:
            # The same action from the state reloaded from its snapshot: the same outcome.
            again = apply_action(load(snapshot(state)), action, record=False)
            mismatches += state_hash(again.state) != state_hash(result.state)
        state, last_action = result.state, action["type"]
        codes = {event["code"] for event in result.events}
        counts["protests"] += action["type"] == "protest"
        counts["claims"] += action["type"] == "ask_platform"
        counts["passes"] += action["type"] == "pass"
        counts["protests_won"] += bool(codes & {"protest_succeeded", "neutral_protest_upheld"})
        counts["turns"] += state.rules.phase != Phase.OVER and state.rules.turn != turn
    rules = state.rules
    collapse = rules.collapse
    report = MatchReport(
        seed=seed,
        players=players,
        actions=rules.actions,
        highest_platform=PLATFORM_COLOURS[rules.laid - 1],
        collapsed=collapse is not None,
        collapse_level=level_name(collapse.level) if collapse else None,
        collapse_by=collapse.by if collapse else None,
        end_reason=rules.end_reason or "unfinished",
        winner=rules.winner,
        hash=state_hash(state),
        seconds=round(time.perf_counter() - started, 2),
        slowest_decision=round(slowest, 3),
        collapse_action=last_action if collapse else None,
        collapse_reason=collapse.reason if collapse else None,
        collapse_view=collapse.view if collapse else None,
        collapse_direction=collapse.direction if collapse else None,
        outcome=rules.outcome,
        states_checked=checked,
        reload_mismatches=mismatches,
        outside_hull=outside,
        worst_margin=round(worst, 2) if checked and worst != math.inf else None,
        bot_action_cpu=[round(c, 4) for c in cpu],
        levels=levels,
        green_laid_by=rules.platforms[1].laid_by if rules.laid > 1 else None,
        **counts,
    )
    return report, state


def run(
    matches: int,
    seed: int,
    players: int,
    level: str | list[str] = "careful",
    options=None,
    check_reload: bool = False,
):
    """Play `matches` matches with seeds seed, seed+1, ...; yields MatchReport dicts."""
    for k in range(matches):
        report, _ = play_match(seed + k, players, level, options, check_reload)
        yield asdict(report)


def _percentiles(values: list) -> dict:
    """p50, p95 and max of CPU seconds, in ms."""
    if not values:
        return {}
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {
        "p50": round(pick(0.5) * 1000, 1),
        "p95": round(pick(0.95) * 1000, 1),
        "max": round(ordered[-1] * 1000, 1),
    }


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
        "collapse_directions": _count(r["collapse_direction"] for r in reports if r["collapsed"]),
        "collapse_reasons": _count(r["collapse_reason"] for r in reports if r["collapsed"]),
        "depth_collapses": sum(
            1 for r in reports if r["collapsed"] and r["collapse_direction"] in ("front", "back")
        ),
        "outcomes": _count(r["outcome"] or "none" for r in reports),
        "end_reasons": {
            reason: sum(1 for r in reports if r["end_reason"] == reason)
            for reason in sorted({r["end_reason"] for r in reports})
        },
        "protests": sum(r["protests"] for r in reports),
        "protests_won": sum(r["protests_won"] for r in reports),
        "claims": sum(r["claims"] for r in reports),
        "states_checked": sum(r["states_checked"] for r in reports),
        "reload_mismatches": sum(r["reload_mismatches"] for r in reports),
        "outside_hull": sum(r["outside_hull"] for r in reports),
        "worst_margin": min(
            (r["worst_margin"] for r in reports if r["worst_margin"] is not None), default=None
        ),
        "passes": sum(r.get("passes", 0) for r in reports),
        "winners": _count(r["winner"] for r in reports if r["winner"] is not None),
        "bot_cpu_ms": _percentiles([c for r in reports for c in r["bot_action_cpu"] or []]),
        "reached_green": reached_green,
        "collapses": sum(1 for r in reports if r["collapsed"]),
        "no_winner": sum(1 for r in reports if r["winner"] is None),
        "highest": {
            colour: sum(1 for r in reports if r["highest_platform"] == colour)
            for colour in PLATFORM_COLOURS
        },
        "median_highest": PLATFORM_COLOURS[
            int(
                statistics.median_low(
                    [PLATFORM_COLOURS.index(r["highest_platform"]) for r in reports]
                )
            )
        ]
        if reports
        else None,
        "touch_aborts": sum(r["touch_aborts"] for r in reports),
        "light_touch_aborts": sum(r["light_touch_aborts"] for r in reports),
        "all_turns": sum(r["turns"] for r in reports),
        # Who won, of the matches where green was laid: its layer, or another.
        "green_layer_won": sum(
            1
            for r in reports
            if r["green_laid_by"] is not None and r["winner"] == r["green_laid_by"]
        ),
        "green_laid": sum(1 for r in reports if r["green_laid_by"] is not None),
        "unfinished": sum(1 for r in reports if r["end_reason"] == "unfinished"),
        "slowest_decision": max((r["slowest_decision"] for r in reports), default=0.0),
        "seconds": round(sum(r["seconds"] for r in reports), 1),
    }
