// The table as the page shows it, folded from the room's messages (docs/protocol.md):
// a `table` snapshot replaces everything, each `event` is folded in. No DOM, no I/O.

import { handPlayed, levelChanged, tournamentFromState } from "./tournament.js";

const IN_HAND = ["playing", "all_in"];
// Posts that go to the pot at once (not in front of the seat), and those a seat's label names.
const DEAD_POSTS = ["dead", "ante", "bomb"];
const NAMED_POSTS = ["straddle", "kill", "bomb", "ante"];
// A summary's structure fields (docs/protocol.md): what `stakes_changed` tells anew.
const STAKES = ["structure", "stakes", "small_blind", "big_blind", "small_bet", "big_bet"];

// A fresh model for the table with this id.
export function emptyModel(tableId) {
  return {
    tableId,
    seq: 0,
    player: null,      // {id, name} from `welcome`, null for a watcher
    summary: null,     // the table's summary (name, stakes, host, paused, ...)
    viewer: null,      // our seat, or null
    button: null,
    seats: [],         // index seat-1: a seat object or null (empty)
    hand: null,        // the hand in play
    lastHand: null,    // the hand just over, shown until the next deal
    showdown: emptyShowdown(),
    turn: null,        // our `turn`, until we act or the hand ends
    clock: null,       // {seat, deadline (ms), bank (s)}: who is on the clock
    bombCalled: false, // the host called a bomb pot for the next hand
    killSeat: null,    // the seat that posts a kill blind in the next hand
    requests: [],      // seats asked for: {player, name, seat, buy_in, deadline (ms)}
    waitingList: [],   // the full table's waiting list, in order: {player, name}
    offer: null,       // the seat offered to the first in line: {player, name, seat, deadline}
    tournament: null,  // a tournament's table: its clock (tournament.js), else null
  };
}

// A deadline on the wire (UTC text, or null) as ms.
function wireTime(text) {
  return text ? Date.parse(text) : null;
}

function emptyShowdown() {
  return { awards: [], hands: {} }; // hands: seat -> {high, low} as shown
}

// "fold", "call 4", "raise 12 (all in)": an action as a seat's label shows it.
function actionWords(action, to, added, allIn) {
  if (action === "fold" || action === "check") return action;
  const amount = action === "call" ? added : to;
  return `${action} ${amount}` + (allIn ? " (all in)" : "");
}

function seatAt(model, seat) {
  return model.seats[seat - 1] || null;
}

// Fold one message in; `now` is the time in ms (Date.now()). Returns what the page should
// tell or do: [{kind: "snapshot"} | {kind: "log", text, event} | {kind: "chat", from, text} |
//   {kind: "turn"} | {kind: "hand_ended"} | {kind: "host", action} | {kind: "stakes"} |
//   {kind: "unwatched", reason, text} | {kind: "invite", invite} | {kind: "run_it"} (we are asked) |
//   {kind: "level"} | {kind: "eliminated", seat, player} | {kind: "moved", to, text} |
//   {kind: "error", code, message, ref}].
export function receive(model, message, now) {
  switch (message.type) {
    case "welcome":
      model.player = message.player;
      return [];
    case "table":
      if (message.table !== model.tableId) return [];
      snapshot(model, message);
      return [{ kind: "snapshot" }];
    case "event": {
      if (message.table !== model.tableId || message.seq <= model.seq) return [];
      model.seq = message.seq;
      const event = message.event;
      const fold = FOLDS[event.kind];
      const notes = fold ? fold(model, event, now) || [] : [];
      const lines = event.text ? event.text.split("\n") : [];
      const logs = lines.map((text, index) => ({ kind: "log", text, event: index ? null : event.kind }));
      return [...logs, ...notes];
    }
    case "turn":
      if (message.table !== model.tableId) return [];
      model.turn = {
        hand: message.hand,
        seat: message.seat,
        legal: message.legal,
        deadline: message.deadline ? Date.parse(message.deadline) : null,
        seq: message.seq,
        timeBank: message.time_bank ?? 0,
      };
      setClock(model, message.seat, model.turn.deadline, message.time_bank);
      return [{ kind: "turn" }];
    case "chat":
      if (message.table !== model.tableId) return [];
      return [{ kind: "chat", from: message.from, text: message.text }];
    case "unwatched": // removed, banned, or the table closed: nothing more of it comes
      if (message.table !== model.tableId) return [];
      return [{ kind: "unwatched", reason: message.reason, text: message.text }];
    case "invite": // to the host: the table's new invite
      if (message.table !== model.tableId) return [];
      return [{ kind: "invite", invite: message.invite }];
    case "moved": // the tournament moved our seat to another table (RULES.md 8)
      if (message.table !== model.tableId) return [];
      return [{ kind: "moved", to: message.to ?? null, text: message.text }];
    case "error":
      return [{ kind: "error", code: message.code, message: message.message, ref: message.ref }];
    default:
      return [];
  }
}

