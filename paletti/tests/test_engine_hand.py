"""What a hand's skill changes (docs/paletti.md, "The hand"): its path strays to the side
as far as it wavers, so a fast unsteady hand meets neighbours a slow steady one passes; a
hand that feels a neighbour move stops after a person's reaction time, and a build that
moved another column has failed (rule 6 of the French record); the second hand (rule 1)
is used in proportion to care; a platform tilted under a load leans the load; a hand that
sets a column down hard strikes the platform with its own momentum."""

import copy
import math
import random

import pytest

from paletti.engine import COLUMNS, apply_action, choose_action, new_match, villa
from paletti.engine.hands import Chance, Gesture, spread, steadying_force
from paletti.tests.setups import quarters_setup

CAREFUL = {"speed": 40, "steadiness": 0.97}
CARELESS = {"speed": 400, "steadiness": 0.5}
GENTLE = {"speed": 40, "steadiness": 0.97}
HURRIED = {"speed": 400, "steadiness": 0.5}


def _places(rules: dict) -> dict:
    places = {("c", c.id): (c.x, c.z) for c in rules.columns}
    places |= {("p", p.index): (p.x, p.z) for p in rules.platforms if p.x}
    return places


def _first(table, test):
    """The first touchable column (choosing a colour first if need be) that passes test."""
    if table.rules.phase == "choose_colour":
        for choice in table.legal("choose_colour"):
            state = apply_action(table.state, choice).state
            found = [a["column"] for a in _touches(state) if test(state.rules, a["column"])]
            if found:
                table.state = state
                return found[0]
        return None
    found = [c for c in table.touchable() if test(table.rules, c)]
    return found[0] if found else None


def _touches(state):
    from paletti.engine import legal_actions

    return [a for a in legal_actions(state) if a["type"] == "touch"]


def _boxed_setup(column_id: int) -> dict:
    """Every column under blue in tight rows (23-24 mm apart), `column_id` in the middle of
    the left block, its eight neighbours around it: no way out passes them all."""
    from paletti.engine import COLUMNS

    slots = [(-63.0, 0.0)]
    around = [(x, z) for x in (-86.0, -63.0, -40.0) for z in (-24.0, 0.0, 24.0)]
    slots += [slot for slot in around if slot != (-63.0, 0.0)]
    slots += [(x, z) for z in (-48.0, 48.0) for x in (-86.0, -63.0, -40.0)]
    slots += [(x, z) for x in (40.0, 63.0, 86.0) for z in (-48.0, -24.0, 0.0, 24.0, 48.0)]
    ids = [column_id] + [c.id for c in COLUMNS if c.id != column_id]
    return {"columns": [{"id": i, "x": x, "z": z} for i, (x, z) in zip(ids, slots)], "blue_x": 0.0}


def test_a_boxed_in_column_pulled_slowly_moves_a_neighbour_which_stays_moved(make_table):
    # Columns stand in tight rows: the middle one has no way out that passes all its
    # neighbours. Drawn out slowly and steadily it brushes one aside: the column is out,
    # and the neighbour stays where it went (nobody may set it right); the villa stands.
    column = make_table(7, 4).touchable()[0]
    table = make_table(7, 4, options={"setup": _boxed_setup(column)})
    assert villa.pushed_on_the_way_out(table.rules, column, 0.0) > villa.KNOCK_TOLERANCE
    before = _places(table.rules)
    table.act(type="touch", column=column)
    table.act(type="pull", column=column, **CAREFUL)
    assert table.codes() == ["knocked", "pulled"], table.codes()
    knocked = next(e for e in table.events if e["code"] == "knocked")
    assert table.rules.collapse is None and table.rules.phase == "holding"
    after = _places(table.rules)
    moved = {
        key
        for key, (x, z) in after.items()
        if key[0] == "c"
        and key != ("c", column)
        and math.hypot(x - before[key][0], z - before[key][1]) > 1.0
    }
    assert moved == {("c", c) for c in knocked["moved"]}


