"""The villa as a pymunk space: side view, mm / g / s, y up.

One `World` owns one private `Space`. Every action of a match starts from a `World` freshly
loaded from the stored snapshot (`World.load`); the action runs on it and the result is
dumped again. A dump is only stored once a reload of it has been seen to stand
(`settle_storable`), so the stored snapshot is the truth and cannot drift: see
docs/paletti.md, "How a snapshot stays true". Nothing here knows the rules: it answers
"what happens if ...".

Depth: each column has a lane. Columns of different lanes do not collide (they stand at
different depths of the real villa); every column collides with the platforms, the base and
the table.
"""

import hashlib
import math
import pickle
from dataclasses import dataclass, field

import pymunk
import pymunk.batch

from .pieces import (
    BASE_LENGTH,
    BASE_THICKNESS,
    COLUMN_HEIGHT,
    COLUMNS,
    LANES,
    PLATFORM_LENGTHS,
    PLATFORM_MASSES,
    PLATFORM_THICKNESS,
)

# Simulation constants measured with pymunk 7.3.1 (docs/paletti.md): at 1/60 and 1/120 s a
# five-storey tower collapses by itself, at 10 iterations it sinks about 1 cm.
GRAVITY = 9810.0  # mm/s2
STEP = 1.0 / 240.0
ITERATIONS = 30
COLLISION_SLOP = 0.05  # mm
FRICTION = 0.7  # per shape; pymunk multiplies the two of a pair
# Sleeping lets a settled villa stop costing steps. Idle speed in mm/s, as the
# "settled" criterion (speeds under ~1 mm/s for 0.5 s).
IDLE_SPEED = 1.0
SLEEP_TIME = 0.5

# Settling (docs/paletti.md): speeds under 1 mm/s for 0.5 s, capped at 10 s simulated.
SETTLE_SPEED = 1.0
SETTLE_QUIET_TIME = 0.5
SETTLE_MAX_TIME = 10.0
# After a collapse is detected, keep simulating until the pieces lie still (as in settling),
# at most this long, so the whole fall can be animated and the end state stands.
COLLAPSE_TAIL_MAX_TIME = 8.0

# A snapshot is stored only if a reload of it, stepped this long with no action, moves no
# body more than HOLD_TOLERANCE (docs/paletti.md). Sleeping bodies do not move, so the check
# stops early once every body sleeps: the result is the same as stepping the whole time.
HOLD_CHECK_TIME = 3.0
HOLD_TOLERANCE = 0.5  # mm, at a body's centre or at the end of its longest arm
# If a reload does not stand, the reload is what would be stored: it is simulated on as part
# of the same action, and checked again, at most this many times.
MAX_RELOADS = 5

# Frames: every 8 steps of 1/240 s = 30 frames per simulated second.
FRAME_STEPS = 8
# Quantisation of frames (and of the poses shown to the UI): 0.1 mm and 1 mrad.
POS_DECIMALS = 1
ANGLE_DECIMALS = 3
# round(x * 10) / 10 is the nearest double to a tenth, like round(x, 1), at a third of the
# cost: it runs for every moving body 30 times a simulated second.
_POS_SCALE = 10.0**POS_DECIMALS
_ANGLE_SCALE = 10.0**ANGLE_DECIMALS

# Collapse criteria ("la villa s'écroule", docs/paletti.md "Collapse"): a platform tilts
# away (past 15 deg) or falls (drops past 0.3 column heights, which it does before it can
# touch the platform below or the base), or a piece falls: it leaves the base for the table,
# or a column lies down (tipped past 60 deg, where a column can no longer stand on its end
# and a round one would roll off). The thresholds are our estimates.
MAX_PLATFORM_TILT = math.radians(15.0)
MAX_PLATFORM_DROP = 0.3 * COLUMN_HEIGHT
MAX_COLUMN_TILT = math.radians(60.0)

# Gap left under a piece that is set down, so it starts just clear of its support (mm).
DROP_GAP = 0.2

