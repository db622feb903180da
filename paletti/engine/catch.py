"""The steadying hand's catch (rule 1 of the French record; docs/paletti.md, "The hand").

A careful builder steadies the platform above the column with the other hand. When the
villa turns out to need the column (3-D statics), the platform and all it carries start to
turn about the edge of the supports left to it, the one nearest their loaded centre. The
fingers resting on it feel it go and respond after the builder's reaction time: if by then
the platform has not turned as far as we read a collapse, they set it back and the builder
interrupts the build. Until they respond they hold it only as much as they steady it
(`hands.steadying_force`), so a well-steadied platform turns slowly.

How fast it turns is the rigid assembly's rotation about that edge under gravity: its
weight acts at the loaded centre, the torque growing as the centre, which lies above the
edge, swings outwards; the steadying fingers, at the middle of the platform they hold,
resist with at most their steadying force. This is a rigid-body estimate in the vertical
plane the assembly tips in, integrated in small time steps: a load whose centre lies a few
millimetres past the edge turns a degree or two in a reaction time, one that lies
centimetres past it (a platform left on a line of two columns) turns past the collapse
before any hand can respond. Nothing here depends on the column's weight alone: a heavily
loaded column is one whose loss leaves the centre far past the edge more often.
"""

import math

from .motion import GRAVITY, MAX_PLATFORM_TILT
from .statics import Interface

# A rigid part: (mass g, x, z, y mm, its own moment of inertia per unit mass, mm2, about a
# horizontal axis through its centre).
Part = tuple[float, float, float, float, float]

# Time step (s) of the integration: a thousandth of the shortest reaction time we draw.
TIME_STEP = 1.0e-4


def turned_by(
    parts: list[Part],
    failing: Interface,
    edge_y: float,
    hand: tuple,
    held_force: float,
    time: float,
) -> float:
    """How far (rad) an assembly of rigid `parts` whose interface `failing` gives way turns
    in `time` s about the edge of its supports nearest its loaded centre (at height
    `edge_y`), the steadying fingers at `hand` (x, z, y) resisting with at most `held_force`
    (g mm/s2). Infinite if it rests on nothing."""
    if failing.direction is None:
        return 0.0
    if not failing.region or not math.isfinite(failing.margin):
        return math.inf
    dx, dz = failing.direction
    past = -failing.margin
    # The edge: the nearest point of the supports' hull, at the height of their tops.
    ex, ez = failing.centre[0] - past * dx, failing.centre[1] - past * dz
    weight_arm = [0.0, 0.0]  # sum of m d and of m y: the weight's lever at 0 rad
    inertia = 0.0
    for mass, x, z, y, own in parts:
        d = (x - ex) * dx + (z - ez) * dz
        h = y - edge_y
        weight_arm[0] += mass * d
        weight_arm[1] += mass * h
        inertia += mass * (d * d + h * h + own)
    hand_arm = math.hypot((hand[0] - ex) * dx + (hand[1] - ez) * dz, hand[2] - edge_y)
    angle = speed = 0.0
    elapsed = 0.0
    while elapsed < time and angle < MAX_PLATFORM_TILT:
        lever = weight_arm[0] * math.cos(angle) + weight_arm[1] * math.sin(angle)
        torque = max(0.0, GRAVITY * lever - held_force * hand_arm)
        speed += torque / inertia * TIME_STEP
        angle += speed * TIME_STEP
        elapsed += TIME_STEP
    return angle
