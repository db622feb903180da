/* Villa Paletti: the panel: each phase's controls, the scores, the tray, the end of the
 * match, the claim's warning and the load gauge.
 */
import * as Hand from "./hand.js";
import { matchUrl, patiently, rememberIntro } from "./api.js";
import { narrowScreen, placerHelp, touchFirst } from "./device.js";
import { el, swatch } from "./dom.js";
import { animating, setHighlight, whenStill } from "./drawing.js";
import { capfirst, fmt, gettext, ngettext } from "./i18n.js";
import { LANE_NAMES, colourName, columnName, deed, platformAsObject, playerColourName, whereText } from "./names.js";
import { renderBanner, showError } from "./narration.js";
import { chooseLane, chosenAction, laneOf, placeRoom, stepGhost, stepLane, updateSlider } from "./placement.js";
import { post, reload } from "./send.js";
import { game, grams, legal, nextPlatform, restarts, seatName, subscribe, topPlatform } from "./state.js";

// The seats warned of a claim's risk, on this page.
const claimWarned = new Set();

// "Play again", and the scoreboard kept current with who is connected (follow.js).
export function initControls(root) {
  root.querySelector("#play-again").addEventListener("click", (e) => playAgain(e.currentTarget));
  subscribe((change) => {
    if (change === "presence") renderScores();
  });
}

/* ---------- Panel ---------- */

export function renderPanel(acted) {
  const state = game.state;
  const actions = game.root.querySelector("#actions");
  const hadFocus = actions.contains(document.activeElement) || document.activeElement === document.body;
  renderBanner();
  actions.replaceChildren();
  const prompt = game.root.querySelector("#prompt");
  prompt.textContent = "";
  const builder = PHASES[state.phase];
  if (state.status === "playing" && state.legal_actions.length && builder) {
    prompt.textContent = builder(actions);
    // Whatever the phase's own controls leave out (a pass the rules allow), still offered.
    if (legal("pass").length && !actions.querySelector("[data-action=pass]")) {
      actions.append(actionButton(legal("pass")[0], gettext("Pass this turn"), { class: "secondary" }));
    }
  } else if (state.status === "playing") {
    prompt.textContent = fmt(gettext("Waiting for %(name)s…"), { name: seatName(state.turn) });
    actions.append(el("button", { type: "button", onclick: () => reload(""), text: gettext("Reload the match") }));
  }
  renderScores();
  renderTray();
  renderGameOver(acted);
  if (acted && hadFocus && state.status === "playing") {
    const first = actions.querySelector("[data-primary]") || actions.querySelector("button, [tabindex='0']");
    if (first) first.focus({ preventScroll: narrowScreen() });
  }
}

