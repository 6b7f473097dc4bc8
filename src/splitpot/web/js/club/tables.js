// The club's open tables (GET /api/clubs/{id}/lobby): each with a link to its page and its
// seats taken and free; and a manager's "Open a table" form (POST /api/clubs/{id}/tables).

import { request } from "../api.js";
import { element } from "../dom.js";
import { t, tn } from "../i18n.js";
import { stakesText, structureName, variantName } from "../game-words.js";
import { optionWords } from "../option-words.js";
import { act } from "./act.js";
import { addTableFields, wireSettingsDialog } from "./table-fields.js";

const PREFIX = "club-table";

function tableItem(table) {
  const item = element("li");
  item.dataset.table = table.id;
  const about = element("div", "grow");
  const link = element("a", "table-name", table.name);
  link.href = `/tables/${encodeURIComponent(table.id)}`;
  const game = [variantName(table.variant, table.variant_name), structureName(table.structure), stakesText(table), ...optionWords(table)];
  about.append(link, element("span", "when", game.join(" · ")));
  const free = table.seats - table.players;
  const seats = element("span", "badge seats", `${table.players}/${table.seats}`);
  seats.title = free === 0 ? t("Every seat is taken") : tn("{count} free seat", "{count} free seats", free);
  const words = element("span", "visually-hidden", free === 0 ? t("Every seat is taken") : tn("{count} free seat", "{count} free seats", free));
  const open = element("a", free > 0 ? "button primary" : "button", free > 0 ? t("Sit") : t("Watch"));
  open.href = link.href;
  open.setAttribute("aria-label", t("Open {table}", { table: table.name }));
  item.append(about, seats, words, open);
  return item;
}

/** Draws the club's open tables into the list. */
export function drawTables(list, tables) {
  if (!tables.length) {
    list.replaceChildren(element("li", "empty-line", t("No table is open now.")));
    return;
  }
  list.replaceChildren(...tables.map(tableItem));
}

/** Wires the "Open a table" dialog of the club `clubId()` (a manager's). */
export function wireOpenTable({ button, dialog, clubId, suggestedName }) {
  addTableFields(dialog.querySelector(".club-fields"), PREFIX);
  wireSettingsDialog({
    button,
    dialog,
    prefix: PREFIX,
    prepare: (form) => {
      if (!form.elements.name.value) form.elements.name.value = suggestedName().slice(0, 40);
      form.elements.name.focus();
    },
    send: async (settings, submit, box) => {
      const answer = await act(submit, box, () => request("POST", `/api/clubs/${encodeURIComponent(clubId())}/tables`, settings));
      if (answer) location.assign(`/tables/${encodeURIComponent(answer.table.id)}`);
    },
  });
}
