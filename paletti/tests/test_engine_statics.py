"""Whether a villa stands is decided in 3-D: the load's centre against the hull of what it
rests on (docs/paletti.md, "Standing, in 3-D"). Each case here is one the two flat views of
the earlier engine let stand."""

import math

import pytest

from paletti.engine import COLUMNS, new_match
from paletti.engine.pieces import COLUMN_MASSES, PLATFORM_LENGTHS, PLATFORM_MASSES, RED
from paletti.engine.statics import Column, Platform, analyse, hull, margin, shares

THIN = next(c for c in COLUMNS if c.kind == "thin")
R = THIN.width / 2
M = COLUMN_MASSES["thin"]


def thin(i, x, z, level, on=None):
    return Column(i, x, z, R, M, level, on)


def blue(x=0.0, z=0.0):
    return Platform(0, x, z, PLATFORM_LENGTHS[0] / 2, PLATFORM_MASSES[0])


def green(x=0.0, z=0.0):
    return Platform(1, x, z, PLATFORM_LENGTHS[1] / 2, PLATFORM_MASSES[1])


def interface(stability, piece):
    return next(i for i in stability.interfaces if i.piece == piece)


@pytest.mark.parametrize("offset, stands", [(0.0, True), (R - 0.5, True), (R + 0.5, False)])
def test_a_board_on_two_columns_falls_unless_its_centre_is_on_their_line(offset, stands):
    # A see-saw: blue on two thin columns far apart across the width.
    columns = [thin(0, -80.0, 0.0, 0), thin(1, 80.0, 0.0, 0)]
    stability = analyse(columns, [blue(0.0, offset)])
    assert stability.stands is stands
    if not stands:
        # It tips across the depth, towards the side its centre lies on.
        assert interface(stability, "p0").direction == pytest.approx((0.0, 1.0))


def test_blue_and_seventeen_columns_on_two_thin_columns_fall():
    # The audit's case: 306 g on two thin columns, its centre 13.2 mm off their strip.
    supports = [thin(0, -70.0, -30.0, 0), thin(1, 70.0, -30.0, 0)]
    riders = [thin(2 + k, -80.0 + 10.0 * k, 20.0, 1) for k in range(17)]
    stability = analyse(supports + riders, [blue()])
    assert not stability.stands
    assert interface(stability, "p0").margin < -10.0


def test_an_l_shaped_support_holds_only_what_lies_over_it():
    # Columns at three corners of a square: the hull is a triangle, and the fourth corner's
    # quarter lies outside it.
    corners = [thin(0, -60.0, -60.0, 0), thin(1, 60.0, -60.0, 0), thin(2, -60.0, 60.0, 0)]
    assert analyse(corners, [blue(-10.0, -10.0)]).stands
    fallen = analyse(corners, [blue(11.5, 11.5)])
    assert not fallen.stands
    # It tips towards the missing corner: right and back.
    dx, dz = interface(fallen, "p0").direction
    assert dx > 0 and dz > 0


def test_a_diagonal_row_holds_on_its_line_and_falls_loaded_off_it():
    # Front-left, middle, back-right: the row the earlier engine's own tests used.
    row = [thin(0, -40.0, -30.0, 0), thin(1, 0.0, 0.0, 0), thin(2, 40.0, 30.0, 0)]
    assert analyse(row, [blue()]).stands
    # One thick column set on blue, front-right, off the row's line: the load leaves it.
    thick = Column(3, 60.0, -60.0, COLUMNS[4].width / 2, COLUMN_MASSES["thick"], 1)
    loaded = analyse([*row, thick], [blue()])
    assert not loaded.stands
    assert interface(loaded, "p0").margin < 0


def red_on_three():
    """Red, and the three columns under it (the storeys below are not needed here)."""
    red = Platform(RED, 0.0, 0.0, PLATFORM_LENGTHS[RED] / 2, PLATFORM_MASSES[RED])
    supports = [
        thin(10 + k, x, z, RED) for k, (x, z) in enumerate([(-35, -35), (35, -35), (0, 35)])
    ]
    return red, supports


def test_a_column_set_off_centre_on_another_on_red_falls():
    red, supports = red_on_three()
    below = thin(0, 0.0, 0.0, RED + 1)
    assert analyse([*supports, below, thin(1, R - 1.0, 0.0, RED + 1, on=0)], [red]).stands
    fallen = analyse([*supports, below, thin(1, R + 1.0, 0.0, RED + 1, on=0)], [red])
    assert not fallen.stands
    assert fallen.weakest.piece == "c1"


@pytest.mark.parametrize("step, stands", [(0.0, True), (1.0, True), (3.0, False)])
def test_a_six_high_stack_of_thin_columns_falls_unless_aligned(step, stands):
    # 6 x 60 mm of 13 mm columns, each set `step` mm further right than the one below: the
    # centre of the upper part of the stack leaves the foot below it.
    red, supports = red_on_three()
    stack = [thin(0, 0.0, 0.0, RED + 1)]
    for k in range(1, 6):
        stack.append(thin(k, k * step, 0.0, RED + 1, on=k - 1))
    assert analyse(supports + stack, [red]).stands is stands