TABLE_TOP = 0.0
# The table: wide enough that nothing falling from the villa slides off it (mm).
TABLE_HALF_LENGTH = 2000.0
BASE_TOP = TABLE_TOP + BASE_THICKNESS

# Collision categories: bit 0 for platforms, base and table, then one bit per lane.
SOLID_CATEGORY = 1


def lane_category(lane: int) -> int:
    """The collision category bit of a depth lane."""
    return 1 << (lane + 1)


ALL_CATEGORIES = SOLID_CATEGORY | sum(lane_category(lane) for lane in LANES)


def column_key(column_id: int) -> str:
    """Name of a column's body in the world and in frames."""
    return f"c{column_id}"


def platform_key(index: int) -> str:
    """Name of a platform's body in the world and in frames."""
    return f"p{index}"


def quantise_pose(x: float, y: float, angle: float) -> list[float]:
    """A pose as the UI gets it: mm to 0.1, radians to 0.001."""
    return [
        round(x * _POS_SCALE) / _POS_SCALE,
        round(y * _POS_SCALE) / _POS_SCALE,
        round(angle * _ANGLE_SCALE) / _ANGLE_SCALE,
    ]


@dataclass
class SettleResult:
    """What a simulated stretch of time did: frames, time, steps and any collapse."""

    frames: list = field(default_factory=list)
    time: float = 0.0
    steps: int = 0
    collapsed: bool = False
    reason: str = ""
    piece: str | None = None  # the body that showed the collapse first


def _column_filter(lane: int) -> pymunk.ShapeFilter:
    category = lane_category(lane)
    return pymunk.ShapeFilter(categories=category, mask=SOLID_CATEGORY | category)


def _solid_filter() -> pymunk.ShapeFilter:
    return pymunk.ShapeFilter(categories=SOLID_CATEGORY, mask=ALL_CATEGORIES)


def new_space() -> pymunk.Space:
    """An empty space with the settings of docs/paletti.md, the table and the base."""
    # threaded=False: the threaded space is not deterministic.
    space = pymunk.Space(threaded=False)
    space.gravity = (0.0, -GRAVITY)
    space.iterations = ITERATIONS
    space.collision_slop = COLLISION_SLOP
    space.idle_speed_threshold = IDLE_SPEED
    space.sleep_time_threshold = SLEEP_TIME
    static = space.static_body
    # A thick static box as table, wide enough to catch anything that falls.
    half_table = TABLE_HALF_LENGTH
    table = pymunk.Poly(
        static,
        [(-half_table, -50), (half_table, -50), (half_table, TABLE_TOP), (-half_table, TABLE_TOP)],
    )
    half = BASE_LENGTH / 2
    base = pymunk.Poly(
        static, [(-half, TABLE_TOP), (half, TABLE_TOP), (half, BASE_TOP), (-half, BASE_TOP)]
    )
    for shape in (table, base):
        shape.friction = FRICTION
        shape.elasticity = 0.0
        shape.filter = _solid_filter()
    space.add(table, base)
    return space


