// The club's schedule: its weekly games by their next opening, each shown in the viewer's
// own time and in the game's zone (GET /api/clubs/{id}/lobby); a manager adds a game
// (POST /api/clubs/{id}/games: weekday, time, zone, the table's settings) or stops one.

import { request } from "../api.js";
import { element } from "../dom.js";
import { t, tn } from "../i18n.js";
import { structureName, variantName } from "../game-words.js";
import { act } from "./act.js";
import { addTableFields, field, showFieldError, wireSettingsDialog } from "./table-fields.js";
import { browserZone, minutesOf, momentIn, timeOfDay, weekdayName, zones } from "./when.js";

const PREFIX = "club-game";

function settingsWords(settings) {
  const words = [variantName(settings.variant || "o8"), structureName(settings.structure || "pot-limit")];
  words.push(`${settings.small_blind ?? 1}/${settings.big_blind ?? 2}`);
  if (settings.seats) words.push(tn("{count} seat", "{count} seats", settings.seats));
  return words.join(" · ");
}

function gameItem(game, { manager, stop }) {
  const item = element("li");
  item.dataset.game = game.id;
  const about = element("div", "grow");
  const every = t("Every {weekday} at {time} ({zone})", {
    weekday: weekdayName(game.weekday), time: timeOfDay(minutesOf(game.time)), zone: game.zone,
  });
  about.append(element("strong", "", game.settings?.name || ""), element("span", "when", every));
  about.append(element("span", "when", settingsWords(game.settings || {})));
  if (game.active && game.next) {
    const next = [t("Next opening: {when}", { when: momentIn(game.next) })];
    if (game.zone !== browserZone()) next.push(t("{when} in {zone}", { when: momentIn(game.next, game.zone), zone: game.zone }));
    about.append(element("span", "when next", next.join(" · ")));
  } else {
    about.append(element("span", "badge", t("Stopped")));
  }
  about.append(element("span", "when", t("Host: {name}", { name: game.host?.name || "" })));
  item.append(about);
  if (game.table) {
    const last = element("a", "button", t("Last table"));
    last.href = `/tables/${encodeURIComponent(game.table)}`;
    item.append(last);
  }
  if (manager && game.active) {
    const button = element("button", "danger", t("Stop"));
    button.type = "button";
    button.setAttribute("aria-label", t("Stop {game}", { game: game.settings?.name || "" }));
    button.addEventListener("click", () => {
      if (confirm(t("Stop this weekly game? The tables it opened stay."))) stop(game, button);
    });
    item.append(button);
  }
  return item;
}

/** Draws the club's weekly games; a manager's have a "Stop" button. */
export function drawSchedule(list, games, { manager, clubId, box }) {
  if (!games.length) {
    list.replaceChildren(element("li", "empty-line", t("No weekly game yet.")));
    return;
  }
  const stop = (game, button) => act(button, box, () => request("DELETE", `/api/clubs/${encodeURIComponent(clubId())}/games/${encodeURIComponent(game.id)}`));
  list.replaceChildren(...games.map((game) => gameItem(game, { manager, stop })));
}

function whenFields(holder) {
  const weekday = element("select");
  for (let day = 0; day < 7; day += 1) {
    const option = element("option", "", weekdayName(day));
    option.value = String(day);
    weekday.append(option);
  }
  weekday.value = String((new Date().getDay() + 6) % 7); // today, Monday first
  const time = element("input");
  time.type = "time";
  time.value = "20:00";
  const zone = element("select");
  for (const name of zones()) {
    const option = element("option", "", name);
    option.value = name;
    zone.append(option);
  }
  zone.value = browserZone();
  holder.append(
    field(PREFIX, "weekday", t("Every"), weekday),
    field(PREFIX, "time", t("At"), time),
    field(PREFIX, "zone", t("Time zone"), zone),
  );
}

/** The field a refusal of the room names first ("zone: unknown time zone ...", "seats must be ..."). */
function fieldOf(message) {
  const found = /^(?:settings\.)?(\w+)/.exec(message.toLowerCase());
  return found ? found[1] : null;
}

/** Wires a manager's "Add a recurring game" dialog of the club `clubId()`. */
export function wireAddGame({ button, dialog, clubId }) {
  const form = dialog.querySelector("form");
  whenFields(form.querySelector(".club-when"));
  addTableFields(form.querySelector(".club-fields"), PREFIX);
  wireSettingsDialog({
    button,
    dialog,
    prefix: PREFIX,
    prepare: () => form.elements.weekday.focus(),
    problemsOf: () => (form.elements.time.value ? [] : [["time", t("Choose a time.")]]),
    send: async (settings, submit, box) => {
      const body = {
        weekday: Number(form.elements.weekday.value),
        time: form.elements.time.value,
        zone: form.elements.zone.value,
        settings,
      };
      const answer = await act(submit, box, () => request("POST", `/api/clubs/${encodeURIComponent(clubId())}/games`, body));
      if (answer) {
        dialog.close();
        return;
      }
      const named = fieldOf(box.textContent);
      if (named && showFieldError(form, PREFIX, named, box.textContent)) box.textContent = "";
    },
  });
}
