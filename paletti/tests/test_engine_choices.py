"""Where the French text says "peut" (may), the player chooses: claiming a platform, the
penalty after a failed protest, laying the platform."""

import pytest

from paletti.engine import IllegalAction
from paletti.tests.conftest import Table


def _lock_columns(table, seats):
    """Lock every column of these seats (as if each had been touched and put back)."""
    colours = {c for seat in seats for c in table.rules.seats[seat].colours}
    columns = [
        {**c.to_json(), "locked": c.locked or c.colour in colours} for c in table.rules.columns
    ]
    table.with_rules(columns=columns)


def _kinds(table):
    return {a["type"] for a in table.legal()}


@pytest.fixture
def blocked(table):
    """Three columns on blue, and the player to act has no column left to move."""
    table.three_on_blue()
    _lock_columns(table, [table.rules.to_act])
    return table


def test_a_player_whose_only_move_is_a_claim_may_pass_instead(blocked):
    seat = blocked.rules.to_act
    assert _kinds(blocked) == {"ask_platform", "pass"}
    blocked.act(type="pass")
    assert "passed" in blocked.codes()
    assert blocked.rules.laid == 1 and blocked.rules.to_act == (seat + 1) % 4


def test_passing_is_refused_to_a_player_who_can_still_move_a_column(table):
    table.three_on_blue()
    assert "pass" not in _kinds(table)
    with pytest.raises(IllegalAction) as error:
        table.act(type="pass")
    assert error.value.code == "must_act"


def test_passes_do_not_end_the_game_while_a_platform_can_still_be_laid(table):
    table.three_on_blue()
    _lock_columns(table, range(4))
    for _ in range(8):
        table.act(type="pass")
        assert table.rules.phase != "over"
    # Someone lays green after all. Then nobody can build: every column is locked, and
    # yellow cannot rest on an empty green.
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    table.act(**table.legal("lay_platform")[0])
    assert table.rules.laid == 2
    assert table.rules.phase == "over" and table.rules.end_reason == "no_moves"


def test_the_game_ends_when_nobody_can_place_a_column_or_lay_a_platform(table):
    table.three_on_blue()
    _lock_columns(table, range(4))
    # Two of blue's three columns leave the game: green could rest on one column only.
    on_top = [c.id for c in table.rules.columns if c.level == 1][:2]
    columns = [
        {**c.to_json(), "where": "out"} if c.id in on_top else c for c in table.rules.columns
    ]
    table.with_rules(columns=columns)
    table.act(type="pass")
    assert table.rules.phase == "over" and table.rules.end_reason == "no_moves"
    assert table.rules.winner is not None


def test_declining_to_lay_is_a_pass_that_does_not_end_the_game(table):
    table.three_on_blue()
    _lock_columns(table, range(4))
    for _ in range(4):
        table.act(type="ask_platform")
        for _ in range(3):
            table.act(type="decline")
        table.act(type="pass")
        assert "platform_declined" in table.codes()
    assert table.rules.phase != "over" and table.rules.passes == 4


def test_under_the_polish_reading_the_unchallenged_claimant_lays_the_platform(make_table):
    table: Table = make_table(options={"protest": "polish"})
    table.three_on_blue()
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    assert _kinds(table) == {"lay_platform"}
    with pytest.raises(IllegalAction):
        table.act(type="pass")


def test_an_unchallenged_claimant_may_decline_to_lay_the_platform(table):
    table.three_on_blue()
    claimant = table.rules.turn
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    assert _kinds(table) == {"lay_platform", "pass"}
    table.act(type="pass")
    assert "platform_declined" in table.codes()
    assert table.rules.laid == 1 and table.rules.turn == (claimant + 1) % 4


def test_after_a_failed_protest_the_claimant_may_spare_the_protesters_columns(table):
    table.three_on_blue()
    claimant = table.rules.turn
    table.act(type="ask_platform")
    protester = table.rules.to_act
    table.act(type="protest")
    column = table.touchable()[0]
    table.act(type="touch", column=column)
    table.act(type="abort", column=column)
    assert table.rules.phase == "penalty"
    in_play = [c for c in table.rules.columns if c.where in ("base", "platform")]
    table.act(type="pass")
    assert "penalty_waived" in table.codes()
    assert table.rules.phase == "lay" and table.rules.to_act == claimant
    still = [c for c in table.rules.columns if c.where in ("base", "platform")]
    assert len(still) == len(in_play)
    assert any(c.colour in table.rules.seats[protester].colours for c in still)


def test_pass_when_no_platform_can_rest_on_three_columns(make_table):
    table: Table = make_table()
    table.three_on_blue()
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    # The three columns leave the top level before the platform is laid (as a protest's
    # column would): nothing is left for the platform to rest on.
    columns = [{**c.to_json(), "where": "out"} if c.level == 1 else c for c in table.rules.columns]
    table.with_rules(columns=columns)
    assert _kinds(table) == {"pass"}
    table.act(type="pass")
    assert "platform_impossible" in table.codes()
