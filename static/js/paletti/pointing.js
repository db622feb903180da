/* Villa Paletti: pointing, tapping and dragging on the drawing, and the list of every column.
 */
import * as View from "./view.js";
import * as Hand from "./hand.js";
import { moveGhost, post, setHighlight, whereText } from "./controls.js";
import { el, swatch } from "./dom.js";
import { draw, sample, toWorld, worldToPlatformX } from "./drawing.js";
import { capfirst, fmt, gettext, ngettext } from "./i18n.js";
import { LANE_NAMES, columnName, deed } from "./names.js";
import { game, legal, posesOf } from "./state.js";

/* ---------- Pointer on the canvas ---------- */

// A drag that starts on the touched column pulls it out: its speed and steadiness are
// the pull's (hand.js).
export function dragToPull(event, wx, wy) {
  const sample = { x: event.clientX, y: event.clientY, t: event.timeStamp };
  if (event.type === "pointerdown") {
    const touched = game.state.touched.column;
    if (!columnAt(wx, wy, new Set([touched]))) return;
    game.drag = [sample];
    game.canvas.setPointerCapture(event.pointerId);
    return;
  }
  if (!game.drag) return;
  game.drag.push(sample);
  if (event.type !== "pointerup") return;
  const gesture = Hand.fromDrag(game.drag, 1 / game.view.scale);
  game.drag = null;
  if (gesture) post({ ...legal("pull")[0], ...gesture });
}

export function canvasPoint(event) {
  const rect = game.canvas.getBoundingClientRect();
  return toWorld(event.clientX - rect.left, event.clientY - rect.top);
}

// The column under the pointer, with a 44 px wide target even for a thin column.
export function columnAt(wx, wy, ids) {
  const s = game.view.scale;
  let best = null;
  for (const col of game.state.columns) {
    const pose = game.poses["c" + col.id];
    if (!pose || !ids.has(col.id)) continue;
    const dx = wx - pose[0];
    const dy = wy - pose[1];
    const c = Math.cos(pose[2]);
    const sn = Math.sin(pose[2]);
    const lx = dx * c + dy * sn;
    const ly = -dx * sn + dy * c;
    const halfW = Math.max(col.width / 2, 22 / s);
    if (Math.abs(lx) > halfW || Math.abs(ly) > col.height / 2 + 4 / s) continue;
    const score = col.lane * 1000 + Math.abs(lx);
    if (!best || score < best.score) best = { col, score };
  }
  return best && best.col;
}

export function onPointer(event) {
  const state = game.state;
  if (!state || state.status !== "playing" || game.busy) return;
  const [wx, wy] = canvasPoint(event);
  if (state.phase === "touched" && legal("pull").length) {
    dragToPull(event, wx, wy);
    return;
  }
  if (state.phase === "holding" && legal("place").length) {
    if (event.type === "pointerdown" || event.buttons) moveGhost(worldToPlatformX(wx), game.ghost.lane);
    return;
  }
  if (state.phase === "lay" && legal("lay_platform").length) {
    if (event.type === "pointerdown" || event.buttons) moveGhost(wx, 0);
    return;
  }
  pointAtColumn(event, wx, wy);
}

/* ---------- Pointing at a column: mouse, pen or finger ---------- */

// What a pointer may do to a column now, and the sentence that names the deed.
export function columnChoices() {
  if (legal("touch").length) return { list: legal("touch"), sentence: gettext("Touch %(column)s") };
  return { list: legal("remove_column"), sentence: gettext("Remove %(column)s") };
}

// The column under the pointer is the one meant: the drawn rectangles decide, not the
// nearest lane. Where several overlap, the player chooses between them. A finger's first
// tap selects and names the column; a second tap on it (or the button) commits. A mouse
// click on a single column commits at once.
export function pointAtColumn(event, wx, wy) {
  const { list } = columnChoices();
  if (!list.length) return;
  const finger = event.pointerType === "touch";
  const ids = new Set(list.map((a) => a.column));
  const columns = game.state.columns.filter((c) => ids.has(c.id));
  // A finger may land a little beside a thin column; a mouse is precise.
  const slack = (finger ? 14 : 2) / game.view.scale;
  const under = View.columnsUnder(columns, game.poses, wx, wy, slack);
  if (event.type === "pointermove") {
    if (finger) return;
    const id = under.length ? under[0].id : null;
    if (id !== game.highlight) setHighlight(id);
    game.canvas.style.cursor = under.length ? "pointer" : "";
    return;
  }
  if (event.type !== "pointerdown") return;
  if (!under.length) {
    if (finger) clearPointing(true);
  } else if (under.length > 1) {
    showChooser(under, finger);
  } else if (finger && game.selected !== under[0].id) {
    selectColumn(under[0]);
  } else {
    commitColumn(under[0].id);
  }
}

export function commitColumn(id) {
  const action = columnChoices().list.find((a) => a.column === id);
  clearPointing(false);
  if (action) post(action);
}

export function placeText(col) {
  return [whereText(col), LANE_NAMES[col.lane]].join(", ");
}