function snapshot(model, message) {
  const state = message.state;
  model.seq = message.seq;
  model.summary = { ...state.table };
  model.viewer = state.viewer ?? null;
  model.button = state.button ?? null;
  model.seats = state.seats.map(seatFromSnapshot);
  model.turn = null; // the room sends our turn again after the snapshot
  model.clock = null;
  model.bombCalled = Boolean(state.bomb_called ?? state.table?.bomb_called);
  model.killSeat = state.kill_seat ?? state.table?.kill_seat ?? null;
  model.requests = (state.requests || []).map((asked) => ({ ...asked, deadline: wireTime(asked.deadline) }));
  model.waitingList = (state.waiting_list || []).map((person) => ({ ...person }));
  model.offer = state.offer ? { ...state.offer, deadline: wireTime(state.offer.deadline) } : null;
  const known = model.tournament && model.tournament.id === state.tournament?.id ? model.tournament.schedule : null;
  model.tournament = tournamentFromState(state.tournament, known);
  const hand = state.hand;
  if (hand) {
    const asked = hand.run_it || [];
    model.hand = {
      ...hand,
      board: [...hand.board],
      boards: (hand.boards || []).map((cards) => [...cards]),
      pots: hand.pots.map((pot) => ({ ...pot })),
      toAct: hand.to_act ?? null,
      equity: hand.equity ?? null,
      runs: hand.runs ?? null,
      // the vote's clock is the snapshot's deadline while nobody is to act
      runIt: asked.length ? runItVote(asked, hand.to_act == null ? state.deadline : null) : null,
      posts: new Set(),
      rabbit: [],
    };
    model.lastHand = null;
    model.showdown = emptyShowdown();
    applyEquity(model, hand.equity);
    if (hand.to_act != null) {
      const deadline = state.deadline ? Date.parse(state.deadline) : null;
      setClock(model, hand.to_act, deadline, seatAt(model, hand.to_act)?.timeBank);
    }
  } else {
    model.hand = null;
  }
}

// The vote to run it twice: the seats asked, until when (ms), and each one's answer.
function runItVote(seats, deadline) {
  return { seats: [...seats], deadline: deadline ? Date.parse(deadline) : null, answers: {} };
}

// Which board an event's cards are on: 0 the first (or only) board, 1 the second.
function boardIndex(event) {
  return (event.board_number || 1) - 1;
}

function seatFromSnapshot(seat) {
  if (seat.player == null) return null;
  return {
    seat: seat.seat,
    player: seat.player,
    name: seat.name,
    stack: seat.stack,
    bet: seat.bet || 0,
    status: seat.status || "waiting",
    holeCards: seat.hole_cards || 0,
    lastAction: seat.last_action ?? null,
    cards: seat.cards ? [...seat.cards] : null,
    bot: Boolean(seat.bot),
    connected: seat.connected !== false,
    timeBank: seat.time_bank ?? null,
    away: seat.away ?? seat.status === "sitting_out",
    muckLosing: seat.muck_losing ?? null, // our own seat's showdown preference
    straddle: seat.straddle ?? null, // our own seat's straddle choice: off, next, always
    putIn: null, // chips put in the hand in play (unknown from a snapshot)
    equity: null,
  };
}