def test_a_hand_that_feels_the_neighbour_ahead_move_stops_and_the_neighbour_stays_moved(
    make_table,
):
    # Column 9 boxed in: on its way out it pushes the neighbour ahead of it. A slow, steady
    # hand feels it move and stops: the build is interrupted, the column goes back and is
    # locked; the neighbour stays where the push left it, and the villa stands with it.
    table = make_table(7, 4, options={"setup": _boxed_setup(9)})
    assert 9 in table.touchable()
    before = _places(table.rules)
    table.act(type="touch", column=9)
    table.act(type="pull", column=9, **CAREFUL)
    failed = next(e for e in table.events if e["code"] == "pull_failed")
    assert failed["problem"] == "moved_another" and "aborted" in table.codes()
    assert table.rules.collapse is None
    assert table.rules.columns[9].locked and table.rules.columns[9].where == "base"
    after = _places(table.rules)
    for c in failed["moved"]:
        x, z = before[("c", c)]
        assert math.hypot(after[("c", c)][0] - x, after[("c", c)][1] - z) > 0.5


def test_a_fast_unsteady_hand_meets_the_neighbour_a_slow_steady_one_passes(make_table):
    # A column with a free way out by eye, a neighbour a few millimetres off its path.
    careless_room = spread(Gesture(CARELESS["speed"], CARELESS["steadiness"]))
    careful_room = spread(Gesture(CAREFUL["speed"], CAREFUL["steadiness"]))
    assert careless_room > 5.0 > 0.1 > careful_room

    def close_call(rules, column):
        free = villa.pushed_on_the_way_out(rules, column, villa.EYE_CLEARANCE) == 0
        return free and villa.pushed_on_the_way_out(rules, column, careless_room) > 0

    outcomes = {}
    for seed in range(20, 40):
        table = make_table(seed, 2)
        column = _first(table, close_call)
        if column is None:
            continue
        table.act(type="touch", column=column)
        touched = table.state
        for name, hand in (("careful", CAREFUL), ("careless", CARELESS)):
            result = apply_action(touched, {"type": "pull", "column": column, **hand})
            codes = [e["code"] for e in result.events]
            knocked = "knocked" in codes or "pull_failed" in codes
            outcomes.setdefault(name, []).append(
                "collapse" if "collapse" in codes else ("knocked" if knocked else "clean")
            )
    assert len(outcomes.get("careful", [])) >= 3
    assert set(outcomes["careful"]) == {"clean"}
    assert "clean" not in outcomes["careless"]


def test_a_slow_one_handed_pull_does_not_drag_the_platform_the_other_columns_hold(make_table):
    # Blue on its 20 columns, five in each quarter. Every column of the first player's with
    # a free way out is drawn slowly with one hand (no steadying: rule 1 is not used). The
    # drawn column bears its share of blue, a twentieth, and its friction cannot move a
    # board the 19 others hold: blue stays where it was and the villa stands. (Held by a
    # hand that propped it up at its height, the drawn column alone carried blue and
    # dragged it 27-46 mm, and the villa fell in three of five pulls.)
    table = make_table(7, 2, options={"setup": quarters_setup()})
    if table.rules.phase == "choose_colour":
        table.act(type="choose_colour", colour=table.legal("choose_colour")[0]["colour"])
    start = table.state
    placed = start.rules.platforms[0]
    free = [
        c
        for c in table.touchable()
        if villa.pushed_on_the_way_out(table.rules, c, villa.EYE_CLEARANCE) == 0
    ]
    assert len(free) >= 4
    one_handed = Gesture(20.0, 0.5)
    assert steadying_force(one_handed, 150.0) == 0.0
    for column in free:
        touched = apply_action(start, {"type": "touch", "column": column}).state
        result = apply_action(
            touched, {"type": "pull", "column": column, "speed": 20.0, "steadiness": 0.5}
        )
        codes = [e["code"] for e in result.events]
        assert "pulled" in codes, (column, codes)
        blue = result.state.rules.platforms[0]
        assert math.hypot(blue.x - placed.x, blue.z - placed.z) < 1.0, (column, blue)


