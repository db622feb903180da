/* Villa Paletti set-up: the players place the 20 columns on the base themselves.
 *
 * The French rules: the players set the columns on the base as they wish, outside the
 * forbidden zone, then lay blue on them. The page starts from the usual arrangement (sent
 * by the server in #arrangement-data), lets each column's position and lane be changed in a
 * table (keyboard, touch and screen readers all use the same inputs), draws the result,
 * and sends it as options.setup; the server checks it and its errors are shown above.
 * setup.js calls option(form) when it builds the request.
 */
import { gettext } from "./i18n.js";
import { LANE_NAMES, tableColour, tableKind } from "./names.js";
import { PAINT } from "./view.js";

const data = (() => {
  const node = document.getElementById("arrangement-data");
  return node ? JSON.parse(node.textContent) : null;
})();
const places = {};
let blueX = 0;

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
  for (const column of data.setup.columns) places[column.id] = { x: column.x, lane: column.lane };
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
    const lane = el("select", {
      "data-column": String(column.id),
      "aria-label": label,
      onchange: (event) => {
        place.lane = Number(event.target.value);
        draw();
      },
    });
    for (const n of data.lanes) {
      const option = el("option", { value: String(n), text: LANE_NAMES[n] });
      if (n === place.lane) option.selected = true;
      lane.append(option);
    }
    body.append(el("tr", {}, name, el("td", {}, x), el("td", {}, lane)));
  }
  const blue = document.getElementById("arrange-blue-x");
  blue.value = String(blueX);
  blue.oninput = () => {
    const value = Number(blue.value);
    if (Number.isFinite(value)) blueX = value;
    draw();
  };
}

// The base seen from above, one row per lane (the back lane at the top), so that no column
// hides another: each column drawn in its own shape (round or hexagonal), the forbidden
// zone hatched, blue's outline dashed over the lanes.
function draw() {
  const canvas = document.getElementById("arrange-preview");
  if (!canvas || canvas.closest("[hidden]")) return;
  const width = canvas.clientWidth || 320;
  const half = data.base_length / 2;
  const label = 52; // room on the left for the lanes' names (px)
  const lanes = data.lanes.length;
  const widest = Math.max(...data.columns.map((c) => c.width));
  // The base across the whole width; the canvas as tall as three lanes of the widest
  // column at that scale, so that every column keeps its true size.
  const scale = (width - label - 12) / data.base_length;
  const height = Math.round(Math.min(320, Math.max(110, lanes * (widest + 6) * scale + 16)));
  canvas.style.height = height + "px";
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const rowHeight = (height - 16) / lanes;
  const sx = (x) => label + 6 + (x + half) * scale;
  // Lane 0 (front) at the bottom, as a player sitting in front of the base sees it.
  const rowY = (lane) => 8 + (lanes - 1 - lane + 0.5) * rowHeight;
  ctx.fillStyle = "#e9dcc6";
  ctx.fillRect(sx(-half), 4, data.base_length * scale, height - 8);
  ctx.strokeStyle = "#8a6a46";
  ctx.lineWidth = 2;
  ctx.strokeRect(sx(-half), 4, data.base_length * scale, height - 8);
  const f = data.forbidden_half_width;
  ctx.save();
  ctx.beginPath();
  ctx.rect(sx(-f), 4, 2 * f * scale, height - 8);
  ctx.clip();
  ctx.fillStyle = "#f3d6d2";
  ctx.fill();
  ctx.strokeStyle = "#b00020";
  ctx.lineWidth = 1;
  for (let y = -2 * f * scale; y < height; y += 7) {
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
  for (const lane of data.lanes) ctx.fillText(short[lane] || "", 2, rowY(lane));
  for (const column of data.columns) {
    const place = places[column.id];
    if (!data.lanes.includes(place.lane)) continue;
    const x = sx(place.x);
    const y = rowY(place.lane);
    const r = (column.width / 2) * scale;
    ctx.beginPath();
    if (column.kind === "hex") {
      for (let k = 0; k < 6; k += 1) {
        const a = (Math.PI / 3) * k;
        ctx[k ? "lineTo" : "moveTo"](x + r * Math.cos(a), y + r * Math.sin(a));
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
  }
  ctx.setLineDash([6, 4]);
  ctx.strokeStyle = "#2b6cc4";
  ctx.lineWidth = 2;
  ctx.strokeRect(sx(blueX - data.blue_length / 2), 6, data.blue_length * scale, height - 12);
  ctx.setLineDash([]);
  ctx.lineWidth = 1;
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
      lane: places[column.id].lane,
    })),
    blue_x: blueX,
  };
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