export const PHASES = {
  // Polish text: after the youngest's throw of the seal's die, the others choose their colours.
  colours(box) {
    for (const action of legal("take_colour")) {
      box.append(
        el(
          "button",
          { type: "button", class: "choice", "data-action": action.type, onclick: () => post(action) },
          swatch(action.colour),
          fmt(gettext("Take %(colour)s"), { colour: playerColourName(action.colour) }),
        ),
      );
    }
    const choosing = game.state.choosing;
    if (!choosing) return gettext("Choose your colour.");
    return fmt(gettext("The seal's die gave %(name)s %(colour)s. Choose your colour."), {
      name: seatName(choosing.youngest),
      colour: playerColourName(choosing.thrown),
    });
  },
  choose_colour(box) {
    for (const action of legal("choose_colour")) {
      box.append(
        el(
          "button",
          { type: "button", class: "choice", "data-action": action.type, onclick: () => post(action) },
          swatch(action.colour),
          fmt(gettext("Play %(colour)s"), { colour: playerColourName(action.colour) }),
        ),
      );
    }
    addAskPlatform(box);
    return gettext("Choose the colour you play this turn.");
  },
  move(box) {
    columnList(box, legal("touch"), gettext("Touch %(column)s"));
    addAskPlatform(box);
    const pass = legal("pass")[0];
    const state = game.state;
    if (pass) {
      // Asking is the only move left: the rules let the player pass instead.
      box.append(actionButton(pass, gettext("Pass this turn"), { class: "secondary" }));
      const next = nextPlatform(state);
      return fmt(gettext("None of your columns can go up to the top platform. Ask for the %(platform)s platform, or pass this turn."), {
        platform: platformAsObject(next ? next.colour : ""),
      });
    }
    if (state.context === "claim_protest" && state.claim) {
      if (polishProtest()) {
        return gettext("Back up your protest: move a column of any colour from under the top platform to the top platform.");
      }
      return fmt(gettext("Back up your protest: move a column belonging to %(name)s to the top platform."), {
        name: seatName(state.claim.claimant),
      });
    }
    if (state.context === "neutral_protest") {
      return gettext("Back up your protest: move a neutral column to the top platform.");
    }
    if (state.step === "neutral") {
      return gettext("First move a neutral column. Touching a column commits you to it.");
    }
    return gettext("Touch a column to move: touching commits you to it. It shows the load it bears.");
  },
  touched(box) {
    const touched = game.state.touched;
    const col = game.state.columns.find((c) => c.id === touched.column);
    const pull = legal("pull")[0];
    const abort = legal("abort")[0];
    if (pull) {
      const hand = Hand.PRESETS;
      box.append(el("button", { type: "button", "data-primary": true, "data-action": "pull", onclick: () => post({ ...pull, ...hand.gentle }), text: gettext("Pull it out gently") }));
      box.append(el("button", { type: "button", class: "secondary", "data-action": "pull", onclick: () => post({ ...pull, ...hand.quick }), text: gettext("Pull it out quickly") }));
    }
    if (abort) box.append(abortButton(abort, abortLabel()));
    box.prepend(loadGauge(touched.load, grams(touched)));
    const text = touchFirst()
      ? gettext("The %(column)s bears %(load)s g. Drag it sideways out of the villa with your finger in one long, slow, straight stroke (a short or wobbly swipe is a shaky hand), or use a button; or put it back.")
      : gettext("The %(column)s bears %(load)s g. Drag it sideways out of the villa in one long, slow, straight stroke (a short or wobbly drag is a shaky hand), or use a button; or abort (Escape) and put it back.");
    return fmt(text, { column: columnName(col), load: grams(touched) });
  },
  holding(box) {
    const top = topPlatform(game.state);
    placementControls(box, legal("place"), true);
    const abort = legal("abort")[0];
    if (abort) box.append(abortButton(abort, abortLabel()));
    const text = touchFirst()
      ? gettext("Choose where to stand the column on the %(platform)s platform: tap or drag on the drawing, or use ◀ ▶ ▲ ▼, then place it.")
      : gettext("Choose where to stand the column on the %(platform)s platform: drag or tap on it, or use the arrow keys, then place it.");
    return fmt(text, { platform: colourName(top.colour) });
  },
  claim(box) {
    addAnswer(box);
    const claim = game.state.claim;
    const text = polishProtest()
      ? gettext("%(claimant)s asks for a new platform, claiming no column can be moved. %(name)s, do you protest? Then you must move a column of any colour from under the top platform to the top yourself.")
      : gettext("%(claimant)s asks for a new platform, claiming no column can be moved. %(name)s, do you protest? Then you must move one of the claimant's columns to the top yourself.");
    return fmt(text, {
      claimant: seatName(claim.claimant),
      name: seatName(game.state.turn),
    });
  },
  neutral_protest(box) {
    addAnswer(box);
    return fmt(gettext("%(builder)s aborted the neutral move. %(name)s, do you object that a neutral column could have been moved? Then you must prove it."), {
      builder: seatName(game.state.turn_player),
      name: seatName(game.state.turn),
    });
  },
  penalty(box) {
    // "Remove none" before the long list, where a phone shows it with the drawing.
    const pass = legal("pass")[0];
    if (pass) box.append(actionButton(pass, gettext("Remove none"), { class: "secondary" }));
    columnList(box, legal("remove_column"), gettext("Remove %(column)s"));
    const claim = game.state.claim;
    return fmt(gettext("The protest failed: you may remove a column belonging to %(name)s from the game, or remove none."), {
      name: seatName(claim ? claim.protester : null),
    });
  },
  // The Polish protest rule: a protester who proved the claim wrong may take any column
  // out of the game, or none.
  reward(box) {
    // "Remove none" before the long list, where a phone shows it with the drawing.
    const pass = legal("pass")[0];
    if (pass) box.append(actionButton(pass, gettext("Remove none"), { class: "secondary" }));
    columnList(box, legal("remove_column"), gettext("Remove %(column)s"));
    return gettext("Your protest succeeded: no platform is laid. You may remove any column from the game, or remove none.");
  },
  lay(box) {
    const p = nextPlatform(game.state);
    const lays = legal("lay_platform");
    if (lays.length) placementControls(box, lays, false);
    const pass = legal("pass")[0];
    if (pass) {
      const label = lays.length ? gettext("Do not lay the platform") : gettext("Pass: the platform cannot be laid");
      box.append(actionButton(pass, label, { class: "secondary", "data-primary": !lays.length }));
    }
    return lays.length
      ? fmt(gettext("Lay the %(platform)s platform on the top columns: choose where, then lay it, or decide not to lay it."), { platform: platformAsObject(p.colour) })
      : gettext("The platform cannot rest on three columns: the turn passes without it.");
  },
};

