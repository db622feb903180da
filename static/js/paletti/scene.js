/* Villa Paletti: the villa as one object in three dimensions. Geometry only (no DOM), for
 * the drawing and the pointing modules, and importable by the browser tests.
 *
 * World: mm, x across (0 = middle of the base), y up (0 = table top), z in depth (negative
 * at the front). The server sends each piece's pose twice (docs/paletti.md, "The play page"): the
 * front pose [x, y, angle_front] and the side pose [z, y, angle_side]. A fall happens in a
 * vertical plane of direction (dx, dz) and angle_front = angle·dx, angle_side = angle·dz,
 * so a piece's tilt is rebuilt as one rotation by hypot(angle_front, angle_side) about the
 * horizontal axis across that plane.
 *
 * The camera: an orthographic view from the front, turned by YAW about the vertical (the
 * back rows shift to the right, so that a column behind another shows beside it) and
 * looking down by PITCH (the platforms' tops show, where a column is placed). Projected,
 * a point becomes [X, Y] (mm on the picture, Y up) and a depth (larger: farther).
 */

export const YAW = 0.6;
export const PITCH = 0.17;
const CY = Math.cos(YAW);
const SYW = Math.sin(YAW);
const CP = Math.cos(PITCH);
const SP = Math.sin(PITCH);

// A world point [x, y, z] on the picture: [X, Y, depth].
export function project(p) {
  const across = p[0] * CY + p[2] * SYW;
  const d = -p[0] * SYW + p[2] * CY;
  return [across, p[1] * CP + d * SP, d * CP - p[1] * SP];
}

// The direction towards the camera, for shading and for turning faces away.
const TOWARDS_VIEWER = [SYW * CP, SP, -CY * CP];
// Light from above, the front and the left.
const LIGHT = normalise([-0.45, 0.8, -0.55]);

