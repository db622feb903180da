/* Villa Paletti: pointing, tapping and dragging on the drawing, and the list of every column.
 */
import * as Scene from "./scene.js";
import * as Depth from "./depth.js";
import * as Hand from "./hand.js";
import { el, swatch } from "./dom.js";
import { currentScene, currentView, draw, pictureToPlatform, poses3d, setHighlight, toPicture } from "./drawing.js";
import { capfirst, fmt, gettext, ngettext } from "./i18n.js";
import { LANE_NAMES, columnName, deed, whereText } from "./names.js";
import { layPoints, moveGhost } from "./placement.js";
import { post } from "./send.js";
import { game, legal, posesOf, setSelection, subscribe, topPlatform } from "./state.js";

// The pointer on the drawing and on the side drawing; a new state closes the chooser.
export function initPointing(root) {
  for (const type of ["pointerdown", "pointermove", "pointerup"]) game.canvas.addEventListener(type, onPointer);
  const depth = root.querySelector("#villa-depth");
  if (depth) for (const type of ["pointerdown", "pointermove"]) depth.addEventListener(type, onDepthPointer);
  subscribe((change) => {
    if (change === "state") clearPointing();
  });
}

/* ---------- Pointer on the canvas ---------- */

let drag = null; // pointer samples of a drag pulling the touched column out

// A drag that starts on the touched column pulls it out: its speed and steadiness are
// the pull's (hand.js).
export function dragToPull(event, X, Y) {
  const sample = { x: event.clientX, y: event.clientY, t: event.timeStamp };
  if (event.type === "pointerdown") {
    const touched = game.state.touched.column;
    if (!columnAt(X, Y, new Set([touched]))) return;
    drag = [sample];
    game.canvas.setPointerCapture(event.pointerId);
    return;
  }
  if (!drag) return;
  drag.push(sample);
  if (event.type !== "pointerup") return;
  const gesture = Hand.fromDrag(drag, 1 / currentView().scale);
  drag = null;
  if (gesture) post({ ...legal("pull")[0], ...gesture });
}

// Where the pointer is on the picture (mm, scene.js).
export function canvasPoint(event) {
  const rect = game.canvas.getBoundingClientRect();
  return toPicture(event.clientX - rect.left, event.clientY - rect.top);
}

// A column of `ids` whose outline the pointer is on or within 22 px of (a thin column is a
// 44 px wide target), the nearest first.
export function columnAt(X, Y, ids) {
  const reach = 22 / currentView().scale;
  let best = null;
  for (const item of currentScene()) {
    if (item.kind !== "column" || !ids.has(item.piece.id)) continue;
    const distance = Scene.distanceTo(item.shape.hull, X, Y);
    if (distance <= reach && (!best || distance < best.distance)) best = { col: item.piece, distance };
  }
  return best && best.col;
}

export function onPointer(event) {
  const state = game.state;
  if (!state || state.status !== "playing" || game.busy) return;
  const [X, Y] = canvasPoint(event);
  if (state.phase === "touched" && legal("pull").length) {
    dragToPull(event, X, Y);
    return;
  }
  if (state.phase === "holding" && legal("place").length) {
    if (event.type === "pointerdown" || event.buttons) moveGhost(...pictureToPlatform(X, Y));
    return;
  }
  if (state.phase === "lay" && legal("lay_platform").length) {
    if (event.type === "pointerdown" || event.buttons) {
      // Where the pointer meets the plane the new platform's underside would lie in:
      // across and in depth.
      // A pointer above or below where it may lie keeps to its back or front row (seen
      // from so little above, a small height on the picture is a long way in depth).
      const top = topPlatform(state);
      const [x, z] = Scene.onPlane(X, Y, top.y + top.thickness / 2 + state.dimensions.column_height);
      const depths = layPoints().map((p) => p[1]);
      const kept = Math.min(Math.max(...depths), Math.max(Math.min(...depths), z));
      moveGhost(kept === z ? x : Scene.acrossAtDepth(X, kept), kept);
    }
    return;
  }
  pointAtColumn(event, X, Y);
}

