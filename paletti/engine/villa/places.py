"""The villa at rest, as the rules state records it: every piece's place, the keys the
frames name pieces by, the heights that follow from the stack, the drawn poses, and the
villa as the 3-D statics see it.

A column's foot stands at a 2-D point (`x`, `z`) on what carries it (`level` platforms
below it, or `on` another column, on red), a platform's centre at (`x`, `z`). At rest every
column stands upright and every platform lies level, so heights follow from the stack
(`column_bottom`, `platform_y`). That is the whole stored truth: no solver, no contact
history, so a villa reloaded from the store is the villa."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import statics
from ..pieces import (
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
    # Types only: the rules import the villa.
    from ..rules.state import Column, Platform, Rules


# Heights (mm, y up): the table, the base's top, one storey (a column and a platform).
TABLE_TOP = 0.0
BASE_TOP = TABLE_TOP + BASE_THICKNESS
STOREY = COLUMN_HEIGHT + PLATFORM_THICKNESS
HALF_BASE = BASE_LENGTH / 2


def column_key(column_id: int) -> str:
    """A column's name in the frames and the statics ("c<id>")."""
    return f"c{column_id}"


def platform_key(index: int) -> str:
    """A platform's name in the frames and the statics ("p<index>", 0 = blue)."""
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
    """Half a column's width: the radius of its foot."""
    return COLUMNS[column_id].width / 2


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


def pieces_of(
    rules: Rules, without: set[int] = frozenset()
) -> tuple[list[statics.Column], list[statics.Platform]]:
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
    """Whether the villa stands, in 3-D (statics.analyse), the columns `without` left out."""
    return statics.analyse(*pieces_of(rules, without))


def column_load(rules: Rules, column_id: int) -> float:
    """The weight (g) pressing on a column's top, in 3-D."""
    return analyse(rules).loads.get(column_id, 0.0)


def reaches_under(platform: Platform, column: Column) -> bool:
    """Whether the column's top reaches under the platform (seen from above)."""
    half = PLATFORM_LENGTHS[platform.index] / 2
    r = radius(column.id)
    return abs(column.x - platform.x) < half + r and abs(column.z - platform.z) < half + r


def rest_places(rules: Rules) -> dict:
    """Every piece's (x, z) where it rests, by key, for the frames of a motion (a column
    in the hand where it was taken from)."""
    places = {}
    for c in rules.columns:
        if c.in_play or c.where == Where.HAND:
            places[column_key(c.id)] = (c.x, c.z)
    for p in rules.platforms:
        if p.x is not None:
            places[platform_key(p.index)] = (p.x, p.z)
    return places


def assembly_keys(rules: Rules, piece: str) -> set[str]:
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


def stack_depth(rules: Rules, column: Column) -> int:
    """How many columns a column stands on (on red; 0 elsewhere)."""
    depth = 0
    while column.on is not None:
        depth += 1
        column = rules.columns[column.on]
    return depth


def load_height(rules: Rules, piece: str) -> float:
    """How high (mm) the centre of mass of what rests at interface `piece` (a platform's
    assembly, or a column with what is set on it) lies above the surface it rests on."""
    keys = assembly_keys(rules, piece)
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
