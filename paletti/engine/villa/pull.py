"""A pull: a hand draws a column out of the villa, the second hand steadying the platform
above (rule 1), simulated in the plane of the way out."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pymunk

from .. import catch
from ..hands import (
    GRIP_FORCE,
    PULL_CLEARANCE,
    Chance,
    Gesture,
    grip_offset,
    pull_path,
    reaction_time,
    spread,
    steadying_force,
)
from ..motion import FRAME_STEPS, MAX_PLATFORM_TILT, STEP, Piece, Plane, Scene
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
    platform_key,
    platform_y,
    radius,
    reaches_under,
    rest_places,
)
from .planar import (
    POS_SCALE,
    SETTLE_TIME,
    Outcome,
    apply_planar,
    column_piece,
    frames_from,
    kick_from,
    q,
    square_extent,
)
from .settle import rocking, settle_after, tilting
from .way_out import meets, way_out

if TYPE_CHECKING:
    # Types only: the rules import the villa.
    from ..rules.state import Rules


# A hand that feels a neighbour move (by FELT_MOVE mm) stops after a person's reaction
# time to touch (hands.REACTION_TIME), having gone on at its speed meanwhile: a slow hand
# stops within millimetres, a fast one goes through.
FELT_MOVE = 0.5
# A neighbour moved by more than this (mm, or its height times the tilt) has been moved
# (our estimate of what players at the table would see).
KNOCK_TOLERANCE = 2.0


@dataclass
class _Progress:
    """How far a pull has gone: the column out (when), a neighbour felt moving (when), the
    hand stopped for it, the platform caught by the steadying hand."""

    out: bool = False
    t_out: float | None = None
    met: float | None = None
    stopped: bool = False
    caught: bool = False


def pull(
    rules: Rules, column_id: int, gesture: Gesture, chance: Chance, *, record: bool
) -> Outcome:
    """A hand draws a column out of the villa (see hands.py). The column leaves the rules'
    villa ("where" is set by the caller); supports and platforms take their new places;
    a collapse is simulated to its end."""
    column = rules.columns[column_id]
    level = column.level
    above = None
    if level < rules.laid:
        candidate = rules.platforms[level]
        if candidate.x is not None and reaches_under(candidate, column):
            above = candidate
    key = column_key(column_id)
    places = rest_places(rules)
    start_y = column_bottom(rules, column) + COLUMN_HEIGHT / 2
    if above is None:
        # Nothing rests on it: it is simply lifted away.
        frames = []
        if record:
            frames = _lift_frames(key, column.x, column.z, start_y)
        column.where = Where.HAND
        out = settle_after(rules, record=record, t0=frames[-1]["t"] if frames else 0.0)
        out.frames = frames + out.frames
        return out

    (dx, dz), distance = way_out(rules, column, above)
    plane = Plane(column.x, column.z, dx, dz)
    index = above.index
    below_top = BASE_TOP + level * STOREY
    base_from, base_to = square_extent(plane, 0.0, 0.0, HALF_BASE)
    scene = Scene(base_from, base_to, BASE_TOP)
    if level > 0:
        under = rules.platforms[level - 1]
        lo, hi = square_extent(plane, under.x, under.z, PLATFORM_LENGTHS[level - 1] / 2)
        scene.add_static_board(lo, hi, below_top, PLATFORM_THICKNESS)
    # The platform above with everything it carries, as one rigid body.
    carried = [c for c in rules.columns if c.in_play and c.level > level]
    lumps, members = [], [(platform_key(index), None, None)]
    total = PLATFORM_MASSES[index]
    above_y = platform_y(index)
    for c in carried:
        s = plane.along(c.x, c.z)
        y = column_bottom(rules, c) + COLUMN_HEIGHT / 2
        lumps.append((s, y, COLUMNS[c.id].mass))
        members.append((column_key(c.id), s, y))
        total += COLUMNS[c.id].mass
    for p in rules.platforms:
        if p.x is not None and p.index > index:
            s = plane.along(p.x, p.z)
            lumps.append((s, platform_y(p.index), PLATFORM_MASSES[p.index]))
            members.append((platform_key(p.index), s, platform_y(p.index)))
            total += PLATFORM_MASSES[p.index]
    lo, hi = square_extent(plane, above.x, above.z, PLATFORM_LENGTHS[index] / 2)
    platform_piece = Piece(
        platform_key(index),
        (lo + hi) / 2,
        above_y,
        (hi - lo) / 2,
        PLATFORM_THICKNESS / 2,
        PLATFORM_MASSES[index],
        lumps=lumps,
    )
    members = [(k, s if s is not None else None, y) for k, s, y in members]
    platform_body = scene.add(platform_piece)
    supports = [
        c
        for c in rules.columns
        if c.in_play
        and c.level == level
        and c.id != column_id
        and c.on is None
        and reaches_under(above, c)
    ]
    # The neighbours the column or the hand meets on the way out: the hand's spread to the
    # side is as wide as its waver (hands.py); they are pushed along if met.
    met = meets(rules, column, (dx, dz), distance, spread(gesture))
    in_the_way = [c for c, contact in met if contact[0] == "ahead"]
    grazed = [(c, contact[1]) for c, contact in met if contact[0] == "graze"]
    met_ids = {c.id for c in in_the_way}
    beside = supports + [c for c in in_the_way if c not in supports]
    for c in beside:
        scene.add(column_piece(rules, plane, c, role="in_the_way" if c.id in met_ids else ""))
    body = scene.add(
        Piece(
            key,
            0.0,
            start_y,
            radius(column_id),
            COLUMN_HEIGHT / 2,
            COLUMNS[column_id].mass,
            column=True,
            role="drawn",
        )
    )
    # The hand: a kinematic body holding the column at the grip from the side. It drives the
    # column along but neither props it up nor holds it down (a vertical groove on the hand,
    # the grip sliding in it): the column keeps standing on its floor and bears its share
    # of the platform above, as between fingers that draw a column out sideways. A rigid
    # pin at its height would make the platform rest on it alone and follow it out
    # (docs/paletti.md, "The hand").
    grip = grip_offset(gesture, chance)
    hand = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    hand.position = (0.0, start_y + grip)
    pin = pymunk.GrooveJoint(hand, body, (0.0, -COLUMN_HEIGHT), (0.0, COLUMN_HEIGHT), (0.0, grip))
    pin.max_force = GRIP_FORCE
    # The second hand steadies the platform above (rule 1).
    steady = pymunk.PivotJoint(scene.space.static_body, platform_body, platform_body.position)
    steady.max_force = steadying_force(gesture, total)
    scene.space.add(hand, pin, steady)
    duration, path = pull_path(gesture, chance, distance)
    # Whether the steadying fingers will set the platform right if the villa cannot stand
    # without the column, once its top leaves the platform.
    reaction = reaction_time(chance)
    catches = _steadying_hand_holds(rules, column_id, index, steady.max_force, reaction)
    progress = _Progress()
    rest_y, rest_angle, half_board = platform_body.position.y, platform_body.angle, (hi - lo) / 2

    def settling() -> bool:
        # The platform's edge has gone down by what the fingers feel (FELT_MOVE).
        drop = rest_y - platform_body.position.y
        return drop + abs(platform_body.angle - rest_angle) * half_board > FELT_MOVE

    way = {column_key(c.id): (plane.along(c.x, c.z), start_y) for c in in_the_way}

    def drive(t: float, dt: float) -> bool:
        if progress.out or progress.stopped or progress.caught:
            return False
        if progress.met is None:
            for body_key, (s0, y0) in way.items():
                position = scene.bodies[body_key].position
                if abs(position.x - s0) + abs(position.y - y0) > FELT_MOVE:
                    progress.met = t
                    break
        if progress.met is not None and t >= progress.met + reaction:
            # The hand felt the neighbour move and stops; it lets go of the column.
            scene.space.remove(pin, hand, steady)
            progress.stopped = True
            return False
        if catches and (path(t) >= distance - PULL_CLEARANCE or settling()):
            # The column's top leaves the platform, or the platform starts to settle as
            # the column slides from under it: the steadying fingers feel it go and, in
            # time (see _steadying_hand_holds), set it right; the builder holds the column
            # still too and pushes it back under (the caller finds everything back in its
            # place).
            steady.max_force = math.inf
            scene.space.add(
                pymunk.RotaryLimitJoint(scene.space.static_body, platform_body, 0.0, 0.0)
            )
            hand.velocity = (0.0, 0.0)
            progress.caught = True
            return False
        if t >= duration:
            scene.space.remove(pin, hand, steady)
            scene.remove(key)
            scene.tracking = True
            progress.out = True
            progress.t_out = t
            return False
        along = path(t + dt)
        hand.velocity = ((along - hand.position.x) / dt, 0.0)
        return True

    # A collapse is the platform or a support giving way; a neighbour knocked off its
    # board while the villa stands is not (see `knocked` below).
    watch = {platform_key(index)} | {column_key(c.id) for c in supports}
    # The load's centre is followed once the column no longer holds it up.
    scene.tracked = {platform_key(index)}
    scene.tracking = False
    run = scene.run(duration + SETTLE_TIME, record=record, watch=watch, drive=drive)
    group = {platform_key(index): members}
    frames = frames_from(run, plane, group, places, 0.0) if record else []
    if progress.caught and not run.collapsed:
        # Rule 1 asks the platforms back in their places, and an interrupted build puts
        # the column back where it was taken: nothing has moved.
        return Outcome(frames=frames, steps=run.steps, caught=True)
    if record and progress.t_out is not None:
        t_out = round(progress.t_out + FRAME_STEPS * STEP, 3)
        frames.append({"t": t_out, "poses": {key: None}, "side": {key: None}})
        frames.sort(key=lambda f: f["t"])
    column.where = Where.HAND
    if run.collapsed:
        apply_planar(rules, run, plane, platform_key(index), members, beside)
        kick = kick_from(run, plane, platform_key(index), members)
        out = fall(rules, record=record, t0=frames[-1]["t"] if frames else 0.0, kick=kick)
        out.frames = frames + out.frames
        out.steps += run.steps
        return out
    apply_planar(rules, run, plane, platform_key(index), members, beside)
    # The neighbours it brushed past are pushed aside (in 3-D, across the plane).
    for c, (gx, gz) in grazed:
        c.x, c.z = c.x + gx, c.z + gz
    out = settle_after(
        rules,
        record=record,
        t0=frames[-1]["t"] if frames else 0.0,
        rocked=rocking(run, plane, platform_key(index))
        | tilting(rules, index, run.tilts.get(platform_key(index)), plane),
    )
    out.frames = frames + out.frames
    out.steps += run.steps
    knocked = [c.id for c in in_the_way if _was_moved(run.tracks.get(column_key(c.id)))]
    knocked += [c.id for c, shift in grazed if math.hypot(*shift) > KNOCK_TOLERANCE]
    if progress.stopped and not knocked:
        knocked = [c.id for c in in_the_way]
    if out.collapse is None and knocked:
        # The villa stands, but the column or the hand moved another column. Rule 6 of the
        # French record forbids touching another ("ni déplacer les autres colonnes"), so
        # nobody may set it right: as at the table, a knocked column stays where the motion
        # left it, and the statics above have judged the villa with it there. A hand that
        # felt it move and stopped has interrupted the build (the caller puts the column
        # back, "interrompre à tout moment").
        out.knocked = knocked
        out.interrupted = progress.stopped
    return out


def _steadying_hand_holds(
    rules: Rules, column_id: int, index: int, held_force: float, reaction: float
) -> bool:
    """Whether the builder's second hand, steadying platform `index` above the column (rule 1
    of the French record) with at most `held_force`, sets it right though the villa cannot
    stand without the column (3-D statics). The platform and all it carries start to turn
    about the edge of the supports left to it; the fingers feel it and respond after the
    builder's `reaction` time: if it has not yet turned past a collapse (catch.py), the
    builder interrupts the build, as the French record allows at any moment ("le joueur
    peut, à tout moment, interrompre sa tentative"): the column goes back and is locked.
    Otherwise, or with no hand on the platform, it tips: the villa falls."""
    if held_force <= 0.0:
        return False
    failing = [i for i in analyse(rules, without={column_id}).interfaces if i.margin < 0.0]
    if not failing or any(i.piece != platform_key(index) for i in failing):
        return False
    platform = rules.platforms[index]
    hand = (platform.x, platform.z, platform_y(index))
    edge_y = platform_y(index) - PLATFORM_THICKNESS / 2
    parts = _assembly_parts(rules, index)
    turned = catch.turned_by(parts, failing[0], edge_y, hand, held_force, reaction)
    return turned < MAX_PLATFORM_TILT


def _assembly_parts(rules: Rules, index: int) -> list[catch.Part]:
    """Platform `index` and all above it as rigid parts (catch.Part)."""
    parts = []
    for platform in rules.platforms:
        if platform.x is None or platform.index < index:
            continue
        side = PLATFORM_LENGTHS[platform.index]
        own = (side**2 + PLATFORM_THICKNESS**2) / 12.0
        y = platform_y(platform.index)
        parts.append((PLATFORM_MASSES[platform.index], platform.x, platform.z, y, own))
    for column in rules.columns:
        if not column.in_play or column.level <= index:
            continue
        own = (COLUMNS[column.id].width ** 2 + COLUMN_HEIGHT**2) / 12.0
        y = column_bottom(rules, column) + COLUMN_HEIGHT / 2
        parts.append((COLUMNS[column.id].mass, column.x, column.z, y, own))
    return parts


def _was_moved(track) -> bool:
    if track is None:
        return False
    ds = track.end[0] - track.start[0]
    dy = track.end[1] - track.start[1]
    tilt = abs(track.end[2] - track.start[2]) * COLUMN_HEIGHT
    return max(abs(ds), abs(dy), tilt) > KNOCK_TOLERANCE


def _lift_frames(key: str, x: float, z: float, y: float) -> list:
    frames = []
    n = 8
    for k in range(n + 1):
        lift = 40.0 * k / n
        frames.append(
            {
                "t": round(k / 30.0, 3),
                "poses": {key: [q(x, POS_SCALE), q(y + lift, POS_SCALE), 0.0]},
                "side": {key: [q(z, POS_SCALE), q(y + lift, POS_SCALE), 0.0]},
            }
        )
    frames.append({"t": round((n + 1) / 30.0, 3), "poses": {key: None}, "side": {key: None}})
    return frames
