// The club's ledger and settle-up (GET /api/clubs/{id}/ledger and /settle): each member's
// result across the club's games, and who pays whom, over all the games, a week (Monday to
// Monday in the viewer's time) or one table (one night of a weekly game).

import { request } from "../api.js";
import { element } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight of this week's Monday in the viewer's time, `weeks` weeks later (or earlier). */
function monday(weeks) {
  const day = new Date();
  day.setHours(0, 0, 0, 0);
  day.setDate(day.getDate() - ((day.getDay() + 6) % 7) + 7 * weeks);
  return day;
}

/** A span's query: {since, until} of a week, or {table}; all the games: {}. */
function query(span) {
  const [kind, value] = span.split(":");
  if (kind === "week") {
    const since = monday(Number(value));
    return { since: since.toISOString(), until: new Date(since.getTime() + 7 * DAY_MS).toISOString() };
  }
  if (kind === "table") return { table: value };
  return {};
}

function withQuery(path, fields) {
  const search = new URLSearchParams(fields).toString();
  return search ? `${path}?${search}` : path;
}

/**
 * The spans to settle over: all the games, this week, last week, and each table named in
 * `tables` ([{id, name}]); the one chosen is kept.
 */
export function drawSpans(selectBox, tables) {
  const chosen = selectBox.value || "all";
  const spans = [["all", t("All the club's games")], ["week:0", t("This week")], ["week:-1", t("Last week")]];
  for (const table of tables) spans.push([`table:${table.id}`, t("Table {name}", { name: table.name })]);
  selectBox.replaceChildren(...spans.map(([value, words]) => {
    const option = element("option", "", words);
    option.value = value;
    return option;
  }));
  selectBox.value = spans.some(([value]) => value === chosen) ? chosen : "all";
}

function resultItem(player) {
  const item = element("li");
  item.dataset.player = player.player;
  const about = element("div", "grow");
  about.append(
    element("strong", "", player.name),
    element("span", "when", `${tn("{count} table", "{count} tables", player.tables)} · ${tn("{count} hand", "{count} hands", player.hands)}`),
  );
  const net = element("span", `net ${player.net > 0 ? "won" : player.net < 0 ? "lost" : ""}`, `${player.net > 0 ? "+" : ""}${formatNumber(player.net)}`);
  item.append(about, net);
  return item;
}

function paymentItem(payment) {
  const item = element("li");
  item.append(
    element("span", "grow", t("{payer} pays {payee}", { payer: payment.from, payee: payment.to })),
    element("span", "amount", formatNumber(payment.amount)),
  );
  return item;
}

let drawing = 0; // the latest drawLedger: an answer to an earlier one comes too late to draw

/** Loads and draws the ledger and the settle-up of the club over the span chosen. */
export async function drawLedger({ results, payments, span }, clubId) {
  const mine = ++drawing;
  const fields = query(span.value || "all");
  const path = `/api/clubs/${encodeURIComponent(clubId)}`;
  const [ledger, settle] = await Promise.all([
    request("GET", withQuery(`${path}/ledger`, fields)),
    request("GET", withQuery(`${path}/settle`, fields)),
  ]);
  if (mine !== drawing) return; // the span changed meanwhile: its own answer draws
  results.replaceChildren(...(ledger.players.length
    ? ledger.players.map(resultItem)
    : [element("li", "empty-line", t("No hand played yet."))]));
  if (ledger.rake) results.append(element("li", "empty-line", t("Rake {amount}", { amount: formatNumber(ledger.rake) })));
  payments.replaceChildren(...(settle.payments.length
    ? settle.payments.map(paymentItem)
    : [element("li", "empty-line", t("Everyone is square."))]));
}
