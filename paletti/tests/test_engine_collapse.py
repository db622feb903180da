""" "La villa s'écroule": one test per collapse criterion, and what is not a collapse."""

import math

from paletti.engine.physics import (
    BASE_TOP,
    MAX_COLUMN_TILT,
    World,
    column_key,
    new_space,
    platform_key,
)
from paletti.engine.pieces import BASE_LENGTH, COLUMN_HEIGHT, PLATFORM_THICKNESS

TOP = BASE_TOP + COLUMN_HEIGHT + PLATFORM_THICKNESS / 2


def _blue_on(xs) -> World:
    """Blue centred at 0 on thin columns standing at the given x (lanes 0, 1, 2 in turn)."""
    world = World(new_space(), {})
    for n, x in enumerate(xs):
        world.add_column(n, n % 3, (x, BASE_TOP + COLUMN_HEIGHT / 2, 0.0))
    world.add_platform(0, (0.0, TOP, 0.0))
    return world


def test_a_platform_resting_on_one_side_of_its_weight_tilts_away():
    world = _blue_on([-85.0, -65.0, -45.0])
    result = world.settle(record=False)
    assert result.collapsed and result.reason == "platform_tilted"
    assert result.piece == platform_key(0)


def test_a_platform_that_loses_its_supports_falls():
    world = _blue_on([-60.0, 0.0, 60.0])
    world.settle(record=False)
    reference = world.poses()
    for column_id in (0, 1, 2):
        world.remove_column(column_id)
    result = world.settle(record=False, reference=reference)
    assert result.collapsed and result.reason == "platform_dropped"


def test_a_piece_that_falls_to_the_table_is_a_collapse():
    world = _blue_on([-60.0, 0.0, 60.0])
    world.settle(record=False)
    # A free column at the edge of the base, pushed off it.
    world.add_column(5, 0, (BASE_LENGTH / 2 - 8.0, BASE_TOP + COLUMN_HEIGHT / 2, 0.0))
    world.bodies[column_key(5)].velocity = (400.0, 0.0)
    result = world.settle(record=False)
    assert result.collapsed and result.reason == "left_base"
    assert result.piece == column_key(5)


def test_a_column_lying_down_is_a_fallen_piece():
    world = _blue_on([-60.0, 0.0, 60.0])
    world.settle(record=False)
    # A thin column standing on blue, knocked over sideways: it ends lying on blue.
    world.add_column(5, 1, (-20.0, TOP + PLATFORM_THICKNESS / 2 + COLUMN_HEIGHT / 2, 0.0))
    world.bodies[column_key(5)].angular_velocity = -15.0
    result = world.settle(record=False)
    assert result.collapsed and result.reason == "column_fell"
    assert abs(world.pose(column_key(5))[2]) > MAX_COLUMN_TILT


def test_a_column_that_leans_a_little_and_stands_again_is_no_collapse():
    world = _blue_on([-60.0, 0.0, 60.0])
    world.settle(record=False)
    world.add_column(5, 1, (-20.0, TOP + PLATFORM_THICKNESS / 2 + COLUMN_HEIGHT / 2, 0.0))
    # Tipped by 20 degrees (beyond the 15 deg a platform may tilt): it rocks back.
    world.bodies[column_key(5)].angular_velocity = -1.0
    result = world.settle(record=False)
    assert not result.collapsed
    assert abs(world.pose(column_key(5))[2]) < math.radians(1.0)


def test_after_a_collapse_the_pieces_are_simulated_until_they_lie_still():
    world = _blue_on([-85.0, -65.0, -45.0])
    result = world.settle(record=True)
    assert result.collapsed
    last = result.frames[-1]["t"]
    for body in world.bodies.values():
        assert math.hypot(*body.velocity) < 1.0
    # Long enough to see the platform land on the table, not cut at the first sign.
    assert last > 0.5
