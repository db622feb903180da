"""The villa as the rules state records it, and what happens to it: statics at rest,
pymunk in motion.

The rules state (the `Rules` record) holds every piece's place: a column's foot at a 2-D
point (`x`, `z`) on what carries it (`level` platforms below it, or `on` another column,
on red), a platform's centre (`x`, `z`). At rest every column stands upright and every
platform lies level, so heights follow from the stack (`column_y`, `platform_y`). That is
the whole stored truth: no solver, no contact history, so a villa reloaded from the store
is the villa.

An action that moves something calls one of `pull`, `place`, `settle_after`: pymunk
simulates the motion in its plane (motion.py), the new places are read off it, and
`statics.analyse` decides whether the villa now stands. If it does not, `fall` simulates
the fall in the plane it tips in, from the part that gave way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pymunk

from . import catch, statics
from .hands import (
    GRIP_FORCE,
    HAND_MASS,
    PULL_CLEARANCE,
    REACTION_TIME,
    Chance,
    Gesture,
    grip_offset,
    placement_error,
    pull_path,
    reaction_time,
    spread,
    steadying_force,
)
from .motion import COLLISION_SLOP, FRAME_STEPS, MAX_PLATFORM_TILT, STEP, Piece, Plane, Scene
from .pieces import (
    BASE_LENGTH,
    BASE_THICKNESS,
    COLUMN_HEIGHT,
    COLUMNS,
    PLATFORM_LENGTHS,
    PLATFORM_MASSES,
    PLATFORM_THICKNESS,
    Where,
)

if TYPE_CHECKING:
    # Types only: the rules import this module.
    from .rules.state import Column, Platform, Rules

TABLE_TOP = 0.0
BASE_TOP = TABLE_TOP + BASE_THICKNESS
HALF_BASE = BASE_LENGTH / 2
STOREY = COLUMN_HEIGHT + PLATFORM_THICKNESS
# Gap under a piece set down, so it starts just clear of its support (mm).
DROP_GAP = 0.2
# Lengths of simulated stretches (s): after a pull or a placement, and a fall.
SETTLE_TIME = 2.0
FALL_TIME = 6.0
# A fall starts with this angular speed in the direction it tips (rad/s), so that a villa
# whose load lies just past the edge of its supports does not balance in the simulation.
FALL_NUDGE = 0.5
POS_SCALE = 10.0
ANGLE_SCALE = 1000.0


def column_key(column_id: int) -> str:
    return f"c{column_id}"


def platform_key(index: int) -> str:
    return f"p{index}"


def platform_y(index: int) -> float:
    """Centre height of platform `index` lying level on its columns."""
    return (
        BASE_TOP + (index + 1) * COLUMN_HEIGHT + index * PLATFORM_THICKNESS + PLATFORM_THICKNESS / 2
    )


def column_bottom(rules: Rules, column: Column) -> float:
    """Height of a standing column's foot: its platform's top, or the top of the column
    it is set on."""
    if column.on is not None:
        below = rules.columns[column.on]
        return column_bottom(rules, below) + COLUMN_HEIGHT
    return BASE_TOP + column.level * STOREY


def radius(column_id: int) -> float:
    return COLUMNS[column_id].width / 2


def q(value: float, scale: float) -> float:
    return round(value * scale) / scale


def sync_rest(rules: Rules) -> None:
    """Derive every piece's drawn poses from its place: "pose" (front view: x, y, angle)
    and "side" (side view: z, y, angle), and the depth row the page shows ("lane")."""
    for column in rules.columns:
        if not column.in_play:
            column.pose = column.side = None
            continue
        y = column_bottom(rules, column) + COLUMN_HEIGHT / 2
        column.pose = [column.x, y, 0.0]
        column.side = [column.z, y, 0.0]
        column.lane = lane_of(rules, column)
    for platform in rules.platforms:
        if platform.x is None:
            platform.pose = platform.side = None
            continue
        y = platform_y(platform.index)
        platform.pose = [platform.x, y, 0.0]
        platform.side = [platform.z, y, 0.0]


def lane_of(rules: Rules, column: Column) -> int:
    """The nearest of the page's three depth rows (front, middle, back) to a column."""
    level = column.level
    centre = 0.0
    if level > 0:
        centre = rules.platforms[level - 1].z or 0.0
    offset = column.z - centre
    return 0 if offset < -15.0 else (2 if offset > 15.0 else 1)


