// The table page /tables/{id}: signs in (or watches), keeps the room's connection, folds
// its messages into the model (state.js) and has each part of the page draw it.

import { lang, t } from "../i18n.js";
import "../language-menu.js";
import { stakesText, structureTitle, variantTitle } from "../game-words.js";
import { forget, identity, onIdentityChange, request } from "../api.js";
import { askForName } from "../signin.js";
import { connect } from "../connection.js";
import { createActions } from "./actions.js";
import { createChat } from "./chat.js";
import { showCalledOff } from "./called-off.js";
import { createControls } from "./controls.js";
import { createDealAlerts } from "./deal-alerts.js";
import { createEntropy } from "./entropy.js";
import { createFelt } from "./felt.js";
import { createHelper } from "./helper.js";
import { createNotes } from "./notes.js";
import { createOptions } from "./options.js";
import { createRabbit } from "./rabbit.js";
import { createRunIt } from "./run-it.js";
import { createSeating } from "./seating.js";
import { createSettings } from "./settings.js";
import { createShares } from "./shares.js";
import { emptyModel, isHost, mySeat, receive, shownHand } from "./state.js";
import { createTournamentClock } from "./tournament-clock.js";
import { OPTIONS_OFF } from "../option-fields.js";

// How long the page lingers after some events, so that what came in one burst (an all-in
// run-out, the showdown) is shown one step at a time: each street with its equities, each
// hand turned in turn (the room waits for it before the next deal).
const LINGER = { equity: 1300, shown: 650, face_up: 250 };

// What the summary says of the stakes, the buy-in range with them, and the home game's
// options: asked of the room anew when they change (`stakes_changed`, or the host's new
// stakes or options).
const STAKES_FIELDS = [
  "structure", "stakes", "small_blind", "big_blind", "small_bet", "big_bet",
  "limit", "pot_limit", "period", "min_buy_in", "max_buy_in", ...Object.keys(OPTIONS_OFF),
];

let tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || ""); // a tournament may move us
let invite = new URLSearchParams(location.search).get("invite"); // the host may make a new one
const model = emptyModel(tableId);
let me = identity();
let pendingSeat = null; // a seat picked before signing in: its buy-in opens once seated to watch
let hands = null; // the last hands panel, once opened
const handsDialog = document.querySelector("#hands-dialog");
let drawScheduled = false;
const inbox = []; // the room's messages not yet shown
let pumping = false;
let gone = false; // removed, banned, or the table closed: the page watches it no more
let stakesLater = false; // the host's new stakes wait for the hand in play to end
let justSat = false; // this page asked for a seat: the room learns our showdown choice
let watchRetries = 0; // refusals of our watch as an unknown table, asked again
const WATCH_RETRIES = 3;
let movedHere = false; // the tournament moved us to this table: its number is told with its snapshot

const connectionBox = document.querySelector("#connection");
const tableMessage = document.querySelector("#table-message");
const reopenButton = document.querySelector("#reopen");
const copyButton = document.querySelector("#copy-table");

// A closed table's host may reopen it, or make this week's table from its settings.
function offerReopen(shown) {
  reopenButton.hidden = !shown;
  copyButton.hidden = !shown;
}

function send(message) {
  if (message.type === "sit") justSat = true; // the room's snapshot for the seat follows
  return connection.send(message);
}

