"""The engine's skip, for a seat out of time (rules/skips.py): never offered to a player,
it ends the seat's turn the way the rules give up a turn, and replays exactly."""

import pytest

from paletti import engine
from paletti.engine import IllegalAction, Phase, apply_action, legal_actions, new_match


def two_players():
    return new_match(7, ["Ada", "Bo"], {})


def test_a_skip_is_never_among_the_legal_actions():
    assert all(a["type"] != "skip" for a in legal_actions(two_players()))


def test_a_builder_who_could_still_build_is_passed_over():
    state = two_players()
    assert state.rules.turn == 0 and legal_actions(state)
    result = apply_action(state, {"type": "skip"})
    assert [e["code"] for e in result.events][0] == "turn_skipped"
    assert result.state.rules.turn == 1
    assert result.state.rules.passes == 1


def test_a_column_touched_goes_back_locked_as_after_an_abort():
    state = two_players()
    colour = next(a for a in legal_actions(state) if a["type"] == "choose_colour")
    state = apply_action(state, colour).state
    touch = next(a for a in legal_actions(state) if a["type"] == "touch")
    state = apply_action(state, touch).state
    assert state.rules.phase == Phase.TOUCHED
    result = apply_action(state, {"type": "skip"})
    assert "aborted" in [e["code"] for e in result.events]
    assert result.state.rules.columns[touch["column"]].locked
    assert result.state.rules.turn == 1


def test_no_skip_where_only_the_seat_may_choose():
    state = new_match(7, ["Ada", "Bo", "Cy"], {"colours": "polish"})
    assert state.rules.phase == Phase.COLOURS
    assert engine.skip_kind(state.rules) is None
    with pytest.raises(IllegalAction):
        apply_action(state, {"type": "skip"})


def test_a_match_with_a_skip_replays_to_the_same_state():
    state = two_players()
    log = [{"type": "skip"}]
    state = apply_action(state, log[0]).state
    replayed = engine.replay(7, ["Ada", "Bo"], state.rules.options.to_json(), log)
    assert engine.state_hash(replayed) == engine.state_hash(state)
