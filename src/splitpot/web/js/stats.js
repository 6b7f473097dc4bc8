// The Session tab's hi/lo statistics (GET /api/tables/{id}/stats, docs/protocol.md
// "Statistics"): the session's or the whole table's figures of each player as the room
// computed them for this viewer, and each player's chips over those hands (chart.js).
// It works out no figure: every number is the room's.

import { lineChart } from "./chart.js";
import { element } from "./dom.js";
import { formatNumber, t, tn } from "./i18n.js";

// Each column: the figure's key, its short name and what it means.
const COLUMNS = [
  ["hands", t("Hands"), t("Hands dealt")],
  ["vpip", t("VPIP"), t("Put chips in voluntarily before the flop (blinds, straddles and bomb pots aside)")],
  ["pfr", t("PFR"), t("Raised before the flop")],
  ["three_bet", t("3-bet"), t("Re-raised a single raise before the flop, of the chances to")],
  ["wtsd", t("WTSD"), t("Went to the showdown, of the hands that saw the flop")],
  ["wsd", t("W$SD"), t("Won chips at the showdown, of the showdowns")],
  ["scoops", t("Scoops"), t("Won every chip of every pot contested, of the showdowns won")],
  ["high_halves", t("High"), t("High halves won or shared (each board or run apart)")],
  ["low_halves", t("Low"), t("Low halves won or shared (each board or run apart)")],
  ["quartered", t("Quartered"), t("Halves shared with another player")],
  ["low_made", t("Low made"), t("Lows made when the board allowed one, in hands whose cards you saw")],
  ["net_bb", t("Net (bb)"), t("Chips won or lost, in big blinds")],
];

function figure(value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "number") return formatNumber(value);
  if (value.percent === null) return "–";
  return t("{percent}%", { percent: formatNumber(Math.round(value.percent)) });
}

function explained(value) {
  if (value === null || typeof value !== "object") return "";
  return t("{made} of {of}", { made: formatNumber(value.made), of: formatNumber(value.of) });
}

function scopeSwitch(scope, onScope) {
  const group = element("div", "stats-scope");
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", t("Which hands"));
  for (const [key, label] of [["session", t("This session")], ["table", t("Whole table")]]) {
    const choice = element("button", "small-button", label);
    choice.type = "button";
    choice.dataset.scope = key;
    choice.setAttribute("aria-pressed", String(key === scope));
    choice.addEventListener("click", () => key !== scope && onScope(key));
    group.append(choice);
  }
  return group;
}

function figuresTable(stats, names) {
  const wrap = element("div", "stats-scroll");
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", t("Hi/lo statistics"));
  const table = element("table", "figures-table");
  table.append(element("caption", "visually-hidden", t("Per player: the hi/lo statistics of these hands")));
  const head = element("tr");
  const corner = element("th", "", t("Player"));
  corner.scope = "col";
  head.append(corner);
  for (const [, label, meaning] of COLUMNS) {
    const th = element("th", "num");
    const abbr = element("abbr", "", label);
    abbr.title = meaning;
    th.append(abbr);
    th.scope = "col";
    head.append(th);
  }
  const thead = element("thead");
  thead.append(head);
  const body = element("tbody");
  for (const [player, figures] of Object.entries(stats.figures)) {
    const you = player === stats.you;
    const row = element("tr", you ? "you" : "");
    row.dataset.player = player;
    const name = names.get(player) || player;
    const th = element("th", "", you ? t("{name} (you)", { name }) : name);
    th.scope = "row";
    row.append(th);
    for (const [key] of COLUMNS) {
      const cell = element("td", `num figure-${key}`, figure(figures[key]));
      const detail = explained(figures[key]);
      if (detail) cell.title = detail;
      row.append(cell);
    }
    body.append(row);
  }
  table.append(thead, body);
  wrap.append(table);
  return wrap;
}

/**
 * Appends to `container` the figures of `stats` (the /stats answer for `scope`) and the
 * chart of each player's chips; `onScope(scope)` is called when the viewer picks another.
 */
export function renderFigures(container, stats, { scope, onScope }) {
  const names = new Map(stats.players.map((row) => [row.player, row.name]));
  const section = element("section", "stats-figures");
  section.setAttribute("aria-label", t("Hi/lo statistics"));
  section.append(element("h3", "stats-heading", t("Hi/lo statistics")), scopeSwitch(scope, onScope));
  const read = scope === "session"
    ? tn("{count} hand this session", "{count} hands this session", stats.hands_read)
    : tn("{count} hand at this table", "{count} hands at this table", stats.hands_read);
  section.append(element("p", "muted", read));
  if (stats.capped) {
    section.append(element("p", "muted", t("Only the newest {most} hands are counted.", { most: formatNumber(stats.most) })));
  }
  if (!stats.hands_read) {
    container.append(section);
    return;
  }
  section.append(figuresTable(stats, names));
  const series = Object.entries(stats.chips).map(([player, points]) => ({
    key: player,
    name: names.get(player) || player,
    points,
  }));
  section.append(lineChart({
    title: scope === "session" ? t("Chips over the session") : t("Chips over the table's hands"),
    description: t("Each player's chips after each hand they were dealt: one line per player."),
    xLabel: t("Hand"),
    yLabel: t("Chips"),
    series,
  }));
  container.append(section);
}