def pieces_of(rules: Rules, without: set[int] = frozenset()):
    """The villa as statics sees it: (columns, platforms) in play."""
    columns = [
        statics.Column(
            c.id,
            c.x,
            c.z,
            radius(c.id),
            COLUMNS[c.id].mass,
            c.level,
            c.on,
        )
        for c in rules.columns
        if c.in_play and c.id not in without
    ]
    platforms = [
        statics.Platform(
            p.index,
            p.x,
            p.z,
            PLATFORM_LENGTHS[p.index] / 2,
            PLATFORM_MASSES[p.index],
        )
        for p in rules.platforms
        if p.x is not None
    ]
    return columns, platforms


def analyse(rules: Rules, without: set[int] = frozenset()) -> statics.Stability:
    return statics.analyse(*pieces_of(rules, without))


def column_load(rules: Rules, column_id: int) -> float:
    """The weight (g) pressing on a column's top, in 3-D."""
    return analyse(rules).loads.get(column_id, 0.0)


@dataclass
class Outcome:
    """What a motion did: frames to draw, and the collapse if the villa came down."""

    frames: list = field(default_factory=list)
    steps: int = 0
    collapse: dict | None = None
    # A placed column that fell over or off by itself while the villa stood.
    fell_alone: bool = False
    # The columns a pull moved on its way out while the villa stood (they stay moved).
    knocked: list = field(default_factory=list)
    # A pull the hand stopped on feeling a neighbour move: the column is not out.
    interrupted: bool = False
    # A pull the builder interrupted: the platform above came to rest on the steadying
    # hand, so the column was pushed back under it (everything is back in its place).
    caught: bool = False


# -- frames ---------------------------------------------------------------------------


def frames_from(run, plane: Plane, members: dict, rules_pieces: dict, t0: float) -> list:
    """Frames of a planar run as the page draws them: per body, its front pose
    [x, y, angle] and its side pose [z, y, angle].

    `members`: body key -> [(piece key, s, y)] of pieces that move rigidly with it (the
    body itself among them). `rules_pieces`: piece key -> its (x, z) at the start."""
    frames = []
    last: dict = {}
    seen: dict = {}
    # Per body, its pieces with where each stood: (key, s, y, x, z); s and y are None for
    # the body itself.
    carried: dict = {}
    dx, dz = plane.dx, plane.dz
    for t, poses in run.frames:
        front, side = {}, {}
        for body_key, (s, y, angle) in poses.items():
            # A body that has not moved by a drawn amount moves none of its pieces.
            drawn = (round(s * POS_SCALE), round(y * POS_SCALE), round(angle * ANGLE_SCALE))
            if seen.get(body_key) == drawn:
                continue
            seen[body_key] = drawn
            pieces = carried.get(body_key)
            if pieces is None:
                group = members.get(body_key, [(body_key, None, None)])
                pieces = [(key, s0, y0, *rules_pieces[key]) for key, s0, y0 in group]
                carried[body_key] = pieces
            start = run.tracks[body_key].start if body_key in run.tracks else (s, y, angle)
            c, n = math.cos(angle - start[2]), math.sin(angle - start[2])
            a_front = q(angle * dx, ANGLE_SCALE)
            a_side = q(angle * dz, ANGLE_SCALE)
            for key, s0, y0, x0, z0 in pieces:
                if s0 is None:
                    s1, y1, shift = s, y, s - start[0]
                else:
                    rs, ry = s0 - start[0], y0 - start[1]
                    s1, y1 = s + rs * c - ry * n, y + rs * n + ry * c
                    shift = s1 - s0
                # Rounded as q() does, inline: this runs for every piece in every frame.
                y1 = round(y1 * POS_SCALE) / POS_SCALE
                x1 = round((x0 + shift * dx) * POS_SCALE) / POS_SCALE
                z1 = round((z0 + shift * dz) * POS_SCALE) / POS_SCALE
                shown = (x1, z1, y1, a_front, a_side)
                if last.get(key) != shown:
                    front[key] = [x1, y1, a_front]
                    side[key] = [z1, y1, a_side]
                    last[key] = shown
        if front or not frames:
            frames.append({"t": round(t0 + t, 3), "poses": front, "side": side})
    return frames


