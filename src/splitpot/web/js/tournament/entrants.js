// The tournament lobby's lists: the entrants (those still in first, by chips; then the
// places), the prizes by place, each table with a link to watch it, and the results with
// their CSV once the tournament ended.

import { element } from "../dom.js";
import { t, tn } from "../i18n.js";
import { chipsText, placeText } from "./words.js";

function tableLink(id, number) {
  const link = element("a", "", t("Table {number}", { number }));
  link.href = `/tables/${encodeURIComponent(id)}`;
  return link;
}

function entrantItem(entrant, me, registering) {
  const item = element("li", entrant.place === 1 ? "entrant winner" : entrant.out ? "entrant out" : "entrant");
  item.dataset.player = entrant.player;
  const who = element("div", "grow");
  who.append(element("strong", "name", entrant.name));
  if (entrant.bot) who.append(" ", element("span", "badge", t("Bot")));
  if (me && String(me) === String(entrant.player)) {
    item.classList.add("me");
    who.append(" ", element("span", "badge you", t("You")));
  }
  item.append(who);
  if (registering) {
    item.append(element("span", "badge", t("Registered")));
  } else if (entrant.out || entrant.place != null) {
    const place = element("span", "place", t("Place {place}", { place: placeText(entrant.place) }));
    item.append(place);
    if (entrant.prize) item.append(element("span", "prize", t("Prize {amount}", { amount: chipsText(entrant.prize) })));
  } else {
    item.append(element("span", "chips", chipsText(entrant.chips)));
    if (entrant.table && entrant.table_number != null) {
      const where = element("span", "where");
      where.append(tableLink(entrant.table, entrant.table_number));
      if (entrant.seat != null) where.append(` · ${t("seat {seat}", { seat: entrant.seat })}`);
      item.append(where);
    }
  }
  return item;
}

/** The entrants, the caller marked; before the start, only who registered. */
export function drawEntrants(list, entrants, me, registering = false) {
  if (!entrants.length) {
    list.replaceChildren(element("li", "empty-line", t("No one has registered yet.")));
    return;
  }
  list.replaceChildren(...entrants.map((entrant) => entrantItem(entrant, me, registering)));
}

/** The tables in play, each to watch; those broken said so. */
export function drawTables(list, tables) {
  const playing = tables.filter((table) => !table.broken);
  if (!playing.length) {
    list.replaceChildren(element("li", "empty-line", t("No table is playing.")));
    return;
  }
  list.replaceChildren(...playing.map((table) => {
    const item = element("li");
    item.dataset.table = table.id;
    const about = element("div", "grow");
    about.append(element("strong", "", t("Table {number}", { number: table.number })));
    about.append(element("span", "when", tn("{count} player", "{count} players", table.players)));
    const watch = element("a", "button", t("Watch"));
    watch.href = `/tables/${encodeURIComponent(table.id)}`;
    watch.setAttribute("aria-label", t("Watch table {number}", { number: table.number }));
    item.append(about, watch);
    return item;
  }));
}

/** The prize of each paid place, for the entries so far. */
export function drawPayouts(list, payouts) {
  if (!payouts.length) {
    list.replaceChildren(element("li", "empty-line", t("No prizes: the buy-in is free.")));
    return;
  }
  list.replaceChildren(...payouts.map((payout) => {
    const item = element("li");
    item.dataset.place = String(payout.place);
    item.append(element("span", "grow", t("Place {place}", { place: placeText(payout.place) })), element("span", "prize", chipsText(payout.prize)));
    return item;
  }));
}

/** The final places: place, name and prize (GET .../results). */
export function drawResults(list, results, me) {
  list.replaceChildren(...results.map((result) => {
    const item = element("li");
    item.dataset.player = result.player;
    if (me && String(me) === String(result.player)) item.classList.add("me");
    item.append(
      element("span", "place", placeText(result.place, result.shared)),
      element("strong", "grow", result.name),
      element("span", "prize", chipsText(result.prize ?? 0)),
    );
    return item;
  }));
}
