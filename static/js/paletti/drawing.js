/* Villa Paletti: the large drawing of the villa, one object in three dimensions (scene.js),
 * and its animation.
 *
 * The canvas shows the picture plane of scene.js's camera: the view maps picture mm to
 * CSS px (scale, and where the picture's origin falls), as data-view tells tests and tools.
 * The view, its tween and the animation running are this module's own; the pieces' poses
 * it animates are the store's (state.js: setPoses).
 */
import * as Scene from "./scene.js";
import * as View from "./view.js";
import { narrowScreen, reducedMotion } from "./device.js";
import { fmt, gettext } from "./i18n.js";
import { advance, game, grams, legal, nextPlatform, posesOf, setPoses, setHighlight as highlightColumn, topPlatform } from "./state.js";

export const PAINT = View.PAINT;
export const FOCUS = "#d35400";

let shown = null; // the view drawn now: {width, height, scale, ox, oy, dpr}
let tweenOfView = null; // the view's tween: time -> {view, done} (view.js)
let anim = null; // the animation running, if any

// The view drawn now (read only): CSS px per picture mm (`scale`), the picture's origin on
// the canvas (`ox`, `oy`), its size.
export const currentView = () => shown;

// Whether pieces are moving in the drawing now.
export const animating = () => anim !== null;

/* ---------- Drawing ---------- */

// Fit the view to every piece, easing from the view before (view.js). After a
// collapse the frames take pieces far over the table: the view takes them in from the
// start of the animation rather than chasing them.
export function layoutCanvas(frames) {
  const state = game.state;
  const top = topPlatform(state);
  const topY = top ? top.y + top.thickness / 2 : state.dimensions.base_top;
  const poseSets = [poses3d(posesOf(state))];
  if (state.collapse) {
    const running = posesOf(state);
    for (const frame of frames || []) poseSets.push(poses3d(advance(running, frame)));
  }
  const bounds = Scene.pictureBounds(state, poseSets, topY + state.dimensions.column_height + 20);
  moveView(View.fitView(bounds, game.canvas.clientWidth || game.stage.clientWidth, drawingHeight()));
}

// The page's poses (state.js) as pieces in 3-D (scene.js).
export function poses3d(poses) {
  const out = {};
  for (const [key, pose] of Object.entries(poses)) out[key] = Scene.pose3d(pose);
  return out;
}

// The villa as drawn now: every piece in painter's order.
export function currentScene() {
  return Scene.buildScene(game.state, poses3d(game.poses));
}

// How tall the drawing may be. A phone shares its screen between the drawing, the side
// drawing and the current step's controls; a wide screen keeps the side drawing below
// the large one inside the window (the stage is sticky).
export function drawingHeight() {
  const screen = window.innerHeight;
  if (narrowScreen()) return Math.max(220, Math.min(screen * 0.4, 420));
  const depth = game.root.querySelector(".depth-view");
  const below = depth ? depth.getBoundingClientRect().height + 24 : 0;
  const top = Math.max(8, game.canvas.getBoundingClientRect().top);
  return Math.max(280, Math.min(screen * 0.7, screen - top - below));
}