const actions = createActions({ send, onAnswered: () => draw() });
const chat = createChat({ send });
const runIt = createRunIt({ send });
const shares = createShares();
const rabbit = createRabbit({ send });
const options = createOptions({
  send,
  showError(text) {
    document.querySelector("#host-error").textContent = text;
  },
});
const notes = createNotes({ onChange: () => draw() }); // ours on other players, on their seats
const felt = createFelt(document.querySelector("#felt"), {
  onSit: (seat) => controls.openBuyIn(seat),
  notes,
});
const controls = createControls({
  send,
  invite,
  // The new identity says hello again (onIdentityChange below), then the buy-in opens.
  async signIn(seat) {
    pendingSeat = seat;
    if (!(await askForName())) pendingSeat = null;
  },
});
const seating = createSeating({ send, openBuyIn: (seat) => controls.openBuyIn(seat) });
const settings = createSettings({
  onShortcut: (key) => actions.shortcut(key),
  onShowLosing: () => tellShowdown(),
});
const helper = createHelper({
  onResult(answer) {
    felt.setHelperText(answer?.text || "", { high: Boolean(answer?.high), low: Boolean(answer?.low) });
    felt.setHighlight({ high: answer?.high?.cards || [], low: answer?.low?.cards || [] });
  },
});
chat.setTable(tableId);
// What the page's own checks of the deal found: shown at once, and kept in view.
const dealAlerts = createDealAlerts(document.querySelector("#fair-warnings"), document.querySelector("#fair-notices"));
const entropy = createEntropy({ send, tableId, invite: () => invite, warn: dealAlerts.warn, note: dealAlerts.note }); // reads each message as it arrives
showCalledOff(document.querySelector("#called-off"), entropy.announced);
const tournamentClock = createTournamentClock({
  node: document.querySelector("#tournament-clock"),
  notice: document.querySelector("#tournament-notice"),
  lobbyLink: document.querySelector("#tournament-lobby"),
  onRead: () => draw(),
});

// Draws everything once per frame, however many messages came in it.
function draw() {
  if (drawScheduled) return;
  drawScheduled = true;
  requestAnimationFrame(() => {
    drawScheduled = false;
    drawNow();
  });
}

function drawNow() {
  if (!model.summary) return;
  tournamentClock.render(model);
  felt.render(model);
  actions.render(model);
  controls.render(model);
  seating.render(model);
  runIt.render(model);
  shares.render(model);
  rabbit.render(model);
  options.render(model);
  drawTitle();
  askHelper();
  chat.allowChat(Boolean(model.player));
}

// The game line: the hand in play's stakes, else the table's (the next hand's).
function drawTitle() {
  const summary = model.summary;
  const hand = model.hand;
  const structure = structureTitle(hand?.structure || summary.structure, "");
  const stakes = stakesText(hand?.stakes ? hand : summary);
  document.querySelector("#table-name").textContent = summary.name;
  const game = [variantTitle(summary.variant, summary.variant_name), `${structure} ${stakes}`];
  if (model.hand) game.push(t("Hand #{number}", { number: model.hand.number }));
  document.querySelector("#table-game").textContent = game.join(" · ");
  const yourTurn = model.turn ? `${t("Your turn")} · ` : "";
  document.title = `${yourTurn}${summary.name} · ${stakes} · splitpot`;
}

function askHelper() {
  const mine = mySeat(model);
  const hand = shownHand(model);
  if (!mine?.cards || !hand) {
    helper.update(null);
    return;
  }
  const second = hand.boards?.length > 1 && hand.boards[1].length ? hand.boards[1] : null; // two boards: each one's line
  helper.update(hand.variant || model.summary.variant, mine.cards, hand.board, second);
}

// The room mucks a hand that cannot win at once, unless the player chose to show it
// (Settings): the room keeps the choice for our seat. Sitting down, we tell it the page's;
// seated, the page shows the room's (set from another tab or client too).
function showdownChoice() {
  const me = mySeat(model);
  if (me?.muckLosing == null) return;
  if (justSat) tellShowdown();
  else settings.adoptShowLosing(!me.muckLosing);
  justSat = false;
}

function tellShowdown() {
  const me = mySeat(model);
  const muck = !settings.showLosing();
  if (!me || me.muckLosing === muck) return;
  if (send({ type: "preferences", table: tableId, muck_losing: muck, ref: "preferences" })) me.muckLosing = muck;
}

// The stakes as the room has them now, with the buy-in range that follows them.
async function refreshStakes() {
  let fresh;
  try {
    fresh = await request("GET", `/api/tables/${encodeURIComponent(tableId)}`, undefined, { invite });
  } catch {
    return; // the next change asks again
  }
  if (!model.summary) return;
  for (const key of STAKES_FIELDS) {
    if (key in fresh) model.summary[key] = fresh[key];
    else delete model.summary[key];
  }
  draw();
}

function showStatus(status) {
  connectionBox.dataset.state = status;
  connectionBox.textContent = {
    connecting: t("Connecting…"),
    connected: t("Connected"),
    reconnecting: t("Reconnecting…"),
  }[status];
}

