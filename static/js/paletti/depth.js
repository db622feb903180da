/* Villa Paletti: the small drawing of the villa seen from its side, across its depth.
 *
 * The server decides in three dimensions whether the villa stands and simulates a motion
 * in the plane it happens in (docs/paletti.md, "Standing, in 3-D" and "Motion"); the large
 * drawing shows the villa in 3-D, this one from its side, where columns at one depth stand
 * one behind the other and a fall towards the front or the back is plain to see. It draws
 * state.columns[].side and state.platforms[].side ([z, y, angle], mm, y up) and animates
 * the "side" poses of the frames. No framework; the play page calls show(state, frames)
 * after every answer from the server, and play(frames) for each action of a bot's turn
 * told one at a time. While a column is held or the next platform is to be laid, it shows
 * where it would go (the page's ghost, at its depth), and a pointer on it moves the ghost
 * in depth (depthAt, pointing.js).
 */
import { reducedMotion } from "./device.js";
import { gettext } from "./i18n.js";
import { game, legal, nextPlatform, topPlatform } from "./state.js";
import { PAINT, sample } from "./view.js";

// The ghost's outline: the large drawing's focus colour.
const FOCUS = "#d35400";

const view = { canvas: null, state: null, poses: {}, anim: null, scale: 1, x0: 0, y0: 0 };

// A platform's side pose carries a fourth number: its tilt across the width (the front
// view's angle). A board tilted that way is seen from the side as a band as tall as its
// tilt makes it, not as a level board: after a fall to the left or right it shows lying.
function withTilt(side, front) {
  return side ? [...side.slice(0, 3), front ? front[2] : 0] : null;
}

function posesOf(state) {
  const poses = {};
  for (const col of state.columns) poses["c" + col.id] = col.side || null;
  for (const p of state.platforms) poses["p" + p.index] = withTilt(p.side, [p.x, p.y, p.angle]);
  return poses;
}

// A frame's side poses, platforms with their tilt across the width.
function sidePoses(frame) {
  const poses = { ...frame.side };
  for (const name of Object.keys(poses)) {
    if (name[0] === "p") poses[name] = withTilt(poses[name], (frame.poses || {})[name]);
  }
  return poses;
}

// Fit the base and every piece (fallen ones included) into the canvas.
function fit(poses) {
  const d = view.state.dimensions;
  const half = d.base_length / 2 + 10;
  let left = -half;
  let right = half;
  let top = d.base_top + d.column_height * 2;
  const reach = {};
  for (const col of view.state.columns) reach["c" + col.id] = col.height / 2;
  for (const p of view.state.platforms) reach["p" + p.index] = p.length / 2;
  for (const [name, pose] of Object.entries(poses)) {
    if (!pose) continue;
    const r = (reach[name] || 50) + 6;
    left = Math.min(left, pose[0] - r);
    right = Math.max(right, pose[0] + r);
    top = Math.max(top, pose[1] + r);
  }
  const canvas = view.canvas;
  const width = canvas.clientWidth || 200;
  const height = canvas.clientHeight || 160;
  const dpr = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * dpr)) canvas.width = Math.round(width * dpr);
  if (canvas.height !== Math.round(height * dpr)) canvas.height = Math.round(height * dpr);
  const bottom = -12;
  view.scale = Math.min(width / (right - left), (height - 18) / (top - bottom));
  view.x0 = width / 2 - ((left + right) / 2) * view.scale;
  view.y0 = height - 18 + bottom * view.scale;
  view.dpr = dpr;
  view.width = width;
  view.height = height;
}

const sx = (z) => view.x0 + z * view.scale;
const sy = (y) => view.y0 - y * view.scale;

function box(ctx, pose, width, height, fill, stroke) {
  ctx.save();
  ctx.translate(sx(pose[0]), sy(pose[1]));
  ctx.rotate(-pose[2]);
  const w = width * view.scale;
  const h = height * view.scale;
  ctx.fillStyle = fill;
  ctx.fillRect(-w / 2, -h / 2, w, h);
  ctx.strokeStyle = stroke;
  ctx.lineWidth = 1;
  ctx.strokeRect(-w / 2, -h / 2, w, h);
  ctx.restore();
}

