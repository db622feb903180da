/* Villa Paletti in the browser: the entry point of the set-up form and the play page, and where each answer of the server is applied to the whole play page. No framework, no build step: ES modules loaded with <script type="module">.
 *
 * The server is authoritative (DESIGN.md): the page draws the state it sends, animates its frames, and posts only actions copied from state.legal_actions. World units are mm, y up, 0 = table top, x = 0 the middle of the base; the canvas flips y.
 */
import * as Depth from "./depth.js";
import { api } from "./api.js";
import { initClock, showClock } from "./clock.js";
import { playAgain, renderPanel, renderScores, renderTray } from "./controls.js";
import { keepVillaInView } from "./device.js";
import { animate, draw, layoutCanvas } from "./drawing.js";
import { follow } from "./follow.js";
import { gettext } from "./i18n.js";
import { handoverText, initGuide, initPace, narrate, sealChange, showError, streakLines, tellSteps, tellsBotsOneByOne } from "./narration.js";
import { resetGhost } from "./placement.js";
import { clearPointing, onDepthPointer, onPointer, renderColumnIndex } from "./pointing.js";
import { onAnswer, post } from "./send.js";
import { initLinks } from "./links.js";
import { initSetup } from "./setup.js";
import { game, legal, mine, posesOf } from "./state.js";

/* ---------- Every answer of the server, applied to the whole page ---------- */

// The one module that knows every part of the page: send.js hands it each answer
// (onAnswer), narration.js calls back once a bots' story is told.
export function applyResult(data, acted) {
  const first = game.state === null;
  game.state = data.state;
  showClock(data.state);
  game.highlight = null;
  clearPointing();
  resetGhost();
  layoutCanvas(data.frames);
  // A new match whose bots played first: their actions are animated from the opening.
  if (first) game.poses = posesOf(data.opening || data.state);
  if (tellsBotsOneByOne(data)) {
    if (Depth) Depth.adopt(data.state, data.opening);
    // A page just opened has no scores yet: show them now rather than after the story.
    if (!game.root.querySelector("#scoreboard").children.length) {
      renderScores();
      renderTray();
    }
    tellSteps(data, () => {
      renderPanel(acted);
      renderColumnIndex();
    });
    return;
  }
  if (acted && data.frames && data.frames.length) keepVillaInView();
  animate(data.frames, posesOf(data.state));
  if (Depth) Depth.show(data.state, data.frames, first ? data.opening : null);
  // Moves made on other devices are told with who made them; this device's own and the
  // bots' answers to it, by what happened.
  const followed = (data.steps || []).some((step) => !step.by_bot && !mine(step.seat));
  const texts = followed ? data.steps.flatMap((step) => step.lines) : (data.events || []).map((e) => e.text);
  for (const step of data.steps || []) texts.push(...streakLines(step, data.events));
  const handover = handoverText();
  const seal = sealChange();
  if (seal) texts.push(seal);
  if (handover) texts.push(handover);
  if (texts.length) narrate(texts);
  renderPanel(acted);
  renderColumnIndex();
}

/* ---------- Play page set-up ---------- */

export function initMatch(root) {
  onAnswer(applyResult);
  initClock(applyResult);
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
  initLinks(root);
  api(root.dataset.api).then((result) => {
    if (!result.ok) {
      showError(result.data.detail || gettext("The match could not be loaded."));
      return;
    }
    applyResult({ state: result.data, frames: intro.frames || [], events: intro.events || [], steps: intro.steps || [], opening: intro.opening }, false);
    root.classList.add("ready");
    // Moves made on other devices arrive while this one waits for them, and who is here.
    root.addEventListener("paletti:presence", () => renderScores());
    follow(applyResult);
  });
}

const setupForm = document.getElementById("paletti-setup");
if (setupForm) initSetup(setupForm);
const matchRoot = document.getElementById("paletti-match");
if (matchRoot) initMatch(matchRoot);
