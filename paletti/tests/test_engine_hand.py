"""The hand: how a pull or a placement is executed changes what happens to the villa."""

import math

import pytest

from paletti.engine import IllegalAction, apply_action, new_match
from paletti.engine.hands import Gesture, PullDriver, platform_end
from paletti.engine.physics import BASE_TOP, World, column_key, new_space, platform_key
from paletti.engine.pieces import COLUMN_HEIGHT, PLATFORM_THICKNESS

CAREFUL = {"speed": 60, "steadiness": 0.95}
CARELESS = {"speed": 500, "steadiness": 0.0}


def _three_columns(extra_load: bool) -> World:
    """Blue on three thin columns (ids 0, 1, 2 at x = -60, 0, 60), optionally with green
    lying on blue as an extra load."""
    world = World(new_space(), {})
    for column_id, x in ((0, -60.0), (1, 0.0), (2, 60.0)):
        world.add_column(column_id, 0, (x, BASE_TOP + COLUMN_HEIGHT / 2, 0.0))
    top = BASE_TOP + COLUMN_HEIGHT + PLATFORM_THICKNESS / 2
    world.add_platform(0, (0.0, top, 0.0))
    if extra_load:
        world.add_platform(1, (0.0, top + PLATFORM_THICKNESS, 0.0))
    world.settle(record=False)
    return world


def _pull_shift(extra_load: bool, gesture: Gesture, grip: float) -> float:
    """How far blue moves (mm) while the middle column is pulled out from under it."""
    world = _three_columns(extra_load)
    before = world.pose(platform_key(0))
    key = column_key(1)
    end = platform_end(world.bodies[platform_key(0)], 0, 1.0)
    driver = PullDriver(world.space, world.bodies[key], key, 1, gesture, (grip, 0.0, 0.0), end)
    world.settle(record=False, reference=world.poses(), driver=driver)
    after = world.pose(platform_key(0))
    assert not world.has_column(1)
    return math.hypot(after[0] - before[0], after[1] - before[1])


def test_a_pull_drags_what_the_column_carries_more_the_heavier_the_load():
    gesture = Gesture(speed=100.0, steadiness=0.8)
    light = _pull_shift(False, gesture, 0.5)
    heavy = _pull_shift(True, gesture, 0.5)
    assert heavy > light > 0.0


def test_a_careless_pull_moves_the_villa_more_than_a_careful_one():
    careful = _pull_shift(True, Gesture(speed=60.0, steadiness=0.95), 1.0)
    careless = _pull_shift(True, Gesture(speed=400.0, steadiness=0.1), 1.0)
    assert careless > 2 * careful


def test_careful_and_careless_pulls_of_the_same_loaded_column_end_differently():
    state = new_match(7, 4)
    touched = apply_action(state, {"type": "touch", "column": 8}).state
    assert touched.rules["touch_load"] > 20
    outcomes = []
    for gesture in (CAREFUL, CARELESS):
        result = apply_action(touched, {"type": "pull", "column": 8, **gesture})
        outcomes.append(result.state.rules["platforms"][0]["pose"])
    blue = state.rules["platforms"][0]["pose"]
    moved = [math.hypot(p[0] - blue[0], p[1] - blue[1]) for p in outcomes]
    assert moved[1] > 5 * moved[0]


def test_the_same_gesture_always_gives_the_same_villa():
    state = new_match(7, 4)
    touched = apply_action(state, {"type": "touch", "column": 8}).state
    pull = {"type": "pull", "column": 8, **CARELESS}
    first = apply_action(touched, pull).state
    assert apply_action(touched, pull).state.physics == first.physics


def test_a_pull_is_animated_from_the_simulation_until_the_column_is_out():
    state = new_match(7, 4)
    touched = apply_action(state, {"type": "touch", "column": 8}).state
    frames = apply_action(touched, {"type": "pull", "column": 8, "speed": 100}).frames
    xs = [f["poses"]["c8"][0] for f in frames if f["poses"].get("c8")]
    assert xs == sorted(xs) or xs == sorted(xs, reverse=True)
    assert abs(xs[-1] - xs[0]) > 20
    assert any("c8" in f["poses"] and f["poses"]["c8"] is None for f in frames)


@pytest.mark.parametrize(
    ("action", "bad"),
    [
        ("pull", {"speed": 5}),
        ("pull", {"speed": 10_000}),
        ("pull", {"steadiness": 1.5}),
        ("pull", {"steadiness": "very"}),
        ("place", {"speed": -1}),
    ],
)
def test_gestures_out_of_range_are_refused(action, bad):
    state = new_match(7, 4)
    state = apply_action(state, {"type": "touch", "column": 9}).state
    if action == "place":
        state = apply_action(state, {"type": "pull", "column": 9}).state
        request = {"type": "place", "column": 9, "x": 0.0, "lane": 0, **bad}
    else:
        request = {"type": "pull", "column": 9, **bad}
    with pytest.raises(IllegalAction) as error:
        apply_action(state, request)
    assert error.value.code == "bad_parameter"


def test_a_column_set_down_fast_shakes_the_villa_more_than_one_set_down_gently():
    state = new_match(7, 4)
    state = apply_action(state, {"type": "touch", "column": 9}).state
    holding = apply_action(state, {"type": "pull", "column": 9}).state
    blue = holding.rules["platforms"][0]["pose"]
    moved = []
    for gesture in ({"speed": 0, "steadiness": 1.0}, {"speed": 500, "steadiness": 0.0}):
        action = {"type": "place", "column": 9, "x": 60.0, "lane": 1, **gesture}
        after = apply_action(holding, action)
        moved.append(max(abs(f["poses"]["c9"][2]) for f in after.frames if f["poses"].get("c9")))
    assert moved[1] > moved[0]
    assert holding.rules["platforms"][0]["pose"] == blue
