"""A placement: a hand sets a column down on the top platform, simulated in the plane the
platform would tip in."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pymunk

from .. import statics
from ..hands import GRIP_FORCE, HAND_MASS, REACTION_TIME, Chance, Gesture, placement_error
from ..motion import COLLISION_SLOP, Piece, Plane, Scene
from ..pieces import (
    COLUMN_HEIGHT,
    COLUMNS,
    PLATFORM_LENGTHS,
    PLATFORM_MASSES,
    PLATFORM_THICKNESS,
    Where,
)
from .fall import fall
from .places import (
    BASE_TOP,
    HALF_BASE,
    STOREY,
    analyse,
    column_bottom,
    column_key,
    pieces_of,
    platform_key,
    platform_y,
    radius,
    reaches_under,
    rest_places,
    stack_depth,
)
from .planar import (
    SETTLE_TIME,
    Outcome,
    apply_planar,
    column_piece,
    frames_from,
    kick_from,
    square_extent,
)
from .settle import rocking

if TYPE_CHECKING:
    # Types only: the rules import the villa.
    from ..rules.state import Rules


# Gap under a piece set down, so it starts just clear of its support (mm).
DROP_GAP = 0.2
# The setting hand has stopped (and lets go) once its speed is below this fraction of the
# speed it set the column down with.
STOPPED = 0.1


def _weightless(body, gravity, damping, dt) -> None:
    """A hand's velocity update: the arm bears its own weight."""
    pymunk.Body.update_velocity(body, (0.0, 0.0), damping, dt)


def _setting_hand(scene: Scene, column: pymunk.Body, speed: float):
    """The hand setting a column down (hands.py, HAND_MASS): a body of the hand's effective
    mass, weightless, pinned to the column's middle with the fingers' grip and moving with
    it; it follows through into what the column lands on and lets go once it has stopped,
    or when the builder feels the landing (a reaction time after it). Returns the run's
    `drive`, or None for a column let go at rest."""
    if speed <= 0.0:
        return None
    hand = pymunk.Body(HAND_MASS, math.inf)
    hand.position = column.position
    hand.velocity = column.velocity
    hand.velocity_func = _weightless
    pin = pymunk.PivotJoint(hand, column, column.position)
    pin.max_force = GRIP_FORCE
    scene.space.add(hand, pin)
    held = [True]

    def drive(t: float, dt: float) -> bool:
        stopped = t > 0.0 and hand.velocity.length < STOPPED * speed
        if held[0] and (stopped or t >= REACTION_TIME):
            scene.space.remove(pin, hand)
            held[0] = False
        return held[0]

    return drive


def _tipping_way(rules: Rules, top: int, ox: float, oz: float) -> tuple[float, float]:
    """The unit way (dx, dz) platform `top` would tip, with everything on it: from its
    loaded centre to the nearest edge of the hull of its supports (the way its margin is
    measured), or, if it has none, from its centre through the spot (ox, oz) a column is
    set at."""
    # Only the top platform, its supports and what stands on it decide its interface.
    columns, platforms = pieces_of(rules)
    columns = [c for c in columns if c.level in (top, top + 1)]
    platforms = [p for p in platforms if p.index == top]
    interfaces = statics.analyse(columns, platforms).interfaces
    interface = next((i for i in interfaces if i.piece == platform_key(top)), None)
    if interface is not None and interface.direction is not None:
        return interface.direction
    if interface is not None and len(interface.region) >= 3:
        cx, cz = interface.centre
        region = interface.region
        nearest, best = None, math.inf
        for a, b in zip(region, region[1:] + region[:1], strict=True):
            ax, az = b[0] - a[0], b[1] - a[1]
            length2 = ax * ax + az * az
            t = ((cx - a[0]) * ax + (cz - a[1]) * az) / length2 if length2 else 0.0
            t = max(0.0, min(1.0, t))
            px, pz = a[0] + t * ax - cx, a[1] + t * az - cz
            if px * px + pz * pz < best:
                nearest, best = (px, pz), px * px + pz * pz
        if best > 1e-12:
            return nearest[0] / math.sqrt(best), nearest[1] / math.sqrt(best)
    length = math.hypot(ox, oz)
    return (ox / length, oz / length) if length > 1.0 else (1.0, 0.0)


