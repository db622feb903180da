/* Villa Paletti: the organiser's links (drawn by the server, each with its QR code): a
 * button copies a link where the browser lets a page write to the clipboard.
 */
import { gettext } from "./i18n.js";

export function initLinks(root) {
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