// A column as a button that commits it: its name, where it stands, its lane.
export function commitButton(col, sentence) {
  return el(
    "button",
    {
      type: "button",
      class: "pointing-choice",
      "data-column": col.id,
      onclick: () => commitColumn(col.id),
      onfocus: () => setHighlight(col.id),
      onmouseenter: () => setHighlight(col.id),
    },
    swatch(col.colour),
    el("span", { class: "choice-text" }, el("strong", { text: deed(sentence, col) }), el("span", { class: "choice-detail", text: placeText(col) })),
  );
}

export function cancelButton() {
  return el("button", { type: "button", class: "secondary", onclick: () => clearPointing(true), text: gettext("Cancel") });
}

export function showPointing(...children) {
  const box = game.root.querySelector("#pointing");
  box.replaceChildren(...children);
  box.hidden = false;
  // Escape closes the chooser or the selection, as Cancel does.
  box.onkeydown = (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      clearPointing(true);
    }
  };
  draw();
  return box;
}

export function selectColumn(col) {
  game.selected = col.id;
  game.candidates = [];
  const { sentence } = columnChoices();
  showPointing(
    el("p", { class: "pointing-text", text: fmt(gettext("Selected: the %(column)s. Tap it again, or tap the button, to confirm."), { column: columnName(col) }) }),
    el("div", { class: "pointing-actions" }, commitButton(col, sentence), cancelButton()),
  );
}

export function showChooser(columns, finger) {
  game.selected = null;
  game.candidates = columns;
  const { sentence } = columnChoices();
  const list = el("ul", { class: "pointing-list", "aria-label": gettext("Columns under the pointer") });
  for (const col of columns) list.append(el("li", {}, commitButton(col, sentence)));
  const box = showPointing(el("p", { class: "pointing-text", text: gettext("These columns overlap here: which one do you mean?") }), list, cancelButton());
  // After the mouse's own focus change (a press on the canvas leaves focus on the page).
  const first = box.querySelector("button");
  if (!finger) setTimeout(() => first.focus({ preventScroll: true }), 0);
}

export function clearPointing(redraw) {
  game.selected = null;
  game.candidates = [];
  const box = game.root.querySelector("#pointing");
  if (box && !box.hidden) {
    box.hidden = true;
    box.replaceChildren();
  }
  if (redraw) draw();
}

/* ---------- Every column, level by level ---------- */

// Every standing column is findable, hidden or not: listed by level from the top, in its
// lane, with what hides it; the ones the player may take now are buttons.
export function renderColumnIndex() {
  const state = game.state;
  const box = game.root.querySelector("#column-index");
  if (!box) return;
  const poses = posesOf(state);
  const standing = state.columns.filter((c) => poses["c" + c.id]);
  const { list, sentence } = state.status === "playing" ? columnChoices() : { list: [], sentence: "" };
  const actions = new Map(list.map((a) => [a.column, a]));
  const hiders = new Map();
  for (const col of standing) {
    const hider = View.hiddenBehind(col, standing, poses);
    if (hider) hiders.set(col.id, hider);
  }
  box.querySelector("summary").textContent = hiders.size
    ? fmt(ngettext("Every column, level by level (%(n)s hidden behind another)", "Every column, level by level (%(n)s hidden behind others)", hiders.size), { n: hiders.size })
    : gettext("Every column, level by level");
  const body = box.querySelector(".column-index-body");
  body.replaceChildren();
  const levels = [...new Set(standing.map((c) => c.level))].sort((a, b) => b - a);
  for (const level of levels) {
    const columns = standing.filter((c) => c.level === level).sort((a, b) => a.x - b.x || a.lane - b.lane);
    const name = capfirst(whereText(columns[0]));
    const ul = el("ul", { class: "index-list", "aria-label": name });
    for (const col of columns) {
      const parts = [LANE_NAMES[col.lane], fmt(gettext("x %(x)s mm"), { x: Math.round(col.x) })];
      if (hiders.has(col.id)) parts.push(fmt(gettext("hidden behind the %(column)s"), { column: columnName(hiders.get(col.id)) }));
      if (col.locked) parts.push(gettext("locked"));
      const action = actions.get(col.id);
      const text = el(
        "span",
        { class: "choice-text" },
        el("strong", { text: action ? deed(sentence, col) : capfirst(columnName(col)) }),
        el("span", { class: "choice-detail", text: parts.join(", ") }),
      );
      const entry = action
        ? el(
            "button",
            {
              type: "button",
              class: "index-entry",
              "data-column": col.id,
              onclick: () => post(action),
              onfocus: () => setHighlight(col.id),
              onblur: () => setHighlight(null),
              onmouseenter: () => setHighlight(col.id),
              onmouseleave: () => setHighlight(null),
            },
            swatch(col.colour),
            text,
          )
        : el("span", { class: "index-entry", "data-column": col.id }, swatch(col.colour), text);
      ul.append(el("li", {}, entry));
    }
    body.append(el("p", { class: "level-name", text: name }), ul);
  }
}
