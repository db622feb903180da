"""Depth: the villa must stand across its depth as well as across its width.

The side view (docs/paletti.md, "Depth") holds every piece again, each column at its lane's
depth: a platform resting on columns that stand in one row along the width, off the middle
of its depth, tips over there, as a real board would.
"""

import pytest

from paletti.engine import replay
from paletti.engine.physics import (
    BASE_TOP,
    LANE_DEPTH,
    World,
    column_key,
    new_space,
    platform_key,
)
from paletti.engine.pieces import COLUMN_HEIGHT, PLATFORM_THICKNESS

TOP = BASE_TOP + COLUMN_HEIGHT + PLATFORM_THICKNESS / 2


def _blue_on(lanes) -> World:
    """Blue centred on three thin columns spread along the width, in the given lanes."""
    world = World(new_space(), {})
    for n, (x, lane) in enumerate(zip((-60.0, 0.0, 60.0), lanes)):
        world.add_column(n * 5, lane, (x, BASE_TOP + COLUMN_HEIGHT / 2, 0.0))
    world.add_platform(0, (0.0, TOP, 0.0))
    return world


@pytest.mark.parametrize("lane", [0, 2])
def test_a_platform_on_one_row_at_the_edge_of_its_depth_tips_over(lane):
    world = _blue_on([lane] * 3)
    result = world.settle(record=False)
    assert result.collapsed
    assert (result.view, result.reason, result.piece) == ("side", "platform_tilted", "p0")
    # Seen from the front it stood level: only the depth brought it down.
    assert abs(world.pose(platform_key(0))[2]) < 0.05


@pytest.mark.parametrize("lanes", [(0, 2, 0), (0, 1, 2), (2, 1, 1)])
def test_a_platform_on_columns_spread_over_its_depth_stands(lanes):
    world = _blue_on(lanes)
    result = world.settle(record=False)
    assert not result.collapsed
    z, y, angle = world.side_pose(platform_key(0))
    assert abs(angle) < 0.01 and abs(y - TOP) < 1.0


def test_each_column_stands_at_its_lanes_depth_in_the_side_view(table):
    columns = table.rules["columns"]
    blue = table.rules["platforms"][0]
    assert blue["side"] is not None and abs(blue["side"][0]) < 1.0
    for column in columns:
        z, y, angle = column["side"]
        assert z == pytest.approx(LANE_DEPTH[column["lane"]], abs=1.0)
        # The two views agree on the height of each piece.
        assert y == pytest.approx(column["pose"][1], abs=0.5)


def test_a_column_placed_in_a_lane_stands_at_that_depth_on_the_platform(table):
    column = table.move(x=30.0, lane=2)
    z, y, _ = table.rules["columns"][column]["side"]
    blue = table.rules["platforms"][0]["side"]
    assert z - blue[0] == pytest.approx(LANE_DEPTH[2], abs=1.5)
    assert y == pytest.approx(blue[1] + PLATFORM_THICKNESS / 2 + COLUMN_HEIGHT / 2, abs=1.0)
    # The frames carry the side view too, for the page to draw it.
    assert any(column_key(column) in frame.get("side", {}) for frame in table.frames)


def _claim_and_lay(table):
    claimant = table.rules["turn"]
    table.act(type="ask_platform")
    while table.rules["phase"] == "claim":
        table.act(type="decline")
    table.act(type="lay_platform", x=0.0)
    return claimant


def test_green_laid_on_one_row_of_columns_brings_the_villa_down_in_depth(table):
    for x in (-40.0, 0.0, 40.0):
        table.move(x=x, lane=0)
    assert not table.rules["collapse"]
    layer = _claim_and_lay(table)
    assert table.rules["phase"] == "over"
    collapse = table.rules["collapse"]
    assert collapse["by"] == layer and collapse["view"] == "side"
    event = next(e for e in table.events if e["code"] == "collapse")
    assert event["view"] == "side"


def test_green_laid_on_columns_across_the_depth_stands(table):
    table.three_on_blue()
    _claim_and_lay(table)
    assert table.rules["phase"] != "over"
    assert table.rules["platforms"][1]["side"][2] == pytest.approx(0.0, abs=0.02)


def test_a_collapse_in_depth_replays_to_the_same_state(make_table):
    table = make_table(seed=11)
    log = []
    table.act = _logging(table.act, log)
    for x in (-40.0, 0.0, 40.0):
        table.move(x=x, lane=2)
    _claim_and_lay(table)
    assert table.rules["collapse"]["view"] == "side"
    again = replay(11, 4, None, log)
    assert again.physics == table.state.physics


def _logging(act, log):
    def logged(**action):
        result = act(**action)
        log.append(result.action)
        return result

    return logged


def _build_from_the_base(table, x, lane):
    """A build with one of the mover's columns still standing on the base (the outermost)."""
    if table.rules["phase"] == "choose_colour":
        table.act(type="choose_colour", colour=table.legal("choose_colour")[0]["colour"])
    columns = table.rules["columns"]
    on_base = [c for c in table.touchable() if columns[c]["level"] == 0]
    column = max(on_base, key=lambda c: abs(columns[c]["pose"][0]))
    table.act(type="touch", column=column)
    table.act(type="pull", column=column, speed=40, steadiness=1.0)
    table.act(type="place", column=column, x=x, lane=lane, speed=0, steadiness=1.0)
    assert table.rules["phase"] != "over", table.events
    return column


def test_on_red_a_column_set_on_another_stands_on_it_in_both_views(table):
    # Build up to red: three columns across the depth on each platform, then lay the next.
    for _ in range(4):
        for x, lane in ((-25.0, 0), (0.0, 1), (25.0, 2)):
            _build_from_the_base(table, x, lane)
        _claim_and_lay(table)
        assert table.rules["phase"] != "over", table.events
    assert table.rules["laid"] == 5
    lower = _build_from_the_base(table, 0.0, 1)
    upper = _build_from_the_base(table, 0.0, 1)
    columns = table.rules["columns"]
    red = table.rules["platforms"][4]
    for view in ("pose", "side"):
        below, above = columns[lower][view], columns[upper][view]
        # The upper column rests on the lower one, one column height above it, upright.
        assert above[1] - below[1] == pytest.approx(COLUMN_HEIGHT, abs=1.0)
        assert abs(above[2]) < 0.05
        assert below[1] == pytest.approx(
            red[view][1] + PLATFORM_THICKNESS / 2 + COLUMN_HEIGHT / 2, abs=1.0
        )
    assert "placed" in table.codes()
