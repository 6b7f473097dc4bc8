// The home game's options a table plays (RULES.md 7), in words, from the settings the room
// gives in a table's summary (docs/protocol.md): the lobby's badges, the table page's
// header and its settings at a glance say them alike. An option that is off says nothing.

import { t, tn } from "./i18n.js";

/** Each option on, short, in the order the room lists them: ["Ante 1", "Run it twice", ...]. */
export function optionWords(table) {
  if (!table) return [];
  const words = [];
  if (table.ante) words.push(t("Ante {amount}", { amount: table.ante }));
  if (table.rake_percent) {
    words.push(table.rake_cap
      ? t("Rake {percent}%, at most {cap}", { percent: table.rake_percent, cap: table.rake_cap })
      : t("Rake {percent}%", { percent: table.rake_percent }));
  }
  if (table.straddle) words.push(t("Straddle"));
  if (table.run_it_twice) words.push(t("Run it twice"));
  if (table.rabbit_hunt) words.push(t("Rabbit hunt"));
  if (table.bomb_pot) {
    words.push(table.bomb_every
      ? tn("Bomb pot of {blinds} BB every {count} hand", "Bomb pot of {blinds} BB every {count} hands", table.bomb_every, { blinds: table.bomb_pot })
      : t("Bomb pot of {blinds} BB when called", { blinds: table.bomb_pot }));
  }
  if (table.double_board === "always") words.push(t("Double board"));
  if (table.double_board === "bomb-pots") words.push(t("Double board in bomb pots"));
  const amount = table.kill_size;
  if (table.kill === "half") words.push(amount ? t("Half kill from pots of {amount}", { amount }) : t("Half kill"));
  if (table.kill === "full") words.push(amount ? t("Full kill from pots of {amount}", { amount }) : t("Full kill"));
  return words;
}
