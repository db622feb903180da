"""A collapse in the middle of a protest, a penalty removal or a put-back ends the game and
is charged to the player whose hand was at work (French record D: whoever brings the villa
down).

The physics of falling is tested in test_engine_collapse.py and test_engine_depth.py; here
the villa is made to fall at a chosen moment, so the rules' handling of each case is shown
on its own: the real motion runs, then reports the fall.
"""

import pytest

from paletti.engine import villa
from paletti.engine.rules.context import ActionContext


@pytest.fixture
def fall_during(monkeypatch):
    """Call with an action type: the villa's next motion during that action comes down."""

    def arm(table, kind):
        real = ActionContext.moved
        original_act = table.act

        def act(**action):
            if action["type"] != kind:
                return original_act(**action)

            def falling(ctx, outcome, first_frame=True):
                real(ctx, outcome, first_frame)
                return villa.Collapsed(reason="tipped", piece="p0", direction="back", margin=None)

            monkeypatch.setattr(ActionContext, "moved", falling)
            try:
                return original_act(**action)
            finally:
                monkeypatch.setattr(ActionContext, "moved", real)

        table.act = act

    return arm


def _claim_and_protest(table):
    table.three_on_blue()
    claimant = table.rules.turn
    table.act(type="ask_platform")
    protester = table.rules.to_act
    table.act(type="protest")
    return claimant, protester


def _assert_fell_by(table, seat):
    assert table.rules.phase == "over"
    assert table.rules.end_reason == "collapse"
    assert table.rules.collapse.by == seat
    assert "collapse" in table.codes()


def test_a_fall_while_the_protester_proves_the_point_is_the_protesters(table, fall_during):
    claimant, protester = _claim_and_protest(table)
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    fall_during(table, "pull")
    table.act(type="pull", column=column)
    _assert_fell_by(table, protester)


def test_a_fall_while_the_protester_places_is_the_protesters(table, fall_during):
    claimant, protester = _claim_and_protest(table)
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    fall_during(table, "place")
    table.act(type="place", column=column, x=-70.0, lane=2)
    _assert_fell_by(table, protester)


def test_a_fall_during_the_penalty_removal_is_the_claimants(table, fall_during):
    claimant, protester = _claim_and_protest(table)
    column = table.touchable()[0]
    table.act(type="touch", column=column)
    table.act(type="abort", column=column)
    assert table.rules.phase == "penalty"
    victim = table.legal("remove_column")[0]["column"]
    fall_during(table, "remove_column")
    table.act(type="remove_column", column=victim)
    _assert_fell_by(table, claimant)


def test_a_fall_as_a_pulled_column_is_put_back_is_the_builders(table, fall_during):
    builder = table.rules.turn
    column = table.outer_touchable()
    table.act(type="touch", column=column)
    table.act(type="pull", column=column)
    fall_during(table, "abort")
    table.act(type="abort", column=column)
    _assert_fell_by(table, builder)
    # The column went back to where it was taken from before the villa fell, and is locked.
    assert table.rules.columns[column].where == "base"
    assert table.rules.columns[column].locked is True
