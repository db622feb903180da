"""Villa Paletti engine benchmark: run `.venv/bin/python bench/engine_bench.py` from the root.

Times a pull and a placement through the engine (build the plane's pymunk space from the
plain-data villa, drive the hand, simulate, check for a collapse every frame, record the
frames, read the new places back, decide with the 3-D statics) against plain pymunk stepping
of the same space, built the same way, driven by the same hand, for the same number of
steps, and prints the ratio (target <= 1.3). Also the cost of a snapshot and a load, and
the statics on their own. Timings on a shared machine are noisy, and the noise only ever
adds time: each figure is the fastest of several rounds (as timeit advises), the two sides
of a ratio timed in turn.
"""

import copy
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paletti.engine import (  # noqa: E402  # noqa: E402
    apply_action,
    choose_action,
    load,
    motion,
    new_match,
    snapshot,
    villa,
)
from paletti.engine.hands import Chance, Gesture  # noqa: E402

ROUNDS = 15
TARGET_RATIO = 1.3


def _position(seed: int = 3, actions: int = 40):
    """A mid-game position reached by careful bots, with a build about to start."""
    state = new_match(seed, 4)
    rng = random.Random(seed)
    for _ in range(actions):
        state = apply_action(state, choose_action(state, "careful", rng), record=False).state
    while state.rules.phase != "move" or state.rules.context != "turn":
        state = apply_action(state, choose_action(state, "careful", rng), record=False).state
    return state


def _plain_run(self, max_time, *, record, watch=None, drive=None, stop_on_collapse=False):
    """pymunk alone: the same space, the same hand, the same number of steps as the
    engine's run took; no checks, no frames."""
    steps = 0
    driving = drive is not None
    while steps < _plain_run.steps:
        if driving:
            driving = drive(steps * motion.STEP, motion.FRAME_STEPS * motion.STEP)
        for _ in range(motion.FRAME_STEPS):
            self.space.step(motion.STEP)
        steps += motion.FRAME_STEPS
    run = motion.Run(steps=steps)
    for key in self.bodies:
        pose = self.pose(key)
        run.tracks[key] = motion.Track(pose, pose)
    return run


def _time(motion_call) -> tuple[float, int]:
    """(seconds, steps) of one engine motion."""
    start = time.perf_counter()
    outcome = motion_call()
    return time.perf_counter() - start, outcome.steps


def _compare(label: str, make_call) -> float:
    engine_times, plain_times = [], []
    steps = 0
    for _ in range(ROUNDS):
        seconds, steps = _time(make_call())
        engine_times.append(seconds)
        real_run = motion.Scene.run
        _plain_run.steps = steps
        motion.Scene.run = _plain_run
        try:
            start = time.perf_counter()
            make_call()()
            plain_times.append(time.perf_counter() - start)
        finally:
            motion.Scene.run = real_run
    engine, plain = min(engine_times), min(plain_times)
    ratio = engine / plain
    print(
        f"{label}: engine {engine * 1000:.2f} ms, plain pymunk {plain * 1000:.2f} ms "
        f"for {steps} steps: ratio {ratio:.2f}"
    )
    return ratio


def main() -> None:
    state = _position()
    rules = state.rules
    loads = villa.analyse(rules).loads
    column = max(
        (c for c in rules.columns if c.where in ("base", "platform") and c.level < rules.laid),
        key=lambda c: loads.get(c.id, 0.0),
    ).id
    chance = Chance.draw(random.Random(1))

    def pull_call():
        copy_of = copy.deepcopy(rules)
        return lambda: villa.pull(copy_of, column, Gesture(120, 0.8), chance, record=True)

    held = copy.deepcopy(rules)
    held["columns"][column]["where"] = "hand"

    def place_call():
        copy_of = copy.deepcopy(held)
        return lambda: villa.place(
            copy_of, column, 10.0, 0.0, None, Gesture(150, 0.6), chance, record=True
        )

    ratios = [_compare(f"pull (load {loads[column]:.0f} g)", pull_call)]
    ratios.append(_compare("placement", place_call))
    worst = max(ratios)
    verdict = "met" if worst <= TARGET_RATIO else "NOT met"
    print(f"worst ratio {worst:.2f} (target <= {TARGET_RATIO}): {verdict}")
    start = time.perf_counter()
    for _ in range(200):
        load(snapshot(state))
    print(f"snapshot + load: {(time.perf_counter() - start) / 200 * 1000:.3f} ms")
    start = time.perf_counter()
    for _ in range(200):
        villa.analyse(rules)
    print(f"3-D statics of the whole villa: {(time.perf_counter() - start) / 200 * 1000:.3f} ms")
    print(f"snapshot size: {len(snapshot(state))} bytes")


if __name__ == "__main__":
    main()
