"""The careful bot protests on what it sees, then may find the pull too risky once it has
touched the column: so its protests can fail, as a person's can."""

import random

import pytest

from paletti.engine import bots, choose_action


@pytest.fixture
def claimed(table):
    """Three builds on blue, then a claim: the next player may protest or decline."""
    table.three_on_blue()
    table.act(type="ask_platform")
    return table


def _risk_of_every_pull(monkeypatch, shift):
    monkeypatch.setattr(bots._Careful, "pull_risk", lambda self, state, column: shift)
    monkeypatch.setattr(bots._Careful, "pull_risk_from_touched", lambda self, column: shift)


def test_a_careful_bot_protests_when_a_pull_looks_only_a_little_risky(claimed, monkeypatch):
    # Riskier than it would take on its own turn, not beyond what it hopes to manage.
    _risk_of_every_pull(monkeypatch, bots.SAFE_PULL_SHIFT * 2)
    action = choose_action(claimed.state, "careful", random.Random(1))
    assert action["type"] == "protest"


def test_a_careful_bot_does_not_protest_when_every_pull_looks_dangerous(claimed, monkeypatch):
    _risk_of_every_pull(monkeypatch, bots.SAFE_PULL_SHIFT * bots.PROTEST_HOPE * 1.5)
    action = choose_action(claimed.state, "careful", random.Random(1))
    assert action["type"] == "decline"


def test_a_protest_fails_when_the_second_look_finds_the_pull_too_risky(claimed, monkeypatch):
    _risk_of_every_pull(monkeypatch, bots.SAFE_PULL_SHIFT * 2)
    claimed.act(**choose_action(claimed.state, "careful", random.Random(1)))
    assert claimed.rules["phase"] == "move" and claimed.rules["context"] == "claim_protest"
    # It touches one of the claimant's columns, feels the load, and puts it back.
    claimed.act(**choose_action(claimed.state, "careful", random.Random(2)))
    assert claimed.rules["phase"] == "touched"
    action = choose_action(claimed.state, "careful", random.Random(3))
    assert action["type"] == "abort"
    claimed.act(**action)
    assert "protest_failed" in claimed.codes()
