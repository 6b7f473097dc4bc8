// The hands panel of a table: the last 50 hands, a step-by-step replayer (street by street,
// with the hand helper) of the room's events folded by the table page's state code,
// downloads (PokerStars, PHH, OHH, JSON), the deal's checks (fair.js), the room's session
// stats and the settle-up. It works out no rule: every figure and word is the room's.

import { ApiError, request, sentence } from "./api.js";
import { cardElement } from "./cards.js";
import { element } from "./dom.js";
import { verifyHand } from "./fair.js";
import { checkWords } from "./fair-words.js";
import { actionText, streetName, structureTitle, variantName } from "./game-words.js";
import { formatNumber, t, tn } from "./i18n.js";
import { boardWords, dealtOn } from "./share-words.js";
import { renderFigures } from "./stats.js";
import { emptyModel, receive, shownHand } from "./table/state.js";

const LIMIT = 50;
const PLAY_MS = 1300; // a step every 1.3 s when the replay plays by itself
const STREETS = ["preflop", "flop", "turn", "river", "showdown"];
const DOWNLOADS = [
  { format: "pokerstars", label: "PokerStars", extension: "txt", type: "text/plain", title: t("PokerStars text, for trackers") },
  { format: "phh", label: "PHH", extension: "phh", type: "text/plain", title: t("Poker Hand History (phh-std)") },
  { format: "ohh", label: "OHH", extension: "ohh", type: "application/json", title: t("Open Hand History JSON, for trackers") },
  { format: "json", label: "JSON", extension: "json", type: "application/json", title: t("splitpot JSON") },
];
const ICONS = {
  first: "M5 5h2.5v14H5zM19 5v14L8.5 12z",
  previous: "M17 5v14L6 12z",
  next: "M7 5v14l11-7z",
  last: "M16.5 5H19v14h-2.5zM5 5v14l10.5-7z",
};
const SVG = "http://www.w3.org/2000/svg";

const chips = { format: formatNumber };
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

// "Hand #12" (Раздача №12), or the hand's id when it has no number.
function handTitle(doc) {
  const tail = doc.id.split("-").pop();
  return /^\d+$/.test(tail) ? t("Hand #{number}", { number: tail }) : t("Hand {number}", { number: doc.id });
}

function gameLine(doc) {
  const game = doc.game;
  const variant = variantName(game.variant);
  const structure = structureTitle(game.structure);
  const stakes = game.structure === "limit"
    ? `${chips.format(game.small_bet)}/${chips.format(game.big_bet)}`
    : `${chips.format(game.small_blind)}/${chips.format(game.big_blind)}`;
  return `${variant} · ${structure} ${stakes}`;
}

function nets(doc) {
  return doc.players.map((player, index) => doc.result.stacks[index] - player.stack);
}

/* ---------- the replay: the hand's events as steps ---------- */

// Events told together in one step: the deal of the hole cards, the awards of the hand.
const TOGETHER = new Set(["dealt", "pot_awarded"]);

/**
 * The hand's events in runs, one step each: every event the dealer tells starts a step,
 * with the untold events before it (a round's end goes with the next street's cards);
 * the deal of the hole cards is one step, and so are the awards; an untold event after
 * a told one (the hand's end) joins its step.
 */
function runs(events) {
  const found = [];
  let waiting = [];
  for (const event of events) {
    const last = found[found.length - 1];
    if (TOGETHER.has(event.kind) && last?.at(-1).kind === event.kind) last.push(event);
    else if (event.text || event.kind === "dealt" || !last) {
      found.push([...waiting, event]);
      waiting = [];
    } else if (event.kind === "round_ended") waiting.push(event);
    else last.push(...waiting.splice(0), event);
  }
  if (waiting.length) found[found.length - 1].push(...waiting);
  return found;
}

/**
 * The hand as a list of steps, each a picture of the table after one thing happened:
 * the room's events of the hand (GET /api/hands/{id}?format=events) folded with the
 * table page's own state code, from the table as it stood before the deal. The room
 * decides every figure and word; a hand mucked at the showdown comes with its cards.
 */
