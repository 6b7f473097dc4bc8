// The tournament clock of a tournament's table (RULES.md 8): the level, its blinds and
// ante, the countdown to the next level (minutes) or the hands left at it (hands), the next
// level's blinds, "hand for hand", a link to the tournament's lobby; and the notices of a
// move to another table or of the player's own elimination. It reads the tournament's lobby
// (GET /api/tournaments/{id}) now and then: the schedule, the minutes clock, hand for hand.

import { request } from "../api.js";
import { element } from "../dom.js";
import { t } from "../i18n.js";
import { countDown } from "../tournament/countdown.js";
import { blindsText, handsLeftText, lobbyPath } from "../tournament/words.js";
import { lobbyRead } from "./tournament.js";

const READ_EVERY_MS = 5000; // the lobby at most this often

/**
 * `node`: the clock's line; `notice`: the notices' box; `lobbyLink`: the link shown on the
 * felt once the table is closed; `onRead()`: after each lobby read.
 */
export function createTournamentClock({ node, notice, lobbyLink, onRead = () => {} }) {
  let drawn = ""; // what is on show, to draw only a change
  let readAt = 0;
  let reading = null;
  const lobbies = new Map(); // tournament id -> its last lobby read (the schedule for a table moved to)

  function nextWords(tournament) {
    const next = tournament.next_level;
    if (!next) return { words: t("Last level") };
    const blinds = blindsText(next);
    if (tournament.on_break && tournament.changes_at) return { words: t("On a break: play resumes in"), countdown: tournament.changes_at, after: blinds };
    if (tournament.changes_at) return { words: t("Next level in"), countdown: tournament.changes_at, after: blinds };
    if (tournament.hands_left === 0) return { words: t("Next level from the next hand: {blinds}", { blinds }) };
    if (tournament.hands_left != null) return { words: t("{left} at this level, then {blinds}", { left: handsLeftText(tournament.hands_left), blinds }) };
    return { words: t("Next level: {blinds}", { blinds }) };
  }

  function render(model) {
    const tournament = model.tournament;
    document.body.classList.toggle("at-tournament", Boolean(tournament));
    if (!tournament) {
      node.hidden = true;
      drawn = "";
      return;
    }
    const next = nextWords(tournament);
    const key = JSON.stringify([tournament.id, tournament.name, tournament.table_number, tournament.level, blindsText(tournament), next, tournament.hand_for_hand]);
    if (key === drawn) return;
    drawn = key;
    const lobby = element("a", "tournament-link", tournament.name);
    lobby.href = lobbyPath(tournament.id);
    lobby.title = t("The tournament's lobby");
    const level = element("span", "level", t("Level {level}", { level: tournament.level }));
    const blinds = element("span", "blinds", t("Blinds {blinds}", { blinds: blindsText(tournament) }));
    const coming = element("span", "next", next.words);
    if (next.countdown) {
      const clock = element("span", "level-countdown");
      countDown(clock, next.countdown, t("next hand"));
      coming.append(" ", clock);
      if (next.after) coming.append(` (${next.after})`);
    }
    const parts = [lobby, element("span", "table-number", t("Table {number}", { number: tournament.table_number })), level, blinds, coming];
    if (tournament.hand_for_hand) parts.push(element("span", "badge hand-for-hand", t("Hand for hand")));
    node.replaceChildren(...parts);
    node.hidden = false;
  }

  /** Reads the tournament's lobby (at most every few seconds, or at once when `now`). */
  async function read(model, { now = false } = {}) {
    const tournament = model.tournament;
    if (!tournament || reading) return;
    if (!now && Date.now() - readAt < READ_EVERY_MS) return;
    readAt = Date.now();
    const id = tournament.id;
    reading = request("GET", `/api/tournaments/${encodeURIComponent(id)}`)
      .then((lobby) => {
        lobbies.set(id, lobby);
        if (model.tournament?.id === id) lobbyRead(model.tournament, lobby);
        onRead();
      })
      .catch(() => {}) // the table's own clock still shows
      .finally(() => {
        reading = null;
      });
    await reading;
  }

  /** A snapshot drawn: what is known of its tournament already, and a read when new. */
  function snapshot(model) {
    const tournament = model.tournament;
    if (!tournament) return;
    const known = lobbies.get(tournament.id);
    if (known) lobbyRead(tournament, known);
    read(model, { now: !known });
  }

  /** A notice over the table, with a link to the tournament's lobby when `linkWords`. */
  function tell(text, tournamentId = null, linkWords = "") {
    notice.replaceChildren(element("span", "", text));
    if (tournamentId && linkWords) {
      const link = element("a", "", linkWords);
      link.href = lobbyPath(tournamentId);
      notice.append(" ", link);
    }
    notice.hidden = !text;
  }

  /** The table broke or the tournament ended: the way to its lobby, on the felt. */
  function showLobby(tournamentId) {
    lobbyLink.href = lobbyPath(tournamentId);
    lobbyLink.hidden = false;
  }

  return { render, read, snapshot, tell, showLobby };
}
