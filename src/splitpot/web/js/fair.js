// splitpot-deal-v1 (FAIRNESS.md) in the page: a player's entropy and every check of a hand's
// record, exactly as src/splitpot/verify.py makes them. Pure functions, no DOM; WebCrypto.

export const SCHEME = "splitpot-deal-v1";
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
export const CARDS = [...RANKS].flatMap((rank) => [...SUITS].map((suit) => rank + suit));
const SALT_BYTES = 16;
const SEED_BYTES = 32; // a server seed, and a player's entropy
const UNKNOWN = "??";
// Hole cards a player is dealt in each variant (FAIRNESS.md step 6; verify.py's fair.HOLE_CARDS)
const HOLE_CARDS = { o8: 4, omaha: 4, "o-hilo-noq": 4, bigo: 5 };
const ascii = new TextEncoder();

/** A value that does not fit the scheme (a bad length, a card that is no card). */
export class FairnessError extends Error {}

export function toHex(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `value` as bytes, if it is lowercase hex of `size` bytes (verify.py `_hex`). */
export function fromHex(value, size, what) {
  if (typeof value !== "string" || value.length !== 2 * size || !/^[0-9a-f]*$/.test(value)) {
    throw new FairnessError(`${what} is not ${size} bytes of lowercase hex`);
  }
  const bytes = new Uint8Array(size);
  for (let at = 0; at < size; at += 1) bytes[at] = parseInt(value.slice(2 * at, 2 * at + 2), 16);
  return bytes;
}

function join(parts) {
  const bytes = parts.map((part) => (typeof part === "string" ? ascii.encode(part) : part));
  const joined = new Uint8Array(bytes.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of bytes) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** `H` of the parts joined (`||`); a text part is its UTF-8. */
export async function sha256(...parts) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", join(parts)));
}

function u8(number) {
  if (!Number.isInteger(number) || number < 0 || number > 255) {
    throw new FairnessError(`${number} does not fit in a byte`);
  }
  return Uint8Array.of(number);
}

/** A length-prefixed string: `u32(len(utf8(s))) || utf8(s)`. */
function lp(text) {
  const data = ascii.encode(text);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, data.length);
  return join([length, data]);
}

/** FAIRNESS.md step 1: `H("splitpot-card-v1" || r || 0x00 || card)`. */
export function cardCommitment(salt, card) {
  if (!CARDS.includes(card)) {
    throw new FairnessError(`'${card}' is not a card (rank then suit, like 'As' or 'Td')`);
  }
  return sha256("splitpot-card-v1", salt, Uint8Array.of(0), card);
}

/** `D`: the hash of the 52 card commitments in pre-order. */
export function deckCommitment(commitments) {
  if (commitments.length !== CARDS.length) {
    throw new FairnessError(`a deck commitment needs 52 card commitments, not ${commitments.length}`);
  }
  return sha256(...commitments);
}

/** FAIRNESS.md step 2: `T = H("splitpot-srv-v1" || t)`. */
export function serverCommitment(seed) {
  return sha256("splitpot-srv-v1", seed);
}

/** FAIRNESS.md step 3: `u_p = H("splitpot-player-v1" || x_p)`. */
export function playerCommitment(entropy) {
  return sha256("splitpot-player-v1", entropy);
}

/** A player's part for the next hand: 32 random bytes and their commitment, as hex. */
export async function newEntropy() {
  const entropy = crypto.getRandomValues(new Uint8Array(SEED_BYTES));
  return { entropy: toHex(entropy), commitment: toHex(await playerCommitment(entropy)) };
}

/** FAIRNESS.md step 4: `K`, from the seats that contributed (`entropy`: a Map seat -> bytes),
 * in increasing seat number. */
export function dealKey(tableId, handId, deck, seed, entropy) {
  const parts = ["splitpot-deal-v1", lp(tableId), lp(handId), deck, seed];
  for (const seat of [...entropy.keys()].sort((a, b) => a - b)) parts.push(u8(seat), entropy.get(seat));
  return sha256(...parts);
}

function bigEndian(bytes) {
  return BigInt(`0x${toHex(bytes)}`);
}