def _rest_places(rules: Rules) -> dict:
    places = {}
    for c in rules.columns:
        if c.in_play or c.where == Where.HAND:
            places[column_key(c.id)] = (c.x, c.z)
    for p in rules.platforms:
        if p.x is not None:
            places[platform_key(p.index)] = (p.x, p.z)
    return places


def _square_extent(plane: Plane, x: float, z: float, half: float) -> tuple[float, float]:
    s = plane.along(x, z)
    reach = half * (abs(plane.dx) + abs(plane.dz))
    return s - reach, s + reach


# -- a fall ------------------------------------------------------------------------------


def fall(
    rules: Rules,
    *,
    record: bool,
    t0: float = 0.0,
    kick: dict | None = None,
    swing: tuple | None = None,
) -> Outcome:
    """The villa comes down: simulated in the vertical plane through the part that gave
    way, along the way it tips. The pieces' final places are written into the rules.

    `kick`: {"plane": Plane, "velocities": {key: (vs, vy, w)}} to start from the motion
    during which it gave way; otherwise from the statics' weakest interface."""
    stability = analyse(rules)
    weakest = stability.weakest
    if kick is not None:
        plane = kick["plane"]
        velocities = kick["velocities"]
        failing = None
    else:
        if swing is not None:
            weakest = next(i for i in stability.interfaces if i.piece == swing[0])
            direction = swing[1]
        else:
            direction = weakest.direction or (1.0, 0.0)
        plane = Plane(weakest.centre[0], weakest.centre[1], *direction)
        velocities = {}
        failing = weakest
    base_from, base_to = _square_extent(plane, 0.0, 0.0, HALF_BASE)
    scene = Scene(base_from, base_to, BASE_TOP)
    in_play = [c for c in rules.columns if c.in_play]
    failing_keys = set()
    if failing is not None:
        failing_keys = _assembly_keys(rules, failing.piece)
    for platform in rules.platforms:
        if platform.x is None:
            continue
        key = platform_key(platform.index)
        lo, hi = _square_extent(plane, platform.x, platform.z, PLATFORM_LENGTHS[platform.index] / 2)
        piece = Piece(
            key,
            (lo + hi) / 2,
            platform_y(platform.index),
            (hi - lo) / 2,
            PLATFORM_THICKNESS / 2,
            PLATFORM_MASSES[platform.index],
        )
        _start_moving(piece, key, velocities, failing_keys)
        scene.add(piece)
    for column in in_play:
        key = column_key(column.id)
        piece = _column_piece(rules, plane, column, stack_depth=_stack_depth(rules, column))
        _start_moving(piece, key, velocities, failing_keys)
        scene.add(piece)
    run = scene.run(FALL_TIME, record=record)
    places = _rest_places(rules)
    frames = frames_from(run, plane, {}, places, t0) if record else []
    # Where everything ended: written back, with the tilt each body came to rest with.
    for column in in_play:
        key = column_key(column.id)
        s, y, angle = run.tracks[key].end
        x, z = plane.to_world(run.tracks[key].start[0], s, column.x, column.z)
        column.x, column.z = x, z
        column.pose = [x, y, angle * plane.dx]
        column.side = [z, y, angle * plane.dz]
    for platform in rules.platforms:
        if platform.x is None:
            continue
        key = platform_key(platform.index)
        s, y, angle = run.tracks[key].end
        x, z = plane.to_world(run.tracks[key].start[0], s, platform.x, platform.z)
        platform.x, platform.z = x, z
        platform.pose = [x, y, angle * plane.dx]
        platform.side = [z, y, angle * plane.dz]
    piece = failing.piece if failing is not None else kick.get("piece")
    direction = (plane.dx, plane.dz) if kick is None else kick["direction"]
    collapse = {
        "reason": kick.get("reason", "tipped") if kick else ("rocked" if swing else "tipped"),
        "piece": piece,
        "direction": statics.tip_direction_name(direction),
        "margin": round(weakest.margin, 1) if weakest is not None else None,
    }
    return Outcome(frames, run.steps, collapse)


