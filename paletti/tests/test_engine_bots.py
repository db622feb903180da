"""The careful bot protests on what it sees, then may find the pull too risky once it has
touched the column and felt its load: so its protests can fail, as a person's can."""

import math
import random

import pytest

from paletti.engine import bots, choose_action, new_match, villa
from paletti.engine.hands import Gesture
from paletti.tests.setups import lopsided_setup


@pytest.fixture
def claimed(table):
    """Three builds on blue, then a claim, let stand by the next player (who builds next
    and would take the seal with the first column on the laid platform:
    test_engine_bot_seal.py): the player after may protest or decline."""
    table.three_on_blue()
    table.act(type="ask_platform")
    table.act(type="decline")
    return table


def _risk_of_every_pull(monkeypatch, risk, felt_risk=None):
    """Every pull looks `risk` risky at first sight, and `felt_risk` (by default the same)
    once the column is touched and its load felt."""

    def pull_risk(self, state, column, felt=False):
        return felt_risk if felt and felt_risk is not None else risk

    monkeypatch.setattr(bots.Careful, "pull_risk", pull_risk)


def test_a_careful_bot_protests_when_a_pull_looks_only_a_little_risky(claimed, monkeypatch):
    # Riskier than it would take on its own turn, not beyond what it hopes to manage.
    _risk_of_every_pull(monkeypatch, bots.SAFE_RISK * 1.45)
    action = choose_action(claimed.state, "careful", random.Random(1))
    assert action["type"] == "protest"


def test_a_careful_bot_does_not_protest_when_every_pull_looks_dangerous(claimed, monkeypatch):
    _risk_of_every_pull(monkeypatch, bots.SAFE_RISK * bots.PROTEST_HOPE * 1.5)
    action = choose_action(claimed.state, "careful", random.Random(1))
    assert action["type"] == "decline"


def test_a_protest_fails_when_the_load_felt_makes_the_pull_too_risky(claimed, monkeypatch):
    surprise = bots.SAFE_RISK * bots.PROTEST_HOPE * bots.ABORT_SURPRISE * 1.1
    _risk_of_every_pull(monkeypatch, bots.SAFE_RISK * 1.45, felt_risk=surprise)
    claimed.act(**choose_action(claimed.state, "careful", random.Random(1)))
    assert claimed.rules.phase == "move" and claimed.rules.context == "claim_protest"
    # It touches one of the claimant's columns, feels a heavy load, and puts it back.
    claimed.act(**choose_action(claimed.state, "careful", random.Random(2)))
    assert claimed.rules.phase == "touched"
    claimed.with_rules(touch_load=80)
    action = choose_action(claimed.state, "careful", random.Random(3))
    assert action["type"] == "abort"
    claimed.act(**action)
    assert "protest_failed" in claimed.codes()


def test_careful_bots_set_columns_across_the_depth_of_the_platform_not_in_three_rows():
    """A hand sets a column anywhere on the platform: over a careful bot's first placements
    of a match, the columns' depths on the platform are not only the page's three rows
    (30 mm before the middle, the middle, 30 mm behind) and reach past them."""
    from paletti.engine import apply_action, new_match

    state = new_match(70203, 3)
    rng = random.Random("depth")
    depths = []
    while len(depths) < 8 and state.rules.phase != "over":
        action = choose_action(state, "careful", rng)
        if action["type"] == "place":
            depths.append(action["z"])
        state = apply_action(state, action, record=False).state
    assert len(depths) == 8
    assert set(depths) - {-30.0, 0.0, 30.0}
    assert max(abs(z) for z in depths) > 30.0


def test_a_careful_bots_first_column_on_an_empty_platform_is_not_always_at_one_corner():
    """On an empty platform the whole middle is equally roomy; a person picks any spot of
    it. Over the first placement of twelve matches (on blue, empty at the start), careful
    bots set the column both before and behind the middle, both left and right of it, and
    not all at the same spot (the grid's reading order put every one at front left)."""
    from paletti.engine import apply_action

    spots = []
    for seed in range(61000, 61012):
        state = new_match(seed, 4)
        rng = random.Random(f"{seed}:bots")
        while state.rules.phase != "over":
            action = choose_action(state, "careful", rng)
            if action["type"] == "place":
                spots.append((action["x"], action["z"]))
                break
            state = apply_action(state, action, record=False).state
    assert len(spots) == 12
    assert len(set(spots)) >= 6
    assert any(z < 0 for _, z in spots) and any(z > 0 for _, z in spots)
    assert any(x < 0 for x, _ in spots) and any(x > 0 for x, _ in spots)


