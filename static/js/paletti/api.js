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
  const retryAfter = Number(response.headers.get("Retry-After")) || 0;
  return { ok: response.ok, status: response.status, data, retryAfter };
}

// Another table behind the same address (a library's Wi-Fi) may have its move worked out at
// this moment: the server then answers 429 "engine_busy" before anything is played, with a
// Retry-After of a second. A post that runs the engine (an action, a new match whose bots
// start, a seat handed to a bot) is sent again for up to ENGINE_BUSY_PATIENCE_MS (ours), and
// the player only sees the thinking sign meanwhile. The address's CPU budget
// ("engine_budget") is a real limit: it is said, not waited out.
export const ENGINE_BUSY_PATIENCE_MS = 30000;

export async function patiently(url, body) {
  const started = Date.now();
  for (;;) {
    const result = await api(url, body);
    const busyElsewhere = result.status === 429 && result.data.code === "engine_busy";
    if (!busyElsewhere || Date.now() - started > ENGINE_BUSY_PATIENCE_MS) return result;
    await new Promise((resolve) => setTimeout(resolve, Math.max(result.retryAfter, 1) * 1000));
  }
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