// A button that posts one of the legal actions; data-action names its type, so that a
// test (and a reader of the markup) can see that every legal action has its control.
export function actionButton(action, label, attrs) {
  return el("button", { type: "button", "data-action": action.type, ...(attrs || {}), onclick: () => post(action), text: label });
}

// The French rules lock a column put back; the Polish ones (an option) do not.
export function abortLabel() {
  const polish = game.state.options && game.state.options.abort === "polish";
  return polish ? gettext("Abort: put it back") : gettext("Abort: put it back (locked)");
}

export function abortButton(action, label) {
  return actionButton(action, label, { class: "secondary", "data-abort": true });
}

export function addAskPlatform(box) {
  const ask = legal("ask_platform")[0];
  if (!ask) return;
  const next = nextPlatform(game.state);
  box.append(
    el("button", {
      type: "button",
      class: "secondary claim",
      "data-action": "ask_platform",
      "aria-describedby": "claim-risk",
      onclick: () => askPlatform(ask, box),
      text: fmt(gettext("Ask for the %(platform)s platform"), { platform: platformAsObject(next ? next.colour : "") }),
    }),
  );
  box.append(el("p", { id: "claim-risk", class: "help claim-risk", text: claimRiskShort() }));
}

export function addAnswer(box) {
  const protest = legal("protest")[0];
  const decline = legal("decline")[0];
  if (protest) box.append(actionButton(protest, gettext("Protest"), { "data-primary": true }));
  if (decline) box.append(actionButton(decline, gettext("Decline"), { class: "secondary" }));
}

// Columns the player may act on, as buttons: Tab through them, Enter to act. `sentence`
// is a whole translated sentence naming the column ("Touch %(column)s").
export function columnList(box, list, sentence) {
  const ul = el("ul", { class: "column-list", "aria-label": gettext("Columns you may choose") });
  for (const action of list) {
    const col = game.state.columns.find((c) => c.id === action.column);
    const detail = [whereText(col), LANE_NAMES[col.lane], fmt(gettext("x %(x)s mm"), { x: Math.round(col.x) })].join(", ");
    const button = el(
      "button",
      {
        type: "button",
        class: "column-choice",
        "data-column": col.id,
        "data-action": action.type,
        onclick: () => post(action),
        onfocus: () => setHighlight(col.id),
        onblur: () => setHighlight(null),
        onmouseenter: () => setHighlight(col.id),
        onmouseleave: () => setHighlight(null),
      },
      swatch(col.colour),
      el("span", { class: "choice-text" }, el("strong", { text: deed(sentence, col) }), el("span", { class: "choice-detail", text: detail })),
    );
    ul.append(el("li", {}, button));
  }
  box.append(ul);
}

/* ---------- The placer: where to stand a column or lay a platform (placement.js) ---------- */

export function confirmPlacement() {
  const action = chosenAction();
  if (action) post(action);
}

