"""Physics scenarios: loads, pulls, placements, collapses and frames."""

import pytest

from paletti.engine import COLUMNS, IllegalAction, new_match, placement_range, villa
from paletti.engine.pieces import PLATFORM_MASSES
from paletti.tests.conftest import in_area
from paletti.tests.setups import lopsided_setup

SEED = 11


def _first_colour(seed=SEED):
    rules = new_match(seed, 4).rules
    return rules.seats[rules.first_player].colours[0]


def _thin_of(colour):
    return [c.id for c in COLUMNS if c.colour == colour and c.kind == "thin"]


def _moved_out(table, column_id):
    """One column moved out beyond blue's edge, as play can leave one (blue rests on every
    column at set-up): it carries nothing."""
    columns = [c.to_json() for c in table.rules.columns]
    columns[column_id]["x"] = 112.0 if columns[column_id]["x"] > 0 else -112.0
    table.with_rules(columns=columns)


def test_touch_reads_the_load_the_column_bears_in_3d(make_table):
    table = make_table(SEED)
    loads = [villa.column_load(table.rules, c.id) for c in COLUMNS]
    # Everything above the columns is the blue platform: the loads add up to its weight.
    assert sum(loads) == pytest.approx(PLATFORM_MASSES[0], rel=1e-6)
    column = table.touchable()[0]
    table.act(type="touch", column=column)
    # Rounded once, on the server: the rules and the event say the same grams.
    assert table.rules.touch_load == round(loads[column])
    assert table.events[0]["load"] == table.rules.touch_load


def test_pulling_a_free_standing_outer_column_leaves_the_villa_standing(make_table):
    column = _thin_of(_first_colour())[0]
    table = make_table(SEED)
    _moved_out(table, column)
    table.act(type="touch", column=column)
    assert table.rules.touch_load == 0
    table.act(type="pull", column=column)
    assert table.rules.phase == "holding"
    assert table.rules.collapse is None
    assert table.rules.columns[column].where == "hand"


def test_pulling_the_support_under_a_platforms_centre_of_mass_collapses_it(make_table):
    column = _thin_of(_first_colour())[0]
    table = make_table(SEED, options={"setup": lopsided_setup(column)})
    puller = table.rules.to_act
    table.act(type="touch", column=column)
    assert table.rules.touch_load > 5
    # Pulled with one hand (steadiness 0.5): no fingers on blue catch it as it tips.
    table.act(type="pull", column=column, steadiness=0.5)
    assert table.rules.phase == "over"
    assert table.rules.end_reason == "collapse"
    assert table.rules.collapse.by == puller
    assert table.rules.collapse.piece == "p0"
    assert "collapse" in table.codes()
    # Nobody had the seal: whoever built highest wins, never the one who brought it down
    # (nobody has built yet: all are equal, and the turn order parts them).
    assert table.rules.winner not in (None, puller)
    assert table.rules.outcome == "highest_builder_in_turn"


def test_placement_fully_on_the_platform_else_refused(make_table):
    table = make_table(SEED)
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    low, high = placement_range(table.rules, column)
    # Off this platform is the rules' refusal; beyond any platform, the action's shape's.
    for x, code in (
        (high + 0.5, "off_platform"),
        (low - 3.0, "off_platform"),
        (500.0, "bad_action"),
    ):
        with pytest.raises(IllegalAction) as error:
            table.act(type="place", column=column, x=x, lane=0)
        assert error.value.code == code
    # Anywhere inside the interval is accepted, not only the listed grid.
    table.act(type="place", column=column, x=high - 0.3, lane=0)
    assert table.rules.columns[column].level == 1


def test_no_column_on_a_column_below_red(make_table):
    table = make_table(SEED)
    first = table.move(x=0.0, lane=1)
    assert table.rules.columns[first].level == 1
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    with pytest.raises(IllegalAction) as error:
        table.act(type="place", column=column, x=2.0, lane=1)
    assert error.value.code == "on_column"
    area = table.legal("place")[0]["area"]
    assert not in_area(area, 2.0, 0.0), "legal_actions must not list it either"
    # Further back, the column stands behind the first one.
    table.act(type="place", column=column, x=2.0, lane=0)
    assert table.rules.columns[column].where == "platform"


def test_on_red_a_column_may_stand_on_a_column(make_table):
    from paletti.engine.rules import Rules, placement_problem

    table = make_table(SEED)
    table.move(x=0.0, lane=1)
    rules = table.rules
    assert placement_problem(rules, 0, 0.0, 1)[0] == "on_column"
    # The same geometry, read as if the top platform were red.
    platforms = [p.to_json() for p in rules.platforms]
    platforms[4].update(x=platforms[0]["x"], z=platforms[0]["z"])
    columns = [c.to_json() for c in rules.columns]
    for column in columns:
        if column["level"] == 1:
            column["level"] = 5
    red = Rules.from_json(
        {**rules.to_json(), "laid": 5, "platforms": platforms, "columns": columns}
    )
    assert placement_problem(red, 0, 0.0, 1) is None


def test_actions_return_frames_at_about_30_per_second(make_table):
    table = make_table(SEED)
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    assert table.frames == []
    table.act(type="pull", column=column, speed=20)
    frames = table.frames
    times = [f["t"] for f in frames]
    assert times == sorted(times) and len(frames) > 10
    assert {f"c{column}"} <= set().union(*(f["poses"] for f in frames))
    assert frames[-1]["t"] <= 10.5
    steps = [b - a for a, b in zip(times, times[1:], strict=False) if b > a]
    assert min(steps) == pytest.approx(1 / 30, abs=1e-3)
    for frame in frames:
        for pose in frame["poses"].values():
            if pose is not None:
                assert [round(v, 3) for v in pose] == pose
    texts = [e["text"] for e in table.events]
    assert texts and all(isinstance(t, str) and t for t in texts)
