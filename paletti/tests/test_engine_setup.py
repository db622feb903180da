"""Pieces, set-ups, colours and the first player."""

import random

import pytest

from paletti.engine import (
    COLUMNS,
    SetupError,
    default_setup,
    new_match,
    random_setup,
    validate_setup,
    villa,
)
from paletti.engine.pieces import (
    BASE_LENGTH,
    COLUMN_COLOURS,
    COLUMN_MASSES,
    COLUMN_WIDTHS,
    FORBIDDEN_HALF_WIDTH,
    PLATFORM_COLOURS,
    PLATFORM_LENGTHS,
    PLATFORM_MASSES,
)
from paletti.tests.setups import lopsided_setup, rows_setup


def test_twenty_columns_five_per_colour_with_values_1_2_3():
    assert len(COLUMNS) == 20
    for colour in COLUMN_COLOURS:
        kinds = sorted(c.kind for c in COLUMNS if c.colour == colour)
        assert kinds == ["hex", "thick", "thin", "thin", "thin"]
    assert {c.kind: c.value for c in COLUMNS} == {"thin": 1, "hex": 2, "thick": 3}
    assert COLUMN_WIDTHS["thin"] < COLUMN_WIDTHS["hex"] < COLUMN_WIDTHS["thick"]
    assert COLUMN_MASSES["thin"] < COLUMN_MASSES["hex"] < COLUMN_MASSES["thick"]


def test_five_platforms_in_order_each_smaller():
    assert PLATFORM_COLOURS == ("blue", "green", "yellow", "orange", "red")
    assert list(PLATFORM_LENGTHS) == sorted(PLATFORM_LENGTHS, reverse=True)
    assert list(PLATFORM_MASSES) == sorted(PLATFORM_MASSES, reverse=True)
    assert PLATFORM_LENGTHS[0] <= BASE_LENGTH


def test_default_setup_is_legal():
    validate_setup(default_setup())


def test_random_setup_is_legal_and_seeded():
    first = random_setup(random.Random(3))
    validate_setup(first)
    assert random_setup(random.Random(3)) == first
    assert random_setup(random.Random(4)) != first


def test_random_setups_put_columns_anywhere_under_blue_not_in_rows():
    half_blue = PLATFORM_LENGTHS[0] / 2
    depths = []
    for seed in range(10):
        setup = random_setup(random.Random(seed))
        validate_setup(setup)
        depths += [c["z"] for c in setup["columns"]]
    # Across the depth as across the width: many depths, near the front and the back edges.
    assert len(set(depths)) > 150
    assert min(depths) < -half_blue / 2 and max(depths) > half_blue / 2
    # Every such villa stands as set up, blue resting on every column.
    for seed in range(5):
        state = new_match(seed, 4, {"setup": "random"})
        stability = villa.analyse(state.rules)
        assert stability.stands
        assert all(stability.loads[c.id] > 0 for c in COLUMNS)


def _setup_with(column_id, **changes):
    setup = rows_setup()
    setup["columns"][column_id].update(changes)
    return setup


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        (_setup_with(0, x=0.0), "forbidden_zone"),
        (_setup_with(0, x=FORBIDDEN_HALF_WIDTH), "forbidden_zone"),
        (_setup_with(0, x=BASE_LENGTH / 2), "off_site"),
        (_setup_with(0, lane=7), "bad_lane"),
        ({**rows_setup(), "blue_x": 30.0}, "blue_off_base"),
        ({"columns": rows_setup()["columns"][:19], "blue_x": 0.0}, "columns_missing"),
        ({"columns": "nope"}, "malformed"),
    ],
)
def test_setup_columns_only_on_the_building_site(setup, code):
    with pytest.raises(SetupError) as error:
        validate_setup(setup)
    assert error.value.code == code


def test_setup_columns_of_a_lane_may_not_overlap():
    setup = rows_setup()
    a, b = [c for c in setup["columns"] if c["lane"] == 0 and c["x"] > 0][:2]
    b["x"] = a["x"] + 2.0
    with pytest.raises(SetupError) as error:
        validate_setup(setup)
    assert error.value.code == "columns_overlap"


