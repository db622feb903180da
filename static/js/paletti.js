/* Villa Paletti in the browser: the set-up form and the play page. No framework.
 *
 * The server is authoritative (DESIGN.md): this file draws the state it sends, animates
 * its frames, and posts only actions copied from state.legal_actions. World units are mm,
 * y up, 0 = table top, x = 0 the middle of the base; the canvas flips y.
 */
(function () {
  "use strict";

  // If the catalogue failed to load, still show English rather than break the page.
  if (typeof window.gettext !== "function") {
    window.gettext = (s) => s;
    window.ngettext = (one, many, n) => (n === 1 ? one : many);
    window.interpolate = (s, params) => s.replace(/%\((\w+)\)s/g, (_m, k) => params[k]);
  }
  if (typeof window.pgettext !== "function") window.pgettext = (_context, s) => s;
  const gettext = window.gettext;
  const ngettext = window.ngettext;
  const pgettext = window.pgettext;
  const fmt = (text, params) => window.interpolate(text, params, true);

  const LANG = document.documentElement.lang || "en";
  const NIL_ID = "00000000-0000-0000-0000-000000000000";

  const COLOUR_NAMES = {
    white: gettext("white"),
    black: gettext("black"),
    purple: gettext("purple"),
    pink: gettext("pink"),
    blue: gettext("blue"),
    green: gettext("green"),
    yellow: gettext("yellow"),
    orange: gettext("orange"),
    red: gettext("red"),
  };
  // A seat's colours named on their own (le blanc, hvid, biały) on the scoreboard, not in
  // the forms that agree with "column" inside sentences.
  const PLAYER_COLOUR_NAMES = {
    white: pgettext("a player's colour, on its own", "white"),
    black: pgettext("a player's colour, on its own", "black"),
    purple: pgettext("a player's colour, on its own", "purple"),
    pink: pgettext("a player's colour, on its own", "pink"),
  };
  const KIND_NAMES = {
    thin: gettext("thin round column"),
    hex: gettext("hexagonal column"),
    thick: gettext("thick round column"),
  };
  // A column named as the object of "Touch …" or "Remove …": its own forms, so that a
  // language with cases can decline it (Polish: "Usuń białą małą okrągłą kolumnę").
  // (The context is spelt out in each call: xgettext reads only literal strings.)
  const OBJECT_COLOUR_NAMES = {
    white: pgettext("a column named as the object of a verb", "white"),
    black: pgettext("a column named as the object of a verb", "black"),
    purple: pgettext("a column named as the object of a verb", "purple"),
    pink: pgettext("a column named as the object of a verb", "pink"),
  };
  const OBJECT_KIND_NAMES = {
    thin: pgettext("a column named as the object of a verb", "thin round column"),
    hex: pgettext("a column named as the object of a verb", "hexagonal column"),
    thick: pgettext("a column named as the object of a verb", "thick round column"),
  };
  // A platform named as the object of a verb ("Ask for the green platform"): Polish declines
  // it (zieloną platformę); elsewhere it is the colour's own name.
  const OBJECT_PLATFORM_NAMES = {
    blue: pgettext("a platform named as the object of a verb", "blue"),
    green: pgettext("a platform named as the object of a verb", "green"),
    yellow: pgettext("a platform named as the object of a verb", "yellow"),
    orange: pgettext("a platform named as the object of a verb", "orange"),
    red: pgettext("a platform named as the object of a verb", "red"),
  };
  const LANE_NAMES = [gettext("front lane"), gettext("middle lane"), gettext("back lane")];
  const PAINT = window.PalettiView.PAINT;
  const FOCUS = "#d35400";

  const colourName = (c) => COLOUR_NAMES[c] || c;
  const playerColourName = (c) => PLAYER_COLOUR_NAMES[c] || colourName(c);
  const columnName = (col) =>
    fmt(gettext("%(colour)s %(kind)s"), { colour: colourName(col.colour), kind: KIND_NAMES[col.kind] || col.kind });
  const platformAsObject = (c) => OBJECT_PLATFORM_NAMES[c] || colourName(c);
  // A column named as what is touched: Polish "dotknąć" takes the genitive (Dotknij różowej
  // małej okrągłej kolumny), where "usunąć" takes the accusative.
  const TOUCHED_COLOUR_NAMES = {
    white: pgettext("a column named as what is touched", "white"),
    black: pgettext("a column named as what is touched", "black"),
    purple: pgettext("a column named as what is touched", "purple"),
    pink: pgettext("a column named as what is touched", "pink"),
  };
  const TOUCHED_KIND_NAMES = {
    thin: pgettext("a column named as what is touched", "thin round column"),
    hex: pgettext("a column named as what is touched", "hexagonal column"),
    thick: pgettext("a column named as what is touched", "thick round column"),
  };
  const columnTouched = (col) =>
    fmt(pgettext("a column named as what is touched", "the %(colour)s %(kind)s"), {
      colour: TOUCHED_COLOUR_NAMES[col.colour] || colourName(col.colour),
      kind: TOUCHED_KIND_NAMES[col.kind] || col.kind,
    });
  const TOUCH = gettext("Touch %(column)s");
  // A whole sentence naming the column a button acts on ("Touch the pink thin round column").
  const deed = (sentence, col) => fmt(sentence, { column: sentence === TOUCH ? columnTouched(col) : columnAsObject(col) });
  const columnAsObject = (col) =>
    fmt(pgettext("a column named as the object of a verb", "the %(colour)s %(kind)s"), {
      colour: OBJECT_COLOUR_NAMES[col.colour] || colourName(col.colour),
      kind: OBJECT_KIND_NAMES[col.kind] || col.kind,
    });
  // The load a touched column bears in whole grams, as the server rounded it (once, for the
  // page and the narration alike).
  const grams = (touched) => (Number.isInteger(touched.grams) ? touched.grams : Math.round(touched.load));
  // A sentence that opens on a placeholder ("%(column)s bears…") still opens on a capital.
  const capfirst = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  /* ---------- HTTP ---------- */

  function csrfToken() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  async function api(url, body) {
    const init = { headers: { Accept: "application/json", "Accept-Language": LANG } };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.headers["X-CSRFToken"] = csrfToken();
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(url, init);
    } catch (_e) {
      return { ok: false, status: 0, data: { detail: gettext("The server could not be reached. Check the connection and try again.") } };
    }
    let data;
    try {
      data = await response.json();
    } catch (_e) {
      data = { detail: gettext("The server sent an unexpected answer.") };
    }
    return { ok: response.ok, status: response.status, data };
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  function swatch(colour) {
    return el("span", { class: "swatch swatch-" + colour, "aria-hidden": "true" });
  }

  // A new match's first events (a bot may have played first) are told on the play page.
  function rememberIntro(data) {
    try {
      const intro = { events: data.events || [], steps: data.steps || [], frames: data.frames || [], opening: data.opening || null };
      sessionStorage.setItem("paletti-intro-" + data.id, JSON.stringify(intro));
    } catch (_e) {
      /* private mode: the intro is only a nicety */
    }
  }

  function matchUrl(template, id) {
    return template.replace(NIL_ID, id);
  }

  /* ---------- Set-up page ---------- */

  function initSetup(form) {
    const count = form.querySelector("#player-count");
    const seats = [...form.querySelectorAll("fieldset.seat")];
    const showSeats = () => {
      seats.forEach((fieldset, i) => {
        const used = i < Number(count.value);
        fieldset.hidden = !used;
        fieldset.disabled = !used;
      });
    };
    count.addEventListener("change", showSeats);
    showSeats();
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearErrors(form);
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      const result = await api(form.dataset.api, setupPayload(form, seats, Number(count.value)));
      button.disabled = false;
      if (result.ok) {
        rememberIntro(result.data);
        window.location.assign(matchUrl(form.dataset.matchUrl, result.data.id));
      } else {
        showSetupErrors(form, result.data);
      }
    });
  }

  function setupPayload(form, seats, count) {
    const players = seats.slice(0, count).map((fieldset) => {
      const kind = fieldset.querySelector("select[name=kind]").value;
      const name = fieldset.querySelector("input[name=name]").value;
      return kind === "human" ? { name, kind: "human" } : { name, kind: "bot", level: kind };
    });
    const data = new FormData(form);
    const payload = {
      players,
      options: {
        seal_start: data.get("seal_start"),
        protest: data.get("protest") || "french",
        abort: data.get("abort") || "french",
        tremor: Number(data.get("tremor")),
        setup: window.PalettiArrange ? window.PalettiArrange.option(form) : data.get("setup") || "default",
      },
    };
    if (data.get("seed")) payload.seed = Number(data.get("seed"));
    return payload;
  }

  function clearErrors(form) {
    form.querySelectorAll(".field-error, #form-error").forEach((node) => {
      node.hidden = true;
      node.textContent = "";
    });
    form.querySelectorAll(".has-error").forEach((node) => node.classList.remove("has-error"));
    form.querySelectorAll("[aria-invalid]").forEach((node) => node.removeAttribute("aria-invalid"));
  }

  // DRF errors are nested like the payload: {players: [{name: [..]}, ..]} or {players: [..]}.
  function showSetupErrors(form, errors) {
    let first = null;
    const put = (id, messages) => {
      const target = form.querySelector("#" + id);
      const text = [].concat(messages).filter((m) => typeof m === "string").join(" ");
      if (!target || !text) return false;
      target.textContent = text;
      target.hidden = false;
      const field = target.closest(".field");
      if (field) field.classList.add("has-error");
      const control = form.querySelector("[aria-describedby~='" + id + "']");
      if (control) control.setAttribute("aria-invalid", "true");
      // The arrangement's message stands beside the Start button: focus it, not the choice
      // far above.
      first = first || (target.classList.contains("start-error") ? target : control || target);
      return true;
    };
    const unplaced = [];
    for (const [key, value] of Object.entries(errors || {})) {
      if (key === "players" && Array.isArray(value) && value.some((v) => v && typeof v === "object")) {
        value.forEach((seatErrors, seat) => {
          for (const [field, messages] of Object.entries(seatErrors || {})) {
            const id = "player-" + seat + "-" + (field === "level" ? "kind" : field) + "-error";
            if (!put(id, messages)) unplaced.push(messages);
          }
        });
      } else if (key === "players") {
        if (!put("players-error", value)) unplaced.push(value);
      } else if (key === "options" && value && typeof value === "object" && !Array.isArray(value)) {
        for (const [field, messages] of Object.entries(value)) {
          if (!put("option-" + field + "-error", messages)) unplaced.push(messages);
        }
      } else {
        unplaced.push(value);
      }
    }
    const general = form.querySelector("#form-error");
    const rest = unplaced.flat(3).filter((m) => typeof m === "string");
    if (rest.length || !first) {
      general.textContent = rest.length ? rest.join(" ") : gettext("The match could not be created.");
      general.hidden = false;
    }
    (first || general).focus && (first || general).focus();
  }

  /* ---------- Play page: state and geometry ---------- */

  const game = {
    root: null,
    state: null,
    poses: {},
    anim: null,
    highlight: null,
    ghost: { x: 0, lane: 0 },
    lastTurn: null,
    busy: false,
    view: null,
    drag: null, // pointer samples of a drag pulling the touched column out
    oneByOne: true, // bots' actions told one at a time (a choice kept in localStorage)
    story: null, // the answer being told step by step
    passStreak: {}, // seat → turns passed in a row
    claimWarned: new Set(), // seats warned of a claim's risk, this page
    viewAt: null, // the view's tween: time -> {view, done} (paletti-view.js)
    selected: null, // a column a first tap chose, shown until a second tap or a button commits
    candidates: [], // columns overlapping under the pointer, offered in a chooser
  };

  function posesOf(state) {
    const poses = {};
    for (const col of state.columns) {
      poses["c" + col.id] = col.x === null || col.removed || col.in_hand ? null : [col.x, col.y, col.angle];
    }
    for (const p of state.platforms) {
      poses["p" + p.index] = p.laid ? [p.x, p.y, p.angle] : null;
    }
    return poses;
  }

  function topPlatform(state) {
    const laid = state.platforms.filter((p) => p.laid);
    return laid[laid.length - 1];
  }

  function nextPlatform(state) {
    return state.platforms.find((p) => !p.laid);
  }

  function legal(type) {
    return game.state.legal_actions.filter((a) => a.type === type);
  }

  function seatName(seat) {
    const s = game.state.seats[seat];
    return s ? s.name : gettext("nobody");
  }

  function humans() {
    return game.state.seats.filter((s) => s.kind === "human").length;
  }

  /* ---------- Drawing ---------- */

  // Fit the view to every piece, easing from the view before (paletti-view.js). After a
  // collapse the frames take pieces far over the table: the view takes them in from the
  // start of the animation rather than chasing them.
  function layoutCanvas(frames) {
    const state = game.state;
    const top = topPlatform(state);
    const topY = top ? top.y + top.thickness / 2 : state.dimensions.base_top;
    const poseSets = [posesOf(state)];
    if (state.collapse) for (const frame of frames || []) poseSets.push(frame.poses);
    const bounds = window.PalettiView.sceneBounds(state, poseSets, topY + state.dimensions.column_height + 40);
    moveView(window.PalettiView.fitView(bounds, game.canvas.clientWidth || game.stage.clientWidth, drawingHeight()));
  }

  // How tall the drawing may be. A phone shares its screen between the drawing, the side
  // drawing and the current step's controls; a wide screen keeps the side drawing below
  // the large one inside the window (the stage is sticky).
  function drawingHeight() {
    const screen = window.innerHeight;
    if (narrowScreen()) return Math.max(220, Math.min(screen * 0.4, 420));
    const depth = game.root.querySelector(".depth-view");
    const below = depth ? depth.getBoundingClientRect().height + 24 : 0;
    const top = Math.max(8, game.canvas.getBoundingClientRect().top);
    return Math.max(280, Math.min(screen * 0.7, screen - top - below));
  }

  function moveView(target) {
    const now = performance.now();
    const instant = !game.view || reducedMotion() || target.width !== game.view.width;
    const tween = window.PalettiView.viewTween(game.view, target, now, instant);
    game.viewAt = tween;
    refreshView(now);
    if (instant) return;
    const step = (time) => {
      if (game.viewAt !== tween) return;
      const done = refreshView(time);
      if (!game.anim) draw();
      if (!done) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  // Take the view of this moment; resize the canvas only when its height changes.
  function refreshView(now) {
    if (!game.viewAt) return true;
    const { view, done } = game.viewAt(now);
    const canvas = game.canvas;
    const dpr = window.devicePixelRatio || 1;
    if (!game.view || game.view.width !== view.width || game.view.height !== view.height || game.view.dpr !== dpr) {
      canvas.width = Math.round(view.width * dpr);
      canvas.height = Math.round(view.height * dpr);
      canvas.style.height = view.height + "px";
    }
    game.view = { ...view, dpr };
    // Where the world is on the canvas, for tests and tools: px per mm and the origin.
    canvas.dataset.view = [view.scale.toFixed(4), view.ox.toFixed(1), view.oy.toFixed(1)].join(" ");
    canvas.toggleAttribute("data-view-moving", !done);
    if (done) game.viewAt = null;
    return done;
  }

  const sx = (x) => game.view.ox + x * game.view.scale;
  const sy = (y) => game.view.oy - y * game.view.scale;

  function toWorld(px, py) {
    return [(px - game.view.ox) / game.view.scale, (game.view.oy - py) / game.view.scale];
  }

  // Mix a colour with paper to draw back lanes paler (depth without 3-D).
  function shade(hex, amount) {
    const n = parseInt(hex.slice(1), 16);
    const mix = (c, target) => Math.round(c + (target - c) * amount);
    const r = mix(n >> 16, 0xd9);
    const g = mix((n >> 8) & 255, 0xd6);
    const b = mix(n & 255, 0xcf);
    return "rgb(" + r + "," + g + "," + b + ")";
  }

  function draw() {
    refreshView(performance.now());
    const ctx = game.canvas.getContext("2d");
    const v = game.view;
    ctx.setTransform(v.dpr, 0, 0, v.dpr, 0, 0);
    ctx.clearRect(0, 0, v.width, v.height);
    drawTableAndBase(ctx);
    const state = game.state;
    const byLane = [2, 1, 0];
    for (const lane of byLane) {
      for (const col of state.columns) {
        const pose = game.poses["c" + col.id];
        if (pose && col.lane === lane) drawColumn(ctx, col, pose, 1);
      }
    }
    for (const p of state.platforms) {
      const pose = game.poses["p" + p.index];
      if (pose) drawPlatform(ctx, p, pose, 1);
    }
    drawBackOutlines(ctx);
    drawMarks(ctx);
    drawGhost(ctx);
  }

  function drawTableAndBase(ctx) {
    const d = game.state.dimensions;
    const s = game.view.scale;
    ctx.fillStyle = "#c9b08a";
    ctx.fillRect(0, sy(0), game.view.width, 14 * s);
    ctx.fillStyle = "#8a6a46";
    const half = d.base_length / 2;
    ctx.fillRect(sx(-half), sy(d.base_top), d.base_length * s, d.base_thickness * s);
    // The forbidden zone: hatched red in the middle of the base.
    const f = d.forbidden_half_width;
    ctx.save();
    ctx.beginPath();
    ctx.rect(sx(-f), sy(d.base_top), 2 * f * s, d.base_thickness * s);
    ctx.clip();
    ctx.fillStyle = "#f3d6d2";
    ctx.fill();
    ctx.strokeStyle = "#b00020";
    ctx.lineWidth = 1.5;
    for (let x = -f - 20; x < f; x += 5) {
      ctx.beginPath();
      ctx.moveTo(sx(x), sy(d.base_top - d.base_thickness));
      ctx.lineTo(sx(x + d.base_thickness), sy(d.base_top));
      ctx.stroke();
    }
    ctx.restore();
  }

  function bodyPath(ctx, pose, w, h) {
    const s = game.view.scale;
    ctx.translate(sx(pose[0]), sy(pose[1]));
    ctx.rotate(-pose[2]);
    ctx.beginPath();
    ctx.rect((-w / 2) * s, (-h / 2) * s, w * s, h * s);
  }

  function drawColumn(ctx, col, pose, alpha) {
    const s = game.view.scale;
    const w = col.width;
    const h = col.height;
    const base = PAINT[col.colour] || "#888";
    ctx.save();
    ctx.globalAlpha = alpha;
    bodyPath(ctx, pose, w, h);
    ctx.fillStyle = col.lane === 0 ? base : shade(base, col.lane === 1 ? 0.35 : 0.6);
    ctx.fill();
    ctx.lineWidth = col.colour === "white" ? 1.5 : 1;
    ctx.strokeStyle = col.colour === "white" ? "#4d5560" : "rgba(0,0,0,0.55)";
    ctx.stroke();
    ctx.clip();
    const dark = col.colour === "black" || col.colour === "purple";
    ctx.strokeStyle = dark ? "rgba(255,255,255,0.55)" : "rgba(0,0,0,0.35)";
    ctx.lineWidth = 1;
    if (col.kind === "hex") {
      // Two facet edges: a hexagonal prism seen from the side.
      for (const fx of [-w / 4, w / 4]) {
        ctx.beginPath();
        ctx.moveTo(fx * s, (-h / 2) * s);
        ctx.lineTo(fx * s, (h / 2) * s);
        ctx.stroke();
      }
    } else {
      // A highlight stripe: round columns look round.
      ctx.fillStyle = dark ? "rgba(255,255,255,0.18)" : "rgba(255,255,255,0.45)";
      ctx.fillRect((-w / 4) * s, (-h / 2) * s, (w / 6) * s, h * s);
    }
    if (col.locked) drawHatching(ctx, w, h, dark);
    ctx.restore();
  }

  // A column hidden behind one in a nearer lane (even of its own colour) keeps a dashed
  // outline in dark and light, and a ringed dot in its colour, set apart by lane so that two
  // hidden columns at the same place show two dots.
  function drawBackOutlines(ctx) {
    const shown = game.state.columns.filter((c) => game.poses["c" + c.id]);
    for (const col of shown) {
      if (!window.PalettiView.hiddenBehind(col, shown, game.poses)) continue;
      const pose = game.poses["c" + col.id];
      ctx.save();
      bodyPath(ctx, pose, col.width - 2, col.height - 2);
      ctx.lineWidth = 2;
      ctx.strokeStyle = "#ffffff";
      ctx.stroke();
      ctx.setLineDash([5, 4]);
      ctx.strokeStyle = "#1f2328";
      ctx.stroke();
      ctx.restore();
      const shift = (col.lane === 1 ? -1 : 1) * Math.min(18, col.height * game.view.scale * 0.22);
      const x = sx(pose[0]);
      const y = sy(pose[1]) + shift;
      // Small enough to leave a thin front column visible around it on a phone.
      const r = Math.max(4, Math.min(7, col.width * game.view.scale * 0.3));
      ctx.save();
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fillStyle = PAINT[col.colour] || "#888";
      ctx.fill();
      ctx.lineWidth = 3;
      ctx.strokeStyle = "#ffffff";
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(x, y, r + 1.5, 0, 2 * Math.PI);
      ctx.lineWidth = 1.2;
      ctx.strokeStyle = "#1f2328";
      ctx.stroke();
      ctx.restore();
    }
  }

  function drawHatching(ctx, w, h, dark) {
    const s = game.view.scale;
    ctx.strokeStyle = dark ? "#ffffff" : "#1f2328";
    ctx.lineWidth = 1.6;
    for (let y = -h / 2 - w; y < h / 2 + w; y += 7) {
      ctx.beginPath();
      ctx.moveTo((-w / 2) * s, y * s);
      ctx.lineTo((w / 2) * s, (y + w) * s);
      ctx.stroke();
    }
  }

  function drawPlatform(ctx, p, pose, alpha) {
    ctx.save();
    ctx.globalAlpha = alpha;
    bodyPath(ctx, pose, p.length, p.thickness);
    ctx.fillStyle = PAINT[p.colour] || "#888";
    ctx.fill();
    ctx.strokeStyle = "rgba(0,0,0,0.6)";
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.restore();
  }

  // Outline the touched or highlighted column and label the touched one's load.
  function drawMarks(ctx) {
    const state = game.state;
    const ids = new Set();
    if (state.touched) ids.add(state.touched.column);
    if (game.highlight !== null) ids.add(game.highlight);
    if (game.selected !== null) ids.add(game.selected);
    for (const col of game.candidates) ids.add(col.id);
    for (const id of ids) {
      const col = state.columns.find((c) => c.id === id);
      const pose = col && game.poses["c" + id];
      if (!pose) continue;
      ctx.save();
      bodyPath(ctx, pose, col.width + 4, col.height + 4);
      ctx.lineWidth = 3;
      ctx.strokeStyle = FOCUS;
      ctx.stroke();
      ctx.restore();
    }
    for (const col of state.columns) {
      const pose = game.poses["c" + col.id];
      if (!col.locked || !pose) continue;
      const [lx, ly] = window.PalettiView.lockPoint(pose, col.height);
      drawLock(ctx, sx(lx), sy(ly));
    }
    if (state.touched && game.poses["c" + state.touched.column]) {
      const pose = game.poses["c" + state.touched.column];
      const label = fmt(gettext("%(load)s g"), { load: grams(state.touched) });
      ctx.font = "600 14px system-ui, sans-serif";
      const tw = ctx.measureText(label).width + 12;
      const x = Math.min(Math.max(sx(pose[0]) - tw / 2, 2), game.view.width - tw - 2);
      const y = Math.max(sy(pose[1] + 30) - 30, 2);
      ctx.fillStyle = "#1f2328";
      ctx.fillRect(x, y, tw, 24);
      ctx.fillStyle = "#ffffff";
      ctx.fillText(label, x + 6, y + 17);
    }
  }

  // A small padlock on a locked column, drawn last so a front column cannot hide it.
  function drawLock(ctx, x, y) {
    ctx.save();
    ctx.fillStyle = "#ffffff";
    ctx.strokeStyle = "#1f2328";
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(x, y, 9, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(x, y - 1.5, 3, Math.PI, 0);
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.fillStyle = "#1f2328";
    ctx.fillRect(x - 4.5, y - 1.5, 9, 6.5);
    ctx.restore();
  }

  function drawGhost(ctx) {
    const state = game.state;
    if (state.phase === "holding" && state.holding !== null && legal("place").length) {
      const col = state.columns.find((c) => c.id === state.holding);
      const pose = placePose(col, game.ghost.x);
      if (pose) {
        drawColumn(ctx, { ...col, lane: game.ghost.lane, locked: false }, pose, 0.65);
        ctx.save();
        bodyPath(ctx, pose, col.width, col.height);
        ctx.setLineDash([5, 4]);
        ctx.lineWidth = 2;
        ctx.strokeStyle = FOCUS;
        ctx.stroke();
        ctx.restore();
      }
    } else if (state.phase === "lay" && legal("lay_platform").length) {
      const p = nextPlatform(state);
      const top = topPlatform(state);
      if (p && top) {
        const y = top.y + top.thickness / 2 + state.dimensions.column_height + p.thickness / 2;
        drawPlatform(ctx, p, [game.ghost.x, y, 0], 0.6);
        ctx.save();
        bodyPath(ctx, [game.ghost.x, y, 0], p.length, p.thickness);
        ctx.setLineDash([5, 4]);
        ctx.lineWidth = 2;
        ctx.strokeStyle = FOCUS;
        ctx.stroke();
        ctx.restore();
      }
    }
  }

  // "place" x is along the top platform from its centre, in the platform's own frame.
  function placePose(col, x) {
    const top = topPlatform(game.state);
    const pose = top && game.poses["p" + top.index];
    if (!pose) return null;
    const [px, py, a] = pose;
    const up = top.thickness / 2 + col.height / 2;
    return [px + x * Math.cos(a) - up * Math.sin(a), py + x * Math.sin(a) + up * Math.cos(a), a];
  }

  function worldToPlatformX(wx) {
    const top = topPlatform(game.state);
    const pose = top && game.poses["p" + top.index];
    if (!pose) return wx;
    return (wx - pose[0]) / Math.cos(pose[2]);
  }

  /* ---------- Animation ---------- */

  const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function animate(frames, target) {
    if (game.anim) game.anim = null;
    if (!frames || !frames.length || reducedMotion()) {
      game.root.removeAttribute("data-animating");
      game.poses = target;
      draw();
      return;
    }
    const from = game.poses;
    const tracks = {};
    // A frame lists only the bodies that moved: one absent from frames stood still, so it
    // holds its pose until the frame before it moves again (not a slow glide across the gap).
    let previous = 0;
    for (const frame of frames) {
      for (const [name, pose] of Object.entries(frame.poses)) {
        if (!tracks[name]) tracks[name] = [[0, from[name] || null]];
        const track = tracks[name];
        const last = track[track.length - 1];
        if (last[0] < previous) track.push([previous, last[1]]);
        track.push([frame.t, pose]);
      }
      previous = frame.t;
    }
    const anim = { start: performance.now(), duration: frames[frames.length - 1].t, tracks, from, target };
    game.anim = anim;
    game.root.setAttribute("data-animating", "");
    const tick = (now) => {
      if (game.anim !== anim) return;
      const t = (now - anim.start) / 1000;
      if (t >= anim.duration) {
        game.anim = null;
        game.poses = target;
        game.root.removeAttribute("data-animating");
      } else {
        const poses = { ...from };
        for (const [name, track] of Object.entries(tracks)) poses[name] = sample(track, t);
        game.poses = poses;
        requestAnimationFrame(tick);
      }
      draw();
    };
    requestAnimationFrame(tick);
  }

  const sample = window.PalettiView.sample;

  /* ---------- Actions ---------- */

  async function post(action) {
    if (game.busy) return;
    showError("");
    setBusy(true, action);
    const result = await api(game.root.dataset.actions, { version: game.state.version, action });
    setBusy(false);
    if (result.ok) {
      applyResult(result.data, true);
    } else if (result.status === 409) {
      await reload(gettext("The match had moved on: here is its current state."));
    } else {
      showError(result.data.detail || gettext("That action was refused."));
    }
  }

  /* ---------- Waiting for the server ---------- */

  // While the server works out an action (and the bots' answers), what cannot be used is
  // disabled and a sign says who is thinking; shown after a short delay, so that a quick
  // answer does not flicker.
  const THINKING_DELAY_MS = 250;

  function setBusy(busy, action) {
    game.busy = busy;
    const root = game.root;
    root.toggleAttribute("data-busy", busy);
    const controls = root.querySelectorAll("#actions button, #pointing button, #column-index .column-index-body button, #actions [role=slider], #actions input");
    for (const node of controls) {
      if (busy) {
        if (node.matches("button, input")) node.disabled = true;
        else node.setAttribute("aria-disabled", "true");
      } else {
        node.disabled = false;
        node.removeAttribute("aria-disabled");
      }
    }
    root.querySelector(".panel").setAttribute("aria-busy", busy ? "true" : "false");
    game.canvas.style.cursor = busy ? "progress" : "";
    clearTimeout(game.thinkingTimer);
    const sign = root.querySelector("#thinking");
    if (!sign) return;
    if (!busy) {
      sign.textContent = "";
      sign.hidden = true;
      return;
    }
    game.thinkingTimer = setTimeout(() => {
      if (!game.busy) return;
      sign.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), thinkingText(action));
      sign.hidden = false;
    }, THINKING_DELAY_MS);
  }

  // Actions after which another seat may act, and those the server simulates.
  const HANDS_OVER = ["place", "abort", "pass", "lay_platform", "remove_column", "ask_platform", "decline"];
  const MOVES_THE_VILLA = ["pull", "place", "lay_platform", "remove_column"];

  // Who or what the page waits for: the next bot in playing order, when the action may hand
  // over to one; the physics, when it moves the villa; else the server.
  function thinkingText(action) {
    const type = action ? action.type : "";
    const seats = game.state.seats;
    const turn = game.state.turn === null ? 0 : game.state.turn;
    if (HANDS_OVER.includes(type)) {
      for (let k = 1; k <= seats.length; k += 1) {
        const seat = seats[(turn + k) % seats.length];
        if (seat.kind === "bot") return fmt(gettext("%(name)s (bot) is thinking…"), { name: seat.name });
      }
    }
    if (MOVES_THE_VILLA.includes(type)) return gettext("Working out how the villa moves…");
    return gettext("Waiting for the server…");
  }

  async function reload(message) {
    const result = await api(game.root.dataset.api);
    if (!result.ok) {
      showError(result.data.detail || gettext("The match could not be loaded."));
      return;
    }
    applyResult({ state: result.data, frames: [], events: [] }, false);
    if (message) narrate([message]);
  }

  function applyResult(data, acted) {
    const first = game.state === null;
    game.state = data.state;
    game.highlight = null;
    clearPointing();
    resetGhost();
    layoutCanvas(data.frames);
    // A new match whose bots played first: their actions are animated from the opening.
    if (first) game.poses = posesOf(data.opening || data.state);
    if (tellsBotsOneByOne(data)) {
      if (window.PalettiDepth) window.PalettiDepth.adopt(data.state, data.opening);
      tellSteps(data, acted);
      return;
    }
    if (acted && data.frames && data.frames.length) keepVillaInView();
    animate(data.frames, posesOf(data.state));
    if (window.PalettiDepth) window.PalettiDepth.show(data.state, data.frames, first ? data.opening : null);
    const texts = (data.events || []).map((e) => e.text);
    for (const step of data.steps || []) texts.push(...streakLines(step, data.events));
    const handover = handoverText();
    const seal = sealChange();
    if (seal) texts.push(seal);
    if (handover) texts.push(handover);
    if (texts.length) narrate(texts);
    renderPanel(acted);
    renderColumnIndex();
  }

  // A shared screen: say whose turn it is when it passes to another person.
  function handoverText() {
    const state = game.state;
    const turn = state.status === "playing" ? state.turn : null;
    const changed = turn !== game.lastTurn;
    game.lastTurn = turn;
    if (!changed || turn === null || state.seats[turn].kind !== "human" || humans() < 2) return "";
    return fmt(gettext("%(name)s, your turn."), { name: seatName(turn) });
  }

  // The seal's line, only when the holder or their points have changed since it was last
  // said: not repeated after every action.
  function sealChange() {
    const seal = game.state.seal;
    const holder = seal.holder === null || seal.holder === undefined ? null : seal.holder;
    const key = [seal.started, holder, holder === null ? 0 : game.state.scores[holder]].join(":");
    if (key === game.lastSeal) return "";
    game.lastSeal = key;
    return sealSummary();
  }

  function sealSummary() {
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

  function narrate(texts) {
    const line = texts.join(" ");
    game.root.querySelector("#narration").textContent = line;
    const log = game.root.querySelector("#log");
    log.prepend(el("li", { text: line }));
    while (log.children.length > 60) log.lastElementChild.remove();
  }

  function showError(text) {
    const node = game.root.querySelector("#error");
    node.textContent = text;
    node.hidden = !text;
  }

  /* ---------- Panel ---------- */

  function renderPanel(acted) {
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

  function renderBanner() {
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
    const text =
      seat.kind === "bot"
        ? fmt(gettext("%(name)s (bot) is playing."), { name: seat.name })
        : fmt(gettext("%(name)s, your turn"), { name: seat.name });
    banner.append(el("span", { text }));
    if (humans() > 1 && seat.kind === "human") banner.classList.add("handover");
  }

  const PHASES = {
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
        const hand = window.PalettiHand.PRESETS;
        box.append(el("button", { type: "button", "data-primary": true, "data-action": "pull", onclick: () => post({ ...pull, ...hand.gentle }), text: gettext("Pull it out gently") }));
        box.append(el("button", { type: "button", class: "secondary", "data-action": "pull", onclick: () => post({ ...pull, ...hand.quick }), text: gettext("Pull it out quickly") }));
      }
      if (abort) box.append(abortButton(abort, abortLabel()));
      box.prepend(loadGauge(touched.load, grams(touched)));
      const text = touchFirst()
        ? gettext("The %(column)s bears %(load)s g. Drag it sideways out of the villa with your finger (a steady hand is safest), or use a button; or put it back.")
        : gettext("The %(column)s bears %(load)s g. Drag it sideways out of the villa (a steady hand is safest), or use a button; or abort (Escape) and put it back.");
      return fmt(text, { column: columnName(col), load: grams(touched) });
    },
    holding(box) {
      const top = topPlatform(game.state);
      placementControls(box, legal("place"), true);
      const abort = legal("abort")[0];
      if (abort) box.append(abortButton(abort, abortLabel()));
      const text = touchFirst()
        ? gettext("Choose where to stand the column on the %(platform)s platform: tap or drag on the drawing, or use ◀ and ▶, then place it.")
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
  function actionButton(action, label, attrs) {
    return el("button", { type: "button", "data-action": action.type, ...(attrs || {}), onclick: () => post(action), text: label });
  }

  // The French rules lock a column put back; the Polish ones (an option) do not.
  function abortLabel() {
    const polish = game.state.options && game.state.options.abort === "polish";
    return polish ? gettext("Abort: put it back") : gettext("Abort: put it back (locked)");
  }

  function abortButton(action, label) {
    return actionButton(action, label, { class: "secondary", "data-abort": true });
  }

  function addAskPlatform(box) {
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

  function addAnswer(box) {
    const protest = legal("protest")[0];
    const decline = legal("decline")[0];
    if (protest) box.append(actionButton(protest, gettext("Protest"), { "data-primary": true }));
    if (decline) box.append(actionButton(decline, gettext("Decline"), { class: "secondary" }));
  }

  function whereText(col) {
    if (col.where === "base") return gettext("on the base");
    const platform = game.state.platforms[col.level - 1];
    return fmt(gettext("on the %(platform)s platform"), { platform: colourName(platform ? platform.colour : "") });
  }

  // Columns the player may act on, as buttons: Tab through them, Enter to act. `sentence`
  // is a whole translated sentence naming the column ("Touch %(column)s").
  function columnList(box, list, sentence) {
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

  function setHighlight(id) {
    game.highlight = id;
    draw();
  }

  /* ---------- Placement: a ghost on the top platform (place) or above it (lay) ---------- */

  function placeXs(lane) {
    const state = game.state;
    if (state.phase === "lay") return legal("lay_platform").map((a) => a.x);
    return legal("place").filter((a) => a.lane === lane).map((a) => a.x);
  }

  function lanesWithRoom() {
    return [0, 1, 2].filter((lane) => placeXs(lane).length);
  }

  function nearest(xs, x) {
    return xs.reduce((best, v) => (Math.abs(v - x) < Math.abs(best - x) ? v : best), xs[0]);
  }

  function resetGhost() {
    const lanes = lanesWithRoom();
    const lane = lanes.length ? lanes[0] : 0;
    const xs = placeXs(lane);
    game.ghost = { lane, x: xs.length ? nearest(xs, 0) : 0 };
  }

  function moveGhost(x, lane) {
    const xs = placeXs(lane);
    if (!xs.length) return;
    game.ghost = { lane, x: nearest(xs, x) };
    updateSlider();
    draw();
  }

  function stepGhost(direction) {
    const xs = placeXs(game.ghost.lane).slice().sort((a, b) => a - b);
    const i = xs.indexOf(game.ghost.x);
    const next = xs[Math.min(xs.length - 1, Math.max(0, i + direction))];
    moveGhost(next, game.ghost.lane);
  }

  function stepLane(direction) {
    const lanes = lanesWithRoom();
    const i = lanes.indexOf(game.ghost.lane);
    const lane = lanes[Math.min(lanes.length - 1, Math.max(0, i + direction))];
    if (lane !== undefined) moveGhost(game.ghost.x, lane);
  }

  function chosenAction() {
    const { x, lane } = game.ghost;
    if (game.state.phase === "lay") return legal("lay_platform").find((a) => a.x === x);
    return legal("place").find((a) => a.x === x && a.lane === lane);
  }

  function confirmPlacement() {
    const action = chosenAction();
    if (action) post(action);
  }

  function placementControls(box, list, withLanes) {
    const xs = list.map((a) => a.x);
    const slider = el("div", {
      class: "placer",
      role: "slider",
      tabindex: "0",
      "data-primary": true,
      "aria-label": withLanes ? gettext("Position on the top platform") : gettext("Position of the new platform"),
      "aria-valuemin": Math.min(...xs),
      "aria-valuemax": Math.max(...xs),
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
        const has = placeXs(lane).length > 0;
        const input = el("input", { type: "radio", name: "lane", value: lane, disabled: !has, onchange: () => moveGhost(game.ghost.x, lane) });
        input.checked = lane === game.ghost.lane;
        group.append(el("label", { class: "lane-option" }, input, " " + LANE_NAMES[lane]));
      }
      box.append(group);
    }
    const row = el("div", { class: "nudge" });
    row.append(el("button", { type: "button", class: "secondary", "aria-label": gettext("Move left"), onclick: () => stepGhost(-1), text: "◀" }));
    row.append(el("button", { type: "button", class: "secondary", "aria-label": gettext("Move right"), onclick: () => stepGhost(1), text: "▶" }));
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
            if (action) post({ ...action, ...window.PalettiHand.PLACE_PRESETS.quick });
          },
          text: gettext("Put it down quickly"),
        }),
      );
    }
    box.append(row);
    updateSlider();
  }

  function updateSlider() {
    const slider = game.root.querySelector(".placer");
    if (!slider) return;
    const { x, lane } = game.ghost;
    const lay = game.state.phase === "lay";
    const text = lay
      ? fmt(gettext("x %(x)s mm"), { x: Math.round(x) })
      : fmt(gettext("x %(x)s mm, %(lane)s"), { x: Math.round(x), lane: LANE_NAMES[lane] });
    slider.setAttribute("aria-valuenow", x);
    slider.setAttribute("aria-valuetext", text);
    slider.textContent = text;
    game.root.querySelectorAll("input[name=lane]").forEach((input) => {
      input.checked = Number(input.value) === lane;
    });
  }

  function placerKeys(event) {
    if (game.busy) return;
    const keys = {
      ArrowLeft: () => stepGhost(-1),
      ArrowRight: () => stepGhost(1),
      Home: () => stepGhost(-1000),
      End: () => stepGhost(1000),
      ArrowUp: () => stepLane(1),
      ArrowDown: () => stepLane(-1),
      Enter: confirmPlacement,
      " ": confirmPlacement,
    };
    const handler = keys[event.key];
    if (handler) {
      event.preventDefault();
      handler();
    }
  }

  /* ---------- Pointer on the canvas ---------- */

  // A drag that starts on the touched column pulls it out: its speed and steadiness are
  // the pull's (paletti-hand.js).
  function dragToPull(event, wx, wy) {
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
    const gesture = window.PalettiHand.fromDrag(game.drag, 1 / game.view.scale);
    game.drag = null;
    if (gesture) post({ ...legal("pull")[0], ...gesture });
  }

  function canvasPoint(event) {
    const rect = game.canvas.getBoundingClientRect();
    return toWorld(event.clientX - rect.left, event.clientY - rect.top);
  }

  // The column under the pointer, with a 44 px wide target even for a thin column.
  function columnAt(wx, wy, ids) {
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

  function onPointer(event) {
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
  function columnChoices() {
    if (legal("touch").length) return { list: legal("touch"), sentence: gettext("Touch %(column)s") };
    return { list: legal("remove_column"), sentence: gettext("Remove %(column)s") };
  }

  // The column under the pointer is the one meant: the drawn rectangles decide, not the
  // nearest lane. Where several overlap, the player chooses between them. A finger's first
  // tap selects and names the column; a second tap on it (or the button) commits. A mouse
  // click on a single column commits at once.
  function pointAtColumn(event, wx, wy) {
    const { list } = columnChoices();
    if (!list.length) return;
    const finger = event.pointerType === "touch";
    const ids = new Set(list.map((a) => a.column));
    const columns = game.state.columns.filter((c) => ids.has(c.id));
    // A finger may land a little beside a thin column; a mouse is precise.
    const slack = (finger ? 14 : 2) / game.view.scale;
    const under = window.PalettiView.columnsUnder(columns, game.poses, wx, wy, slack);
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

  function commitColumn(id) {
    const action = columnChoices().list.find((a) => a.column === id);
    clearPointing(false);
    if (action) post(action);
  }

  function placeText(col) {
    return [whereText(col), LANE_NAMES[col.lane]].join(", ");
  }

  // A column as a button that commits it: its name, where it stands, its lane.
  function commitButton(col, sentence) {
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

  function cancelButton() {
    return el("button", { type: "button", class: "secondary", onclick: () => clearPointing(true), text: gettext("Cancel") });
  }

  function showPointing(...children) {
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

  function selectColumn(col) {
    game.selected = col.id;
    game.candidates = [];
    const { sentence } = columnChoices();
    showPointing(
      el("p", { class: "pointing-text", text: fmt(gettext("Selected: the %(column)s. Tap it again, or tap the button, to confirm."), { column: columnName(col) }) }),
      el("div", { class: "pointing-actions" }, commitButton(col, sentence), cancelButton()),
    );
  }

  function showChooser(columns, finger) {
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

  function clearPointing(redraw) {
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
  function renderColumnIndex() {
    const state = game.state;
    const box = game.root.querySelector("#column-index");
    if (!box) return;
    const poses = posesOf(state);
    const standing = state.columns.filter((c) => poses["c" + c.id]);
    const { list, sentence } = state.status === "playing" ? columnChoices() : { list: [], sentence: "" };
    const actions = new Map(list.map((a) => [a.column, a]));
    const hiders = new Map();
    for (const col of standing) {
      const hider = window.PalettiView.hiddenBehind(col, standing, poses);
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

  /* ---------- Scores, tray, end ---------- */

  function renderScores() {
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

  function botLevel(level) {
    return level === "easy" ? gettext("easy") : gettext("careful");
  }

  function renderTray() {
    const tray = game.root.querySelector("#tray");
    tray.replaceChildren();
    const out = game.state.columns.filter((c) => c.removed);
    if (!out.length) tray.append(el("li", { class: "empty", text: gettext("None yet.") }));
    for (const col of out) tray.append(el("li", {}, swatch(col.colour), columnName(col)));
  }

  function renderGameOver(acted) {
    const state = game.state;
    const section = game.root.querySelector("#game-over");
    section.hidden = state.status !== "finished";
    if (section.hidden) return;
    const heading = section.querySelector("#game-over-heading");
    heading.textContent =
      state.winner === null || state.winner === undefined
        ? gettext("Nobody wins.")
        : fmt(gettext("%(name)s wins!"), { name: seatName(state.winner) });
    section.querySelector("#end-reason").textContent = state.end_reason_text || "";
    // Focused without scrolling: the collapse stays in sight.
    if (acted) heading.focus({ preventScroll: true });
  }

  async function playAgain(button) {
    const state = game.state;
    const players = state.seats.map((s) => (s.kind === "bot" ? { name: s.name, kind: "bot", level: s.level } : { name: s.name, kind: "human" }));
    button.disabled = true;
    const result = await api(game.root.dataset.create, { players, options: state.options });
    button.disabled = false;
    if (!result.ok) {
      showError(result.data.detail || gettext("The match could not be created."));
      return;
    }
    rememberIntro(result.data);
    window.location.assign(matchUrl(game.root.dataset.matchUrl, result.data.id));
  }

  /* ---------- Device: a phone keeps the villa in sight and gets touch instructions ---------- */

  // Below this width the drawing is not sticky (paletti.css): the page scrolls it away.
  const narrowScreen = () => window.matchMedia("(max-width: 59.99rem)").matches;
  const touchFirst = () => window.matchMedia("(hover: none) and (pointer: coarse)").matches;

  function placerHelp(withLanes) {
    if (touchFirst()) {
      return withLanes
        ? gettext("Tap the drawing where it should stand, or use ◀ and ▶; choose the lane below, then tap “Place it here”.")
        : gettext("Tap the drawing where it should lie, or use ◀ and ▶, then tap “Lay it here”.");
    }
    return withLanes
      ? gettext("Left and right arrows move it, up and down change the lane, Enter places it.")
      : gettext("Left and right arrows move it, Enter lays it.");
  }

  // On a phone, bring the drawing back into view before it moves, so nobody misses it.
  function keepVillaInView() {
    if (!narrowScreen()) return;
    const rect = game.canvas.getBoundingClientRect();
    const seen = Math.min(rect.bottom, window.innerHeight) - Math.max(rect.top, 0);
    if (seen >= Math.min(rect.height, window.innerHeight) * 0.9) return;
    game.canvas.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
  }

  /* ---------- The claim: say what it risks before it is made ---------- */

  const polishProtest = () => game.state.options && game.state.options.protest === "polish";

  function claimRiskShort() {
    return polishProtest()
      ? gettext("Risky: if another player proves that a column can still go up, no platform is laid and they may take a column out of the game.")
      : gettext("Risky: if another player proves that one of your columns can still go up, you lose that column.");
  }

  // The claimant's columns a protester could try to move: in play, not locked, below the top.
  function freeColumnsOf(seat) {
    const state = game.state;
    const colours = state.seats[seat] ? state.seats[seat].colours : [];
    const laid = state.platforms.filter((p) => p.laid).length;
    return state.columns.filter(
      (c) => colours.includes(c.colour) && !c.removed && !c.in_hand && !c.locked && !(c.where === "platform" && c.level === laid),
    ).length;
  }

  function askPlatform(ask, box) {
    const key = "paletti-claim-warned-" + game.state.id + "-" + game.state.turn;
    let warned = game.claimWarned.has(key);
    try {
      warned = warned || sessionStorage.getItem(key) === "1";
      sessionStorage.setItem(key, "1");
    } catch (_e) {
      /* private mode: remembered for this page only */
    }
    game.claimWarned.add(key);
    if (warned) post(ask);
    else showClaimWarning(ask, box);
  }

  // The first claim of a seat in a match: what it means and what it costs, plainly.
  function showClaimWarning(ask, box) {
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

  // How heavy the load on a touched column is, in words and colour for a child; the grams
  // stay written beside it. The bands are our estimates: a thick column weighs 16 g, the
  // blue platform 150 g, and a column under blue carries a share of it and of all above.
  const LOAD_BANDS = [
    { below: 1, level: "free", word: gettext("Nothing rests on it: safe to pull") },
    { below: 40, level: "light", word: gettext("Light load") },
    { below: 100, level: "heavy", word: gettext("Heavy load: pull steadily") },
    { below: Infinity, level: "very-heavy", word: gettext("Very heavy load: risky!") },
  ];
  const LOAD_GAUGE_MAX = 200;

  function loadGauge(load, whole) {
    const band = LOAD_BANDS.find((b) => load < b.below);
    const grams = fmt(gettext("%(load)s g"), { load: whole });
    return el(
      "div",
      { class: "load-gauge load-" + band.level, "data-load": whole },
      el("span", { class: "load-word", text: band.word }),
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

  /* ---------- First-game guide, and how bots' turns are told ---------- */

  function stored(key, fallback) {
    try {
      const value = localStorage.getItem(key);
      return value === null ? fallback : value;
    } catch (_e) {
      return fallback;
    }
  }

  function store(key, value) {
    try {
      localStorage.setItem(key, value);
    } catch (_e) {
      /* private mode: forgotten with the page */
    }
  }

  // Open until it is closed once ("Got it" or its summary); then a one-line reminder.
  function initGuide(root) {
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
      game.root.querySelector("#turn-banner").focus({ preventScroll: true });
    });
  }

  function initPace(root) {
    const box = root.querySelector("#one-by-one");
    game.oneByOne = stored("paletti-bots-one-by-one", "yes") !== "no";
    if (!box) return;
    box.checked = game.oneByOne;
    box.addEventListener("change", () => {
      game.oneByOne = box.checked;
      store("paletti-bots-one-by-one", box.checked ? "yes" : "no");
    });
  }

  // A child reads one line at a time: the pause after each bot action, on top of its animation.
  const BOT_PAUSE_MS = 1700;

  function tellsBotsOneByOne(data) {
    return game.oneByOne && Array.isArray(data.steps) && data.steps.some((step) => step.by_bot);
  }

  // A bot that passes turn after turn, or anyone the rules skip turn after turn (nothing to
  // move, no platform to ask for), is told why once it is more than one turn. A person who
  // chooses to pass needs no explaining.
  function streakLines(step, events) {
    if (["choose_colour", "touch", "ask_platform"].includes(step.type)) game.passStreak[step.seat] = 0;
    const lines = [];
    for (const event of (events || []).slice(step.events[0], step.events[1])) {
      if (event.code !== "passed" && event.code !== "player_skipped") continue;
      const count = (game.passStreak[event.seat] || 0) + 1;
      game.passStreak[event.seat] = count;
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

  function bannerForBot(seat) {
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
  function tellSteps(data, acted) {
    const root = game.root;
    const frames = data.frames || [];
    const steps = data.steps;
    const target = posesOf(data.state);
    const lines = root.querySelector("#narration");
    const log = root.querySelector("#log");
    const prompt = root.querySelector("#prompt");
    const actions = root.querySelector("#actions");
    const story = { timer: null, done: false, next: 0 };
    if (game.story) game.story.finish();
    game.story = story;
    game.busy = true;
    root.setAttribute("data-telling", "");
    lines.replaceChildren();
    draw();
    // A page just opened has no scores yet: show them now rather than after the story.
    if (!root.querySelector("#scoreboard").children.length) {
      renderScores();
      renderTray();
    }
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
      game.highlight = step.by_bot && step.column !== undefined ? step.column : null;
      draw();
      const slice = frames.slice(step.frames[0], step.frames[1]);
      let wait = step.by_bot ? BOT_PAUSE_MS : 400;
      if (slice.length) {
        const t0 = slice[0].t;
        const after = { ...game.poses };
        for (const frame of slice) Object.assign(after, frame.poses);
        keepVillaInView();
        animate(slice.map((frame) => ({ ...frame, t: frame.t - t0 })), after);
        if (window.PalettiDepth) window.PalettiDepth.play(slice.map((frame) => ({ ...frame, t: frame.t - t0 })));
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
      game.highlight = null;
      animate([], target);
      if (window.PalettiDepth) window.PalettiDepth.show(data.state, []);
      root.removeAttribute("data-telling");
      game.busy = false;
      const seal = sealChange();
      const handover = handoverText();
      if (seal) show(seal);
      if (handover) show(handover);
      if (game.story === story) game.story = null;
      renderPanel(acted);
      renderColumnIndex();
    }

    story.finish = finish;
    tell();
  }

  /* ---------- Play page set-up ---------- */

  function initMatch(root) {
    game.root = root;
    game.canvas = root.querySelector("#villa");
    game.stage = root.querySelector("#stage");
    for (const type of ["pointerdown", "pointermove", "pointerup"]) game.canvas.addEventListener(type, onPointer);
    root.querySelector("#play-again").addEventListener("click", (e) => playAgain(e.currentTarget));
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
    });
  }

  const setupForm = document.getElementById("paletti-setup");
  if (setupForm) initSetup(setupForm);
  const matchRoot = document.getElementById("paletti-match");
  if (matchRoot) initMatch(matchRoot);
})();