// A refused command: shown next to what was asked.
function refused(message) {
  const ref = message.ref == null ? "" : String(message.ref);
  if (ref === "hello" && message.code === "unauthorized") {
    forget(); // the room no longer knows the token: onIdentityChange says hello as a watcher
    return;
  }
  if (ref === "watch") {
    // a tournament's new table may be a moment from open here: asked again before giving up
    if (message.code === "unknown_table" && watchRetries < WATCH_RETRIES) {
      watchRetries += 1;
      setTimeout(watchTable, 700);
      return;
    }
    tableMessage.hidden = false;
    // A private table answers a stranger as a table that does not exist (unknown_table).
    tableMessage.textContent = message.code === "unknown_table"
      ? t("There is no table here, or it is private: open it with the invite link its host shared.")
      : message.message;
    offerReopen(message.code === "unknown_table" && Boolean(model.player)); // a host's closed table
    document.body.dataset.ready = "1";
    return;
  }
  if (ref.startsWith("act:")) actions.refused(ref, message.message);
  else if (ref === "chat") chat.refused(message.message);
  else if (seating.refused(ref, message.message)) return;
  else if (!controls.refused(ref, message.message)) actions.showError(message.message);
}

// Asks for the table's snapshot (and our turn, if it is) and its events from then on.
function watchTable() {
  const watch = { type: "watch", table: tableId, ref: "watch" };
  if (invite) watch.invite = invite;
  connection.send(watch);
}

function handle(message) {
  for (const note of receive(model, message, Date.now())) {
    switch (note.kind) {
      case "snapshot":
        if (pendingSeat != null && model.player && model.viewer == null) {
          controls.openBuyIn(pendingSeat);
        }
        pendingSeat = null;
        watchRetries = 0;
        showdownChoice();
        tournamentClock.snapshot(model);
        if (movedHere && model.tournament) {
          tournamentClock.tell(t("Moved to table {number}", { number: model.tournament.table_number }));
        }
        movedHere = false;
        drawNow();
        document.body.dataset.ready = "1";
        break;
      case "log":
        chat.addDealer(note.text, note.event);
        break;
      case "chat":
        chat.addChat(note.from, note.text);
        break;
      case "turn":
        actions.render(model);
        if (!actions.onTurn()) settings.beep();
        break;
      case "run_it": // we are asked to run it twice
        settings.beep();
        break;
      case "hand_ended":
        if (handsDialog.open) hands?.refresh(); // else when it is opened again
        if (stakesLater) refreshStakes();
        stakesLater = false;
        tournamentClock.read(model); // hand for hand, the minutes clock
        break;
      case "level": // a tournament's next level: the lobby tells when it ends (minutes)
        tournamentClock.read(model, { now: true });
        break;
      case "eliminated":
        if (model.player && String(note.player) === String(model.player.id)) {
          tournamentClock.tell(t("You are out of the tournament."), model.tournament?.id, t("See your place in the tournament's lobby"));
        }
        break;
      case "moved":
        moveTo(note.to, note.text);
        break;
      case "stakes": // a tournament's come with its level (tournament.js)
        if (!model.tournament) refreshStakes();
        break;
      case "host": // new stakes or options: at once between hands, else when the hand ends
        if (!["stakes", "options"].includes(note.action) || model.tournament) break;
        if (model.hand) stakesLater = true;
        else refreshStakes();
        break;
      case "unwatched":
        leaveTable(note.text, note.reason === "closed");
        break;
      case "invite":
        newInvite(note.invite);
        break;
      case "error":
        refused(note);
        break;
      default:
        break;
    }
  }
  if (message.type === "welcome" && !gone) watchTable();
  if (message.type === "welcome") notes.follow(model.player); // fetched once per player
  if (message.type === "event" && message.event.kind === "chips_added" && message.event.seat === model.viewer) {
    controls.toppedUp();
  }
  draw();
}

// Removed, banned, or the table closed: the room sends nothing more of it. The page says
// why and stops watching (a reload tries again); its host may reopen a closed table.
function leaveTable(text, closed) {
  offerReopen(closed && isHost(model) && !model.tournament);
  gone = true;
  model.summary = null; // nothing more is drawn
  document.body.dataset.gone = "1";
  tableMessage.hidden = false;
  tableMessage.textContent = text;
  // a tournament's table broken or its last one closed: where the places and prizes are
  if (model.tournament) tournamentClock.showLobby(model.tournament.id);
}

