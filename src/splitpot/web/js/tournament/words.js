// A tournament in the page's words (RULES.md 8): its kind and status, a level's blinds and
// ante, the time to the next level, a place: the tournament's lobby, the lobby's list and
// the table's clock say them alike.

import { formatNumber, t, tn } from "../i18n.js";

/** "Sit-and-go" or "Scheduled" (a code the page does not know: as the room names it). */
export function kindName(kind) {
  return { "sit-and-go": t("Sit-and-go"), scheduled: t("Scheduled") }[kind] || kind;
}

/** "Registering", "Running", "Finished" or "Cancelled". */
export function statusName(status) {
  return {
    registering: t("Registering"),
    running: t("Running"),
    finished: t("Finished"),
    cancelled: t("Cancelled"),
  }[status] || status;
}

/** "25/50" or, with an ante, "25/50, ante 5": a level's stakes. */
export function blindsText(level) {
  if (!level) return "";
  const blinds = `${formatNumber(level.small_blind)}/${formatNumber(level.big_blind)}`;
  return level.ante ? t("{blinds}, ante {ante}", { blinds, ante: formatNumber(level.ante) }) : blinds;
}

/** Milliseconds as a clock shows them: "4:05", "1:02:03"; never below 0:00. */
export function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** "3 hands left" at the level (the hand in play counted). */
export function handsLeftText(count) {
  return tn("{count} hand left", "{count} hands left", count);
}

/** A chip count in the page's language. */
export function chipsText(amount) {
  return formatNumber(amount ?? 0);
}

/** A place as the results say it: "3" or, shared, "3 (shared)". */
export function placeText(place, shared = false) {
  if (place == null) return "";
  return shared ? t("{place} (shared)", { place: formatNumber(place) }) : formatNumber(place);
}

/** The tournament's lobby page, with an invite code to see a private one. */
export function lobbyPath(tournamentId, invite = null) {
  const path = `/tournaments/${encodeURIComponent(tournamentId)}`;
  return invite ? `${path}?invite=${encodeURIComponent(invite)}` : path;
}
