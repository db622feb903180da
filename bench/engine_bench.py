"""Villa Paletti engine benchmark: run `.venv/bin/python bench/engine_bench.py` from the root.

Times pull-and-settle and place-and-settle through the engine (load the snapshot, validate,
simulate, record frames, dump the new snapshot) against plain pymunk stepping of the same
spaces (the front and the side view) for the same number of steps, and prints the ratio
(target <= 1.3), the careful bot's decision time and the snapshot size. A pull's hand moves
in both: the plain side sets the hand's velocity every frame as the engine does, since
moving it is part of the physics.
The whole action also checks that a reload of the new snapshot stands (docs/paletti.md,
"How a snapshot stays true"): the bench prints that check's cost on its own. The careful
bot's decisions are timed on an early and a late position (four platforms laid).
"""

import random
import statistics
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paletti.engine.physics import FRAME_STEPS, STEP, World, column_key, platform_key  # noqa: E402

from paletti.engine import apply_action, choose_action, new_match, snapshot  # noqa: E402
from paletti.engine.hands import Gesture, PullDriver, platform_end  # noqa: E402
from paletti.engine.store import SNAPSHOT_MAGIC  # noqa: E402

REPEATS = 15
TARGET_RATIO = 1.3


def _position(seed: int = 3, actions: int = 40):
    """A mid-game position reached by easy bots, with a build about to start."""
    state = new_match(seed, 4)
    rng = random.Random(seed)
    for _ in range(actions):
        state = apply_action(state, choose_action(state, "careful", rng), record=False).state
    while state.rules["phase"] != "move" or state.rules["context"] != "turn":
        state = apply_action(state, choose_action(state, "careful", rng), record=False).state
    return state


def _late_position(platforms: int = 4):
    """A position with `platforms` platforms laid and a build about to start, reached by
    careful bots (the first seed from 3 on whose match gets there before it ends)."""
    for seed in range(3, 40):
        state = new_match(seed, 4)
        rng = random.Random(seed)
        while state.rules["phase"] != "over":
            rules = state.rules
            if rules["laid"] >= platforms and rules["phase"] == "move":
                if rules["context"] == "turn":
                    return state
            state = apply_action(state, choose_action(state, "careful", rng), record=False).state
    raise RuntimeError("no careful match reached the position")


def _plain_steps(blob: bytes, prepare, steps: int) -> float:
    """Seconds for `steps` plain space.step calls on the same two spaces (front and side
    view), prepared the same way
    (a pull's hand moved every frame, as the engine moves it)."""
    world = World.load(blob)
    world.activate_all()
    driver = prepare(world)
    step = world.space.step
    side_step = world.side_space.step
    frame = FRAME_STEPS * STEP
    start = time.perf_counter()
    for n in range(steps):
        if driver is not None and n % FRAME_STEPS == 0 and not driver.advance(n * STEP, frame):
            driver.release()
            world.remove_column(int(driver.key[1:]))
            driver = None
        step(STEP)
        side_step(STEP)
    return time.perf_counter() - start


def _engine_settle(blob: bytes, prepare) -> tuple[float, int, int]:
    """The engine's simulation of an action: settle with frames and collapse checks."""
    world = World.load(blob)
    world.activate_all()
    reference = world.poses()
    driver = prepare(world)
    start = time.perf_counter()
    result = world.settle(record=True, reference=reference, driver=driver)
    return time.perf_counter() - start, result.steps, len(result.frames)


def _compare(label: str, state, action: dict, prepare) -> tuple[float, float]:
    """Median times of the whole action, of the engine's settle, and of plain stepping."""
    whole, settle, plain = [], [], []
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = apply_action(state, action)
        whole.append(time.perf_counter() - start)
        seconds, steps, frames = _engine_settle(state.blob, prepare)
        settle.append(seconds)
        plain.append(_plain_steps(state.blob, prepare, steps))
    w, e, p = (statistics.median(v) for v in (whole, settle, plain))
    print(
        f"{label:<16} {steps:4d} steps, {frames} frames: plain pymunk {p * 1000:6.2f} ms, "
        f"engine settle {e * 1000:6.2f} ms (ratio {e / p:4.2f}), whole action incl. snapshot "
        f"load/validate/dump {w * 1000:6.2f} ms (ratio {w / p:4.2f})"
    )
    assert result.steps == steps
    return e / p, w / p


def main() -> None:
    state = _position()
    seat = state.rules["to_act"]
    rng = random.Random(1)
    touch = choose_action(state, "careful", rng)
    column = touch["column"]
    touched = apply_action(state, touch).state
    pull = {"type": "pull", "column": column, "seat": seat, "speed": 120, "steadiness": 1.0}
    level = touched.rules["columns"][column]["level"]

    def prepare_pull(world):
        key = column_key(column)
        body = world.bodies[key]
        above = world.bodies.get(platform_key(level))
        direction = 1.0 if body.position.x >= 0 else -1.0
        end = platform_end(above, level, direction) if above is not None else None
        # Steadiness 1: no chance in the grip, so both sides move the hand the same way.
        gesture = Gesture(speed=120.0, steadiness=1.0)
        return PullDriver(world.space, body, key, column, gesture, (0.0, 0.0, 0.0), end)

    ratios = [_compare("pull and settle", touched, pull, prepare_pull)]
    holding = apply_action(touched, pull).state
    place = choose_action(holding, "careful", rng)
    rules = holding.rules

    place = {**place, "speed": 0, "steadiness": 1.0}

    def prepare_place(world):
        pose = world.placement_pose(column, rules["laid"] - 1, place["x"], None)
        world.add_column(column, place["lane"], pose)
        return None

    ratios.append(_compare("place and settle", holding, place, prepare_place))
    worst = max(r[0] for r in ratios)
    verdict = "ok" if worst <= TARGET_RATIO else "ABOVE TARGET"
    print(f"worst settle ratio {worst:.2f} (target <= {TARGET_RATIO}): {verdict}")
    print(f"worst whole-action ratio {max(r[1] for r in ratios):.2f}")
    blob = holding.blob
    start = time.perf_counter()
    for _ in range(50):
        World.load(blob).dump()
    print(f"snapshot load + dump: {(time.perf_counter() - start) / 50 * 1000:.2f} ms per action")
    start = time.perf_counter()
    for _ in range(20):
        World.load(blob).hold_shift()
    print(
        f"reload check (load, step until asleep or 3 s): "
        f"{(time.perf_counter() - start) / 20 * 1000:.2f} ms per action"
    )

    decisions = []
    late = _late_position()
    for candidate in (state, touched, holding, late):
        for k in range(3):
            start = time.perf_counter()
            choose_action(candidate, "careful", random.Random(k))
            decisions.append(time.perf_counter() - start)
    print(
        f"careful bot decision: median {statistics.median(decisions) * 1000:.0f} ms, "
        f"max {max(decisions) * 1000:.0f} ms over {len(decisions)} decisions (limit 2000 ms)"
    )
    data = snapshot(holding)
    unpacked = len(zlib.decompress(data[len(SNAPSHOT_MAGIC) :]))
    print(
        f"snapshot: {len(data)} bytes stored, zlib-compressed from {unpacked} "
        f"({len(holding.blob)} pickled space, {unpacked - len(holding.blob)} rules JSON; "
        f"after {rules['actions']} actions, whose log the snapshot does not carry)"
    )


if __name__ == "__main__":
    main()
