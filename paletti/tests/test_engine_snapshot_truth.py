"""The stored snapshot is the truth: a reloaded villa stands as the live one did, a collapse
belongs to the action that caused it, and a match's log replays to its stored hash.

The full count (every state of 20 careful matches per player count) is
`manage.py paletti_selfplay --check-reload`; these tests run the same check on a few.
"""

import functools
import random

import pytest

from paletti.engine import apply_action, choose_action, new_match, replay, state_hash
from paletti.engine.physics import HOLD_TOLERANCE, STEP, World
from paletti.engine.selfplay import play_match, reload_shift

RANDOM = {"setup": "random"}


@functools.cache
def _states(seed, players, level, options=None, limit=60):
    """Every state a bot match passes through, the first included."""
    options = dict(options) if options else None
    state = new_match(seed, players, options)
    rng = random.Random(f"{seed}:bots")
    states = [state]
    while state.rules["phase"] != "over" and state.rules["actions"] < limit:
        result = apply_action(state, choose_action(state, level, rng), record=False)
        state = result.state
        state.logged = result.action
        states.append(state)
    return states


def _log(states):
    return [state.logged for state in states[1:]]


@functools.cache
def _collapsing(players):
    """The first easy-bot match (random set-up) for this many players that ends in a
    collapse within 60 actions: (seed, its states)."""
    for seed in range(1, 40):
        states = _states(seed, players, "easy", tuple(RANDOM.items()))
        if states[-1].rules["end_reason"] == "collapse":
            return seed, states
    raise AssertionError("no easy match collapsed")


def test_a_villa_stored_asleep_keeps_its_contacts():
    # Chipmunk keeps a sleeping body's contacts out of the cache that pymunk pickles; a
    # villa stored that way reloads with no contact impulses at all.
    world = World.load(new_match(7, 4).blob)
    for _ in range(400):
        world.space.step(STEP)
    assert all(body.is_sleeping for body in world.bodies.values())
    reloaded = World.load(world.dump())
    assert len(reloaded.space._get_arbiters()) > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_stored_state_stands_after_reloading_even_after_a_collapse(players):
    _, states = _collapsing(players)
    for state in states:
        assert reload_shift(state) <= HOLD_TOLERANCE, state.rules["actions"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_careful_matches_store_only_villas_that_stand(players):
    for state in _states(players, players, "careful", limit=40):
        assert reload_shift(state) <= HOLD_TOLERANCE, state.rules["actions"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_collapse_is_charged_to_an_action_that_started_from_a_standing_villa(players):
    _, states = _collapsing(players)
    before, after = states[-2], states[-1]
    assert after.rules["collapse"]["by"] == before.rules["to_act"]
    assert reload_shift(before) <= HOLD_TOLERANCE


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_match_that_ended_in_a_collapse_replays_to_its_hash(players):
    seed, states = _collapsing(players)
    final = states[-1]
    again = replay(seed, players, RANDOM, _log(states))
    assert again.rules["collapse"] == final.rules["collapse"]
    assert state_hash(again) == state_hash(final)


def test_frames_change_nothing_the_state_reached_is_the_same_with_or_without_them():
    seed, states = _collapsing(2)
    state = new_match(seed, 2, RANDOM)
    for action in _log(states):
        state = apply_action(state, action, record=True).state
    assert state_hash(state) == state_hash(states[-1])


def test_selfplay_reports_the_reload_check():
    report, _ = play_match(4, 4, "easy", RANDOM, check_reload=True)
    assert report.states_checked == report.actions + 1
    assert report.worst_reload_shift <= HOLD_TOLERANCE
    assert report.states_that_moved == 0