def _column_piece(rules: Rules, plane: Plane, column: Column, **extra) -> Piece:
    """A column standing where the rules put it, as the plane sees it: a box as wide as
    its foot, centred at its height in the villa."""
    return Piece(
        column_key(column.id),
        plane.along(column.x, column.z),
        column_bottom(rules, column) + COLUMN_HEIGHT / 2,
        radius(column.id),
        COLUMN_HEIGHT / 2,
        COLUMNS[column.id].mass,
        column=True,
        **extra,
    )


def _start_moving(piece: Piece, key: str, velocities: dict, failing: set) -> None:
    if key in velocities:
        vs, vy, w = velocities[key]
        piece.velocity = (vs, vy)
        piece.angular_velocity = w
    elif key in failing:
        # Tip towards +s: a clockwise turn in the (s, y) plane.
        piece.angular_velocity = -FALL_NUDGE


def _assembly_keys(rules: Rules, piece: str) -> set[str]:
    """The bodies that gave way together: a platform and all above it, or a column with
    every column set on it."""
    if piece.startswith("p"):
        index = int(piece[1:])
        keys = {
            platform_key(p.index) for p in rules.platforms if p.x is not None and p.index >= index
        }
        keys |= {column_key(c.id) for c in rules.columns if c.in_play and c.level > index}
        return keys
    keys = {piece}
    changed = True
    while changed:
        changed = False
        for c in rules.columns:
            if c.in_play and c.on is not None and column_key(c.on) in keys:
                key = column_key(c.id)
                if key not in keys:
                    keys.add(key)
                    changed = True
    return keys


def _stack_depth(rules: Rules, column: Column) -> int:
    depth = 0
    while column.on is not None:
        depth += 1
        column = rules.columns[column.on]
    return depth


def settle_after(
    rules: Rules, *, record: bool, t0: float = 0.0, rocked: dict | None = None
) -> Outcome:
    """After a change or a motion: the statics decide, and a villa that no longer stands
    falls. `rocked` ({piece: [(dx, dz)]}): how far a load's centre swung past where it came
    to rest during the motion; a rigid load whose centre passes the edge of what it rests
    on is past its balance and tips, even if it would stand where the motion left it."""
    stability = analyse(rules)
    if not stability.stands:
        return fall(rules, record=record, t0=t0)
    for piece, swings in (rocked or {}).items():
        interface = next((i for i in stability.interfaces if i.piece == piece), None)
        if interface is None:
            continue
        for dx, dz in swings:
            # A centre moved by less than its margin is still inside what it rests on.
            if math.hypot(dx, dz) >= interface.margin and interface.margin_if_moved(dx, dz) < 0:
                length = math.hypot(dx, dz)
                return fall(rules, record=record, t0=t0, swing=(piece, (dx / length, dz / length)))
    return Outcome()


# -- a pull -------------------------------------------------------------------------------


# Ways out a builder may draw a column along: 32 directions, every 11.25 degrees.
EXIT_DIRECTIONS = 32
# How much room (mm) a builder's eye wants between the column drawn out and a neighbour
# before calling the way free (our estimate).
EYE_CLEARANCE = 1.0


def _reach(column: Column, above: Platform, direction: tuple[float, float]) -> float:
    """How far the column's centre must go along `direction` until its trailing edge is
    clear of the platform above (plus PULL_CLEARANCE)."""
    half = PLATFORM_LENGTHS[above.index] / 2 + radius(column.id)
    reach = math.inf
    offsets = (column.x - above.x, column.z - above.z)
    for offset, d in zip(offsets, direction, strict=True):
        if abs(d) > 1e-9:
            reach = min(reach, (half - offset * math.copysign(1.0, d)) / abs(d))
    return max(0.0, reach) + PULL_CLEARANCE


