// The hands panel of a table: the last 50 hands, a step-by-step replayer (street by street,
// with the hand helper), downloads (PokerStars, PHH, JSON), the deal's checks (fair.js),
// session stats and the settle-up.

import { ApiError, request, sentence } from "./api.js";
import { cardElement } from "./cards.js";
import { element } from "./dom.js";
import { verifyHand } from "./fair.js";

const LIMIT = 50;
const PLAY_MS = 1300; // a step every 1.3 s when the replay plays by itself
const STREETS = ["preflop", "flop", "turn", "river", "showdown"];
const STREET_NAMES = { preflop: "Preflop", flop: "Flop", turn: "Turn", river: "River", showdown: "Showdown" };
const BOARD_SIZE = { preflop: 0, flop: 3, turn: 4, river: 5, showdown: 5 };
const VARIANT_NAMES = { o8: "Omaha Hi/Lo", omaha: "Omaha", bigo: "Big O", "o-hilo-noq": "Omaha Hi/Lo, no qualifier" };
const STRUCTURE_NAMES = { "pot-limit": "Pot Limit", "no-limit": "No Limit", limit: "Limit" };
const DOWNLOADS = [
  { format: "pokerstars", label: "PokerStars", extension: "txt", type: "text/plain", title: "PokerStars text, for trackers" },
  { format: "phh", label: "PHH", extension: "phh", type: "text/plain", title: "Poker Hand History (phh-std)" },
  { format: "ohh", label: "OHH", extension: "ohh", type: "application/json", title: "Open Hand History JSON, for trackers" },
  { format: "json", label: "JSON", extension: "json", type: "application/json", title: "splitpot JSON" },
];
// a post that is a bet in the round (the rest go straight into the pot)
const LIVE_POSTS = new Set(["small blind", "big blind", "straddle", "live post"]);
const POST_WORDS = {
  "small blind": "posts the small blind",
  "big blind": "posts the big blind",
  straddle: "straddles",
  "live post": "posts a live big blind",
  "dead small blind": "posts a dead small blind",
  ante: "posts an ante",
};

const ICONS = {
  first: "M5 5h2.5v14H5zM19 5v14L8.5 12z",
  previous: "M17 5v14L6 12z",
  next: "M7 5v14l11-7z",
  last: "M16.5 5H19v14h-2.5zM5 5v14l10.5-7z",
};
const SVG = "http://www.w3.org/2000/svg";

const chips = new Intl.NumberFormat();
let panels = 0; // to give each mounted panel its own ids

function button(text, className = "") {
  const node = element("button", className, text);
  node.type = "button";
  return node;
}

function iconButton(name, label, className = "step-button") {
  const node = button("", className);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "20");
  svg.setAttribute("height", "20");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  node.append(svg);
  node.setAttribute("aria-label", label);
  return node;
}

function signed(amount) {
  if (amount > 0) return `+${chips.format(amount)}`;
  if (amount < 0) return `−${chips.format(-amount)}`;
  return "0";
}

function cardsOf(text) {
  const cards = [];
  for (let at = 0; at + 1 < (text || "").length; at += 2) cards.push(text.slice(at, at + 2));
  return cards;
}

function handNumber(doc) {
  const tail = doc.id.split("-").pop();
  return /^\d+$/.test(tail) ? `#${tail}` : doc.id;
}

function gameLine(doc) {
  const game = doc.game;
  const variant = VARIANT_NAMES[game.variant] || game.variant;
  const structure = STRUCTURE_NAMES[game.structure] || game.structure;
  const stakes = game.structure === "limit"
    ? `${chips.format(game.small_bet)}/${chips.format(game.big_bet)}`
    : `${chips.format(game.small_blind)}/${chips.format(game.big_blind)}`;
  return `${variant} · ${structure} ${stakes}`;
}

function nets(doc) {
  return doc.players.map((player, index) => doc.result.stacks[index] - player.stack);
}

/* ---------- the replay: a hand document as steps ---------- */

/**
 * The hand as a list of steps, each a picture of the table after one thing happened.
 * splitpot JSON lists the actions without streets: a betting round ends, as the rules say,
 * once every player who can still bet has acted and matched the biggest bet.
 */
