/* Villa Paletti: sending an action to the server, or reloading the match, and what the page
 * shows while it waits for the answer.
 */
import { api, patiently } from "./api.js";
import { el } from "./dom.js";
import { fmt, gettext } from "./i18n.js";
import { bannerForBot, narrate, renderBanner, showError } from "./narration.js";
import { game, setBusy as markBusy } from "./state.js";

// An answer is applied to the whole page (the drawing, the panel, the pointer's chooser, the
// column index) by the handler main.js registers here at start. The panel and the pointer
// post through this module, so it does not import them: every import points one way.
let applyResult = null;
let thinkingTimer = null;

export function onAnswer(handler) {
  applyResult = handler;
}

/* ---------- Actions ---------- */

export async function post(action) {
  if (game.busy) return;
  showError("");
  setBusy(true, action);
  const result = await patiently(game.root.dataset.actions, { version: game.state.version, action });
  setBusy(false);
  if (result.ok) {
    applyResult(result.data, true);
  } else if (result.status === 409) {
    await reload(gettext("The match had moved on: here is its current state."));
  } else {
    renderBanner();
    showError(result.data.detail || gettext("That action was refused."));
  }
}

/* ---------- Waiting for the server ---------- */

// While the server works out an action (and the bots' answers), what cannot be used is
// disabled and a sign says who is thinking; shown after a short delay, so that a quick
// answer does not flicker.
export const THINKING_DELAY_MS = 250;

export function setBusy(busy, action) {
  markBusy(busy);
  const root = game.root;
  root.toggleAttribute("data-busy", busy);
  const controls = root.querySelectorAll("#actions button, #pointing button, #column-index .column-index-body button, #actions [role=slider], #actions input");
  for (const node of controls) {
    if (busy) {
      if (node.matches("button, input")) node.disabled = true;
      else node.setAttribute("aria-disabled", "true");
    } else {
      node.disabled = false;
      node.removeAttribute("aria-disabled");
    }
  }
  root.querySelector(".panel").setAttribute("aria-busy", busy ? "true" : "false");
  game.canvas.style.cursor = busy ? "progress" : "";
  // Not "your turn" while the bot who plays next thinks: the banner names it at once.
  const bot = busy ? botAfter(action) : null;
  if (bot !== null) bannerForBot(bot);
  clearTimeout(thinkingTimer);
  const sign = root.querySelector("#thinking");
  if (!sign) return;
  if (!busy) {
    sign.textContent = "";
    sign.hidden = true;
    return;
  }
  thinkingTimer = setTimeout(() => {
    if (!game.busy) return;
    sign.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), thinkingText(action));
    sign.hidden = false;
  }, THINKING_DELAY_MS);
}

// Actions after which another seat may act, and those the server simulates.
export const HANDS_OVER = ["take_colour", "place", "abort", "pass", "lay_platform", "remove_column", "ask_platform", "decline"];
export const MOVES_THE_VILLA = ["pull", "place", "lay_platform", "remove_column"];

// The seat after the one to act, if it is a bot's and the action may hand the turn to it.
export function botAfter(action) {
  const seats = game.state.seats;
  if (!action || !HANDS_OVER.includes(action.type) || game.state.turn === null) return null;
  const next = (game.state.turn + 1) % seats.length;
  return seats[next].kind === "bot" ? next : null;
}

// Who or what the page waits for: the next bot in playing order, when the action may hand
// over to one; the physics, when it moves the villa; else the server.
export function thinkingText(action) {
  const type = action ? action.type : "";
  const seats = game.state.seats;
  const turn = game.state.turn === null ? 0 : game.state.turn;
  if (HANDS_OVER.includes(type)) {
    for (let k = 1; k <= seats.length; k += 1) {
      const seat = seats[(turn + k) % seats.length];
      if (seat.kind === "bot") return fmt(gettext("%(name)s (bot) is thinking…"), { name: seat.name });
    }
  }
  if (MOVES_THE_VILLA.includes(type)) return gettext("Working out how the villa moves…");
  return gettext("Waiting for the server…");
}

export async function reload(message) {
  const result = await api(game.root.dataset.api);
  if (!result.ok) {
    showError(result.data.detail || gettext("The match could not be loaded."));
    return;
  }
  applyResult({ state: result.data, frames: [], events: [] }, false);
  if (message) narrate([message]);
}