export function placementControls(box, list, withLanes) {
  const room = withLanes ? placeRoom() : null;
  const xs = list.map((a) => a.x);
  const slider = el("div", {
    class: "placer",
    role: "slider",
    tabindex: "0",
    "data-primary": true,
    "aria-label": withLanes ? gettext("Position on the top platform") : gettext("Position of the new platform"),
    "aria-valuemin": room ? room.low : Math.min(...xs),
    "aria-valuemax": room ? room.high : Math.max(...xs),
    "aria-describedby": "placer-help",
    onkeydown: placerKeys,
  });
  box.append(slider);
  box.append(
    el("p", {
      id: "placer-help",
      class: "help",
      text: placerHelp(withLanes),
    }),
  );
  if (withLanes) {
    const group = el("div", { class: "lanes", role: "radiogroup", "aria-label": gettext("Lane") });
    for (const lane of [0, 1, 2]) {
      const input = el("input", { type: "radio", name: "lane", value: lane, onchange: () => chooseLane(lane) });
      input.checked = lane === laneOf(game.ghost.z);
      group.append(el("label", { class: "lane-option" }, input, " " + LANE_NAMES[lane]));
    }
    box.append(group);
  }
  const row = el("div", { class: "nudge" });
  row.append(el("button", { type: "button", class: "secondary", "aria-label": gettext("Move left"), onclick: () => stepGhost(-1), text: "◀" }));
  row.append(el("button", { type: "button", class: "secondary", "aria-label": gettext("Move right"), onclick: () => stepGhost(1), text: "▶" }));
  // In depth too: a column anywhere on the platform, a platform offset from the one below.
  row.append(el("button", { type: "button", class: "secondary", "aria-label": gettext("Move to the back"), onclick: () => stepGhost(0, 1), text: "▲" }));
  row.append(el("button", { type: "button", class: "secondary", "aria-label": gettext("Move to the front"), onclick: () => stepGhost(0, -1), text: "▼" }));
  row.append(
    el("button", {
      type: "button",
      "data-confirm": true,
      "data-action": withLanes ? "place" : "lay_platform",
      onclick: confirmPlacement,
      text: withLanes ? gettext("Place it here") : gettext("Lay it here"),
    }),
  );
  if (withLanes) {
    // How it is set down counts too (docs/paletti.md, "The hand"): dropped in a hurry, a
    // column lands harder and less straight, and shakes what it stands on.
    row.append(
      el("button", {
        type: "button",
        class: "secondary",
        "data-quick-place": true,
        onclick: () => {
          const action = chosenAction();
          if (action) post({ ...action, ...Hand.PLACE_PRESETS.quick });
        },
        text: gettext("Put it down quickly"),
      }),
    );
  }
  box.append(row);
  updateSlider();
}

export function placerKeys(event) {
  if (game.busy) return;
  const keys = {
    ArrowLeft: () => stepGhost(-1),
    ArrowRight: () => stepGhost(1),
    Home: () => stepGhost(-1000),
    End: () => stepGhost(1000),
    ArrowUp: () => stepGhost(0, 1),
    ArrowDown: () => stepGhost(0, -1),
    PageUp: () => stepLane(1),
    PageDown: () => stepLane(-1),
    Enter: confirmPlacement,
    " ": confirmPlacement,
  };
  const handler = keys[event.key];
  if (handler) {
    event.preventDefault();
    handler();
  }
}

/* ---------- Scores, tray, end ---------- */

export function renderScores() {
  const state = game.state;
  const top = topPlatform(state);
  const topLine = game.root.querySelector("#top-platform");
  topLine.replaceChildren(swatch(top.colour), fmt(gettext("Top platform: %(platform)s"), { platform: colourName(top.colour) }));
  const list = game.root.querySelector("#scoreboard");
  list.replaceChildren();
  for (const seat of state.seats) {
    const badges = [];
    if (state.seal.holder === seat.seat) badges.push(el("span", { class: "badge seal", text: gettext("seal") }));
    if (state.seal.previous === seat.seat) badges.push(el("span", { class: "badge previous", text: gettext("previous seal") }));
    if (state.status === "playing" && state.turn === seat.seat) badges.push(el("span", { class: "badge turn", text: gettext("to play") }));
    // Whether a device of this person's is connected (the stream's presence events).
    const here = game.presence && game.presence[seat.seat];
    if (game.presence && here !== undefined) badges.push(el("span", { class: "badge presence " + (here ? "here" : "away"), text: here ? gettext("connected") : gettext("away") }));
    const who = seat.kind === "bot" ? fmt(gettext("%(name)s (bot, %(level)s)"), { name: seat.name, level: botLevel(seat.level) }) : seat.name;
    const colours = el("span", { class: "colours" });
    seat.colours.forEach((c) => colours.append(swatch(c), playerColourName(c) + " "));
    const points = state.scores[seat.seat];
    list.append(
      el(
        "li",
        { class: state.turn === seat.seat ? "current" : "" },
        el("strong", { text: who }),
        // A space between badges, so that a screen reader says "seal, to play", not one word.
        ...badges.flatMap((badge) => [" ", badge]),
        el("br"),
        colours,
        el("span", { class: "points", text: fmt(ngettext("%(points)s point", "%(points)s points", points), { points }) }),
      ),
    );
  }
  const locked = state.columns.filter((c) => c.locked && !c.removed).length;
  const removed = state.columns.filter((c) => c.removed).length;
  let counts =
    (locked
      ? fmt(ngettext("%(n)s locked column", "%(n)s locked columns", locked), { n: locked })
      : gettext("no locked column")) +
    " · " +
    (removed
      ? fmt(ngettext("%(n)s column out of the game", "%(n)s columns out of the game", removed), { n: removed })
      : gettext("no column out of the game"));
  if (state.neutral) counts += " · " + fmt(gettext("neutral colour: %(colour)s"), { colour: playerColourName(state.neutral) });
  game.root.querySelector("#counts").textContent = capfirst(counts);
}

