// The player's entropy for the deal (FAIRNESS.md step 3): a commitment sent for the next
// hand once seated, its entropy revealed as soon as a hand's start lists our seat. The
// entropy stays in memory only: after a reload the next hand is dealt without it.

import { request } from "../api.js";
import { newEntropy, verifyHand, verifyRabbit } from "../fair.js";
import { createAnnouncements } from "./announced.js";
import { unrevealedNotices } from "./unrevealed.js";
import { checkWords } from "../fair-words.js";
import { t } from "../i18n.js";

const REF = "fair"; // the ref of our commands: the room's refusals of them are ours alone

/**
 * Reads the room's messages as they arrive (before the page lingers over any) and sends
 * `commit` and `reveal` with `send`. `receive(message)` is true for a refusal of one of its
 * own commands (a reveal too late: the hand was dealt without it), which the page need not show.
 * `warn(text)`: what the page's checks caught; `note(text)`: what the player should know of
 * a deal that is no cheat on them (another seat dealt in without its entropy).
 */
export function createEntropy({ send, tableId: firstTable, invite = () => null, warn = () => {}, note = () => {} }) {
  let tableId = firstTable;
  let announced = createAnnouncements(tableId);
  let player = null; // {id, name} from `welcome`
  let seat = null; // our seat at the table, or null
  let pending = null; // the entropy behind our last commitment, as hex
  let commitment = null; // its commitment, as hex
  let seq = 0; // the last event read (a frame sent again after a snapshot is old news)
  let committing = false; // a commitment is being made (WebCrypto is asynchronous)

  async function commit() {
    if (!globalThis.crypto?.subtle) return; // not a secure context (plain http): no entropy
    committing = true;
    const { entropy, commitment: made } = await newEntropy();
    committing = false;
    if (seat == null) return; // stood up meanwhile
    pending = entropy;
    commitment = made;
    send({ type: "commit", table: tableId, commitment: made, ref: REF });
  }

  // Seated (again): a commitment, unless the room has ours for this seat already.
  function sat(at) {
    if (at != null && at === seat && (pending || committing)) return;
    seat = at;
    pending = null;
    commitment = null;
    if (seat != null) commit();
  }

  function onEvent(event) {
    if (event.kind === "player_sat" && player && event.player === player.id) sat(event.seat);
    else if (event.kind === "player_left" && event.seat === seat) sat(null);
    else if (event.kind === "hand_ended" && announced.of(event.hand)?.seat != null) checkHand(event.hand);
    else if (event.kind === "rabbit" && event.fairness) checkRabbit(event);
    else if (event.kind === "hand_cancelled") {
      const warning = announced.cancelled(event.hand);
      if (warning) warn(warning);
    } else if (event.kind === "hand_started") {
      const dealt = seat != null && event.seats.some((s) => s.seat === seat);
      const warnings = announced.started(event, dealt ? seat : null, dealt && pending ? commitment : null);
      for (const warning of warnings) warn(warning);
      if (!dealt) return;
      // dealt in: the room used (and forgot) our commitment, if it listed one
      const listed = event.fairness?.players.some((p) => p.seat === seat);
      if (listed && pending) {
        send({ type: "reveal", table: tableId, hand: event.hand, entropy: pending, ref: REF });
        announced.revealed(event.hand, pending);
      }
      pending = null;
      commitment = null;
      commit();
    }
  }

  // A hand we were dealt in: its record held against its announcement, loudly when it
  // fails; the other seats it dealt in without their entropy, told.
  async function checkHand(hand) {
    const kept = announced; // this table's, should the tournament move us meanwhile
    let record;
    try {
      record = await request("GET", `/api/hands/${encodeURIComponent(hand)}`, undefined, { invite: invite() });
    } catch {
      return; // "Verify the deal" says why, when the player asks
    }
    const told = kept.of(hand);
    for (const notice of unrevealedNotices(record, told?.seat ?? null, told?.event ?? null)) note(notice);
    if (!globalThis.crypto?.subtle) return;
    const why = failures(await verifyHand(record, ...kept.checking(hand)));
    if (why) warn(t("Hand {hand} is not the deal the room announced: {why}.", { hand, why }));
  }

  // A rabbit hunt (FAIRNESS.md "More cards from the same deck"): its cards held against the
  // hand's record, each where the rest of its board would have come; loudly when it fails.
  async function checkRabbit(event) {
    const hand = event.fairness.hand_id;
    let record;
    try {
      record = await request("GET", `/api/hands/${encodeURIComponent(hand)}`, undefined, { invite: invite() });
    } catch {
      return; // no record to hold it against: nothing to check
    }
    if (!globalThis.crypto?.subtle) return;
    const why = failures(await verifyRabbit(record, event));
    if (why) warn(t("The rabbit hunt of hand {hand} is not the cards of the deck the room committed to: {why}.", { hand, why }));
  }

  // The checks that failed, in the page's words, or "" when all passed.
  function failures(checks) {
    return checks.filter((check) => !check.passed).map((check) => {
      const { name, detail } = checkWords(check);
      return detail ? t("{name} ({detail})", { name, detail }) : name;
    }).join(t("; "));
  }

  function receive(message) {
    if (message.type === "welcome") player = message.player;
    else if (message.type === "table" && message.table === tableId) {
      seq = message.seq;
      sat(message.state.viewer ?? null);
    } else if (message.type === "event" && message.table === tableId && message.seq > seq) {
      seq = message.seq;
      onEvent(message.event);
    }
    return message.type === "error" && message.ref === REF;
  }

  // Moved by the tournament to another table (RULES.md 8): its own deals from now on.
  function moveTo(id) {
    tableId = id;
    announced = createAnnouncements(id);
    seat = null;
    pending = null;
    commitment = null;
    seq = 0;
  }

  return {
    receive,
    moveTo,
    get announced() {
      return announced;
    },
  };
}
