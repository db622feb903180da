/* Villa Paletti: the set-up form, its request and its errors.
 */
import * as Arrange from "./arrange.js";
import { matchUrl, patiently, rememberIntro } from "./api.js";
import { gettext } from "./i18n.js";

/* ---------- Set-up page ---------- */

export function initSetup(form) {
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
  // A person on their own device plays against the clock unless the organiser chose
  // otherwise: around one screen, nobody needs one.
  let clockChosen = false;
  form.querySelectorAll("input[name=clock]").forEach((input) => input.addEventListener("change", () => (clockChosen = true)));
  form.addEventListener("change", (event) => {
    if (clockChosen || !event.target.matches("select[name=kind]")) return;
    const remote = seats.some((fieldset) => !fieldset.disabled && fieldset.querySelector("select[name=kind]").value === "own");
    const wanted = form.querySelector("input[name=clock][value=" + (remote ? "relaxed" : "off") + "]");
    if (wanted) wanted.checked = true;
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const result = await patiently(form.dataset.api, setupPayload(form, seats, Number(count.value)));
    button.disabled = false;
    if (result.ok) {
      rememberIntro(result.data);
      window.location.assign(matchUrl(form.dataset.matchUrl, result.data.id));
    } else {
      showSetupErrors(form, result.data);
    }
  });
}

export function setupPayload(form, seats, count) {
  const players = seats.slice(0, count).map((fieldset) => {
    const kind = fieldset.querySelector("select[name=kind]").value;
    const name = fieldset.querySelector("input[name=name]").value;
    // A person here, a person on their own device (they get a link), or a bot.
    if (kind === "human") return { name, kind: "human" };
    if (kind === "own") return { name, kind: "human", device: "own" };
    return { name, kind: "bot", level: kind };
  });
  const data = new FormData(form);
  const payload = {
    players,
    options: {
      seal_start: data.get("seal_start"),
      protest: data.get("protest") || "french",
      abort: data.get("abort") || "french",
      colours: data.get("colours") || "french",
      tremor: Number(data.get("tremor")),
      setup: Arrange ? Arrange.option(form) : data.get("setup") || "default",
    },
  };
  // Shown in the library's lobby only when the organiser ticks it (off by default).
  payload.listed = data.get("listed") === "on";
  if (data.get("seed")) payload.seed = Number(data.get("seed"));
  if (data.get("clock")) payload.clock = data.get("clock");
  return payload;
}

export function clearErrors(form) {
  form.querySelectorAll(".field-error, #form-error").forEach((node) => {
    node.hidden = true;
    node.textContent = "";
  });
  form.querySelectorAll(".has-error").forEach((node) => node.classList.remove("has-error"));
  form.querySelectorAll("[aria-invalid]").forEach((node) => node.removeAttribute("aria-invalid"));
}

// A field's messages: a list of sentences, or the same nested by part for a value that has
// parts (a malformed arranged set-up: {columns: {"3": {x: [..]}}}).
const sentences = (messages) =>
  typeof messages === "string"
    ? [messages]
    : messages && typeof messages === "object"
      ? Object.values(messages).flatMap(sentences)
      : [];

// DRF errors are nested like the payload: {players: [{name: [..]}, ..]} or {players: [..]}.
export function showSetupErrors(form, errors) {
  let first = null;
  const put = (id, messages) => {
    const target = form.querySelector("#" + id);
    const text = sentences(messages).join(" ");
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
          const id = "player-" + seat + "-" + (field === "level" || field === "device" ? "kind" : field) + "-error";
          if (!put(id, messages)) unplaced.push(messages);
        }
      });
    } else if (key === "clock") {
      if (!put("clock-error", value)) unplaced.push(value);
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
  const rest = sentences(unplaced);
  if (rest.length || !first) {
    general.textContent = rest.length ? rest.join(" ") : gettext("The match could not be created.");
    general.hidden = false;
  }
  (first || general).focus && (first || general).focus();
}
