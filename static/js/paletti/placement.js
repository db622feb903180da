/* Villa Paletti: where the held column would stand on the top platform, or the next platform
 * would lie (game.ghost): the room it has, the nearest point it may go to, moving it by
 * pointer, key or lane, and the placer's slider (built by controls.js) saying where it is.
 */
import * as Depth from "./depth.js";
import { draw } from "./drawing.js";
import { fmt, gettext } from "./i18n.js";
import { LANE_NAMES } from "./names.js";
import { game, legal, setGhost, subscribe, topPlatform } from "./state.js";

// Each new state puts the point (or the platform) back where a placement starts.
export function initPlacement() {
  subscribe((change) => {
    if (change === "state") resetGhost();
  });
}

// How far one key press moves the point (mm): the engine's own listing grid.
export const STEP = 5;
// Kept from the engine's limits (paletti/engine/rules.py: placement_range, _overlapped),
// with this much to spare so that the quantised poses the page sees never disagree.
const SPARE = 0.6;
const CLEARANCE = 0.5;
const RED = 4;

// What bounds a column's point on the top platform: the interval of x and of z (from its
// centre, the platform being square) and the feet it may not touch.
export function placeRoom() {
  const state = game.state;
  const col = state.columns.find((c) => c.id === state.holding);
  const top = topPlatform(state);
  if (!col || !top) return null;
  const half = top.length / 2 - col.width / 2;
  const centre = [top.x, top.side ? top.side[0] : 0];
  const feet =
    top.index === RED
      ? []
      : state.columns
          .filter((c) => c.id !== col.id && c.level === state.top_level && c.x !== null && !c.removed && !c.in_hand)
          .map((c) => ({ x: c.x - centre[0], z: c.z - centre[1], reach: (col.width + c.width) / 2 + CLEARANCE + SPARE }));
  return { low: -half, high: half, feet };
}

const free = (room, x, z) => room.feet.every((f) => (f.x - x) ** 2 + (f.z - z) ** 2 >= f.reach * f.reach);
const clampTo = (room, v) => Math.min(room.high, Math.max(room.low, v));

// The free point on the top platform nearest to (x, z), on a 1 mm grid inside the range.
export function nearestFree(x, z) {
  const room = placeRoom();
  if (!room) return null;
  const fit = (v) => clampTo(room, Math.round(v));
  const inRange = (v) => (v < room.low ? Math.ceil(room.low) : v > room.high ? Math.floor(room.high) : v);
  let best = null;
  const wanted = [inRange(fit(x)), inRange(fit(z))];
  if (free(room, ...wanted)) return wanted;
  for (let r = 1; r <= 2 * (room.high - room.low) && !best; r += 1) {
    for (let k = 0; k < 8 * r; k += 1) {
      const a = (2 * Math.PI * k) / (8 * r);
      const p = [inRange(fit(wanted[0] + r * Math.cos(a))), inRange(fit(wanted[1] + r * Math.sin(a)))];
      if (!free(room, ...p)) continue;
      const d = Math.hypot(p[0] - x, p[1] - z);
      if (!best || d < best.d) best = { p, d };
    }
  }
  return best ? best.p : null;
}

// The nearest row (lane) to a depth on the top platform, to name it.
export function laneOf(z) {
  const depths = game.state.dimensions.lane_depths;
  let lane = 0;
  depths.forEach((d, i) => {
    if (Math.abs(d - z) < Math.abs(depths[lane] - z)) lane = i;
  });
  return lane;
}

// The listed lay positions of the next platform, [x, z] (world mm, from the middle of
// the base): every 10 mm across and in depth where it would rest on 3 columns.
export function layPoints() {
  const below = belowCentre();
  return legal("lay_platform").map((a) => [a.x, a.z === undefined ? below[1] : a.z]);
}

// The top platform's centre, [x, z] (world mm): the new platform starts over it.
export function belowCentre() {
  const top = topPlatform(game.state);
  return top ? [top.x, top.side ? top.side[0] : 0] : [0, 0];
}

// The listed lay position nearest to (x, z), or null.
export function nearestLay(x, z) {
  let best = null;
  for (const p of layPoints()) {
    const d = (p[0] - x) ** 2 + (p[1] - z) ** 2;
    if (!best || d < best.d - 1e-9) best = { p, d };
  }
  return best && best.p;
}