def _margin_laid_at(rules, x, z):
    """The villa's weakest margin (3-D statics, mm) with the next platform laid at (x, z)."""
    from paletti.engine import villa

    rules = rules.copy()
    rules.platforms[rules.laid].x = x
    rules.platforms[rules.laid].z = z
    rules.laid += 1
    stability = villa.analyse(rules)
    return stability.weakest.margin if stability.stands else float("-inf")


def test_a_careful_bot_lays_the_platform_offset_in_depth_where_the_margin_is_widest(table):
    """The columns on blue stand 40 to 50 mm behind its middle: green over blue's middle
    would tip over; the careful bot looks in depth as well as across and lays it behind,
    within a millimetre of the widest margin of every listed position."""
    table.three_behind_on_blue()
    table.act(type="ask_platform")
    for _ in range(3):
        table.act(type="decline")
    # Not laying would complete a round of passes (test_engine_bot_seal.py): it lays.
    table.with_rules(passes=3)
    action = choose_action(table.state, "careful", random.Random(1))
    assert action["type"] == "lay_platform"
    assert action["z"] >= 20.0, action
    rules = table.rules
    margins = [_margin_laid_at(rules, a["x"], a["z"]) for a in table.legal("lay_platform")]
    # Over blue's middle in depth (as the bot laid before), at any x, green falls.
    assert _margin_laid_at(rules, action["x"], 0.0) == float("-inf")
    assert _margin_laid_at(rules, action["x"], action["z"]) >= max(margins) - 1.0
    table.act(**action)
    assert "platform_laid" in table.codes() and table.rules.collapse is None


def test_a_careful_bot_draws_a_column_that_bears_weight_slowly_and_steadily():
    # Rule 1: a careful builder who feels a column bear weight slows down and steadies the
    # platform above with the other hand; a loose column it draws at its own pace.
    from paletti.engine import apply_action, new_match, villa

    state, rng, pulls = new_match(70200, 4), random.Random(70200), []
    while state.rules.phase != "over":
        action = choose_action(state, "careful", rng)
        if action["type"] == "pull":
            load = villa.column_load(state.rules, action["column"])
            pulls.append((load, action["speed"], action["steadiness"]))
        state = apply_action(state, action, record=False).state
    heavy = [(speed, steady) for load, speed, steady in pulls if load >= bots.FULL_CARE_LOAD]
    light = [(speed, steady) for load, speed, steady in pulls if load < 10.0]
    assert heavy and light
    assert all(speed <= 80 and steady >= 0.95 for speed, steady in heavy)
    assert max(speed for speed, _ in light) > 100 and min(steady for _, steady in light) < 0.85


@pytest.mark.parametrize(
    ("blue_x", "tipping_by", "taken_for_standing"),
    [(20.0, 6.0, (0.05, 0.3)), (6.0, 20.0, (0.0, 0.01))],
)
def test_a_careful_bots_eye_may_take_a_villa_that_would_just_tip_for_one_that_stands(
    blue_x, tipping_by, taken_for_standing
):
    # Blue on one column left of its centre and all the others right of it: without that
    # column blue would tip, its centre `tipping_by` mm outside the others. A person judges
    # that by eye, erring by about 6 mm either way: a few millimetres can look like a villa
    # that stands (and the bot may then draw a column the villa needs, as a person does);
    # 20 mm (over three times the eye's error) almost never does.
    setup = lopsided_setup(support_id=5)
    setup["blue_x"] = blue_x
    state = new_match(7, 4, {"setup": setup})
    without = villa.analyse(state.rules, without={5})
    assert not without.stands
    assert min(i.margin for i in without.interfaces) == pytest.approx(-tipping_by)
    hand = bots.Hand(pull=Gesture(100, 0.9), place=Gesture(100, 0.7))
    # The eye's errors come from the match's seed: 400 matches on the same villa.
    looks = []
    for k in range(400):
        match = new_match(k, 4, {"setup": setup})
        looks.append(bots.Careful(match, [], random.Random(k), hand).pull_risk(match, 5))
    share = sum(math.isfinite(risk) for risk in looks) / len(looks)
    low, high = taken_for_standing
    assert low <= share <= high