export function botLevel(level) {
  return level === "easy" ? gettext("easy") : gettext("careful");
}

export function renderTray() {
  const tray = game.root.querySelector("#tray");
  tray.replaceChildren();
  const out = game.state.columns.filter((c) => c.removed);
  if (!out.length) tray.append(el("li", { class: "empty", text: gettext("None yet.") }));
  for (const col of out) tray.append(el("li", {}, swatch(col.colour), columnName(col)));
}

export function renderGameOver(acted) {
  const state = game.state;
  const section = game.root.querySelector("#game-over");
  section.hidden = true;
  if (state.status !== "finished") return;
  // Told once the pieces have landed, not over a villa still falling.
  if (animating()) {
    whenStill(() => {
      if (game.state === state) renderGameOver(acted);
    });
    return;
  }
  section.hidden = false;
  // Only the device that set the match up starts it again (its links would be new ones).
  section.querySelector("#play-again").hidden = !restarts();
  const heading = section.querySelector("#game-over-heading");
  heading.textContent =
    state.winner === null || state.winner === undefined
      ? gettext("Nobody wins.")
      : fmt(gettext("%(name)s wins!"), { name: seatName(state.winner) });
  section.querySelector("#end-reason").textContent = state.end_reason_text || "";
  // Focused without scrolling: the collapse stays in sight.
  if (acted) heading.focus({ preventScroll: true });
}

export async function playAgain(button) {
  const state = game.state;
  const players = state.seats.map((s) =>
    s.kind === "bot" ? { name: s.name, kind: "bot", level: s.level } : s.device === "own" ? { name: s.name, kind: "human", device: "own" } : { name: s.name, kind: "human" },
  );
  button.disabled = true;
  const result = await patiently(game.root.dataset.create, { players, options: state.options });
  button.disabled = false;
  if (!result.ok) {
    showError(result.data.detail || gettext("The match could not be created."));
    return;
  }
  rememberIntro(result.data);
  window.location.assign(matchUrl(game.root.dataset.matchUrl, result.data.id));
}

/* ---------- The claim: say what it risks before it is made ---------- */

export const polishProtest = () => game.state.options && game.state.options.protest === "polish";

export function claimRiskShort() {
  return polishProtest()
    ? gettext("Risky: if another player proves that a column can still go up, no platform is laid and they may take a column out of the game.")
    : gettext("Risky: if another player proves that one of your columns can still go up, you lose that column.");
}

// The claimant's columns a protester could try to move: in play, not locked, below the top.
export function freeColumnsOf(seat) {
  const state = game.state;
  const colours = state.seats[seat] ? state.seats[seat].colours : [];
  const laid = state.platforms.filter((p) => p.laid).length;
  return state.columns.filter(
    (c) => colours.includes(c.colour) && !c.removed && !c.in_hand && !c.locked && !(c.where === "platform" && c.level === laid),
  ).length;
}

export function askPlatform(ask, box) {
  const key = "paletti-claim-warned-" + game.state.id + "-" + game.state.turn;
  let warned = claimWarned.has(key);
  try {
    warned = warned || sessionStorage.getItem(key) === "1";
    sessionStorage.setItem(key, "1");
  } catch (_e) {
    /* private mode: remembered for this page only */
  }
  claimWarned.add(key);
  if (warned) post(ask);
  else showClaimWarning(ask, box);
}