def _met(rules: Rules, column: Column, direction, distance: float, room: float) -> list:
    """The columns standing beside `column` (on what it stands on) that it, or the hand
    drawing it, meets on its way `distance` mm along `direction`, the hand straying up to
    `room` mm to either side: [(column, contact)], where `contact` is ("graze", (dx, dz)):
    it is brushed aside by that much as the column slides past (its centre lies off the
    path by more than half the two radii), or ("ahead", mm): it is in the way and would be
    pushed along that far."""
    return _contacts(_beside(rules, column), radius(column.id), direction, distance, room)


def _beside(rules: Rules, column: Column) -> list[tuple[Column, float, float, float]]:
    """The columns standing beside `column`, on what it stands on: (column, its offset
    across, its offset in depth, its radius)."""
    return [
        (other, other.x - column.x, other.z - column.z, radius(other.id))
        for other in rules.columns
        if other.id != column.id
        and other.in_play
        and other.on is None
        and other.level == column.level
    ]


def _contacts(beside: list, r: float, direction, distance: float, room: float) -> list:
    """`_met` for a column of radius `r` among the columns `beside` it (`_beside`)."""
    dx, dz = direction
    met = []
    for other, ox, oz, other_radius in beside:
        along = ox * dx + oz * dz
        across = -ox * dz + oz * dx
        reach = r + other_radius
        # The hand strays towards it by `room`: how far apart the two centres pass.
        apart = max(0.0, abs(across) - room)
        if along <= 0 or along > distance + reach or apart >= reach:
            continue
        if apart >= reach / 2:
            side = math.copysign(1.0, across) if across else 1.0
            brush = reach - apart
            met.append((other, ("graze", (-dz * side * brush, dx * side * brush))))
        else:
            contact = along - math.sqrt(reach * reach - apart * apart)
            met.append((other, ("ahead", max(0.0, distance - max(0.0, contact)))))
    return met


def _displacement(contact) -> float:
    kind, amount = contact
    return math.hypot(*amount) if kind == "graze" else amount


def way_out(rules: Rules, column: Column, above: Platform) -> tuple[tuple[float, float], float]:
    """The way a builder draws the column out from under the platform above: of
    EXIT_DIRECTIONS directions, the one along which it would push its neighbours least
    (judged by eye, with EYE_CLEARANCE of room), then the shortest; and how far the
    column's centre must go until its trailing edge is clear of the platform."""
    best = None
    beside, r = _beside(rules, column), radius(column.id)
    for k in range(EXIT_DIRECTIONS):
        angle = math.tau * k / EXIT_DIRECTIONS
        direction = (round(math.cos(angle), 12), round(math.sin(angle), 12))
        distance = _reach(column, above, direction)
        pushed = dropped = 0.0
        for other, contact in _contacts(beside, r, direction, distance, EYE_CLEARANCE):
            pushed += _displacement(contact)
            if contact[0] == "ahead":
                dropped += _off_its_board(rules, other, direction, contact[1])
        cost = (dropped, round(pushed, 6), distance)
        if best is None or cost < best[0]:
            best = (cost, direction, distance)
    return best[1], best[2]


def pushed_on_the_way_out(rules: Rules, column_id: int, room: float) -> float:
    """How far (mm) drawing the column out by its best way would push its neighbours, with
    `room` mm of a hand's spread to each side (0: a free way out, or nothing above it)."""
    column = rules.columns[column_id]
    level = column.level
    if level >= rules.laid:
        return 0.0
    above = rules.platforms[level]
    if above.x is None or not reaches_under(above, column):
        return 0.0
    direction, distance = way_out(rules, column, above)
    met = _met(rules, column, direction, distance, room)
    return sum(_displacement(contact) for _, contact in met)


