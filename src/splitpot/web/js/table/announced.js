// What this page was told before each deal (FAIRNESS.md "What the player's own client
// checks"): the hand_started of every hand, with our own seat, commitment and entropy,
// kept in this browser's storage per table (the last 50), so that "Verify the deal" holds
// the record against it; and every hand called off after the reveals, counted per table
// for as long as this browser keeps it (not only the last 50 hands).

import { t } from "../i18n.js";

const KEPT = 50;
const CALLED_OFF_KEPT = 1000; // far more than a table cancels honestly

/** The announcements of `tableId`, in `storage` (the browser's localStorage). */
export function createAnnouncements(tableId, storage = globalThis.localStorage) {
  const key = `splitpot.announced.${tableId}`;
  const calledOffKey = `splitpot.called-off.${tableId}`;
  const listeners = new Set();

  function read(name) {
    try {
      const kept = JSON.parse(storage.getItem(name) ?? "[]");
      return Array.isArray(kept) ? kept : [];
    } catch {
      return []; // storage this page cannot read: start again, never trust it
    }
  }

  function write(name, list, most) {
    try {
      storage.setItem(name, JSON.stringify(list.slice(-most)));
    } catch {
      // storage full or refused: the checks fall back to the record alone
    }
  }

  const load = () => read(key);
  const save = (hands) => write(key, hands, KEPT);

  // One announcement called off: its hand and deck commitment (a hand dealt again under
  // new commitments and called off again counts again).
  function calledOffId(event) {
    return `${event.hand} ${event.fairness?.deck_commitment ?? ""}`;
  }

  function calledOffIds() {
    const ids = new Set(read(calledOffKey).filter((id) => typeof id === "string"));
    for (const entry of load()) if (entry?.cancelled && entry.event) ids.add(calledOffId(entry.event));
    return ids;
  }

  function changed() {
    for (const listener of listeners) listener();
  }

  // The entry of an announcement called off: counted, kept once, and its warning.
  function callOff(entry) {
    entry.cancelled = true;
    const ids = read(calledOffKey);
    const id = calledOffId(entry.event);
    if (!ids.includes(id)) write(calledOffKey, [...ids, id], CALLED_OFF_KEPT);
  }

  function calledOffWarning(hand) {
    return t("Hand {hand} was called off after the players revealed their entropy. A room that cancels until it likes the cards could do this: hands called off after the reveals at this table: {count}.", { hand, count: calledOffIds().size });
  }

  /** The hand's last announcement that was not called off, or null. */
  function of(hand) {
    return load().reverse().find((entry) => entry.event.hand === hand && !entry.cancelled) ?? null;
  }

  function update(hand, change) {
    const hands = load();
    const entry = [...hands].reverse().find((kept) => kept.event.hand === hand && !kept.cancelled);
    if (!entry) return null;
    change(entry);
    save(hands);
    return entry;
  }

  // Another tab of this table counted a hand called off.
  globalThis.addEventListener?.("storage", (event) => {
    if (event.key === calledOffKey || event.key === key || event.key === null) changed();
  });

  return {
    of,
    /** A hand announced: kept; warnings if it leaves out the commitment we sent for it, or
     * if it announces again, under new commitments, a hand announced to players who could
     * reveal (called off without a word: a hand_cancelled this page never received). */
    started(event, seat, commitment) {
      const hands = load();
      const warnings = [];
      const before = [...hands].reverse().find((kept) => kept.event.hand === event.hand && !kept.cancelled);
      const again = before && before.event.fairness?.players?.length
        && before.event.fairness.deck_commitment !== event.fairness?.deck_commitment;
      if (again) callOff(before);
      hands.push({ event: { ...event, table: tableId }, seat, commitment, entropy: null, cancelled: false });
      save(hands);
      if (again) {
        warnings.push(calledOffWarning(event.hand));
        changed();
      }
      const listed = (event.fairness?.players ?? []).some((player) => player.seat === seat);
      if (seat != null && commitment != null && !listed) {
        warnings.push(t("Hand {hand} was announced without your commitment: the room is dealing it without your entropy.", { hand: event.hand }));
      }
      return warnings;
    },
    revealed(hand, entropy) {
      update(hand, (entry) => { entry.entropy = entropy; });
    },
    /** A hand called off: counted, and a warning if players had been asked to reveal. */
    cancelled(hand) {
      const entry = update(hand, (kept) => {
        if (kept.event.fairness?.players?.length) callOff(kept);
      });
      if (!entry?.cancelled) return null;
      changed();
      return calledOffWarning(hand);
    },
    /** How many hands this browser saw called off after the reveals at this table. */
    cancelledCount() {
      return calledOffIds().size;
    },
    /** `listener()` whenever the count may have changed (here or in another tab). */
    onCalledOff(listener) {
      listeners.add(listener);
    },
    /** verifyHand's arguments for the hand: its announcement and our own part, or nulls. */
    checking(hand) {
      const entry = of(hand);
      if (!entry) return [null, null];
      const own = entry.seat != null && entry.entropy ? { seat: entry.seat, entropy: entry.entropy } : null;
      return [entry.event, own];
    },
  };
}
