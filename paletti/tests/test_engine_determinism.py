"""A match is its seed, options and action log: replays agree bit for bit."""

import json
import random
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import pytest

from paletti.engine import (
    OutdatedSnapshot,
    apply_action,
    choose_action,
    legal_actions,
    load,
    new_match,
    replay,
    snapshot,
    state_hash,
    state_to_json,
)
from paletti.engine.store import SNAPSHOT_MAGIC

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = {"tremor": 1.5, "setup": "random"}


def _played(seed=21, players=3, n=40, log=None):
    """A match played by easy bots; `log`, if given, receives each action as logged."""
    state = new_match(seed, players, OPTIONS)
    rng = random.Random(seed)
    for _ in range(n):
        if state.rules.phase == "over":
            break
        result = apply_action(state, choose_action(state, "easy", rng))
        state = result.state
        if log is not None:
            log.append(result.action)
    return state


def test_snapshot_round_trip_keeps_the_hash():
    state = _played(n=10)
    again = load(snapshot(state))
    assert state_hash(again) == state_hash(state)
    assert again.rules == state.rules


def test_snapshots_are_compressed_plain_data_and_earlier_engines_are_refused():
    state = _played(n=10)
    data = snapshot(state)
    body = zlib.decompress(data[len(SNAPSHOT_MAGIC) :])
    assert len(data) * 2 < len(body)
    # Plain JSON: every piece's place, nothing that runs code when loaded.
    assert json.loads(body) == state.rules.to_json()
    for earlier in (b"VPAL2", b"VPAL3"):
        with pytest.raises(OutdatedSnapshot):
            load(earlier + body)
    with pytest.raises(ValueError):
        load(b"pickle" + body)


def test_replaying_the_log_gives_the_same_state():
    log = []
    state = _played(log=log)
    again = replay(21, 3, OPTIONS, log)
    assert state_hash(again) == state_hash(state)
    assert again.rules == state.rules


def test_replay_in_another_process_gives_the_same_hash():
    log = []
    state = _played(log=log)
    script = (
        "import json, sys\n"
        "from paletti.engine import replay, state_hash\n"
        "data = json.load(sys.stdin)\n"
        "print(state_hash(replay(data['seed'], data['players'], data['options'], data['log'])))\n"
    )
    payload = json.dumps({"seed": 21, "players": 3, "options": OPTIONS, "log": log})
    output = subprocess.run(
        [sys.executable, "-c", script],
        input=payload,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert output.stdout.strip() == state_hash(state)


def test_a_snapshot_does_not_grow_with_the_action_log():
    # The log is kept once, by whoever stores the match, not re-encoded in every snapshot.
    early, late = _played(n=10), _played(n=40)
    assert "log" not in late.rules.to_json()
    # Later actions change places and counts, they add nothing: (a collapse writes the
    # fallen pieces' tilts, which is most of what the size can grow by).
    assert len(json.dumps(late.rules.to_json())) < 1.25 * len(json.dumps(early.rules.to_json()))


def test_state_to_json_is_json_and_complete():
    state = _played(n=8)
    view = json.loads(json.dumps(state_to_json(state)))
    assert len(view["columns"]) == 20 and len(view["platforms"]) == 5
    keys = {"colour", "kind", "level", "x", "y", "angle", "lane", "locked", "removed"}
    assert keys <= set(view["columns"][0])
    assert {"holder", "previous", "started"} == set(view["seal"])
    for key in ("scores", "turn", "to_act", "phase", "winner", "end_reason"):
        assert key in view


def test_the_same_match_played_twice_in_one_process_has_one_hash():
    first = _played(seed=3, players=3, n=60)
    new_match(1, 2)  # disturb the allocator between the two runs
    second = _played(seed=3, players=3, n=60)
    assert state_hash(first) == state_hash(second)
    assert snapshot(first) == snapshot(second)


def test_matches_replayed_side_by_side_in_threads_reach_the_hashes_played_alone():
    """The server runs requests in threads (gunicorn.conf.py): two moves simulated at once
    must each end where it would have alone."""
    played = {}
    for seed in (21, 22, 23):
        log = []
        played[seed] = (log, state_hash(_played(seed=seed, n=25, log=log)))
    replayed = {}

    def replay_one(seed):
        replayed[seed] = state_hash(replay(seed, 3, OPTIONS, played[seed][0]))

    threads = [threading.Thread(target=replay_one, args=(seed,)) for seed in played]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert replayed == {seed: digest for seed, (_, digest) in played.items()}


def test_the_careful_bot_decides_the_same_whatever_the_machine_load(monkeypatch):
    # Its look-ahead is bounded by a number of simulations, not by the clock: on a machine
    # where every moment seems to take a second, it still picks the same move.
    state = _played(seed=8, players=2, n=12)
    while state.rules.phase != "move":
        state = apply_action(state, choose_action(state, "easy", random.Random(1))).state
    calm = choose_action(state, "careful", random.Random(5))
    ticks = iter(range(10**9))
    monkeypatch.setattr("time.perf_counter", lambda: float(next(ticks)))
    monkeypatch.setattr("time.monotonic", lambda: float(next(ticks)))
    assert choose_action(state, "careful", random.Random(5)) == calm


def test_snapshots_stored_before_the_typed_state_load_and_write_back_byte_for_byte():
    """Three matches stored by the engine when its state was a dict read by string keys
    (data/vpal4_matches.json: 17, 60 and 60 actions, French and Polish options, easy and
    careful bots): each loads and writes back the very bytes it was stored as, so a stored
    match goes on from where it stood. (Their logs were played before the hand's way out and
    knocks were modelled, so replaying them now gives other outcomes: a match goes on from
    its snapshot, never from its log. Replays of matches played now are checked in
    test_engine_no_history.py and test_match_store.py.)"""
    import base64

    stored = json.loads((ROOT / "paletti/tests/data/vpal4_matches.json").read_text())
    for match in stored:
        data = base64.b64decode(match["snapshot"])
        state = load(data)
        assert snapshot(state) == data
        assert state_hash(state) == match["hash"]
        # And the engine plays on from it.
        assert legal_actions(state) or state.rules.phase == "over"
