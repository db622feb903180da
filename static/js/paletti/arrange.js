/* Villa Paletti set-up: the players place the 20 columns on the base themselves.
 *
 * The French rules: the players set the columns on the base as they wish, outside the
 * forbidden zone, then lay blue on them. The page starts from the usual arrangement (sent
 * by the server in #arrangement-data) and places each column at a point (x, z) of the base,
 * as a column is placed on a platform during the match: on the drawing (the base seen from
 * above: tap or click a column, then where it should stand; the arrow keys move the chosen
 * one across and in depth) or in a table of numbers; it sends them as options.setup
 * ({id, x, z} each); the server checks it and its errors are shown beside the button.
 * setup.js calls option(form) when it builds the request.
 */
import { gettext } from "./i18n.js";
import { tableColour, tableKind } from "./names.js";
import { PAINT } from "./view.js";

const data = (() => {
  const node = document.getElementById("arrangement-data");
  return node ? JSON.parse(node.textContent) : null;
})();
const places = {};
let blueX = 0;
let chosen = null; // the column the drawing's pointer or arrow keys move
const FOCUS = "#d35400";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function fill() {
  for (const column of data.setup.columns) places[column.id] = { x: column.x, z: "z" in column ? column.z : data.lane_depths[column.lane] };
  blueX = data.setup.blue_x;
}

function buildRows() {
  const body = document.getElementById("arrange-rows");
  body.textContent = "";
  const half = data.base_length / 2;
  for (const column of data.columns) {
    const place = places[column.id];
    const name = el("th", { scope: "row" });
    name.append(
      el("span", { class: "swatch swatch-" + column.colour, "aria-hidden": "true" }),
      " ",
      el("span", { class: "arrange-colour", text: tableColour(column) }),
      el("br"),
      el("span", { class: "arrange-kind", text: tableKind(column) }),
    );
    const label = tableColour(column) + " · " + tableKind(column);
    const x = el("input", {
      type: "number",
      step: "1",
      min: String(-half),
      max: String(half),
      value: String(place.x),
      inputmode: "numeric",
      "data-column": String(column.id),
      "aria-label": label,
      oninput: (event) => {
        const value = Number(event.target.value);
        if (Number.isFinite(value)) place.x = value;
        draw();
      },
    });
    const z = el("input", {
      type: "number",
      step: "1",
      min: String(-half),
      max: String(half),
      value: String(place.z),
      inputmode: "numeric",
      "data-depth-column": String(column.id),
      "aria-label": label + " · " + gettext("depth"),
      oninput: (event) => {
        const value = Number(event.target.value);
        if (Number.isFinite(value)) place.z = value;
        draw();
      },
    });
    for (const input of [x, z]) input.addEventListener("focus", () => choose(column.id));
    body.append(el("tr", {}, name, el("td", {}, x), el("td", {}, z)));
  }
  const blue = document.getElementById("arrange-blue-x");
  blue.value = String(blueX);
  blue.oninput = () => {
    const value = Number(blue.value);
    if (Number.isFinite(value)) blueX = value;
    draw();
  };
}

// The base seen from above (the back at the top, as a player sitting in front of it sees
// it), at its true proportions: each column in its own shape at its point, the forbidden
// zone hatched, the three usual rows as faint lines, blue's outline dashed.
function geometry(canvas) {
  const width = canvas.clientWidth || 320;
  const half = data.base_length / 2;
  const label = 44; // room on the left for the rows' names (px)
  const scale = Math.min((width - label - 12) / data.base_length, 320 / data.base_length);
  const height = Math.round(data.base_length * scale + 16);
  const left = label + 6;
  return {
    width,
    height,
    scale,
    half,
    sx: (x) => left + (x + half) * scale,
    sz: (z) => 8 + (half - z) * scale,
    toBase: (px, py) => [(px - left) / scale - half, half - (py - 8) / scale],
  };
}