class World:
    """A villa in a pymunk space, with its bodies named `c<id>` and `p<index>`."""

    def __init__(self, space: pymunk.Space, bodies: dict[str, pymunk.Body]):
        self.space = space
        self.bodies = bodies

    # -- construction and storage ------------------------------------------------------

    @classmethod
    def build(cls, columns: list[dict], blue_x: float) -> "World":
        """A set-up villa: columns ({"id", "x", "lane"}) standing on the base, blue on them.

        The set-up is assumed valid (see setup.validate_setup); the pieces start in exact
        contact and the caller settles.
        """
        world = cls(new_space(), {})
        for column in columns:
            world.add_column(
                column["id"], column["lane"], (column["x"], BASE_TOP + COLUMN_HEIGHT / 2, 0.0)
            )
        top = BASE_TOP + COLUMN_HEIGHT
        world.add_platform(0, (blue_x, top + PLATFORM_THICKNESS / 2, 0.0))
        return world

    @classmethod
    def load(cls, blob: bytes) -> "World":
        """A world from `dump`'s bytes. Only ever load bytes this server wrote."""
        space, bodies = pickle.loads(blob)  # noqa: S301 - written by this server only
        return cls(space, bodies)

    def dump(self) -> bytes:
        """The world as bytes: the space and the names of its bodies, pickled together.

        Every body is woken first. Chipmunk takes a sleeping body's contacts out of the
        space's contact cache, and pymunk pickles only that cache: a villa pickled asleep
        reloads with no contacts and no accumulated impulses, and may fall. Waking changes
        no position or velocity.
        """
        self.activate_all()
        return pickle.dumps((self.space, self.bodies), protocol=pickle.HIGHEST_PROTOCOL)

    def hold_shift(self, seconds: float = HOLD_CHECK_TIME) -> float:
        """Step this (freshly loaded) world with no action: the largest shift of any body in mm.

        The shift of a body is how far its centre or the end of its longest arm moved from
        where it started. Steps stop once every body sleeps (nothing moves after that).
        """
        self.activate_all()
        start = self.poses()
        arms = {
            key: (PLATFORM_LENGTHS[int(key[1:])] / 2 if key[0] == "p" else COLUMN_HEIGHT / 2)
            for key in self.bodies
        }
        bodies = list(self.bodies.values())
        steps = int(round(seconds / STEP))
        done = 0
        worst = 0.0
        while done < steps:
            for _ in range(FRAME_STEPS):
                self.space.step(STEP)
            done += FRAME_STEPS
            for key, body in self.bodies.items():
                x0, y0, a0 = start[key]
                shift = math.hypot(body.position.x - x0, body.position.y - y0)
                shift += abs(body.angle - a0) * arms[key]
                if shift > worst:
                    worst = shift
            if all(body.is_sleeping for body in bodies):
                break
        return worst

    def holds(self, blob: bytes | None = None) -> bool:
        """Whether this world, dumped and reloaded, stands: a reload stepped HOLD_CHECK_TIME
        with no action moves no body more than HOLD_TOLERANCE."""
        blob = self.dump() if blob is None else blob
        return World.load(blob).hold_shift() <= HOLD_TOLERANCE

    def digest(self) -> str:
        """SHA-256 over every body's position, angle and velocities, bit for bit.

        The pickle's bytes are no identity: pymunk writes its cached contacts in an order
        that follows memory addresses, so two equal worlds can pickle differently.
        """
        digest = hashlib.sha256()
        for key in sorted(self.bodies):
            body = self.bodies[key]
            values = (*body.position, body.angle, *body.velocity, body.angular_velocity)
            digest.update((key + ":" + ",".join(float(v).hex() for v in values) + ";").encode())
        return digest.hexdigest()

    # -- pieces ----------------------------------------------------------------------

    def add_column(self, column_id: int, lane: int, pose: tuple[float, float, float]) -> None:
        """Put a column's body into the space at a pose (x, y of its centre, angle)."""
        spec = COLUMNS[column_id]
        body = pymunk.Body()
        body.position = pose[0], pose[1]
        body.angle = pose[2]
        shape = pymunk.Poly.create_box(body, (spec.width, COLUMN_HEIGHT))
        # Mass through the shape: a body given mass directly loses it on a type round trip.
        shape.mass = spec.mass
        shape.friction = FRICTION
        shape.elasticity = 0.0
        shape.filter = _column_filter(lane)
        self.space.add(body, shape)
        self.bodies[column_key(column_id)] = body

    def add_platform(self, index: int, pose: tuple[float, float, float]) -> None:
        """Put platform `index` (0 = blue) into the space at a pose."""
        body = pymunk.Body()
        body.position = pose[0], pose[1]
        body.angle = pose[2]
        shape = pymunk.Poly.create_box(body, (PLATFORM_LENGTHS[index], PLATFORM_THICKNESS))
        shape.mass = PLATFORM_MASSES[index]
        shape.friction = FRICTION
        shape.elasticity = 0.0
        shape.filter = _solid_filter()
        self.space.add(body, shape)
        self.bodies[platform_key(index)] = body

    def remove_column(self, column_id: int) -> tuple[float, float, float]:
        """Take a column's body out of the space; returns the pose it had."""
        body = self.bodies.pop(column_key(column_id))
        pose = (body.position.x, body.position.y, body.angle)
        # Wake it (and what it touches) first: removing sleeping bodies is a known trap.
        body.activate()
        self.space.remove(body, *body.shapes)
        return pose

    def has_column(self, column_id: int) -> bool:
        """Whether the column's body is in the space."""
        return column_key(column_id) in self.bodies

    def pose(self, key: str) -> tuple[float, float, float]:
        """Exact pose of a named body."""
        body = self.bodies[key]
        return (body.position.x, body.position.y, body.angle)

    def poses(self) -> dict[str, tuple[float, float, float]]:
        """Exact poses of all named bodies."""
        return {key: (b.position.x, b.position.y, b.angle) for key, b in self.bodies.items()}

    def activate_all(self) -> None:
        """Wake every body, so an action starts from an awake villa."""
        for body in self.bodies.values():
            body.activate()

    # -- geometry helpers ------------------------------------------------------------

    def column_lane(self, column_id: int) -> int:
        """The lane a column's shape is in."""
        shape = next(iter(self.bodies[column_key(column_id)].shapes))
        return shape.filter.categories.bit_length() - 2

    def column_local_span(self, column_id: int, platform_index: int) -> tuple[float, float, float]:
        """A column's (left, right, top) in the local frame of a platform."""
        body = self.bodies[column_key(column_id)]
        platform = self.bodies[platform_key(platform_index)]
        centre = platform.world_to_local(body.position)
        half_w = COLUMNS[column_id].width / 2
        return centre.x - half_w, centre.x + half_w, centre.y + COLUMN_HEIGHT / 2

    def placement_pose(
        self, column_id: int, platform_index: int, x_local: float, stack_top: float | None
    ) -> tuple[float, float, float]:
        """World pose of a column set down at x_local on a platform (or on a column there)."""
        platform = self.bodies[platform_key(platform_index)]
        bottom = PLATFORM_THICKNESS / 2 if stack_top is None else stack_top
        local = pymunk.Vec2d(x_local, bottom + DROP_GAP + COLUMN_HEIGHT / 2)
        world = platform.local_to_world(local)
        return (world.x, world.y, platform.angle)

    # -- measurements ----------------------------------------------------------------

    def column_load(self, column_id: int, steps: int = 12) -> float:
        """Load (in grams-force) pressing on a column's top, from contact impulses.

        Steps this world, so call it on a scratch copy. A freshly loaded space has no
        contacts, hence the few steps before reading.
        """
        body = self.bodies[column_key(column_id)]
        self.activate_all()
        for _ in range(steps):
            self.space.step(STEP)
        total = 0.0

        def add(arbiter: pymunk.Arbiter) -> None:
            nonlocal total
            points = arbiter.contact_point_set.points
            if not points:
                return
            # Contacts on the column's upper half are loads from above.
            local_y = body.world_to_local(points[0].point_a).y
            if local_y > 0:
                total += abs(arbiter.total_impulse.y)

        body.each_arbiter(add)
        return total / STEP / GRAVITY

    # -- simulation ------------------------------------------------------------------

    def settle(
        self,
        max_time: float = SETTLE_MAX_TIME,
        record: bool = True,
        reference: dict[str, tuple[float, float, float]] | None = None,
        start_time: float = 0.0,
        lookahead: bool = False,
        driver=None,
    ) -> SettleResult:
        """Step until the villa is still, or has collapsed and its pieces lie still, or
        `max_time` has passed (after a collapse, COLLAPSE_TAIL_MAX_TIME more).

        `driver` (hands.PullDriver): a column the hand moves, frame by frame, until it is
        out; then it leaves the world (a None pose in the frames) and the villa settles.
        It is left out of the collapse and stillness checks while the hand holds it.
        `record` only decides whether frames are kept: the simulation is the same either
        way, so a replay without frames reaches the same state. `lookahead` (a bot trying a
        move) stops at the first sign of a collapse instead. `reference`: platform poses at
        the start of the action (drops are measured against them). Checks run once per frame
        (every FRAME_STEPS steps) on one batched read of all bodies (pymunk.batch), so the
        engine costs little on top of pymunk's own stepping.
        """
        result = SettleResult()
        reference = reference if reference is not None else self.poses()
        space_step = self.space.step
        entries = {}
        for key, body in self.bodies.items():
            is_platform = key[0] == "p"
            arm = PLATFORM_LENGTHS[0] / 2 if is_platform else COLUMN_HEIGHT / 2
            ref = reference.get(key)
            floor = ref[1] - MAX_PLATFORM_DROP if is_platform and ref else -math.inf
            driven = driver is not None and key == driver.key
            entries[body.id] = (key, is_platform, arm, floor, driven)
        reader = _BodyReader(self.space, entries)
        last: dict = {}
        if record:
            poses, _, _ = reader.scan(last, record=True, inspect=False)
            result.frames.append({"t": round(start_time, 3), "poses": poses})
        quiet = 0.0
        max_steps = int(round(max_time / STEP))
        if driver is not None:
            max_steps += int(math.ceil(driver.duration / STEP))
        steps = 0
        frame_time = FRAME_STEPS * STEP
        while steps < max_steps:
            released = False
            if driver is not None and not driver.advance(steps * STEP, frame_time):
                driver.release()
                self.remove_column(int(driver.key[1:]))
                driver, released = None, True
            for _ in range(FRAME_STEPS):
                space_step(STEP)
            steps += FRAME_STEPS
            now = steps * STEP
            poses, failure, still = reader.scan(last, record, inspect=not result.collapsed)
            if released and record:
                poses[reader.release(last)] = None
            if poses:
                result.frames.append({"t": round(start_time + now, 3), "poses": poses})
            if driver is not None:
                still = False
            if failure:
                result.collapsed = True
                result.reason, result.piece = failure
                if lookahead:
                    break
                max_steps = steps + int(round(COLLAPSE_TAIL_MAX_TIME / STEP))
                quiet = 0.0
                continue
            quiet = quiet + FRAME_STEPS * STEP if still else 0.0
            if quiet >= SETTLE_QUIET_TIME:
                break
        if driver is not None:
            # A look-ahead stopped before the hand was done: the column leaves all the same.
            driver.release()
            self.remove_column(int(driver.key[1:]))
        result.steps = steps
        result.time = steps * STEP
        return result


