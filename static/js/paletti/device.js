/* Villa Paletti: what kind of screen the page is on (and whether its reader wants less motion),
 * and keeping the villa in view on a phone.
 */
import { gettext } from "./i18n.js";
import { game } from "./state.js";

/* ---------- Device: a phone keeps the villa in sight and gets touch instructions ---------- */

// Below this width the drawing is not sticky (paletti.css): the page scrolls it away.
export const narrowScreen = () => window.matchMedia("(max-width: 59.99rem)").matches;
export const touchFirst = () => window.matchMedia("(hover: none) and (pointer: coarse)").matches;
// A reader who asked their system for less motion: nothing is animated or scrolled smoothly.
export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function placerHelp(withLanes) {
  if (touchFirst()) {
    return withLanes
      ? gettext("Tap the drawing where it should stand, on the top platform, or use ◀ ▶ ▲ ▼, then tap “Place it here”.")
      : gettext("Tap the drawing where it should lie (the side drawing for its depth), or use ◀ ▶ ▲ ▼, then tap “Lay it here”.");
  }
  return withLanes
    ? gettext("Left and right arrows move it across, up and down move it to the back or the front, Enter places it.")
    : gettext("Left and right arrows move it across, up and down move it to the back or the front, Enter lays it.");
}

// On a phone, bring the drawing back into view before it moves, so nobody misses it.
export function keepVillaInView() {
  if (!narrowScreen()) return;
  const rect = game.canvas.getBoundingClientRect();
  const seen = Math.min(rect.bottom, window.innerHeight) - Math.max(rect.top, 0);
  if (seen >= Math.min(rect.height, window.innerHeight) * 0.9) return;
  game.canvas.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
}