function setClock(model, seat, deadline, bank) {
  model.clock = seat == null ? null : { seat, deadline, bank: bank ?? 0 };
  if (model.hand) model.hand.toAct = seat;
}

function addToPot(model, chips) {
  if (model.hand) model.hand.total += chips;
}

// Each seat's figures for the whole pot and, on two boards, each board's
// (`boards`: [board_number, {equity, high, low, scoop}]).
function applyEquity(model, seats, boards = []) {
  for (const seat of model.seats) if (seat) seat.equity = null;
  for (const entry of seats || []) {
    const seat = seatAt(model, entry.seat);
    const own = (boards || []).map((board) => [board.board_number, board.seats.find((s) => s.seat === entry.seat)])
      .filter(([, figures]) => figures);
    if (seat) seat.equity = { ...entry, boards: own };
  }
}

// The time bank a seat used past its deadline comes off its bank.
function spendTimeBank(model, seat, now) {
  const clock = model.clock;
  const picture = seatAt(model, seat);
  if (!clock || clock.seat !== seat || !picture || clock.deadline == null) return;
  const over = Math.max(0, (now - clock.deadline) / 1000);
  if (picture.timeBank != null) picture.timeBank = Math.max(0, picture.timeBank - over);
}

const FOLDS = {
  player_sat(model, event) {
    while (model.seats.length < event.seat) model.seats.push(null);
    model.seats[event.seat - 1] = {
      seat: event.seat, player: event.player, name: event.name, stack: event.stack,
      bet: 0, status: "waiting", holeCards: 0, lastAction: null, cards: null,
      bot: false, connected: true, equity: null, away: false, muckLosing: null, straddle: null, putIn: null,
      timeBank: model.summary?.time_bank_seconds ?? null,
    };
    if (model.summary) model.summary.players += 1;
    if (model.player && event.player === model.player.id) model.viewer = event.seat;
    seatTaken(model, event.player, event.seat);
  },
  player_left(model, event) {
    model.seats[event.seat - 1] = null;
    if (model.summary) model.summary.players = Math.max(0, model.summary.players - 1);
    if (event.seat === model.viewer) {
      model.viewer = null;
      model.turn = null;
    }
  },
  sat_out(model, event) {
    const seat = seatAt(model, event.seat);
    if (!seat) return;
    seat.away = true;
    const dealt = model.hand && (IN_HAND.includes(seat.status) || seat.status === "folded");
    if (!dealt) seat.status = "sitting_out";
  },
  sat_in(model, event) {
    const seat = seatAt(model, event.seat);
    if (!seat) return;
    seat.away = false;
    if (seat.status === "sitting_out") seat.status = "waiting";
  },
  chips_added(model, event) {
    const seat = seatAt(model, event.seat);
    if (!seat) return;
    const busted = seat.stack === 0 && seat.status === "waiting" && !model.hand;
    seat.stack = event.stack;
    if (busted) seat.status = "ready";
  },
  // The host's edit of a stack, between hands: as chips added (or taken).
  stack_edited(model, event) {
    FOLDS.chips_added(model, event);
  },
  // The next hands' stakes: at once in the summary (a mixed table keeps its own, whose
  // rounds take turns); the page asks the room for the rest (the buy-in range).
  stakes_changed(model, event) {
    if (!model.summary) return;
    if (model.summary.structure !== "mixed") {
      for (const key of STAKES) {
        if (key in event) model.summary[key] = event[key];
        else delete model.summary[key];
      }
    }
    return [{ kind: "stakes" }];
  },
  hand_started(model, event) {
    model.hand = {
      id: event.hand, number: event.number, button: event.button, street: "preflop",
      board: [], boards: [], runs: null, runIt: null, posts: new Set(), rabbit: [],
      pots: [], total: 0, toAct: null, equity: null,
      structure: event.structure, stakes: event.stakes,
      small_blind: event.small_blind, big_blind: event.big_blind,
      small_bet: event.small_bet, big_bet: event.big_bet,
      variant: event.variant,
    };
    model.lastHand = null;
    model.showdown = emptyShowdown();
    model.turn = null;
    model.clock = null;
    model.button = event.button;
    model.bombCalled = false; // a bomb pot called is this hand's (its posts say)
    model.killSeat = null;
    const bankMax = model.summary?.time_bank_seconds ?? 0;
    const dealt = new Map(event.seats.map((entry) => [entry.seat, entry.stack]));
    for (const seat of model.seats) {
      if (!seat) continue;
      Object.assign(seat, { bet: 0, cards: null, holeCards: 0, lastAction: null, equity: null, putIn: null });
      if (dealt.has(seat.seat)) {
        seat.stack = dealt.get(seat.seat);
        seat.status = "playing";
        seat.putIn = 0;
        seat.away = false;
        if (seat.timeBank != null) seat.timeBank = Math.min(bankMax, seat.timeBank + 2);
      } else {
        seat.status = seat.away ? "sitting_out" : "waiting";
      }
    }
  },
  // A blind, straddle or kill is live, in front of the seat; an ante, a bomb or a dead
  // blind goes straight to the pot. The seat's label says the post that is not a blind.
  posted(model, event) {
    const seat = seatAt(model, event.seat);
    if (!seat) return;
    const inFront = !DEAD_POSTS.includes(event.post);
    seat.stack -= event.amount;
    if (seat.putIn != null) seat.putIn += event.amount;
    if (inFront) seat.bet += event.amount;
    if (event.all_in) seat.status = "all_in";
    if (NAMED_POSTS.includes(event.post)) {
      seat.lastAction = actionWords(event.post, event.amount, event.amount, event.all_in);
    } else if (seat.lastAction?.startsWith("ante")) {
      seat.lastAction = null; // a blind after the ante: the bet in front says it
    }
    if (event.post === "straddle" && seat.straddle === "next") seat.straddle = "off"; // spent when posted
    model.hand?.posts.add(event.post);
    addToPot(model, event.amount);
  },
  dealt(model, event) {
    const seat = seatAt(model, event.seat);
    if (!seat) return;
    seat.holeCards = event.count;
    if (event.cards) seat.cards = [...event.cards];
  },
  face_up(model, event) {
    const seat = seatAt(model, event.seat);
    if (seat) seat.cards = [...event.cards];
  },
  equity(model, event) {
    if (model.hand) model.hand.equity = event.seats;
    applyEquity(model, event.seats, event.boards);
  },
  // The board's cards so far; on two boards (or runs), `board_number` says which.
  board(model, event) {
    const hand = model.hand;
    if (!hand) return;
    hand.street = event.street;
    const index = boardIndex(event);
    if (index === 0) hand.board = [...event.board];
    if (hand.boards.length || index > 0) {
      if (!hand.boards.length) hand.boards = [[...hand.board], []];
      hand.boards[index] = [...event.board];
    }
  },
  // The players still in are asked whether to run the board twice, until a deadline.
  run_it(model, event) {
    if (!model.hand) return;
    model.hand.runIt = runItVote(event.seats, event.deadline);
    if (event.seats.includes(model.viewer)) return [{ kind: "run_it" }];
  },
  run_it_answered(model, event) {
    const vote = model.hand?.runIt;
    if (vote) vote.answers[event.seat] = event.yes;
  },
  // The vote's outcome: twice, the second run starts as a copy of the first's board.
  runs(model, event) {
    const hand = model.hand;
    if (!hand) return;
    hand.runs = event.times;
    hand.runIt = null;
    if (event.times > 1 && !hand.boards.length) hand.boards = [[...hand.board], [...hand.board]];
  },
  // The room says whose decision it is, and until when (docs/protocol.md, `to_act`).
  to_act(model, event) {
    const deadline = event.deadline ? Date.parse(event.deadline) : null;
    setClock(model, event.seat, deadline, event.time_bank ?? seatAt(model, event.seat)?.timeBank);
  },
  acted(model, event, now) {
    const seat = seatAt(model, event.seat);
    if (!seat) return;
    spendTimeBank(model, event.seat, now);
    seat.stack -= event.added;
    if (seat.putIn != null) seat.putIn += event.added;
    seat.bet = event.to;
    if (event.action === "fold") {
      seat.status = "folded";
      seat.holeCards = 0;
    } else if (event.all_in) {
      seat.status = "all_in";
    }
    seat.lastAction = actionWords(event.action, event.to, event.added, event.all_in);
    addToPot(model, event.added);
    if (event.seat === model.viewer) model.turn = null;
    setClock(model, null);
  },
  round_ended(model, event) {
    for (const seat of model.seats) {
      if (!seat) continue;
      seat.bet = 0;
      if (seat.status === "playing") seat.lastAction = null;
    }
    if (model.hand && event.pots) model.hand.pots = event.pots.map((pot) => ({ ...pot }));
    setClock(model, null);
  },
  // The part of a bet nobody called comes back: the seat's label says the bet that
  // stands ("raise 319 (all in)" becomes "raise 178"), and a seat with chips again is no
  // longer all in.
  uncalled(model, event) {
    const seat = seatAt(model, event.seat);
    if (!seat) return;
    seat.stack += event.amount;
    seat.bet = Math.max(0, seat.bet - event.amount);
    if (seat.putIn != null) seat.putIn -= event.amount;
    if (seat.status === "all_in" && seat.stack > 0) seat.status = "playing";
    const [action] = (seat.lastAction || "").split(" ");
    if (action === "bet" || action === "raise") {
      seat.lastAction = seat.bet ? actionWords(action, seat.bet, 0, seat.stack === 0) : null;
    }
    addToPot(model, -event.amount);
  },
  shown(model, event) {
    const seat = seatAt(model, event.seat);
    if (seat) seat.cards = [...event.cards];
    model.showdown.hands[event.seat] = { high: event.high, low: event.low, boards: event.boards || [] };
    setClock(model, null);
  },
  mucked(model, event) {
    const seat = seatAt(model, event.seat);
    if (seat) {
      seat.lastAction = "muck";
      seat.holeCards = 0;
    }
    setClock(model, null);
  },
  rake(model, event) {
    addToPot(model, -event.amount);
  },
  pot_awarded(model, event) {
    const seat = seatAt(model, event.seat);
    if (seat) seat.stack += event.amount;
    addToPot(model, -event.amount);
    const pot = model.hand?.pots?.[event.pot];
    if (pot) pot.amount = Math.max(0, pot.amount - event.amount);
    model.showdown.awards.push(event);
    setClock(model, null);
  },
  hand_ended(model, event) {
    const stacks = new Map(event.stacks.map((entry) => [entry.seat, entry.stack]));
    for (const [number, stack] of stacks) {
      const seat = seatAt(model, number);
      if (!seat) continue;
      seat.stack = stack;
      seat.bet = 0;
      seat.holeCards = 0; // the cards left on view are those shown (and our own)
      seat.status = seat.away ? "sitting_out" : stack ? "ready" : "waiting";
    }
    model.lastHand = model.hand;
    model.hand = null;
    model.turn = null;
    model.clock = null;
    handPlayed(model.tournament);
    return [{ kind: "hand_ended" }];
  },
  // A tournament's next level (RULES.md 8): its blinds and ante from the next hand.
  level(model, event) {
    levelChanged(model.tournament, event);
    return [{ kind: "level" }];
  },
  // A player of the tournament with no chips is out; their seat empties (player_left).
  eliminated(model, event) {
    return [{ kind: "eliminated", seat: event.seat, player: event.player }];
  },
  // What would have come, after a hand that ended before the river: shown on that hand's
  // board, never dealt.
  rabbit(model, event) {
    const hand = model.hand || model.lastHand;
    if (hand) hand.rabbit = event.streets.map((street) => ({ ...street, cards: [...street.cards] }));
  },
  straddle_chosen(model, event) {
    const seat = seatAt(model, event.seat);
    if (seat) seat.straddle = event.straddle;
  },
  bomb_pot_called(model) {
    model.bombCalled = true;
  },
  kill_due(model, event) {
    model.killSeat = event.seat;
  },
  // Who waits for a seat (docs/protocol.md "Seats by approval and the waiting list").
  seat_request(model, event, now) {
    model.requests = model.requests.filter((asked) => asked.seat !== event.seat);
    if (event.state === "asked") {
      const { player, name, seat, buy_in } = event;
      model.requests.push({ player, name, seat, buy_in, deadline: now + event.seconds * 1000 });
    }
  },
  waiting_list(model, event) {
    model.waitingList = model.waitingList.filter((person) => person.player !== event.player);
    if (event.joined) model.waitingList.push({ player: event.player, name: event.name });
    else if (model.offer?.player === event.player) model.offer = null;
  },
  seat_offer(model, event, now) {
    const { player, name, seat } = event;
    if (event.state === "offered") {
      model.offer = { player, name, seat, deadline: now + event.seconds * 1000 };
    } else {
      if (model.offer?.player === player) model.offer = null;
      model.waitingList = model.waitingList.filter((person) => person.player !== player);
    }
  },
  host(model, event) {
    if (event.action === "approve" || event.action === "reject") {
      model.requests = model.requests.filter((asked) => asked.seat !== event.seat);
    }
    if (!model.summary) return;
    if (event.action === "pause") model.summary.paused = true;
    if (event.action === "resume") model.summary.paused = false;
    if (event.action === "host") model.summary.host = event.host;
    return [{ kind: "host", action: event.action }];
  },
};