def settle_storable(
    world: World,
    *,
    record: bool,
    reference: dict,
    start_time: float = 0.0,
    lookahead: bool = False,
    driver=None,
) -> tuple[World, SettleResult, bytes | None]:
    """Settle, then make the result storable: (world, result, verified snapshot bytes).

    The bytes returned are a dump whose reload stands (World.holds). When a reload does not
    stand, the reload is what would be stored, so it becomes the world and is simulated on,
    within the same action (its frames follow; a collapse there belongs to this action),
    and checked again. A bot's lookahead skips the check (bytes None): it stores nothing.
    """
    result = world.settle(
        record=record,
        reference=reference,
        start_time=start_time,
        lookahead=lookahead,
        driver=driver,
    )
    if lookahead:
        return world, result, None
    for _ in range(MAX_RELOADS):
        blob = world.dump()
        if World.load(blob).hold_shift() <= HOLD_TOLERANCE:
            return world, result, blob
        world = World.load(blob)
        world.activate_all()
        start = result.frames[-1]["t"] if result.frames else start_time + result.time
        more = world.settle(record=record, reference=reference, start_time=start)
        if not result.collapsed and more.collapsed:
            result.collapsed, result.reason, result.piece = True, more.reason, more.piece
        result.frames.extend(more.frames[1:])
        result.steps += more.steps
        result.time += more.time
    # Still moving after MAX_RELOADS rounds (never seen): store the last dump as it is.
    return world, result, world.dump()


