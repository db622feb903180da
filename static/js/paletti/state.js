/* Villa Paletti: the play page's state (the server's last answer and what the page shows of it) and the legal actions.
 */
import { gettext } from "./i18n.js";

// The load a touched column bears in whole grams, as the server rounded it (once, for the
// page and the narration alike).
export const grams = (touched) => (Number.isInteger(touched.grams) ? touched.grams : Math.round(touched.load));

/* ---------- Play page: state and geometry ---------- */

export const game = {
  root: null,
  state: null,
  poses: {},
  anim: null,
  highlight: null,
  ghost: { x: 0, lane: 0 },
  lastTurn: null,
  busy: false,
  view: null,
  drag: null, // pointer samples of a drag pulling the touched column out
  oneByOne: true, // bots' actions told one at a time (a choice kept in localStorage)
  story: null, // the answer being told step by step
  passStreak: {}, // seat → turns passed in a row
  claimWarned: new Set(), // seats warned of a claim's risk, this page
  viewAt: null, // the view's tween: time -> {view, done} (view.js)
  selected: null, // a column a first tap chose, shown until a second tap or a button commits
  candidates: [], // columns overlapping under the pointer, offered in a chooser
};

export function posesOf(state) {
  const poses = {};
  for (const col of state.columns) {
    poses["c" + col.id] = col.x === null || col.removed || col.in_hand ? null : [col.x, col.y, col.angle];
  }
  for (const p of state.platforms) {
    poses["p" + p.index] = p.laid ? [p.x, p.y, p.angle] : null;
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
