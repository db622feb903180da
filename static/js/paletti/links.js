/* Villa Paletti: the organiser's links (drawn by the server, each with its QR code): a
 * button copies a link where the browser lets a page write to the clipboard. A seat that
 * no longer plays on a device of its own (handed to a bot when out of time) has no link:
 * its card goes as soon as the store (state.js) has the state that says so.
 */
import { gettext } from "./i18n.js";
import { game, subscribe } from "./state.js";

export function initLinks(root) {
  const panel = root.querySelector("#links");
  if (!panel) return;
  subscribe((change) => {
    if (change === "state") showSeatsLinks(panel);
  });
  if (!navigator.clipboard) return;
  for (const button of root.querySelectorAll("button.copy-link")) {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const input = root.querySelector("#" + button.dataset.copy);
      try {
        await navigator.clipboard.writeText(input.value);
        button.textContent = gettext("Copied");
      } catch (_e) {
        input.select();
      }
    });
  }
}

// Each seat's card while that seat is a person on their own device; the spectators' always,
// under the spectators' words once no player's link is left.
function showSeatsLinks(panel) {
  const seats = game.state.seats;
  let players = 0;
  for (const card of panel.querySelectorAll(".link-card[data-seat]")) {
    const seat = seats[Number(card.dataset.seat)];
    card.hidden = !seat || seat.kind !== "human" || seat.device !== "own";
    if (!card.hidden) players += 1;
  }
  for (const words of panel.querySelectorAll("[data-links-for]")) {
    words.hidden = (words.dataset.linksFor === "players") !== (players > 0);
  }
}