def _off_its_board(rules: Rules, column: Column, direction, push: float) -> bool:
    """Whether pushing `column` `push` mm along `direction` would take its centre to
    within its radius of the edge of what it stands on (the base, or its platform)."""
    if column.level == 0:
        cx, cz, half = 0.0, 0.0, HALF_BASE
    else:
        board = rules.platforms[column.level - 1]
        cx, cz, half = board.x, board.z, PLATFORM_LENGTHS[board.index] / 2
    x, z = column.x + push * direction[0], column.z + push * direction[1]
    limit = half - radius(column.id)
    return abs(x - cx) > limit or abs(z - cz) > limit


def reaches_under(platform: Platform, column: Column) -> bool:
    """Whether the column's top reaches under the platform (seen from above)."""
    half = PLATFORM_LENGTHS[platform.index] / 2
    r = radius(column.id)
    return abs(column.x - platform.x) < half + r and abs(column.z - platform.z) < half + r


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
    places = _rest_places(rules)
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
    base_from, base_to = _square_extent(plane, 0.0, 0.0, HALF_BASE)
    scene = Scene(base_from, base_to, BASE_TOP)
    if level > 0:
        under = rules.platforms[level - 1]
        lo, hi = _square_extent(plane, under.x, under.z, PLATFORM_LENGTHS[level - 1] / 2)
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
    lo, hi = _square_extent(plane, above.x, above.z, PLATFORM_LENGTHS[index] / 2)
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
    met = _met(rules, column, (dx, dz), distance, spread(gesture))
    in_the_way = [c for c, contact in met if contact[0] == "ahead"]
    grazed = [(c, contact[1]) for c, contact in met if contact[0] == "graze"]
    met_ids = {c.id for c in in_the_way}
    beside = supports + [c for c in in_the_way if c not in supports]
    for c in beside:
        scene.add(_column_piece(rules, plane, c, role="in_the_way" if c.id in met_ids else ""))
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
    # pin held it at its height instead, so the platform rested on it alone and followed
    # it out (docs/paletti.md, "The grip").
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
    state = {"out": False, "t_out": None, "met": None, "stopped": False, "caught": False}
    rest_y, rest_angle, half_board = platform_body.position.y, platform_body.angle, (hi - lo) / 2

    def settling() -> bool:
        # The platform's edge has gone down by what the fingers feel (FELT_MOVE).
        drop = rest_y - platform_body.position.y
        return drop + abs(platform_body.angle - rest_angle) * half_board > FELT_MOVE

    way = {column_key(c.id): (plane.along(c.x, c.z), start_y) for c in in_the_way}

    def drive(t: float, dt: float) -> bool:
        if state["out"] or state["stopped"] or state["caught"]:
            return False
        if state["met"] is None:
            for body_key, (s0, y0) in way.items():
                position = scene.bodies[body_key].position
                if abs(position.x - s0) + abs(position.y - y0) > FELT_MOVE:
                    state["met"] = t
                    break
        if state["met"] is not None and t >= state["met"] + reaction:
            # The hand felt the neighbour move and stops; it lets go of the column.
            scene.space.remove(pin, hand, steady)
            state["stopped"] = True
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
            state["caught"] = True
            return False
        if t >= duration:
            scene.space.remove(pin, hand, steady)
            scene.remove(key)
            scene.tracking = True
            state["out"] = True
            state["t_out"] = t
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
    if state["caught"] and not run.collapsed:
        # Rule 1 asks the platforms back in their places, and an interrupted build puts
        # the column back where it was taken: nothing has moved.
        return Outcome(frames=frames, steps=run.steps, caught=True)
    if record and state["t_out"] is not None:
        t_out = round(state["t_out"] + FRAME_STEPS * STEP, 3)
        frames.append({"t": t_out, "poses": {key: None}, "side": {key: None}})
        frames.sort(key=lambda f: f["t"])
    column.where = Where.HAND
    if run.collapsed:
        _apply_planar(rules, run, plane, platform_key(index), members, beside)
        kick = _kick(run, plane, platform_key(index), members)
        out = fall(rules, record=record, t0=frames[-1]["t"] if frames else 0.0, kick=kick)
        out.frames = frames + out.frames
        out.steps += run.steps
        return out
    _apply_planar(rules, run, plane, platform_key(index), members, beside)
    # The neighbours it brushed past are pushed aside (in 3-D, across the plane).
    for c, (gx, gz) in grazed:
        c.x, c.z = c.x + gx, c.z + gz
    out = settle_after(
        rules,
        record=record,
        t0=frames[-1]["t"] if frames else 0.0,
        rocked=_rocking(run, plane, platform_key(index))
        | tilting(rules, index, run.tilts.get(platform_key(index)), plane),
    )
    out.frames = frames + out.frames
    out.steps += run.steps
    knocked = [c.id for c in in_the_way if _was_moved(run.tracks.get(column_key(c.id)))]
    knocked += [c.id for c, shift in grazed if math.hypot(*shift) > KNOCK_TOLERANCE]
    if state["stopped"] and not knocked:
        knocked = [c.id for c in in_the_way]
    if out.collapse is None and knocked:
        # The villa stands, but the column or the hand moved another column. Rule 6 of the
        # French record forbids touching another ("ni déplacer les autres colonnes"), so
        # nobody may set it right: as at the table, a knocked column stays where the motion
        # left it, and the statics above have judged the villa with it there. A hand that
        # felt it move and stopped has interrupted the build (the caller puts the column
        # back, "interrompre à tout moment").
        out.knocked = knocked
        out.interrupted = state["stopped"]
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


