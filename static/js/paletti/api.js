/* Villa Paletti: the client of the match API (JSON over fetch, with the CSRF token).
 */
import { gettext } from "./i18n.js";

export const LANG = document.documentElement.lang || "en";
export const NIL_ID = "00000000-0000-0000-0000-000000000000";
/* ---------- HTTP ---------- */

export function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

export async function api(url, body) {
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

// A new match's first events (a bot may have played first) are told on the play page.
export function rememberIntro(data) {
  try {
    const intro = { events: data.events || [], steps: data.steps || [], frames: data.frames || [], opening: data.opening || null };
    sessionStorage.setItem("paletti-intro-" + data.id, JSON.stringify(intro));
  } catch (_e) {
    /* private mode: the intro is only a nicety */
  }
}

export function matchUrl(template, id) {
  return template.replace(NIL_ID, id);
}
