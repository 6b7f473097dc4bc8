// What this page was told before each deal (FAIRNESS.md "What the player's own client
// checks"): the hand_started of every hand, with our own seat, commitment and entropy,
// kept in this browser's storage per table (the last 50), so that "Verify the deal" holds
// the record against it and a hand called off after the reveals is counted.

const KEPT = 50;

/** The announcements of `tableId`, in `storage` (the browser's localStorage). */
export function createAnnouncements(tableId, storage = globalThis.localStorage) {
  const key = `splitpot.announced.${tableId}`;

  function load() {
    try {
      const kept = JSON.parse(storage.getItem(key) ?? "[]");
      return Array.isArray(kept) ? kept : [];
    } catch {
      return []; // storage this page cannot read: start again, never trust it
    }
  }

  function save(hands) {
    try {
      storage.setItem(key, JSON.stringify(hands.slice(-KEPT)));
    } catch {
      // storage full or refused: the checks fall back to the record alone
    }
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

  return {
    of,
    /** A hand announced: kept; a warning if it leaves out the commitment we sent for it. */
    started(event, seat, commitment) {
      const hands = load();
      hands.push({ event: { ...event, table: tableId }, seat, commitment, entropy: null, cancelled: false });
      save(hands);
      const listed = (event.fairness?.players ?? []).some((player) => player.seat === seat);
      if (seat == null || commitment == null || listed) return null;
      return `Hand ${event.hand} was announced without your commitment: the room is dealing it without your entropy.`;
    },
    revealed(hand, entropy) {
      update(hand, (entry) => { entry.entropy = entropy; });
    },
    /** A hand called off: counted, and a warning if players had been asked to reveal. */
    cancelled(hand) {
      const entry = update(hand, (kept) => {
        if (kept.event.fairness?.players?.length) kept.cancelled = true;
      });
      if (!entry?.cancelled) return null;
      return `Hand ${hand} was called off after the players revealed their entropy. A room that cancels until it likes the cards could do this: hands called off after the reveals at this table: ${this.cancelledCount()}.`;
    },
    cancelledCount() {
      return load().filter((entry) => entry.cancelled).length;
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