# A hand that feels a neighbour move (by FELT_MOVE mm) stops after a person's reaction
# time to touch (hands.REACTION_TIME), having gone on at its speed meanwhile: a slow hand
# stops within millimetres, a fast one goes through.
FELT_MOVE = 0.5
# A neighbour moved by more than this (mm, or its height times the tilt) has been moved
# (our estimate of what players at the table would see).
KNOCK_TOLERANCE = 2.0


def _was_moved(track) -> bool:
    if track is None:
        return False
    ds = track.end[0] - track.start[0]
    dy = track.end[1] - track.start[1]
    tilt = abs(track.end[2] - track.start[2]) * COLUMN_HEIGHT
    return max(abs(ds), abs(dy), tilt) > KNOCK_TOLERANCE


def _rocking(run, plane: Plane, key: str) -> dict:
    """How far, beyond where it came to rest, the load's centre swung along the plane
    while the motion went on: {piece: [(dx, dz), ...]} for `settle_after`."""
    excursion = run.excursions.get(key)
    if excursion is None:
        return {}
    low, high, last = excursion
    swings = []
    for swing in (high - last, low - last):
        if abs(swing) > 1e-6:
            swings.append((swing * plane.dx, swing * plane.dz))
    return {key: swings}


def load_height(rules: Rules, piece: str) -> float:
    """How high (mm) the centre of mass of what rests at interface `piece` (a platform's
    assembly, or a column with what is set on it) lies above the surface it rests on."""
    keys = _assembly_keys(rules, piece)
    mass = moment = 0.0
    for key in keys:
        if key[0] == "p":
            m, y = PLATFORM_MASSES[int(key[1:])], platform_y(int(key[1:]))
        else:
            column = rules.columns[int(key[1:])]
            m, y = COLUMNS[column.id].mass, column_bottom(rules, column) + COLUMN_HEIGHT / 2
        mass += m
        moment += m * y
    if piece[0] == "p":
        contact = platform_y(int(piece[1:])) - PLATFORM_THICKNESS / 2
    else:
        contact = column_bottom(rules, rules.columns[int(piece[1:])])
    return moment / mass - contact if mass else 0.0


