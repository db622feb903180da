/* Villa Paletti: the pieces' names in the reader's language, as the server sends them once
 * (#paletti-names, from paletti/messages.py's piece_names): each column in the forms its
 * sentences need, the colours, the platforms and the lanes (nothing here translates a name);
 * and where a column stands, named by its platform.
 */
import { fmt, gettext } from "./i18n.js";
import { game } from "./state.js";

const node = document.getElementById("paletti-names");
const NAMES = node ? JSON.parse(node.textContent) : { columns: [], colours: {}, player_colours: {}, platforms: {}, lanes: [] };
const COLUMNS = new Map(NAMES.columns.map((column) => [column.id, column]));
const named = (col, form) => (COLUMNS.get(col.id) || {})[form] || "";

export const LANE_NAMES = NAMES.lanes;
export const colourName = (c) => NAMES.colours[c] || c;
// A seat's colours named on their own (le blanc, hvid, biały) on the scoreboard, not in
// the forms that agree with "column" inside sentences.
export const playerColourName = (c) => NAMES.player_colours[c] || colourName(c);
// "pink thin round column", as in "The %(column)s bears…".
export const columnName = (col) => named(col, "name");
// "the pink thin round column" as the object of "Remove …" (Polish declines it).
export const columnAsObject = (col) => named(col, "object");
// … as what is touched: Polish "dotknąć" takes the genitive (Dotknij różowej kolumny).
export const columnTouched = (col) => named(col, "touched");
// A row of the set-up table: the indefinite forms (Danish "hvid", "tynd rund søjle").
export const tableColour = (col) => named(col, "table_colour");
export const tableKind = (col) => named(col, "table_kind");
// A platform named as the object of a verb ("Ask for the green platform"): zieloną platformę.
export const platformAsObject = (c) => (NAMES.platforms[c] || {}).object || colourName(c);

export const TOUCH = gettext("Touch %(column)s");
// A whole sentence naming the column a button acts on ("Touch the pink thin round column").
export const deed = (sentence, col) => fmt(sentence, { column: sentence === TOUCH ? columnTouched(col) : columnAsObject(col) });

// Where a column stands: "on the base", "on the green platform".
export function whereText(col) {
  if (col.where === "base") return gettext("on the base");
  const platform = game.state.platforms[col.level - 1];
  return fmt(gettext("on the %(platform)s platform"), { platform: colourName(platform ? platform.colour : "") });
}
