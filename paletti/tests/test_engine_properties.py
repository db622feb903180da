"""Random sequences of legal actions keep the invariants of the game."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paletti.engine import IllegalAction, apply_action, legal_actions, new_match, state_to_json
from paletti.engine.pieces import COLUMN_VALUES, PLATFORM_COLOURS
from paletti.tests.conftest import place_spots

WHERE = {"base", "platform", "hand", "out"}


def _check_invariants(state):
    rules = state.rules
    columns = rules.columns
    assert sorted(c.id for c in columns) == list(range(20))
    assert all(c.where in WHERE for c in columns)
    in_hand = [c for c in columns if c.where == "hand"]
    assert len(in_hand) <= 1 and (not in_hand or rules.phase in ("holding", "over"))
    for column in columns:
        if column.where == "base":
            assert column.level == 0
        if column.where == "platform":
            assert 1 <= column.level <= rules.laid
    # Platforms are laid in order, from blue up, none skipped.
    laid = [p.pose is not None for p in rules.platforms]
    assert laid == [i < rules.laid for i in range(len(PLATFORM_COLOURS))]
    owner = {c: s for s, seat in enumerate(rules.seats) for c in seat.colours}
    expected = [0] * len(rules.seats)
    for column in columns:
        if column.where == "platform" and column.level == rules.laid:
            if column.colour in owner:
                expected[owner[column.colour]] += COLUMN_VALUES[column.kind]
    assert rules.scores == expected
    if rules.phase == "over":
        assert rules.to_act is None and legal_actions(state) == []
    else:
        assert rules.to_act in range(len(rules.seats))
        assert legal_actions(state)
        assert {a["seat"] for a in legal_actions(state)} == {rules.to_act}


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([2, 3, 4]),
    choices=st.lists(st.integers(0, 10_000), min_size=5, max_size=30),
)
def test_random_legal_actions_keep_the_invariants(seed, players, choices):
    state = new_match(seed, players, {"setup": "random"})
    _check_invariants(state)
    for choice in choices:
        actions = legal_actions(state)
        if not actions:
            break
        # Aborts end a build early; pick them less often so builds get somewhere.
        if actions[choice % len(actions)]["type"] == "abort" and choice % 3:
            choice //= 3
        action = actions[choice % len(actions)]
        if action["type"] == "place":
            # A point of the listed area, as the page samples it.
            view = {"legal_actions": actions, "dimensions": state_to_json(state)["dimensions"]}
            spots = place_spots(view)
            action = spots[choice % len(spots)][0]
        state = apply_action(state, action, record=False).state
        _check_invariants(state)
    if state.rules.phase == "over":
        with pytest.raises(IllegalAction):
            apply_action(state, {"type": "pass"})