def tilting(rules: Rules, index: int, tilt: tuple | None, plane: Plane) -> dict:
    """What a tilt of platform `index` during a motion did to everything resting on it:
    {piece: [(dx, dz), ...]}, for every interface above it, how far its load's centre
    moved, relative to what it rests on, at the most the platform turned either way.

    The pieces above a platform ride on it rigidly in the plane's simulation; tilted by an
    angle a, a load whose centre lies h above what it rests on leans h tan(a) off it,
    downhill, as if gravity were tilted by a (a quasi-static reading: our estimate)."""
    if not tilt:
        return {}
    shifts: dict = {}
    # Every piece above that may rest at an interface (`settle_after` checks those that do).
    keys = [platform_key(p.index) for p in rules.platforms if p.x is not None]
    keys = [k for k in keys if int(k[1:]) > index]
    keys += [column_key(c.id) for c in rules.columns if c.in_play and c.level > index]
    for key in keys:
        height = load_height(rules, key)
        for angle in tilt:
            if abs(angle) < 1e-6:
                continue
            # A turn by +a (counter-clockwise in the plane) moves what is above towards -s.
            lean = -height * math.tan(angle)
            shifts.setdefault(key, []).append((lean * plane.dx, lean * plane.dz))
    return shifts


def _apply_planar(rules, run, plane: Plane, platform: str, members, supports) -> None:
    """Move the pieces to where the run left them, along the plane: the platform's
    assembly rigidly, each support by its own shift. At rest they stand upright again."""
    track = run.tracks.get(platform)
    if track is not None:
        shift = track.end[0] - track.start[0]
        for key, _, _ in members:
            piece = _piece(rules, key)
            piece.x, piece.z = plane.to_world(0.0, shift, piece.x, piece.z)
    for c in supports:
        track = run.tracks.get(column_key(c.id))
        if track is None:
            continue
        shift = track.end[0] - track.start[0]
        c.x, c.z = plane.to_world(0.0, shift, c.x, c.z)


def _kick(run, plane: Plane, platform: str, members) -> dict:
    velocities = {}
    for key, track in run.tracks.items():
        velocities[key] = track.velocity
    platform_velocity = velocities.get(platform)
    if platform_velocity is not None:
        for key, _, _ in members:
            velocities[key] = platform_velocity
    sign = run.sign or 1.0
    return {
        "plane": plane,
        "velocities": velocities,
        "piece": run.piece,
        "reason": run.reason,
        "direction": (plane.dx * sign, plane.dz * sign),
    }


def _piece(rules: Rules, key: str) -> Column | Platform:
    if key[0] == "c":
        return rules.columns[int(key[1:])]
    return rules.platforms[int(key[1:])]


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


# -- a placement ---------------------------------------------------------------------------


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
    places = _rest_places(rules)
    # The plane: the way the top platform would tip with the column on it, across the edge
    # of its supports' hull nearest its loaded centre. There the plane's supports end where
    # the 3-D hull does, so a jolt can tip the platform as it would tip the wooden one.
    dx, dz = _tipping_way(rules, top, x - platform.x, z - platform.z)
    plane = Plane(platform.x, platform.z, dx, dz)
    base_from, base_to = _square_extent(plane, 0.0, 0.0, HALF_BASE)
    scene = Scene(base_from, base_to, BASE_TOP)
    level = top  # the top platform's supports stand at this level
    if level > 0:
        under = rules.platforms[level - 1]
        lo, hi = _square_extent(plane, under.x, under.z, PLATFORM_LENGTHS[level - 1] / 2)
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
    lo, hi = _square_extent(plane, platform.x, platform.z, PLATFORM_LENGTHS[top] / 2)
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
        scene.add(_column_piece(rules, plane, c))
    for c in stack:
        scene.add(_column_piece(rules, plane, c, stack_depth=_stack_depth(rules, c)))
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
        _apply_planar(rules, run, plane, platform_key(top), members, moved)
        kick = _kick(run, plane, platform_key(top), members)
        # The collapse is told by what gave way in the villa, not by the column that
        # came down first.
        kick["reason"], kick["piece"] = failed[0], failed[1]
        kick["direction"] = (plane.dx * failed[2], plane.dz * failed[2])
        out = fall(rules, record=record, t0=frames[-1]["t"] if frames else t0, kick=kick)
        out.frames = frames + out.frames
        out.steps += run.steps
        return out
    _apply_planar(rules, run, plane, platform_key(top), members, moved)
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
    swings = [s for s in _rocking(run, plane, key).get(key, []) if math.hypot(*s) > COLLISION_SLOP]
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
