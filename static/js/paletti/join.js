/* Villa Paletti: a link's landing page. The secret is the address's fragment (after the #),
 * which a browser never sends to a server: it is taken off the address at once, so the
 * history keeps no trace of it, posted to the API (which keeps it in this device's
 * session), and the page is replaced by the match's, whose address carries no secret.
 */
import { api } from "./api.js";
import { gettext } from "./i18n.js";

const root = document.getElementById("paletti-join");

async function join() {
  const secret = decodeURIComponent(window.location.hash.slice(1));
  history.replaceState(null, "", window.location.pathname);
  const error = root.querySelector("#join-error");
  const status = root.querySelector("#join-status");
  error.hidden = true;
  const fail = (text) => {
    status.textContent = "";
    error.textContent = text;
    error.hidden = false;
  };
  if (!secret) {
    fail(gettext("This link is incomplete: open it exactly as you received it, or scan its code again."));
    return;
  }
  const result = await api(root.dataset.api, { token: secret });
  if (result.ok) {
    window.location.replace(result.data.url);
  } else if (result.status === 400) {
    fail(gettext("This link is incomplete: open it exactly as you received it, or scan its code again."));
  } else {
    fail(result.data.detail || gettext("This link could not be opened."));
  }
}

if (root) {
  join();
  // A second link opened in the same tab changes only the fragment: no new page loads.
  window.addEventListener("hashchange", () => {
    if (window.location.hash) join();
  });
}
