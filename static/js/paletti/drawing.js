/* Villa Paletti: the large drawing of the villa (front view) and its animation.
 */
import * as View from "./view.js";
import { narrowScreen } from "./device.js";
import { fmt, gettext } from "./i18n.js";
import { game, grams, legal, nextPlatform, posesOf, topPlatform } from "./state.js";

export const PAINT = View.PAINT;
export const FOCUS = "#d35400";

/* ---------- Drawing ---------- */

// Fit the view to every piece, easing from the view before (view.js). After a
// collapse the frames take pieces far over the table: the view takes them in from the
// start of the animation rather than chasing them.
export function layoutCanvas(frames) {
  const state = game.state;
  const top = topPlatform(state);
  const topY = top ? top.y + top.thickness / 2 : state.dimensions.base_top;
  const poseSets = [posesOf(state)];
  if (state.collapse) for (const frame of frames || []) poseSets.push(frame.poses);
  const bounds = View.sceneBounds(state, poseSets, topY + state.dimensions.column_height + 40);
  moveView(View.fitView(bounds, game.canvas.clientWidth || game.stage.clientWidth, drawingHeight()));
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
  const instant = !game.view || reducedMotion() || target.width !== game.view.width;
  const tween = View.viewTween(game.view, target, now, instant);
  game.viewAt = tween;
  refreshView(now);
  if (instant) return;
  const step = (time) => {
    if (game.viewAt !== tween) return;
    const done = refreshView(time);
    if (!game.anim) draw();
    if (!done) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

// Take the view of this moment; resize the canvas only when its height changes.
export function refreshView(now) {
  if (!game.viewAt) return true;
  const { view, done } = game.viewAt(now);
  const canvas = game.canvas;
  const dpr = window.devicePixelRatio || 1;
  if (!game.view || game.view.width !== view.width || game.view.height !== view.height || game.view.dpr !== dpr) {
    canvas.width = Math.round(view.width * dpr);
    canvas.height = Math.round(view.height * dpr);
    canvas.style.height = view.height + "px";
  }
  game.view = { ...view, dpr };
  // Where the world is on the canvas, for tests and tools: px per mm and the origin.
  canvas.dataset.view = [view.scale.toFixed(4), view.ox.toFixed(1), view.oy.toFixed(1)].join(" ");
  canvas.toggleAttribute("data-view-moving", !done);
  if (done) game.viewAt = null;
  return done;
}

export const sx = (x) => game.view.ox + x * game.view.scale;
export const sy = (y) => game.view.oy - y * game.view.scale;

export function toWorld(px, py) {
  return [(px - game.view.ox) / game.view.scale, (game.view.oy - py) / game.view.scale];
}

// Mix a colour with paper to draw back lanes paler (depth without 3-D).
export function shade(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c, target) => Math.round(c + (target - c) * amount);
  const r = mix(n >> 16, 0xd9);
  const g = mix((n >> 8) & 255, 0xd6);
  const b = mix(n & 255, 0xcf);
  return "rgb(" + r + "," + g + "," + b + ")";
}

export function draw() {
  refreshView(performance.now());
  const ctx = game.canvas.getContext("2d");
  const v = game.view;
  ctx.setTransform(v.dpr, 0, 0, v.dpr, 0, 0);
  ctx.clearRect(0, 0, v.width, v.height);
  drawTableAndBase(ctx);
  const state = game.state;
  const byLane = [2, 1, 0];
  for (const lane of byLane) {
    for (const col of state.columns) {
      const pose = game.poses["c" + col.id];
      if (pose && col.lane === lane) drawColumn(ctx, col, pose, 1);
    }
  }
  for (const p of state.platforms) {
    const pose = game.poses["p" + p.index];
    if (pose) drawPlatform(ctx, p, pose, 1);
  }
  drawBackOutlines(ctx);
  drawMarks(ctx);
  drawGhost(ctx);
}

export function drawTableAndBase(ctx) {
  const d = game.state.dimensions;
  const s = game.view.scale;
  ctx.fillStyle = "#c9b08a";
  ctx.fillRect(0, sy(0), game.view.width, 14 * s);
  ctx.fillStyle = "#8a6a46";
  const half = d.base_length / 2;
  ctx.fillRect(sx(-half), sy(d.base_top), d.base_length * s, d.base_thickness * s);
  // The forbidden zone: hatched red in the middle of the base.
  const f = d.forbidden_half_width;
  ctx.save();
  ctx.beginPath();
  ctx.rect(sx(-f), sy(d.base_top), 2 * f * s, d.base_thickness * s);
  ctx.clip();
  ctx.fillStyle = "#f3d6d2";
  ctx.fill();
  ctx.strokeStyle = "#b00020";
  ctx.lineWidth = 1.5;
  for (let x = -f - 20; x < f; x += 5) {
    ctx.beginPath();
    ctx.moveTo(sx(x), sy(d.base_top - d.base_thickness));
    ctx.lineTo(sx(x + d.base_thickness), sy(d.base_top));
    ctx.stroke();
  }
  ctx.restore();
}

export function bodyPath(ctx, pose, w, h) {
  const s = game.view.scale;
  ctx.translate(sx(pose[0]), sy(pose[1]));
  ctx.rotate(-pose[2]);
  ctx.beginPath();
  ctx.rect((-w / 2) * s, (-h / 2) * s, w * s, h * s);
}

export function drawColumn(ctx, col, pose, alpha) {
  const s = game.view.scale;
  const w = col.width;
  const h = col.height;
  const base = PAINT[col.colour] || "#888";
  ctx.save();
  ctx.globalAlpha = alpha;
  bodyPath(ctx, pose, w, h);
  ctx.fillStyle = col.lane === 0 ? base : shade(base, col.lane === 1 ? 0.35 : 0.6);
  ctx.fill();
  ctx.lineWidth = col.colour === "white" ? 1.5 : 1;
  ctx.strokeStyle = col.colour === "white" ? "#4d5560" : "rgba(0,0,0,0.55)";
  ctx.stroke();
  ctx.clip();
  const dark = col.colour === "black" || col.colour === "purple";
  ctx.strokeStyle = dark ? "rgba(255,255,255,0.55)" : "rgba(0,0,0,0.35)";
  ctx.lineWidth = 1;
  if (col.kind === "hex") {
    // Two facet edges: a hexagonal prism seen from the side.
    for (const fx of [-w / 4, w / 4]) {
      ctx.beginPath();
      ctx.moveTo(fx * s, (-h / 2) * s);
      ctx.lineTo(fx * s, (h / 2) * s);
      ctx.stroke();
    }
  } else {
    // A highlight stripe: round columns look round.
    ctx.fillStyle = dark ? "rgba(255,255,255,0.18)" : "rgba(255,255,255,0.45)";
    ctx.fillRect((-w / 4) * s, (-h / 2) * s, (w / 6) * s, h * s);
  }
  if (col.locked) drawHatching(ctx, w, h, dark);
  ctx.restore();
}

// A column hidden behind one in a nearer lane (even of its own colour) keeps a dashed
// outline in dark and light, and a ringed dot in its colour, set apart by lane so that two
// hidden columns at the same place show two dots.
export function drawBackOutlines(ctx) {
  const shown = game.state.columns.filter((c) => game.poses["c" + c.id]);
  for (const col of shown) {
    if (!View.hiddenBehind(col, shown, game.poses)) continue;
    const pose = game.poses["c" + col.id];
    ctx.save();
    bodyPath(ctx, pose, col.width - 2, col.height - 2);
    ctx.lineWidth = 2;
    ctx.strokeStyle = "#ffffff";
    ctx.stroke();
    ctx.setLineDash([5, 4]);
    ctx.strokeStyle = "#1f2328";
    ctx.stroke();
    ctx.restore();
    const shift = (col.lane === 1 ? -1 : 1) * Math.min(18, col.height * game.view.scale * 0.22);
    const x = sx(pose[0]);
    const y = sy(pose[1]) + shift;
    // Small enough to leave a thin front column visible around it on a phone.
    const r = Math.max(4, Math.min(7, col.width * game.view.scale * 0.3));
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

export function drawHatching(ctx, w, h, dark) {
  const s = game.view.scale;
  ctx.strokeStyle = dark ? "#ffffff" : "#1f2328";
  ctx.lineWidth = 1.6;
  for (let y = -h / 2 - w; y < h / 2 + w; y += 7) {
    ctx.beginPath();
    ctx.moveTo((-w / 2) * s, y * s);
    ctx.lineTo((w / 2) * s, (y + w) * s);
    ctx.stroke();
  }
}

export function drawPlatform(ctx, p, pose, alpha) {
  ctx.save();
  ctx.globalAlpha = alpha;
  bodyPath(ctx, pose, p.length, p.thickness);
  ctx.fillStyle = PAINT[p.colour] || "#888";
  ctx.fill();
  ctx.strokeStyle = "rgba(0,0,0,0.6)";
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
}

// Outline the touched or highlighted column and label the touched one's load.
export function drawMarks(ctx) {
  const state = game.state;
  const ids = new Set();
  if (state.touched) ids.add(state.touched.column);
  if (game.highlight !== null) ids.add(game.highlight);
  if (game.selected !== null) ids.add(game.selected);
  for (const col of game.candidates) ids.add(col.id);
  for (const id of ids) {
    const col = state.columns.find((c) => c.id === id);
    const pose = col && game.poses["c" + id];
    if (!pose) continue;
    ctx.save();
    bodyPath(ctx, pose, col.width + 4, col.height + 4);
    ctx.lineWidth = 3;
    ctx.strokeStyle = FOCUS;
    ctx.stroke();
    ctx.restore();
  }
  for (const col of state.columns) {
    const pose = game.poses["c" + col.id];
    if (!col.locked || !pose) continue;
    const [lx, ly] = View.lockPoint(pose, col.height);
    drawLock(ctx, sx(lx), sy(ly));
  }
  if (state.touched && game.poses["c" + state.touched.column]) {
    const pose = game.poses["c" + state.touched.column];
    const label = fmt(gettext("%(load)s g"), { load: grams(state.touched) });
    ctx.font = "600 14px system-ui, sans-serif";
    const tw = ctx.measureText(label).width + 12;
    const x = Math.min(Math.max(sx(pose[0]) - tw / 2, 2), game.view.width - tw - 2);
    const y = Math.max(sy(pose[1] + 30) - 30, 2);
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

export function drawGhost(ctx) {
  const state = game.state;
  if (state.phase === "holding" && state.holding !== null && legal("place").length) {
    const col = state.columns.find((c) => c.id === state.holding);
    const pose = placePose(col, game.ghost.x);
    if (pose) {
      drawColumn(ctx, { ...col, lane: game.ghost.lane, locked: false }, pose, 0.65);
      ctx.save();
      bodyPath(ctx, pose, col.width, col.height);
      ctx.setLineDash([5, 4]);
      ctx.lineWidth = 2;
      ctx.strokeStyle = FOCUS;
      ctx.stroke();
      ctx.restore();
    }
  } else if (state.phase === "lay" && legal("lay_platform").length) {
    const p = nextPlatform(state);
    const top = topPlatform(state);
    if (p && top) {
      const y = top.y + top.thickness / 2 + state.dimensions.column_height + p.thickness / 2;
      drawPlatform(ctx, p, [game.ghost.x, y, 0], 0.6);
      ctx.save();
      bodyPath(ctx, [game.ghost.x, y, 0], p.length, p.thickness);
      ctx.setLineDash([5, 4]);
      ctx.lineWidth = 2;
      ctx.strokeStyle = FOCUS;
      ctx.stroke();
      ctx.restore();
    }
  }
}

// "place" x is along the top platform from its centre, in the platform's own frame.
export function placePose(col, x) {
  const top = topPlatform(game.state);
  const pose = top && game.poses["p" + top.index];
  if (!pose) return null;
  const [px, py, a] = pose;
  const up = top.thickness / 2 + col.height / 2;
  return [px + x * Math.cos(a) - up * Math.sin(a), py + x * Math.sin(a) + up * Math.cos(a), a];
}

export function worldToPlatformX(wx) {
  const top = topPlatform(game.state);
  const pose = top && game.poses["p" + top.index];
  if (!pose) return wx;
  return (wx - pose[0]) / Math.cos(pose[2]);
}

/* ---------- Animation ---------- */

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function animate(frames, target) {
  if (game.anim) game.anim = null;
  if (!frames || !frames.length || reducedMotion()) {
    game.root.removeAttribute("data-animating");
    game.poses = target;
    draw();
    return;
  }
  const from = game.poses;
  const tracks = {};
  // A frame lists only the bodies that moved: one absent from frames stood still, so it
  // holds its pose until the frame before it moves again (not a slow glide across the gap).
  let previous = 0;
  for (const frame of frames) {
    for (const [name, pose] of Object.entries(frame.poses)) {
      if (!tracks[name]) tracks[name] = [[0, from[name] || null]];
      const track = tracks[name];
      const last = track[track.length - 1];
      if (last[0] < previous) track.push([previous, last[1]]);
      track.push([frame.t, pose]);
    }
    previous = frame.t;
  }
  const anim = { start: performance.now(), duration: frames[frames.length - 1].t, tracks, from, target };
  game.anim = anim;
  game.root.setAttribute("data-animating", "");
  const tick = (now) => {
    if (game.anim !== anim) return;
    const t = (now - anim.start) / 1000;
    if (t >= anim.duration) {
      game.anim = null;
      game.poses = target;
      game.root.removeAttribute("data-animating");
    } else {
      const poses = { ...from };
      for (const [name, track] of Object.entries(tracks)) poses[name] = sample(track, t);
      game.poses = poses;
      requestAnimationFrame(tick);
    }
    draw();
  };
  requestAnimationFrame(tick);
}

export const sample = View.sample;
