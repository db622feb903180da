"""What moves, moves in pymunk (docs/paletti.md, "Motion", "Collapse", "The hand"): a fall
goes the way the villa tips and is animated until the pieces lie still; a placement is
checked where it lands; on red a column stands on another; the second hand (rule 1) holds
the platform above while a column is drawn out."""

import copy
import math
import random

import pymunk
from hypothesis import given, settings
from hypothesis import strategies as st

from paletti.engine import motion, villa
from paletti.engine.hands import Chance, Gesture
from paletti.engine.rules import Rules, placement_range
from paletti.tests.setups import lopsided_setup

SEED = 11


def _thin_white() -> int:
    return 0  # column 0: white, thin round (pieces.COLUMNS)


def test_pulling_the_one_support_left_of_the_load_brings_blue_down_to_the_left(make_table):
    # Every column under blue but one stands right of blue's centre: without that one,
    # nothing holds blue's left side and it tips left. The builder pulls slowly but with
    # one hand (steadiness 0.5): no fingers on blue catch it.
    table = make_table(SEED, options={"setup": lopsided_setup(_thin_white())})
    column = _thin_white()
    rules = copy.deepcopy(table.rules)
    outcome = villa.pull(
        rules, column, Gesture(60, 0.5), Chance.draw(random.Random(1)), record=True
    )
    assert outcome.collapse is not None
    assert outcome.collapse.direction == "left"
    assert outcome.collapse.piece == "p0"
    # The fall is drawn until the pieces lie still, and blue ends tilted down to the left.
    times = [frame["t"] for frame in outcome.frames]
    assert times == sorted(times) and times[-1] > 0.5
    x, y, angle = rules.platforms[0].pose
    assert angle > 0.25 and y < villa.platform_y(0)


def test_a_board_laid_on_one_row_across_the_width_tips_in_depth(table):
    # Three columns on blue in one row at the back; green laid centred in depth on blue
    # would rest on that row alone, its centre in front of it: it falls towards the front.
    for x in (-40.0, 0.0, 40.0):
        table.move(x=x, lane=2)
    rules = copy.deepcopy(table.rules)
    rules.platforms[1].x = 0.0
    rules.platforms[1].z = 0.0
    rules.laid = 2
    villa.sync_rest(rules)
    outcome = villa.settle_after(rules, record=False)
    assert outcome.collapse is not None and outcome.collapse.direction == "front"


def test_on_red_a_column_set_on_another_stands_on_it(table):
    from paletti.engine.rules import stack_top

    table.move(x=0.0, lane=1)
    rules = copy.deepcopy(table.rules)
    below = next(c for c in rules.columns if c.level == 1)
    # Read the same geometry as if the top platform were red.
    for column in rules.columns:
        if column.level == 1:
            column.level = 5
    rules.platforms[4].x = rules.platforms[0].x
    rules.platforms[4].z = rules.platforms[0].z
    rules.laid = 5
    z = below.z - rules.platforms[4].z
    assert stack_top(rules, 1, 0.0, z) == below.id


def test_the_second_hand_holds_the_platform_above_still(make_table):
    """Rule 1: the same pull from the same villa, the platform above steadied firmly or
    hardly at all; the firm hand leaves it nearer where it was."""
    table = make_table(SEED)
    rules = table.rules
    loads = villa.analyse(rules).loads
    column = max((c for c in rules.columns if c.level == 0), key=lambda c: loads[c.id]).id
    moved = {}
    for steadiness in (1.0, 0.0):
        copy_of = copy.deepcopy(rules)
        chance = Chance(0.0, (0.0, 0.0), (0.0, 0.0), 0.0)  # the same path for both
        villa.pull(copy_of, column, Gesture(20, steadiness), chance, record=False)
        blue, before = copy_of.platforms[0], rules.platforms[0]
        moved[steadiness] = abs(blue.x - before.x) + abs(blue.z - before.z)
    assert moved[1.0] < moved[0.0]


def test_a_placement_that_ends_half_off_the_platform_is_given_up(make_table):
    # A shaky hand (tremor 6 mm) aiming at the very edge of blue lands past it about half
    # the time: then the column goes back where it came from and is locked.
    given_up = 0
    for seed in range(40, 52):
        table = make_table(seed, options={"tremor": 6.0})
        column = table.outer_touchable()
        table.act(type="touch", column=column)
        table.act(type="pull", column=column)
        origin = table.rules.holding.origin
        _, high = placement_range(table.rules, column)
        table.act(type="place", column=column, x=high, z=0.0)
        placed = table.rules.columns[column]
        if "placement_failed" in table.codes():
            given_up += 1
            back = (placed.x, placed.z, placed.level)
            assert back == (origin.x, origin.z, origin.level)
            assert placed.locked is True
        else:
            assert placed.level == 1
    assert given_up >= 2


