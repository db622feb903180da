/* Villa Paletti: a finished match replayed, action by action, read-only.
 *
 * The server rebuilds each state from the match's seed and log and says whether it is the
 * one recorded (paletti/replays.py); this page draws it with the play page's own modules
 * (drawing.js, depth.js, controls.js's scoreboard) and posts nothing. Stepping forward by
 * one animates that action's recorded motion; any other jump shows the state at once.
 * Each action has its own address (?at=N), kept in the address bar as the reader steps.
 */
import * as Depth from "./depth.js";
import { api } from "./api.js";
import { renderScores, renderTray } from "./controls.js";
import { animate, draw, layoutCanvas } from "./drawing.js";
import { fmt, gettext, ngettext } from "./i18n.js";
import { applyServerState, attachPage, game, posesOf } from "./state.js";

const root = document.getElementById("paletti-replay");
let current = null;
let loading = false;

function position(step) {
  if (step.at === 0) {
    return fmt(ngettext("The villa as set up (%(last)s action follows)", "The villa as set up (%(last)s actions follow)", step.last), { last: step.last });
  }
  return fmt(gettext("Action %(at)s of %(last)s"), { at: step.at, last: step.last });
}

function checkLine(step) {
  if (step.matches_record === true) return gettext("This is the state recorded when the action was played.");
  if (step.matches_record === false) return gettext("Warning: this state differs from the one recorded when the action was played.");
  return "";
}

function show(step, forward) {
  current = step;
  applyServerState(step.state);
  const frames = forward ? step.frames : [];
  layoutCanvas(frames);
  const target = posesOf(step.state);
  animate(frames, target);
  Depth.show(step.state, frames, null);
  renderScores();
  renderTray();
  root.dataset.at = String(step.at);
  root.dataset.hash = step.hash;
  root.dataset.recorded = step.recorded_hash || "";
  root.querySelector("#replay-position").textContent = position(step);
  root.querySelector("#narration").textContent = step.at === 0 ? gettext("Nothing has been played yet.") : step.lines.join(" ");
  const check = root.querySelector("#replay-check");
  check.textContent = checkLine(step);
  check.classList.toggle("errors", step.matches_record === false);
  root.querySelector("#replay-first").disabled = step.at === 0;
  root.querySelector("#replay-previous").disabled = step.at === 0;
  root.querySelector("#replay-next").disabled = step.at === step.last;
  root.querySelector("#replay-last").disabled = step.at === step.last;
  root.querySelector("#replay-link").setAttribute("href", "?at=" + step.at);
  for (const link of root.querySelectorAll("#replay-actions a")) {
    if (Number(link.dataset.at) === step.at) link.setAttribute("aria-current", "step");
    else link.removeAttribute("aria-current");
  }
}

async function go(at, push) {
  if (!current || loading || at < 0 || at > current.last || at === current.at) return;
  loading = true;
  root.setAttribute("aria-busy", "true");
  const result = await api(root.dataset.api + "?at=" + at);
  loading = false;
  root.removeAttribute("aria-busy");
  if (!result.ok) {
    root.querySelector("#narration").textContent = result.data.detail || gettext("The match could not be loaded.");
    return;
  }
  show(result.data, at === current.at + 1);
  if (push) history.pushState({ at }, "", "?at=" + at);
}

root.querySelector("#replay-first").addEventListener("click", () => go(0, true));
root.querySelector("#replay-previous").addEventListener("click", () => go(current.at - 1, true));
root.querySelector("#replay-next").addEventListener("click", () => go(current.at + 1, true));
root.querySelector("#replay-last").addEventListener("click", () => go(current.last, true));
root.querySelector("#replay-actions").addEventListener("click", (event) => {
  const link = event.target.closest("a[data-at]");
  if (!link) return;
  event.preventDefault();
  go(Number(link.dataset.at), true);
});
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || !current) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  const keys = { ArrowLeft: current.at - 1, ArrowRight: current.at + 1, Home: 0, End: current.last };
  if (!(event.key in keys)) return;
  event.preventDefault();
  go(keys[event.key], true);
});
window.addEventListener("popstate", () => {
  const at = Number(new URLSearchParams(window.location.search).get("at") || 0);
  if (Number.isInteger(at)) go(at, false);
});
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    if (!game.state) return;
    layoutCanvas();
    draw();
  }, 100);
});

attachPage(root);
show(JSON.parse(document.getElementById("replay-data").textContent), false);
root.classList.add("ready");