// The first claim of a seat in a match: what it means and what it costs, plainly.
export function showClaimWarning(ask, box) {
  const next = nextPlatform(game.state);
  const platform = platformAsObject(next ? next.colour : "");
  const heading = el("h3", {
    id: "claim-warning-heading",
    tabindex: "-1",
    text: fmt(gettext("Ask for the %(platform)s platform?"), { platform }),
  });
  const section = el(
    "section",
    { class: "claim-warning", "aria-labelledby": "claim-warning-heading" },
    heading,
    el("p", { text: gettext("Asking for a platform means saying that none of your columns can go up to the top platform any more.") }),
    el("p", {
      text: polishProtest()
        ? gettext("Another player may protest. If they then manage to move a column from under the top platform to the top, no platform is laid and they may take any column out of the game. If they fail, you may take one of their columns out of the game.")
        : gettext("Another player may protest. If they then manage to move one of your columns to the top, that column leaves the game and no platform is laid. If they fail, you may take one of their columns out of the game."),
    }),
    el("p", { text: fmt(gettext("If nobody protests, you may lay the %(platform)s platform."), { platform }) }),
  );
  const free = freeColumnsOf(game.state.turn);
  if (!polishProtest() && free > 0) {
    const text = ngettext(
      "You still have %(count)s column that is not locked and not on the top platform: a protest may well succeed.",
      "You still have %(count)s columns that are not locked and not on the top platform: a protest may well succeed.",
      free,
    );
    section.append(el("p", { class: "claim-count", text: fmt(text, { count: free }) }));
  }
  const row = el("div", { class: "nudge" });
  row.append(el("button", { type: "button", "data-primary": true, onclick: () => renderPanel(false), text: gettext("No, keep building") }));
  row.append(el("button", { type: "button", class: "secondary", onclick: () => post(ask), text: gettext("Yes, ask for it") }));
  section.append(row);
  box.replaceChildren(section);
  game.root.querySelector("#prompt").textContent = "";
  heading.focus({ preventScroll: narrowScreen() });
  if (narrowScreen()) section.scrollIntoView({ block: "nearest" });
}

/* ---------- Load at a glance ---------- */

// How heavy the load on a touched column is, in words and colour for a child, what to do
// and what it then leads to; the grams stay written beside it. The bands are our estimates:
// a thick column weighs 16 g, the blue platform 150 g, and a column under blue carries a
// share of it and of all above. The advice says what the engine does with a hand that
// follows it (docs/paletti.md, "The play page"; bench/dexterity_bench.py measures it).
export const LOAD_BANDS = [
  { below: 1, level: "free", word: gettext("Nothing rests on it: pull it out gently") },
  { below: 40, level: "light", word: gettext("Light load") },
  { below: 100, level: "heavy", word: gettext("Heavy load: pull it slowly, in one long straight stroke") },
  { below: Infinity, level: "very-heavy", word: gettext("Very heavy load: the villa probably needs it") },
];

// What following the band's word leads to. A column the villa needs cannot come out: a
// steady builder mostly feels the platform sink in time and puts the column back (locked
// under the French rules), a hurried one brings the villa down.
export function loadAdvice(level) {
  const locks = !(game.state.options && game.state.options.abort === "polish");
  if (level === "heavy") {
    return locks
      ? gettext("Most then come out. If the villa needs this one, your other hand usually feels the platform sink and puts the column back (it is then locked); sometimes the villa falls anyway.")
      : gettext("Most then come out. If the villa needs this one, your other hand usually feels the platform sink and puts the column back; sometimes the villa falls anyway.");
  }
  if (level === "very-heavy") {
    return gettext("Even pulled slowly and straight, very few come out: the platform sinks onto your other hand, or the villa falls (about 4 times in 10). Putting it back is safest.");
  }
  return "";
}

export const LOAD_GAUGE_MAX = 200;

export function loadGauge(load, whole) {
  const band = LOAD_BANDS.find((b) => load < b.below);
  const grams = fmt(gettext("%(load)s g"), { load: whole });
  const advice = loadAdvice(band.level);
  return el(
    "div",
    { class: "load-gauge load-" + band.level, "data-load": whole },
    el("span", { class: "load-word", text: band.word }),
    ...(advice ? [el("span", { class: "load-advice", text: advice })] : []),
    el("meter", {
      min: 0,
      max: LOAD_GAUGE_MAX,
      low: 40,
      high: 100,
      optimum: 0,
      value: Math.min(load, LOAD_GAUGE_MAX),
      "aria-label": gettext("Weight resting on this column"),
      "aria-valuetext": grams,
    }),
    el("span", { class: "load-grams", text: grams }),
  );
}
