/* Villa Paletti: the play page's state (the server's last answer and what the page shows of
 * it), its one writer and its subscribers; the legal actions and who is looking.
 */
import { gettext } from "./i18n.js";

// The load a touched column bears in whole grams, as the server rounded it (once, for the
// page and the narration alike).
export const grams = (touched) => (Number.isInteger(touched.grams) ? touched.grams : Math.round(touched.load));

/* ---------- The store: the one module that writes the match's state ---------- */

/* What the play page (and the replay page) knows of the match, shared by its modules. Only
 * this module writes it, through the functions below, each of which tells the subscribers
 * what changed; every other module reads `game` (a read-only view: writing to it throws)
 * and subscribes to what it shows. What one module alone needs (the view's tween, a drag's
 * samples, what the narration already said) stays in that module. */
const match = {
  root: null, // the page's elements, attached once (attachPage)
  canvas: null,
  stage: null,
  state: null, // the server's last answer
  poses: {}, // every piece's pose as drawn now (drawing.js animates them)
  highlight: null, // a column outlined in the drawing
  ghost: Object.freeze({ x: 0, z: 0 }), // where a column would stand on the top platform, from its centre (mm)
  selected: null, // a column a first tap chose, shown until a second tap or a button commits
  candidates: Object.freeze([]), // columns overlapping under the pointer, offered in a chooser
  busy: false, // an action, a clock choice or a story is under way: nothing else starts
  presence: null, // persons' seat → whether a device of theirs is connected (follow.js)
};

const readOnly = (_target, key) => {
  throw new TypeError(`game.${String(key)} is read-only: change it through state.js`);
};
export const game = new Proxy(match, { set: readOnly, deleteProperty: readOnly, defineProperty: readOnly });

const listeners = new Set();

/* Call `listener(change)` after every change, `change` naming what changed: "state" (a new
 * answer of the server), "highlight", "ghost", "selection", "busy", "presence", "poses".
 * Returns a function that unsubscribes. */
export function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function change(what, fields) {
  Object.assign(match, fields);
  for (const listener of [...listeners]) listener(what);
}

export function attachPage(root) {
  change("page", { root, canvas: root.querySelector("#villa"), stage: root.querySelector("#stage") });
}

/* A state the server sent (or a replay's step): no column outlined or chosen any longer; the
 * first one also places every piece where it stands (`opening`: before the bots' first
 * moves, which are then animated from it). */
export function applyServerState(state, opening) {
  const first = match.state === null;
  const fields = { state, highlight: null, selected: null, candidates: Object.freeze([]) };
  if (first) fields.poses = posesOf(opening || state);
  change("state", fields);
}

export function setPoses(poses) {
  change("poses", { poses });
}

export function setHighlight(id) {
  change("highlight", { highlight: id });
}

export function setGhost(x, z) {
  change("ghost", { ghost: Object.freeze({ x, z }) });
}

// A column chosen by a first tap (`selected`), or the columns offered in the chooser.
export function setSelection(selected, candidates = []) {
  change("selection", { selected, candidates: Object.freeze([...candidates]) });
}

export function setBusy(busy) {
  change("busy", { busy });
}

export function setPresence(presence) {
  change("presence", { presence: Object.freeze({ ...presence }) });
}

/* Every piece's pose on the page: [x, y, angle_front, z, angle_side] (mm, radians), from
 * the front pose [x, y, angle] and the side pose [z, y, angle] the server sends (scene.js
 * turns it into a piece in 3-D), or null for a piece not in the villa. */
export function posesOf(state) {
  const poses = {};
  for (const col of state.columns) {
    const out = col.x === null || col.removed || col.in_hand;
    poses["c" + col.id] = out ? null : joinPose(null, [col.x, col.y, col.angle], col.side, col.z);
  }
  for (const p of state.platforms) {
    poses["p" + p.index] = p.laid ? joinPose(null, [p.x, p.y, p.angle], p.side, 0) : null;
  }
  return poses;
}

/* A page pose from a front and a side pose, either of which a frame may leave out
 * (undefined: that view did not move, so it keeps `previous`); null: out of the villa. */
export function joinPose(previous, front, side, zDefault) {
  if (front === null || side === null) return null;
  const before = previous || [0, 0, 0, zDefault || 0, 0];
  const f = front || before;
  const s = side ? [side[0], side[2]] : [before[3], before[4]];
  return [f[0], f[1], f[2], s[0], s[1]];
}

// The poses after one animation frame: each body the frame moved, in either view.
export function advance(poses, frame) {
  const front = frame.poses || {};
  const side = frame.side || {};
  for (const key of new Set([...Object.keys(front), ...Object.keys(side)])) {
    if (!(key in front) && !poses[key]) continue;
    poses[key] = joinPose(poses[key], front[key], side[key], 0);
  }
  return poses;
}

export function topPlatform(state) {
  const laid = state.platforms.filter((p) => p.laid);
  return laid[laid.length - 1];
}

export function nextPlatform(state) {
  return state.platforms.find((p) => !p.laid);
}

export function legal(type) {
  return game.state.legal_actions.filter((a) => a.type === type);
}

export function seatName(seat) {
  const s = game.state.seats[seat];
  return s ? s.name : gettext("nobody");
}

export function humans() {
  return game.state.seats.filter((s) => s.kind === "human").length;
}

/* ---------- Who is looking (the server says so: state.viewer) ---------- */

// Whether this device acts for a seat: the organiser's device for the persons on it, a
// seat's link for that seat, a spectator for none.
export function mine(seat) {
  const viewer = game.state.viewer;
  return seat !== null && seat !== undefined && (!viewer || viewer.seats.includes(seat));
}

// Whether this device may start the same match again: the organiser's, or one that plays
// every person's seat (a match from before seats had links).
export function restarts() {
  const viewer = game.state.viewer;
  return !viewer || viewer.role === "organiser" || game.state.seats.every((s) => s.kind === "bot" || viewer.seats.includes(s.seat));
}