def test_setup_blue_must_rest_stably_on_its_columns():
    setup = lopsided_setup()
    assert max(c["x"] + COLUMNS[c["id"]].width / 2 for c in setup["columns"]) <= BASE_LENGTH / 2
    with pytest.raises(SetupError) as error:
        validate_setup(setup)
    assert error.value.code == "blue_unstable"


def test_blue_on_columns_all_towards_the_back_is_refused_as_unstable():
    # Spread across the whole width, but every column in the back half: blue's centre lies
    # in front of all of them, and it would tip forwards.
    usual = rows_setup()["columns"]

    def at_depths(depths):
        columns = [{"id": c["id"], "x": c["x"], "z": depths[c["lane"]]} for c in usual]
        return {"columns": columns, "blue_x": 0.0}

    with pytest.raises(SetupError) as error:
        validate_setup(at_depths({0: 40.0, 1: 64.0, 2: 88.0}))
    assert error.value.code == "blue_unstable"
    # The same columns spread over the depth carry blue.
    validate_setup(at_depths({0: -40.0, 1: 0.0, 2: 40.0}))


def test_the_usual_arrangement_holds_blue_as_firmly_in_depth_as_across():
    """Five columns in each quarter, mirrored across the width and the depth and about the
    diagonals: blue's supports stand as far front and back as left and right, column for
    column, so blue stripped of columns tips no more easily in depth than across (on the
    rows they reached 98 mm across and 41 mm in depth); every quarter holds all four
    colours."""
    columns = default_setup()["columns"]
    places = {(c["x"], c["z"]) for c in columns}
    assert places == {(-x, z) for x, z in places} == {(x, -z) for x, z in places}
    assert places == {(z, x) for x, z in places}
    for sx in (-1, 1):
        for sz in (-1, 1):
            quarter = [c for c in columns if c["x"] * sx > 0 and c["z"] * sz > 0]
            assert len(quarter) == 5
            assert {COLUMNS[c["id"]].colour for c in quarter} == set(COLUMN_COLOURS)


def test_default_setup_stands_with_blue_resting_on_every_column():
    state = new_match(1, 4)
    stability = villa.analyse(state.rules)
    assert stability.stands
    blue = next(i for i in stability.interfaces if i.piece == "p0")
    # Blue's weight lies well inside its supports, and every column bears part of it.
    assert blue.margin > 30.0
    assert all(stability.loads[c.id] > 0 for c in COLUMNS)


def test_first_player_is_the_one_who_received_the_last_colour():
    for seed in range(6):
        state = new_match(seed, 4)
        rules = state.rules
        youngest = rules.youngest
        # Colours are rolled clockwise from the youngest; the last one rolled starts.
        assert rules.first_player == (youngest + 3) % 4 == rules.turn
        colours = [c for seat in rules.seats for c in seat.colours]
        assert sorted(colours) == sorted(COLUMN_COLOURS)
    assert new_match(5, 4).rules.seats == new_match(5, 4).rules.seats


def test_two_players_take_two_colours_each():
    rules = new_match(1, 2).rules
    assert [len(s.colours) for s in rules.seats] == [2, 2]
    assert rules.neutral is None
    assert rules.first_player == (rules.youngest + 1) % 2


def test_three_players_leave_the_fourth_colour_neutral():
    rules = new_match(1, 3).rules
    owned = [c for s in rules.seats for c in s.colours]
    assert len(owned) == 3 and rules.neutral not in owned
    assert rules.first_player == (rules.youngest + 2) % 3


def test_player_made_setup_is_validated_at_match_creation():
    with pytest.raises(SetupError):
        new_match(1, 4, {"setup": _setup_with(0, x=0.0)})
    state = new_match(1, 4, {"setup": default_setup()})
    assert state.rules.phase in ("move", "choose_colour")