function normalise(v) {
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/* A 3-D pose {p: [x, y, z], ux, uz, t}: the centre, the tilt's direction across the floor
 * and the tilt's angle (the top leans towards -(ux, uz)), from a page pose
 * [x, y, angle_front, z, angle_side] (state.js). */
export function pose3d(v) {
  if (!v) return null;
  const t = Math.hypot(v[2], v[4]);
  return { p: [v[0], v[1], v[3]], ux: t ? v[2] / t : 1, uz: t ? v[4] / t : 0, t };
}

// A point in a body's own frame (y along its axis) into the world, as the pose turns it.
export function toWorld(pose, local) {
  const { ux, uz, t } = pose;
  const along = local[0] * ux + local[2] * uz;
  const across = -local[0] * uz + local[2] * ux;
  const c = Math.cos(t);
  const s = Math.sin(t);
  const a = along * c - local[1] * s;
  const y = along * s + local[1] * c;
  return [pose.p[0] + a * ux - across * uz, pose.p[1] + y, pose.p[2] + a * uz + across * ux];
}

// A column's cross-section: round (many sides) or hexagonal (width across flats).
export function section(kind, width) {
  if (kind === "hex") {
    const r = width / Math.sqrt(3);
    return Array.from({ length: 6 }, (_, k) => [r * Math.cos((Math.PI / 3) * k), r * Math.sin((Math.PI / 3) * k)]);
  }
  const n = 20;
  return Array.from({ length: n }, (_, k) => [(width / 2) * Math.cos((2 * Math.PI * k) / n), (width / 2) * Math.sin((2 * Math.PI * k) / n)]);
}

const square = (half) => [
  [-half, -half],
  [half, -half],
  [half, half],
  [-half, half],
];

/* A prism standing on its section ([[x, z]…], counter-clockwise from above), of height h,
 * centred on its pose: its faces, each {points (projected), normal, kind: "side"|"top"|
 * "bottom"}, the ones turned towards the camera only, and its outline on the picture. */
export function prism(pose, outline, h) {
  const bottom = outline.map(([x, z]) => toWorld(pose, [x, -h / 2, z]));
  const top = outline.map(([x, z]) => toWorld(pose, [x, h / 2, z]));
  const faces = [];
  const add = (world, kind) => {
    const normal = normalise(cross(sub(world[1], world[0]), sub(world[2], world[0])));
    if (dot(normal, TOWARDS_VIEWER) <= 1e-6) return;
    faces.push({ points: world.map(project), normal, kind });
  };
  const n = outline.length;
  for (let k = 0; k < n; k += 1) {
    const j = (k + 1) % n;
    add([bottom[k], top[k], top[j], bottom[j]], "side");
  }
  add(top.slice().reverse(), "top");
  add(bottom, "bottom");
  const all = [...bottom, ...top].map(project);
  return { faces, hull: hull(all), depth: centreDepth(all), box: box3(all, [...bottom, ...top]) };
}

function centreDepth(points) {
  let sum = 0;
  for (const p of points) sum += p[2];
  return sum / points.length;
}

function box3(projected, world) {
  const b = { xMin: Infinity, xMax: -Infinity, yMin: Infinity, yMax: -Infinity, dMin: Infinity, dMax: -Infinity, wyMin: Infinity, wyMax: -Infinity };
  for (const p of projected) {
    b.xMin = Math.min(b.xMin, p[0]);
    b.xMax = Math.max(b.xMax, p[0]);
    b.yMin = Math.min(b.yMin, p[1]);
    b.yMax = Math.max(b.yMax, p[1]);
  }
  for (const w of world) {
    const d = -w[0] * SYW + w[2] * CY;
    b.dMin = Math.min(b.dMin, d);
    b.dMax = Math.max(b.dMax, d);
    b.wyMin = Math.min(b.wyMin, w[1]);
    b.wyMax = Math.max(b.wyMax, w[1]);
  }
  return b;
}

// The convex hull of projected points (monotone chain), counter-clockwise.
export function hull(points) {
  const pts = points.map((p) => [p[0], p[1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const turn = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [];
  for (const p of pts) {
    while (lower.length >= 2 && turn(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper = [];
  for (let i = pts.length - 1; i >= 0; i -= 1) {
    const p = pts[i];
    while (upper.length >= 2 && turn(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper);
}

// Whether a picture point lies inside a convex polygon (counter-clockwise).
export function inside(polygon, x, y) {
  if (polygon.length < 3) return false;
  for (let i = 0; i < polygon.length; i += 1) {
    const a = polygon[i];
    const b = polygon[(i + 1) % polygon.length];
    if ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) < 0) return false;
  }
  return true;
}

// How far (mm on the picture) a point lies outside a convex polygon (0 inside).
export function distanceTo(polygon, x, y) {
  if (inside(polygon, x, y)) return 0;
  let best = Infinity;
  for (let i = 0; i < polygon.length; i += 1) {
    const a = polygon[i];
    const b = polygon[(i + 1) % polygon.length];
    const vx = b[0] - a[0];
    const vy = b[1] - a[1];
    const k = Math.max(0, Math.min(1, ((x - a[0]) * vx + (y - a[1]) * vy) / (vx * vx + vy * vy || 1)));
    best = Math.min(best, Math.hypot(x - a[0] - k * vx, y - a[1] - k * vy));
  }
  return best;
}

/* Every piece in the world as drawn: [{key, kind: "column"|"platform", piece, pose, shape}]
 * in painter's order (drawn first: farthest and lowest). `poses`: key → 3-D pose. */
export function buildScene(state, poses) {
  const items = [];
  for (const col of state.columns) {
    const pose = poses["c" + col.id];
    if (!pose) continue;
    items.push({ key: "c" + col.id, kind: "column", piece: col, pose, shape: prism(pose, section(col.kind, col.width), col.height) });
  }
  for (const p of state.platforms) {
    const pose = poses["p" + p.index];
    if (!pose) continue;
    items.push({ key: "p" + p.index, kind: "platform", piece: p, pose, shape: prism(pose, square(p.length / 2), p.thickness) });
  }
  return paintersOrder(items);
}

// Whether a must be drawn before b (b may cover a), or null when neither can cover the other.
function before(a, b) {
  const A = a.shape.box;
  const B = b.shape.box;
  if (A.xMax <= B.xMin || B.xMax <= A.xMin || A.yMax <= B.yMin || B.yMax <= A.yMin) return null;
  // Looking down: what lies wholly below another piece never covers it.
  if (A.wyMax <= B.wyMin + 0.5) return true;
  if (B.wyMax <= A.wyMin + 0.5) return false;
  // Looking in: what lies wholly behind never covers.
  if (A.dMin >= B.dMax - 0.01) return true;
  if (B.dMin >= A.dMax - 0.01) return false;
  return a.shape.depth > b.shape.depth;
}

// Back to front: a topological order of "may be covered by", ties and cycles broken by depth.
export function paintersOrder(items) {
  const n = items.length;
  const after = items.map(() => []);
  const waiting = new Array(n).fill(0);
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const order = before(items[i], items[j]);
      if (order === null) continue;
      const [first, second] = order ? [i, j] : [j, i];
      after[first].push(second);
      waiting[second] += 1;
    }
  }
  const done = new Array(n).fill(false);
  const out = [];
  while (out.length < n) {
    let pick = -1;
    for (let i = 0; i < n; i += 1) {
      if (done[i] || waiting[i] > 0) continue;
      if (pick < 0 || items[i].shape.depth > items[pick].shape.depth) pick = i;
    }
    if (pick < 0) {
      // A cycle: the farthest of what is left goes first.
      for (let i = 0; i < n; i += 1) if (!done[i] && (pick < 0 || items[i].shape.depth > items[pick].shape.depth)) pick = i;
    }
    done[pick] = true;
    out.push(items[pick]);
    for (const j of after[pick]) waiting[j] -= 1;
  }
  return out;
}

// The piece drawn on top at a picture point (mm), or null.
export function topAt(scene, x, y) {
  for (let i = scene.length - 1; i >= 0; i -= 1) if (inside(scene[i].shape.hull, x, y)) return scene[i];
  return null;
}

// The share of a column's outline (0 to 1) under which no other piece is drawn.
const SAMPLES = 12;
export function visibility(scene, item) {
  const polygon = item.shape.hull;
  const b = item.shape.box;
  const own = scene.indexOf(item);
  let total = 0;
  let seen = 0;
  const covers = new Map();
  for (let i = 0; i < SAMPLES; i += 1) {
    for (let j = 0; j < SAMPLES * 2; j += 1) {
      const x = b.xMin + ((i + 0.5) / SAMPLES) * (b.xMax - b.xMin);
      const y = b.yMin + ((j + 0.5) / (SAMPLES * 2)) * (b.yMax - b.yMin);
      if (!inside(polygon, x, y)) continue;
      total += 1;
      let cover = null;
      for (let k = scene.length - 1; k > own; k -= 1) {
        if (inside(scene[k].shape.hull, x, y)) {
          cover = scene[k];
          break;
        }
      }
      if (!cover) seen += 1;
      else if (cover.kind === "column") covers.set(cover, (covers.get(cover) || 0) + 1);
    }
  }
  let hider = null;
  for (const [other, count] of covers) if (!hider || count > covers.get(hider)) hider = other;
  return { share: total ? seen / total : 1, hider: hider && hider.piece };
}

// Less than this share of a column in sight: it is hidden.
export const HIDDEN_SHARE = 0.2;

/* The columns drawn hidden: id → the column that covers most of it (or null when only a
 * platform does). */
export function hiddenColumns(scene) {
  const out = new Map();
  for (const item of scene) {
    if (item.kind !== "column") continue;
    const { share, hider } = visibility(scene, item);
    if (share < HIDDEN_SHARE) out.set(item.piece.id, hider);
  }
  return out;
}

/* Where the picture is: the bounds (mm on the picture) of the base and every piece. */
export function pictureBounds(state, poseSets, headroom) {
  const d = state.dimensions;
  const half = d.base_length / 2;
  const b = { xMin: Infinity, xMax: -Infinity, yMin: Infinity, yMax: -Infinity };
  const grow = (p) => {
    const [x, y] = project(p);
    b.xMin = Math.min(b.xMin, x);
    b.xMax = Math.max(b.xMax, x);
    b.yMin = Math.min(b.yMin, y);
    b.yMax = Math.max(b.yMax, y);
  };
  for (const x of [-half, half]) for (const z of [-half, half]) for (const y of [0, headroom]) grow([x, y, z]);
  for (const poses of poseSets) {
    for (const item of buildScene(state, poses)) {
      for (const [x, y] of item.shape.hull) {
        b.xMin = Math.min(b.xMin, x);
        b.xMax = Math.max(b.xMax, x);
        b.yMin = Math.min(b.yMin, y);
        b.yMax = Math.max(b.yMax, y);
      }
    }
  }
  const margin = 8;
  return { xMin: b.xMin - margin, xMax: b.xMax + margin, yMin: b.yMin - margin, yMax: b.yMax + margin };
}

// A face's paint: the colour lit by its normal (0.55 in shade to 1 in full light).
export function lit(hex, normal) {
  const n = parseInt(hex.slice(1), 16);
  const k = 0.58 + 0.42 * Math.max(0, dot(normal, LIGHT));
  const r = Math.round((n >> 16) * k);
  const g = Math.round(((n >> 8) & 255) * k);
  const b = Math.round((n & 255) * k);
  return "rgb(" + r + "," + g + "," + b + ")";
}

/* Where a picture point (mm) falls on the horizontal plane at height y: the world [x, z]. */
export function onPlane(X, Y, y) {
  // X = x·CY + z·SYW; Y = y·CP + d·SP with d = -x·SYW + z·CY.
  const d = (Y - y * CP) / SP;
  return [X * CY - d * SYW, X * SYW + d * CY];
}

// The world x that shows at picture X for a point at depth z (any height).
export function acrossAtDepth(X, z) {
  return (X - z * SYW) / CY;
}

// Where a column's padlock sits: near its top end, in the column's own frame, so that it
// leans and falls with the column.
export function lockPoint(pose, height) {
  return toWorld(pose, [0, height / 2 - 8, 0]);
}
