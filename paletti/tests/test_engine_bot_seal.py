"""The careful bot weighs the seal as a person does: whoever lays a platform may not place on
it, so the next builder's first column there takes the seal; a round of passes ends the game
and the holder wins; a fall hands the win to the previous holder (docs/paletti.md, "Bots")."""

import random

import pytest

from paletti.engine import bots, choose_action, new_match
from paletti.tests.conftest import Table


def _every_pull_looks(monkeypatch, risk):
    """Every pull looks `risk` risky, whatever the column: the choice is the seal's."""
    monkeypatch.setattr(bots._Careful, "pull_risk", lambda self, state, column: risk)


def _careful(table, seed=1):
    return choose_action(table.state, "careful", random.Random(seed))


@pytest.fixture
def two():
    """A two-player match on the default set-up, seed 7."""
    return Table(new_match(7, 2))


@pytest.fixture
def green_held(two):
    """Two players: three builds on blue, a claim nobody protests, green laid by its
    claimant (who may not place on it), then the other's first column on green takes the
    seal, and the claimant, who can move nothing, passes: the holder is to build."""
    two.three_on_blue()
    claimant = two.rules.turn
    two.act(type="ask_platform")
    two.act(type="decline")
    lays = two.legal("lay_platform")
    two.act(**lays[len(lays) // 2])
    two.move(x=0.0, lane=1)
    holder = 1 - claimant
    assert two.rules.seal.holder == holder and two.rules.scores[holder] > 0
    two.act(type="pass")
    assert two.rules.to_act == holder
    return two


def test_a_seal_holder_nobody_can_catch_claims_rather_than_pull(green_held, monkeypatch):
    # Every pull looks safe, but the other player laid green and may not place on it: a
    # pull can only risk the villa (a fall would hand the game to the previous holder).
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 0.1)
    assert green_held.legal("choose_colour")
    assert _careful(green_held)["type"] == "ask_platform"


def test_a_seal_holder_does_not_lay_the_next_platform(green_held, monkeypatch):
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 0.1)
    green_held.act(**_careful(green_held))
    green_held.act(type="decline")
    assert green_held.rules.phase == "lay"
    # Declining completes no round of passes here; it would keep the seal either way.
    assert _careful(green_held)["type"] == "pass"
    green_held.with_rules(passes=1)
    assert _careful(green_held)["type"] == "pass"


def test_a_player_who_can_catch_the_holder_still_builds(green_held, monkeypatch):
    # The same table, but the seat to act does not hold the seal: it pulls what is safe.
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 0.1)
    rules = green_held.rules
    green_held.with_rules(seal={**rules.seal.to_json(), "holder": None, "previous": None})
    assert _careful(green_held)["type"] == "choose_colour"


def test_in_two_players_the_next_builder_lets_a_claim_stand(two, monkeypatch):
    """A claim the bot could hope to disprove: with four players it protests (test_engine_bots);
    with two it builds next, so if the claim stands the claimant lays green, may not place
    on it, and the bot's first column there starts the race with the seal."""
    two.three_on_blue()
    two.act(type="ask_platform")
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 1.45)
    assert two.legal("protest")
    assert _careful(two)["type"] == "decline"


def test_after_an_unchallenged_claim_it_lays_only_when_not_laying_would_end_the_game(table):
    table.three_on_blue()
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    assert table.rules.phase == "lay" and table.legal("lay_platform")
    # Laying green would lock it out of green while the next builder takes the seal there.
    assert _careful(table)["type"] == "pass"
    # But a turn without building would now complete a round of passes: the game would end
    # before the race with nobody winning; it lays green and the game goes on.
    table.with_rules(passes=3)
    assert _careful(table)["type"] == "lay_platform"


def test_before_the_race_two_players_claim_rather_than_pull_a_column_for_nothing(two, monkeypatch):
    # A pull it would make in the race (within SAFE_RISK) scores nothing on blue: it leaves
    # the other to use up their moves, and claims (it will not lay green, above).
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 0.8)
    assert two.rules.phase == "choose_colour" and two.legal("choose_colour")
    assert _careful(two)["type"] == "ask_platform"
    # Unless the other can no longer build: then it would let the game end without a
    # winner (they may pass in turn), so it builds.
    two.with_rules(passes=1)
    assert _careful(two)["type"] == "choose_colour"
    # With four players a claim meets protests that cost a column: it builds.
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 0.8)
    four = Table(new_match(7, 4))
    assert _careful(four)["type"] == "touch"


def test_behind_in_the_race_it_pulls_bolder_rather_than_let_the_holder_end_the_game(
    green_held, monkeypatch
):
    """The holder claims; the other (not the holder) may take more risk than usual rather
    than end its turn without building, as the holder would then end the game by passing."""
    _every_pull_looks(monkeypatch, bots.SAFE_RISK * 1.5)
    rules = green_held.rules
    holder = rules.seal.holder
    # Hand the seal to the other seat: the seat to act is now behind on green.
    green_held.with_rules(seal={**rules.seal.to_json(), "holder": 1 - holder, "previous": None})
    assert _careful(green_held)["type"] == "choose_colour"
