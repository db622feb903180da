// The score sheet counts as the players type: the form's fields are named by their path in
// the JSON the sheet's endpoint reads ("players.0.snakes"), so the form is sent as it is,
// and the answer's values are written where an element names their path (data-result).
// Without this script the form is submitted and the page counts it the same way.

const DELAY_MS = 250;

function sheetJson(form) {
  const data = {};
  for (const field of form.elements) {
    if (!field.name || !field.name.includes(".")) continue;
    const path = field.name.split(".");
    let value = field.value === "" ? null : field.value;
    if (value !== null && field.type === "number") value = Number(value);
    let node = data;
    path.forEach((key, depth) => {
      const last = depth === path.length - 1;
      if (last && "list" in field.dataset) {
        node[key] = node[key] || [];
        if (value !== null) node[key].push(value);
      } else if (last) {
        node[key] = value;
      } else {
        node[key] = node[key] || (/^\d+$/.test(path[depth + 1]) ? [] : {});
        node = node[key];
      }
    });
  }
  return data;
}

function flat(value, prefix = "", into = new Map()) {
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      flat(item, prefix ? `${prefix}.${key}` : key, into);
    }
  } else {
    into.set(prefix, value);
  }
  return into;
}

function showResults(form, report) {
  const values = flat(report || {});
  for (const element of document.querySelectorAll("[data-result]")) {
    if (!report && "keep" in element.dataset) continue; // a player's name stays as typed
    const value = values.get(element.dataset.result);
    const shown = value === undefined || value === null ? "" : String(value);
    if (shown === "") {
      element.textContent = element.tagName === "DD" ? "—" : "";
    } else {
      element.textContent = (element.dataset.prefix || "") + shown;
    }
  }
}

// "First scoring: enter Dirk's buildings too.": what a waiting part of the sheet needs, in
// the sentence the page wrote for it; the player's name as typed, or the block's legend.
function missingSentence(form, block) {
  const nameField = block.dataset.whoField && form.elements.namedItem(block.dataset.whoField);
  const legend = block.querySelector("legend");
  const who = (nameField && nameField.value.trim()) || (legend ? legend.textContent.trim() : "");
  return block.dataset.missing.replace("{who}", who);
}

function showIncomplete(form, waitingBlocks) {
  const incomplete = form.querySelector("[data-sheet-incomplete]");
  if (!incomplete) return;
  if (incomplete.dataset.generic === undefined) incomplete.dataset.generic = incomplete.textContent;
  const blocks = [...waitingBlocks];
  incomplete.hidden = blocks.length === 0;
  const named = blocks.every((block) => block.dataset.missing);
  incomplete.textContent = blocks.length && named
    ? blocks.map((block) => missingSentence(form, block)).join(" ")
    : incomplete.dataset.generic;
}

function showErrors(form, errors, touched) {
  let shown = 0;
  const waiting = new Set(); // parts of the sheet nobody has filled in yet, with errors
  for (const element of form.querySelectorAll("[data-error-for]")) {
    const path = element.dataset.errorFor;
    const block = element.closest("[data-block]");
    const untouched = block && !touched.has(block);
    if (errors[path] && untouched) waiting.add(block);
    const messages = errors[path] && !untouched ? errors[path] : [];
    element.textContent = messages.join(" ");
    element.hidden = messages.length === 0;
    shown += messages.length;
    for (const field of form.querySelectorAll(`[name="${CSS.escape(path)}"]`)) {
      if (messages.length) field.setAttribute("aria-invalid", "true");
      else field.removeAttribute("aria-invalid");
      if (element.id && messages.length) {
        const ids = new Set((field.getAttribute("aria-describedby") || "").split(" ").filter(Boolean));
        ids.add(element.id);
        field.setAttribute("aria-describedby", [...ids].join(" "));
      }
    }
  }
  const summary = form.querySelector("[data-sheet-errors]");
  if (summary) summary.hidden = shown === 0;
  showIncomplete(form, waiting);
}

function attach(form) {
  const touched = new Set();
  let timer = null;
  let pending = null;

  async function count() {
    if (pending) pending.abort();
    pending = new AbortController();
    let response;
    try {
      response = await fetch(form.dataset.scoreApi, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "Accept": "application/json",
          "Accept-Language": document.documentElement.lang,
        },
        body: JSON.stringify(sheetJson(form)),
        signal: pending.signal,
      });
    } catch (error) {
      return; // aborted by a newer count, or offline: submitting the form still counts
    }
    if (response.status === 200) {
      showResults(form, await response.json());
      showErrors(form, {}, touched);
    } else if (response.status === 400) {
      const answer = await response.json();
      showResults(form, null);
      showErrors(form, answer.errors || {}, touched);
    }
  }

  form.addEventListener("input", (event) => {
    const block = event.target.closest("[data-block]");
    if (block) touched.add(block);
    clearTimeout(timer);
    timer = setTimeout(count, DELAY_MS);
  });
  form.dataset.live = "true";
}

for (const form of document.querySelectorAll("form[data-score-api]")) attach(form);
