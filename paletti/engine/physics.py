"""The villa as a pymunk space: side view, mm / g / s, y up.

One `World` owns one private `Space`. Every action of a match starts from a `World` freshly
loaded from the stored snapshot (`World.load`); the action runs on it and the result is
dumped again. A dump is only stored once a reload of it has been seen to stand
(`settle_storable`), so the stored snapshot is the truth and cannot drift: see
docs/paletti.md, "How a snapshot stays true". Nothing here knows the rules: it answers
"what happens if ...".

Depth: the villa is simulated in two orthogonal views, each a 2D space of its own
(docs/paletti.md, "Depth"). The front view (x across, y up) is the one drawn large: each
column has a lane, columns of different lanes do not collide (they stand at different depths)
and every column collides with the platforms, the base and the table. The side view (z, the
depth, across; y up) holds every piece again: a column stands at its lane's depth, and
columns do not collide with one another there except a column set on another on red, so a
platform resting on columns in one row across the depth tips over in the side view. A
collapse in either view is a collapse.
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
    LANE_DEPTH,
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
# Side view: columns standing on a platform, and columns set on another column (on red).
SIDE_LOW_CATEGORY = 1 << 8
SIDE_HIGH_CATEGORY = 1 << 9


def lane_category(lane: int) -> int:
    """The collision category bit of a depth lane."""
    return 1 << (lane + 1)


ALL_CATEGORIES = SOLID_CATEGORY | sum(lane_category(lane) for lane in LANES)


# Side-view bodies in `World.poses()` (and in settle references): this prefix, then the name.
SIDE_PREFIX = "s"


def _set_down(platform: pymunk.Body, x_local: float, stack_top: float | None) -> tuple:
    """World pose of a column set down at x_local on a platform body (or on a column whose
    top is at stack_top in the platform's frame), just clear of it, parallel to it."""
    bottom = PLATFORM_THICKNESS / 2 if stack_top is None else stack_top
    world = platform.local_to_world(pymunk.Vec2d(x_local, bottom + DROP_GAP + COLUMN_HEIGHT / 2))
    return (world.x, world.y, platform.angle)


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
    view: str = "front"  # the view it showed in first: "front" or "side"


def _column_filter(lane: int) -> pymunk.ShapeFilter:
    category = lane_category(lane)
    return pymunk.ShapeFilter(categories=category, mask=SOLID_CATEGORY | category)


def _solid_filter() -> pymunk.ShapeFilter:
    return pymunk.ShapeFilter(
        categories=SOLID_CATEGORY, mask=ALL_CATEGORIES | SIDE_LOW_CATEGORY | SIDE_HIGH_CATEGORY
    )


def _side_column_filter(stacked: bool) -> pymunk.ShapeFilter:
    """In the side view the columns of a lane stand in one place; they touch the platforms,
    the base and the table, and a column set on another (on red) touches the column below."""
    if stacked:
        return pymunk.ShapeFilter(
            categories=SIDE_HIGH_CATEGORY, mask=SOLID_CATEGORY | SIDE_LOW_CATEGORY
        )
    return pymunk.ShapeFilter(
        categories=SIDE_LOW_CATEGORY, mask=SOLID_CATEGORY | SIDE_HIGH_CATEGORY
    )


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
    """A villa in two pymunk spaces, front and side (see the module's docstring).

    `bodies` are the front view's, named `c<id>` and `p<index>`; `side_bodies` the side
    view's, under the same names.
    """

    def __init__(
        self,
        space: pymunk.Space,
        bodies: dict[str, pymunk.Body],
        side_space: pymunk.Space | None = None,
        side_bodies: dict[str, pymunk.Body] | None = None,
    ):
        self.space = space
        self.bodies = bodies
        self.side_space = side_space if side_space is not None else new_space()
        self.side_bodies = side_bodies if side_bodies is not None else {}

    # -- construction and storage ------------------------------------------------------

    @classmethod
    def build(cls, columns: list[dict], blue_x: float) -> "World":
        """A set-up villa: columns ({"id", "x", "lane"}) standing on the base, blue on them.

        The set-up is assumed valid (see setup.validate_setup); the pieces start in exact
        contact and the caller settles. In depth, the columns stand at their lanes' depths
        around the middle of the base, and blue lies centred on them.
        """
        world = cls(new_space(), {}, new_space(), {})
        y = BASE_TOP + COLUMN_HEIGHT / 2
        for column in columns:
            lane = column["lane"]
            world.add_column(
                column["id"], lane, (column["x"], y, 0.0), side_pose=(LANE_DEPTH[lane], y, 0.0)
            )
        top = BASE_TOP + COLUMN_HEIGHT + PLATFORM_THICKNESS / 2
        world.add_platform(0, (blue_x, top, 0.0), side_pose=(0.0, top, 0.0))
        return world

    @classmethod
    def load(cls, blob: bytes) -> "World":
        """A world from `dump`'s bytes. Only ever load bytes this server wrote."""
        space, bodies, side_space, side_bodies = pickle.loads(blob)  # noqa: S301 - ours only
        return cls(space, bodies, side_space, side_bodies)

    def dump(self) -> bytes:
        """The world as bytes: both spaces and the names of their bodies, pickled together.

        Every body is woken first. Chipmunk takes a sleeping body's contacts out of the
        space's contact cache, and pymunk pickles only that cache: a villa pickled asleep
        reloads with no contacts and no accumulated impulses, and may fall. Waking changes
        no position or velocity.
        """
        self.activate_all()
        state = (self.space, self.bodies, self.side_space, self.side_bodies)
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)

    def _views(self):
        return ((self.space, self.bodies, ""), (self.side_space, self.side_bodies, SIDE_PREFIX))

    def hold_shift(self, seconds: float = HOLD_CHECK_TIME) -> float:
        """Step this (freshly loaded) world with no action: the largest shift of any body in
        mm, in either view.

        The shift of a body is how far its centre or the end of its longest arm moved from
        where it started. Steps stop once every body sleeps (nothing moves after that).
        """
        self.activate_all()
        start = self.poses()
        tracked = []
        for _, bodies, prefix in self._views():
            for key, body in bodies.items():
                arm = PLATFORM_LENGTHS[int(key[1:])] / 2 if key[0] == "p" else COLUMN_HEIGHT / 2
                tracked.append((body, start[prefix + key], arm))
        steps = int(round(seconds / STEP))
        done = 0
        worst = 0.0
        while done < steps:
            for _ in range(FRAME_STEPS):
                self.space.step(STEP)
                self.side_space.step(STEP)
            done += FRAME_STEPS
            for body, (x0, y0, a0), arm in tracked:
                shift = math.hypot(body.position.x - x0, body.position.y - y0)
                shift += abs(body.angle - a0) * arm
                if shift > worst:
                    worst = shift
            if all(body.is_sleeping for body, _, _ in tracked):
                break
        return worst

    def holds(self, blob: bytes | None = None) -> bool:
        """Whether this world, dumped and reloaded, stands: a reload stepped HOLD_CHECK_TIME
        with no action moves no body more than HOLD_TOLERANCE."""
        blob = self.dump() if blob is None else blob
        return World.load(blob).hold_shift() <= HOLD_TOLERANCE

    def digest(self) -> str:
        """SHA-256 over every body's position, angle and velocities in both views, bit for bit.

        The pickle's bytes are no identity: pymunk writes its cached contacts in an order
        that follows memory addresses, so two equal worlds can pickle differently.
        """
        digest = hashlib.sha256()
        for _, bodies, prefix in self._views():
            for key in sorted(bodies):
                body = bodies[key]
                values = (*body.position, body.angle, *body.velocity, body.angular_velocity)
                text = prefix + key + ":" + ",".join(float(v).hex() for v in values) + ";"
                digest.update(text.encode())
        return digest.hexdigest()

    # -- pieces ----------------------------------------------------------------------

    def add_column(
        self,
        column_id: int,
        lane: int,
        pose: tuple[float, float, float],
        side_pose: tuple[float, float, float] | None = None,
        stacked: bool = False,
    ) -> None:
        """Put a column's bodies into both views: `pose` in the front view (x, y of its
        centre, angle), `side_pose` in the side view (z, y, angle; by default at its lane's
        depth under the middle of the villa, upright, at the front pose's height).
        `stacked`: it stands on another column (on red)."""
        spec = COLUMNS[column_id]
        if side_pose is None:
            side_pose = (LANE_DEPTH[lane], pose[1], 0.0)
        views = (
            (self.space, self.bodies, pose, _column_filter(lane)),
            (self.side_space, self.side_bodies, side_pose, _side_column_filter(stacked)),
        )
        for space, bodies, where, shape_filter in views:
            body = pymunk.Body()
            body.position = where[0], where[1]
            body.angle = where[2]
            shape = pymunk.Poly.create_box(body, (spec.width, COLUMN_HEIGHT))
            # Mass through the shape: a body given mass directly loses it on a type round trip.
            shape.mass = spec.mass
            shape.friction = FRICTION
            shape.elasticity = 0.0
            shape.filter = shape_filter
            space.add(body, shape)
            bodies[column_key(column_id)] = body

    def add_platform(
        self,
        index: int,
        pose: tuple[float, float, float],
        side_pose: tuple[float, float, float] | None = None,
    ) -> None:
        """Put platform `index` (0 = blue) into both views: `pose` in the front view,
        `side_pose` in the side view (by default centred in depth on the platform below,
        parallel to it, or blue on the base, at the front pose's height)."""
        below = self.side_bodies.get(platform_key(index - 1))
        if side_pose is None and below is None:  # blue: centred on the base
            side_pose = (0.0, pose[1], 0.0)
        elif side_pose is None:
            side_pose = (below.position.x, pose[1], below.angle)
        for space, bodies, where in (
            (self.space, self.bodies, pose),
            (self.side_space, self.side_bodies, side_pose),
        ):
            body = pymunk.Body()
            body.position = where[0], where[1]
            body.angle = where[2]
            # The platforms are square: as deep as they are long.
            shape = pymunk.Poly.create_box(body, (PLATFORM_LENGTHS[index], PLATFORM_THICKNESS))
            shape.mass = PLATFORM_MASSES[index]
            shape.friction = FRICTION
            shape.elasticity = 0.0
            shape.filter = _solid_filter()
            space.add(body, shape)
            bodies[platform_key(index)] = body

    def remove_column(self, column_id: int) -> tuple[float, float, float]:
        """Take a column's bodies out of both views; returns the front pose it had."""
        key = column_key(column_id)
        front = None
        for space, bodies, _ in self._views():
            body = bodies.pop(key)
            if front is None:
                front = (body.position.x, body.position.y, body.angle)
            # Wake it (and what it touches) first: removing sleeping bodies is a known trap.
            body.activate()
            space.remove(body, *body.shapes)
        return front

    def has_column(self, column_id: int) -> bool:
        """Whether the column's body is in the space."""
        return column_key(column_id) in self.bodies

    def pose(self, key: str) -> tuple[float, float, float]:
        """Exact front pose of a named body."""
        body = self.bodies[key]
        return (body.position.x, body.position.y, body.angle)

    def side_pose(self, key: str) -> tuple[float, float, float]:
        """Exact side pose (z, y, angle) of a named body."""
        body = self.side_bodies[key]
        return (body.position.x, body.position.y, body.angle)

    def poses(self) -> dict[str, tuple[float, float, float]]:
        """Exact poses of all named bodies: front ones by name, side ones as SIDE_PREFIX + name."""
        poses = {key: (b.position.x, b.position.y, b.angle) for key, b in self.bodies.items()}
        for key, b in self.side_bodies.items():
            poses[SIDE_PREFIX + key] = (b.position.x, b.position.y, b.angle)
        return poses

    def activate_all(self) -> None:
        """Wake every body, so an action starts from an awake villa."""
        for body in self.bodies.values():
            body.activate()
        for body in self.side_bodies.values():
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
        return _set_down(self.bodies[platform_key(platform_index)], x_local, stack_top)

    def side_placement_pose(
        self, platform_index: int, lane: int, stack_top: float | None
    ) -> tuple[float, float, float]:
        """Side-view pose of a column set down in a lane on a platform (or on a column)."""
        return _set_down(
            self.side_bodies[platform_key(platform_index)], LANE_DEPTH[lane], stack_top
        )

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
        """Step both views until the villa is still, or has collapsed and its pieces lie
        still, or `max_time` has passed (after a collapse, COLLAPSE_TAIL_MAX_TIME more).

        `driver` (hands.PullDriver): a column the hand moves in the front view, frame by
        frame, until it is out; then it leaves the world (a None pose in the frames) and the
        villa settles. Until then it stays where it stood in the side view (it is drawn out
        across the depth, so it supports what it carries there until it is out). It is left
        out of the collapse and stillness checks while the hand holds it.
        `record` only decides whether frames are kept: the simulation is the same either
        way, so a replay without frames reaches the same state. `lookahead` (a bot trying a
        move) stops at the first sign of a collapse instead. `reference`: poses at the start
        of the action, as `poses()` gives them (platform drops are measured against them).
        Checks run once per frame (every FRAME_STEPS steps) on one batched read of all
        bodies per view (pymunk.batch), so the engine costs little on top of pymunk's own
        stepping.
        """
        result = SettleResult()
        reference = reference if reference is not None else self.poses()
        driven_key = driver.key if driver is not None else None
        readers = []
        for space, bodies, prefix in self._views():
            entries = {}
            for key, body in bodies.items():
                is_platform = key[0] == "p"
                arm = PLATFORM_LENGTHS[0] / 2 if is_platform else COLUMN_HEIGHT / 2
                ref = reference.get(prefix + key)
                floor = ref[1] - MAX_PLATFORM_DROP if is_platform and ref else -math.inf
                entries[body.id] = (key, is_platform, arm, floor, key == driven_key)
            readers.append(_BodyReader(space, entries))
        front, side = readers
        last: dict = {}
        side_last: dict = {}
        if record:
            poses, _, _ = front.scan(last, record=True, inspect=False)
            side_poses, _, _ = side.scan(side_last, record=True, inspect=False)
            result.frames.append({"t": round(start_time, 3), "poses": poses, "side": side_poses})
        quiet = 0.0
        max_steps = int(round(max_time / STEP))
        if driver is not None:
            max_steps += int(math.ceil(driver.duration / STEP))
        steps = 0
        frame_time = FRAME_STEPS * STEP
        front_step = self.space.step
        side_step = self.side_space.step
        while steps < max_steps:
            released = False
            if driver is not None and not driver.advance(steps * STEP, frame_time):
                driver.release()
                self.remove_column(int(driver.key[1:]))
                driver, released = None, True
            for _ in range(FRAME_STEPS):
                front_step(STEP)
                side_step(STEP)
            steps += FRAME_STEPS
            now = steps * STEP
            inspect = not result.collapsed
            poses, failure, still = front.scan(last, record, inspect=inspect)
            side_poses, side_failure, side_still = side.scan(side_last, record, inspect=inspect)
            if released and record:
                poses[front.release(last)] = None
                side_poses[side.release(side_last)] = None
            elif released:
                front.release(last)
                side.release(side_last)
            if poses or side_poses:
                frame = {"t": round(start_time + now, 3), "poses": poses}
                if side_poses:
                    frame["side"] = side_poses
                result.frames.append(frame)
            still = still and side_still
            if driver is not None:
                still = False
            if failure is None and side_failure is not None:
                failure = side_failure
                result.view = "side"
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
            result.view = more.view
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
