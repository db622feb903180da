"""Snapshots, hashes, replays and the UI's view of a state."""

import hashlib
import json
import struct
import zlib

from .physics import BASE_TOP, TABLE_TOP, World, quantise_pose
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
)
from .rules import State, apply_action, new_match, scores

# VPAL3: the VPAL2 layout, zlib-compressed after the magic (a third of the bytes to store
# and to send to the database on every action). VPAL2 snapshots still load.
SNAPSHOT_MAGIC = b"VPAL3"
UNCOMPRESSED_MAGIC = b"VPAL2"
COMPRESSION_LEVEL = 1  # 28 KB → 8.4 KB in 0.1 ms; higher levels gain little and cost more
DIGEST_SIZE = 64  # hex characters of a SHA-256


def _canonical(rules: dict) -> bytes:
    # repr of floats round-trips exactly, so canonical JSON keeps every bit of the poses.
    return json.dumps(rules, sort_keys=True, separators=(",", ":")).encode()


def snapshot(state: State) -> bytes:
    """The stored form of a state: the JSON rules state and the pickled world, together."""
    return snapshot_and_hash(state)[0]


def snapshot_and_hash(state: State) -> tuple[bytes, str]:
    """`snapshot(state)` and `state_hash(state)` with the rules encoded once: a server
    stores both after every action."""
    rules = _canonical(state.rules)
    physics = state.physics.encode()
    body = zlib.compress(
        struct.pack(">I", len(rules)) + rules + physics + state.blob, COMPRESSION_LEVEL
    )
    return SNAPSHOT_MAGIC + body, _hash(rules, physics)


def load(data: bytes) -> State:
    """A state from `snapshot` bytes. Only load bytes this server wrote (they hold a pickle)."""
    if data.startswith(SNAPSHOT_MAGIC):
        data = zlib.decompress(data[len(SNAPSHOT_MAGIC) :])
    elif data.startswith(UNCOMPRESSED_MAGIC):
        data = data[len(UNCOMPRESSED_MAGIC) :]
    else:
        raise ValueError("Not a Villa Paletti snapshot.")
    (size,) = struct.unpack(">I", data[:4])
    start = 4
    rules = json.loads(data[start : start + size])
    physics = data[start + size : start + size + DIGEST_SIZE].decode()
    return State(rules, data[start + size + DIGEST_SIZE :], physics)


def state_hash(state: State) -> str:
    """SHA-256 over the rules state and the physics digest: equal iff two states agree bit
    for bit in every rule and every body's position, angle and velocity."""
    return _hash(_canonical(state.rules), state.physics.encode())


def _hash(rules: bytes, physics: bytes) -> str:
    digest = hashlib.sha256()
    digest.update(rules)
    digest.update(physics)
    return digest.hexdigest()


def physics_digest(state: State) -> str:
    """The digest of the world in the blob, recomputed: must equal `state.physics`."""
    return World.load(state.blob).digest()


def replay(seed: int, players, options: dict | None, log: list[dict]) -> State:
    """The state a match reaches from its seed, players, options and action log."""
    state = new_match(seed, players, options)
    for action in log:
        state = apply_action(state, action, record=False).state
    return state


def _shown(pose: list | None) -> list | None:
    return quantise_pose(*pose) if pose else None


def state_to_json(state: State) -> dict:
    """What the UI shows: pieces with quantised poses, scores, seal, turn, phase, result."""
    rules = state.rules
    points = scores(rules)
    columns = []
    for column in rules["columns"]:
        pose = column["pose"]
        shown = quantise_pose(*pose) if pose else [None, None, None]
        columns.append(
            {
                "id": column["id"],
                "colour": column["colour"],
                "kind": column["kind"],
                "value": column["value"],
                "width": COLUMNS[column["id"]].width,
                "height": COLUMN_HEIGHT,
                "level": column["level"],
                "where": column["where"],
                "x": shown[0],
                "y": shown[1],
                "angle": shown[2],
                "lane": column["lane"],
                # The side view (depth across, see docs/paletti.md "Depth"): [z, y, angle].
                "side": _shown(column.get("side")),
                "locked": column["locked"],
                "removed": column["where"] == "out",
                "in_hand": column["where"] == "hand",
            }
        )
    platforms = []
    for platform in rules["platforms"]:
        pose = platform["pose"]
        shown = quantise_pose(*pose) if pose else [None, None, None]
        platforms.append(
            {
                "index": platform["index"],
                "colour": platform["colour"],
                "laid": pose is not None,
                "laid_by": platform["laid_by"],
                "length": PLATFORM_LENGTHS[platform["index"]],
                "thickness": PLATFORM_THICKNESS,
                "x": shown[0],
                "y": shown[1],
                "angle": shown[2],
                "side": _shown(platform.get("side")),
            }
        )
    seats = rules["seats"]
    return {
        "phase": rules["phase"],
        "context": rules["context"],
        "turn": rules["turn"],
        "to_act": rules["to_act"],
        "step": rules["step"],
        "turn_colour": rules["turn_colour"],
        "players": [
            {"seat": i, "name": s["name"], "colours": s["colours"], "score": points[i]}
            for i, s in enumerate(seats)
        ],
        "neutral": rules["neutral"],
        "first_player": rules["first_player"],
        "top_level": rules["laid"],
        "platforms": platforms,
        "columns": columns,
        "touched": (
            {"column": rules["touched"], "load": rules["touch_load"]}
            if rules["touched"] is not None
            else None
        ),
        "holding": rules["holding"]["column"] if rules["holding"] else None,
        "claim": rules["claim"],
        "neutral_protest": rules["neutral_protest"],
        "scores": points,
        "seal": dict(rules["seal"]),
        "winner": rules["winner"],
        # Why the winner won (or why nobody did): seal_holder, previous_holder (the holder
        # brought the villa down), no_previous_holder, no_seal_holder, race_not_begun.
        "outcome": rules.get("outcome"),
        "end_reason": rules["end_reason"],
        "collapse": rules["collapse"],
        "actions": rules["actions"],
        "options": rules["options"],
        "dimensions": {
            "table_top": TABLE_TOP,
            "base_top": BASE_TOP,
            "base_length": BASE_LENGTH,
            "base_thickness": BASE_THICKNESS,
            "forbidden_half_width": FORBIDDEN_HALF_WIDTH,
            "column_height": COLUMN_HEIGHT,
            "lanes": list(LANES),
            "lane_depths": [LANE_DEPTH[lane] for lane in LANES],
        },
    }