def test_the_second_hand_is_used_in_proportion_to_care():
    weight = 300.0
    assert steadying_force(Gesture(400, 0.5), weight) == 0.0
    assert steadying_force(Gesture(400, 0.3), weight) == 0.0
    held = [steadying_force(Gesture(60, s), weight) for s in (0.6, 0.8, 0.95, 1.0)]
    assert held == sorted(held) and held[0] > 0.0
    # At most a fraction of the weight it steadies: a hand does not carry the platform.
    assert held[-1] < weight * 9810.0


def test_a_column_on_a_platform_tilted_past_its_balance_tips_with_it(table):
    # A thin column (foot radius 6.4 mm, its centre 30 mm up) on blue: tilted 5 degrees it
    # leans 2.6 mm and stands; tilted 14 degrees it leans 7.5 mm, past its foot's edge, and
    # falls.
    if table.rules.phase == "choose_colour":
        table.act(type="choose_colour", colour=table.legal("choose_colour")[0]["colour"])
    thin = [c for c in table.touchable() if villa.radius(c) < 8.0]
    table.move(x=0.0, lane=1, column=thin[0])
    rules = table.rules
    assert [c.id for c in rules.columns if c.level == 1] == [thin[0]]
    plane = villa.Plane(0.0, 0.0, 1.0, 0.0)
    for degrees, falls in ((5.0, False), (14.0, True)):
        copy_of = copy.deepcopy(rules)
        tilt = (-math.radians(degrees), math.radians(degrees))
        rocked = villa.tilting(copy_of, 0, tilt, plane)
        outcome = villa.settle_after(copy_of, record=False, rocked=rocked)
        assert (outcome.collapse is not None) is falls, degrees


def test_the_bots_draw_out_only_columns_with_a_free_way_out_by_eye():
    state = new_match(31, 4)
    rng = random.Random("free way")
    seen = 0
    while state.rules.phase != "over" and state.rules.actions < 120:
        level = "careful" if state.rules.actions % 2 else "easy"
        action = choose_action(state, level, rng)
        if action["type"] == "touch":
            # Free by eye: its way out brushes no neighbour by more than the rules count as
            # moving another column (KNOCK_TOLERANCE).
            free = [
                a["column"]
                for a in _touches(state)
                if villa.pushed_on_the_way_out(state.rules, a["column"], villa.EYE_CLEARANCE)
                <= villa.KNOCK_TOLERANCE
            ]
            if free:
                assert action["column"] in free
                seen += 1
        state = apply_action(state, action, record=False).state
    assert seen >= 10


def _needed_column(seeds, past: float):
    """From careful self-play: the first state at the start of a build where the villa
    cannot stand without a column the builder may touch, its loaded centre then lying at
    most `past` mm outside its supports."""
    for seed in seeds:
        state = new_match(seed, 2 + seed % 3)
        rng = random.Random(f"{seed}:needed")
        while state.rules.phase != "over" and state.rules.actions < 300:
            rules = state.rules
            if rules.phase == "move" and rules.context == "turn":
                for action in _touches(state):
                    column = action["column"]
                    weakest = villa.analyse(rules, without={column}).weakest
                    if weakest.margin < 0.0 and -weakest.margin <= past:
                        return state, column
            state = apply_action(state, choose_action(state, "careful", rng), record=False).state
    return None, None


def test_a_careful_builder_feels_the_platform_settle_and_puts_a_needed_column_back():
    # The villa cannot stand without this column. A careful builder, steadying the platform
    # with the other hand (rule 1), feels it settle onto the fingers as the column comes
    # clear and interrupts the build: nothing falls, the column goes back and is locked. A
    # hurried builder pulls with one hand: the platform tips and the villa falls.
    state, column = _needed_column(range(4_000, 4_040), past=5.0)
    assert column is not None
    before = _places(state.rules)
    touched = apply_action(state, {"type": "touch", "column": column}).state
    careful = apply_action(touched, {"type": "pull", "column": column, **CAREFUL})
    failed = [e for e in careful.events if e["code"] == "pull_failed"]
    assert failed and failed[0]["problem"] == "caught", [e["code"] for e in careful.events]
    assert careful.state.rules.collapse is None
    assert _places(careful.state.rules) == before
    assert careful.state.rules.columns[column].locked is True
    careless = apply_action(touched, {"type": "pull", "column": column, **CARELESS})
    assert careless.state.rules.collapse is not None


