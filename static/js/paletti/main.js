/* Villa Paletti in the browser: the entry point of the set-up form and the play page. No framework, no build step: ES modules loaded with <script type="module">.
 *
 * The server is authoritative (DESIGN.md): the page draws the state it sends, animates its frames, and posts only actions copied from state.legal_actions. World units are mm, y up, 0 = table top, x = 0 the middle of the base; the canvas flips y.
 */
import { api } from "./api.js";
import { applyResult, playAgain, post } from "./controls.js";
import { draw, layoutCanvas } from "./drawing.js";
import { gettext } from "./i18n.js";
import { initGuide, initPace, showError } from "./narration.js";
import { onDepthPointer, onPointer } from "./pointing.js";
import { initSetup } from "./setup.js";
import { game, legal } from "./state.js";

/* ---------- Play page set-up ---------- */

export function initMatch(root) {
  game.root = root;
  game.canvas = root.querySelector("#villa");
  game.stage = root.querySelector("#stage");
  for (const type of ["pointerdown", "pointermove", "pointerup"]) game.canvas.addEventListener(type, onPointer);
  const depth = root.querySelector("#villa-depth");
  if (depth) for (const type of ["pointerdown", "pointermove"]) depth.addEventListener(type, onDepthPointer);
  root.querySelector("#play-again").addEventListener("click", (e) => playAgain(e.currentTarget));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !game.state || game.busy) return;
    const abort = legal("abort")[0];
    if (abort) {
      event.preventDefault();
      post(abort);
    }
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
  const id = root.dataset.api.split("/").filter(Boolean).pop();
  let intro = {};
  try {
    intro = JSON.parse(sessionStorage.getItem("paletti-intro-" + id) || "{}");
    sessionStorage.removeItem("paletti-intro-" + id);
  } catch (_e) {
    intro = {};
  }
  initGuide(root);
  initPace(root);
  api(root.dataset.api).then((result) => {
    if (!result.ok) {
      showError(result.data.detail || gettext("The match could not be loaded."));
      return;
    }
    applyResult({ state: result.data, frames: intro.frames || [], events: intro.events || [], steps: intro.steps || [], opening: intro.opening }, false);
    root.classList.add("ready");
  });
}

const setupForm = document.getElementById("paletti-setup");
if (setupForm) initSetup(setupForm);
const matchRoot = document.getElementById("paletti-match");
if (matchRoot) initMatch(matchRoot);