export function replaySteps(answer) {
  const table = answer.table;
  const model = emptyModel(table);
  receive(model, { type: "table", table, seq: 0, state: answer.state }, 0);
  const started = new Map(answer.events[0].seats.map((entry) => [entry.seat, entry.stack]));
  const dealt = [...started.keys()];
  const folded = new Set();
  const mucked = new Set();
  const held = new Map(); // seat -> the hole cards it holds, as the last step before the end saw them
  let seq = 0;
  let showdown = false;
  return runs(answer.events).map((run) => {
    const lines = [];
    let actor = null;
    for (const event of run) {
      seq += 1;
      receive(model, { type: "event", table, seq, event }, 0);
      if (event.kind === "mucked") {
        mucked.add(event.seat);
        const seat = model.seats[event.seat - 1];
        if (seat && event.cards) seat.cards = [...event.cards];
      }
      if (event.kind === "shown" || event.kind === "mucked") showdown = true;
      if (event.text) {
        lines.push(event.text);
        actor = event.seat ?? null;
      }
    }
    for (const number of dealt) {
      if (model.seats[number - 1]?.status === "folded") folded.add(number);
    }
    const hand = shownHand(model);
    const final = run.some((event) => event.kind === "hand_ended");
    if (!final) for (const number of dealt) held.set(number, model.seats[number - 1].holeCards);
    const boards = dealtOn(hand);
    const won = final ? wins(model.showdown.awards, boards) : new Map();
    return {
      street: showdown ? "showdown" : hand.street,
      text: lines.join("\n") || t("The cards are dealt"),
      actor: final ? null : actor,
      board: [...hand.board],
      dealt: boards, // "boards" (a double board), "runs" (run twice) or null
      boards: boards ? hand.boards.map((cards) => [...cards]) : [],
      total: hand.total,
      final,
      seats: dealt.map((number) => {
        const seat = model.seats[number - 1];
        const cards = seat.cards ? [...seat.cards] : new Array(held.get(number) || 0).fill("??");
        return {
          seat: number,
          name: seat.name,
          button: number === model.button,
          you: number === model.viewer,
          stack: seat.stack,
          bet: seat.bet,
          folded: folded.has(number),
          allIn: seat.status === "all_in",
          said: won.has(number) ? won.get(number).join(" + ") : final ? "" : actionText(seat.lastAction),
          cards,
          faceUp: Boolean(seat.cards),
          mucked: mucked.has(number),
          net: seat.stack - started.get(number), // at the end: the hand's result
        };
      }),
    };
  });
}

/**
 * What each seat won, for its label at the end: "HIGH 6", "LOW 4", "WINS 12" (a whole
 * pot), "SCOOPS 12" (both halves), from the room's awards (`pot_awarded`); on two boards
 * or runs (`dealt`), each with its board or run: "LOW 4 · board 2".
 */
function wins(awards, dealt) {
  const won = new Map();
  for (const award of awards) {
    if (!award.amount) continue;
    const whole = award.low ? t("SCOOPS") : t("WINS");
    const share = award.share === "whole" ? whole : award.share === "low" ? t("LOW") : t("HIGH");
    const where = dealt ? boardWords(award, dealt) : null;
    const words = `${share} ${chips.format(award.amount)}${where ? ` · ${where}` : ""}`;
    won.set(award.seat, [...(won.get(award.seat) || []), words]);
  }
  return won;
}

/** A board's five places: its cards so far, then empty slots. */
function boardSlots(cards) {
  return Array.from({ length: 5 }, (_, slot) => {
    if (slot < cards.length) return cardElement(cards[slot]);
    const empty = element("span", "card-slot");
    empty.setAttribute("aria-hidden", "true");
    return empty;
  });
}

/** The pots at the end: "Total pot 120 · main 90 · side pot 30 · rake 2". */
function finalPots(result) {
  const parts = [t("Total pot {amount}", { amount: chips.format(result.total_pot) })];
  const pots = result.pots || [];
  if (pots.length > 1) {
    pots.forEach((pot, index) => {
      const amount = chips.format(pot.amount);
      parts.push(index === 0 ? t("main {amount}", { amount })
        : pots.length > 2 ? t("side pot {number} {amount}", { number: index, amount })
        : t("side pot {amount}", { amount }));
    });
  }
  if (result.rake) parts.push(t("rake {amount}", { amount: chips.format(result.rake) }));
  return parts.join(" · ");
}

/* ---------- downloads ---------- */