export function replaySteps(doc) {
  const count = doc.players.length;
  const holes = (doc.holes || []).map(cardsOf);
  const board = cardsOf(doc.board);
  const state = {
    street: "preflop",
    stacks: doc.players.map((player) => player.stack),
    bets: new Array(count).fill(0),
    folded: new Array(count).fill(false),
    acted: new Array(count).fill(false),
    said: new Array(count).fill(""),
    shown: new Array(count).fill(false),
    mucked: new Array(count).fill(false),
    pot: 0,
    faceUp: false,
    final: false,
  };
  const steps = [];
  const name = (index) => doc.players[index]?.name ?? `player ${index + 1}`;
  const biggest = () => Math.max(0, ...state.bets);
  const live = () => state.folded.flatMap((folded, index) => (folded ? [] : [index]));
  const canBet = () => live().filter((index) => state.stacks[index] > 0);

  const snapshot = (text, actor = null) => {
    steps.push({
      street: state.street,
      text,
      actor,
      board: board.slice(0, BOARD_SIZE[state.street]),
      pot: state.pot,
      total: state.pot + state.bets.reduce((sum, bet) => sum + bet, 0),
      seats: doc.players.map((player, index) => ({
        name: player.name,
        seat: player.seat,
        button: index === doc.button,
        you: index === doc.you,
        stack: state.stacks[index],
        bet: state.bets[index],
        folded: state.folded[index],
        allIn: !state.folded[index] && state.stacks[index] === 0,
        said: state.said[index],
        cards: holes[index] || [],
        faceUp: index === doc.you || state.shown[index] || state.final
          || ((state.faceUp || state.street === "showdown") && !state.folded[index] && !state.mucked[index]),
        mucked: state.mucked[index],
      })),
    });
  };

  const put = (index, to) => {
    const added = Math.min(Math.max(0, to - state.bets[index]), state.stacks[index]);
    state.stacks[index] -= added;
    state.bets[index] += added;
    return added;
  };

  // the bet nobody called goes back (RULES.md 4.5), then the bets join the pot
  const gather = () => {
    const sorted = [...state.bets].sort((a, b) => b - a);
    const excess = sorted[0] - (sorted[1] || 0);
    if (excess > 0) {
      const top = state.bets.indexOf(sorted[0]);
      state.bets[top] -= excess;
      state.stacks[top] += excess;
    }
    state.pot += state.bets.reduce((sum, bet) => sum + bet, 0);
    state.bets.fill(0);
    state.acted.fill(false);
  };

  const roundOver = () => {
    const players = live();
    if (players.length <= 1) return true;
    const betting = canBet();
    const top = biggest();
    if (betting.length === 0) return true;
    if (betting.length === 1 && players.length > 1) {
      const [last] = betting;
      return state.bets[last] >= top && (state.acted[last] || top > 0 || state.street !== "preflop");
    }
    return betting.every((index) => state.acted[index] && state.bets[index] === top);
  };

  // no more betting with the board to come: every hand still in is turned up (RULES.md 5)
  const turnFaceUp = () => {
    state.faceUp = true;
    snapshot("No more betting: the hands are turned face up");
  };

  const nextStreet = () => {
    gather();
    state.said = state.folded.map((folded) => (folded ? "folded" : ""));
    const at = STREETS.indexOf(state.street);
    state.street = STREETS[at + 1];
    if (state.street === "showdown") {
      snapshot("Showdown");
      return;
    }
    const cards = board.slice(BOARD_SIZE[STREETS[at]], BOARD_SIZE[state.street]);
    snapshot(`${STREET_NAMES[state.street]}: ${cards.join(" ")}`);
  };

  // the posts and the deal
  for (const post of doc.posts || []) {
    const index = post.player;
    if (LIVE_POSTS.has(post.kind)) put(index, state.bets[index] + post.amount);
    else {
      const paid = Math.min(post.amount, state.stacks[index]);
      state.stacks[index] -= paid;
      state.pot += paid;
    }
    state.said[index] = `${post.kind} ${chips.format(post.amount)}`;
  }
  const posted = (doc.posts || []).map((post) => `${name(post.player)} ${POST_WORDS[post.kind] || post.kind}, ${chips.format(post.amount)}`);
  snapshot(`${posted.join(". ")}${posted.length ? ". " : ""}The cards are dealt.`);

  for (const { player: index, action } of doc.actions || []) {
    const [verb, amountText] = String(action).split(" ");
    const amount = Number(amountText);
    if ((verb === "show" || verb === "muck") && state.street !== "showdown") {
      while (state.street !== "showdown") nextStreet();
    }
    const before = biggest();
    let text;
    if (verb === "fold") {
      state.folded[index] = true;
      text = `${name(index)} folds`;
    } else if (verb === "check") {
      text = `${name(index)} checks`;
    } else if (verb === "call") {
      const added = put(index, before);
      text = `${name(index)} calls ${chips.format(added)}`;
    } else if (verb === "bet" || verb === "raise") {
      put(index, amount);
      text = verb === "bet" ? `${name(index)} bets ${chips.format(amount)}` : `${name(index)} raises to ${chips.format(amount)}`;
    } else if (verb === "allin") {
      put(index, state.bets[index] + state.stacks[index]);
      text = `${name(index)} goes all in for ${chips.format(state.bets[index])}`;
    } else if (verb === "show") {
      state.shown[index] = true;
      text = `${name(index)} shows ${(holes[index] || []).join(" ")}`;
    } else if (verb === "muck") {
      state.mucked[index] = true;
      text = `${name(index)} mucks`;
    } else {
      text = `${name(index)}: ${action}`;
    }
    if (state.bets[index] > before) state.acted.fill(false);
    state.acted[index] = true;
    if (["call", "bet", "raise"].includes(verb) && state.stacks[index] === 0 && !state.folded[index]) {
      text += " and is all in";
    }
    state.said[index] = text.slice(name(index).length + 1);
    snapshot(text, index);
    if (state.street !== "showdown" && live().length > 1 && roundOver()) {
      if (canBet().length <= 1 && state.street !== "river") turnFaceUp();
      nextStreet();
      if (state.faceUp) while (state.street !== "showdown") nextStreet();
    }
  }

  // everyone but one folded, or the board still to come after the last action
  if (live().length > 1) {
    if (state.street !== "showdown" && !state.faceUp) turnFaceUp();
    while (state.street !== "showdown") nextStreet();
  }
  gather();
  state.said = state.folded.map((folded) => (folded ? "folded" : ""));
  const won = wins(doc);
  const winners = doc.awards
    ? awardSentences(doc.awards, (seat) => name(doc.players.findIndex((player) => player.seat === seat)))
    : [...won].map(([index, labels]) => `${name(index)} ${labels.join(" + ")}`);
  state.stacks = [...doc.result.stacks];
  state.pot = 0;
  for (const [index, labels] of won) state.said[index] = labels.join(" + ");
  state.final = true; // the hand is over: the cards mucked at the showdown are known
  snapshot(winners.length ? winners.join(". ") : "The hand is over", null);
  steps[steps.length - 1].final = true;
  return steps;
}