// A seat taken: its request is answered, the player is off the list, an offer to them done.
function seatTaken(model, player, seat) {
  model.requests = model.requests.filter((asked) => asked.seat !== seat && asked.player !== player);
  model.waitingList = model.waitingList.filter((person) => person.player !== player);
  if (model.offer && (model.offer.player === player || model.offer.seat === seat)) model.offer = null;
}

// ---------------------------------------------------------------- derived views

export function mySeat(model) {
  return model.viewer == null ? null : seatAt(model, model.viewer);
}

// Whom an empty seat is held for: a request's player, or the offer's; null when free.
export function heldFor(model, seat) {
  const asked = model.requests.find((request) => request.seat === seat);
  if (asked) return { player: asked.player, name: asked.name };
  if (model.offer?.seat === seat) return { player: model.offer.player, name: model.offer.name };
  return null;
}

export function isHost(model) {
  return Boolean(model.player && model.summary && String(model.summary.host) === String(model.player.id));
}

// The hand being shown: the one in play, or the one just over (its showdown).
export function shownHand(model) {
  return model.hand || model.lastHand;
}

// The biggest bet in front of any seat this round (the bet to match).
export function currentBet(model) {
  return Math.max(0, ...model.seats.filter(Boolean).map((seat) => seat.bet));
}

// Whether we hold live cards in the hand in play.
export function inHand(model) {
  const me = mySeat(model);
  return Boolean(model.hand && me && IN_HAND.includes(me.status));
}

// The legal entry named `action` of our turn, or undefined.
export function legalEntry(model, action) {
  return model.turn?.legal.find((entry) => entry.action === action);
}

// The structure being played: the hand's, else the table's.
export function structure(model) {
  return shownHand(model)?.structure || model.summary?.structure || "pot-limit";
}
