"""Villa Paletti engine benchmark: run `.venv/bin/python bench/engine_bench.py` from the root.

What is compared (target <= 1.3): a motion stepped through the engine against
the same motion stepped with plain pymunk, for a pull and a placement, each with the frames
the page draws (a player's action) and without (the bots' looks ahead, self-play). The
engine side is what the engine does each step: `Scene.run` (driving the hand, stepping,
reading the poses, checking for a collapse every frame, the still test, recording the
poses), summed over every motion of the action. The frames the page draws are then built
from the recorded poses (`villa.frames_from`: every piece a body carries, in 3-D, rounded,
only what changed); they are timed too and printed as a second ratio, beside the first. The
plain side is a pymunk user's loop over a copy of the very space the engine built (taken
just before its first step): the same bodies, shapes and joints, the hand's velocity set
each frame to what the engine set it to, the column removed when the hand had it out, the
same number of steps, then every body's position and angle read. The bench checks that both
sides end with the same poses, bit for bit: the same motion. Building the space from the
villa, and the 3-D statics before and after, are in neither side: the whole action's time
is printed beside the ratio, the statics' below it.

Timing: CPU time of this process (`time.process_time`), so that time spent waiting for a
core on a shared machine is not counted; the engine and the plain rounds alternate (which
goes first too), and each side's figure is the fastest of its 50 rounds (noise only ever
adds time, as timeit advises). Garbage collection stays on for both sides.
"""

import copy
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pymunk  # noqa: E402

from paletti.engine import (  # noqa: E402
    apply_action,
    choose_action,
    load,
    motion,
    new_match,
    snapshot,
    villa,
)
from paletti.engine.hands import Chance, Gesture  # noqa: E402

ROUNDS = 50
TARGET_RATIO = 1.3
clock = time.process_time


def _position(seed: int = 3, actions: int = 40):
    """A mid-game position reached by careful bots, with a build about to start."""
    state = new_match(seed, 4)
    rng = random.Random(seed)
    for _ in range(actions):
        state = apply_action(state, choose_action(state, "careful", rng), record=False).state
    while state.rules.phase != "move" or state.rules.context != "turn":
        state = apply_action(state, choose_action(state, "careful", rng), record=False).state
    return state


class Motion:
    """One motion the engine simulated: a copy of its space before the first step, per
    frame the hand drove what the hand removed and the kinematic bodies' velocities, the
    number of steps, and where every body ended (in the copy's bodies)."""

    def __init__(self, space, schedule, steps, ends):
        self.space, self.schedule, self.steps, self.ends = space, schedule, steps, ends


def _capture(action) -> list[Motion]:
    """Run `action` once, recording every motion it simulated (untimed)."""
    motions = []
    real_run = motion.Scene.run

    def run(scene, max_time, *, record, watch=None, drive=None, stop_on_collapse=False):
        memo: dict = {}
        space = copy.deepcopy(scene.space, memo)
        schedule = []
        hand = drive

        def recorded(t: float, dt: float) -> bool:
            live = scene.space
            before = [*live.constraints, *live.bodies, *live.shapes]
            going = hand(t, dt)
            after = {*live.constraints, *live.bodies, *live.shapes}
            removed = [memo[id(o)] for o in before if o not in after]
            velocities = [
                (memo[id(body)], body.velocity)
                for body in live.bodies
                if body.body_type == pymunk.Body.KINEMATIC
            ]
            schedule.append((removed, velocities))
            return going

        result = real_run(
            scene,
            max_time,
            record=record,
            watch=watch,
            drive=recorded if drive is not None else None,
            stop_on_collapse=stop_on_collapse,
        )
        ends = [(memo[id(body)], (body.position, body.angle)) for body in scene.space.bodies]
        motions.append(Motion(space, schedule, result.steps, ends))
        return result

    motion.Scene.run = run
    try:
        action()
    finally:
        motion.Scene.run = real_run
    return motions


def _plain(captured: Motion) -> tuple[float, bool]:
    """(CPU seconds, same end poses) of the motion stepped with plain pymunk."""
    memo: dict = {}
    space = copy.deepcopy(captured.space, memo)
    schedule = [
        ([memo[id(o)] for o in removed], [(memo[id(b)], v) for b, v in velocities])
        for removed, velocities in captured.schedule
    ]
    ends = [(memo[id(body)], pose) for body, pose in captured.ends]
    start = clock()
    # What a pymunk user writes: each frame, move the hand, then step.
    steps = 0
    for removed, velocities in schedule:
        if removed:
            space.remove(*removed)
        for body, velocity in velocities:
            body.velocity = velocity
        for _ in range(motion.FRAME_STEPS):
            space.step(motion.STEP)
        steps += motion.FRAME_STEPS
    while steps < captured.steps:
        for _ in range(motion.FRAME_STEPS):
            space.step(motion.STEP)
        steps += motion.FRAME_STEPS
    poses = {body: (body.position, body.angle) for body in space.bodies}
    seconds = clock() - start
    return seconds, all(poses.get(body) == pose for body, pose in ends)


