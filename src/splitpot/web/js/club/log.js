// The club's log (GET /api/clubs/{id}/log, a manager's): each entry, newest first, as a
// sentence in the page's language from its kind and fields (docs/protocol.md "Clubs").

import { request } from "../api.js";
import { element } from "../dom.js";
import { formatDate, t } from "../i18n.js";
import { membershipName } from "./roles.js";
import { timeOfDay, minutesOf, weekdayName } from "./when.js";

const SENTENCES = {
  created: (who, f) => t("{actor} made the club {name}", { actor: who, name: f.name }),
  changed: (who, f) => t("{actor} changed the club: {name}, {membership}", { actor: who, name: f.name, membership: membershipName(f.membership) }),
  invite: (who) => t("{actor} made a new invite link", { actor: who }),
  joined: (who, f) => (f.by === "code"
    ? t("{name} joined with the invite link", { name: f.name })
    : t("{name} joined", { name: f.name })),
  asked: (who, f) => t("{name} asked to join", { name: f.name }),
  approved: (who, f) => t("{actor} approved {name}", { actor: who, name: f.name }),
  rejected: (who, f) => t("{actor} rejected {name}", { actor: who, name: f.name }),
  removed: (who, f) => t("{actor} removed {name}", { actor: who, name: f.name }),
  left: (who, f) => t("{name} left the club", { name: f.name }),
  role: (who, f) => (f.role === "manager"
    ? t("{actor} made {name} a manager", { actor: who, name: f.name })
    : t("{actor} made {name} a member", { actor: who, name: f.name })),
  table_opened: (who, f) => t("{actor} opened the table {name}", { actor: who, name: f.name }),
  game_added: (who, f) => t("{actor} added the weekly game {name}: every {weekday} at {time} ({zone})", {
    actor: who, name: f.name, weekday: weekdayName(f.weekday), time: timeOfDay(minutesOf(f.time)), zone: f.zone,
  }),
  game_stopped: (who, f) => t("{actor} stopped the weekly game {name}", { actor: who, name: f.name }),
  game_opened: (who, f) => t("The weekly game opened the table {name}", { name: f.name }),
  game_missed: (who, f) => t("The room was stopped: the weekly game of {when} did not open", { when: formatDate(f.at) }),
  game_failed: (who, f) => t("The weekly game could not open its table: {error}", { error: f.error }),
};

function entryItem(entry) {
  const item = element("li");
  item.dataset.kind = entry.kind;
  const when = element("time", "", formatDate(entry.time));
  when.dateTime = entry.time;
  const who = entry.actor ? entry.actor.name : t("The room");
  const said = SENTENCES[entry.kind];
  item.append(when, said ? said(who, entry.fields || {}) : `${who}: ${entry.kind}`);
  return item;
}

/** Loads the club's log and draws it, newest first. */
export async function drawLog(list, clubId) {
  const answer = await request("GET", `/api/clubs/${encodeURIComponent(clubId)}/log`);
  list.replaceChildren(...answer.log.map(entryItem));
}
