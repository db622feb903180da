// The player's page reloads itself when what it shows may have changed (a round starts,
// the table's result is entered, confirmed or corrected): it asks the server for a small
// version string every few seconds. A form the player has begun to fill is never thrown
// away: the page then waits until the player sends it or leaves it.

const POLL_MS = 8000;
const page = document.querySelector(".player-page");
let touched = false;

document.addEventListener("input", () => { touched = true; });
document.addEventListener("change", () => { touched = true; });

async function poll() {
  if (document.hidden) return;
  try {
    const response = await fetch(page.dataset.stateUrl, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const { version } = await response.json();
    if (version !== page.dataset.version && !touched) window.location.reload();
  } catch {
    // Offline for a moment (a venue's Wi-Fi): the next poll tries again.
  }
}

if (page) {
  setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", poll);
}
