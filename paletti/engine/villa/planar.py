"""A motion in a vertical plane (motion.py) and what it leaves: the frames the page draws,
the pieces as the plane sees them, where the run moved them, how fast they went as the
villa gave way, and the `Outcome` of a motion."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..motion import Piece, Plane
from ..pieces import COLUMN_HEIGHT, COLUMNS
from .places import column_bottom, column_key, radius

if TYPE_CHECKING:
    # Types only: the rules import the villa.
    from ..rules.state import Column, Platform, Rules


# How long a pull or a placement is simulated (s), the hand's motion included.
SETTLE_TIME = 2.0
# What the page draws: mm to 0.1, radians to 0.001.
POS_SCALE = 10.0
ANGLE_SCALE = 1000.0


def q(value: float, scale: float) -> float:
    """A value rounded as the page draws it (`scale`: POS_SCALE or ANGLE_SCALE)."""
    return round(value * scale) / scale


@dataclass
class Collapsed:
    """How the villa came down: why (`reason`: "tipped" by the statics, "rocked" past its
    balance, or what gave way during a motion), the piece that gave way ("p<index>" or
    "c<id>"), the way it fell (statics.tip_direction_name) and, where the statics found the
    weakest interface, its margin (mm)."""

    reason: str | None
    piece: str | None
    direction: str
    margin: float | None


@dataclass
class Kick:
    """How a motion left the villa as it gave way, for `fall` to go on from: its plane, each
    body's velocity (vs, vy, w), the piece that gave way, why, and the way (dx, dz) it
    went."""

    plane: Plane
    velocities: dict
    piece: str | None
    reason: str | None
    direction: tuple[float, float]


@dataclass
class Outcome:
    """What a motion did: frames to draw, and the collapse if the villa came down."""

    frames: list = field(default_factory=list)
    steps: int = 0
    collapse: Collapsed | None = None
    # A placed column that fell over or off by itself while the villa stood.
    fell_alone: bool = False
    # The columns a pull moved on its way out while the villa stood (they stay moved).
    knocked: list = field(default_factory=list)
    # A pull the hand stopped on feeling a neighbour move: the column is not out.
    interrupted: bool = False
    # A pull the builder interrupted: the platform above came to rest on the steadying
    # hand, so the column was pushed back under it (everything is back in its place).
    caught: bool = False


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


def square_extent(plane: Plane, x: float, z: float, half: float) -> tuple[float, float]:
    """Where a square piece centred at (x, z), `half` its side, begins and ends along the
    plane."""
    s = plane.along(x, z)
    reach = half * (abs(plane.dx) + abs(plane.dz))
    return s - reach, s + reach


def column_piece(rules: Rules, plane: Plane, column: Column, **extra) -> Piece:
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


def apply_planar(
    rules: Rules, run, plane: Plane, platform: str, members: list, supports: list[Column]
) -> None:
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


def kick_from(run, plane: Plane, platform: str, members: list) -> Kick:
    """The villa as a run left it giving way: every body's velocity, the platform's
    assembly moving with the platform."""
    velocities = {}
    for key, track in run.tracks.items():
        velocities[key] = track.velocity
    platform_velocity = velocities.get(platform)
    if platform_velocity is not None:
        for key, _, _ in members:
            velocities[key] = platform_velocity
    sign = run.sign or 1.0
    return Kick(
        plane=plane,
        velocities=velocities,
        piece=run.piece,
        reason=run.reason,
        direction=(plane.dx * sign, plane.dz * sign),
    )


def _piece(rules: Rules, key: str) -> Column | Platform:
    if key[0] == "c":
        return rules.columns[int(key[1:])]
    return rules.platforms[int(key[1:])]
