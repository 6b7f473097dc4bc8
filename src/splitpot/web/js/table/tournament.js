// A tournament table's clock as the page keeps it (docs/protocol.md "Tournaments", RULES.md
// 8): the state's `tournament` block, a `level` event (its blinds from the next hand), each
// hand played off a level by hands, and the tournament's lobby (read now and then) for the
// schedule's clock and hand for hand. No DOM, no I/O.

/** The state's `tournament` block as the model keeps it, or null at a cash table. */
export function tournamentFromState(block, schedule = null) {
  if (!block) return null;
  return {
    ...block,
    next_level: block.next_level ? { ...block.next_level } : null,
    clock: clockOf(block, schedule),
    schedule,
  };
}

function clockOf(block, schedule) {
  if (schedule?.clock) return schedule.clock;
  if (block.hands_left != null) return "hands";
  if (block.changes_at != null) return "minutes";
  return null;
}

/** The schedule of levels, once read: what follows each level can be told. */
export function learnSchedule(tournament, schedule) {
  if (!tournament || !schedule) return;
  tournament.schedule = schedule;
  tournament.clock = schedule.clock;
}

/**
 * A `level` event: the next hand plays `event.level`'s blinds; the event says what follows
 * (the next level, and the hands or seconds to it: null at the very last level).
 */
export function levelChanged(tournament, event, now = Date.now()) {
  if (!tournament) return;
  tournament.level = event.level;
  tournament.small_blind = event.small_blind;
  tournament.big_blind = event.big_blind;
  tournament.ante = event.ante ?? 0;
  tournament.on_break = false;
  tournament.next_level = event.next_level ? { ...event.next_level } : null;
  tournament.hands_left = event.hands_left ?? null;
  const seconds = event.seconds_left;
  tournament.changes_at = seconds == null ? null : new Date(now + seconds * 1000).toISOString();
}

/** A hand over: by hands, one fewer left at the level (the hand in play was counted). */
export function handPlayed(tournament) {
  if (tournament?.hands_left != null && tournament.hands_left > 0) tournament.hands_left -= 1;
}

/**
 * What the tournament's lobby tells of the level now (minutes clock: its end) and whether
 * the tables play hand for hand.
 */
export function lobbyRead(tournament, lobby) {
  if (!tournament || !lobby) return;
  learnSchedule(tournament, lobby.settings?.schedule);
  tournament.hand_for_hand = Boolean(lobby.hand_for_hand);
  const level = lobby.level;
  if (!level || level.clock !== "minutes" || !level.changes_at) return;
  if (level.level === tournament.level && !level.on_break) {
    tournament.changes_at = level.changes_at; // this level's end
  } else if (level.on_break && level.level === tournament.level + 1) {
    tournament.on_break = true; // the break before the next level: its end
    tournament.changes_at = level.changes_at;
  }
}