// One step of the new platform across (dx: -1, 1, or ±1000 to the end of its row) or in
// depth (dz, positive: to the back), to the next listed position that way: over gaps
// where it could not rest on 3 columns; at an edge it stays.
function stepLay(dx, dz) {
  const points = layPoints();
  const { x, z } = game.ghost;
  const ahead = points.filter(([px, pz]) => (dx ? Math.sign(px - x) === Math.sign(dx) && pz === z : Math.sign(pz - z) === Math.sign(dz) && px === x));
  let next = null;
  if (ahead.length) {
    const far = Math.abs(dx) > 100;
    const key = dx ? (p) => Math.abs(p[0] - x) : (p) => Math.abs(p[1] - z);
    next = ahead.reduce((best, p) => ((far ? key(p) > key(best) : key(p) < key(best)) ? p : best), ahead[0]);
  } else if (!(Math.abs(dx) > 100)) {
    // None in this row or column: the nearest one that way, wherever it lies.
    const onward = points.filter(([px, pz]) => (dx ? Math.sign(px - x) === Math.sign(dx) : Math.sign(pz - z) === Math.sign(dz)));
    next = onward.reduce((best, p) => (!best || (p[0] - x) ** 2 + (p[1] - z) ** 2 < (best[0] - x) ** 2 + (best[1] - z) ** 2 ? p : best), null);
  }
  if (!next) return;
  setGhost(next[0], next[1]);
  redrawGhost();
}

function redrawGhost() {
  updateSlider();
  draw();
  if (Depth) Depth.redraw();
}

// A column's point starts in the front row, as near the middle as it is free; a platform
// starts over the platform below (or the listed position nearest to that).
export function resetGhost() {
  const state = game.state;
  if (state.phase === "lay") {
    const below = belowCentre();
    const point = nearestLay(...below) || below;
    setGhost(point[0], point[1]);
    return;
  }
  const room = placeRoom();
  if (!room) {
    setGhost(0, 0);
    return;
  }
  const front = clampTo(room, state.dimensions.lane_depths[0]);
  const point = nearestFree(0, front) || [0, 0];
  setGhost(point[0], point[1]);
}

// Move the point (or the platform) towards (x, z): to the nearest place it may go. For a
// column (x, z) is from the top platform's centre; for a platform, in the world.
export function moveGhost(x, z) {
  if (game.state.phase === "lay") {
    const point = nearestLay(x, z);
    if (!point) return;
    setGhost(point[0], point[1]);
  } else {
    const point = nearestFree(x, z);
    if (!point) return;
    setGhost(point[0], point[1]);
  }
  redrawGhost();
}

// One step across (dx) or in depth (dz, positive: to the back), passing over the feet of
// columns in the way; at an edge it stays.
export function stepGhost(direction, depth = 0) {
  if (game.state.phase === "lay") {
    stepLay(direction, depth);
    return;
  }
  const room = placeRoom();
  if (!room) return;
  let { x, z } = game.ghost;
  const far = Math.abs(direction) > 100;
  for (let k = 0; k < 100; k += 1) {
    const nx = far ? (direction < 0 ? room.low : room.high) : clampTo(room, x + Math.sign(direction) * STEP);
    const nz = clampTo(room, z + Math.sign(depth) * STEP);
    if (nx === x && nz === z) return;
    x = nx;
    z = nz;
    if (free(room, x, z)) break;
    if (far) return;
  }
  if (!free(room, x, z)) return;
  setGhost(Math.round(x * 10) / 10, Math.round(z * 10) / 10);
  redrawGhost();
}

// A row chosen below the slider: the point moves to that depth.
export function chooseLane(lane) {
  const room = placeRoom();
  if (!room) return;
  moveGhost(game.ghost.x, clampTo(room, game.state.dimensions.lane_depths[lane]));
}

export function stepLane(direction) {
  const lane = Math.min(2, Math.max(0, laneOf(game.ghost.z) + direction));
  chooseLane(lane);
}

// The action the point stands for: "place" at (x, z), as the engine accepts any legal
// point; "lay_platform" as listed, at (x, z).
export function chosenAction() {
  const { x, z } = game.ghost;
  if (game.state.phase === "lay") {
    const below = belowCentre();
    return legal("lay_platform").find((a) => a.x === x && (a.z === undefined ? below[1] : a.z) === z);
  }
  const listed = legal("place")[0];
  if (!listed) return null;
  const room = placeRoom();
  if (!room || !free(room, x, z) || x < room.low || x > room.high || z < room.low || z > room.high) return null;
  return { type: "place", column: listed.column, x, z };
}

// The placer's slider (controls.js) says where the point is, and its lane follows.
export function updateSlider() {
  const slider = game.root.querySelector(".placer");
  if (!slider) return;
  const { x, z } = game.ghost;
  const lay = game.state.phase === "lay";
  const lane = laneOf(z);
  const text = lay
    ? fmt(gettext("x %(x)s mm, z %(z)s mm"), { x: Math.round(x), z: Math.round(z) })
    : fmt(gettext("x %(x)s mm, z %(z)s mm (%(lane)s)"), { x: Math.round(x), z: Math.round(z), lane: LANE_NAMES[lane] });
  slider.setAttribute("aria-valuenow", x);
  slider.setAttribute("aria-valuetext", text);
  slider.dataset.z = String(z);
  slider.textContent = text;
  game.root.querySelectorAll("input[name=lane]").forEach((input) => {
    input.checked = Number(input.value) === lane;
  });
}
