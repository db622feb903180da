"""After a change or a motion: the statics decide whether the villa stands, and a load that
swung past its balance during the motion tips though it would stand where it came to rest."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..motion import Plane
from .fall import fall
from .places import analyse, column_key, load_height, platform_key
from .planar import Outcome

if TYPE_CHECKING:
    # Types only: the rules import the villa.
    from ..rules.state import Rules


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


def rocking(run, plane: Plane, key: str) -> dict:
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
