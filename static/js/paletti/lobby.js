/* Villa Paletti: the lobby, for the library's big screen. It draws the matches from the
 * JSON the page carries, then asks the lobby endpoint again every few seconds
 * (paletti/lobby.py): a screen left on all afternoon keeps itself current. When the
 * server cannot be reached it keeps what it shows and says so.
 */
import { api } from "./api.js";
import { el, swatch } from "./dom.js";
import { fmt, gettext, ngettext } from "./i18n.js";

const root = document.getElementById("paletti-lobby");

function playerLine(player) {
  const colours = el("span", { class: "colours" });
  for (const c of player.colours) colours.append(swatch(c.colour), el("span", { class: "visually-hidden", text: c.label + " " }));
  const badges = [];
  if (player.bot) badges.push(el("span", { class: "badge", text: gettext("bot") }));
  if (player.to_play) badges.push(el("span", { class: "badge turn", text: gettext("to play") }));
  if (player.won) badges.push(el("span", { class: "badge seal", text: gettext("winner") }));
  return el(
    "li",
    { class: player.to_play || player.won ? "current" : "" },
    colours,
    el("span", { class: "lobby-name", text: player.name }),
    ...badges.flatMap((badge) => [" ", badge]),
    el("span", { class: "points", text: fmt(ngettext("%(points)s point", "%(points)s points", player.score), { points: player.score }) }),
  );
}

function card(match) {
  const link =
    match.status === "finished"
      ? el("a", { class: "button", href: match.url, text: gettext("Replay") })
      : el("a", { class: "button", href: match.url, text: gettext("Watch") });
  return el(
    "li",
    { class: "lobby-card", "data-match": match.id, "data-status": match.status },
    el("p", { class: "lobby-headline", text: match.headline }),
    el("ul", { class: "lobby-players" }, ...match.players.map(playerLine)),
    el("p", { class: "lobby-when", text: match.when }),
    link,
  );
}

function render(data) {
  for (const which of ["playing", "finished"]) {
    const list = root.querySelector("#lobby-" + which);
    list.replaceChildren(...data[which].map(card));
    root.querySelector("#lobby-" + which + "-empty").hidden = data[which].length > 0;
  }
}

let data = JSON.parse(document.getElementById("lobby-data").textContent);
render(data);
root.classList.add("ready");

async function refresh() {
  const result = await api(root.dataset.api);
  root.querySelector("#lobby-stale").hidden = result.ok;
  if (result.ok) {
    data = result.data;
    render(data);
  }
  setTimeout(refresh, (data.refresh || 5) * 1000);
}
setTimeout(refresh, (data.refresh || 5) * 1000);