/**
 * What each player won, by player index, for the seats: "HIGH 6", "LOW 4", "WINS 12" (a
 * whole pot), "SCOOPS 12" (both halves), from the document's awards (the room's record of
 * who won which half); "collects 12" from the result where a document has no awards.
 */
function wins(doc) {
  const won = new Map();
  const add = (index, label) => won.set(index, [...(won.get(index) || []), label]);
  if (doc.awards) {
    for (const award of doc.awards) {
      if (!award.amount) continue;
      const index = doc.players.findIndex((player) => player.seat === award.seat);
      const whole = award.low ? "SCOOPS" : "WINS";
      const share = award.share === "whole" ? whole : award.share.toUpperCase();
      add(index, `${share} ${chips.format(award.amount)}`);
    }
  } else {
    doc.result.collected.forEach((amount, index) => {
      if (amount > 0) add(index, `collects ${chips.format(amount)}`);
    });
  }
  return won;
}

/** Pot `index` of `count` as the dealer names it (dealer.pot_name): "the pot", "the main
 * pot", "the side pot", "side pot 2". */
function potName(index, count) {
  if (count === 1) return "the pot";
  if (index === 0) return "the main pot";
  return count === 2 ? "the side pot" : `side pot ${index}`;
}

function listed(names) {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * The awards in the dealer's words (dealer.py, RULES.md 5 "Reporting"), one sentence per
 * part of a pot, naming the pot and the half: "Yuv wins the high half of the main pot,
 * 788, with two pair, Kings and Fives", "Ann scoops the pot, 12, with 8,6,4,2,A, and a
 * flush, Ace high"; tied players split a part, the odd chips named.
 */
function awardSentences(awards, nameOf) {
  const count = Math.max(0, ...awards.map((award) => award.pot + 1));
  const parts = [];
  for (const award of awards) {
    const last = parts[parts.length - 1];
    if (last && last[0].pot === award.pot && last[0].share === award.share) last.push(award);
    else parts.push([award]);
  }
  return parts.map((part) => {
    const [first] = part;
    const where = potName(first.pot, count);
    const what = first.share === "whole" ? where : `the ${first.share} half of ${where}`;
    const both = first.share === "whole" && Boolean(first.low);
    const hands = [first.low?.name, first.high?.name].filter(Boolean);
    const withHand = hands.length ? `, with ${hands.join(", and ")}` : "";
    const who = listed(part.map((award) => nameOf(award.seat)));
    const amounts = part.map((award) => award.amount);
    const [fewest, most] = [Math.min(...amounts), Math.max(...amounts)];
    const total = chips.format(amounts.reduce((sum, amount) => sum + amount, 0));
    if (part.length === 1) return `${who} ${both ? "scoops" : "wins"} ${what}, ${total}${withHand}`;
    if (fewest === most) {
      const verb = both ? "tie for high and low and split" : "split";
      return `${who} ${verb} ${what}, ${chips.format(fewest)} each${withHand}`;
    }
    if (fewest === 0) { // fewer chips than tied players: only the odd chips are paid
      const paid = part.filter((award) => award.amount).map((award) => nameOf(award.seat));
      const detail = paid.length === 1 ? `${paid[0]} gets the odd chip` : `${listed(paid)} get the odd chips, 1 each`;
      return `${who} ${both ? "tie for high and low in" : "tie for"} ${what}, ${total}${withHand}: ${detail}`;
    }
    const odd = amounts.filter((amount) => amount === fewest + 1).length === 1 ? "the odd chip" : "an odd chip";
    const detail = part.map((award) => `${nameOf(award.seat)} ${chips.format(award.amount)}`
      + (award.amount > fewest ? ` (${odd})` : "")).join(", ");
    return `${who} ${both ? "tie for high and low and split" : "split"} ${what}, ${total}${withHand}: ${detail}`;
  });
}

/** The pots at the end: "Total pot 120 · main 90 · side pot 30 · rake 2". */
function finalPots(result) {
  const parts = [`Total pot ${chips.format(result.total_pot)}`];
  const pots = result.pots || [];
  if (pots.length > 1) {
    pots.forEach((pot, index) => {
      parts.push(`${index === 0 ? "main" : pots.length > 2 ? `side pot ${index}` : "side pot"} ${chips.format(pot.amount)}`);
    });
  }
  if (result.rake) parts.push(`rake ${chips.format(result.rake)}`);
  return parts.join(" · ");
}

/* ---------- downloads ---------- */

/** Why a format cannot hold the hand (docs/protocol.md, GET /api/hands), or null. */
function cannotWrite(doc, format) {
  if (format === "pokerstars" && doc.game.variant === "o-hilo-noq") {
    return "PokerStars text has no name for Omaha Hi/Lo without a qualifier.";
  }
  if (format === "ohh" && doc.game.variant === "o-hilo-noq") {
    return "OHH has no game type for Omaha Hi/Lo without a qualifier.";
  }
  if (format === "phh" && (doc.posts || []).some((post) => post.kind === "live post" || post.kind === "dead small blind")) {
    return "PHH has no field for this hand's live or dead post.";
  }
  return null;
}

function save(text, filename, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = element("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function download(handId, choice, invite, status) {
  status.textContent = "";
  try {
    const answer = await request("GET", `/api/hands/${encodeURIComponent(handId)}?format=${choice.format}`, undefined, { invite });
    const text = typeof answer === "string" ? answer : `${JSON.stringify(answer, null, 2)}\n`;
    save(text, `${handId}.${choice.extension}`, choice.type);
  } catch (error) {
    status.textContent = `${choice.label}: ${sentence(error.message)}`;
  }
}

/* ---------- the session, from the table's ledger (GET /api/tables/{id}/ledger.csv) ---------- */

/** The rows of a CSV text (RFC 4180: a quoted field may hold commas, quotes and newlines). */
function csvRows(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        field += '"';
        at += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[at + 1] === "\n") at += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += char;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/**
 * Each player's session at the table from its ledger: hands dealt (a hand_result entry
 * each, zero included), hands won (a positive result), chips bought in (buy-ins and
 * top-ups) and the net result; and how many hands the table has dealt.
 */
export function sessionStats(csv) {
  const [header = [], ...rows] = csvRows(csv);
  const column = Object.fromEntries(header.map((name, index) => [name, index]));
  const players = new Map();
  const hands = new Set();
  for (const row of rows) {
    const kind = row[column.kind];
    if (row[column.account] !== "table" || !["hand_result", "buy_in", "top_up"].includes(kind)) continue;
    const name = row[column.player];
    const amount = Number(row[column.amount]);
    const stat = players.get(name) || { name, hands: 0, won: 0, boughtIn: 0, net: 0 };
    if (kind === "hand_result") {
      stat.hands += 1;
      stat.net += amount;
      if (amount > 0) stat.won += 1;
      hands.add(row[column.hand]);
    } else stat.boughtIn += amount;
    players.set(name, stat);
  }
  return { hands: hands.size, players: [...players.values()] };
}

/* ---------- the panel ---------- */

/**
 * Mounts the hands panel in container for tableId (with its invite, or null).
 * Returns {refresh()}, to call after each hand_ended.
 */
export function mountHands(container, { tableId, invite = null, announced = null } = {}) {
  // the viewer (the contract's `me`) is told by each hand document's `you`
  panels += 1;
  const id = (name) => `hands${panels}-${name}`;
  let documents = [];
  let open = null; // {doc, steps, at}
  const helperCache = new Map();
  let helperAvailable = true;

  const root = element("section", "hands");
  root.setAttribute("aria-label", "Hands and session");
  const tabs = element("div", "hands-tabs");
  tabs.setAttribute("role", "tablist");
  tabs.setAttribute("aria-label", "Hands and session");
  const views = {};
  const tabButtons = {};
  for (const [key, label] of [["hands", "Hands"], ["stats", "Session"], ["settle", "Settle up"]]) {
    const tab = button(label, "hands-tab");
    tab.id = id(`tab-${key}`);
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-controls", id(`view-${key}`));
    tab.dataset.view = key;
    const view = element("div", `hands-view view-${key}`);
    view.id = id(`view-${key}`);
    view.setAttribute("role", "tabpanel");
    view.setAttribute("aria-labelledby", tab.id);
    view.tabIndex = 0;
    tabButtons[key] = tab;
    views[key] = view;
    tabs.append(tab);
  }
  const error = element("p", "hands-error error-box");
  error.setAttribute("role", "alert");
  root.append(tabs, error, ...Object.values(views));
  container.replaceChildren(root);

  function choose(key, focus = false) {
    for (const [name, tab] of Object.entries(tabButtons)) {
      const selected = name === key;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      views[name].hidden = !selected;
    }
    if (focus) tabButtons[key].focus();
  }
  tabs.addEventListener("click", (event) => {
    const tab = event.target.closest("[role=tab]");
    if (tab) choose(tab.dataset.view);
  });
  tabs.addEventListener("keydown", (event) => {
    const keys = Object.keys(tabButtons);
    const at = keys.indexOf(document.activeElement?.dataset.view);
    if (at < 0) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -at, End: keys.length - 1 - at };
    if (!(event.key in moves)) return;
    event.preventDefault();
    choose(keys[(at + moves[event.key] + keys.length) % keys.length], true);
  });
  choose("hands");

  /* ----- the list ----- */

  const listView = element("div", "hand-list-view");
  const listHead = element("div", "hand-list-head");
  const listCount = element("p", "muted hands-count", "Loading…");
  const mineOnly = element("label", "check mine-only");
  const mineBox = element("input");
  mineBox.type = "checkbox";
  mineOnly.append(mineBox, "Only hands I played");
  mineBox.addEventListener("change", () => renderList());
  const allJson = button("All as JSON", "ghost small-button");
  allJson.title = "The hands listed here, one splitpot JSON document a line";
  allJson.addEventListener("click", () => {
    const lines = documents.map((doc) => JSON.stringify(doc)).join("\n");
    save(`${lines}\n`, `${tableId}-hands.jsonl`, "application/json");
  });
  listHead.append(listCount, mineOnly, allJson);
  const list = element("ol", "hand-list");
  listView.append(listHead, list);
  const replayView = element("div", "replay");
  replayView.hidden = true;
  views.hands.append(listView, replayView);

  function listItem(doc) {
    const item = element("li");
    const pick = button("", "hand-item");
    pick.dataset.hand = doc.id;
    const results = nets(doc);
    const winners = doc.players.flatMap((player, index) => {
      const amount = doc.result.collected[index];
      return amount > 0 ? [{ name: player.name, amount }] : [];
    });
    const head = element("span", "hand-item-head");
    head.append(
      element("span", "hand-number", `Hand ${handNumber(doc)}`),
      element("span", "hand-pot", `Pot ${chips.format(doc.result.total_pot)}`),
    );
    const who = element("span", "hand-winners", winners.length === 1
      ? `${winners[0].name} wins ${chips.format(winners[0].amount)}`
      : winners.map((winner) => `${winner.name} ${chips.format(winner.amount)}`).join(" · "));
    const board = element("span", "cards hand-board");
    const boardCards = cardsOf(doc.board);
    if (boardCards.length) for (const card of boardCards) board.append(cardElement(card, { size: "small" }));
    else board.append(element("span", "muted", "no flop"));
    pick.append(head, who, board);
    let yours = "";
    if (doc.you !== null && doc.you !== undefined) {
      const mine = element("span", "hand-mine");
      const net = results[doc.you];
      mine.append(element("span", `net ${net > 0 ? "up" : net < 0 ? "down" : ""}`, `You ${signed(net)}`));
      pick.append(mine);
      yours = ` You ${signed(net)}.`;
    }
    pick.setAttribute("aria-label", `Hand ${handNumber(doc)}, pot ${doc.result.total_pot}: ${who.textContent}.${yours} Replay it`);
    pick.addEventListener("click", () => openHand(doc));
    item.append(pick);
    return item;
  }

  function renderList() {
    const played = (doc) => doc.you !== null && doc.you !== undefined;
    mineOnly.hidden = !documents.some(played);
    const shown = mineBox.checked && !mineOnly.hidden ? documents.filter(played) : documents;
    list.replaceChildren(...shown.map(listItem));
    const of = shown.length < documents.length ? `${shown.length} of ` : "";
    listCount.textContent = documents.length
      ? `${of}${documents.length} hand${documents.length === 1 ? "" : "s"}, newest first`
      : "No hand has finished yet.";
    allJson.hidden = documents.length === 0;
  }

  /* ----- the replayer ----- */

  const back = button("← All hands", "ghost");
  back.addEventListener("click", () => {
    stopPlaying();
    const handId = open?.doc.id;
    open = null;
    replayView.hidden = true;
    listView.hidden = false;
    list.querySelector(`[data-hand="${CSS.escape(handId || "")}"]`)?.focus();
  });
  const replayTitle = element("h3", "replay-title");
  replayTitle.tabIndex = -1;
  const replayGame = element("p", "muted replay-game");
  const streetBar = element("div", "street-bar");
  streetBar.setAttribute("role", "group");
  streetBar.setAttribute("aria-label", "Go to a street");
  const streetButtons = {};
  for (const street of STREETS) {
    const jump = button(STREET_NAMES[street], "street");
    jump.dataset.street = street;
    jump.addEventListener("click", () => {
      const at = open.steps.findIndex((step) => step.street === street);
      if (at >= 0) goTo(at);
    });
    streetButtons[street] = jump;
    streetBar.append(jump);
  }
  const middle = element("div", "replay-middle");
  const boardRow = element("div", "cards replay-board");
  boardRow.setAttribute("aria-label", "Board");
  boardRow.setAttribute("role", "group");
  const potLine = element("p", "replay-pot");
  middle.append(boardRow, potLine);
  const narration = element("p", "replay-text");
  narration.setAttribute("aria-live", "polite");
  const seatList = element("ol", "replay-seats");
  const controls = element("div", "replay-controls");
  controls.setAttribute("role", "group");
  controls.setAttribute("aria-label", "Replay controls");
  const first = iconButton("first", "First step");
  const previous = iconButton("previous", "Previous step");
  const counter = element("span", "step-counter");
  const play = button("Play", "primary play-button");
  const middleControls = element("div", "step-middle");
  middleControls.append(play, counter);
  const next = iconButton("next", "Next step");
  const last = iconButton("last", "Last step");
  controls.append(first, previous, middleControls, next, last);
  let playing = 0; // the timer of a replay playing by itself

  function stopPlaying() {
    clearInterval(playing);
    playing = 0;
    play.textContent = "Play";
  }
  // a step the viewer asks for stops the replay playing by itself
  function goTo(at) {
    stopPlaying();
    show(at);
  }
  play.addEventListener("click", () => {
    if (playing) {
      stopPlaying();
      return;
    }
    if (open.at === open.steps.length - 1) show(0);
    play.textContent = "Pause";
    playing = setInterval(() => {
      if (open && open.at < open.steps.length - 1) show(open.at + 1);
      if (!open || open.at === open.steps.length - 1) stopPlaying();
    }, PLAY_MS);
  });
  first.addEventListener("click", () => goTo(0));
  previous.addEventListener("click", () => goTo(open.at - 1));
  next.addEventListener("click", () => goTo(open.at + 1));
  last.addEventListener("click", () => goTo(open.steps.length - 1));
  replayView.addEventListener("keydown", (event) => {
    if (!open || event.target.matches("input, select, textarea")) return;
    const moves = { ArrowRight: open.at + 1, ArrowLeft: open.at - 1, Home: 0, End: open.steps.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    goTo(moves[event.key]);
  });
  const downloads = element("div", "downloads");
  const downloadTitle = element("span", "downloads-title", "Download");
  const downloadStatus = element("p", "download-error error");
  downloadStatus.setAttribute("role", "alert");
  const downloadNote = element("p", "hint download-note");
  downloads.append(downloadTitle);
  const downloadButtons = DOWNLOADS.map((choice) => {
    const get = button(choice.label, "small-button");
    get.title = choice.title;
    get.setAttribute("aria-label", `Download ${choice.label} (${choice.title})`);
    get.addEventListener("click", () => download(open.doc.id, choice, invite, downloadStatus));
    downloads.append(get);
    return get;
  });
  const replayHead = element("div", "replay-head");
  const titles = element("div", "replay-titles");
  titles.append(replayTitle, replayGame);
  replayHead.append(back, titles);

  /* ----- the deal's checks: FAIRNESS.md "Anyone verifies", in this page ----- */

  const fairBox = element("section", "fair-box");
  fairBox.setAttribute("aria-label", "Fair deal");
  const verify = button("Verify the deal", "small-button");
  verify.title = "Check the hand's record against the commitments published before the deal";
  const how = element("a", "fair-how", "How the deal is fair");
  how.href = "/fairness";
  how.target = "_blank";
  how.rel = "noopener";
  const fairHead = element("div", "fair-head");
  fairHead.append(verify, how);
  const verdict = element("p", "fair-verdict");
  verdict.setAttribute("role", "status");
  const checkList = element("ul", "fair-checks");
  checkList.setAttribute("aria-label", "Checks of the deal");
  checkList.tabIndex = 0; // it scrolls: the keyboard can scroll it too
  checkList.hidden = true;
  fairBox.append(fairHead, verdict, checkList);
  verify.addEventListener("click", () => verifyDeal(open.doc.id));

  function clearChecks() {
    verify.disabled = false;
    verdict.textContent = "";
    checkList.replaceChildren();
    checkList.hidden = true;
  }

  // The room's record of the hand, fetched again, checked here with no help from the room.
  async function verifyDeal(handId) {
    clearChecks();
    if (!globalThis.crypto?.subtle) {
      verdict.textContent = "This browser checks the deal only on a secure (https) page: download the JSON and run splitpot verify.";
      return;
    }
    verify.disabled = true;
    verdict.textContent = "Checking the deal…";
    let checks;
    let told = null;
    let own = null;
    try {
      const record = await request("GET", `/api/hands/${encodeURIComponent(handId)}`, undefined, { invite });
      [told, own] = announced ? announced.checking(handId) : [null, null];
      checks = await verifyHand(record, told, own);
    } catch (problem) {
      checks = null;
      if (open?.doc.id === handId) verdict.textContent = `The hand cannot be checked. ${sentence(problem.message)}`;
    }
    if (open?.doc.id !== handId) return; // another hand is open now
    verify.disabled = false;
    if (!checks) return;
    const failed = checks.filter((check) => !check.passed).length;
    verdict.textContent = failed
      ? `${failed} of ${checks.length} checks fail: this record does not match what was committed before the deal.`
      : `All ${checks.length} checks pass: the deal is the one committed before the hand.`;
    if (!told) verdict.textContent += " This browser kept no announcement of this hand, so only the record itself is checked.";
    verdict.classList.toggle("failed", failed > 0);
    checkList.replaceChildren(...checks.map((check) => element(
      "li",
      check.passed ? "passed" : "failed",
      check.passed ? `✓ ${check.name}` : `✗ ${check.name}${check.detail ? `: ${check.detail}` : ""}`,
    )));
    checkList.hidden = false;
  }

  replayView.append(replayHead, streetBar, middle, narration, seatList, controls, downloads, downloadNote, downloadStatus, fairBox);

  function openHand(doc) {
    let steps;
    try {
      steps = replaySteps(doc);
    } catch (problem) {
      error.textContent = `Hand ${handNumber(doc)} cannot be replayed here: ${problem.message}`;
      return;
    }
    open = { doc, steps, at: 0 };
    replayTitle.textContent = `Hand ${handNumber(doc)}`;
    const dealer = doc.players[doc.button];
    replayGame.textContent = `${gameLine(doc)}${dealer ? ` · button: ${dealer.name}` : ""}`;
    downloadStatus.textContent = "";
    clearChecks();
    const reasons = DOWNLOADS.map((choice) => cannotWrite(doc, choice.format));
    downloadButtons.forEach((get, index) => { get.disabled = Boolean(reasons[index]); });
    downloadNote.textContent = reasons.filter(Boolean).join(" ");
    for (const [street, jump] of Object.entries(streetButtons)) {
      jump.disabled = !steps.some((step) => step.street === street);
    }
    listView.hidden = true;
    replayView.hidden = false;
    show(0);
    replayTitle.focus();
  }

  function helperFor(seat, board) {
    const key = `${open.doc.game.variant}|${seat.cards.join("")}|${board.join("")}`;
    if (!helperCache.has(key)) {
      const query = new URLSearchParams({ variant: open.doc.game.variant, hole: seat.cards.join("") });
      if (board.length) query.set("board", board.join(""));
      helperCache.set(key, request("GET", `/api/helper?${query}`).then(
        (answer) => answer.text,
        (problem) => {
          if (problem instanceof ApiError && problem.status === 404) helperAvailable = false;
          helperCache.delete(key);
          return null;
        },
      ));
    }
    return helperCache.get(key);
  }

  function seatRow(seat, step) {
    const row = element("li", "replay-seat");
    row.classList.toggle("folded", seat.folded);
    row.classList.toggle("you", seat.you);
    row.classList.toggle("all-in", seat.allIn);
    if (step.actor !== null && step.seats[step.actor] === seat) row.classList.add("acting");
    const who = element("div", "replay-who");
    const nameLine = element("span", "replay-name");
    nameLine.append(element("span", "replay-player", seat.name));
    if (seat.button) {
      const dealer = element("span", "dealer-chip", "D");
      dealer.title = "The button";
      dealer.setAttribute("aria-label", "button");
      nameLine.prepend(dealer);
    }
    const said = element("span", "replay-said");
    said.append(element("span", "replay-seat-number", `Seat ${seat.seat}${seat.you ? " · you" : ""}`));
    const doing = seat.allIn && !seat.said ? "all in" : seat.said;
    if (doing) said.append(` · ${doing}`);
    who.append(nameLine, said);
    const hand = element("div", "cards replay-cards");
    const known = seat.cards.some((card) => card !== "??");
    for (const card of seat.cards) hand.append(cardElement(seat.faceUp ? card : "??", { size: "small" }));
    if (seat.folded && !known) hand.classList.add("gone");
    const money = element("div", "replay-money");
    money.append(element("span", "replay-stack", chips.format(seat.stack)));
    if (seat.bet) money.append(element("span", "replay-bet", `bet ${chips.format(seat.bet)}`));
    row.append(who, hand, money);
    // the helper names a hand once there is a board to make it with
    if (seat.faceUp && known && !seat.cards.includes("??") && !seat.folded && step.board.length && helperAvailable) {
      const helper = element("p", "replay-helper");
      helper.setAttribute("aria-label", `${seat.name}'s hand`);
      row.append(helper);
      helperFor(seat, step.board).then((text) => {
        if (text) helper.textContent = text;
        else helper.remove();
      });
    }
    return row;
  }

  function show(at) {
    if (!open) return;
    open.at = Math.max(0, Math.min(open.steps.length - 1, at));
    const step = open.steps[open.at];
    const size = BOARD_SIZE[step.street];
    boardRow.replaceChildren();
    for (let slot = 0; slot < 5; slot += 1) {
      if (slot < step.board.length) boardRow.append(cardElement(step.board[slot]));
      else {
        const empty = element("span", "card-slot");
        empty.setAttribute("aria-hidden", "true");
        boardRow.append(empty);
      }
    }
    if (size === 0) boardRow.setAttribute("aria-label", "Board: no cards yet");
    else boardRow.setAttribute("aria-label", "Board");
    potLine.textContent = step.final ? finalPots(open.doc.result) : `Pot ${chips.format(step.total)}`;
    narration.textContent = step.text;
    seatList.replaceChildren(...step.seats.map((seat) => seatRow(seat, step)));
    if (step.final) {
      const results = nets(open.doc);
      seatList.querySelectorAll(".replay-seat").forEach((row, index) => {
        const net = element("span", `net ${results[index] > 0 ? "up" : results[index] < 0 ? "down" : ""}`, signed(results[index]));
        row.querySelector(".replay-money").append(net);
      });
    }
    counter.textContent = `${open.at + 1} / ${open.steps.length}`;
    first.disabled = previous.disabled = open.at === 0;
    next.disabled = last.disabled = open.at === open.steps.length - 1;
    for (const [street, jump] of Object.entries(streetButtons)) {
      jump.setAttribute("aria-pressed", String(street === step.street));
    }
  }

  /* ----- session stats (from the table's ledger) ----- */

  function statsHead(table) {
    const head = element("thead");
    const headRow = element("tr");
    for (const [label, className] of [["Player", ""], ["Hands", "num"], ["Won", "num"], ["Bought in", "num bought"], ["Won/lost", "num"]]) {
      const th = element("th", className, label);
      th.scope = "col";
      headRow.append(th);
    }
    head.append(headRow);
    table.append(head);
  }

  function renderStats(ledger) {
    const view = views.stats;
    view.replaceChildren();
    if (ledger.status === "rejected") {
      view.append(element("p", "error", `The session cannot be loaded. ${sentence(ledger.reason.message)}`));
      return;
    }
    const stats = sessionStats(ledger.value);
    if (!stats.hands) {
      view.append(element("p", "muted", "The session's stats appear once a hand has finished."));
      return;
    }
    const seen = documents.find((doc) => doc.you !== null && doc.you !== undefined);
    const myName = seen ? seen.players[seen.you].name : null;
    const biggest = Math.max(0, ...documents.map((doc) => doc.result.total_pot));
    view.append(element("p", "muted", `${chips.format(stats.hands)} hand${stats.hands === 1 ? "" : "s"} at this table · biggest pot of the last ${documents.length}: ${chips.format(biggest)}`));
    const table = element("table", "stats-table");
    table.append(element("caption", "visually-hidden", "Per player: hands played, hands won, chips bought in, chips won or lost"));
    statsHead(table);
    const body = element("tbody");
    const rows = stats.players.sort((a, b) => b.net - a.net || a.name.localeCompare(b.name));
    for (const row of rows) {
      const you = row.name === myName;
      const tr = element("tr", you ? "you" : "");
      const th = element("th", "", you ? `${row.name} (you)` : row.name);
      th.scope = "row";
      tr.append(
        th,
        element("td", "num", chips.format(row.hands)),
        element("td", "num", chips.format(row.won)),
        element("td", "num bought", chips.format(row.boughtIn)),
        element("td", `num net ${row.net > 0 ? "up" : row.net < 0 ? "down" : ""}`, signed(row.net)),
      );
      body.append(tr);
    }
    table.append(body);
    view.append(table);
  }

  /* ----- settle up ----- */

  function renderSettle(settle, ledger) {
    const view = views.settle;
    const fewest = settle.status !== "fulfilled" || settle.value.fewest !== false;
    const how = fewest ? "in the fewest payments" : "greedily: too many players to find the fewest payments";
    const note = element("p", "muted", `Who pays whom to settle the table, ${how} (every hand played here).`);
    let content;
    if (settle.status === "rejected") {
      content = element("p", "error", `The settle-up cannot be loaded. ${sentence(settle.reason.message)}`);
    } else if (!settle.value.payments.length) {
      content = element("p", "settled", "Everyone is even: nothing to settle.");
    } else {
      content = element("ul", "payments");
      for (const payment of settle.value.payments) {
        const item = element("li", "payment");
        item.append(
          element("span", "payer", payment.from),
          element("span", "pays", "pays"),
          element("span", "payee", payment.to),
          element("span", "payment-amount", chips.format(payment.amount)),
        );
        item.setAttribute("aria-label", `${payment.from} pays ${payment.to} ${payment.amount}`);
        content.append(item);
      }
    }
    view.replaceChildren(note, content);
    if (ledger.status === "fulfilled") {
      const download = button("Ledger (CSV)", "small-button");
      download.setAttribute("aria-label", "Download the table's ledger as CSV");
      download.addEventListener("click", () => save(ledger.value, `${tableId}-ledger.csv`, "text/csv"));
      view.append(download);
    }
    const sessions = button("Sessions (CSV)", "small-button");
    sessions.setAttribute("aria-label", "Download one row per sit-down, as PokerNow's ledger CSV");
    const sessionsStatus = element("span", "muted");
    sessionsStatus.setAttribute("role", "status");
    sessions.addEventListener("click", async () => {
      sessionsStatus.textContent = "";
      try {
        const csv = await request("GET", `/api/tables/${encodeURIComponent(tableId)}/sessions.csv`, undefined, { invite });
        save(csv, `${tableId}-sessions.csv`, "text/csv");
      } catch (problem) {
        sessionsStatus.textContent = `Sessions: ${sentence(problem.message)}`;
      }
    });
    view.append(sessions, sessionsStatus);
  }

  /* ----- loading ----- */

  async function refresh() {
    const table = `/api/tables/${encodeURIComponent(tableId)}`;
    const get = (path) => request("GET", `${table}${path}`, undefined, { invite });
    const [hands, ledger, settle] = await Promise.allSettled([
      get(`/hands?limit=${LIMIT}`), get("/ledger.csv"), get("/settle"),
    ]);
    if (hands.status === "fulfilled") {
      documents = hands.value.hands;
      error.textContent = "";
    } else {
      error.textContent = `The hands cannot be loaded. ${sentence(hands.reason.message)}`;
    }
    renderList();
    renderStats(ledger);
    renderSettle(settle, ledger);
  }

  refresh();
  return { refresh };
}