def place(
    rules: Rules,
    column_id: int,
    x_local: float,
    z_local: float,
    on: int | None,
    gesture: Gesture,
    chance: Chance | None,
    *,
    record: bool,
    t0: float = 0.0,
) -> Outcome:
    """A hand sets a column down on the top platform at (x_local, z_local) from its centre
    (or on column `on`, on red). The column's place in the rules is where it comes to rest;
    the platform it lands on and that platform's columns take theirs."""
    top = rules.laid - 1
    platform = rules.platforms[top]
    err_x, err_z, tilt = placement_error(gesture, chance) if chance is not None else (0, 0, 0)
    column = rules.columns[column_id]
    x = platform.x + x_local + err_x
    z = platform.z + z_local + err_z
    column.where, column.level, column.x, column.z, column.on = Where.PLATFORM, rules.laid, x, z, on
    places = rest_places(rules)
    # The plane: the way the top platform would tip with the column on it, across the edge
    # of its supports' hull nearest its loaded centre. There the plane's supports end where
    # the 3-D hull does, so a jolt can tip the platform as it would tip the wooden one.
    dx, dz = _tipping_way(rules, top, x - platform.x, z - platform.z)
    plane = Plane(platform.x, platform.z, dx, dz)
    base_from, base_to = square_extent(plane, 0.0, 0.0, HALF_BASE)
    scene = Scene(base_from, base_to, BASE_TOP)
    level = top  # the top platform's supports stand at this level
    if level > 0:
        under = rules.platforms[level - 1]
        lo, hi = square_extent(plane, under.x, under.z, PLATFORM_LENGTHS[level - 1] / 2)
        scene.add_static_board(lo, hi, BASE_TOP + level * STOREY, PLATFORM_THICKNESS)
    stack = []
    below = on
    while below is not None:
        stack.append(rules.columns[below])
        below = rules.columns[below].on
    stack_ids = {c.id for c in stack}
    riders = [
        c
        for c in rules.columns
        if c.in_play and c.level == rules.laid and c.id != column_id and c.id not in stack_ids
    ]
    lumps, members = [], [(platform_key(top), None, None)]
    for c in riders:
        s = plane.along(c.x, c.z)
        y = column_bottom(rules, c) + COLUMN_HEIGHT / 2
        lumps.append((s, y, COLUMNS[c.id].mass))
        members.append((column_key(c.id), s, y))
    lo, hi = square_extent(plane, platform.x, platform.z, PLATFORM_LENGTHS[top] / 2)
    scene.add(
        Piece(
            platform_key(top),
            (lo + hi) / 2,
            platform_y(top),
            (hi - lo) / 2,
            PLATFORM_THICKNESS / 2,
            PLATFORM_MASSES[top],
            lumps=lumps,
        )
    )
    supports = [
        c
        for c in rules.columns
        if c.in_play and c.level == top and c.on is None and reaches_under(platform, c)
    ]
    for c in supports:
        scene.add(column_piece(rules, plane, c))
    for c in stack:
        scene.add(column_piece(rules, plane, c, stack_depth=stack_depth(rules, c)))
    y = column_bottom(rules, column) + COLUMN_HEIGHT / 2 + DROP_GAP
    key = column_key(column_id)
    body = scene.add(
        Piece(
            key,
            plane.along(x, z),
            y,
            radius(column_id),
            COLUMN_HEIGHT / 2,
            COLUMNS[column_id].mass,
            column=True,
            stack_depth=len(stack),
            angle=tilt,
            velocity=(gesture.speed * math.sin(tilt), -gesture.speed * math.cos(tilt)),
        )
    )
    drive = _setting_hand(scene, body, gesture.speed)
    watch = set(scene.bodies)
    # How far the jolt swings the platform's loaded centre is followed (`_jolted`).
    scene.tracked = {platform_key(top)}
    run = scene.run(SETTLE_TIME, record=record, watch=watch, drive=drive)
    frames = frames_from(run, plane, {platform_key(top): members}, places, t0) if record else []
    moved = supports + stack + [column]
    # What holds the villa up: the top platform and the columns under it. Columns on the
    # top platform (the one set down, those beside it, a stack on red) hold up nothing.
    structure = [platform_key(top)] + [column_key(c.id) for c in supports]
    failed = None
    if run.collapsed:
        final = {k: t.end for k, t in run.tracks.items()}
        failed = scene.failure(final, structure)
        if failed is None:
            # Only columns on the top platform came down (the one set down, or one it
            # knocked over): the villa stands, on every level alike, unless the fall swung
            # the platform past its balance. The caller treats it as a failed build; what
            # it knocked over is stood back where it stood (its place is not written).
            column.where = Where.HAND
            out = _jolted(rules, run, plane, top, frames, record=record, t0=t0)
            if out is not None:
                return out
            column.where = Where.PLATFORM
            return Outcome(frames, run.steps, fell_alone=True)
    if run.collapsed:
        apply_planar(rules, run, plane, platform_key(top), members, moved)
        kick = kick_from(run, plane, platform_key(top), members)
        # The collapse is told by what gave way in the villa, not by the column that
        # came down first.
        kick.reason, kick.piece = failed[0], failed[1]
        kick.direction = (plane.dx * failed[2], plane.dz * failed[2])
        out = fall(rules, record=record, t0=frames[-1]["t"] if frames else t0, kick=kick)
        out.frames = frames + out.frames
        out.steps += run.steps
        return out
    apply_planar(rules, run, plane, platform_key(top), members, moved)
    out = _jolted(rules, run, plane, top, frames, record=record, t0=t0)
    return out if out is not None else Outcome(frames, run.steps)


def _jolted(
    rules: Rules, run, plane: Plane, top: int, frames: list, *, record: bool, t0: float
) -> Outcome | None:
    """The collapse, if the set-down swung the top platform's loaded centre past the edge
    of its supports' hull in 3-D (see `settle_after`, "rocked"), though the villa stands
    where the motion left it; else None (a villa that does not stand there is left to the
    statics, as after any placement)."""
    key = platform_key(top)
    # A swing within pymunk's contact slop is not a motion of the platform.
    swings = [s for s in rocking(run, plane, key).get(key, []) if math.hypot(*s) > COLLISION_SLOP]
    if not swings:
        return None
    stability = analyse(rules)
    interface = next((i for i in stability.interfaces if i.piece == key), None)
    if not stability.stands or interface is None:
        return None
    past = [
        (dx, dz)
        for dx, dz in swings
        if math.hypot(dx, dz) >= interface.margin and interface.margin_if_moved(dx, dz) < 0
    ]
    if not past:
        return None
    length = math.hypot(*past[0])
    way = (past[0][0] / length, past[0][1] / length)
    t_end = frames[-1]["t"] if frames else t0
    out = fall(rules, record=record, t0=t_end, swing=(key, way))
    out.frames = frames + out.frames
    out.steps += run.steps
    return out