function draw() {
  const state = view.state;
  const canvas = view.canvas;
  if (!state || !canvas) return;
  fit(view.poses);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(view.dpr, 0, 0, view.dpr, 0, 0);
  ctx.clearRect(0, 0, view.width, view.height);
  const d = state.dimensions;
  ctx.fillStyle = "#c9b08a";
  ctx.fillRect(0, sy(0), view.width, 12 * view.scale + 2);
  ctx.fillStyle = "#8a6a46";
  const half = d.base_length / 2;
  ctx.fillRect(sx(-half), sy(d.base_top), d.base_length * view.scale, d.base_thickness * view.scale);
  // Columns at one depth stand one behind the other here: drawn half see-through, so that
  // how many stand there shows as a deeper colour.
  ctx.globalAlpha = 0.55;
  for (const col of state.columns) {
    const pose = view.poses["c" + col.id];
    if (pose) box(ctx, pose, col.width, col.height, PAINT[col.colour], "rgba(0,0,0,0.6)");
  }
  ctx.globalAlpha = 1;
  for (const p of state.platforms) {
    const pose = view.poses["p" + p.index];
    if (!pose) continue;
    const tilt = pose[3] || 0;
    const tall = p.thickness * Math.abs(Math.cos(tilt)) + p.length * Math.abs(Math.sin(tilt));
    // Seen slantwise, half see-through: the columns it leans on still show.
    ctx.globalAlpha = Math.abs(tilt) > 0.1 ? 0.6 : 1;
    box(ctx, pose, p.length, tall, PAINT[p.colour], "rgba(0,0,0,0.7)");
    ctx.globalAlpha = 1;
  }
  drawGhost(ctx);
  ctx.fillStyle = "#1f2328";
  ctx.font = "12px system-ui, sans-serif";
  ctx.textBaseline = "bottom";
  ctx.textAlign = "left";
  // At the drawing's edges, where a narrow drawing leaves them room.
  ctx.fillText(gettext("front"), Math.min(sx(-half), 4), view.height - 1);
  ctx.textAlign = "right";
  ctx.fillText(gettext("back"), Math.max(sx(half), view.width - 4), view.height - 1);
}

// Where a held column would stand, or the next platform would lie, seen from the side:
// half see-through with a dashed outline, at the ghost's depth (game.ghost: a column's
// from the top platform's centre, a platform's in the world).
export function ghostBox() {
  const state = game.state;
  if (!state || state !== view.state || view.anim || state.status !== "playing") return null;
  const top = topPlatform(state);
  if (!top) return null;
  const surface = top.y + top.thickness / 2;
  if (state.phase === "lay" && legal("lay_platform").length) {
    const p = nextPlatform(state);
    if (!p) return null;
    const y = surface + state.dimensions.column_height + p.thickness / 2;
    return { pose: [game.ghost.z, y, 0], width: p.length, height: p.thickness, colour: p.colour };
  }
  if (state.phase === "holding" && state.holding !== null && legal("place").length) {
    const col = state.columns.find((c) => c.id === state.holding);
    if (!col) return null;
    const z = (top.side ? top.side[0] : 0) + game.ghost.z;
    return { pose: [z, surface + col.height / 2, 0], width: col.width, height: col.height, colour: col.colour };
  }
  return null;
}

function drawGhost(ctx) {
  const ghost = ghostBox();
  view.canvas.toggleAttribute("data-pointable", Boolean(ghost));
  if (!ghost) return;
  ctx.save();
  ctx.globalAlpha = 0.5;
  box(ctx, ghost.pose, ghost.width, ghost.height, PAINT[ghost.colour], "rgba(0,0,0,0.7)");
  ctx.globalAlpha = 1;
  ctx.setLineDash([4, 3]);
  ctx.lineWidth = 2;
  ctx.strokeStyle = FOCUS;
  const w = ghost.width * view.scale;
  const h = ghost.height * view.scale;
  ctx.strokeRect(sx(ghost.pose[0]) - w / 2, sy(ghost.pose[1]) - h / 2, w, h);
  ctx.restore();
}

// The depth (world z, mm) a pointer at clientX shows on the side drawing.
export function depthAt(clientX) {
  const rect = view.canvas.getBoundingClientRect();
  return (clientX - rect.left - view.x0) / view.scale;
}

// Draw again (the ghost moved).
export function redraw() {
  draw();
}

// The state after an answer: animate its frames, then show the state's poses. `opening`:
// where the pieces stood before the frames (a new match whose bots played first).
export function show(state, frames, opening) {
  if (!adopt(state, opening)) return;
  run(frames, posesOf(state));
}

// Take a new state without moving the pieces yet (a turn about to be told step by step).
export function adopt(state, opening) {
  view.canvas = view.canvas || document.getElementById("villa-depth");
  if (!view.canvas) return false;
  if (view.state === null) view.poses = posesOf(opening || state);
  view.state = state;
  return true;
}

// Part of an answer's frames (one action told at a time): animate them from where the
// pieces are, and stay where they end.
export function play(frames) {
  if (!view.state) return;
  const target = { ...view.poses };
  for (const frame of frames || []) if (frame.side) Object.assign(target, sidePoses(frame));
  run(frames, target);
}

function run(frames, target) {
  const moving = (frames || []).filter((f) => f.side);
  view.anim = null;
  if (!moving.length || reducedMotion()) {
    view.poses = target;
    draw();
    return;
  }
  const from = view.poses;
  const tracks = {};
  for (const frame of moving) {
    for (const [name, pose] of Object.entries(sidePoses(frame))) {
      if (!tracks[name]) tracks[name] = [[0, from[name] || null]];
      tracks[name].push([frame.t, pose]);
    }
  }
  const anim = { start: performance.now(), duration: frames[frames.length - 1].t };
  view.anim = anim;
  const tick = (now) => {
    if (view.anim !== anim) return;
    const t = (now - anim.start) / 1000;
    if (t >= anim.duration) {
      view.anim = null;
      view.poses = target;
    } else {
      const poses = { ...from };
      for (const [name, track] of Object.entries(tracks)) poses[name] = sample(track, t);
      view.poses = poses;
      requestAnimationFrame(tick);
    }
    draw();
  };
  requestAnimationFrame(tick);
}

window.addEventListener("resize", draw);