@settings(max_examples=300, deadline=None)
@given(
    speed=st.floats(0.0, 2.0),
    heading=st.floats(0.0, 6.3),
    spin=st.floats(-0.2, 0.2),
    mass=st.floats(1.0, 500.0),
    half_width=st.floats(3.0, 120.0),
    half_height=st.floats(4.0, 60.0),
)
def test_a_body_below_its_still_energy_is_still_by_its_speeds(
    speed, heading, spin, mass, half_width, half_height
):
    # Scene.run reads a body's kinetic energy first and its speeds only above
    # still_energy: below it, the speeds must say "still" too, or a run would end
    # at another step.
    body = pymunk.Body()
    shape = pymunk.Poly.create_box(body, (2 * half_width, 2 * half_height))
    shape.mass = mass
    body.velocity = (speed * math.cos(heading), speed * math.sin(heading))
    body.angular_velocity = spin
    if body.kinetic_energy < motion.still_energy(body, half_width):
        assert body.velocity.length < motion.STILL_SPEED
        assert abs(body.angular_velocity) * half_width < motion.STILL_SPEED


# A quarter turn seen from above: (x, z) -> (z, -x); a fall to the right goes to the front.
QUARTER_TURN = {"right": "front", "front": "left", "left": "back", "back": "right"}


def _turned(rules: Rules) -> Rules:
    """The same villa turned a quarter on the table."""
    turned = rules.copy()
    for piece in turned.columns + turned.platforms:
        if piece.x is not None:
            piece.x, piece.z = piece.z, -piece.x
    return turned


def _pulls_from_play(seed: int, count: int) -> list[tuple[Rules, int]]:
    """The first `count` villas of a careful four-player match in which a column is
    drawn from under a platform, with that column."""
    from paletti.engine import apply_action, choose_action, new_match

    state, rng, found = new_match(seed, 4), random.Random(seed), []
    while len(found) < count and state.rules.phase != "over":
        action = choose_action(state, "careful", rng)
        if action["type"] == "pull":
            rules = state.rules.copy()
            column = rules.columns[action["column"]]
            above = rules.platforms[column.level] if column.level < 5 else None
            if above is not None and above.x is not None and villa.reaches_under(above, column):
                found.append((rules, action["column"]))
        state = apply_action(state, action, record=False).state
    return found


def test_depth_is_no_different_from_width_a_villa_turned_a_quarter_falls_turned():
    # Whether a pull brings the villa down, and which way it falls, must not depend on
    # which side of the villa the page calls the front: pulls in depth are simulated as
    # pulls across the width are. Careless hands (one-handed, fast), so that some fall.
    careless = Gesture(500.0, 0.5)
    chance = Chance(0.5, (0.3, 1.1), (0.0, 0.0), 0.0)
    falls, differ = 0, []
    for k, (rules, column_id) in enumerate(_pulls_from_play(70201, 40)):
        here = villa.pull(rules.copy(), column_id, careless, chance, record=False)
        there = villa.pull(_turned(rules), column_id, careless, chance, record=False)
        if (here.collapse is None) != (there.collapse is None) or here.knocked != there.knocked:
            differ.append(k)
            continue
        assert here.caught == there.caught
        if here.collapse:
            falls += 1
            column = rules.columns[column_id]
            (dx, dz), _ = villa.way_out(rules, column, rules.platforms[column.level])
            if math.isclose(abs(dx), abs(dz)):
                # Drawn along a diagonal, the column had two ways out as free and as short;
                # turned, the builder may take the other one, so only the fall is compared.
                continue
            assert there.collapse.piece == here.collapse.piece
            assert there.collapse.reason == here.collapse.reason
            assert there.collapse.direction == QUARTER_TURN[here.collapse.direction]
    assert falls >= 2
    # A known difference, not yet mended, in at most one of the 40 villas: the careless
    # pull knocks the column beside it, and turned a quarter it topples it (a collapse). A
    # neighbour in the plane of the pull is simulated, one beside it is pushed across the
    # plane.
    assert len(differ) <= 1, differ