export function moveView(target) {
  const now = performance.now();
  const instant = !shown || reducedMotion() || target.width !== shown.width;
  const tween = View.viewTween(shown, target, now, instant);
  tweenOfView = tween;
  refreshView(now);
  if (instant) return;
  const step = (time) => {
    if (tweenOfView !== tween) return;
    const done = refreshView(time);
    if (!anim) draw();
    if (!done) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

// Take the view of this moment; resize the canvas only when its height changes.
export function refreshView(now) {
  if (!tweenOfView) return true;
  const { view, done } = tweenOfView(now);
  const canvas = game.canvas;
  const dpr = window.devicePixelRatio || 1;
  if (!shown || shown.width !== view.width || shown.height !== view.height || shown.dpr !== dpr) {
    canvas.width = Math.round(view.width * dpr);
    canvas.height = Math.round(view.height * dpr);
    canvas.style.height = view.height + "px";
  }
  shown = Object.freeze({ ...view, dpr });
  // Where the world is on the canvas, for tests and tools: px per mm and the origin.
  canvas.dataset.view = [view.scale.toFixed(4), view.ox.toFixed(1), view.oy.toFixed(1)].join(" ");
  canvas.toggleAttribute("data-view-moving", !done);
  if (done) tweenOfView = null;
  return done;
}

export const sx = (x) => shown.ox + x * shown.scale;
export const sy = (y) => shown.oy - y * shown.scale;

// A world point [x, y, z] on the canvas (CSS px).
export function toScreen(p) {
  const [X, Y] = Scene.project(p);
  return [sx(X), sy(Y)];
}

// A canvas point (CSS px) on the picture (mm).
export function toPicture(px, py) {
  return [(px - shown.ox) / shown.scale, (shown.oy - py) / shown.scale];
}

function pathOf(ctx, points) {
  ctx.beginPath();
  points.forEach(([X, Y], i) => (i ? ctx.lineTo(sx(X), sy(Y)) : ctx.moveTo(sx(X), sy(Y))));
  ctx.closePath();
}

export function draw() {
  refreshView(performance.now());
  const ctx = game.canvas.getContext("2d");
  const v = shown;
  ctx.setTransform(v.dpr, 0, 0, v.dpr, 0, 0);
  ctx.clearRect(0, 0, v.width, v.height);
  drawTableAndBase(ctx);
  const scene = currentScene();
  for (const item of scene) drawItem(ctx, item, 1);
  drawBackOutlines(ctx, scene);
  drawMarks(ctx, scene);
  drawGhost(ctx);
}

// Outline a column (null: none), for the control or the pointer on it.
export function setHighlight(id) {
  highlightColumn(id);
  draw();
}

// The table as a floor, the base as a board on it, the forbidden zone hatched red on the
// base's top across its whole depth.
export function drawTableAndBase(ctx) {
  const d = game.state.dimensions;
  const half = d.base_length / 2;
  const floor = [
    [-half - 60, 0, -half - 40],
    [half + 60, 0, -half - 40],
    [half + 60, 0, half + 40],
    [-half - 60, 0, half + 40],
  ].map(Scene.project);
  pathOf(ctx, floor);
  ctx.fillStyle = "#e4d5bb";
  ctx.fill();
  const base = Scene.prism(Scene.pose3d([0, d.base_top - d.base_thickness / 2, 0, 0, 0]), [
    [-half, -half],
    [half, -half],
    [half, half],
    [-half, half],
  ], d.base_thickness);
  for (const face of base.faces) {
    pathOf(ctx, face.points);
    ctx.fillStyle = Scene.lit("#9a7751", face.normal);
    ctx.fill();
    ctx.strokeStyle = "rgba(0,0,0,0.45)";
    ctx.lineWidth = 1;
    ctx.stroke();
  }
  const f = d.forbidden_half_width;
  const zone = [
    [-f, d.base_top, -half],
    [f, d.base_top, -half],
    [f, d.base_top, half],
    [-f, d.base_top, half],
  ].map(Scene.project);
  ctx.save();
  pathOf(ctx, zone);
  ctx.clip();
  ctx.fillStyle = "#f3d6d2";
  ctx.fill();
  ctx.strokeStyle = "#b00020";
  ctx.lineWidth = 1.5;
  // Stripes running back, 6 mm apart across the zone.
  for (let x = -f + 3; x < f; x += 6) {
    const [x0, y0] = toScreen([x, d.base_top, -half]);
    const [x1, y1] = toScreen([x, d.base_top, half]);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
  }
  ctx.restore();
  pathOf(ctx, zone);
  ctx.strokeStyle = "#b00020";
  ctx.lineWidth = 1;
  ctx.stroke();
}

// One piece: its faces turned to the camera, each lit by its slant; its outline; on a
// column its kind's edges (the facets of a hexagonal one, the rim of a round one).
export function drawItem(ctx, item, alpha) {
  const piece = item.piece;
  const base = PAINT[piece.colour] || "#888888";
  const round = item.kind === "column" && piece.kind !== "hex";
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.lineJoin = "round";
  for (const face of item.shape.faces) {
    pathOf(ctx, face.points);
    ctx.fillStyle = Scene.lit(base, face.normal);
    ctx.fill();
    if (round && face.kind === "side") {
      // Seal the seams between a round column's narrow faces.
      ctx.strokeStyle = ctx.fillStyle;
      ctx.lineWidth = 0.8;
      ctx.stroke();
    } else {
      ctx.strokeStyle = piece.colour === "black" ? "rgba(255,255,255,0.35)" : "rgba(0,0,0,0.4)";
      ctx.lineWidth = 0.8;
      ctx.stroke();
    }
  }
  pathOf(ctx, item.shape.hull);
  ctx.lineWidth = piece.colour === "white" ? 1.5 : 1;
  ctx.strokeStyle = piece.colour === "white" ? "#4d5560" : "rgba(0,0,0,0.7)";
  ctx.stroke();
  if (item.kind === "column" && piece.locked) {
    ctx.save();
    pathOf(ctx, item.shape.hull);
    ctx.clip();
    drawHatching(ctx, item.shape.box, piece.colour === "black" || piece.colour === "purple");
    ctx.restore();
  }
  ctx.restore();
}

// A column hidden behind others keeps a dashed outline in dark and light, and a ringed dot
// in its colour at its middle, drawn over what hides it.
let hiddenMemo = { poses: null, hidden: new Map() };

// The hidden columns of the villa at rest, worked out once per pose set; none while pieces
// move (the outlines would flicker, and sampling every frame costs a phone too much).
function hiddenNow(scene) {
  if (anim) return new Map();
  if (hiddenMemo.poses !== game.poses) hiddenMemo = { poses: game.poses, hidden: Scene.hiddenColumns(scene) };
  return hiddenMemo.hidden;
}

export function drawBackOutlines(ctx, scene) {
  const hidden = hiddenNow(scene);
  for (const item of scene) {
    if (item.kind !== "column" || !hidden.has(item.piece.id)) continue;
    const col = item.piece;
    ctx.save();
    pathOf(ctx, item.shape.hull);
    ctx.lineWidth = 2;
    ctx.strokeStyle = "#ffffff";
    ctx.stroke();
    ctx.setLineDash([5, 4]);
    ctx.strokeStyle = "#1f2328";
    ctx.stroke();
    ctx.restore();
    const [x, y] = toScreen(item.pose.p);
    const r = Math.max(4, Math.min(7, col.width * shown.scale * 0.3));
    ctx.save();
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = PAINT[col.colour] || "#888";
    ctx.fill();
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#ffffff";
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(x, y, r + 1.5, 0, 2 * Math.PI);
    ctx.lineWidth = 1.2;
    ctx.strokeStyle = "#1f2328";
    ctx.stroke();
    ctx.restore();
  }
}

// Diagonal lines over a locked column (clipped to it by the caller).
export function drawHatching(ctx, box, dark) {
  ctx.strokeStyle = dark ? "#ffffff" : "#1f2328";
  ctx.lineWidth = 1.6;
  const left = sx(box.xMin);
  const right = sx(box.xMax);
  const w = right - left;
  for (let y = sy(box.yMax) - w; y < sy(box.yMin) + w; y += 7) {
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(right, y + w);
    ctx.stroke();
  }
}

// Outline the touched or highlighted column and label the touched one's load.
export function drawMarks(ctx, scene) {
  const state = game.state;
  const ids = new Set();
  if (state.touched) ids.add(state.touched.column);
  if (game.highlight !== null) ids.add(game.highlight);
  if (game.selected !== null) ids.add(game.selected);
  for (const col of game.candidates) ids.add(col.id);
  const byId = new Map(scene.filter((i) => i.kind === "column").map((i) => [i.piece.id, i]));
  for (const id of ids) {
    const item = byId.get(id);
    if (!item) continue;
    ctx.save();
    pathOf(ctx, item.shape.hull);
    ctx.lineWidth = 3;
    ctx.lineJoin = "round";
    ctx.strokeStyle = FOCUS;
    ctx.stroke();
    ctx.restore();
  }
  for (const item of byId.values()) {
    if (!item.piece.locked) continue;
    const [x, y] = toScreen(Scene.lockPoint(item.pose, item.piece.height));
    drawLock(ctx, x, y);
  }
  const touched = state.touched && byId.get(state.touched.column);
  if (touched) {
    const label = fmt(gettext("%(load)s g"), { load: grams(state.touched) });
    ctx.font = "600 14px system-ui, sans-serif";
    const tw = ctx.measureText(label).width + 12;
    const [cx] = toScreen(touched.pose.p);
    const x = Math.min(Math.max(cx - tw / 2, 2), shown.width - tw - 2);
    const y = Math.max(sy(touched.shape.box.yMax) - 30, 2);
    ctx.fillStyle = "#1f2328";
    ctx.fillRect(x, y, tw, 24);
    ctx.fillStyle = "#ffffff";
    ctx.fillText(label, x + 6, y + 17);
  }
}

// A small padlock on a locked column, drawn last so a front column cannot hide it.
export function drawLock(ctx, x, y) {
  ctx.save();
  ctx.fillStyle = "#ffffff";
  ctx.strokeStyle = "#1f2328";
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(x, y, 9, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(x, y - 1.5, 3, Math.PI, 0);
  ctx.lineWidth = 2;
  ctx.stroke();
  ctx.fillStyle = "#1f2328";
  ctx.fillRect(x - 4.5, y - 1.5, 9, 6.5);
  ctx.restore();
}

// Dashed lines across and in depth through (x, z) on a platform's top `surface` (in the
// platform's own frame `pose`, half its side `half`): where a piece will go shows either way.
function crossLines(ctx, pose, half, surface, x, z) {
  for (const [a, b] of [
    [[-half, surface, z], [half, surface, z]],
    [[x, surface, -half], [x, surface, half]],
  ]) {
    const [x0, y0] = toScreen(Scene.toWorld(pose, a));
    const [x1, y1] = toScreen(Scene.toWorld(pose, b));
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
  }
}

// Where a column would stand (holding) or the next platform would lie (lay): the piece
// half see-through and dashed, and on the top platform the point itself, with the lines
// across and in depth through it.
export function drawGhost(ctx) {
  const state = game.state;
  if (state.phase === "holding" && state.holding !== null && legal("place").length) {
    const col = state.columns.find((c) => c.id === state.holding);
    const top = topPlatform(state);
    const platform = top && Scene.pose3d(game.poses["p" + top.index]);
    if (!platform) return;
    const { x, z } = game.ghost;
    const surface = top.thickness / 2;
    const half = top.length / 2;
    ctx.save();
    ctx.strokeStyle = FOCUS;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([3, 3]);
    crossLines(ctx, platform, half, surface, x, z);
    ctx.restore();
    const pose = { ...platform, p: Scene.toWorld(platform, [x, surface + col.height / 2, z]) };
    const item = { kind: "column", piece: { ...col, locked: false }, pose, shape: Scene.prism(pose, columnSection(col), col.height) };
    drawItem(ctx, item, 0.6);
    ctx.save();
    pathOf(ctx, item.shape.hull);
    ctx.setLineDash([5, 4]);
    ctx.lineWidth = 2;
    ctx.strokeStyle = FOCUS;
    ctx.stroke();
    ctx.restore();
    const [fx, fy] = toScreen(Scene.toWorld(platform, [x, surface, z]));
    ctx.save();
    ctx.beginPath();
    ctx.arc(fx, fy, 4, 0, 2 * Math.PI);
    ctx.fillStyle = FOCUS;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = "#ffffff";
    ctx.stroke();
    ctx.restore();
  } else if (state.phase === "lay" && legal("lay_platform").length) {
    const p = nextPlatform(state);
    const top = topPlatform(state);
    const below = top && Scene.pose3d(game.poses["p" + top.index]);
    if (p && below) {
      const y = top.y + top.thickness / 2 + state.dimensions.column_height + p.thickness / 2;
      const pose = Scene.pose3d([game.ghost.x, y, 0, game.ghost.z, 0]);
      const half = p.length / 2;
      const item = {
        kind: "platform",
        piece: p,
        pose,
        shape: Scene.prism(pose, [
          [-half, -half],
          [half, -half],
          [half, half],
          [-half, half],
        ], p.thickness),
      };
      drawItem(ctx, item, 0.6);
      ctx.save();
      pathOf(ctx, item.shape.hull);
      ctx.setLineDash([5, 4]);
      ctx.lineWidth = 2;
      ctx.strokeStyle = FOCUS;
      ctx.stroke();
      // Its middle lines, across and in depth, so that an offset either way shows.
      ctx.setLineDash([3, 3]);
      ctx.lineWidth = 1.5;
      const surface = p.thickness / 2;
      crossLines(ctx, pose, half, surface, 0, 0);
      ctx.restore();
    }
  }
}

export const columnSection = (col) => Scene.section(col.kind, col.width);

/* Where a picture point (mm) falls on the top platform's upper face: [x, z] from the
 * platform's centre. A point beyond the face's back or front edge (the pointer above or
 * below the platform) keeps to that edge and still moves across. */
export function pictureToPlatform(X, Y) {
  const top = topPlatform(game.state);
  const pose = top && Scene.pose3d(game.poses["p" + top.index]);
  if (!pose) return [X, 0];
  const [wx, wz] = Scene.onPlane(X, Y, pose.p[1] + top.thickness / 2);
  const half = top.length / 2;
  const z = Math.min(half, Math.max(-half, wz - pose.p[2]));
  if (z === wz - pose.p[2]) return [wx - pose.p[0], z];
  return [Scene.acrossAtDepth(X, pose.p[2] + z) - pose.p[0], z];
}

/* ---------- Animation ---------- */

// What waits for the pieces to lie still: called when the animation running ends.
const stillWaiters = [];

export function whenStill(callback) {
  if (anim) stillWaiters.push(callback);
  else callback();
}

function nowStill() {
  for (const callback of stillWaiters.splice(0)) callback();
}

export function animate(frames, target) {
  anim = null;
  if (!frames || !frames.length || reducedMotion()) {
    game.root.removeAttribute("data-animating");
    setPoses(target);
    draw();
    nowStill();
    return;
  }
  const from = game.poses;
  const tracks = {};
  // A frame lists only the bodies that moved (in the front view, the side view or both):
  // one absent from a frame stood still, so it holds its pose until the frame before it
  // moves again (not a slow glide across the gap).
  let previous = 0;
  const running = { ...from };
  for (const frame of frames) {
    advance(running, frame);
    const moved = new Set([...Object.keys(frame.poses || {}), ...Object.keys(frame.side || {})]);
    for (const name of moved) {
      if (!(name in running)) continue;
      if (!tracks[name]) tracks[name] = [[0, from[name] || null]];
      const track = tracks[name];
      const last = track[track.length - 1];
      if (last[0] < previous) track.push([previous, last[1]]);
      track.push([frame.t, running[name]]);
    }
    previous = frame.t;
  }
  const playing = { start: performance.now(), duration: frames[frames.length - 1].t, tracks, from, target };
  anim = playing;
  game.root.setAttribute("data-animating", "");
  const tick = (now) => {
    if (anim !== playing) return;
    const t = (now - playing.start) / 1000;
    const done = t >= playing.duration;
    if (done) {
      anim = null;
      setPoses(target);
      game.root.removeAttribute("data-animating");
    } else {
      const poses = { ...from };
      for (const [name, track] of Object.entries(tracks)) poses[name] = sample(track, t);
      setPoses(poses);
      requestAnimationFrame(tick);
    }
    draw();
    if (done) nowStill();
  };
  requestAnimationFrame(tick);
}

// A pose at time t on a track of [t, pose] (null: not in the world), straight between
// frames, every component of the page's poses alike.
export function sample(track, t) {
  let i = 0;
  while (i + 1 < track.length && track[i + 1][0] <= t) i++;
  const [t0, p0] = track[i];
  if (i + 1 >= track.length) return p0;
  const [t1, p1] = track[i + 1];
  if (!p0 || !p1 || t1 <= t0) return p0;
  const k = (t - t0) / (t1 - t0);
  return p0.map((v, n) => v + (p1[n] - v) * k);
}
