"""The way out a builder draws a column along, judged by eye: the direction that moves its
neighbours least, how far it must go, and whom it meets on the way."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..hands import PULL_CLEARANCE
from ..pieces import PLATFORM_LENGTHS
from .places import HALF_BASE, radius, reaches_under

if TYPE_CHECKING:
    # Types only: the rules import the villa.
    from ..rules.state import Column, Platform, Rules


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


def meets(rules: Rules, column: Column, direction, distance: float, room: float) -> list:
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
    """`meets` for a column of radius `r` among the columns `beside` it (`_beside`)."""
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
    met = meets(rules, column, direction, distance, room)
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
