/* Villa Paletti: following a match whose other seats play on other devices.
 *
 * The page opens the match's event stream (stream/, Server-Sent Events) with the version
 * it has; the server pushes an `update` for each version stored after it, whose `id` is
 * that version (an EventSource that reconnects sends the last one as Last-Event-ID, so
 * nothing is missed) and whose frames start at its `since`. Each is handed to the page
 * like any answer, so each move is animated and told once: an answer to this device's own
 * action moves the version on, and an update that is no longer new is dropped. Updates
 * that arrive while a move is being shown wait for its end, in order; one told from
 * another version than the page's makes it ask updates/?since= with the version it has.
 *
 * Everyone around one screen (no person on another device) needs no stream. Without a
 * stream (no EventSource, or one that fails three times in a row, or a server
 * that refuses it), the page asks updates/?since= every 2 s while another seat is to act
 * (always, for a spectator), and tries the stream again a minute later.
 */
import { api } from "./api.js";
import { gettext } from "./i18n.js";
import { showError } from "./narration.js";
import { game, mine, setPresence } from "./state.js";

export const POLL_MS = 2000;
const STREAM_FAILURES = 3;
const STREAM_RETRY_MS = 60000;

let apply = null;
let timer = null;
let asking = false;
let stopped = false;
let source = null;
let failures = 0;
let retryTimer = null;

// Whether this device waits for a move made elsewhere.
export function waitsForOthers() {
  const state = game.state;
  return Boolean(state) && state.status === "playing" && !mine(state.turn);
}

// How this page follows the match now ("stream" or "poll"), for the browser tests.
function mode(name) {
  game.root.dataset.following = name;
}

export function follow(handler) {
  apply = handler;
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") ask();
  });
  if (window.EventSource && game.root.dataset.stream && othersPlay()) listen();
  else poll();
}

// Whether a person on another device plays (or this one only watches): everyone around
// one screen needs no stream, the bots' moves come in the answers.
function othersPlay() {
  const state = game.state;
  return state.viewer.role === "spectator" || state.seats.some((seat) => seat.kind === "human" && !seat.yours);
}

/* ---------- The stream ---------- */

function listen() {
  if (stopped) return;
  clearTimeout(timer);
  source = new EventSource(game.root.dataset.stream + "?since=" + game.state.version);
  mode("stream");
  source.onopen = () => {
    failures = 0;
  };
  source.addEventListener("update", (event) => {
    failures = 0;
    received(JSON.parse(event.data));
  });
  source.addEventListener("presence", (event) => {
    // Which persons' seats have a device connected: the scoreboard subscribes to it.
    setPresence(Object.fromEntries(JSON.parse(event.data).seats.map((s) => [s.seat, s.connected])));
  });
  source.addEventListener("gone", (event) => {
    end(JSON.parse(event.data).detail);
  });
  source.onerror = () => {
    // Closed by the server at the end of its lifetime, the browser reconnects by itself
    // (CONNECTING); refused (CLOSED), or failing again and again, the page polls.
    failures += 1;
    if (source.readyState === EventSource.CLOSED || failures >= STREAM_FAILURES) {
      source.close();
      source = null;
      // Asked at once: a refusal (a replaced link, a match gone) is read from updates/.
      poll(true);
      retryTimer = setTimeout(listenAgain, STREAM_RETRY_MS);
    }
  };
}

function listenAgain() {
  if (!source && !stopped) {
    failures = 0;
    listen();
  }
}

// Updates not shown yet, in order: each is shown once the page is idle and at its `since`.
const waiting = [];
let idleTimer = null;

function received(data) {
  if (!data.state) return;
  waiting.push(data);
  showWaiting();
}

function showWaiting() {
  clearTimeout(idleTimer);
  if (stopped) return;
  if (game.busy) {
    // A move or a story is being shown: the next one waits for its end.
    idleTimer = setTimeout(showWaiting, 100);
    return;
  }
  while (waiting.length && waiting[0].version <= game.state.version) waiting.shift();
  if (!waiting.length) return;
  const next = waiting.shift();
  if (next.since === game.state.version) {
    apply({ state: next.state, frames: next.frames, events: next.events, steps: next.steps }, false);
    if (waiting.length) idleTimer = setTimeout(showWaiting, 100);
  } else {
    // Told from another version than this page's (its own action came between): ask
    // updates/ for what this page missed, from the version it has.
    waiting.length = 0;
    ask();
  }
}

function end(detail) {
  stopped = true;
  clearTimeout(timer);
  clearTimeout(retryTimer);
  if (source) source.close();
  source = null;
  showError(detail || gettext("This match can no longer be followed."));
}

/* ---------- Polling ---------- */

function poll(now = false) {
  mode("poll");
  if (now) ask();
  else later();
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
    // With the stream open, only a question put off by a story is asked again.
    if (!source || game.busy) later();
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
    end(result.data.detail);
    return;
  }
  // With the stream open, one question was enough; without it, ask again in 2 s.
  if (!source) later();
}
