"""Which columns a players' arrangement is refused for, to name them on the set-up page.

The engine (engine/setup.py) judges an arrangement and says why it refuses it; it does not
say which column is at fault in a form a page can use. This module finds the columns that
fail the test the engine reported, from the same pieces and limits, so that the message
next to the Start button names them ("the white thin round column stands in the forbidden
zone"). It never decides anything itself: it is asked only after the engine refused.
"""

from .engine import COLUMNS
from .engine.pieces import BASE_LENGTH, FORBIDDEN_HALF_WIDTH, LANE_DEPTH, LANES
from .engine.setup import MIN_GAP

# The refusals that are about one column, or two that touch.
COLUMN_CODES = ("bad_lane", "off_site", "forbidden_zone", "columns_overlap")


def _depth(column: dict) -> float | None:
    """A set-up column's depth z (mm): given, or its row's."""
    if "z" in column:
        return column["z"]
    return LANE_DEPTH.get(column.get("lane"))


def _named(column: dict) -> dict:
    """A column as the message names it: its x, and its row (the nearest, for a depth)."""
    z = _depth(column)
    lane = column.get("lane")
    if "z" in column:
        lane = min(LANES, key=lambda n: abs(LANE_DEPTH[n] - z))
    return {"id": column["id"], "x": column["x"], "lane": lane}


def columns_at_fault(code: str, setup: dict) -> list[dict]:
    """The first column (or pair, for an overlap) failing the engine's test `code`, as the
    message names them: [{"id", "x", "lane"}, ...] (a column given by its depth "z" is named
    by its nearest row); [] when the refusal names no column."""
    columns = sorted(setup.get("columns", []), key=lambda c: c["id"])
    half = {c.id: c.width / 2 for c in COLUMNS}
    edge = BASE_LENGTH / 2
    if code == "bad_lane":
        return [c for c in columns if "z" not in c and c["lane"] not in LANES][:1]
    if any(_depth(c) is None for c in columns):
        return []
    if code == "off_site":
        off = [
            c
            for c in columns
            if abs(c["x"]) + half[c["id"]] > edge or abs(_depth(c)) + half[c["id"]] > edge
        ]
        return [_named(c) for c in off[:1]]
    if code == "forbidden_zone":
        inside = [c for c in columns if abs(c["x"]) - half[c["id"]] < FORBIDDEN_HALF_WIDTH]
        return [_named(c) for c in inside[:1]]
    if code == "columns_overlap":
        for n, a in enumerate(columns):
            for b in columns[n + 1 :]:
                reach = half[a["id"]] + half[b["id"]] + MIN_GAP
                if (a["x"] - b["x"]) ** 2 + (_depth(a) - _depth(b)) ** 2 < reach * reach:
                    return [_named(a), _named(b)]
    return []
