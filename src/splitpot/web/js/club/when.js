// The schedule's times in words: a weekday by its number (0 Monday, as the room counts
// them), a time of day, the time zones to choose from and the browser's own, and a moment
// (the next opening) in the viewer's zone and in the game's.

import { formatDate, lang } from "../i18n.js";

const A_MONDAY = Date.UTC(2024, 0, 1); // 1 January 2024 was a Monday
const DAY_MS = 24 * 60 * 60 * 1000;

/** The weekday `number` (0 Monday .. 6 Sunday) in the page's language: "Friday". */
export function weekdayName(number) {
  return new Intl.DateTimeFormat(lang, { weekday: "long", timeZone: "UTC" }).format(new Date(A_MONDAY + number * DAY_MS));
}

/** Minutes past midnight as the page's language writes a time of day: "20:00", "8:00 PM". */
export function timeOfDay(minutes) {
  return new Intl.DateTimeFormat(lang, { hour: "numeric", minute: "2-digit", timeZone: "UTC" })
    .format(new Date(A_MONDAY + minutes * 60 * 1000));
}

/** "20:00" (an <input type=time>'s value) as minutes past midnight, or null. */
export function minutesOf(text) {
  const found = /^(\d{2}):(\d{2})$/.exec(text || "");
  return found ? Number(found[1]) * 60 + Number(found[2]) : null;
}

/** The browser's own time zone ("Europe/Paris"), UTC where it says none. */
export function browserZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Every time zone the browser knows, the browser's own among them. */
export function zones() {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set([...known, browserZone(), "UTC"])].sort();
}

/** A moment as a weekday, date and time, in `zone` (the viewer's when none), its zone named. */
export function momentIn(when, zone = undefined) {
  return formatDate(when, {
    weekday: "short", day: "numeric", month: "short", hour: "numeric", minute: "2-digit",
    timeZoneName: "short", ...(zone ? { timeZone: zone } : {}),
  });
}
