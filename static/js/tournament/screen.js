// The big screen: the round, its tables, their results as they come in, the standings.
// It follows the tournament's event stream (follow.js) and, at each event (a result
// entered, a round started, a player registered...), fetches the tournament's small JSON
// and redraws; without the stream it polls that JSON every few seconds. The round's timer
// counts down every second here, from the server's clock (the projector's own may be off).

import { follow } from "./follow.js";

const POLL_MS = 5000;
const root = document.getElementById("screen");
const labels = JSON.parse(document.getElementById("screen-labels").textContent);
const timer = document.getElementById("screen-timer");
// A game whose result has no game points (a placing order) shows no column of them.
const withGamePoints = root.dataset.gamePoints === "yes";
let endsAt = null;
let offsetMs = 0; // server time minus this machine's time

function fill(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key] ?? ""));
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const child of children) node.append(child);
  return node;
}

function drawTables(data) {
  const grid = document.getElementById("screen-tables");
  grid.replaceChildren(
    ...data.tables.map((table) => {
      const seats = el("ol");
      for (const seat of table.seats) {
        const line = el("li", {}, el("span", { className: "seat-name", textContent: seat.name }));
        if (seat.colours) line.append(el("span", { className: "seat-colour", textContent: seat.colours }));
        if (seat.points !== null) line.append(el("span", { className: "seat-points", textContent: String(seat.points) }));
        else if (seat.place !== null) line.append(el("span", { className: "seat-points", textContent: fill(labels.place, { place: seat.place }) }));
        if (seat.place === 1) line.classList.add("winner");
        seats.append(line);
      }
      const card = el(
        "article",
        { className: `screen-table status-${table.status}` },
        el("h3", {}, fill(labels.table, { number: table.number }), " ",
          el("span", { className: "status", textContent: labels[table.status] })),
        seats,
      );
      if (table.winners.length === 1) card.append(el("p", { className: "screen-winner", textContent: fill(labels.wins, { name: table.winners[0] }) }));
      if (table.winners.length > 1) card.append(el("p", { className: "screen-winner", textContent: fill(labels.shared, { names: table.winners.join(", ") }) }));
      if (table.brought_down && labels.brought_down) card.append(el("p", { className: "screen-down", textContent: fill(labels.brought_down, { name: table.brought_down }) }));
      if (table.on_site) {
        // A match on the site: where it stands, and the spectators' link (its key is
        // after the #, which the browser never sends).
        const line = el("p", { className: "screen-on-site" },
          el("span", { className: "on-site-label", textContent: `${labels.on_site} · ` }),
          el("span", { className: "on-site-status", textContent: table.on_site.status }));
        if (!table.on_site.over) {
          line.append(" ", el("a", { href: table.on_site.url, textContent: labels.watch, rel: "noreferrer", target: "_blank" }));
        }
        card.append(line);
      }
      return card;
    }),
  );
  const byes = document.getElementById("screen-byes");
  byes.textContent = data.byes.length ? `${labels.byes} ${data.byes.join(", ")}` : "";
}

function drawStandings(data) {
  const body = document.getElementById("screen-standings");
  body.replaceChildren(
    ...data.standings.map((row) => {
      const name = el("td", { textContent: row.name });
      if (!row.present) name.append(el("span", { className: "left", textContent: ` (${labels.left})` }));
      const line = el("tr", {},
        el("td", { textContent: String(row.rank) }), name,
        el("td", { textContent: String(row.points) }));
      if (withGamePoints) line.append(el("td", { textContent: String(row.game_points) }));
      return line;
    }),
  );
}

function drawRound(data) {
  const line = document.getElementById("screen-round");
  if (data.finished) line.textContent = labels.over;
  else if (data.final) line.textContent = labels.final;
  else if (data.round) line.textContent = fill(labels.round, { number: data.round, total: data.rounds });
  else line.textContent = fill(labels.before, { count: data.players });
  const join = document.getElementById("screen-join");
  if (join) join.hidden = !data.registration_open || data.finished;
  endsAt = data.ends_at && !data.finished ? Date.parse(data.ends_at) : null;
  offsetMs = Date.parse(data.now) - Date.now();
  tick();
}

function tick() {
  if (endsAt === null) {
    timer.hidden = true;
    return;
  }
  timer.hidden = false;
  const left = Math.max(0, Math.round((endsAt - (Date.now() + offsetMs)) / 1000));
  if (left === 0) {
    timer.textContent = labels.time_up;
    timer.classList.add("time-up");
    return;
  }
  timer.classList.remove("time-up");
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, "0");
  timer.textContent = `${minutes}:${seconds}`;
}

async function refresh() {
  try {
    const response = await fetch(root.dataset.url, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const data = await response.json();
    drawRound(data);
    drawTables(data);
    drawStandings(data);
  } catch {
    // The venue's network hiccups: keep the last picture, try again at the next event or poll.
  }
}

refresh();
follow(root, {
  // Resumes from the version the page was drawn at: a change made since comes at once.
  address: () => `${root.dataset.stream}?since=${root.dataset.version}`,
  changed: (data) => {
    if (data !== null) root.dataset.version = data.version;
    refresh();
  },
  pollMs: POLL_MS,
});
setInterval(tick, 1000);
