"""The player's hand: how a pull or a placement is executed (docs/paletti.md, "The hand").

A hand has a speed and a steadiness (0-1). In our model its skill shows in three ways, each
a physical effect that pymunk simulates (motion.py) and each growing with speed and with
unsteadiness, as a person's aim does (the faster a movement, the larger its spread):

- **Pull.** The fingers grip the column from the side (at its middle or, less steady, above
  or below it) and draw it out towards the nearest edge of the platform above. They drive it
  along but neither prop it up nor press it down: it stays on its floor and bears its share
  of the platform until it is out. The hand's path jerks along, by amounts that grow with its
  speed and unsteadiness. A column gripped off its middle tips as friction holds its ends,
  and its diagonal, longer than its height, lifts the platform; friction drags the platform
  as long as the column slides under it.
- **The way out.** The column goes out the way the builder's eye finds freest; it and the
  hand stray to either side as far as the hand wavers, so a hurried hand meets neighbours a
  careful one passes. A hand that feels one move stops after a person's reaction time; a
  build that moved another column has failed (rule 6 of the French record).
- **Steadying (rule 1 of the French record).** The builder may steady, even slightly lift,
  the platforms with the other hand while a column is pulled out. The second hand is used
  in proportion to care: a careful builder holds the platform still while drawing the
  column out, and if the villa turns out to need the column, feels the platform start to
  go and, if it has not gone too far by the time the fingers respond (catch.py), sets it
  right and puts the column back (an interrupted build); a hurried one pulls with one
  hand.
- **Placement.** The column is set down at the aimed spot, off by a small error, tilted by a
  small angle, at a downward speed: a hurried, unsteady hand misses its spot further and
  sets the column down harder and more askew, so it can rock, skid or fall over, and jolt
  the platform it lands on: the hand does not stop the instant the column touches, and its
  own momentum goes into the platform through the column (HAND_MASS). Struck outside the
  hull of its supports, a platform near its balance tips. The French record forbids
  steadying then (rule 2): nothing holds the platforms.

Every random part is drawn from a generator seeded by the match and the action's number, so
the same action on the same villa always gives the same result. Every amplitude below is
our estimate.
"""

import math
import random
from dataclasses import dataclass

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

# Pull. The grip lies up to GRIP_OFFSET mm above or below the column's middle, times
# (1 - steadiness). Estimate.
GRIP_OFFSET = 20.0
# The hand's waver while pulling (mm), to either side of its way: amplitude = WAVER *
# speed (mm/s) * (1 - steadiness) (the spread of a quick aimed movement grows in proportion
# to its speed: Schmidt's law of motor control). Estimate: a careless pull at 400 mm/s with
# steadiness 0.5 wavers about 10 mm; a careful one at 50 mm/s and 0.97, 0.08 mm.
WAVER = 0.05
# Jerks along the pull: its speed varies by up to this fraction of itself, times
# (1 - steadiness). Estimate.
JERK = 0.8
# Frequencies of a hand's jerks (Hz), within a hand's usual 3-12 Hz tremor band.
WOBBLE_FREQUENCIES = (3.0, 7.0)
# Most force the fingers pull with (g mm/s2): about 3 N, far above any column's friction.
GRIP_FORCE = 3.0e6
# The steadying hand holds the platform above with at most this fraction of the weight it
# carries, times care squared, care = (steadiness - 0.5) / 0.5 clipped to 0-1 (estimate: a
# careful builder's fingertips hold the board nearly still; a hurried one uses one hand).
STEADYING = 0.6
# A person's reaction time to touch (s): a hand that feels a neighbour move stops after it,
# and the steadying fingers respond to a platform that starts to go after it (estimate:
# simple reaction times to a touch are about 0.15 s). It varies from one pull to the next:
# the median times a log-normal factor of spread REACTION_SPREAD (estimate: about a fifth
# either way).
REACTION_TIME = 0.15
REACTION_SPREAD = 0.2
# The pulled column is lifted away once its trailing edge is this far past the platform
# above (mm).
PULL_CLEARANCE = 2.0

