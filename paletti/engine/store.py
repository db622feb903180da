"""Snapshots, hashes, replays and the UI's view of a state.

A snapshot is the rules state as canonical JSON (every piece's place is in it), compressed:
plain data, no pickle, so loading one cannot run code and a reload is the state itself.
Snapshots of the earlier engines (a pickled pymunk world beside the rules) cannot be read
by this one: `load` refuses them with `OutdatedSnapshot`.
"""

import hashlib
import json
import zlib

from .pieces import (
    BASE_LENGTH,
    BASE_THICKNESS,
    COLUMN_HEIGHT,
    COLUMNS,
    FORBIDDEN_HALF_WIDTH,
    LANE_DEPTH,
    LANES,
    PLATFORM_LENGTHS,
    PLATFORM_THICKNESS,
    Where,
)
from .rules import RULES_VERSION, Rules, State, apply_action, new_match, scores
from .villa import BASE_TOP, TABLE_TOP

SNAPSHOT_MAGIC = b"VPAL4"
# The magics of the snapshots of RULES_VERSION 1 and 2 (pickled pymunk worlds).
OUTDATED_MAGICS = (b"VPAL2", b"VPAL3")
COMPRESSION_LEVEL = 1


class OutdatedSnapshot(ValueError):
    """A snapshot written by an earlier engine: that match can no longer be played."""


def _canonical(rules: Rules) -> bytes:
    # repr of floats round-trips exactly, so canonical JSON keeps every bit of the places.
    return json.dumps(rules.to_json(), sort_keys=True, separators=(",", ":")).encode()


def snapshot(state: State) -> bytes:
    """The stored form of a state: its rules state, canonical JSON, compressed."""
    return snapshot_and_hash(state)[0]


def snapshot_and_hash(state: State) -> tuple[bytes, str]:
    """`snapshot(state)` and `state_hash(state)` with the rules encoded once."""
    rules = _canonical(state.rules)
    return SNAPSHOT_MAGIC + zlib.compress(rules, COMPRESSION_LEVEL), _hash(rules)


def outdated(data: bytes) -> bool:
    """Whether snapshot bytes (their first few are enough) come from an earlier engine."""
    return bytes(data[: len(SNAPSHOT_MAGIC)]).startswith(OUTDATED_MAGICS)


def load(data: bytes) -> State:
    """A state from `snapshot` bytes; OutdatedSnapshot for an earlier engine's."""
    data = bytes(data)
    if data.startswith(OUTDATED_MAGICS):
        raise OutdatedSnapshot("This match was stored by an earlier version of the engine.")
    if not data.startswith(SNAPSHOT_MAGIC):
        raise ValueError("Not a Villa Paletti snapshot.")
    rules = json.loads(zlib.decompress(data[len(SNAPSHOT_MAGIC) :]))
    if not isinstance(rules, dict) or rules.get("version") != RULES_VERSION:
        raise OutdatedSnapshot("This match was stored under other rules.")
    return State(Rules.from_json(rules))


def state_hash(state: State) -> str:
    """SHA-256 of the canonical rules state: equal iff two states agree bit for bit in
    every rule and every piece's place."""
    return _hash(_canonical(state.rules))


def _hash(rules: bytes) -> str:
    return hashlib.sha256(rules).hexdigest()


def replay(seed: int, players, options: dict | None, log: list[dict]) -> State:
    """The state a match reaches from its seed, players, options and action log."""
    state = new_match(seed, players, options)
    for action in log:
        state = apply_action(state, action, record=False).state
    return state


def quantise_pose(x: float, y: float, angle: float) -> list[float]:
    """A pose as the UI gets it: mm to 0.1, radians to 0.001."""
    return [round(x * 10) / 10, round(y * 10) / 10, round(angle * 1000) / 1000]


def _shown(pose: list | None) -> list | None:
    return quantise_pose(*pose) if pose else None


def state_to_json(state: State) -> dict:
    """What the UI shows: pieces with quantised poses, scores, seal, turn, phase, result."""
    rules = state.rules
    points = scores(rules)
    columns = []
    for column in rules.columns:
        pose = column.pose
        shown = quantise_pose(*pose) if pose else [None, None, None]
        columns.append(
            {
                "id": column.id,
                "colour": column.colour,
                "kind": column.kind,
                "value": column.value,
                "width": COLUMNS[column.id].width,
                "height": COLUMN_HEIGHT,
                "level": column.level,
                "where": str(column.where),
                "x": shown[0],
                "y": shown[1],
                "angle": shown[2],
                "lane": column.lane,
                # The foot's place in 3-D: x across, z in depth (negative at the front).
                "z": round(column.z, 1) if column.z is not None else None,
                "on": column.on,
                # The side view (depth across, see docs/paletti.md "The play page"): [z, y, angle].
                "side": _shown(column.side),
                "locked": column.locked,
                "removed": column.where == Where.OUT,
                "in_hand": column.where == Where.HAND,
            }
        )
    platforms = []
    for platform in rules.platforms:
        pose = platform.pose
        shown = quantise_pose(*pose) if pose else [None, None, None]
        platforms.append(
            {
                "index": platform.index,
                "colour": platform.colour,
                "laid": pose is not None,
                "laid_by": platform.laid_by,
                "length": PLATFORM_LENGTHS[platform.index],
                "thickness": PLATFORM_THICKNESS,
                "x": shown[0],
                "y": shown[1],
                "angle": shown[2],
                "side": _shown(platform.side),
            }
        )
    seats = rules.seats
    return {
        "phase": str(rules.phase),
        "context": str(rules.context),
        "turn": rules.turn,
        "to_act": rules.to_act,
        "step": rules.step,
        "turn_colour": rules.turn_colour,
        "players": [
            {"seat": i, "name": s.name, "colours": s.colours, "score": points[i]}
            for i, s in enumerate(seats)
        ],
        "neutral": rules.neutral,
        # Polish colours option: the youngest's throw and who still chooses (else None).
        "choosing": rules.choosing.to_json() if rules.choosing else None,
        "first_player": rules.first_player,
        "top_level": rules.laid,
        "platforms": platforms,
        "columns": columns,
        "touched": (
            {"column": rules.touched, "load": rules.touch_load}
            if rules.touched is not None
            else None
        ),
        "holding": rules.holding.column if rules.holding else None,
        "claim": rules.claim.to_json() if rules.claim else None,
        "neutral_protest": (rules.neutral_protest.to_json() if rules.neutral_protest else None),
        "scores": points,
        "seal": rules.seal.to_json(),
        "winner": rules.winner,
        # Why the winner won (or why nobody did): seal_holder, previous_holder (the holder
        # brought the villa down), highest_builder (the seal named nobody),
        # highest_builder_in_turn (the same, equals parted by the turn order); in matches
        # finished before every end named a winner: no_previous_holder, no_seal_holder,
        # race_not_begun.
        "outcome": rules.outcome,
        "end_reason": rules.end_reason,
        "collapse": rules.collapse.to_json() if rules.collapse else None,
        "actions": rules.actions,
        "options": rules.options.to_json(),
        "dimensions": {
            "table_top": TABLE_TOP,
            "base_top": BASE_TOP,
            "base_length": BASE_LENGTH,
            "base_thickness": BASE_THICKNESS,
            "forbidden_half_width": FORBIDDEN_HALF_WIDTH,
            "column_height": COLUMN_HEIGHT,
            "platform_lengths": list(PLATFORM_LENGTHS),
            "lanes": list(LANES),
            "lane_depths": [LANE_DEPTH[lane] for lane in LANES],
        },
    }
