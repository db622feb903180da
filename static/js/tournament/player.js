// The player's page reloads itself when what it shows may have changed (a round starts and
// seats them, the table's result is entered, confirmed or corrected): at each event of the
// tournament's stream (follow.js; without it, every few seconds) it asks the server for
// this page's small version string, and reloads when it differs. A form the player has
// begun to fill is never thrown away: the page then waits until the player sends it or
// leaves it.

import { follow } from "./follow.js";

const POLL_MS = 8000;
const page = document.querySelector(".player-page");
let touched = false;

document.addEventListener("input", () => { touched = true; });
document.addEventListener("change", () => { touched = true; });
// A form being sent (a confirmation) is answered by this page itself, up to date.
document.addEventListener("submit", () => { touched = true; });

async function check() {
  if (document.hidden) return;
  try {
    const response = await fetch(page.dataset.stateUrl, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const { version } = await response.json();
    if (version !== page.dataset.version && !touched) window.location.reload();
  } catch {
    // Offline for a moment (a venue's Wi-Fi): the next event or poll tries again.
  }
}

if (page) {
  follow(page, {
    address: () => page.dataset.stream,
    // A move in a table's match, which only the big screen shows, asks nothing.
    changed: (data) => {
      if (data !== null && String(data.phones) === page.dataset.phones) return;
      if (data !== null) page.dataset.phones = data.phones;
      check();
    },
    pollMs: POLL_MS,
  });
  document.addEventListener("visibilitychange", check);
}
