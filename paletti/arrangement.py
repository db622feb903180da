"""Which columns a players' arrangement is refused for, to name them on the set-up page.

The engine (engine/setup.py) judges an arrangement and says why it refuses it; it does not
say which column is at fault in a form a page can use. This module finds the columns that
fail the test the engine reported, from the same pieces and limits, so that the message
next to the Start button names them ("the white thin round column stands in the forbidden
zone"). It never decides anything itself: it is asked only after the engine refused.
"""

from .engine import COLUMNS
from .engine.pieces import BASE_LENGTH, FORBIDDEN_HALF_WIDTH, LANES
from .engine.setup import MIN_GAP

# The refusals that are about one column, or two of one lane.
COLUMN_CODES = ("bad_lane", "off_site", "forbidden_zone", "columns_overlap")


def columns_at_fault(code: str, setup: dict) -> list[dict]:
    """The first column (or pair, for an overlap) failing the engine's test `code`, as the
    set-up lists them: [{"id", "x", "lane"}, ...]; [] when the refusal names no column."""
    columns = sorted(setup.get("columns", []), key=lambda c: c["id"])
    half = {c.id: c.width / 2 for c in COLUMNS}
    if code == "bad_lane":
        return [c for c in columns if c["lane"] not in LANES][:1]
    if code == "off_site":
        return [c for c in columns if abs(c["x"]) + half[c["id"]] > BASE_LENGTH / 2][:1]
    if code == "forbidden_zone":
        return [c for c in columns if abs(c["x"]) - half[c["id"]] < FORBIDDEN_HALF_WIDTH][:1]
    if code == "columns_overlap":
        for lane in LANES:
            row = sorted((c for c in columns if c["lane"] == lane), key=lambda c: c["x"])
            for left, right in zip(row, row[1:], strict=False):
                gap = (right["x"] - half[right["id"]]) - (left["x"] + half[left["id"]])
                if gap < MIN_GAP:
                    return [left, right]
    return []
