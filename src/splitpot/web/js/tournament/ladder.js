// The blind levels the lobby's form proposes (RULES.md 8, Levels): the room's standard
// ladder (tournament/levels.py, Schedule.standard) from a first big blind, each level
// `length` minutes or hands, the small blind rising about 1.5 times a level through round
// numbers (10, 15, 25, 40, 60, 100, ...), an ante of a tenth of the big blind from a level on.

const ROUND_TENTHS = [10, 15, 20, 25, 30, 40, 50, 60, 80]; // 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8
const MAX_CHIPS = 10 ** 12;

/** The whole round numbers up to `most`, rising (1.5 and 2.5 only from 15 and 25 on). */
function roundNumbers(most) {
  const found = [];
  for (let power = 1; ; power *= 10) {
    for (const tenths of ROUND_TENTHS) {
      if ((tenths * power) % 10 !== 0) continue;
      const number = (tenths * power) / 10;
      if (number > most) return found;
      found.push(number);
    }
  }
}

/** The next small blind: of the round numbers above `small`, the nearest 1.5 times it. */
export function nextRound(small) {
  const below = roundNumbers(2 * small).filter((n) => small < n && 2 * n < 3 * small);
  const above = roundNumbers(10 * small).find((n) => 2 * n >= 3 * small);
  if (below.length && 4 * below[below.length - 1] * above > 9 * small * small) return below[below.length - 1];
  return above;
}

/**
 * A schedule as the room reads it: {clock, levels: [{small_blind, big_blind, ante, length,
 * break_minutes}]}; `anteFrom` counts levels from 1 (0: no ante).
 */
export function standardSchedule({ clock = "minutes", length = 5, bigBlind = 20, levels = 15, anteFrom = 0 } = {}) {
  const ladder = [];
  let small = Math.floor(bigBlind / 2);
  for (let number = 1; number <= levels; number += 1) {
    const big = number === 1 ? bigBlind : 2 * small;
    if (big > MAX_CHIPS) break; // the room's largest amount: the last level lasts
    const ante = anteFrom && number >= anteFrom ? Math.max(1, Math.floor(big / 10)) : 0;
    ladder.push({ small_blind: small, big_blind: big, ante, length, break_minutes: 0 });
    small = nextRound(small);
  }
  return { clock, levels: ladder };
}
