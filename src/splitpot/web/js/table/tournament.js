// A tournament table's clock as the page keeps it (docs/protocol.md "Tournaments", RULES.md
// 8): the state's `tournament` block, a `level` event (its blinds from the next hand), each
// hand played off a level by hands, and the schedule (read once from the tournament's
// lobby) for what follows a level. No DOM, no I/O.

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
 * A `level` event: the next hand plays `event.level`'s blinds. The level after it and, by
 * hands, its length come from the schedule; by minutes, the time of the next change comes
 * from the tournament's lobby (null until then).
 */
export function levelChanged(tournament, event) {
  if (!tournament) return;
  tournament.level = event.level;
  tournament.small_blind = event.small_blind;
  tournament.big_blind = event.big_blind;
  tournament.ante = event.ante ?? 0;
  tournament.on_break = false;
  tournament.changes_at = null;
  const levels = tournament.schedule?.levels;
  if (!levels) {
    tournament.next_level = null;
    tournament.hands_left = null;
    return;
  }
  const following = levels[event.level] || null; // levels count from 1: the next one's index
  tournament.next_level = following
    ? { small_blind: following.small_blind, big_blind: following.big_blind, ante: following.ante }
    : null;
  const now = levels[event.level - 1];
  tournament.hands_left = tournament.clock === "hands" && following && now ? now.length : null;
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
