// Seats dealt in without their entropy (FAIRNESS.md "What the player's own client checks":
// a listed commitment with `entropy: null` is reported with its seat). The room says such a
// player did not reveal in time; the page says so in words, naming the seat and the player.
// Not an alarm: our own entropy missing is the check "your entropy", a warning of its own.

import { t } from "../i18n.js";

/**
 * The notices of a finished hand's `record`: one for each other seat whose commitment it
 * lists with no entropy. `ownSeat`: our seat in the hand (never noticed here); `announced`:
 * the hand's `hand_started` as this page received it (its names, if the record has none).
 */
export function unrevealedNotices(record, ownSeat = null, announced = null) {
  const players = record?.fairness?.players;
  if (!Array.isArray(players)) return [];
  const names = new Map();
  for (const seats of [announced?.seats, record.players]) {
    if (!Array.isArray(seats)) continue;
    for (const seat of seats) {
      if (Number.isInteger(seat?.seat) && typeof seat.name === "string" && seat.name) names.set(seat.seat, seat.name);
    }
  }
  return players
    .filter((player) => player && player.entropy === null && Number.isInteger(player.seat) && player.seat !== ownSeat)
    .sort((a, b) => a.seat - b.seat)
    .map((player) => {
      const name = names.get(player.seat);
      const who = name ? t("Seat {seat} ({name})", { seat: player.seat, name }) : t("Seat {seat}", { seat: player.seat });
      return t("Hand {hand}: {who} was dealt in without their entropy: the room says they did not reveal in time.", { hand: handName(record, announced), who });
    });
}

// "#12", the number the table shows, or the record's id when it has none.
function handName(record, announced) {
  if (Number.isInteger(announced?.number)) return `#${announced.number}`;
  const id = String(record.id ?? "");
  const tail = id.split("-").pop();
  return /^\d+$/.test(tail) ? `#${tail}` : id;
}
