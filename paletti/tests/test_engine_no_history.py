"""A villa has no history: the stored state is plain data, so every action has the same
outcome from the live state and from the state reloaded from its snapshot, here or in
another process (docs/paletti.md, "No history")."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from paletti.engine import apply_action, choose_action, load, new_match, snapshot, state_hash

MATCHES = 20
MAX_ACTIONS = 150


def _match_both_ways(seed: int, players: int) -> tuple[list, list, list]:
    """Plays a bot match; each action is applied to the live state and to its reload.
    Returns the hashes reached live, those reached from the reloads, and the log."""
    state = new_match(seed, players)
    rng = random.Random(f"{seed}:history")
    live, reloaded, log = [], [], []
    while state.rules.phase != "over" and len(log) < MAX_ACTIONS:
        level = "careful" if len(log) % 3 == 0 else "easy"
        action = choose_action(state, level, rng)
        result = apply_action(state, action, record=False)
        again = apply_action(load(snapshot(state)), action, record=False)
        live.append(state_hash(result.state))
        reloaded.append(state_hash(again.state))
        log.append(result.action)
        state = result.state
    return live, reloaded, log


# Twenty matches, in four groups of five so that parallel test workers share them.
GROUPS = 4


@pytest.mark.parametrize("group", range(GROUPS))
def test_every_action_of_twenty_matches_has_one_outcome_live_or_reloaded(group):
    differ = 0
    actions = 0
    matches = range(group, MATCHES, GROUPS)
    for k in matches:
        live, reloaded, log = _match_both_ways(5000 + k, 2 + k % 3)
        actions += len(log)
        differ += sum(a != b for a, b in zip(live, reloaded, strict=True))
    assert actions > 20 * len(matches)
    assert differ == 0


def test_another_process_reaches_the_same_states_action_by_action():
    live, _, log = _match_both_ways(5100, 4)
    script = (
        "import json, sys\n"
        "from paletti.engine import apply_action, new_match, state_hash\n"
        "log = json.load(sys.stdin)\n"
        "state = new_match(5100, 4)\n"
        "hashes = []\n"
        "for action in log:\n"
        "    state = apply_action(state, action, record=False).state\n"
        "    hashes.append(state_hash(state))\n"
        "print(json.dumps(hashes))\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(  # noqa: S603 - our own interpreter and script
        [sys.executable, "-c", script],
        input=json.dumps(log),
        capture_output=True,
        text=True,
        cwd=root,
        check=True,
    )
    assert json.loads(done.stdout) == live
