"""The careful bot weighs the seal as a person does: whoever lays a platform may not place on
it, so the next builder's first column there takes the seal; the holder plays safer, one
behind gambles; the game goes on while anyone can build, so a table that stops building
takes risks again; a fall hands the win to the previous holder (docs/paletti.md, "Bots")."""

import random

import pytest

from paletti.engine import bots, choose_action, new_match
from paletti.tests.conftest import Table


def _every_pull_looks(monkeypatch, risk):
    """Every pull looks `risk` risky, whatever the column: the choice is the seal's."""
    monkeypatch.setattr(bots.Careful, "pull_risk", lambda self, state, column, felt=False: risk)


def _careful(table, seed=1):
    return choose_action(table.state, "careful", random.Random(seed))


@pytest.fixture
def two():
    """A two-player match on the default set-up, seed 7."""
    return Table(new_match(7, 2))


@pytest.fixture
def green_held(two):
    """Two players: three builds on blue, a claim nobody protests, green laid by its
    claimant, then the other's first column on green takes the seal; the claimant, who may
    still play the colour they did not claim with, is to act. The seal is then handed to
    the seat to act: the holder is to build, green carrying one column."""
    two.three_on_blue()
    claimant = two.rules.turn
    two.act(type="ask_platform")
    two.act(type="decline")
    lays = two.legal("lay_platform")
    two.act(**lays[len(lays) // 2])
    two.move(x=0.0, lane=1)
    assert two.rules.seal.holder == 1 - claimant and two.rules.to_act == claimant
    two.with_rules(seal={"started": True, "holder": claimant, "previous": 1 - claimant})
    return two


def test_the_seal_holder_plays_safer_than_one_behind(green_held, monkeypatch):
    # A pull it would take with nothing at stake: the holder claims rather than risk it.
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 0.9)
    assert green_held.legal("choose_colour")
    assert _careful(green_held)["type"] == "ask_platform"
    # The same table, the seal with the other seat: behind, it takes the pull.
    rules = green_held.rules
    green_held.with_rules(seal={"started": True, "holder": 1 - rules.to_act, "previous": None})
    assert _careful(green_held)["type"] == "choose_colour"


def test_after_an_unchallenged_claim_it_lays_the_platform(table):
    table.three_on_blue()
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    assert table.rules.phase == "lay" and table.legal("lay_platform")
    action = _careful(table)
    assert action["type"] == "lay_platform"
    table.act(**action)
    assert table.rules.laid == 2 and table.rules.phase != "over"


def test_in_two_players_the_next_builder_protests_only_a_claim_it_can_surely_disprove(
    two, monkeypatch
):
    """If the claim stands the claimant lays green and may not place on it: the bot's first
    column there takes the seal. It protests only when the proof looks sure; then the
    claimant loses the column it moves."""
    two.three_on_blue()
    two.act(type="ask_platform")
    assert two.legal("protest")
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 1.45)
    assert _careful(two)["type"] == "decline"
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 0.5)
    assert _careful(two)["type"] == "protest"


def test_a_table_that_stops_building_takes_risks_again(green_held, monkeypatch):
    """Yellow cannot rest on green's one column, so the holder's claim would lay nothing:
    a pass. It claims while the table still builds; once STALL_TURNS turns in a row have
    gone by without a build (twice as many for the holder), it pulls instead."""
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 3)
    assert _careful(green_held)["type"] == "ask_platform"
    green_held.with_rules(passes=2 * bots.STALL_TURNS)
    assert _careful(green_held)["type"] == "choose_colour"


def test_it_pulls_the_column_it_touched_unless_the_load_surprises_it(table, monkeypatch):
    touched = table.touchable()[0]
    table.act(type="touch", column=touched)
    # A felt risk well within what it accepts: it pulls.
    _every_pull_looks(monkeypatch, bots.SAFE_RISK)
    assert _careful(table)["type"] == "pull"
    # The felt load makes the pull far riskier than its eye judged: it puts it back...
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * bots.ABORT_SURPRISE * 1.1)
    table.with_rules(touch_load=60)
    assert _careful(table)["type"] == "abort"
    # ...but never a column bearing under ABORT_MIN_LOAD grams,
    table.with_rules(touch_load=int(bots.ABORT_MIN_LOAD) - 1)
    assert _careful(table)["type"] == "pull"
    # nor once the table has stalled and the risk was taken knowingly.
    table.with_rules(touch_load=60, passes=bots.STALL_TURNS)
    assert _careful(table)["type"] == "pull"


def test_on_a_villa_with_little_margin_it_sets_the_column_down_more_gently():
    from paletti.engine.bots import SAFE_MARGIN, Hand, minding_the_margin
    from paletti.engine.hands import Gesture

    hand = Hand(pull=Gesture(100, 0.9), place=Gesture(120, 0.8))
    assert minding_the_margin(SAFE_MARGIN * 2, hand).place.speed == 120
    assert minding_the_margin(SAFE_MARGIN / 2, hand).place.speed == 80
    assert minding_the_margin(0.0, hand).place.speed == 40
    assert minding_the_margin(0.0, hand).place.steadiness == 0.8
