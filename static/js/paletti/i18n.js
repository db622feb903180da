/* Villa Paletti: the translation functions (Django's JavaScript catalogue, loaded first as a classic script), with English as the fallback.
 */
// If the catalogue failed to load, still show English rather than break the page.
if (typeof window.gettext !== "function") {
  window.gettext = (s) => s;
  window.ngettext = (one, many, n) => (n === 1 ? one : many);
  window.interpolate = (s, params) => s.replace(/%\((\w+)\)s/g, (_m, k) => params[k]);
}
if (typeof window.pgettext !== "function") window.pgettext = (_context, s) => s;
export const gettext = window.gettext;
export const ngettext = window.ngettext;
export const pgettext = window.pgettext;
export const fmt = (text, params) => window.interpolate(text, params, true);

// A sentence that opens on a placeholder ("%(column)s bears…") still opens on a capital.
export const capfirst = (text) => text.charAt(0).toUpperCase() + text.slice(1);
