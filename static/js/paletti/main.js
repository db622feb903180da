/* Villa Paletti in the browser: the entry point of the set-up form and the play page, and where each answer of the server is applied to the whole play page. No framework, no build step: ES modules loaded with <script type="module">.
 *
 * The server is authoritative (DESIGN.md): the page draws the state it sends, animates its frames, and posts only actions copied from state.legal_actions. World units are mm, y up, 0 = table top, x = 0 the middle of the base; the canvas flips y.
 */
import * as Depth from "./depth.js";
import { api } from "./api.js";
import { initClock } from "./clock.js";
import { initControls, renderPanel, renderScores, renderTray } from "./controls.js";
import { keepVillaInView } from "./device.js";
import { animate, draw, layoutCanvas } from "./drawing.js";
import { follow } from "./follow.js";
import { gettext } from "./i18n.js";
import { handoverText, initGuide, initPace, narrate, sealChange, showError, streakLines, tellSteps, tellsBotsOneByOne } from "./narration.js";
import { initPlacement } from "./placement.js";
import { initPointing, renderColumnIndex } from "./pointing.js";
import { onAnswer, post } from "./send.js";
import { initLinks } from "./links.js";
import { initSetup } from "./setup.js";
import { applyServerState, attachPage, game, legal, mine, posesOf } from "./state.js";

/* ---------- Every answer of the server, applied to the whole page ---------- */

// The one module that knows every part of the page: send.js, clock.js and follow.js hand
// it each answer (onAnswer, initClock, follow), narration.js calls back once a bots' story
// is told. The store (state.js) takes the new state and tells its subscribers (the clock,
// the pointer's chooser, the placement's point, the organiser's links); what follows is
// shown in order: the drawing's frames, the story or the narration, then the panel.
export function applyResult(data, acted) {
  const first = game.state === null;
  // A new match whose bots played first: their actions are animated from the opening.
  applyServerState(data.state, data.opening);
  layoutCanvas(data.frames);
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
  attachPage(root);
  onAnswer(applyResult);
  // Each part of the page subscribes to the store (state.js) before the first state comes.
  initClock(applyResult);
  initPlacement();
  initPointing(root);
  initControls(root);
  initLinks(root);
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
    // Moves made on other devices arrive while this one waits for them, and who is here.
    follow(applyResult);
  });
}

const setupForm = document.getElementById("paletti-setup");
if (setupForm) initSetup(setupForm);
const matchRoot = document.getElementById("paletti-match");
if (matchRoot) initMatch(matchRoot);
