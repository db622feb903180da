"""Villa Paletti, played by code: rules, pymunk physics and bots. No Django in here.

Public API (everything a web layer, a bot or a self-play tool needs):

    new_match(seed, players=4, options=None) -> State      state.rules: a typed Rules record
        players: 2-4, or a list of seat names. options: {"seal_start": "green" | "blue",
        "tremor": mm (0 = off), "setup": "default" | "random" | {set-up dict},
        "youngest": seat, "protest" / "abort" / "colours": "french" | "polish"}.
    legal_actions(state) -> list[dict]      every action the player to act may take
    apply_action(state, action) -> ActionResult(state, frames, events)
        raises IllegalAction(code, reason) for anything else; never mutates `state`.
    Phase, Context, Where                   the rules' phases and contexts and where a column
                                            is: string enums, equal to (and stored as) the
                                            strings the page sees ("move", "turn", "hand")
    state_to_json(state) -> dict            the UI's view
    snapshot(state) -> bytes / load(bytes) -> State     the stored truth (plain JSON)
        load raises OutdatedSnapshot for an earlier engine's; outdated(bytes) tells.
    snapshot_and_hash(state) -> (bytes, str)            both at once, for the server
    state_hash(state) -> str                equal iff two states are equal bit for bit
    replay(seed, players, options, log) -> State   log: each ActionResult.action in turn
    choose_action(state, level, rng) -> dict            bots: level "easy" or "careful"

Actions are JSON objects; "seat" is optional, and if present must be the seat to act. Their
keys and ranges are one table, rules/shape.py, checked by apply_action and by the web API.
    {"type": "take_colour", "colour": c}          Polish colours option: after the youngest's
                                                  throw, each other player takes a colour
    {"type": "choose_colour", "colour": c}        2 players, before each turn
    {"type": "touch", "column": id}               commits to that column; reveals its load
    {"type": "pull", "column": id}                take it out (platforms above held)
    {"type": "abort", "column": id}               put it back: locked, turn passes
    {"type": "place", "column": id, "x": mm, "z": mm}  on the top platform ("lane": 0-2,
                                                  one of the page's depth rows, for "z")
    {"type": "ask_platform"}                      claim that no column can be moved
    {"type": "protest"} / {"type": "decline"}     answer a claim (or, 3 players, an
                                                  aborted neutral move)
    {"type": "remove_column", "column": id}       the claimant's penalty after a failed protest
    {"type": "lay_platform", "x": mm, "z": mm}    centre of the new platform, world x and z
                                                  (z: by default over the platform below)
    {"type": "pass"}                              only when the platform cannot be laid
    {"type": "skip"}                              the seat to act is out of time (never
                                                  listed: the web layer's turn clock posts
                                                  it, rules/skips.py says what it ends)

Positions. "x" and "z" of "place" are measured on the top platform from its centre (mm,
across the width and in depth, negative at the front); "x" and "z" of "lay_platform" are the
world position of the new platform's centre (0 = middle of the base), listed every 10 mm
both ways where it would rest on 3 columns (rules.lay_candidates; any position
rules.lay_problem accepts is accepted). legal_actions lists each action as
it can be posted, but a placement: its entry names the column and the 2-D `area` of every
(x, z) it may be set at (positions.placement_area; `in_area` tells whether a point is in
it), posted with an "x" and a "z" from it; `placement_spots(listed)` samples it for a client
that wants points (every 5 mm across, in the page's three depth rows).

Frames: a list of {"t": seconds from the action's start, "poses": {name: [x, y, angle] or
None}}, about 30 per simulated second, only bodies that moved; names "c<id>" for columns and
"p<index>" for platforms (0 = blue); None means the body left the villa (pulled, removed).
Units mm and radians, y up, 0 = table top. Events: [{"code", "text", ...params}], "text"
in English for a UI, "code" and params to translate.
"""

from .bots import choose_action
from .pieces import COLUMN_COLOURS, COLUMNS, PLATFORM_COLOURS, Where
from .rules import (
    ActionResult,
    Context,
    IllegalAction,
    Phase,
    Rules,
    State,
    apply_action,
    legal_actions,
    new_match,
    placement_range,
    placement_spots,
    skip_kind,
)
from .setup import SetupError, default_setup, random_setup, validate_setup
from .store import (
    OutdatedSnapshot,
    load,
    outdated,
    replay,
    snapshot,
    snapshot_and_hash,
    state_hash,
    state_to_json,
)

__all__ = [
    "COLUMN_COLOURS",
    "COLUMNS",
    "PLATFORM_COLOURS",
    "ActionResult",
    "Context",
    "IllegalAction",
    "OutdatedSnapshot",
    "Phase",
    "Rules",
    "SetupError",
    "State",
    "Where",
    "apply_action",
    "choose_action",
    "default_setup",
    "legal_actions",
    "load",
    "new_match",
    "outdated",
    "placement_range",
    "placement_spots",
    "random_setup",
    "replay",
    "skip_kind",
    "snapshot",
    "snapshot_and_hash",
    "state_hash",
    "state_to_json",
    "validate_setup",
]
