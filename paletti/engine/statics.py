"""Whether a villa stands, decided in three dimensions from plain data.

A villa at rest is a pile of rigid pieces: columns standing upright at 2-D points (x, z) on
what carries them, platforms lying level. It stands when, at every interface where one
part rests on another, the centre of mass of everything above that interface lies inside
the convex hull of the contact areas it rests on (docs/paletti.md, "Standing, in 3-D"):

- a laid platform and everything above it, on the columns under it;
- on red, a column set on another column and everything on it, on the overlap of the two;
- a column carrying nothing, on the part of its foot that is on its platform.

Loads are carried down storey by storey: the load on a platform's supports is the whole
assembly above them, and each column's share of it is that of a rigid board on equal
springs (the usual reading of a statically indeterminate support; an estimate of how the
real, slightly uneven columns share it). Nothing here uses pymunk or any history: the same
pieces always give the same answer.

Coordinates: mm, x across the width (left to right), z across the depth (negative at the
front), y up. A column's foot is a disc (the hexagonal column's is the disc inscribed in
its hexagon, slightly smaller than the hexagon: an estimate on the safe side).
"""

import math
from dataclasses import dataclass, field
from functools import lru_cache

# Points used to draw a disc as a polygon: the hull of 24 points lies within 0.9 % of the
# radius of the true disc.
DISC_POINTS = 24


@dataclass(frozen=True)
class Column:
    """A column at rest: foot centre (x, z), foot radius, mass (g), and what carries it:
    `level` platforms below it (0 = on the base), or `on` another column (red only)."""

    id: int
    x: float
    z: float
    radius: float
    mass: float
    level: int
    on: int | None = None


@dataclass(frozen=True)
class Platform:
    """A laid platform: centre (x, z), half its side (the boards are square), mass (g)."""

    index: int
    x: float
    z: float
    half: float
    mass: float


@dataclass
class Interface:
    """One place where a part of the villa rests on another, and how safely.

    `margin` (mm): how far the centre of the load lies inside the hull of the contact areas
    (negative: outside, so it tips). `direction`: unit (dx, dz) the load would tip towards,
    from the nearest point of the hull to the centre (None while it stands)."""

    piece: str  # "p<index>" for a platform's assembly, "c<id>" for a column's
    mass: float
    centre: tuple[float, float]
    margin: float
    direction: tuple[float, float] | None = None
    region: list = field(default_factory=list, repr=False)  # the hull it rests on

    def margin_if_moved(self, dx: float, dz: float) -> float:
        """The margin the load would have with its centre moved by (dx, dz)."""
        return margin((self.centre[0] + dx, self.centre[1] + dz), self.region)[0]


@dataclass
class Stability:
    """The villa's statics: every interface, the load on each column, and the verdict."""

    interfaces: list[Interface] = field(default_factory=list)
    loads: dict[int, float] = field(default_factory=dict)  # g pressing on each column's top

    @property
    def weakest(self) -> Interface | None:
        """The interface with the smallest margin (the first to give way)."""
        return min(self.interfaces, key=lambda i: i.margin, default=None)

    @property
    def stands(self) -> bool:
        weakest = self.weakest
        return weakest is None or weakest.margin >= 0.0


# -- plane geometry -------------------------------------------------------------------


_UNIT_CIRCLE = [
    (math.cos(2 * math.pi * k / DISC_POINTS), math.sin(2 * math.pi * k / DISC_POINTS))
    for k in range(DISC_POINTS)
]


def disc(x: float, z: float, radius: float) -> list[tuple[float, float]]:
    """A disc as a convex polygon, counter-clockwise."""
    return [(x + radius * c, z + radius * s) for c, s in _UNIT_CIRCLE]


def foot_on_board(x: float, z: float, radius: float, bx: float, bz: float, half: float) -> list:
    """The part of a column's foot on a square board: the whole disc when it lies within
    the board (no clipping needed), else the disc clipped to it (empty if apart)."""
    if abs(x - bx) + radius <= half and abs(z - bz) + radius <= half:
        return disc(x, z, radius)
    if abs(x - bx) - radius >= half or abs(z - bz) - radius >= half:
        return []
    return clip(disc(x, z, radius), square(bx, bz, half))


def square(x: float, z: float, half: float) -> list[tuple[float, float]]:
    """An axis-aligned square as a convex polygon, counter-clockwise."""
    return [(x - half, z - half), (x + half, z - half), (x + half, z + half), (x - half, z + half)]


def _cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def clip(subject: list, window: list) -> list:
    """The part of convex polygon `subject` inside convex polygon `window` (both
    counter-clockwise; Sutherland-Hodgman). Empty when they do not overlap."""
    output = list(subject)
    n = len(window)
    for i in range(n):
        a, b = window[i], window[(i + 1) % n]
        points, output = output, []
        if not points:
            break
        previous = points[-1]
        for point in points:
            inside = _cross(a, b, point) >= 0
            was_inside = _cross(a, b, previous) >= 0
            if inside != was_inside:
                output.append(_intersection(previous, point, a, b))
            if inside:
                output.append(point)
            previous = point
    return output


