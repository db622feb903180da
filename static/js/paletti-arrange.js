/* Villa Paletti set-up: the players place the 20 columns on the base themselves.
 *
 * The French rules: the players set the columns on the base as they wish, outside the
 * forbidden zone, then lay blue on them. The page starts from the usual arrangement (sent
 * by the server in #arrangement-data), lets each column's position and lane be changed in a
 * table (keyboard, touch and screen readers all use the same inputs), draws the result,
 * and sends it as options.setup; the server checks it and its errors are shown above.
 * paletti.js calls window.PalettiArrange.option(form) when it builds the request.
 */
(function () {
  "use strict";

  const gettext = typeof window.gettext === "function" ? window.gettext : (s) => s;
  const PAINT = window.PalettiView.PAINT; // paletti-view.js, loaded first
  const COLOUR_NAMES = {
    white: gettext("white"),
    black: gettext("black"),
    purple: gettext("purple"),
    pink: gettext("pink"),
  };
  const KIND_NAMES = {
    thin: gettext("thin round column"),
    hex: gettext("hexagonal column"),
    thick: gettext("thick round column"),
  };
  const LANE_NAMES = [gettext("front lane"), gettext("middle lane"), gettext("back lane")];

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
        el("span", { class: "arrange-colour", text: COLOUR_NAMES[column.colour] }),
        el("br"),
        el("span", { class: "arrange-kind", text: KIND_NAMES[column.kind] }),
      );
      const label = COLOUR_NAMES[column.colour] + " · " + KIND_NAMES[column.kind];
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

  // The base seen from the front: the columns of the back lane behind, paler; blue dashed.
  function draw() {
    const canvas = document.getElementById("arrange-preview");
    if (!canvas || canvas.closest("[hidden]")) return;
    const width = canvas.clientWidth || 320;
    const height = canvas.clientHeight || 140;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const half = data.base_length / 2;
    const scale = Math.min((width - 16) / data.base_length, (height - 20) / (data.column_height + 30));
    const sx = (x) => width / 2 + x * scale;
    const baseTop = height - 14;
    const sy = (y) => baseTop - y * scale;
    ctx.fillStyle = "#8a6a46";
    ctx.fillRect(sx(-half), baseTop, data.base_length * scale, 8);
    ctx.fillStyle = "#f3d6d2";
    const f = data.forbidden_half_width;
    ctx.fillRect(sx(-f), baseTop, 2 * f * scale, 8);
    ctx.strokeStyle = "#b00020";
    ctx.strokeRect(sx(-f), baseTop, 2 * f * scale, 8);
    for (const lane of [...data.lanes].reverse()) {
      ctx.globalAlpha = lane === 0 ? 1 : lane === 1 ? 0.75 : 0.5;
      for (const column of data.columns) {
        const place = places[column.id];
        if (place.lane !== lane) continue;
        ctx.fillStyle = PAINT[column.colour];
        ctx.strokeStyle = "#1f2328";
        const left = sx(place.x - column.width / 2);
        ctx.fillRect(left, sy(data.column_height), column.width * scale, data.column_height * scale);
        ctx.strokeRect(left, sy(data.column_height), column.width * scale, data.column_height * scale);
      }
    }
    ctx.globalAlpha = 1;
    ctx.setLineDash([6, 4]);
    ctx.strokeStyle = "#2b6cc4";
    ctx.lineWidth = 2;
    const blueLeft = sx(blueX - data.blue_length / 2);
    ctx.strokeRect(blueLeft, sy(data.column_height + 6), data.blue_length * scale, 6 * scale);
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
  function option(form) {
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
  window.PalettiArrange = { option };
})();
