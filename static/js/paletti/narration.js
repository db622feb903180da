/* Villa Paletti: what happened, told line by line; whose turn it is (the banner); the
 * first-game guide and the bots' pace.
 */
import * as Depth from "./depth.js";
import { keepVillaInView, narrowScreen } from "./device.js";
import { el, swatch } from "./dom.js";
import { animate, draw } from "./drawing.js";
import { fmt, gettext, ngettext } from "./i18n.js";
import { advance, game, humans, mine, posesOf, seatName, setBusy, setHighlight } from "./state.js";

// What this page has told already, so as not to tell it again: whose turn, the seal, each
// seat's turns passed in a row; the answer being told step by step; the bots' pace.
let lastTurn = null;
let lastSeal = null;
const passStreak = {};
let telling = null;
let oneByOne = true;

// Say whose turn it is when it passes to another person: on a shared screen, to the one
// who takes it; on a device that plays for others' turns too, who now plays.
export function handoverText() {
  const state = game.state;
  const turn = state.status === "playing" ? state.turn : null;
  const changed = turn !== lastTurn;
  lastTurn = turn;
  if (!changed || turn === null || state.seats[turn].kind !== "human" || humans() < 2) return "";
  if (!mine(turn)) return fmt(gettext("Now %(name)s plays."), { name: seatName(turn) });
  return fmt(gettext("%(name)s, your turn."), { name: seatName(turn) });
}

// The seal's line, only when the holder or their points have changed since it was last
// said: not repeated after every action.
export function sealChange() {
  const seal = game.state.seal;
  const holder = seal.holder === null || seal.holder === undefined ? null : seal.holder;
  const key = [seal.started, holder, holder === null ? 0 : game.state.scores[holder]].join(":");
  if (key === lastSeal) return "";
  lastSeal = key;
  return sealSummary();
}

export function sealSummary() {
  const seal = game.state.seal;
  if (seal.holder === null || seal.holder === undefined) {
    // Before the race starts there is nothing to say after every move.
    return seal.started ? gettext("Nobody holds the seal.") : "";
  }
  const points = game.state.scores[seal.holder];
  return fmt(ngettext("Seal: %(name)s, %(points)s point.", "Seal: %(name)s, %(points)s points.", points), {
    name: seatName(seal.holder),
    points,
  });
}

export function narrate(texts) {
  const line = texts.join(" ");
  game.root.querySelector("#narration").textContent = line;
  const log = game.root.querySelector("#log");
  log.prepend(el("li", { text: line }));
  while (log.children.length > 60) log.lastElementChild.remove();
}

export function showError(text) {
  const node = game.root.querySelector("#error");
  node.textContent = text;
  node.hidden = !text;
}

/* ---------- First-game guide, and how bots' turns are told ---------- */

export function stored(key, fallback) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value;
  } catch (_e) {
    return fallback;
  }
}

export function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (_e) {
    /* private mode: forgotten with the page */
  }
}

// Open until it is closed once ("Got it" or its summary); then a one-line reminder.
export function initGuide(root) {
  const guide = root.querySelector("#guide");
  if (!guide) return;
  guide.open = stored("paletti-guide-seen", "") !== "yes";
  guide.addEventListener("toggle", () => {
    if (!guide.open) store("paletti-guide-seen", "yes");
  });
  const done = guide.querySelector("#guide-done");
  if (done) done.addEventListener("click", () => {
    guide.open = false;
    store("paletti-guide-seen", "yes");
    const banner = game.root.querySelector("#turn-banner");
    banner.focus({ preventScroll: true });
    // On a phone the closed guide goes below the villa, and the page would stay scrolled
    // to where it was read: bring whose turn it is and the drawing back in sight.
    if (narrowScreen()) {
      const rect = game.canvas.getBoundingClientRect();
      if (rect.top < 0 || rect.bottom > window.innerHeight) banner.scrollIntoView({ block: "start" });
    }
  });
}

export function initPace(root) {
  const box = root.querySelector("#one-by-one");
  oneByOne = stored("paletti-bots-one-by-one", "yes") !== "no";
  if (!box) return;
  box.checked = oneByOne;
  box.addEventListener("change", () => {
    oneByOne = box.checked;
    store("paletti-bots-one-by-one", box.checked ? "yes" : "no");
  });
}

// A child reads one line at a time: the pause after each bot action, on top of its animation.
export const BOT_PAUSE_MS = 1700;

// Also the moves made on other devices, which this one learns of all together.
export function tellsBotsOneByOne(data) {
  return oneByOne && Array.isArray(data.steps) && data.steps.some((step) => step.by_bot || !mine(step.seat));
}