def _intersection(p, q, a, b):
    """Where segment p-q crosses the line a-b."""
    dp = _cross(a, b, p)
    dq = _cross(a, b, q)
    t = dp / (dp - dq)
    return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))


def hull(points: list) -> list:
    """Convex hull, counter-clockwise (Andrew's monotone chain). The cross products are
    written out (as _cross computes them): the bots weigh thousands of villas a move."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    lower: list = []
    for p in pts:
        px, pz = p
        while len(lower) >= 2:
            (ox, oz), (ax, az) = lower[-2], lower[-1]
            if not (ax - ox) * (pz - oz) - (az - oz) * (px - ox) <= 0:
                break
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(pts):
        px, pz = p
        while len(upper) >= 2:
            (ox, oz), (ax, az) = upper[-2], upper[-1]
            if not (ax - ox) * (pz - oz) - (az - oz) * (px - ox) <= 0:
                break
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def margin(point: tuple[float, float], polygon: list) -> tuple[float, tuple | None]:
    """(signed distance from `point` to the polygon's boundary, positive inside; unit
    direction from the nearest boundary point towards `point` when outside, else None).
    Each edge's nearest point and the side `point` lies on (_cross) are written out
    here: the bots weigh thousands of villas a move."""
    if not polygon:
        return -math.inf, None
    n = len(polygon)
    px, pz = point
    nearest, best = None, math.inf
    inside = n >= 3
    hypot = math.hypot
    for i in range(n):
        a, b = polygon[i], polygon[(i + 1) % n]
        ax0, az0 = a
        ax, az = b[0] - ax0, b[1] - az0
        length2 = ax * ax + az * az
        t = (
            0.0
            if length2 == 0
            else max(0.0, min(1.0, ((px - ax0) * ax + (pz - az0) * az) / length2))
        )
        qx, qz = ax0 + t * ax, az0 + t * az
        d = hypot(px - qx, pz - qz)
        if d < best:
            nearest, best = (qx, qz), d
        if inside and not ax * (pz - az0) - az * (px - ax0) >= 0:
            inside = False
    if inside:
        return best, None
    if best == 0:
        return 0.0, None
    return -best, ((px - nearest[0]) / best, (pz - nearest[1]) / best)


def centroid(polygon: list) -> tuple[float, float]:
    """Centre of area of a convex polygon (its mean point if it has no area)."""
    area = cx = cz = 0.0
    n = len(polygon)
    for i in range(n):
        (x0, z0), (x1, z1) = polygon[i], polygon[(i + 1) % n]
        w = x0 * z1 - x1 * z0
        area += w
        cx += (x0 + x1) * w
        cz += (z0 + z1) * w
    if abs(area) < 1e-9:
        return (sum(p[0] for p in polygon) / n, sum(p[1] for p in polygon) / n)
    return (cx / (3 * area), cz / (3 * area))


def shares(weight: float, centre: tuple[float, float], points: list) -> list[float]:
    """How a rigid board of `weight` with its centre of mass at `centre` presses on supports
    at `points`, if each support is an equal spring: linear in position, summing to the
    weight and balancing its moment. A support that would have to pull lifts off and
    carries nothing (the others share again). Points on one line get the moment along it."""
    n = len(points)
    active = list(range(n))
    loads = [0.0] * n
    while active:
        m = len(active)
        mx = sum(points[i][0] for i in active) / m
        mz = sum(points[i][1] for i in active) / m
        sxx = sum((points[i][0] - mx) ** 2 for i in active)
        szz = sum((points[i][1] - mz) ** 2 for i in active)
        sxz = sum((points[i][0] - mx) * (points[i][1] - mz) for i in active)
        ex, ez = centre[0] - mx, centre[1] - mz
        det = sxx * szz - sxz * sxz
        if m >= 3 and det > 1e-6 * max(1.0, (sxx + szz) ** 2):
            ax = (szz * ex - sxz * ez) / det
            az = (sxx * ez - sxz * ex) / det
        else:
            # One support, or all on one line: only the moment along that line is taken.
            trace = sxx + szz
            if trace < 1e-9:
                ax = az = 0.0
            else:
                # Direction of the line (principal axis), then the inverse along it.
                angle = 0.5 * math.atan2(2 * sxz, sxx - szz)
                ux, uz = math.cos(angle), math.sin(angle)
                s_uu = sxx * ux * ux + 2 * sxz * ux * uz + szz * uz * uz
                e_u = ex * ux + ez * uz
                k = e_u / s_uu if s_uu > 1e-9 else 0.0
                ax, az = k * ux, k * uz
        trial = {
            i: weight * (1.0 / m + (points[i][0] - mx) * ax + (points[i][1] - mz) * az)
            for i in active
        }
        negative = [i for i, v in trial.items() if v < 0]
        if not negative:
            for i, v in trial.items():
                loads[i] = v
            return loads
        active.remove(min(negative, key=lambda i: trial[i]))
    return loads


# -- the villa ---------------------------------------------------------------------------


def _combined(parts: list[tuple[float, float, float]]) -> tuple[float, tuple[float, float]]:
    mass = sum(m for m, _, _ in parts)
    if mass <= 0:
        return 0.0, (0.0, 0.0)
    return mass, (sum(m * x for m, x, _ in parts) / mass, sum(m * z for m, _, z in parts) / mass)


@lru_cache(maxsize=4096)
def _support(feet: tuple, board: tuple) -> tuple[tuple, tuple, tuple]:
    """What a platform `board` (x, z, half) rests on, among column feet (x, z, radius):
    whether each bears it (the part of its foot under the board has an area), the centre
    of each bearing contact, and the hull of the contacts. Kept for the villas a bot weighs
    one after another, whose lower platforms stand on the same feet."""
    bearing, points, contacts = [], [], []
    for x, z, radius in feet:
        contact = foot_on_board(x, z, radius, *board)
        bears = len(contact) >= 3
        bearing.append(bears)
        if bears:
            points.append(centroid(contact))
            contacts.extend(contact)
    return tuple(bearing), tuple(points), tuple(hull(contacts))


def analyse(columns: list[Column], platforms: list[Platform]) -> Stability:
    """Every interface of a villa at rest, its margin, and each column's load.

    `platforms`: the laid ones (index 0 = blue, resting on the columns of level 0).
    `columns`: those standing in the villa (level i stands on platform i - 1, 0 on the base).
    """
    result = Stability()
    by_id = {c.id: c for c in columns}
    plates = {p.index: p for p in platforms}
    carried: dict[int, list[Column]] = {}
    for column in columns:
        if column.on is not None:
            carried.setdefault(column.on, []).append(column)

    stack_cache: dict[int, tuple[float, float, float]] = {}

    def stack_of(column: Column) -> tuple[float, float, float]:
        """(mass, x, z) of a column and every column set on it, however high."""
        if column.id not in stack_cache:
            parts = [(column.mass, column.x, column.z)]
            for upper in carried.get(column.id, []):
                parts.append(stack_of(upper))
            mass, (x, z) = _combined(parts)
            stack_cache[column.id] = (mass, x, z)
        return stack_cache[column.id]

    for column in columns:
        result.loads[column.id] = stack_of(column)[0] - column.mass

    # Columns set on columns (red): each stack above an interface on the overlap of feet.
    for column in columns:
        if column.on is None:
            continue
        below = by_id.get(column.on)
        mass, x, z = stack_of(column)
        if below is None:
            region: list = []
        else:
            region = clip(
                disc(column.x, column.z, column.radius), disc(below.x, below.z, below.radius)
            )
        value, direction = margin((x, z), region)
        result.interfaces.append(Interface(f"c{column.id}", mass, (x, z), value, direction, region))

    # Platforms, from the top down: each with everything above it, on the columns under it.
    above: list[tuple[float, float, float]] = []
    carrying: set[int] = set()
    top = max(plates, default=-1)
    for index in range(top, -1, -1):
        plate = plates.get(index)
        if plate is None:
            continue
        standing = [c for c in columns if c.level == index + 1 and c.on is None]
        parts = [(plate.mass, plate.x, plate.z)] + [stack_of(c) for c in standing] + above
        mass, centre = _combined(parts)
        under = [c for c in columns if c.level == index and c.on is None]
        bearing, points, region = _support(
            tuple((c.x, c.z, c.radius) for c in under), (plate.x, plate.z, plate.half)
        )
        supports = [column for column, bears in zip(under, bearing, strict=True) if bears]
        carrying.update(column.id for column in supports)
        region = list(region)
        value, direction = margin(centre, region)
        result.interfaces.append(Interface(f"p{index}", mass, centre, value, direction, region))
        for column, load in zip(supports, shares(mass, centre, list(points)), strict=True):
            result.loads[column.id] = result.loads.get(column.id, 0.0) + load
        above = [(mass, centre[0], centre[1])]

    # A column carrying no platform stands on the part of its foot on its platform.
    for column in columns:
        if column.on is not None or column.id in carrying or column.level == 0:
            continue
        under = plates.get(column.level - 1)
        mass, x, z = stack_of(column)
        region = (
            foot_on_board(column.x, column.z, column.radius, under.x, under.z, under.half)
            if under is not None
            else []
        )
        value, direction = margin((x, z), region)
        result.interfaces.append(Interface(f"c{column.id}", mass, (x, z), value, direction, region))
    return result


def tip_direction_name(direction: tuple[float, float]) -> str:
    """Which way a fall goes as a player sees the villa: left, right (across the width),
    front or back (across the depth; the front is at negative z)."""
    dx, dz = direction
    if abs(dz) > abs(dx):
        return "back" if dz > 0 else "front"
    return "right" if dx > 0 else "left"