def test_loads_are_carried_down_storey_by_storey():
    # Green on three columns on blue, blue on four columns on the base.
    base = [
        thin(i, x, z, 0) for i, (x, z) in enumerate([(-70, -70), (70, -70), (70, 70), (-70, 70)])
    ]
    upper = [thin(4 + i, x, z, 1) for i, (x, z) in enumerate([(-50, -40), (50, -40), (0, 50)])]
    stability = analyse(base + upper, [blue(), green()])
    assert stability.stands
    carried_by_upper = sum(stability.loads[c.id] for c in upper)
    carried_by_base = sum(stability.loads[c.id] for c in base)
    assert carried_by_upper == pytest.approx(PLATFORM_MASSES[1])
    everything_above_base = PLATFORM_MASSES[0] + PLATFORM_MASSES[1] + 3 * M
    assert carried_by_base == pytest.approx(everything_above_base)


def test_a_column_off_the_loads_line_carries_less():
    # The load shares of a rigid board on equal supports: linear in position.
    loads = shares(100.0, (10.0, 0.0), [(-50.0, 0.0), (50.0, 0.0), (0.0, 50.0), (0.0, -50.0)])
    assert sum(loads) == pytest.approx(100.0)
    assert loads[2] == pytest.approx(loads[3])
    assert loads[1] > loads[2] > loads[0]
    # A support that would have to pull lifts off and carries nothing.
    lifted = shares(100.0, (45.0, 0.0), [(-50.0, 0.0), (50.0, 0.0), (0.0, 50.0), (0.0, -50.0)])
    assert lifted[0] == 0.0 and sum(lifted) == pytest.approx(100.0)


def test_margin_is_the_distance_inside_and_negative_outside():
    square = hull([(0, 0), (10, 0), (10, 10), (0, 10), (5, 5)])
    assert len(square) == 4
    assert margin((5.0, 5.0), square)[0] == pytest.approx(5.0)
    value, direction = margin((13.0, 5.0), square)
    assert value == pytest.approx(-3.0) and direction == pytest.approx((1.0, 0.0))
    value, _ = margin((13.0, 14.0), square)
    assert value == pytest.approx(-5.0)


def test_every_default_set_up_column_bears_part_of_blue():
    """The usual arrangement is mirrored both ways under blue's centre: each of its 20
    columns bears a twentieth of blue. In rows with 8 columns in front and 6 at the back,
    the loads differ, and still every column bears some."""
    from paletti.engine import villa
    from paletti.tests.setups import rows_setup

    loads = villa.analyse(new_match(5, 3).rules).loads
    assert sum(loads.values()) == pytest.approx(PLATFORM_MASSES[0])
    assert all(load == pytest.approx(PLATFORM_MASSES[0] / 20) for load in loads.values())
    loads = villa.analyse(new_match(5, 3, {"setup": rows_setup()}).rules).loads
    assert sum(loads.values()) == pytest.approx(PLATFORM_MASSES[0])
    assert min(loads.values()) > 0 and not math.isclose(min(loads.values()), max(loads.values()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_stored_villa_of_careful_self_play_stands_on_a_load_outside_its_supports(players):
    # Audited with selfplay.audit_margin, which does not use statics.py.
    from paletti.engine.selfplay import play_match

    report, _ = play_match(71000 + players, players, check_reload=True)
    assert report.states_checked > 30
    assert report.outside_hull == 0 and report.worst_margin >= -1.0
    assert report.reload_mismatches == 0


def _textbook_hull(points):
    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _textbook_margin(point, polygon):
    if not polygon:
        return -math.inf, None
    n = len(polygon)
    nearest, best = None, math.inf
    for i in range(n):
        a, b = polygon[i], polygon[(i + 1) % n]
        ax, az = b[0] - a[0], b[1] - a[1]
        length2 = ax * ax + az * az
        t = (
            0.0
            if length2 == 0
            else max(0.0, min(1.0, ((point[0] - a[0]) * ax + (point[1] - a[1]) * az) / length2))
        )
        q = (a[0] + t * ax, a[1] + t * az)
        d = math.hypot(point[0] - q[0], point[1] - q[1])
        if d < best:
            nearest, best = q, d
    inside = n >= 3 and all(
        (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0]) >= 0
        for a, b in ((polygon[i], polygon[(i + 1) % n]) for i in range(n))
    )
    if inside:
        return best, None
    if best == 0:
        return 0.0, None
    return -best, ((point[0] - nearest[0]) / best, (point[1] - nearest[1]) / best)


def test_the_quick_hull_and_margin_give_the_textbook_numbers_to_the_last_bit():
    """The hull and the margin are written out for speed (the bots weigh thousands of
    villas a move): on thousands of random supports, feet on a grid included (collinear
    and repeated points), they must give exactly what the textbook forms give, or a
    bot would choose differently after the rewrite and a stored match would replay
    otherwise."""
    import random

    from paletti.engine.statics import disc

    rng = random.Random(2026)
    for trial in range(3000):
        feet = rng.randint(0, 9)
        if trial % 3 == 0:
            points = [
                (float(rng.randint(-4, 4) * 10), float(rng.randint(-4, 4) * 10))
                for _ in range(feet)
            ]
        else:
            points = [
                p
                for _ in range(feet)
                for p in disc(
                    rng.uniform(-60, 60), rng.uniform(-60, 60), rng.choice((R, 9.0, 12.0))
                )
            ]
        region = hull(points)
        assert region == _textbook_hull(points)
        for _ in range(5):
            point = (rng.uniform(-90, 90), rng.uniform(-90, 90))
            assert margin(point, region) == _textbook_margin(point, region)
        if region:
            assert margin(region[0], region) == _textbook_margin(region[0], region)