// On the side drawing, while a column is held or the next platform is to be laid: a tap
// or a drag moves where it would go in depth (across, it stays where it is).
export function onDepthPointer(event) {
  const state = game.state;
  if (!state || state.status !== "playing" || game.busy || !Depth.ghostBox()) return;
  if (event.type !== "pointerdown" && !event.buttons) return;
  if (event.type === "pointerdown") event.currentTarget.setPointerCapture(event.pointerId);
  const z = Depth.depthAt(event.clientX);
  if (state.phase === "lay") {
    moveGhost(game.ghost.x, z);
  } else {
    const top = topPlatform(state);
    moveGhost(game.ghost.x, z - (top.side ? top.side[0] : 0));
  }
}

/* ---------- Pointing at a column: mouse, pen or finger ---------- */

// What a pointer may do to a column now, and the sentence that names the deed.
export function columnChoices() {
  if (legal("touch").length) return { list: legal("touch"), sentence: gettext("Touch %(column)s") };
  return { list: legal("remove_column"), sentence: gettext("Remove %(column)s") };
}

/* The columns a pointer means at a picture point. The villa is drawn in 3-D, so the one
 * drawn on top there (the front-most) is the one meant, if the player may take it.
 * Elsewhere (on the base, a platform or a column the player may not take) the columns
 * the player may take within `slack` mm of the point are meant, nearest first: a finger
 * is wider than a thin column. */
export function columnsMeant(scene, ids, X, Y, slack) {
  const top = Scene.topAt(scene, X, Y);
  if (top && top.kind === "column" && ids.has(top.piece.id)) return [top.piece];
  const near = [];
  for (const item of scene) {
    if (item.kind !== "column" || !ids.has(item.piece.id)) continue;
    const distance = Scene.distanceTo(item.shape.hull, X, Y);
    if (distance > 0 && distance <= slack) near.push({ col: item.piece, distance });
  }
  near.sort((a, b) => a.distance - b.distance);
  return near.map((n) => n.col);
}

// A finger's first tap selects and names the column; a second tap on it (or the button)
// commits. A mouse click commits at once. Where a finger lands between columns, the player
// chooses between them.
export function pointAtColumn(event, X, Y) {
  const { list } = columnChoices();
  if (!list.length) return;
  const finger = event.pointerType === "touch";
  const ids = new Set(list.map((a) => a.column));
  // A finger may land a little beside a thin column; a mouse is precise.
  const slack = (finger ? 14 : 2) / currentView().scale;
  const under = columnsMeant(currentScene(), ids, X, Y, slack);
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
  setSelection(col.id);
  const { sentence } = columnChoices();
  showPointing(
    el("p", { class: "pointing-text", text: fmt(gettext("Selected: the %(column)s. Tap it again, or tap the button, to confirm."), { column: columnName(col) }) }),
    el("div", { class: "pointing-actions" }, commitButton(col, sentence), cancelButton()),
  );
}

export function showChooser(columns, finger) {
  setSelection(null, columns);
  const { sentence } = columnChoices();
  const list = el("ul", { class: "pointing-list", "aria-label": gettext("Columns under the pointer") });
  for (const col of columns) list.append(el("li", {}, commitButton(col, sentence)));
  const box = showPointing(el("p", { class: "pointing-text", text: gettext("These columns overlap here: which one do you mean?") }), list, cancelButton());
  // After the mouse's own focus change (a press on the canvas leaves focus on the page).
  const first = box.querySelector("button");
  if (!finger) setTimeout(() => first.focus({ preventScroll: true }), 0);
}

export function clearPointing(redraw) {
  setSelection(null);
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
  const hidden = Scene.hiddenColumns(Scene.buildScene(state, poses3d(poses)));
  const { list, sentence } = state.status === "playing" ? columnChoices() : { list: [], sentence: "" };
  const actions = new Map(list.map((a) => [a.column, a]));
  const hiders = new Map();
  for (const [id, hider] of hidden) hiders.set(id, hider);
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
      if (hiders.has(col.id)) {
        const hider = hiders.get(col.id);
        parts.push(hider ? fmt(gettext("hidden behind the %(column)s"), { column: columnName(hider) }) : gettext("hidden under the platform above it"));
      }
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