def _blue_on(feet: list[tuple[int, float, float]]) -> dict:
    """Blue alone on columns standing at `feet` (id, x, z); every other column out."""
    rules = copy.deepcopy(new_match(7, 4).rules)
    placed = {i: (x, z) for i, x, z in feet}
    for column in rules.columns:
        if column.id in placed:
            x, z = placed[column.id]
            column.where = "base"
            column.level = 0
            column.on = None
            column.x = x
            column.z = z
        else:
            column.where = "out"
    rules.platforms[0].x = 0.0
    rules.platforms[0].z = 0.0
    villa.sync_rest(rules)
    return rules


def _pulled(rules: dict, column: int, hand: dict, reaction: float = 1.0):
    chance = Chance(0.0, (0.0, 0.0), (0.0, 0.0), 0.0, reaction)
    gesture = Gesture(hand["speed"], hand["steadiness"])
    return villa.pull(rules, column, gesture, chance, record=False)


def _blue_past_its_supports(past: float) -> tuple[dict, int]:
    """Blue on four columns and a fifth at its right: without the fifth, the hull of the
    others ends `past` mm left of blue's middle. Returns (rules, the fifth column)."""
    widest = sorted(COLUMNS, key=lambda c: -c.width)[:5]
    a, b, c, d, fifth = (spec.id for spec in widest)
    feet = [(a, -60.0, -60.0), (b, -60.0, 60.0), (fifth, 55.0, 0.0)]
    feet += [(i, -past - villa.radius(i), z) for i, z in ((c, -60.0), (d, 60.0))]
    rules = _blue_on(feet)
    assert villa.analyse(rules).stands
    blue = villa.analyse(rules, without={fifth}).interfaces[0]
    assert blue.margin == pytest.approx(-past, abs=0.01)
    return rules, fifth


def test_the_steadying_fingers_catch_a_platform_that_turns_slowly_not_one_that_tips_fast():
    # Blue needs the fifth column. Left with its middle 3 mm past the other columns, it
    # turns slowly: the careful builder's fingers feel it go and set it right before it
    # has turned far; the column goes back. Left 40 mm past them (its middle over the
    # gap), it tips before any hand can respond: the villa falls, careful or not.
    near, fifth = _blue_past_its_supports(3.0)
    caught = _pulled(near, fifth, CAREFUL)
    assert caught.caught and caught.collapse is None
    near, fifth = _blue_past_its_supports(3.0)
    assert _pulled(near, fifth, CARELESS).collapse is not None
    far, fifth = _blue_past_its_supports(40.0)
    assert _pulled(far, fifth, CAREFUL).collapse is not None


def test_a_builder_slow_to_react_loses_the_platform_a_quick_one_catches():
    quick, fifth = _blue_past_its_supports(6.0)
    assert _pulled(quick, fifth, CAREFUL, reaction=0.8).caught
    slow, fifth = _blue_past_its_supports(6.0)
    assert _pulled(slow, fifth, CAREFUL, reaction=2.0).collapse is not None
    # How quickly a builder reacts varies from one pull to the next.
    reactions = {Chance.draw(random.Random(k)).reaction for k in range(50)}
    assert min(reactions) < 0.85 < 1.15 < max(reactions)


