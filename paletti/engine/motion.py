"""The villa in motion: pymunk simulates what moves, in the vertical plane it moves in.

Whether a villa at rest stands is decided in 3-D by `statics`. What pymunk simulates is
motion (docs/paletti.md, "Motion"): a hand drawing a column out from under a platform, a
column set down, and a fall. Each is simulated in one vertical plane, built afresh from the
plain-data villa for that one motion (a `Plane`: a point and a horizontal direction): every
piece is projected onto it (a column is a box as wide as its foot, a platform as wide as its
board seen along that direction), columns pass one another (in 3-D they stand at different
depths of the plane) and touch the platforms, the base and the table. Nothing of a
simulation is kept: the pieces' new places are read off it and the villa is plain data
again, so the same villa and the same gesture always give the same motion, in any process.

Settings measured with pymunk 7.3.1: step 1/240 s, 30 iterations, collision slop 0.05 mm,
friction 0.7 per shape (pymunk multiplies the two of a pair: 0.49), no bounce. At 1/60 s or
1/120 s a five-storey tower falls by itself; at 10 iterations it sinks about a centimetre.
The threaded space is not deterministic: the plain one is used.
"""

import math
from dataclasses import dataclass, field

import pymunk

GRAVITY = 9810.0  # mm/s2
STEP = 1.0 / 240.0
ITERATIONS = 30
COLLISION_SLOP = 0.05  # mm
FRICTION = 0.7
FRAME_STEPS = 8  # 30 frames per simulated second
# Still: every speed under 1 mm/s (also at the end of the longest arm) for 0.5 s.
STILL_SPEED = 1.0
STILL_TIME = 0.5
# Collapse criteria, our estimates (docs/paletti.md, "Collapse"): a platform tilts past
# 15 degrees or drops past 0.3 column heights; a column tips past 60 degrees (it can no
# longer stand on its end) or a piece leaves the base.
MAX_PLATFORM_TILT = math.radians(15.0)
MAX_COLUMN_TILT = math.radians(60.0)
TABLE_HALF_LENGTH = 2000.0

SOLID = 1  # table, base, platforms
COLUMN = 2
# A column being drawn out, and the columns standing in its way (in 3-D, across the plane's
# depth, near enough to be met by it or the hand): they collide with each other.
DRAWN = 1 << 12
IN_THE_WAY = 1 << 13
# Columns set on columns (red): the n-th of a stack collides with the one below it.
STACK_BITS = 8


def stack_category(depth: int) -> int:
    """Collision bit of the column `depth` steps up a stack (0 = standing on a platform)."""
    return 1 << (2 + min(depth, STACK_BITS))


def still_energy(body: pymunk.Body, half_width: float) -> float:
    """A kinetic energy (m v² + I w², as pymunk gives it) below which a body is surely
    still: its speed and the speed at the end of its longest arm are then both under
    STILL_SPEED (the 0.99 leaves far more room than rounding could take)."""
    return 0.99 * min(body.mass * STILL_SPEED**2, body.moment * (STILL_SPEED / half_width) ** 2)


@dataclass
class Piece:
    """A piece as a plane sees it: name, centre (s along the plane, y), half sizes along
    the plane and up, mass, whether it moves, its angle and velocity to start with."""

    key: str
    s: float
    y: float
    half_width: float
    half_height: float
    mass: float
    dynamic: bool = True
    column: bool = False
    stack_depth: int = 0
    # "drawn" for the column a hand draws out, "in_the_way" for those it meets.
    role: str = ""
    angle: float = 0.0
    velocity: tuple[float, float] = (0.0, 0.0)
    angular_velocity: float = 0.0
    # A column that shares another's place in the plane: extra mass carried rigidly, which
    # touches nothing (the pieces above a platform, when they move as one with it).
    lumps: list = field(default_factory=list)  # [(s, y, mass)]


@dataclass
class Plane:
    """A vertical plane: through (x, z), along the unit horizontal direction (dx, dz)."""

    x: float
    z: float
    dx: float
    dz: float

    def along(self, x: float, z: float) -> float:
        return (x - self.x) * self.dx + (z - self.z) * self.dz

    def to_world(self, s_from: float, s_to: float, x: float, z: float) -> tuple[float, float]:
        """Where a point at (x, z) goes when it moves from s_from to s_to along the plane."""
        shift = s_to - s_from
        return x + shift * self.dx, z + shift * self.dz


@dataclass
class Track:
    """What a simulation did to one body: its start and end (s, y, angle), and its
    velocity when a collapse was seen."""

    start: tuple[float, float, float]
    end: tuple[float, float, float]
    velocity: tuple[float, float, float] = (0.0, 0.0, 0.0)


@dataclass
class Run:
    """A simulated stretch: frames (planar poses per body), time, steps, any collapse."""

    frames: list = field(default_factory=list)  # [(t, {key: (s, y, angle)})]
    tracks: dict = field(default_factory=dict)
    time: float = 0.0
    steps: int = 0
    collapsed: bool = False
    reason: str = ""
    piece: str | None = None
    sign: float = 0.0  # which way along the plane it went (+1 / -1)
    # Per tracked body: how far its centre of mass went along the plane, least, most and
    # last, from where it started, while tracked (Scene.tracking).
    excursions: dict = field(default_factory=dict)
    # Per tracked body: its least and most angle (rad) while tracked, from where it started.
    tilts: dict = field(default_factory=dict)


