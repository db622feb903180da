"""The villa as the rules state records it, and what happens to it: statics at rest,
pymunk in motion.

An action that moves something calls one of `pull`, `place`, `settle_after`: pymunk
simulates the motion in its plane (motion.py), the new places are read off it, and
`statics.analyse` decides whether the villa now stands. If it does not, `fall` simulates
the fall in the plane it tips in, from the part that gave way.

Modules, by motion: `places` (the villa at rest: places, keys, heights, drawn poses, the
statics' view), `planar` (a motion in a plane: frames, what it moved, `Outcome`), `fall`,
`settle` (whether the villa stands after a motion), `way_out` (the way a column is drawn
out), `pull` and `place`. Import the villa as a whole (`from paletti.engine import villa`,
`villa.pull(...)`); the names below are its public face.
"""

from ..motion import Plane
from .fall import fall
from .place import place
from .places import (
    BASE_TOP,
    TABLE_TOP,
    analyse,
    column_bottom,
    column_key,
    column_load,
    platform_key,
    platform_y,
    radius,
    reaches_under,
    sync_rest,
)
from .planar import Collapsed, Outcome, frames_from
from .pull import KNOCK_TOLERANCE, pull
from .settle import settle_after, tilting
from .way_out import EYE_CLEARANCE, pushed_on_the_way_out, way_out

__all__ = [
    "BASE_TOP",
    "EYE_CLEARANCE",
    "KNOCK_TOLERANCE",
    "TABLE_TOP",
    "Collapsed",
    "Outcome",
    "Plane",
    "analyse",
    "column_bottom",
    "column_key",
    "column_load",
    "fall",
    "frames_from",
    "place",
    "platform_key",
    "platform_y",
    "pull",
    "pushed_on_the_way_out",
    "radius",
    "reaches_under",
    "settle_after",
    "sync_rest",
    "tilting",
    "way_out",
]