/** FAIRNESS.md step 5: the Fisher-Yates shuffle of 0..51 driven by `HMAC(K, "fy" || u8(i))`. */
export async function permutation(key) {
  const hmac = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const order = CARDS.map((_, index) => index);
  for (let i = CARDS.length - 1; i > 0; i -= 1) {
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", hmac, join(["fy", u8(i)])));
    const j = Number(bigEndian(mac) % BigInt(i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** FAIRNESS.md step 6: the deck positions of each dealt-in player's hole cards (one card a
 * round) and of the five board cards (a burn before the flop, the turn and the river). */
export function dealingPositions(players, holeCards) {
  const holes = Array.from({ length: players }, () => []);
  for (let round = 0; round < holeCards; round += 1) {
    for (let player = 0; player < players; player += 1) holes[player].push(round * players + player);
  }
  return { holes, board: boardPositions(players, holeCards)[0] };
}

const STREET_SIZES = [3, 1, 1]; // the cards of the flop, the turn and the river
const STREET_ENDS = [0, 3, 4]; // the cards on a board before each street: where a run may start

/** The deck positions of the five cards of each board (FAIRNESS.md "More cards from the same
 * deck", RULES.md 7; verify.py's fair.board_positions): one board, a burn before each street;
 * a double board (`boards` 2), each street to the first board and then the second, a burn
 * before each; a board run twice (`shared`: the cards both runs share, 0, 3 or 4), the whole
 * first run, then the second run's own streets, a burn before each. A card never dealt sits
 * where it would have come (the rabbit hunt). */
export function boardPositions(players, holeCards, boards = 1, shared = null) {
  if (shared !== null && (boards !== 1 || !STREET_ENDS.includes(shared))) {
    throw new FairnessError(`a board run twice shares 0, 3 or 4 cards of one board, not ${shared}`);
  }
  let at = players * holeCards;
  const dealt = Array.from({ length: boards }, () => []);
  const street = (board, size) => {
    for (let card = 1; card <= size; card += 1) board.push(at + card); // after its burn
    at += 1 + size;
  };
  for (const size of STREET_SIZES) for (const board of dealt) street(board, size);
  if (shared === null) return dealt;
  const second = dealt[0].slice(0, shared);
  STREET_SIZES.forEach((size, index) => {
    if (STREET_ENDS[index] >= shared) street(second, size);
  });
  return [dealt[0], second];
}

/** A board run twice: the cards both runs share, the last street's end up to which the two
 * agree (verify.py's fair.runs_share). */
export function runsShare(first, second) {
  let agree = 0;
  while (agree < Math.min(first.length, second.length) && first[agree] === second[agree]) agree += 1;
  return Math.max(...STREET_ENDS.filter((end) => end <= agree));
}

/* ---------- the checks of a record (verify.py verify_hand) ---------- */

class MissingField extends Error {}

/** `object[key]`, or a MissingField error (a KeyError in verify.py). */
function field(object, key) {
  if (object === null || typeof object !== "object" || !(key in object)) {
    throw new MissingField(`the field ${repr(key)} is missing`);
  }
  return object[key];
}

/** A JSON value as Python's repr() writes it: how verify.py's messages show a bad field. */
function repr(value) {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replaceAll("'", "\\'")}'`;
  }
  if (Array.isArray(value)) return `[${value.map(repr).join(", ")}]`;
  return `{${Object.entries(value).map(([key, item]) => `${repr(key)}: ${repr(item)}`).join(", ")}}`;
}

/** A value for an error message, cut when it is long (verify.py's shown). */
function shown(value, most = 60) {
  const text = repr(value);
  return text.length <= most ? text : `${text.slice(0, most)}... (${text.length} characters)`;
}

/** A number of the record (a JSON number or its digits) from low to high, as verify.py's _whole. */
function whole(value, what, low, high) {
  if (!(Number.isInteger(value) || typeof value === "string")) {
    throw new FairnessError(`${what} is ${shown(value)}, not a whole number`);
  }
  const number = typeof value === "number" ? value : /^[0-9]{1,9}$/.test(value) ? Number(value) : -1;
  if (!(number >= low && number <= high)) {
    throw new FairnessError(`${what} is ${shown(value)}, not a number from ${low} to ${high}`);
  }
  return number;
}

function text(value, what) {
  if (typeof value !== "string") throw new FairnessError(`${what} is ${shown(value)}, not a string`);
  return value;
}

function cardsOf(value, what) {
  if (typeof value !== "string") throw new FairnessError(`${what} is ${shown(value)}, not a string of cards`);
  const cards = [];
  for (let at = 0; at < value.length; at += 2) cards.push(value.slice(at, at + 2));
  return cards;
}

function check(name, passed, detail = "") {
  return { name, passed, detail };
}

function list(value, what) {
  if (!Array.isArray(value)) throw new FairnessError(`${what} is not a list`);
  return value;
}

/**
 * Every check of FAIRNESS.md on one hand's record, in order: [{name, passed, detail}], the
 * same names, verdicts and details as verify.py; with the hand's `announced` start (the
 * `hand_started` event as this page received it) the checks of "What the player's own
 * client checks" too, and with `own` ({seat, entropy} as hex) that the player's entropy is
 * in the deal. A check that cannot be made (a missing or malformed field) fails as "record".
 */
export async function verifyHand(record, announced = null, own = null) {
  const fairness = record?.fairness;
  if (fairness === null || typeof fairness !== "object" || Array.isArray(fairness)) {
    return [check("fairness", false, "the record has no fairness object")];
  }
  try {
    const found = await checks(record, fairness);
    if (announced !== null) found.push(...announcedChecks(record, fairness, announced));
    if (own !== null) found.push(...await ownChecks(fairness, announced, own));
    return found;
  } catch (error) {
    if (!(error instanceof FairnessError || error instanceof MissingField || error instanceof TypeError)) throw error;
    return [check("record", false, `cannot be checked: ${error.message}`)];
  }
}

async function checks(record, fairness) {
  const { found, commitments, order } = await shuffled(record, fairness);
  const revealed = await revealedCards(field(fairness, "revealed"), commitments, order, found);
  return [...found, ...dealingOrderChecks(record, fairness, revealed)];
}

/** The deal's checks (the scheme, T, each u, D, the hand), its 52 commitments and the shuffle
 * recomputed from the key (verify.py _shuffled). */
async function shuffled(record, fairness) {
  const scheme = field(fairness, "scheme");
  const found = [check("scheme", scheme === SCHEME, String(scheme))];
  const seed = fromHex(field(fairness, "server_seed"), SEED_BYTES, "server_seed");
  const served = toHex(await serverCommitment(seed));
  found.push(check("server seed", served === field(fairness, "server_commitment"), "T = H(t)"));
  const entropy = new Map();
  for (const player of list(field(fairness, "players"), "players")) {
    const seat = whole(field(player, "seat"), "a player's seat", 0, 255);
    const name = `seat ${seat}'s entropy`;
    if (field(player, "entropy") === null) {
      found.push(check(name, true, "not revealed: dealt without"));
      continue;
    }
    const value = fromHex(player.entropy, SEED_BYTES, name);
    const made = toHex(await playerCommitment(value)) === field(player, "commitment");
    found.push(check(name, made, "u = H(x)"));
    entropy.set(seat, value);
  }
  const commitments = list(field(fairness, "commitments"), "commitments").map((c) => fromHex(c, 32, "a card commitment"));
  const deck = await deckCommitment(commitments);
  found.push(check("deck commitment", toHex(deck) === field(fairness, "deck_commitment"), "D"));
  const tableId = field(fairness, "table_id");
  const handId = field(fairness, "hand_id");
  if (tableId !== ("table" in record ? record.table : tableId) || handId !== record.id) {
    found.push(check("hand", false, "the fairness object is another hand's"));
  }
  const key = await dealKey(text(tableId, "table_id"), text(handId, "hand_id"), deck, seed, entropy);
  return { found, commitments, order: await permutation(key) };
}

/** The cards revealed ({position, card, salt}), each checked against the commitment of its
 * place in the deck, a check each pushed to `found` (verify.py _revealed). */
async function revealedCards(entries, commitments, order, found) {
  const revealed = new Map();
  for (const entry of list(entries, "revealed")) {
    const position = whole(field(entry, "position"), "a revealed position", 0, CARDS.length - 1);
    const card = text(field(entry, "card"), `the card at position ${position}`);
    const salt = fromHex(field(entry, "salt"), SALT_BYTES, `the salt at position ${position}`);
    const matches = toHex(await cardCommitment(salt, card)) === toHex(commitments[order[position]]);
    found.push(check(`card ${card} at position ${position}`, matches, "c = H(r, card)"));
    revealed.set(position, card);
  }
  return revealed;
}

/** FAIRNESS.md step 6: the seats dealt in, in dealing order, from the first seat left of the button. */
export function dealingOrder(button, seats) {
  const ordered = [...seats].sort((a, b) => a - b);
  const first = Math.max(0, ordered.findIndex((seat) => seat > button));
  return [...ordered.slice(first), ...ordered.slice(0, first)];
}

function seatsOf(record) {
  return list(field(record, "players"), "players").map((player) => whole(field(player, "seat"), "a player's seat", 0, 255));
}

/** How many hole cards each player was dealt: what the record's hands hold, not its fairness object's word. */
function holeCardsOf(record, seats) {
  const variant = field(record, "game")?.variant;
  if (typeof variant !== "string" || !Object.hasOwn(HOLE_CARDS, variant)) {
    throw new FairnessError(`the record's variant is ${shown(variant)}, not one of ${Object.keys(HOLE_CARDS).join(", ")}`);
  }
  const holeCards = HOLE_CARDS[variant];
  const holes = list(field(record, "holes"), "holes").map((hole) => cardsOf(hole, "a player's hole cards"));
  if (holes.length !== seats.length) throw new FairnessError(`the record has ${seats.length} players and ${holes.length} hands`);
  holes.forEach((hole, index) => {
    if (hole.length !== holeCards) {
      throw new FairnessError(`seat ${seats[index]}'s hand holds ${hole.length} cards, where ${variant} deals ${holeCards}`);
    }
  });
  return holeCards;
}

/** A value derived from the rules, and the record's claim of it, which must agree (verify.py _derived). */
function derived(name, made, claimed, said, how) {
  const agrees = JSON.stringify(made) === JSON.stringify(claimed);
  let detail = `${said(made)}, ${how}`;
  if (!agrees) detail += `; the record says ${said(claimed)}`;
  return check(name, agrees, detail);
}

function seatList(seats) {
  return seats.length ? `seats ${seats.join(", ")}` : "no seat";
}

/** Each card the record shows sits at the place FAIRNESS.md step 6 deals it from, the
 * order of dealing derived from the record's button and seats, the hole cards from its hands. */
function dealingOrderChecks(record, fairness, revealed) {
  const seats = seatsOf(record);
  const button = whole(field(record, "button"), "the button", 0, seats.length - 1);
  const order = dealingOrder(seats[button], seats);
  const claimed = list(field(fairness, "seats_dealt"), "seats_dealt").map((seat) => whole(seat, "a seat dealt", 0, 255));
  const holeCards = holeCardsOf(record, seats);
  const found = [
    derived("seats dealt", order, claimed, seatList, `from the button (seat ${seats[button]})`),
    derived("hole cards", holeCards, field(fairness, "hole_cards"), shown, "each"),
  ];
  const boards = boardCount(record);
  if (order.length * holeCards + 8 * boards > CARDS.length) { // the engine's deck_size
    const on = boards === 1 ? "" : " on two boards";
    throw new FairnessError(`${order.length} seats of ${holeCards} hole cards${on} are more than a deck deals`);
  }
  const { holes } = dealingPositions(order.length, holeCards);
  const expected = new Map(); // position -> [the card, where it went]
  for (const [where, cards, positions] of boardsOf(record, order.length, holeCards)) {
    positions.forEach((position, index) => {
      // two runs share their first cards
      if (index < cards.length && !expected.has(position)) expected.set(position, [cards[index], where]);
    });
  }
  const bySeat = new Map(seats.map((seat, index) => [seat, index]));
  order.forEach((seat, index) => {
    const hole = cardsOf(record.holes[bySeat.get(seat)], `seat ${seat}'s hole cards`);
    holes[index].forEach((position, round) => {
      if (hole[round] !== UNKNOWN) expected.set(position, [hole[round], `seat ${seat}`]);
    });
  });
  return [...found, ...asDealt(expected, revealed)];
}

/** Each card expected at a deck position (with where it went) is the card revealed there; a
 * position revealed where no card was expected fails (verify.py _as_dealt). */
function asDealt(expected, revealed) {
  const found = [];
  for (const position of [...expected.keys()].sort((a, b) => a - b)) {
    const [card, where] = expected.get(position);
    let detail = `${card} to ${where} from position ${position}`;
    if (!revealed.has(position)) detail += ": not revealed";
    found.push(check(`dealt ${card}`, revealed.get(position) === card, detail));
  }
  for (const position of [...revealed.keys()].filter((p) => !expected.has(p)).sort((a, b) => a - b)) {
    found.push(check(`position ${position}`, false, "revealed, but no card of the hand"));
  }
  return found;
}

/** The boards a hand is dealt (RULES.md 7: 2, a double board), by its `game`. */
function boardCount(record) {
  const game = field(record, "game");
  return whole("boards" in game ? game.boards : 1, "game.boards", 1, 2);
}

/** A JSON value's truth as Python reads it (verify.py's `or`). */
function truthy(value) {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Each board the record shows, [name, cards, the deck positions of its five cards]: the
 * board, and `boards`' second (a double board's, by game.boards 2, or a second run, by runs
 * 2), dealt in the order of RULES.md 7 (verify.py _boards). */
function boardsOf(record, players, holeCards) {
  const first = cardsOf(field(record, "board"), "the board");
  const double = boardCount(record) === 2;
  const runs = record.runs ?? null;
  const twice = runs !== null && whole(runs, "runs", 1, 2) === 2;
  const boards = truthy(record.boards) ? record.boards : [record.board];
  if (boards[0] !== record.board) {
    throw new FairnessError(`boards: the first board ${shown(boards[0])} is not the board ${shown(record.board)}`);
  }
  const second = boards.length > 1 ? cardsOf(boards[1], "board 2") : [];
  if (second.length && double === twice) {
    throw new FairnessError("the record's second board is neither a double board's nor a second run's");
  }
  const positions = twice
    ? boardPositions(players, holeCards, 1, runsShare(first, second))
    : boardPositions(players, holeCards, double ? 2 : 1);
  return [["the board", first], ["board 2", second]].slice(0, positions.length).map(([name, cards], index) => [name, cards, positions[index]]);
}

/**
 * FAIRNESS.md "More cards from the same deck": the cards a rabbit hunt showed (the `rabbit`
 * event as this page received it, its `fairness` revealing each with its salt) are the
 * cards of the hand's deck where the rest of each board would have come from, after the
 * boards the hand's record shows: [{name, passed, detail}], as verify.py's verify_rabbit.
 * Checked under the record's deal, whose own checks are verifyHand's.
 */
export async function verifyRabbit(record, rabbit) {
  try {
    const fairness = field(record, "fairness");
    const hunted = field(rabbit, "fairness");
    const { commitments, order } = await shuffled(record, fairness);
    const found = [];
    if (field(hunted, "hand_id") !== field(fairness, "hand_id")) {
      found.push(check("hand", false, "the fairness object is another hand's"));
    }
    const revealed = await revealedCards(field(hunted, "revealed"), commitments, order, found);
    const seats = seatsOf(record);
    const boards = boardsOf(record, seats.length, holeCardsOf(record, seats));
    const expected = new Map(); // position -> [the card, where it went]
    boards.forEach(([, cards, positions], index) => {
      const number = index + 1;
      const where = boards.length > 1 ? `the rabbit of board ${number}` : "the rabbit";
      const huntedCards = [];
      for (const street of list(field(rabbit, "streets"), "streets")) {
        const board = street !== null && typeof street === "object" && "board_number" in street ? street.board_number : 1;
        if (whole(board, "board_number", 1, 2) !== number) continue;
        for (const card of list(field(street, "cards"), "cards")) huntedCards.push(text(card, where));
      }
      const rest = positions.slice(cards.length); // where the rest of this board would have come
      const detail = `shows ${huntedCards.length} of the ${rest.length} to come after the ${cards.length} dealt`;
      found.push(check(where, huntedCards.length === rest.length, detail));
      rest.forEach((position, at) => {
        if (at < huntedCards.length) expected.set(position, [huntedCards[at], where]);
      });
    });
    return [...found, ...asDealt(expected, revealed)];
  } catch (error) {
    if (!(error instanceof FairnessError || error instanceof MissingField || error instanceof TypeError)) throw error;
    return [check("the rabbit", false, `cannot be checked: ${error.message}`)];
  }
}

/* ---------- the record against its announcement (verify.py _announced, _own) ---------- */

/** The record against the hand's announcement: the same hand, `D`, `T`, exactly the
 * commitments announced, the order of dealing from the announced button and seats. */
function announcedChecks(record, fairness, started) {
  const announced = field(started, "fairness");
  if (announced === null || typeof announced !== "object") {
    return [check("announced", false, "the hand was announced without its commitments")];
  }
  const tableId = field(fairness, "table_id");
  const same = field(fairness, "hand_id") === field(started, "hand") && ("table" in started ? started.table : tableId) === tableId;
  const found = [check("announced hand", same, named(started.hand))];
  for (const [key, letter] of [["deck_commitment", "D"], ["server_commitment", "T"]]) {
    const agrees = field(fairness, key) === field(announced, key);
    found.push(check(`announced ${key.replace("_", " ")}`, agrees, agrees ? `${letter} as announced` : `${letter} is not the one announced`));
  }
  const bySeat = (players, what) => new Map(list(players, what).map((p) => [whole(field(p, "seat"), what === "players" ? "a player's seat" : "an announced seat", 0, 255), field(p, "commitment")]));
  const told = bySeat(field(announced, "players"), "announced players");
  const listed = bySeat(field(fairness, "players"), "players");
  for (const seat of [...new Set([...told.keys(), ...listed.keys()])].sort((a, b) => a - b)) {
    let detail;
    if (!listed.has(seat)) detail = "announced, missing from the record";
    else if (!told.has(seat)) detail = "in the record, never announced";
    else detail = told.get(seat) === listed.get(seat) ? "as announced" : "not the one announced";
    found.push(check(`seat ${seat}'s commitment`, detail === "as announced", detail));
  }
  for (const player of fairness.players) {
    if (player.entropy === null && told.has(player.seat)) {
      found.push(check(`seat ${player.seat}'s entropy`, true, "missing: the room dealt without it"));
    }
  }
  const seats = list(field(started, "seats"), "seats").map((s) => whole(field(s, "seat"), "an announced seat", 0, 255));
  const button = whole(field(started, "button"), "the announced button", 0, 255);
  const order = dealingOrder(button, seats);
  const dealt = list(field(fairness, "seats_dealt"), "seats_dealt").map((seat) => whole(seat, "a seat dealt", 0, 255));
  found.push(derived("announced dealing order", order, dealt, seatList, `from the announced button (seat ${button})`));
  const sorted = (values) => [...values].sort((a, b) => a - b);
  found.push(derived("announced seats", sorted(seats), sorted(seatsOf(record)), seatList, "as announced"));
  return found;
}

/** The player's own entropy: announced under its commitment, in the record, so in the key. */
async function ownChecks(fairness, started, own) {
  const commitment = toHex(await playerCommitment(fromHex(own.entropy, SEED_BYTES, "your entropy")));
  const found = [];
  if (started !== null) {
    const told = new Map(started.fairness.players.map((p) => [p.seat, p.commitment]));
    let detail;
    if (!told.has(own.seat)) detail = "the announcement left out your commitment";
    else detail = told.get(own.seat) === commitment ? "announced" : "another was announced";
    found.push(check("your commitment", detail === "announced", detail));
  }
  const mine = fairness.players.filter((p) => p.seat === own.seat);
  let detail;
  if (!mine.length) detail = `seat ${own.seat} is not among the deal's players`;
  else if (mine[0].entropy === null) detail = "missing: the room dealt without your entropy";
  else detail = mine[0].entropy === own.entropy ? "in the deal" : "not yours";
  found.push(check("your entropy", detail === "in the deal", detail));
  return found;
}

/** A record's id as a report names it: as written, or cut when it is long (verify.py _named). */
function named(value) {
  const written = String(value);
  return written.length <= 60 ? written : shown(value);
}