class Scene:
    """One plane's pymunk space, with the table and a stretch of base (private Space)."""

    def __init__(self, base_from: float, base_to: float, base_top: float):
        space = pymunk.Space(threaded=False)
        space.gravity = (0.0, -GRAVITY)
        space.iterations = ITERATIONS
        space.collision_slop = COLLISION_SLOP
        self.space = space
        self.bodies: dict[str, pymunk.Body] = {}
        self.pieces: dict[str, Piece] = {}
        self.base = (base_from, base_to, base_top)
        self.floor: dict[str, float] = {}
        # Bodies whose centre of mass is followed along the plane, and whether it is now.
        self.tracked: set[str] = set()
        self.tracking = True
        static = space.static_body
        table = pymunk.Poly(
            static,
            [
                (-TABLE_HALF_LENGTH, -50.0),
                (TABLE_HALF_LENGTH, -50.0),
                (TABLE_HALF_LENGTH, 0.0),
                (-TABLE_HALF_LENGTH, 0.0),
            ],
        )
        base = pymunk.Poly(
            static, [(base_from, 0.0), (base_to, 0.0), (base_to, base_top), (base_from, base_top)]
        )
        for shape in (table, base):
            self._solid(shape)
        space.add(table, base)

    @staticmethod
    def _solid(shape: pymunk.Shape) -> None:
        shape.friction = FRICTION
        shape.elasticity = 0.0
        shape.filter = pymunk.ShapeFilter(categories=SOLID, mask=pymunk.ShapeFilter.ALL_MASKS())

    def add_static_board(self, s_from: float, s_to: float, y_top: float, thickness: float) -> None:
        """A surface that does not move in this motion (the platform a column stands on)."""
        shape = pymunk.Poly(
            self.space.static_body,
            [
                (s_from, y_top - thickness),
                (s_to, y_top - thickness),
                (s_to, y_top),
                (s_from, y_top),
            ],
        )
        self._solid(shape)
        self.space.add(shape)

    def add(self, piece: Piece) -> pymunk.Body:
        body = pymunk.Body(
            body_type=pymunk.Body.DYNAMIC if piece.dynamic else pymunk.Body.KINEMATIC
        )
        body.position = (piece.s, piece.y)
        body.angle = piece.angle
        shape = pymunk.Poly.create_box(body, (2 * piece.half_width, 2 * piece.half_height))
        shapes = [shape]
        if piece.dynamic:
            # Mass through shapes: a body given mass directly loses it on a type round trip.
            shape.mass = piece.mass
        shape.friction = FRICTION
        shape.elasticity = 0.0
        if piece.column:
            category = COLUMN | stack_category(piece.stack_depth)
            mask = SOLID | (stack_category(piece.stack_depth - 1) if piece.stack_depth else 0)
            mask |= stack_category(piece.stack_depth + 1)
            if piece.role == "drawn":
                category, mask = category | DRAWN, mask | IN_THE_WAY
            elif piece.role == "in_the_way":
                category, mask = category | IN_THE_WAY, mask | DRAWN
            shape.filter = pymunk.ShapeFilter(categories=category, mask=mask)
        else:
            shape.filter = pymunk.ShapeFilter(categories=SOLID, mask=pymunk.ShapeFilter.ALL_MASKS())
        for s, y, mass in piece.lumps:
            if mass <= 0:
                continue
            lump = pymunk.Circle(body, 1.0, (s - piece.s, y - piece.y))
            lump.mass = mass
            lump.filter = pymunk.ShapeFilter(categories=0, mask=0)
            shapes.append(lump)
        self.space.add(body, *shapes)
        if piece.dynamic:
            body.velocity = piece.velocity
            body.angular_velocity = piece.angular_velocity
        self.bodies[piece.key] = body
        self.pieces[piece.key] = piece
        return body

    def remove(self, key: str) -> None:
        body = self.bodies.pop(key)
        body.activate()
        constraints = [c for c in body.constraints if c in self.space.constraints]
        self.space.remove(*constraints, body, *body.shapes)

    def pose(self, key: str) -> tuple[float, float, float]:
        """(s, y, angle) of a body's box centre: the body's origin (its centre of mass lies
        elsewhere when it carries lumps)."""
        body = self.bodies[key]
        position = body.position
        return (position.x, position.y, body.angle)

    def run(
        self,
        max_time: float,
        *,
        record: bool,
        watch: set[str] | None = None,
        drive=None,
        stop_on_collapse: bool = False,
    ) -> Run:
        """Step until every body is still, or a collapse has been seen and the pieces lie
        still, or `max_time` has passed. `drive(t, dt) -> bool` moves a hand each frame;
        while it returns True the villa is not still. `watch`: the bodies checked for a
        collapse (all by default)."""
        run = Run()
        starts = {key: self.pose(key) for key in self.bodies}
        for key, start in starts.items():
            self.floor.setdefault(key, start[1] - 0.3 * 60.0)
        watch = set(self.bodies) if watch is None else watch
        if record:
            run.frames.append((0.0, dict(starts)))
        # Per tracked body: where its centre of mass starts along the plane, and where it
        # lies in the body (which the run does not change).
        centres = {
            key: (self.centre_of_mass(key), self.bodies[key].center_of_gravity)
            for key in self.tracked
        }
        quiet = 0.0
        steps = 0
        limit = int(round(max_time / STEP))
        driving = drive is not None
        # What is read each frame is fixed for the run, but for a body the hand takes away.
        shown, present = self._shown(record, watch), len(self.bodies)
        checked = sorted(watch)
        movers = None
        while steps < limit:
            if driving:
                driving = drive(steps * STEP, FRAME_STEPS * STEP)
                if len(self.bodies) != present:
                    shown, present = self._shown(record, watch), len(self.bodies)
            for _ in range(FRAME_STEPS):
                self.space.step(STEP)
            steps += FRAME_STEPS
            # Every body's pose when frames are kept; else those a collapse is judged on.
            poses = {}
            for key, body in shown:
                position = body.position
                poses[key] = (position.x, position.y, body.angle)
            if record:
                run.frames.append((steps * STEP, poses))
            for key, (start, centre) in centres.items():
                body = self.bodies.get(key)
                if body is None:
                    continue
                turned = body.angle - starts[key][2]
                least, most = run.tilts.get(key, (turned, turned))
                run.tilts[key] = (min(least, turned), max(most, turned))
                if self.tracking:
                    moved = body.local_to_world(centre).x - start
                    low, high, _ = run.excursions.get(key, (moved, moved, moved))
                    run.excursions[key] = (min(low, moved), max(high, moved), moved)
            if not run.collapsed:
                failure = self.failure(poses, checked)
                if failure is not None:
                    run.collapsed = True
                    run.reason, run.piece, run.sign = failure
                    for key, body in self.bodies.items():
                        pose = self.pose(key)
                        run.tracks[key] = Track(
                            starts.get(key, pose),
                            pose,
                            (*body.velocity, body.angular_velocity),
                        )
                    if stop_on_collapse:
                        break
                    limit = min(limit, steps + int(round(4.0 / STEP)))
                    quiet = 0.0
                    continue
            if driving:
                quiet = 0.0
                continue
            if movers is None:
                # Once the hand has let go, no body comes or goes.
                movers = []
                for key, body in self.bodies.items():
                    if body.body_type == pymunk.Body.DYNAMIC:
                        half_width = self.pieces[key].half_width
                        movers.append((body, half_width, still_energy(body, half_width)))
            # The kinetic energy, one read, settles most bodies; the speeds decide the rest.
            still = all(
                body.kinetic_energy < energy
                or (
                    body.velocity.length < STILL_SPEED
                    and abs(body.angular_velocity) * half_width < STILL_SPEED
                )
                for body, half_width, energy in movers
            )
            quiet = quiet + FRAME_STEPS * STEP if still else 0.0
            if quiet >= STILL_TIME:
                break
        run.steps = steps
        run.time = steps * STEP
        final = {key: self.pose(key) for key in self.bodies}
        for key, pose in final.items():
            track = run.tracks.get(key)
            if track is None:
                run.tracks[key] = Track(starts.get(key, pose), pose)
            else:
                track.end = pose
        return run

    def _shown(self, record: bool, watch: set[str]) -> list[tuple[str, pymunk.Body]]:
        """The bodies whose poses a run reads each frame: all of them when frames are
        kept, else those a collapse is judged on."""
        keys = self.bodies if record else [key for key in watch if key in self.bodies]
        return [(key, self.bodies[key]) for key in keys]

    def centre_of_mass(self, key: str) -> float:
        """Where a body's centre of mass is along the plane."""
        body = self.bodies[key]
        return body.local_to_world(body.center_of_gravity).x

    def failure(self, poses: dict, watch: list[str]):
        """The first sign of a collapse among `watch` (in its order) in these poses:
        (reason, key, sign)."""
        base_from, base_to, base_top = self.base
        for key in watch:
            pose = poses.get(key)
            if pose is None:
                continue
            s, y, angle = pose
            piece = self.pieces[key]
            tilt = abs(math.remainder(angle, math.tau))
            if s < base_from or s > base_to or y < base_top:
                return "left_base", key, _way(s, piece.s)
            if piece.column:
                if tilt > MAX_COLUMN_TILT:
                    return "column_fell", key, math.copysign(1.0, angle) * -1.0
            else:
                if tilt > MAX_PLATFORM_TILT:
                    return "platform_tilted", key, math.copysign(1.0, angle) * -1.0
                if y < self.floor.get(key, -math.inf):
                    return "platform_dropped", key, _way(s, piece.s)
        return None


def _way(s: float, start_s: float) -> float:
    """Which way along the plane a body went from where it started (+1 / -1)."""
    return 1.0 if s >= start_s else -1.0
