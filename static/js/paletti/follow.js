/* Villa Paletti: following a match whose other seats play on other devices. While
 * another seat is to act (always, for a spectator), the page asks the server every 2 s
 * what came after the version it has (updates/?since=) and hands what it missed to the
 * page like any answer, so each move is animated and told once: an answer to this
 * device's own action moves the version on, and a reply that is no longer new is dropped.
 * The server pushing moves as they happen is for later; for now devices ask.
 */
import { api } from "./api.js";
import { gettext } from "./i18n.js";
import { showError } from "./narration.js";
import { game, mine } from "./state.js";

export const POLL_MS = 2000;

let apply = null;
let timer = null;
let asking = false;
let stopped = false;

// Whether this device waits for a move made elsewhere.
export function waitsForOthers() {
  const state = game.state;
  return Boolean(state) && state.status === "playing" && !mine(state.turn);
}

export function follow(handler) {
  apply = handler;
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") ask();
  });
  later();
}

function later() {
  clearTimeout(timer);
  if (!stopped) timer = setTimeout(ask, POLL_MS);
}

async function ask() {
  clearTimeout(timer);
  // Not while this device's own action is on its way or a story is being told, nor from
  // a tab nobody looks at.
  if (stopped || asking || game.busy || !waitsForOthers() || document.visibilityState === "hidden") {
    later();
    return;
  }
  asking = true;
  const since = game.state.version;
  const result = await api(game.root.dataset.updates + "?since=" + since);
  asking = false;
  if (result.ok) {
    const data = result.data;
    if (data.state && data.version > game.state.version && !game.busy) {
      // Frames run from the version asked about: shown only if the page is still there.
      const fresh = since === game.state.version;
      apply({ state: data.state, frames: fresh ? data.frames : [], events: fresh ? data.events : [], steps: fresh ? data.steps : [] }, false);
    }
  } else if ([403, 404, 410].includes(result.status)) {
    // The link was replaced, or the match is gone: asking again would not change that.
    stopped = true;
    showError(result.data.detail || gettext("This match can no longer be followed."));
    return;
  }
  later();
}