// The tournament moved our seat to table `to` (RULES.md 8): the page watches it over the
// same connection (no reconnect), its address says it, and a notice tells the move.
function moveTo(to, text) {
  if (!to) { // seated nowhere now (out, or the tournament over): its lobby tells the place
    leaveTable(model.tournament ? t("You no longer play at this table: the tournament's lobby has your place.") : text, false);
    return;
  }
  const player = model.player;
  Object.assign(model, emptyModel(to), { player });
  tableId = to;
  chat.setTable(to);
  entropy.moveTo(to);
  showCalledOff(document.querySelector("#called-off"), entropy.announced);
  actions.reset();
  hands = null; // the last hands panel is the old table's: mounted anew when opened
  document.querySelector("#hands-panel").replaceChildren();
  if (handsDialog.open) handsDialog.close();
  const url = new URL(location.href);
  url.pathname = `/tables/${encodeURIComponent(to)}`;
  url.searchParams.delete("invite");
  invite = null;
  history.replaceState(history.state, "", url);
  chat.addDealer(text, "moved");
  tournamentClock.tell(text);
  movedHere = true;
  watchTable();
}

// The host's new invite: the link to share, and this page's own address, from now on.
function newInvite(token) {
  invite = token;
  controls.setInvite(token);
  const url = new URL(location.href);
  url.searchParams.set("invite", token);
  history.replaceState(history.state, "", url);
}

reopenButton.addEventListener("click", async () => {
  try {
    await request("POST", `/api/tables/${encodeURIComponent(tableId)}/reopen`);
  } catch (error) {
    tableMessage.textContent = error.message;
    return;
  }
  gone = false;
  delete document.body.dataset.gone;
  offerReopen(false);
  tableMessage.textContent = "";
  watchTable();
});

copyButton.addEventListener("click", async () => {
  let made;
  try {
    made = await request("POST", `/api/tables/${encodeURIComponent(tableId)}/copy`);
  } catch (error) {
    tableMessage.textContent = error.message;
    return;
  }
  const url = new URL(`/tables/${encodeURIComponent(made.table.id)}`, location.origin);
  if (made.invite) url.searchParams.set("invite", made.invite);
  location.assign(url.href);
});

if (!me) me = await askForName({ allowWatch: true }); // null: just watch

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Takes the room's messages in order, lingering where LINGER says, but never while our
// turn or the vote to run it twice waits: the clock runs, so what is left is drawn at once.
async function pump() {
  pumping = true;
  while (inbox.length) {
    const message = inbox.shift();
    handle(message);
    const linger = message.type === "event" ? LINGER[message.event.kind] : 0;
    const ourTurnWaits = inbox.some((waiting) => waiting.type === "turn"
      || (waiting.type === "event" && waiting.event.kind === "run_it"));
    if (linger && !ourTurnWaits) await sleep(linger); // what comes meanwhile waits its turn
  }
  pumping = false;
}

function enqueue(message) {
  if (message.type === "table") {
    // a snapshot holds every event before it
    const rest = inbox.filter((waiting) => waiting.type !== "event");
    inbox.splice(0, inbox.length, ...rest);
  }
  inbox.push(message);
  if (!pumping) pump();
}

const connection = connect({
  onOpen() {
    actions.reset();
    const hello = { type: "hello", ref: "hello", lang }; // the dealer's and the room's words in the page's language
    if (me) hello.token = me.token;
    connection.send(hello);
  },
  onMessage(message) {
    if (!entropy.receive(message)) enqueue(message); // its own refusals are not the player's news
  },
  onStatus: showStatus,
});

// Signing in or out in another tab: say hello again as whoever this is now.
onIdentityChange((found) => {
  if ((found?.token || null) === (me?.token || null)) return;
  me = found;
  connection.restart();
});

// The last 50 hands (hands.js), mounted the first time the panel is opened.
document.querySelector("#open-hands").addEventListener("click", async () => {
  handsDialog.showModal();
  if (hands) {
    hands.refresh();
    return;
  }
  const { mountHands } = await import("../hands.js");
  hands = mountHands(document.querySelector("#hands-panel"), {
    tableId,
    invite,
    announced: entropy.announced,
    me: model.player?.id ?? null,
  });
});
document.querySelector("#close-hands").addEventListener("click", () => handsDialog.close());
