"""A fall: the villa comes down, simulated in the vertical plane it tips in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import statics
from ..motion import Piece, Plane, Scene
from ..pieces import COLUMNS, PLATFORM_LENGTHS, PLATFORM_MASSES, PLATFORM_THICKNESS
from .places import (
    BASE_TOP,
    HALF_BASE,
    analyse,
    assembly_keys,
    column_key,
    platform_key,
    platform_y,
    rest_places,
    stack_depth,
)
from .planar import Collapsed, Kick, Outcome, column_piece, frames_from, square_extent

if TYPE_CHECKING:
    # Types only: the rules import the villa.
    from ..rules.state import Rules


# How long a fall is simulated (s).
FALL_TIME = 6.0
# A fall starts with this angular speed in the direction it tips (rad/s), so that a villa
# whose load lies just past the edge of its supports does not balance in the simulation.
FALL_NUDGE = 0.5


def fall(
    rules: Rules,
    *,
    record: bool,
    t0: float = 0.0,
    kick: Kick | None = None,
    swing: tuple | None = None,
) -> Outcome:
    """The villa comes down: simulated in the vertical plane through the part that gave
    way, along the way it tips. The pieces' final places are written into the rules.

    `kick`: the villa as the motion during which it gave way left it (its plane and every
    body's velocity) to start from; otherwise the statics' weakest interface gives the
    plane (`swing`: (piece, way) for a load that swung past its balance)."""
    stability = analyse(rules)
    weakest = stability.weakest
    if kick is not None:
        plane = kick.plane
        velocities = kick.velocities
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
    base_from, base_to = square_extent(plane, 0.0, 0.0, HALF_BASE)
    scene = Scene(base_from, base_to, BASE_TOP)
    in_play = [c for c in rules.columns if c.in_play]
    failing_keys = set()
    if failing is not None:
        failing_keys = assembly_keys(rules, failing.piece)
    for platform in rules.platforms:
        if platform.x is None:
            continue
        key = platform_key(platform.index)
        lo, hi = square_extent(plane, platform.x, platform.z, PLATFORM_LENGTHS[platform.index] / 2)
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
        piece = column_piece(rules, plane, column, stack_depth=stack_depth(rules, column))
        _start_moving(piece, key, velocities, failing_keys)
        scene.add(piece)
    run = scene.run(FALL_TIME, record=record)
    places = rest_places(rules)
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
    piece = failing.piece if failing is not None else kick.piece
    direction = (plane.dx, plane.dz) if kick is None else kick.direction
    direction = _way_fallen(rules, run, plane, direction)
    collapse = Collapsed(
        reason=kick.reason if kick else ("rocked" if swing else "tipped"),
        piece=piece,
        direction=statics.tip_direction_name(direction),
        margin=round(weakest.margin, 1) if weakest is not None else None,
    )
    return Outcome(frames, run.steps, collapse)


# A fall whose top moved less than this (mm) along its plane, less than the drawings show
# plainly, is named by the top's lean instead.
FALLEN_WAY_MIN = 10.0
# A lean the drawings show plainly (rad, about 6°).
FALLEN_LEAN_MIN = 0.1


def _way_fallen(rules: Rules, run, plane: Plane, started: tuple) -> tuple[float, float]:
    """The way (dx, dz) the villa went down, as the drawings show it, along the plane:
    the way the top platform and what stands on it moved (their mass-weighted shift); if
    they hardly moved, the way the top platform came to lean; if it stayed level, the way
    everything that fell moved. What started the fall (the statics' tipping way, a
    motion's sign) need not be it: in the plane a tipping assembly may go over the other
    edge, and a platform pushed one way may tip the other. Only when nothing shows a way
    is the starting way kept."""
    laid = [p.index for p in rules.platforms if p.x is not None]
    if not laid:
        return started
    top = max(laid)
    parts = [(platform_key(top), PLATFORM_MASSES[top])]
    parts += [
        (column_key(c.id), COLUMNS[c.id].mass) for c in rules.columns if c.in_play and c.level > top
    ]
    shift = _mean_shift(run, parts)
    if shift is None or abs(shift) < FALLEN_WAY_MIN:
        shift = None
        track = run.tracks.get(platform_key(top))
        lean = track.end[2] - track.start[2] if track is not None else 0.0
        if abs(lean) >= FALLEN_LEAN_MIN:
            # A clockwise turn in the (s, y) plane (a negative angle) leans towards +s.
            shift = -lean
        else:
            everything = [(key, _mass(key)) for key in run.tracks]
            shift = _mean_shift(run, everything)
            if shift is not None and abs(shift) < FALLEN_WAY_MIN:
                shift = None
    if shift is None:
        return started
    sign = 1.0 if shift > 0 else -1.0
    return plane.dx * sign, plane.dz * sign


def _mean_shift(run, parts) -> float | None:
    """The mass-weighted shift along the plane (mm) of the parts simulated in `run`."""
    mass = moved = 0.0
    for key, m in parts:
        track = run.tracks.get(key)
        if track is not None:
            mass += m
            moved += m * (track.end[0] - track.start[0])
    return moved / mass if mass else None


def _mass(key: str) -> float:
    if key.startswith("p"):
        return PLATFORM_MASSES[int(key[1:])]
    return COLUMNS[int(key[1:])].mass


def _start_moving(piece: Piece, key: str, velocities: dict, failing: set) -> None:
    if key in velocities:
        vs, vy, w = velocities[key]
        piece.velocity = (vs, vy)
        piece.angular_velocity = w
    elif key in failing:
        # Tip towards +s: a clockwise turn in the (s, y) plane.
        piece.angular_velocity = -FALL_NUDGE