/** Why a format cannot hold the hand (docs/protocol.md, GET /api/hands), or null. */
function cannotWrite(doc, format) {
  if (format === "pokerstars" && doc.game.variant === "o-hilo-noq") {
    return t("PokerStars text has no name for Omaha Hi/Lo without a qualifier.");
  }
  if (format === "ohh" && doc.game.variant === "o-hilo-noq") {
    return t("OHH has no game type for Omaha Hi/Lo without a qualifier.");
  }
  if (format === "phh" && (doc.posts || []).some((post) => post.kind === "live post" || post.kind === "dead small blind")) {
    return t("PHH has no field for this hand's live or dead post.");
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
  const replays = new Map(); // hand id -> the promise of its events (a finished hand never changes)
  const helperCache = new Map();
  let helperAvailable = true;
  let statsScope = "session"; // the hands the hi/lo statistics count: "session" or "table"

  const root = element("section", "hands");
  root.setAttribute("aria-label", t("Hands and session"));
  const tabs = element("div", "hands-tabs");
  tabs.setAttribute("role", "tablist");
  tabs.setAttribute("aria-label", t("Hands and session"));
  const views = {};
  const tabButtons = {};
  for (const [key, label] of [["hands", t("Hands")], ["stats", t("Session")], ["settle", t("Settle up")]]) {
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
  const listCount = element("p", "muted hands-count", t("Loading…"));
  const mineOnly = element("label", "check mine-only");
  const mineBox = element("input");
  mineBox.type = "checkbox";
  mineOnly.append(mineBox, t("Only hands I played"));
  mineBox.addEventListener("change", () => renderList());
  const allJson = button(t("All as JSON"), "ghost small-button");
  allJson.title = t("The hands listed here, one splitpot JSON document a line");
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
      element("span", "hand-number", handTitle(doc)),
      element("span", "hand-pot", t("Pot {amount}", { amount: chips.format(doc.result.total_pot) })),
    );
    const who = element("span", "hand-winners", winners.length === 1
      ? t("{name} wins {amount}", { name: winners[0].name, amount: chips.format(winners[0].amount) })
      : winners.map((winner) => `${winner.name} ${chips.format(winner.amount)}`).join(" · "));
    const board = element("span", "cards hand-board");
    const boardCards = cardsOf(doc.board);
    if (boardCards.length) for (const card of boardCards) board.append(cardElement(card, { size: "small" }));
    else board.append(element("span", "muted", t("no flop")));
    pick.append(head, who, board);
    let yours = "";
    if (doc.you !== null && doc.you !== undefined) {
      const mine = element("span", "hand-mine");
      const net = results[doc.you];
      mine.append(element("span", `net ${net > 0 ? "up" : net < 0 ? "down" : ""}`, t("You {net}", { net: signed(net) })));
      pick.append(mine);
      yours = ` ${t("You {net}.", { net: signed(net) })}`;
    }
    pick.setAttribute("aria-label", t("Hand {number}, pot {pot}: {winners}.{yours} Replay it", {
      number: handNumber(doc), pot: doc.result.total_pot, winners: who.textContent, yours,
    }));
    pick.addEventListener("click", () => openHand(doc));
    item.append(pick);
    return item;
  }

  function renderList() {
    const played = (doc) => doc.you !== null && doc.you !== undefined;
    mineOnly.hidden = !documents.some(played);
    const shown = mineBox.checked && !mineOnly.hidden ? documents.filter(played) : documents;
    list.replaceChildren(...shown.map(listItem));
    listCount.textContent = !documents.length ? t("No hand has finished yet.")
      : shown.length < documents.length
        ? tn("{shown} of {count} hand, newest first", "{shown} of {count} hands, newest first", documents.length, { shown: formatNumber(shown.length) })
        : tn("{count} hand, newest first", "{count} hands, newest first", documents.length);
    allJson.hidden = documents.length === 0;
  }

  /* ----- the replayer ----- */

  const back = button(`← ${t("All hands")}`, "ghost");
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
  streetBar.setAttribute("aria-label", t("Go to a street"));
  const streetButtons = {};
  for (const street of STREETS) {
    const jump = button(streetName(street), "street");
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
  boardRow.setAttribute("aria-label", t("Board"));
  boardRow.setAttribute("role", "group");
  const potLine = element("p", "replay-pot");
  middle.append(boardRow, potLine);
  const narration = element("p", "replay-text");
  narration.setAttribute("aria-live", "polite");
  const seatList = element("ol", "replay-seats");
  const controls = element("div", "replay-controls");
  controls.setAttribute("role", "group");
  controls.setAttribute("aria-label", t("Replay controls"));
  const first = iconButton("first", t("First step"));
  const previous = iconButton("previous", t("Previous step"));
  const counter = element("span", "step-counter");
  const play = button(t("Play"), "primary play-button");
  const middleControls = element("div", "step-middle");
  middleControls.append(play, counter);
  const next = iconButton("next", t("Next step"));
  const last = iconButton("last", t("Last step"));
  controls.append(first, previous, middleControls, next, last);
  let playing = 0; // the timer of a replay playing by itself

  function stopPlaying() {
    clearInterval(playing);
    playing = 0;
    play.textContent = t("Play");
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
    play.textContent = t("Pause");
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
  const downloadTitle = element("span", "downloads-title", t("Download"));
  const downloadStatus = element("p", "download-error error");
  downloadStatus.setAttribute("role", "alert");
  const downloadNote = element("p", "hint download-note");
  downloads.append(downloadTitle);
  const downloadButtons = DOWNLOADS.map((choice) => {
    const get = button(choice.label, "small-button");
    get.title = choice.title;
    get.setAttribute("aria-label", t("Download {format} ({description})", { format: choice.label, description: choice.title }));
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
  fairBox.setAttribute("aria-label", t("Fair deal"));
  const verify = button(t("Verify the deal"), "small-button");
  verify.title = t("Check the hand's record against the commitments published before the deal");
  const how = element("a", "fair-how", t("How the deal is fair"));
  how.href = "/fairness";
  how.target = "_blank";
  how.rel = "noopener";
  const fairHead = element("div", "fair-head");
  fairHead.append(verify, how);
  const verdict = element("p", "fair-verdict");
  verdict.setAttribute("role", "status");
  const checkList = element("ul", "fair-checks");
  checkList.setAttribute("aria-label", t("Checks of the deal"));
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
      verdict.textContent = t("This browser checks the deal only on a secure (https) page: download the JSON and run splitpot verify.");
      return;
    }
    verify.disabled = true;
    verdict.textContent = t("Checking the deal…");
    let checks;
    let told = null;
    let own = null;
    try {
      const record = await request("GET", `/api/hands/${encodeURIComponent(handId)}`, undefined, { invite });
      [told, own] = announced ? announced.checking(handId) : [null, null];
      checks = await verifyHand(record, told, own);
    } catch (problem) {
      checks = null;
      if (open?.doc.id === handId) verdict.textContent = `${t("The hand cannot be checked.")} ${sentence(problem.message)}`;
    }
    if (open?.doc.id !== handId) return; // another hand is open now
    verify.disabled = false;
    if (!checks) return;
    const failed = checks.filter((check) => !check.passed).length;
    verdict.textContent = failed
      ? tn("{failed} of {count} check fails: this record does not match what was committed before the deal.", "{failed} of {count} checks fail: this record does not match what was committed before the deal.", checks.length, { failed: formatNumber(failed) })
      : tn("All {count} check passes: the deal is the one committed before the hand.", "All {count} checks pass: the deal is the one committed before the hand.", checks.length);
    if (!told) verdict.textContent += ` ${t("This browser kept no announcement of this hand, so only the record itself is checked.")}`;
    verdict.classList.toggle("failed", failed > 0);
    checkList.replaceChildren(...checks.map((check) => {
      const { name, detail } = checkWords(check);
      return element(
        "li",
        check.passed ? "passed" : "failed",
        check.passed ? `✓ ${name}` : `✗ ${name}${detail ? t(": {detail}", { detail }) : ""}`,
      );
    }));
    checkList.hidden = false;
  }

  replayView.append(replayHead, streetBar, middle, narration, seatList, controls, downloads, downloadNote, downloadStatus, fairBox);

  // The hand's events as the room sends them to this reader, fetched once per hand.
  function eventsOf(handId) {
    if (!replays.has(handId)) {
      const path = `/api/hands/${encodeURIComponent(handId)}?format=events`;
      replays.set(handId, request("GET", path, undefined, { invite }).catch((problem) => {
        replays.delete(handId);
        throw problem;
      }));
    }
    return replays.get(handId);
  }

  async function openHand(doc) {
    let steps;
    try {
      steps = replaySteps(await eventsOf(doc.id));
    } catch (problem) {
      error.textContent = `${t("Hand {number} cannot be replayed.", { number: handNumber(doc) })} ${sentence(problem.message)}`;
      return;
    }
    error.textContent = "";
    open = { doc, steps, at: 0 };
    replayTitle.textContent = handTitle(doc);
    const dealer = doc.players[doc.button];
    replayGame.textContent = `${gameLine(doc)}${dealer ? ` · ${t("button: {name}", { name: dealer.name })}` : ""}`;
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
    row.classList.toggle("mucked", seat.mucked);
    if (seat.seat === step.actor) row.classList.add("acting");
    const who = element("div", "replay-who");
    const nameLine = element("span", "replay-name");
    nameLine.append(element("span", "replay-player", seat.name));
    if (seat.button) {
      const dealer = element("span", "dealer-chip", "D");
      dealer.title = t("The button");
      dealer.setAttribute("aria-label", t("button"));
      nameLine.prepend(dealer);
    }
    const said = element("span", "replay-said");
    said.append(element("span", "replay-seat-number", seat.you ? t("Seat {seat} · you", { seat: seat.seat }) : t("Seat {seat}", { seat: seat.seat })));
    const doing = seat.allIn && !seat.said ? t("all in") : seat.said;
    if (doing) said.append(` · ${doing}`);
    who.append(nameLine, said);
    const hand = element("div", "cards replay-cards");
    const known = seat.cards.some((card) => card !== "??");
    for (const card of seat.cards) hand.append(cardElement(seat.faceUp ? card : "??", { size: "small" }));
    if (seat.folded && !known) hand.classList.add("gone");
    const money = element("div", "replay-money");
    money.append(element("span", "replay-stack", chips.format(seat.stack)));
    if (seat.bet) money.append(element("span", "replay-bet", t("bet {amount}", { amount: chips.format(seat.bet) })));
    row.append(who, hand, money);
    // the helper names a hand once there is a board to make it with
    if (seat.faceUp && known && !seat.cards.includes("??") && !seat.folded && step.board.length && helperAvailable) {
      const helper = element("p", "replay-helper");
      helper.setAttribute("aria-label", t("{name}'s hand", { name: seat.name }));
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
    boardRow.classList.toggle("two", Boolean(step.dealt));
    if (step.dealt) {
      // two boards or runs: a labelled row each
      boardRow.replaceChildren(...step.boards.map((cards, index) => {
        const name = step.dealt === "runs" ? t("Run {number}", { number: index + 1 }) : t("Board {number}", { number: index + 1 });
        const row = element("div", "replay-board-row");
        row.dataset.board = String(index + 1);
        row.setAttribute("role", "group");
        row.setAttribute("aria-label", name);
        const label = element("span", "board-name", name);
        label.setAttribute("aria-hidden", "true");
        row.append(label, ...boardSlots(cards));
        return row;
      }));
      boardRow.setAttribute("aria-label", step.dealt === "runs" ? t("The board, run twice") : t("Two boards"));
    } else {
      boardRow.replaceChildren(...boardSlots(step.board));
      boardRow.setAttribute("aria-label", step.board.length ? t("Board") : t("Board: no cards yet"));
    }
    potLine.textContent = step.final ? finalPots(open.doc.result) : t("Pot {amount}", { amount: chips.format(step.total) });
    narration.textContent = step.text;
    seatList.replaceChildren(...step.seats.map((seat) => seatRow(seat, step)));
    if (step.final) {
      seatList.querySelectorAll(".replay-seat").forEach((row, index) => {
        const result = step.seats[index].net;
        const net = element("span", `net ${result > 0 ? "up" : result < 0 ? "down" : ""}`, signed(result));
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

  /* ----- session stats (GET /api/tables/{id}/stats: the room's figures) ----- */

  function statsHead(table) {
    const head = element("thead");
    const headRow = element("tr");
    for (const [label, className] of [[t("Player"), ""], [t("Hands"), "num"], [t("Won"), "num"], [t("Bought in"), "num bought"], [t("Won/lost"), "num"]]) {
      const th = element("th", className, label);
      th.scope = "col";
      headRow.append(th);
    }
    head.append(headRow);
    table.append(head);
  }

  function renderStats(answer) {
    const view = views.stats;
    // an answer for the scope chosen before the last choice: the later one draws
    if (answer.status === "fulfilled" && answer.value.scope && answer.value.scope !== statsScope) return;
    view.replaceChildren();
    if (answer.status === "rejected") {
      view.append(element("p", "error", `${t("The session cannot be loaded.")} ${sentence(answer.reason.message)}`));
      return;
    }
    const stats = answer.value;
    if (!stats.hands) {
      view.append(element("p", "muted", t("The session's stats appear once a hand has finished.")));
      return;
    }
    const biggest = Math.max(0, ...documents.map((doc) => doc.result.total_pot));
    view.append(element("p", "muted", [
      tn("{count} hand at this table", "{count} hands at this table", stats.hands),
      tn("biggest pot of the last {count}: {amount}", "biggest pot of the last {count}: {amount}", documents.length, { amount: chips.format(biggest) }),
    ].join(" · ")));
    const table = element("table", "stats-table");
    table.append(element("caption", "visually-hidden", t("Per player: hands played, hands won, chips bought in, chips won or lost")));
    statsHead(table);
    const body = element("tbody");
    for (const row of stats.players) {
      const you = row.player === stats.you;
      const tr = element("tr", you ? "you" : "");
      tr.dataset.player = row.player;
      const th = element("th", "", you ? t("{name} (you)", { name: row.name }) : row.name);
      th.scope = "row";
      tr.append(
        th,
        element("td", "num", chips.format(row.hands)),
        element("td", "num", chips.format(row.won)),
        element("td", "num bought", chips.format(row.bought_in)),
        element("td", `num net ${row.net > 0 ? "up" : row.net < 0 ? "down" : ""}`, signed(row.net)),
      );
      body.append(tr);
    }
    table.append(body);
    view.append(table);
    renderFigures(view, stats, { scope: stats.scope || statsScope, onScope: chooseScope });
  }

  function loadStats() {
    const path = `/api/tables/${encodeURIComponent(tableId)}/stats?scope=${statsScope}`;
    return request("GET", path, undefined, { invite });
  }

  async function chooseScope(scope) {
    statsScope = scope;
    const [stats] = await Promise.allSettled([loadStats()]);
    renderStats(stats);
    views.stats.querySelector(`[data-scope="${scope}"]`)?.focus();
  }

  /* ----- settle up ----- */

  function renderSettle(settle, ledger) {
    const view = views.settle;
    const fewest = settle.status !== "fulfilled" || settle.value.fewest !== false;
    const note = element("p", "muted", fewest
      ? t("Who pays whom to settle the table, in the fewest payments (every hand played here).")
      : t("Who pays whom to settle the table, greedily: too many players to find the fewest payments (every hand played here)."));
    let content;
    if (settle.status === "rejected") {
      content = element("p", "error", `${t("The settle-up cannot be loaded.")} ${sentence(settle.reason.message)}`);
    } else if (!settle.value.payments.length) {
      content = element("p", "settled", t("Everyone is even: nothing to settle."));
    } else {
      content = element("ul", "payments");
      for (const payment of settle.value.payments) {
        const item = element("li", "payment");
        item.append(
          element("span", "payer", payment.from),
          element("span", "pays", t("pays")),
          element("span", "payee", payment.to),
          element("span", "payment-amount", chips.format(payment.amount)),
        );
        item.setAttribute("aria-label", t("{payer} pays {payee} {amount}", { payer: payment.from, payee: payment.to, amount: payment.amount }));
        content.append(item);
      }
    }
    view.replaceChildren(note, content);
    if (ledger.status === "fulfilled") {
      const download = button(t("Ledger (CSV)"), "small-button");
      download.setAttribute("aria-label", t("Download the table's ledger as CSV"));
      download.addEventListener("click", () => save(ledger.value, `${tableId}-ledger.csv`, "text/csv"));
      view.append(download);
    }
    const sessions = button(t("Sessions (CSV)"), "small-button");
    sessions.setAttribute("aria-label", t("Download one row per sit-down, as PokerNow's ledger CSV"));
    const sessionsStatus = element("span", "muted");
    sessionsStatus.setAttribute("role", "status");
    sessions.addEventListener("click", async () => {
      sessionsStatus.textContent = "";
      try {
        const csv = await request("GET", `/api/tables/${encodeURIComponent(tableId)}/sessions.csv`, undefined, { invite });
        save(csv, `${tableId}-sessions.csv`, "text/csv");
      } catch (problem) {
        sessionsStatus.textContent = t("Sessions: {problem}", { problem: sentence(problem.message) });
      }
    });
    view.append(sessions, sessionsStatus);
  }

  /* ----- loading ----- */

  async function refresh() {
    const table = `/api/tables/${encodeURIComponent(tableId)}`;
    const get = (path) => request("GET", `${table}${path}`, undefined, { invite });
    const [hands, stats, ledger, settle] = await Promise.allSettled([
      get(`/hands?limit=${LIMIT}`), loadStats(), get("/ledger.csv"), get("/settle"),
    ]);
    if (hands.status === "fulfilled") {
      documents = hands.value.hands;
      error.textContent = "";
    } else {
      error.textContent = `${t("The hands cannot be loaded.")} ${sentence(hands.reason.message)}`;
    }
    renderList();
    renderStats(stats);
    renderSettle(settle, ledger);
  }

  refresh();
  return { refresh };
}