_BATCH_FIELDS = (
    pymunk.batch.BodyFields.BODY_ID
    | pymunk.batch.BodyFields.POSITION
    | pymunk.batch.BodyFields.ANGLE
    | pymunk.batch.BodyFields.VELOCITY
    | pymunk.batch.BodyFields.ANGULAR_VELOCITY
)


class _BodyReader:
    """All named bodies' pose and velocity in one batched call (one cffi call, not ~150),
    turned in one pass into the frame's changed poses and the collapse and stillness checks.

    This runs 30 times a simulated second, so it is one loop without intermediate rows.
    """

    def __init__(self, space: pymunk.Space, entries: dict):
        self.space = space
        # body id -> (name, is_platform, lever arm for angular speed, lowest allowed y,
        # held by the hand)
        self.entries = entries
        self.buffer = pymunk.batch.Buffer()

    def release(self, last: dict) -> str:
        """Forget the body the hand held (it has left the world); returns its name."""
        for body_id, entry in list(self.entries.items()):
            if entry[4]:
                del self.entries[body_id]
                last.pop(entry[0], None)
                return entry[0]
        raise LookupError("no body is held")

    def scan(self, last: dict, record: bool, inspect: bool) -> tuple[dict, tuple | None, bool]:
        """(changed quantised poses, first sign of a collapse or None, whether all is still).

        `last` keeps, per body, the raw pose read and the quantised pose sent, so a body
        that has not moved at all is skipped without rounding. Collapse (see the criteria
        above) is only looked for while `inspect`; stillness always. A platform touching the
        base or the platform below has dropped a whole column height first, so the drop test
        covers it.
        """
        buffer = self.buffer
        buffer.clear()
        pymunk.batch.get_space_bodies(self.space, _BATCH_FIELDS, buffer)
        ids = memoryview(buffer.int_buf()).cast("Q").tolist()
        values = memoryview(buffer.float_buf()).cast("d").tolist()
        get = self.entries.get
        poses: dict = {}
        failure = None
        still = True
        for n, body_id in enumerate(ids):
            entry = get(body_id)
            if entry is None:
                continue
            key, is_platform, arm, floor, driven = entry
            i = 6 * n
            x, y, angle = values[i], values[i + 1], values[i + 2]
            if record:
                raw = (x, y, angle)
                previous = last.get(key)
                if previous is None or previous[0] != raw:
                    pose = [
                        round(x * _POS_SCALE) / _POS_SCALE,
                        round(y * _POS_SCALE) / _POS_SCALE,
                        round(angle * _ANGLE_SCALE) / _ANGLE_SCALE,
                    ]
                    if previous is None or previous[1] != pose:
                        poses[key] = pose
                    last[key] = (raw, pose)
            if driven:
                continue
            if still:
                vx, vy, w = values[i + 3], values[i + 4], values[i + 5]
                if vx * vx + vy * vy > _SETTLE_SPEED_SQUARED or abs(w) * arm > SETTLE_SPEED:
                    still = False
            if not inspect or failure is not None:
                continue
            if x > _HALF_BASE or x < -_HALF_BASE or y < BASE_TOP:
                failure, still = ("left_base", key), False
                continue
            tilt = abs(angle)
            if tilt > math.pi:
                tilt = abs(_wrap(angle))
            if is_platform:
                if tilt > MAX_PLATFORM_TILT:
                    failure, still = ("platform_tilted", key), False
                    continue
                if y < floor:
                    failure, still = ("platform_dropped", key), False
                    continue
            elif tilt > MAX_COLUMN_TILT:
                failure, still = ("column_fell", key), False
        return poses, failure, still


_HALF_BASE = BASE_LENGTH / 2
_SETTLE_SPEED_SQUARED = SETTLE_SPEED * SETTLE_SPEED


def _wrap(angle: float) -> float:
    """An angle in [-pi, pi] (IEEE remainder: exact, and cheaper than atan2(sin, cos))."""
    return math.remainder(angle, math.tau)