def _blue_on_four(edge: float, held: int) -> dict:
    """Blue alone on four thick columns whose hull ends `edge` mm right of its middle (its
    loaded centre lies a few millimetres inside that edge once a column stands at its
    right edge); column `held` in the hand, every other column out of the game."""
    thick = [c.id for c in COLUMNS if c.width > 20]
    right = edge - villa.radius(thick[0])
    spots = [(-60.0, -60.0), (-60.0, 60.0), (right, -60.0), (right, 60.0)]
    rules = _blue_on([(i, x, z) for i, (x, z) in zip(thick, spots, strict=True)])
    rules.columns[held].where = "hand"
    villa.sync_rest(rules)
    return rules


def test_a_hurried_placement_tips_a_marginal_platform_a_gentle_one_does_not():
    # Blue stands on four columns; a thin column set at its right edge, 80 mm outside their
    # hull, leaves its loaded centre 3 mm inside it: it stands. Set down gently, the hand's
    # small momentum is taken by the supports; set down hard at the same spot (the same
    # dice: on its aim, upright), the hand's momentum strikes the overhang and tips blue.
    thin = next(c.id for c in COLUMNS if c.width < 14)
    spot = Chance(0.0, (0.0, 0.0), (0.0, 0.0), 0.0)
    outcomes = {}
    for name, hand in (("gentle", GENTLE), ("hurried", HURRIED)):
        rules = _blue_on_four(6.0, thin)
        gesture = Gesture(hand["speed"], hand["steadiness"])
        outcome = villa.place(rules, thin, 85.0, 0.0, None, gesture, spot, record=False)
        outcomes[name] = outcome.collapse
        if name == "gentle":
            blue = next(i for i in villa.analyse(rules).interfaces if i.piece == "p0")
            assert 0.0 < blue.margin < 5.0, blue.margin
            assert not outcome.fell_alone
    assert outcomes["gentle"] is None
    assert outcomes["hurried"] is not None
    assert outcomes["hurried"].direction == "right"


def _stack_placements(first_seed: int = 97000, wanted: int = 4) -> list:
    """Placements of careful four-player matches once red is laid (seeds from
    `first_seed` on, until `wanted` are found), each with a spot on a column already on red
    (a column set on another: rule 8 allows it there)."""
    from paletti.engine.rules import placement_problem, stack_top

    found = []
    for seed in range(first_seed, first_seed + 10):
        state, rng = new_match(seed, 4), random.Random(f"{seed}:bots")
        while state.rules.phase != "over" and len(found) < wanted:
            action = choose_action(state, "careful", rng)
            rules = state.rules
            if action["type"] == "place" and rules.laid == 5:
                red = rules.platforms[4]
                for c in rules.columns:
                    if c.where == "platform" and c.level == 5:
                        x, z = c.x - red.x, c.z - red.z
                        column = action["column"]
                        if placement_problem(rules, column, x, z) is None:
                            if stack_top(rules, column, x, z) is not None:
                                found.append((state, column, x, z))
                                break
            state = apply_action(state, action, record=False).state
        if len(found) >= wanted:
            break
    return found


def test_a_gentler_set_down_is_never_worse_than_a_quicker_one():
    """On the same spot, with the same steadiness and the same hand's dice, a column set
    down more slowly never falls or brings the villa down where a quicker one stands: a
    sweep of speeds from the stillest the API accepts (0 mm/s), on stacks on red."""
    from paletti.engine.rules import stack_top

    speeds = [0.0, 5.0, 20.0, 40.0, 80.0, 160.0]
    placements = _stack_placements()
    assert len(placements) >= 3
    tried = 0
    for state, column, x, z in placements:
        for steadiness in (0.5, 0.9):
            for k in range(2):
                chance = Chance.draw(random.Random(k))
                failed = []
                for speed in speeds:
                    rules = state.rules.copy()
                    on = stack_top(rules, column, x, z)
                    out = villa.place(
                        rules, column, x, z, on, Gesture(speed, steadiness), chance, record=False
                    )
                    failed.append(out.collapse is not None or out.fell_alone)
                tried += 1
                # Failing is never undone by going faster.
                assert failed == sorted(failed), (speeds, failed, steadiness)
    assert tried >= 12
