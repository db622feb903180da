/* Villa Paletti: where things are on the drawing. Geometry only, for the drawing and the pointing modules.
 *
 * Which columns lie under a point (the drawn rectangles, tilted as they are), which column
 * hides behind one in a nearer lane, where a column's padlock sits when it leans or lies,
 * and the view (scale and offset) that keeps every piece in the picture, eased from one
 * view to the next. World units are mm, y up; a pose is [x, y, angle].
 */

// The villa's own frame when nothing lies far away: the base and a margin (mm).
const HOME = { xMin: -138, xMax: 138, yMin: -14, yMax: 190 };
const MARGIN = 12;
// How long the view takes to move to a new one (ms).
const VIEW_TIME = 450;

// A world point in a body's own frame (x along it, y up it).
function toLocal(pose, wx, wy) {
  const dx = wx - pose[0];
  const dy = wy - pose[1];
  const c = Math.cos(pose[2]);
  const s = Math.sin(pose[2]);
  return [dx * c + dy * s, -dx * s + dy * c];
}

function fromLocal(pose, lx, ly) {
  const c = Math.cos(pose[2]);
  const s = Math.sin(pose[2]);
  return [pose[0] + lx * c - ly * s, pose[1] + lx * s + ly * c];
}

/* The columns under a world point, nearest lane first. A column counts when the point
 * lies inside its drawn rectangle, or within `slack` mm of it when none contains it
 * (a finger is wider than a thin column). `columns`: [{id, width, height, lane}]. */
export function columnsUnder(columns, poses, wx, wy, slack) {
  const hits = [];
  for (const col of columns) {
    const pose = poses["c" + col.id];
    if (!pose) continue;
    const [lx, ly] = toLocal(pose, wx, wy);
    const dx = Math.max(0, Math.abs(lx) - col.width / 2);
    const dy = Math.max(0, Math.abs(ly) - col.height / 2);
    const distance = Math.hypot(dx, dy);
    if (distance <= slack) hits.push({ col, distance });
  }
  const inside = hits.filter((h) => h.distance === 0);
  const chosen = inside.length ? inside : hits;
  chosen.sort((a, b) => a.col.lane - b.col.lane || a.distance - b.distance);
  return chosen.map((h) => h.col);
}

// A back column showing less than this much of its width (mm) cannot be told apart.
const VISIBLE_MIN = 4;

/* The column in a nearer lane that hides `col` as drawn, or null. Hidden: the nearer
 * columns at its height together leave less than VISIBLE_MIN mm of it in sight; the one
 * returned covers most of it. */
export function hiddenBehind(col, columns, poses) {
  const pose = poses["c" + col.id];
  if (!pose || col.lane === 0) return null;
  const left = pose[0] - col.width / 2;
  const right = pose[0] + col.width / 2;
  const spans = [];
  let best = null;
  for (const other of columns) {
    const near = poses["c" + other.id];
    if (!near || other.lane >= col.lane || other.id === col.id) continue;
    if (Math.abs(near[1] - pose[1]) > col.height / 2) continue;
    const a = Math.max(left, near[0] - other.width / 2);
    const b = Math.min(right, near[0] + other.width / 2);
    if (b <= a) continue;
    spans.push([a, b]);
    if (!best || b - a > best.cover) best = { other, cover: b - a };
  }
  spans.sort((p, q) => p[0] - q[0]);
  let seen = 0;
  let reach = left;
  for (const [a, b] of spans) {
    if (a > reach) seen += a - reach;
    reach = Math.max(reach, b);
  }
  seen += Math.max(0, right - reach);
  return best && seen < VISIBLE_MIN ? best.other : null;
}

// Where a column's padlock sits: near its top end, in the column's own frame, so that it
// leans and falls with the column.
export function lockPoint(pose, height) {
  return fromLocal(pose, 0, height / 2 - 8);
}

function grow(bounds, pose, w, h) {
  if (!pose) return;
  for (const [lx, ly] of [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) {
    const [x, y] = fromLocal(pose, lx, ly);
    bounds.xMin = Math.min(bounds.xMin, x);
    bounds.xMax = Math.max(bounds.xMax, x);
    bounds.yMin = Math.min(bounds.yMin, y);
    bounds.yMax = Math.max(bounds.yMax, y);
  }
}

/* The part of the world to show: the villa's home frame, room above the top for the
 * next column or platform (`headroom`, mm), and every piece in any of `poseSets`. */
export function sceneBounds(state, poseSets, headroom) {
  const bounds = { ...HOME };
  bounds.yMax = Math.max(bounds.yMax, headroom);
  const sizes = {};
  for (const col of state.columns) sizes["c" + col.id] = [col.width, col.height];
  for (const p of state.platforms) sizes["p" + p.index] = [p.length, p.thickness];
  for (const poses of poseSets) {
    for (const [name, pose] of Object.entries(poses)) {
      if (sizes[name]) grow(bounds, pose, sizes[name][0] + 2 * MARGIN, sizes[name][1] + 2 * MARGIN);
    }
  }
  return bounds;
}

/* The view that shows `bounds` on a canvas `width` CSS px wide: its height (between
 * 240 px and `maxHeight`), the scale (px per mm) and where the world's origin falls. */
export function fitView(bounds, width, maxHeight) {
  const worldW = bounds.xMax - bounds.xMin;
  const worldH = bounds.yMax - bounds.yMin;
  const height = Math.min(maxHeight, Math.max(240, (width * worldH) / worldW));
  const scale = Math.min(width / worldW, height / worldH);
  const middle = (bounds.xMin + bounds.xMax) / 2;
  return {
    width,
    height: Math.round(height),
    scale,
    ox: width / 2 - middle * scale,
    // The table at the bottom: spare height goes above the villa.
    oy: height + bounds.yMin * scale,
  };
}

const ease = (k) => (k < 0.5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2);

/* A view moving from `from` to `to`: call with the time (ms) for the view at that time;
 * `done` says whether it has arrived. */
export function viewTween(from, to, start, instant) {
  return function at(now) {
    const k = instant || !from ? 1 : Math.min(1, Math.max(0, (now - start) / VIEW_TIME));
    if (k >= 1) return { view: to, done: true };
    const e = ease(k);
    const mix = (a, b) => a + (b - a) * e;
    return {
      view: {
        width: to.width,
        height: Math.round(mix(from.height, to.height)),
        scale: mix(from.scale, to.scale),
        ox: mix(from.ox, to.ox),
        oy: mix(from.oy, to.oy),
      },
      done: false,
    };
  };
}

// The pieces' paint, shared by the front and the side drawings.
export const PAINT = {
  white: "#f6f3ea",
  black: "#25272b",
  purple: "#7d3c98",
  pink: "#e8709f",
  blue: "#2b6cc4",
  green: "#2f9a52",
  yellow: "#e8c12c",
  orange: "#ec8a2d",
  red: "#cf3b3b",
};

// A pose at time t on a track of [t, pose] (null: not in the world), straight between
// frames: both drawings animate the server's frames this way.
export function sample(track, t) {
  let i = 0;
  while (i + 1 < track.length && track[i + 1][0] <= t) i++;
  const [t0, p0] = track[i];
  if (i + 1 >= track.length) return p0;
  const [t1, p1] = track[i + 1];
  if (!p0 || !p1 || t1 <= t0) return p0;
  const k = (t - t0) / (t1 - t0);
  return [p0[0] + (p1[0] - p0[0]) * k, p0[1] + (p1[1] - p0[1]) * k, p0[2] + (p1[2] - p0[2]) * k];
}