def _engine(action) -> tuple[float, float, float]:
    """CPU seconds of the engine's motion (`Scene.run`), of the page's frames built from it
    (`villa.frames_from`), and of the whole action."""
    spent = {"run": 0.0, "frames": 0.0}
    real_run, real_frames = motion.Scene.run, villa.frames_from
    # Each motion module of the villa calls frames_from by its own name: time it in each.
    users = [
        module
        for name, module in sys.modules.items()
        if name.startswith(villa.__name__ + ".")
        and getattr(module, "frames_from", None) is real_frames
    ]

    def timed(part, real):
        def call(*args, **kwargs):
            start = clock()
            result = real(*args, **kwargs)
            spent[part] += clock() - start
            return result

        return call

    motion.Scene.run = timed("run", real_run)
    for module in users:
        module.frames_from = timed("frames", real_frames)
    try:
        start = clock()
        action()
        whole = clock() - start
    finally:
        motion.Scene.run = real_run
        for module in users:
            module.frames_from = real_frames
    return spent["run"], spent["frames"], whole


def _compare(label: str, make_action) -> tuple[float, float]:
    """(ratio of the motion, ratio with the page's frames) against plain pymunk."""
    motions = _capture(make_action())
    steps = sum(m.steps for m in motions)
    runs, with_frames, frames, plains, wholes = [], [], [], [], []
    same = True
    for round_ in range(ROUNDS):
        action = make_action()
        sides = ["engine", "plain"] if round_ % 2 == 0 else ["plain", "engine"]
        for side in sides:
            if side == "engine":
                run, built, whole = _engine(action)
                runs.append(run)
                frames.append(built)
                with_frames.append(run + built)
                wholes.append(whole)
            else:
                seconds = 0.0
                for captured in motions:
                    spent, ends_equal = _plain(captured)
                    seconds += spent
                    same = same and ends_equal
                plains.append(seconds)
    run, plain = min(runs), min(plains)
    ratio, framed = run / plain, min(with_frames) / plain
    drawn = (
        f"; the page's frames {min(frames) * 1000:.2f} ms more: {framed:.2f}"
        if min(frames) > 0
        else ""
    )
    print(
        f"{label}: engine {run * 1000:.2f} ms, plain pymunk {plain * 1000:.2f} ms for {steps} "
        f"steps in {len(motions)} motion(s): ratio {ratio:.2f}{drawn} (same end poses: "
        f"{'yes' if same else 'NO'}; the whole action {min(wholes) * 1000:.2f} ms)"
    )
    if not same:
        raise SystemExit("the plain side did not reproduce the engine's motion")
    return ratio, framed


def main() -> None:
    state = _position()
    rules = state.rules
    loads = villa.analyse(rules).loads
    column = max(
        (c for c in rules.columns if c.where in ("base", "platform") and c.level < rules.laid),
        key=lambda c: loads.get(c.id, 0.0),
    ).id
    chance = Chance.draw(random.Random(1))

    held = copy.deepcopy(rules)
    held.columns[column].where = "hand"
    ratios = []
    # With the frames the page draws (a player's action), and without (the bots' looks
    # ahead and self-play).
    for record, how in ((True, "with frames"), (False, "without frames")):

        def pull_action(record=record):
            copy_of = copy.deepcopy(rules)
            return lambda: villa.pull(copy_of, column, Gesture(120, 0.8), chance, record=record)

        def place_action(record=record):
            copy_of = copy.deepcopy(held)
            return lambda: villa.place(
                copy_of, column, 10.0, 0.0, None, Gesture(150, 0.6), chance, record=record
            )

        ratios.append(_compare(f"pull (load {loads[column]:.0f} g), {how}", pull_action))
        ratios.append(_compare(f"placement, {how}", place_action))
    worst = max(ratio for ratio, _ in ratios)
    framed = max(framed for _, framed in ratios)
    verdict = "met" if worst <= TARGET_RATIO else "NOT met"
    print(
        f"worst ratio {worst:.2f} (target <= {TARGET_RATIO}): {verdict}; "
        f"with the page's frames {framed:.2f}: {'met' if framed <= TARGET_RATIO else 'NOT met'}"
    )
    start = clock()
    for _ in range(200):
        load(snapshot(state))
    print(f"snapshot + load: {(clock() - start) / 200 * 1000:.3f} ms")
    start = clock()
    for _ in range(200):
        villa.analyse(rules)
    print(f"3-D statics of the whole villa: {(clock() - start) / 200 * 1000:.3f} ms")
    print(f"snapshot size: {len(snapshot(state))} bytes")


if __name__ == "__main__":
    main()