// A bot that passes turn after turn, or anyone the rules skip turn after turn (nothing to
// move, no platform to ask for), is told why once it is more than one turn. A person who
// chooses to pass needs no explaining.
export function streakLines(step, events) {
  if (["choose_colour", "touch", "ask_platform"].includes(step.type)) passStreak[step.seat] = 0;
  const lines = [];
  for (const event of (events || []).slice(step.events[0], step.events[1])) {
    if (event.code !== "passed" && event.code !== "player_skipped") continue;
    const count = (passStreak[event.seat] || 0) + 1;
    passStreak[event.seat] = count;
    const seat = game.state.seats[event.seat];
    if (count < 2 || !seat) continue;
    let text;
    if (event.code === "player_skipped") {
      text = ngettext(
        "%(name)s has now been skipped %(count)s turn in a row: none of their columns can go up and no platform can be asked for, so they will go on being skipped as long as that lasts.",
        "%(name)s has now been skipped %(count)s turns in a row: none of their columns can go up and no platform can be asked for, so they will go on being skipped as long as that lasts.",
        count,
      );
    } else if (seat.kind === "bot") {
      text = ngettext(
        "%(name)s has now passed %(count)s turn in a row: as long as none of their columns can go up, they will keep passing.",
        "%(name)s has now passed %(count)s turns in a row: as long as none of their columns can go up, they will keep passing.",
        count,
      );
    } else {
      continue;
    }
    lines.push(fmt(text, { name: seat.name, count }));
  }
  return lines;
}

// Whose turn it is, above the drawing; while a bot thinks or its actions are told, the bot's
// (bannerForBot).
export function renderBanner() {
  const state = game.state;
  const banner = game.root.querySelector("#turn-banner");
  banner.replaceChildren();
  banner.className = "turn-banner";
  if (state.status !== "playing") {
    banner.textContent = gettext("The game is over.");
    return;
  }
  const seat = state.seats[state.turn];
  if (!seat) return;
  seat.colours.forEach((c) => banner.append(swatch(c)));
  // A person who plays on another device is waited for, not told it is their turn here.
  const text =
    seat.kind === "bot"
      ? fmt(gettext("%(name)s (bot) is playing."), { name: seat.name })
      : mine(state.turn)
        ? fmt(gettext("%(name)s, your turn"), { name: seat.name })
        : fmt(gettext("%(name)s is playing."), { name: seat.name });
  banner.append(el("span", { text }));
  if (humans() > 1 && seat.kind === "human" && mine(state.turn)) banner.classList.add("handover");
}

export function bannerForBot(seat) {
  const banner = game.root.querySelector("#turn-banner");
  const s = game.state.seats[seat];
  if (!s) return;
  banner.replaceChildren();
  banner.className = "turn-banner";
  s.colours.forEach((c) => banner.append(swatch(c)));
  banner.append(el("span", { text: fmt(gettext("%(name)s (bot) is playing."), { name: s.name }) }));
}

// The actions of one answer told one at a time: the person's own, then each bot's, with
// its line and its part of the animation, then a pause; "Skip ahead" shows the rest now.
// Once all is told, `told` renders what the page offers next (the panel, main.js).
export function tellSteps(data, told) {
  const root = game.root;
  const frames = data.frames || [];
  const steps = data.steps;
  const target = posesOf(data.state);
  const lines = root.querySelector("#narration");
  const log = root.querySelector("#log");
  const prompt = root.querySelector("#prompt");
  const actions = root.querySelector("#actions");
  const story = { timer: null, done: false, next: 0 };
  if (telling) telling.finish();
  telling = story;
  setBusy(true);
  root.setAttribute("data-telling", "");
  // Until the bots' steps have been told, nobody is told "your turn".
  const firstBot = steps.find((step) => step.by_bot);
  if (firstBot) bannerForBot(firstBot.seat);
  lines.replaceChildren();
  draw();
  const show = (text) => {
    lines.append(el("p", { class: "line", text }));
    log.prepend(el("li", { text }));
    prompt.textContent = text;
  };
  const hadFocus = actions.contains(document.activeElement);
  const skip = el("button", { type: "button", class: "secondary", "data-skip": true, onclick: () => finish(), text: gettext("Skip ahead") });
  actions.replaceChildren(skip);
  if (hadFocus) skip.focus({ preventScroll: true });

  function tell() {
    if (story.done) return;
    if (story.next >= steps.length) {
      finish();
      return;
    }
    const step = steps[story.next++];
    if (step.by_bot) bannerForBot(step.seat);
    [...step.lines, ...streakLines(step, data.events)].forEach(show);
    // Outline the column a bot acts on, so the eye finds it in the drawing.
    setHighlight(step.by_bot && step.column !== undefined ? step.column : null);
    draw();
    const slice = frames.slice(step.frames[0], step.frames[1]);
    let wait = step.by_bot ? BOT_PAUSE_MS : 400;
    if (slice.length) {
      const t0 = slice[0].t;
      const after = { ...game.poses };
      for (const frame of slice) advance(after, frame);
      keepVillaInView();
      animate(slice.map((frame) => ({ ...frame, t: frame.t - t0 })), after);
      if (Depth) Depth.play(slice.map((frame) => ({ ...frame, t: frame.t - t0 })));
      wait += (slice[slice.length - 1].t - t0) * 1000;
    }
    story.timer = setTimeout(tell, wait);
  }

  function finish() {
    if (story.done) return;
    story.done = true;
    clearTimeout(story.timer);
    while (story.next < steps.length) {
      const step = steps[story.next++];
      [...step.lines, ...streakLines(step, data.events)].forEach(show);
    }
    setHighlight(null);
    animate([], target);
    if (Depth) Depth.show(data.state, []);
    root.removeAttribute("data-telling");
    setBusy(false);
    const seal = sealChange();
    const handover = handoverText();
    if (seal) show(seal);
    if (handover) show(handover);
    if (telling === story) telling = null;
    told();
  }

  story.finish = finish;
  tell();
}