# Placement. Aim error (mm, standard deviation) = PLACE_AIM * (1 - steadiness) *
# (1 + speed / PLACE_SPEED_SCALE); tilt (rad) likewise from PLACE_TILT. Estimates.
PLACE_AIM = 1.5
PLACE_TILT = math.radians(3.0)
PLACE_SPEED_SCALE = 100.0
# The hand does not stop the instant the column touches: the fingers and hand that carry it
# down meet what it lands on with it, and their momentum goes into the platform through the
# column until the hand has stopped; then it lets go. Effective mass of the hand behind the
# fingertips (g): an estimate between the fingers alone (20-30 g) and a whole hand (about
# 400 g for an adult, 0.6 % of the body); the fingers hold the column with at most
# GRIP_FORCE, and slip beyond it. A hurried hand (400 mm/s) brings 0.1 kg x 0.4 m/s = 0.04
# N s: against a platform and its load of 100-300 g, struck outside the hull of its
# supports, enough to tip one whose loaded centre lies a few millimetres inside that hull.
# A gentle one (40 mm/s) brings a tenth of the momentum and a hundredth of the energy. A
# column alone (5.6-16 g) at 0.4 m/s brings 2-6 g m/s and turns such a platform by a
# fraction of a degree: without the hand, hurried and gentle placements tipped alike.
HAND_MASS = 100.0


@dataclass(frozen=True)
class Gesture:
    """How a hand executes a pull or a placement: speed (mm/s) and steadiness (0-1)."""

    speed: float
    steadiness: float


@dataclass(frozen=True)
class Chance:
    """The hand's dice for one action: where it grips (-1 below .. 1 above the middle),
    the phases of its jerks, the placement's unit errors (aim across and in
    depth, tilt), and how quickly the builder reacts this time (a factor on the reaction
    time, median 1)."""

    grip: float
    phases: tuple[float, float]
    aim: tuple[float, float]
    tilt: float
    reaction: float = 1.0

    @classmethod
    def draw(cls, rng: random.Random) -> "Chance":
        grip = rng.uniform(-1.0, 1.0)
        phases = (rng.uniform(0, math.tau), rng.uniform(0, math.tau))
        aim = (rng.gauss(0.0, 1.0), rng.gauss(0.0, 1.0))
        tilt = rng.gauss(0.0, 1.0)
        return cls(grip, phases, aim, tilt, math.exp(REACTION_SPREAD * rng.gauss(0.0, 1.0)))


# What a bot looking ahead assumes of its own hand: a grip halfway off-centre, jerks from
# their start, a placement on its aim, a usual reaction time.
FORESEEN = Chance(0.5, (0.0, 0.0), (0.0, 0.0), 0.0)


def pull_path(gesture: Gesture, chance: Chance, distance: float):
    """The hand's path for a pull of `distance` mm: (duration, position(t) -> along), how
    far (mm) the hand has gone at time t."""
    speed = gesture.speed
    jerk = JERK * (1.0 - gesture.steadiness)
    f1, f2 = WOBBLE_FREQUENCIES
    p1, p2 = chance.phases
    w1, w2 = math.tau * f1, math.tau * f2
    duration = distance / speed

    def position(t: float) -> float:
        t = min(t, duration)
        # Integral of speed * (1 + jerk * (0.6 sin(w1 t + p1) + 0.4 sin(w2 t + p2))).
        wobble = 0.6 * (math.cos(p1) - math.cos(w1 * t + p1)) / w1
        wobble += 0.4 * (math.cos(p2) - math.cos(w2 * t + p2)) / w2
        return speed * (t + jerk * wobble)

    return duration, position


def spread(gesture: Gesture) -> float:
    """How far (mm) the hand and the column it draws stray to either side of their path."""
    return WAVER * gesture.speed * (1.0 - gesture.steadiness)


def grip_offset(gesture: Gesture, chance: Chance) -> float:
    """Where the hand grips the column, mm above (+) or below its middle."""
    return GRIP_OFFSET * (1.0 - gesture.steadiness) * chance.grip


def _care(gesture: Gesture) -> float:
    """How much the builder uses the second hand: 0 at a steadiness of 0.5 or less (one
    hand), 1 for a perfectly steady hand."""
    return min(1.0, max(0.0, (gesture.steadiness - 0.5) / 0.5))


def steadying_force(gesture: Gesture, carried_mass: float) -> float:
    """Most force (g mm/s2) the second hand holds the platform above with (rule 1)."""
    return STEADYING * _care(gesture) ** 2 * carried_mass * 9810.0


def reaction_time(chance: Chance) -> float:
    """How long (s) this builder takes to respond to what they feel, this time."""
    return REACTION_TIME * chance.reaction


def placement_error(gesture: Gesture, chance: Chance) -> tuple[float, float, float]:
    """(error across, error in depth, tilt): where and how askew the column lands."""
    scale = (1.0 - gesture.steadiness) * (1.0 + gesture.speed / PLACE_SPEED_SCALE)
    return (
        PLACE_AIM * scale * chance.aim[0],
        PLACE_AIM * scale * chance.aim[1],
        PLACE_TILT * scale * chance.tilt,
    )
