"""The rules of Villa Paletti as a state machine over a plain-data villa, by phase.

A `State` is the stored truth: `rules`, a `Rules` record (dataclasses, state.py) holding
the rules state and every piece's place, stored as the plain JSON `Rules.to_json` gives
(store.py); the villa (villa/) reads and moves the pieces by their attributes
(`column.x`). `apply_action` never mutates the state it gets: it copies the rules, lets
the villa move (pymunk for motion, 3-D statics for standing) and returns a new `State`.
Nothing else is kept between actions, so a state reloaded from the store behaves exactly
as the live one.

Readings (the French record is the reference; where it is silent, the choice is said here):
- Seats act clockwise = increasing seat index.
- "Columns already on the top platform may not be moved": a column's level is the number of
  platforms under it (0 = on the base, 1 = on blue, ... 5 = on red); the top level is the
  number of platforms laid, and columns on it cannot be moved.
- Whoever laid the top platform may not place a column on it (French record: "en aucun
  cas"); this holds for protests too.
- A failed protest (the protester aborts): the claimant removes one of the protester's
  columns from the game and then lays the platform, since the claim has been upheld.
  A successful protest removes the moved column from the game; the claimant lays nothing and
  the turn passes.
- The seal moves at the end of each turn to a player who has strictly more points than
  everybody else; a tie for first place leaves it where it is.
- A player who can do nothing (no column to move and no platform to ask for) is skipped
  with an event; when nobody can, the game ends.
- 3 players, Danish text: the protester after an aborted neutral move may prove the point
  with any movable neutral column, the aborted one included (the text names it).

Modules, by phase: `state` (the rules state, phases, results, refusals), `creation` (a new
match), `positions` (where a column may be set), `turns` (who may move what, turns, the
seal, the end), `context` (what an action works with), `building` (choose a colour, touch,
pull, place, put back), `claims` (claims, protests, penalty, reward, passing), `platforms`
(laying the next platform) and `play` (legal actions, applying one).
"""

from .context import level_name
from .creation import new_match
from .lays import (
    LAY_GRID,
    MIN_PLATFORM_SUPPORTS,
    lay_candidates,
    lay_possible,
    lay_problem,
)
from .play import apply_action, legal_actions
from .positions import (
    POSITION_GRID,
    in_area,
    placement_area,
    placement_candidates,
    placement_problem,
    placement_range,
    placement_spots,
    stack_top,
)
from .skips import skip_kind
from .state import (
    RULES_VERSION,
    ActionResult,
    Claim,
    Collapse,
    Column,
    Context,
    IllegalAction,
    Options,
    Phase,
    Platform,
    Rules,
    Seal,
    Seat,
    State,
)
from .turns import scores

__all__ = [
    "LAY_GRID",
    "MIN_PLATFORM_SUPPORTS",
    "POSITION_GRID",
    "RULES_VERSION",
    "ActionResult",
    "Claim",
    "Collapse",
    "Column",
    "Context",
    "IllegalAction",
    "Options",
    "Phase",
    "Platform",
    "Rules",
    "Seal",
    "Seat",
    "State",
    "apply_action",
    "lay_candidates",
    "lay_possible",
    "lay_problem",
    "legal_actions",
    "level_name",
    "new_match",
    "in_area",
    "placement_area",
    "placement_candidates",
    "placement_problem",
    "placement_spots",
    "skip_kind",
    "placement_range",
    "scores",
    "stack_top",
]
