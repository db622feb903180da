/* Villa Paletti: the turn clock on the play page. Every device shows each person's time
 * bank, ticking for whoever is to act (the server holds the deadlines: the page counts
 * down from what its last answer said). When that bank runs out, the page asks the server,
 * which says who is out of time; another seat's device, or the organiser's, is then offered
 * the two choices (skip the turn, hand the seat to a bot), never made silently.
 */
import { api, patiently } from "./api.js";
import { el } from "./dom.js";
import { fmt, gettext } from "./i18n.js";
import { narrate, showError } from "./narration.js";
import { game, mine, seatName, setBusy, subscribe } from "./state.js";

const TICK_MS = 250;
// How often a device whose own seat is out of time asks whether the others chose (it does
// not follow the match otherwise while it is its own turn: follow.js).
const WATCH_MS = 2000;

// The page's handler for an answer (main.js), given at start: every import points one way.
let apply = null;
let timer = null;
let watch = null;
let shownAt = 0; // when this page received the clock it shows (performance.now)
let asking = false;
let told = null; // the clock events already told on this page

export function initClock(handler) {
  apply = handler;
  // Every state the store takes carries the clock as the server last saw it.
  subscribe((change) => {
    if (change === "state") showClock(game.state);
  });
}

// "4:05": minutes and seconds, rounded up, so that 0:00 means the time is up.
export function formatTime(ms) {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
}

function left(bank) {
  return bank.running ? bank.remaining_ms - (performance.now() - shownAt) : bank.remaining_ms;
}

export function showClock(state) {
  const box = game.root.querySelector("#clock");
  clearInterval(timer);
  clearTimeout(watch);
  if (!box) return;
  const clock = state.clock;
  box.hidden = !clock;
  if (!clock) return;
  shownAt = performance.now();
  tell(clock.events);
  render(box, state);
  if (clock.running !== null && clock.out_of_time === null && state.status === "playing") {
    timer = setInterval(() => tick(box, state), TICK_MS);
  }
  if (clock.out_of_time !== null && mine(clock.out_of_time) && state.status === "playing") {
    watch = setTimeout(ask, WATCH_MS);
  }
}

function tell(events) {
  const key = (e) => e.version + ":" + e.kind + ":" + e.seat;
  const fresh = told === null ? [] : events.filter((e) => !told.has(key(e)));
  told = new Set([...(told || []), ...events.map(key)]);
  if (fresh.length) narrate(fresh.map((e) => e.text));
}

function render(box, state) {
  const clock = state.clock;
  const list = el("ul", { class: "clock-banks" });
  for (const bank of clock.banks) {
    const name = seatName(bank.seat);
    const out = clock.out_of_time === bank.seat;
    const item = el(
      "li",
      { class: "clock-bank" + (bank.running ? " running" : "") + (out ? " out" : ""), "data-seat": bank.seat },
      el("span", { class: "clock-name", text: name }),
      bank.clocked ? el("span", { class: "clock-time", text: formatTime(left(bank)) }) : el("span", { class: "clock-none", text: gettext("bot: no clock") }),
    );
    if (bank.running) item.setAttribute("aria-current", "true");
    list.append(item);
  }
  const parts = [el("h2", { class: "clock-heading", text: gettext("Time left") }), list];
  if (clock.out_of_time !== null) parts.push(...outOfTime(state));
  const last = clock.events[clock.events.length - 1];
  if (last && clock.out_of_time === null) parts.push(el("p", { class: "clock-news", text: last.text }));
  box.replaceChildren(...parts);
}

function outOfTime(state) {
  const clock = state.clock;
  const seat = clock.out_of_time;
  const name = seatName(seat);
  const parts = [el("p", { class: "clock-out", role: "alert", text: fmt(gettext("%(name)s is out of time."), { name }) })];
  if (clock.may_skip || clock.may_hand_over) {
    const row = el("div", { class: "clock-choices" });
    if (clock.may_skip) row.append(el("button", { type: "button", onclick: () => choose("skip"), text: fmt(gettext("Skip %(name)s's turn"), { name }) }));
    if (clock.may_hand_over)
      row.append(el("button", { type: "button", class: "secondary", onclick: () => choose("bot"), text: fmt(gettext("Hand %(name)s's seat to a bot"), { name }) }));
    parts.push(row);
  } else if (mine(seat)) {
    parts.push(el("p", { class: "help", text: gettext("You may still play, until another player skips your turn or hands your seat to a bot.") }));
  } else {
    parts.push(el("p", { class: "help", text: gettext("The other players may skip the turn or hand the seat to a bot.") }));
  }
  return parts;
}

function tick(box, state) {
  const running = state.clock.banks.find((b) => b.running);
  if (!running) return;
  const time = box.querySelector(".clock-bank.running .clock-time");
  const ms = left(running);
  if (time) time.textContent = formatTime(ms);
  if (ms <= 0) {
    clearInterval(timer);
    ask();
  }
}

// The bank ran out on this page, or this device waits for the others' choice: the server
// says what happened since (the moves, animated and told, as a following device is), or
// how the clock stands (and writes down who is out of time).
async function ask() {
  if (asking) return;
  if (game.busy) {
    watch = setTimeout(ask, 1000);
    return;
  }
  asking = true;
  const since = game.state.version;
  const moved = await api(game.root.dataset.updates + "?since=" + since);
  const result = moved.ok && moved.data.state ? null : await api(game.root.dataset.api);
  asking = false;
  if (game.busy || since !== game.state.version) return; // an answer came meanwhile
  if (moved.ok && moved.data.state) {
    apply({ state: moved.data.state, frames: moved.data.frames, events: moved.data.events, steps: moved.data.steps }, false);
  } else if (result && result.ok) {
    apply({ state: result.data, frames: [], events: [], steps: [] }, false);
  } else if ([403, 404, 410].includes((result || moved).status)) {
    // The seat was handed to a bot (its link no longer plays), or the match is gone.
    showError((result || moved).data.detail || gettext("This match can no longer be followed."));
  } else {
    watch = setTimeout(ask, WATCH_MS);
  }
}

async function choose(choice) {
  if (game.busy) return;
  showError("");
  setBusy(true);
  for (const button of game.root.querySelectorAll(".clock-choices button")) button.disabled = true;
  const result = await patiently(game.root.dataset.clock, { version: game.state.version, choice });
  setBusy(false);
  if (result.ok) {
    apply(result.data, false);
    return;
  }
  showError(result.data.detail || gettext("That choice was refused."));
  const fresh = await api(game.root.dataset.api);
  if (fresh.ok) apply({ state: fresh.data, frames: [], events: [], steps: [] }, false);
}
