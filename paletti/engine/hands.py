"""The player's hand: how a pull or a placement is executed (docs/paletti.md, "The hand").

A pull is simulated, not scripted: the hand draws the column out towards the nearer edge
of the base at the pull's speed. The column keeps its weight and rubs the platform above it
(and what it stands on) with ordinary friction, so it drags what it carries in proportion to
the load, for as long as it is under it: a quick pull drags for less time than a slow one.
An unsteady hand jerks and grips the column off its middle, which tips it as it goes, and a
tipped column lifts what it carries. While pulled, the column passes the other columns of
its lane (it is drawn out in depth as much as sideways) but touches the platforms.

A placement sets the column down at the aimed spot with a downward speed (a gentle hand
puts it down slowly) and a tilt that grows as the hand is less steady.

Every random part (the shape of a shaky hand's wobble) is drawn from a generator seeded by
the match and the action's number, so the same action always gives the same result. The
amplitudes below are our estimates, tuned so that careless pulls of loaded columns bring
villas down in self-play while careful ones mostly do not.
"""

import math
import random
from dataclasses import dataclass

import pymunk

from .physics import SOLID_CATEGORY
from .pieces import COLUMN_HEIGHT, COLUMNS, PLATFORM_LENGTHS

# Pull speed (mm/s): range accepted and default (a calm pull takes about a second).
PULL_SPEED_MIN = 20.0
PULL_SPEED_MAX = 500.0
PULL_SPEED_DEFAULT = 120.0
# Placement speed (mm/s), downward, when the column meets what it is set on.
PLACE_SPEED_MIN = 0.0
PLACE_SPEED_MAX = 500.0
PLACE_SPEED_DEFAULT = 40.0
# Steadiness: 1 is a perfectly steady hand, 0 a very shaky one.
STEADINESS_DEFAULT = 0.8
# The hand grips the column at its middle, or, less steady, up to GRIP_OFFSET mm above or
# below it: pulling off-centre tips the column, and a tipped column lifts what it carries
# (its diagonal is longer than its height). Estimate.
GRIP_OFFSET = 20.0
# A jerky hand: the pull's speed varies by up to this fraction (1 - steadiness) of itself.
JERK = 0.8
# Most force (g mm/s2) a hand's fingers pull a column with: about 3 N (estimate), far
# above the friction of any column in the villa, so a pull always gets the column out.
GRIP_FORCE = 3.0e6
# Wobble frequencies of a hand (Hz): a hand's tremor lies around 4-12 Hz (estimate).
WOBBLE_FREQUENCIES = (3.0, 7.0)
# Placement: tilt (rad) of a column set down by a hand of steadiness 0 (estimate).
PLACE_TILT = math.radians(3.0)
# The pulled column is lifted away once its inner edge is this far beyond the end of the
# platform above it (mm).
PULL_CLEARANCE = 2.0


@dataclass(frozen=True)
class Gesture:
    """How a hand executes a pull or a placement: speed (mm/s) and steadiness (0-1)."""

    speed: float
    steadiness: float


def wobble(rng: random.Random) -> tuple[float, float, float]:
    """A hand's chance for one action: where it grips (-1 below .. 1 above the middle) and
    the phases of its jerks, drawn from the action's generator."""
    return (rng.uniform(-1.0, 1.0), rng.uniform(0.0, math.tau), rng.uniform(0.0, math.tau))


# What a bot looking ahead assumes of its own hand: a grip halfway off-centre.
FORESEEN_WOBBLE = (0.5, 0.0, 0.0)


class PullDriver:
    """Drives a pulled column out of the villa, frame by frame, inside World.settle.

    The hand is a kinematic body moving sideways; a groove joint ties the column's grip
    point to a vertical line through the hand, so the hand sets where the column goes
    sideways while the column keeps its weight, rests on what is below it and bears what
    is above it. Friction does the rest.
    """

    def __init__(
        self,
        space: pymunk.Space,
        body: pymunk.Body,
        key: str,
        column_id: int,
        gesture: Gesture,
        chance: tuple[float, float, float],
        above_end: float | None = None,
    ):
        """`above_end`: the world x of the end of the platform above the column (on the
        side it is pulled towards), None if nothing is above it. Once the column is clear
        of it, it carries nothing and the hand lifts it away."""
        self.space = space
        self.body = body
        self.key = key
        x, y = body.position
        self.direction = 1.0 if x >= 0 else -1.0
        width = COLUMNS[column_id].width
        self.start_x = x
        if above_end is None:
            self.end_x = x
        else:
            self.end_x = above_end + self.direction * (width / 2 + PULL_CLEARANCE)
            if (self.end_x - x) * self.direction < 0:
                self.end_x = x
        self.speed = gesture.speed
        self.duration = abs(self.end_x - x) / gesture.speed
        unsteady = 1.0 - gesture.steadiness
        grip_side, phase1, phase2 = chance
        self.jerk = JERK * unsteady
        self.phases = (phase1, phase2)
        grip = GRIP_OFFSET * unsteady * grip_side
        self.hand = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        self.hand.position = body.local_to_world((0.0, grip))
        self.joint = pymunk.GrooveJoint(
            self.hand, body, (0.0, -COLUMN_HEIGHT * 4), (0.0, COLUMN_HEIGHT * 4), (0.0, grip)
        )
        self.joint.max_force = GRIP_FORCE
        body.activate()
        # Drawn out in depth as much as sideways: it passes its lane's other columns.
        for shape in body.shapes:
            category = shape.filter.categories
            shape.filter = pymunk.ShapeFilter(categories=category, mask=SOLID_CATEGORY)
        space.add(self.hand, self.joint)

    def hand_x(self, t: float) -> float:
        """Where the hand is at time t of the pull (jerks average out over a period)."""
        t = min(t, self.duration)
        f1, f2 = WOBBLE_FREQUENCIES
        p1, p2 = self.phases
        # Integral of speed * (1 + jerk * (0.6 sin(w1 t + p1) + 0.4 sin(w2 t + p2))).
        w1, w2 = math.tau * f1, math.tau * f2
        wobble = 0.6 * (math.cos(p1) - math.cos(w1 * t + p1)) / w1
        wobble += 0.4 * (math.cos(p2) - math.cos(w2 * t + p2)) / w2
        return self.start_x + self.direction * self.speed * (t + self.jerk * wobble)

    def advance(self, t: float, dt: float) -> bool:
        """Set the hand's velocity for the frame [t, t + dt]; False once the column is out."""
        if t >= self.duration:
            return False
        target = self.hand_x(t + dt)
        self.hand.velocity = ((target - self.hand.position.x) / dt, 0.0)
        return True

    def release(self) -> None:
        """Take the hand out of the space (the column is taken out by the world)."""
        self.space.remove(self.joint, self.hand)


def platform_end(body: pymunk.Body, index: int, direction: float) -> float:
    """World x of a platform's end on one side (direction -1 left, 1 right)."""
    return body.local_to_world((direction * PLATFORM_LENGTHS[index] / 2, 0.0)).x


def place_tilt(gesture: Gesture, rng: random.Random) -> float:
    """The tilt (rad) a hand gives a column as it sets it down."""
    return rng.gauss(0.0, PLACE_TILT * (1.0 - gesture.steadiness))