function draw() {
  const canvas = document.getElementById("arrange-preview");
  if (!canvas || canvas.closest("[hidden]")) return;
  const g = geometry(canvas);
  const { half, scale, sx, sz } = g;
  canvas.style.height = g.height + "px";
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(g.width * dpr);
  canvas.height = Math.round(g.height * dpr);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, g.width, g.height);
  const size = data.base_length * scale;
  ctx.fillStyle = "#e9dcc6";
  ctx.fillRect(sx(-half), sz(half), size, size);
  ctx.strokeStyle = "#8a6a46";
  ctx.lineWidth = 2;
  ctx.strokeRect(sx(-half), sz(half), size, size);
  const f = data.forbidden_half_width;
  ctx.save();
  ctx.beginPath();
  ctx.rect(sx(-f), sz(half), 2 * f * scale, size);
  ctx.clip();
  ctx.fillStyle = "#f3d6d2";
  ctx.fill();
  ctx.strokeStyle = "#b00020";
  ctx.lineWidth = 1;
  for (let y = sz(half) - 2 * f * scale; y < sz(-half); y += 7) {
    ctx.beginPath();
    ctx.moveTo(sx(-f), y);
    ctx.lineTo(sx(f), y + 2 * f * scale);
    ctx.stroke();
  }
  ctx.restore();
  ctx.fillStyle = "#1f2328";
  ctx.font = "12px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  ctx.textAlign = "left";
  const short = [gettext("front"), gettext("middle"), gettext("back")];
  ctx.save();
  ctx.setLineDash([2, 4]);
  ctx.strokeStyle = "rgba(31,35,40,0.35)";
  for (const lane of data.lanes) {
    const y = sz(data.lane_depths[lane]);
    ctx.fillText(short[lane] || "", 2, y);
    ctx.beginPath();
    ctx.moveTo(sx(-half), y);
    ctx.lineTo(sx(half), y);
    ctx.stroke();
  }
  ctx.restore();
  for (const column of data.columns) {
    const place = places[column.id];
    const x = sx(place.x);
    const y = sz(place.z);
    const r = (column.width / 2) * scale;
    ctx.beginPath();
    if (column.kind === "hex") {
      const rh = r / Math.cos(Math.PI / 6);
      for (let k = 0; k < 6; k += 1) {
        const a = (Math.PI / 3) * k;
        ctx[k ? "lineTo" : "moveTo"](x + rh * Math.cos(a), y + rh * Math.sin(a));
      }
      ctx.closePath();
    } else {
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    }
    ctx.fillStyle = PAINT[column.colour];
    ctx.fill();
    ctx.strokeStyle = "#1f2328";
    ctx.lineWidth = 1.2;
    ctx.stroke();
    if (column.id === chosen) {
      ctx.beginPath();
      ctx.arc(x, y, r + 4, 0, 2 * Math.PI);
      ctx.strokeStyle = FOCUS;
      ctx.lineWidth = 3;
      ctx.stroke();
    }
  }
  ctx.setLineDash([6, 4]);
  ctx.strokeStyle = "#2b6cc4";
  ctx.lineWidth = 2;
  const blue = data.blue_length / 2;
  ctx.strokeRect(sx(blueX - blue), sz(blue), data.blue_length * scale, data.blue_length * scale);
  ctx.setLineDash([]);
  ctx.lineWidth = 1;
}

// The column chosen on the drawing or in the table: outlined, moved by the pointer and the
// arrow keys.
function choose(id) {
  if (chosen === id) return;
  chosen = id;
  draw();
}

// A column's place changed on the drawing: the table follows (rounded to 0.5 mm).
function moveTo(id, x, z) {
  const place = places[id];
  place.x = Math.round(x * 2) / 2;
  place.z = Math.round(z * 2) / 2;
  const row = document.getElementById("arrange-rows");
  row.querySelector(`input[data-column='${id}']`).value = String(place.x);
  row.querySelector(`input[data-depth-column='${id}']`).value = String(place.z);
  draw();
}

function onPointer(event) {
  const canvas = event.currentTarget;
  const rect = canvas.getBoundingClientRect();
  const g = geometry(canvas);
  const [x, z] = g.toBase(event.clientX - rect.left, event.clientY - rect.top);
  if (event.type === "pointerdown") {
    // A column under the pointer (a finger gets a few mm more) is chosen; elsewhere the
    // chosen column moves there.
    const slack = (event.pointerType === "touch" ? 10 : 3) / g.scale;
    let hit = null;
    for (const column of data.columns) {
      const p = places[column.id];
      const d = Math.hypot(p.x - x, p.z - z) - column.width / 2;
      if (d <= slack && (!hit || d < hit.d)) hit = { id: column.id, d };
    }
    if (hit) {
      choose(hit.id);
      canvas.dataset.dragging = "";
    } else if (chosen !== null) {
      moveTo(chosen, x, z);
    }
    canvas.setPointerCapture(event.pointerId);
  } else if (event.type === "pointermove" && event.buttons && "dragging" in canvas.dataset && chosen !== null) {
    moveTo(chosen, x, z);
  } else if (event.type === "pointerup") {
    delete canvas.dataset.dragging;
  }
}

// The arrow keys move the chosen column 1 mm (5 with Shift) across or in depth.
function onKey(event) {
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  const step = steps[event.key];
  if (!step) return;
  event.preventDefault();
  if (chosen === null) {
    choose(data.columns[0].id);
    return;
  }
  const k = event.shiftKey ? 5 : 1;
  const place = places[chosen];
  moveTo(chosen, place.x + step[0] * k, place.z + step[1] * k);
}

function choice(form) {
  const picked = form.querySelector("input[name=setup]:checked");
  return picked ? picked.value : "default";
}

function init() {
  const form = document.getElementById("paletti-setup");
  const section = document.getElementById("arrange");
  if (!form || !section || !data) return;
  fill();
  buildRows();
  const sync = () => {
    section.hidden = choice(form) !== "own";
    draw();
  };
  form.querySelectorAll("input[name=setup]").forEach((input) => input.addEventListener("change", sync));
  window.addEventListener("resize", draw);
  const canvas = document.getElementById("arrange-preview");
  for (const type of ["pointerdown", "pointermove", "pointerup"]) canvas.addEventListener(type, onPointer);
  canvas.addEventListener("keydown", onKey);
  sync();
}

// The value of options.setup: "default", "random" or the players' own arrangement.
export function option(form) {
  const picked = choice(form);
  if (picked !== "own" || !data) return picked === "random" ? "random" : "default";
  return {
    columns: data.columns.map((column) => ({
      id: column.id,
      x: places[column.id].x,
      z: places[column.id].z,
    })),
    blue_x: blueX,
  };
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
