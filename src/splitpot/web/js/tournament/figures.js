// The tournament lobby's head and figures (docs/protocol.md "Tournaments"): its kind, game
// and status; the level now with its blinds and a live countdown to the next (minutes
// clock), the players left, the average stack, the prize pool; what an entry costs and
// gives; and the levels stated before the start.

import { element } from "../dom.js";
import { formatDate, t, tn } from "../i18n.js";
import { structureName, variantName } from "../game-words.js";
import { countDown } from "./countdown.js";
import { blindsText, chipsText, kindName, statusName } from "./words.js";

/** One figure: a term and its value (text, or a node), with a hook for the tests. */
function figure(name, label, value) {
  const item = element("div", "figure");
  item.dataset.figure = name;
  const term = element("dt", "", label);
  const data = element("dd");
  if (value instanceof Node) data.append(value);
  else data.textContent = value;
  item.append(term, data);
  return item;
}

/** The head's line: "Sit-and-go · Omaha Hi/Lo · Pot limit · Running". */
export function factsLine(lobby) {
  const settings = lobby.settings || {};
  return [
    kindName(lobby.kind),
    variantName(settings.variant),
    structureName(settings.structure),
    statusName(lobby.status),
  ].filter(Boolean).join(" · ");
}

/** The level's countdown (minutes clock), or the words for a level by hands or the last. */
function nextLevel(lobby) {
  const level = lobby.level;
  if (level.changes_at) {
    const clock = element("span", "level-countdown");
    clock.id = "tournament-countdown";
    countDown(clock, level.changes_at, t("next hand"));
    return clock;
  }
  if (level.clock === "hands") return t("by hands, at each table");
  return t("Last level");
}

/** The figures of the tournament now: level, blinds, next level, players, stacks, pool. */
export function drawFigures(list, lobby) {
  const level = lobby.level;
  const items = [];
  if (lobby.status === "running") {
    items.push(figure("level", t("Level"), level.on_break ? t("{level} (on a break)", { level: level.level }) : String(level.level)));
    items.push(figure("blinds", t("Blinds"), blindsText(level)));
    items.push(figure("next", level.on_break ? t("Play resumes in") : t("Next level in"), nextLevel(lobby)));
    items.push(figure("left", t("Players left"), `${chipsText(lobby.players_left)}/${chipsText(lobby.entries)}`));
    items.push(figure("average", t("Average stack"), chipsText(lobby.average_stack)));
  } else {
    items.push(figure("entries", t("Entries"), `${chipsText(lobby.entries)}/${chipsText(lobby.settings?.most_entrants)}`));
  }
  items.push(figure("pool", t("Prize pool"), chipsText(lobby.prize_pool)));
  list.replaceChildren(...items);
}

/** What an entry costs and gives, and when it starts (or started, or ended). */
export function drawTerms(list, lobby) {
  const settings = lobby.settings || {};
  const items = [
    figure("buy-in", t("Buy-in"), settings.fee ? t("{buy_in} + {fee} fee", { buy_in: chipsText(settings.buy_in), fee: chipsText(settings.fee) }) : chipsText(settings.buy_in)),
    figure("stack", t("Starting stack"), chipsText(settings.starting_stack)),
    figure("seats", t("Seats at a table"), String(settings.seats)),
    figure("registration", t("Registration"), {
      open: t("Open to all"),
      invite: t("With the invite code"),
      club: t("The club's members"),
    }[settings.registration] || settings.registration),
  ];
  if (lobby.kind === "sit-and-go" && lobby.status === "registering") {
    items.push(figure("starts", t("Starts"), t("When its seats are full")));
  } else if (lobby.start_at && lobby.status === "registering") {
    items.push(figure("starts", t("Starts"), formatDate(lobby.start_at)));
  }
  if (lobby.started_at) items.push(figure("started", t("Started"), formatDate(lobby.started_at)));
  if (lobby.finished_at) items.push(figure("finished", t("Ended"), formatDate(lobby.finished_at)));
  list.replaceChildren(...items);
}

/** The levels stated before the start (RULES.md 8): blinds, ante, length, breaks. */
export function drawStructure(body, caption, lobby) {
  const schedule = lobby.settings?.schedule;
  if (!schedule) return;
  const byHands = schedule.clock === "hands";
  caption.textContent = byHands ? t("Levels by hands: each table counts its own.") : t("Levels by minutes of play.");
  body.replaceChildren(...schedule.levels.map((level, index) => {
    const row = element("tr");
    if (lobby.status === "running" && lobby.level?.level === index + 1 && !byHands) row.classList.add("now");
    const length = byHands
      ? tn("{count} hand", "{count} hands", level.length)
      : tn("{count} minute", "{count} minutes", level.length);
    const cells = [String(index + 1), blindsText({ ...level, ante: 0 }), level.ante ? chipsText(level.ante) : "–", length];
    if (level.break_minutes) {
      const pause = tn("{count} minute", "{count} minutes", level.break_minutes);
      cells[3] = t("{length}, then a break of {pause}", { length, pause });
    }
    row.append(...cells.map((text) => element("td", "", text)));
    return row;
  }));
}
