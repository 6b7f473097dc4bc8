// The felt: seats round an oval (ours at the bottom centre), their cards, stacks, bets and
// last actions, the button, the clock of the player to act, the board (or two boards, or
// two runs, each labelled; a rabbit hunt's cards marked as never dealt), the pots, what
// kind of hand it is (a bomb pot, a kill pot), the showdown (winning cards, HIGH/LOW
// awards, each share's board or run) and the all-in equities; on another player's seat,
// the viewer's private note and colour tag on them (notes.js).

import { cardElement } from "../cards.js";
import { heldFor, mySeat, shownHand } from "./state.js";
import { element } from "../dom.js";
import { actionText } from "../game-words.js";
import { t, tn } from "../i18n.js";
import { boardWords, dealtOn, shareWords } from "../share-words.js";
import { colourWord } from "./notes.js";

const STATUS_WORDS = { sitting_out: t("Away"), waiting: t("Waiting") };

const NO_HELP = { high: [], low: [] };

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

function percent(value) {
  return `${Math.round(value * 100)}%`;
}


export function createFelt(root, { onSit, notes }) {
  const seatsLayer = root.querySelector("#seats");
  const board = root.querySelector("#board");
  const pots = root.querySelector("#pots");
  const potTotal = root.querySelector("#pot-total");
  const message = root.querySelector("#table-message");
  const rabbitNote = root.querySelector("#rabbit-note");
  const handTags = root.querySelector("#hand-tags");
  const helper = root.querySelector("#hand-helper");
  const seatNodes = new Map(); // seat number -> element
  let lastModel = null;
  let highlight = NO_HELP;
  const gathering = []; // bets on their way to the pot: {chip, from}

  // Where each seat sits, as fractions of the felt, ours (index 0) at the bottom centre and
  // the others clockwise from it: on a phone in two columns and a top row, on a wide screen
  // evenly (by length) round an oval, clear of our cards.
  function anchors(count, portrait, width, height) {
    const centre = { x: 0.5, y: portrait ? 0.45 : 0.465 };
    const places = [{ x: 0.5, y: portrait ? 0.845 : 0.83 }];
    const others = count - 1;
    if (portrait) {
      const sides = others <= 2 ? 0 : Math.max(1, Math.round(others / 3));
      const top = others - 2 * sides;
      const sideY = (i) => (sides === 1 ? 0.62 : 0.64 - (i * 0.36) / (sides - 1));
      const topX = (i) => (top === 1 ? 0.5 : 0.245 + (i * 0.51) / (top - 1));
      for (let i = 0; i < sides; i += 1) places.push({ x: 0.115, y: sideY(i) });
      for (let i = 0; i < top; i += 1) places.push({ x: topX(i), y: 0.1 });
      for (let i = sides - 1; i >= 0; i -= 1) places.push({ x: 0.885, y: sideY(i) });
    } else {
      const radius = { x: 0.41, y: 0.365 };
      const steps = 720;
      const points = [];
      let length = 0;
      for (let i = 0; i <= steps; i += 1) {
        const angle = Math.PI / 2 + (i * 2 * Math.PI) / steps;
        const point = { x: centre.x + radius.x * Math.cos(angle), y: centre.y + radius.y * Math.sin(angle) };
        if (points.length) {
          const last = points[points.length - 1];
          length += Math.hypot((point.x - last.x) * width, (point.y - last.y) * height);
        }
        points.push({ ...point, along: length });
      }
      const gap = Math.max(length / count, length * 0.14);
      for (let k = 0; k < others; k += 1) {
        const along = others === 1 ? length / 2 : gap + (k * (length - 2 * gap)) / (others - 1);
        const point = points.find((p) => p.along >= along) || points[points.length - 1];
        places.push({ x: point.x, y: point.y });
      }
    }
    return places.map((place) => ({ ...place, centre }));
  }

  function seatNode(number) {
    let node = seatNodes.get(number);
    if (node) return node;
    node = element("div", "seat");
    node.setAttribute("role", "group");
    node.dataset.seat = String(number);
    seatNodes.set(number, node);
    seatsLayer.append(node);
    return node;
  }

  // The parts of an occupied seat, made once and filled on each render.
  function occupiedParts(node) {
    if (node.dataset.kind === "occupied") return;
    node.dataset.kind = "occupied";
    node.replaceChildren();
    const cards = element("div", "cards");
    const plate = element("div", "plate");
    const countdown = element("div", "countdown");
    countdown.setAttribute("role", "timer");
    countdown.append(element("span", "countdown-text"));
    const name = element("span", "name");
    const stack = element("span", "stack");
    const action = element("span", "last-action");
    const marks = element("span", "marks");
    const awards = element("div", "awards");
    // the viewer's note on the player: a small button on the plate's corner (the tag's
    // colour), or a click on the name, opens the editor
    const note = element("button", "note-button");
    note.type = "button";
    const editNote = () => notes.edit(node.dataset.player, name.textContent);
    note.addEventListener("click", editNote);
    name.addEventListener("click", () => {
      if (!note.hidden) editNote();
    });
    plate.append(countdown, name, stack, action, marks, awards, note);
    const bet = element("div", "bet");
    const equity = element("div", "equity");
    node.append(cards, plate, bet, equity);
  }

  // An empty seat: a button to sit, or its label (held for a player who asked or was
  // offered it: their name).
  function emptyParts(node, number, canSit, held) {
    const kind = held ? `held:${held.name}` : canSit ? "sit" : "empty";
    if (node.dataset.kind === kind) return;
    node.dataset.kind = kind;
    node.replaceChildren();
    if (held) {
      node.append(element("span", "empty-label", t("Held for {name}", { name: held.name })));
    } else if (canSit) {
      const button = element("button", "sit-button", t("Sit"));
      button.type = "button";
      button.setAttribute("aria-label", t("Sit in seat {seat}", { seat: number }));
      button.addEventListener("click", () => onSit(number));
      node.append(button);
    } else {
      node.append(element("span", "empty-label", t("Empty")));
    }
  }

  function drawCards(container, cards, { count, size }) {
    const key = `${size}|${cards ? cards.join("") : `backs:${count}`}`;
    if (container.dataset.key === key) return;
    container.dataset.key = key;
    const nodes = cards
      ? cards.map((card) => cardElement(card, { size }))
      : Array.from({ length: count }, () => cardElement("??", { size }));
    container.replaceChildren(...nodes);
    if (size === "large" && cards && !reducedMotion.matches) {
      nodes.forEach((node, index) => {
        node.classList.add("dealt");
        node.style.animationDelay = `${index * 70}ms`;
      });
    }
    container.classList.toggle("face-up", Boolean(cards));
    container.classList.toggle("turned", Boolean(cards) && size === "small" && !reducedMotion.matches);
  }

  // The five cards of each winning hand (of one seat's awards, or of all: seat null; of the
  // awards on one board: board_number, or on any: null).
  function winningCards(model, seat, boardNumber = null) {
    const cards = new Set();
    for (const award of model.showdown.awards) {
      if (seat != null && award.seat !== seat) continue;
      if (boardNumber != null && (award.board_number || 1) !== boardNumber) continue;
      for (const part of [award.high, award.low]) for (const card of part?.cards || []) cards.add(card);
    }
    return cards;
  }

  // The helper's cards to mark: none once the showdown's winners are marked.
  function helped(model) {
    return model.showdown.awards.length ? NO_HELP : highlight;
  }

  // Marks the cards that win at the showdown, and those of the hand helper's high and low.
  function markCards(container, winning, helped) {
    for (const card of container.querySelectorAll(".card")) {
      card.classList.toggle("winning", winning.has(card.dataset.card));
      card.classList.toggle("helper-high", helped.high.includes(card.dataset.card));
      card.classList.toggle("helper-low", helped.low.includes(card.dataset.card));
    }
    container.classList.toggle("has-winner", winning.size > 0);
  }

  // Each award of the seat: what it won, how much, and where from (the board or run, the
  // side pot), with the whole share in words for its title and screen readers.
  function awardLabels(model, seat) {
    const labels = [];
    const dealt = dealtOn(shownHand(model));
    for (const award of model.showdown.awards) {
      if (award.seat !== seat || !award.amount) continue;
      const [words, kind] = award.share === "high" ? [t("HIGH"), "high"]
        : award.share === "low" ? [t("LOW"), "low"]
        : award.high && award.low ? [t("HIGH + LOW"), "scoop"]
        : award.low ? [t("LOW"), "low"]
        : award.high ? [t("HIGH"), "high"]
        : [t("WINS"), "high"]; // uncontested
      const pot = award.pot ? ` · ${t("side pot {number}", { number: award.pot })}` : "";
      const board = dealt ? boardWords(award, dealt) : null;
      const text = `${words} ${award.amount}${board ? ` · ${board}` : ""}${pot}`;
      const title = dealt ? `${words} ${award.amount}: ${shareWords(award, dealt)}` : "";
      labels.push({ text, share: kind, title });
    }
    return labels;
  }

  function drawSeat(model, seat, number, position, isMe, layout) {
    const node = seatNode(number);
    const hand = shownHand(model);
    node.className = "seat";
    node.style.left = percent(position.x);
    node.style.top = percent(position.y);
    node.dataset.row = position.y < position.centre.y ? "top" : "bottom";
    if (!seat) {
      node.classList.add("empty");
      const held = heldFor(model, number);
      const mine = held && model.player && held.player === String(model.player.id);
      emptyParts(node, number, model.viewer == null && !model.tournament, mine ? null : held); // a tournament seats its players
      node.setAttribute(
        "aria-label",
        held && !mine
          ? t("Seat {seat}: held for {name}", { seat: number, name: held.name })
          : t("Seat {seat}: empty", { seat: number }),
      );
      return;
    }
    occupiedParts(node);
    const cards = node.querySelector(".cards");
    if (isMe) cards.id = "my-cards";
    else cards.removeAttribute("id");
    const onClock = model.clock?.seat === number && model.hand != null;
    node.classList.toggle("me", isMe);
    node.classList.toggle("to-act", onClock);
    node.classList.toggle("sitting-out", seat.status === "sitting_out" || seat.away);
    node.classList.toggle("disconnected", !seat.connected);
    node.classList.toggle("folded", seat.status === "folded");
    node.classList.toggle("all-in", seat.status === "all_in");
    node.classList.toggle("bot", seat.bot);
    const awards = awardLabels(model, number);
    node.classList.toggle("winner", awards.length > 0);

    drawCards(cards, seat.cards, { count: seat.holeCards, size: isMe ? "large" : "small" });
    markCards(cards, winningCards(model, number), isMe && hand ? helped(model) : NO_HELP);

    const name = node.querySelector(".name");
    name.textContent = seat.name;
    name.classList.toggle("long", seat.name.length > 8);
    node.querySelector(".stack").textContent = String(seat.stack);
    const last = node.querySelector(".last-action");
    last.textContent = seat.status === "folded" ? t("Fold") : actionText(seat.lastAction);
    last.dataset.action = (seat.lastAction || "").split(" ")[0];
    const marks = node.querySelector(".marks");
    const words = [];
    if (seat.away) words.push(t("Away")); // in a hand too: the room checks or folds for them
    else if (STATUS_WORDS[seat.status] && !(seat.status === "waiting" && model.hand == null)) {
      words.push(STATUS_WORDS[seat.status]);
    }
    if (!seat.connected) words.push(t("Disconnected"));
    if (model.killSeat === number) words.push(t("Kills next hand"));
    marks.textContent = words.join(" · ");

    const bet = node.querySelector(".bet");
    if (!seat.bet && Number(bet.dataset.amount) > 0 && model.hand) gather(bet);
    bet.hidden = !seat.bet;
    bet.textContent = seat.bet ? String(seat.bet) : "";
    bet.dataset.amount = String(seat.bet || 0);
    bet.style.setProperty("--dx", `${layout.betX}px`);
    bet.style.setProperty("--dy", `${layout.betY}px`);

    const equity = node.querySelector(".equity");
    drawEquity(equity, model.showdown.awards.length ? null : seat.equity); // the awards tell the rest
    equity.style.setProperty("--dx", `${layout.betX}px`);
    equity.style.setProperty("--dy", `${layout.betY}px`);

    const awardBox = node.querySelector(".awards");
    const awardKey = awards.map((award) => award.text).join("|");
    if (awardBox.dataset.key !== awardKey) {
      awardBox.dataset.key = awardKey;
      awardBox.replaceChildren(...awards.map((award) => {
        const chip = element("span", `award ${award.share}`, award.text);
        if (award.title) chip.title = award.title;
        return chip;
      }));
    }

    let button = node.querySelector(".dealer-button");
    if (model.button === number && !button) {
      button = element("span", "dealer-button", "D");
      button.setAttribute("aria-label", t("Dealer button"));
      button.setAttribute("role", "img");
      node.querySelector(".plate").append(button);
    } else if (model.button !== number && button) {
      button.remove();
    }
    // beside the plate, on the side of the table's centre (under it at the top)
    node.dataset.button = position.y < 0.2 ? "below"
      : isMe || (position.x >= 0.4 && position.x <= 0.6) ? (position.y < position.centre.y ? "below" : "right")
      : position.x < 0.4 ? "right" : "left";

    const label = [t("Seat {seat}: {name}", { seat: number, name: seat.name }), t("stack {amount}", { amount: seat.stack })];
    if (seat.bet) label.push(t("bet {amount}", { amount: seat.bet }));
    if (words.length) label.push(words.join(", "));
    label.push(...drawNote(node, seat, isMe));
    node.setAttribute("aria-label", label.join(", "));
  }

  // The viewer's note on another player's seat: the tag's colour on the plate's corner, the
  // text as the plate's tooltip; what the seat's label says of it.
  function drawNote(node, seat, isMe) {
    const plate = node.querySelector(".plate");
    const button = node.querySelector(".note-button");
    const note = notes.noteOn(seat.player);
    const notable = !isMe && notes.canNote(seat.player);
    node.dataset.player = String(seat.player);
    node.classList.toggle("notable", notable);
    button.hidden = !notable;
    button.classList.toggle("noted", Boolean(note));
    if (note?.colour) button.dataset.noteColour = note.colour;
    else delete button.dataset.noteColour;
    button.setAttribute("aria-label", note ? t("Your note on {name}", { name: seat.name })
      : t("Write a note on {name}", { name: seat.name }));
    if (note?.text) plate.title = note.text;
    else plate.removeAttribute("title");
    if (!notable || !note) return [];
    const said = note.colour ? [t("tagged {colour}", { colour: colourWord(note.colour) })] : [];
    if (note.text) said.push(t("your note: {text}", { text: note.text }));
    return said;
  }

  // A bet gathered into the pot slides to the middle once the felt is drawn (no motion:
  // it just goes).
  function gather(bet) {
    if (reducedMotion.matches || bet.hidden) return;
    const chip = element("div", "chip-flight", bet.textContent);
    chip.setAttribute("aria-hidden", "true");
    gathering.push({ chip, from: bet.getBoundingClientRect() });
  }

  function flyToPot() {
    const to = (pots.firstElementChild || potTotal).getBoundingClientRect();
    for (const { chip, from } of gathering.splice(0)) {
      chip.style.left = `${from.left}px`;
      chip.style.top = `${from.top}px`;
      document.body.append(chip);
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      requestAnimationFrame(() => {
        chip.style.transform = `translate(${dx}px, ${dy}px)`;
        chip.style.opacity = "0";
      });
      setTimeout(() => chip.remove(), 500);
    }
  }

  function drawEquity(box, entry) {
    box.hidden = !entry;
    if (!entry) {
      box.replaceChildren();
      return;
    }
    const pct = (value) => `${Math.round((value || 0) * 100)}%`;
    const main = element("span", "equity-main");
    main.append(
      element("span", "equity-share", pct(entry.equity)),
      element("span", "equity-sep", " · "),
      element("span", "equity-scoop", t("scoop {percent}", { percent: pct(entry.scoop) })),
    );
    const parts = element("span", "equity-parts");
    parts.append(
      element("span", "equity-high", t("hi {percent}", { percent: pct(entry.high) })),
      element("span", "equity-sep", " · "),
      element("span", "equity-low", t("lo {percent}", { percent: pct(entry.low) })),
    );
    const label = t("Equity {equity}: high {high}, low {low}, scoop {scoop}", {
      equity: pct(entry.equity), high: pct(entry.high), low: pct(entry.low), scoop: pct(entry.scoop),
    });
    const perBoard = boardEquities(entry);
    if (!perBoard.length) {
      box.replaceChildren(main, parts);
      box.setAttribute("aria-label", label);
      return;
    }
    // two boards: each board's share of the pot, with its high, low and scoop said in full
    const line = element("span", "equity-boards");
    const said = [label];
    perBoard.forEach(([number, own], index) => {
      if (index) line.append(element("span", "equity-sep", " · "));
      const words = { number, equity: pct(own.equity), high: pct(own.high), low: pct(own.low), scoop: pct(own.scoop) };
      line.append(element("span", "equity-board", t("B{number} {percent}", { number, percent: words.equity })));
      said.push(t("board {number}: equity {equity}, high {high}, low {low}, scoop {scoop}", words));
    });
    box.replaceChildren(main, parts, line);
    box.setAttribute("aria-label", said.join("; "));
  }

  // A seat's figures on each board ([board_number, {equity, high, low, scoop}]), as the
  // model keeps them (state.js); none with one board.
  function boardEquities(entry) {
    return entry.boards || [];
  }

  // An equity box sits toward the centre, but never over the board: one that would cover
  // a card (a seat facing the board across a narrow gap) comes back toward its seat. Its
  // place is worked out from the layout (a box read while it moves is where it was).
  function clearOfBoard() {
    const cards = [...board.querySelectorAll(".card")].map((card) => card.getBoundingClientRect());
    if (!cards.length) return;
    const margin = 4;
    const covers = (box) => cards.some((card) => box.left < card.right + margin
      && card.left - margin < box.right && box.top < card.bottom + margin && card.top - margin < box.bottom);
    for (const node of seatNodes.values()) {
      const equity = node.querySelector(".equity");
      if (!equity || equity.hidden || node.classList.contains("me")) continue;
      const seat = node.getBoundingClientRect();
      const x = seat.left + seat.width / 2;
      const y = seat.top + seat.height / 2;
      const [halfWidth, halfHeight] = [equity.offsetWidth / 2, equity.offsetHeight / 2];
      const dx = parseFloat(equity.style.getPropertyValue("--dx")) || 0;
      const dy = parseFloat(equity.style.getPropertyValue("--dy")) || 0;
      const at = (share) => ({
        left: x + dx * share - halfWidth, right: x + dx * share + halfWidth,
        top: y + dy * share - halfHeight, bottom: y + dy * share + halfHeight,
      });
      let share = 1;
      while (share > 0 && covers(at(share))) share = Math.max(0, share - 0.05);
      equity.style.setProperty("--dx", `${dx * share}px`);
      equity.style.setProperty("--dy", `${dy * share}px`);
    }
  }

  // One board's cards, then the rabbit hunt's on it (never dealt: marked so); `had` the
  // cards drawn before, which are not dealt again.
  function boardCards(cards, rabbit, had) {
    const nodes = cards.map((card, index) => {
      const node = cardElement(card);
      if (index >= had && !reducedMotion.matches) node.classList.add("dealt");
      return node;
    });
    for (const card of rabbit) {
      const node = cardElement(card);
      node.classList.add("rabbit");
      node.setAttribute("aria-label", t("{card}, never dealt", { card: node.getAttribute("aria-label") }));
      nodes.push(node);
    }
    return nodes;
  }

  // What a screen reader hears of the board: its cards so far, and the rabbit's.
  function boardLabel(cards, rabbit) {
    const said = cards.length ? tn("Board: {count} card", "Board: {count} cards", cards.length) : t("Board: no cards yet");
    return rabbit.length ? `${said}, ${tn("{count} card of the rabbit hunt, never dealt", "{count} cards of the rabbit hunt, never dealt", rabbit.length)}` : said;
  }

  // The board; on two boards or runs, a row for each, labelled ("Board 2", "Run 2"), and the
  // winning cards marked on the board they won on.
  function drawBoard(model) {
    const hand = shownHand(model);
    const dealt = dealtOn(hand);
    const boards = !hand ? [[]] : dealt ? hand.boards : [hand.board];
    const rabbits = boards.map((_, index) => (hand?.rabbit || [])
      .filter((street) => (street.board_number || 1) === index + 1).flatMap((street) => street.cards));
    const key = JSON.stringify([dealt, boards, rabbits]);
    if (board.dataset.key !== key) {
      board.dataset.key = key;
      board.classList.toggle("two", Boolean(dealt));
      if (!dealt) {
        board.replaceChildren(...boardCards(boards[0], rabbits[0], board.querySelectorAll(":scope > .card:not(.rabbit)").length));
      } else {
        const rows = boards.map((cards, index) => {
          const before = board.querySelector(`.board-row[data-board="${index + 1}"]`)
            || (index === 0 ? board : null); // the first board, drawn alone until the second came
          const had = before ? before.querySelectorAll(":scope > .card:not(.rabbit)").length : 0;
          const row = element("div", "board-row");
          row.dataset.board = String(index + 1);
          const name = dealt === "runs" ? t("Run {number}", { number: index + 1 }) : t("Board {number}", { number: index + 1 });
          row.setAttribute("role", "group");
          const unseen = rabbits[index].length;
          row.setAttribute("aria-label", unseen ? `${name}, ${tn("{count} card of the rabbit hunt, never dealt", "{count} cards of the rabbit hunt, never dealt", unseen)}` : name);
          const label = element("span", "board-name", name);
          label.setAttribute("aria-hidden", "true");
          row.append(label, ...boardCards(cards, rabbits[index], had));
          return row;
        });
        board.replaceChildren(...rows);
      }
    }
    const rabbitCount = rabbits.flat().length;
    rabbitNote.hidden = !rabbitCount;
    rabbitNote.textContent = rabbitCount ? t("Rabbit hunt: the cards that would have come, never dealt") : "";
    if (dealt) {
      for (const row of board.querySelectorAll(".board-row")) {
        const number = Number(row.dataset.board);
        markCards(row, winningCards(model, null, number), number === 1 ? helped(model) : NO_HELP);
      }
      board.classList.remove("has-winner");
      board.setAttribute("aria-label", dealt === "runs" ? t("The board, run twice") : t("Two boards"));
    } else {
      markCards(board, winningCards(model, null), helped(model));
      board.setAttribute("aria-label", boardLabel(boards[0], rabbits[0]));
    }
  }

  // What kind of hand this is, when it is not the usual one: a bomb pot, a kill pot; and
  // between hands, a bomb pot the host called for the next.
  function drawTags(model) {
    const hand = model.hand;
    const tags = [];
    if (hand?.posts?.has("bomb")) tags.push(t("Bomb pot"));
    if (hand?.posts?.has("kill")) tags.push(t("Kill pot"));
    if (model.bombCalled) tags.push(t("Bomb pot next hand"));
    const key = tags.join("|");
    if (handTags.dataset.key === key) return;
    handTags.dataset.key = key;
    handTags.replaceChildren(...tags.map((tag) => element("span", "hand-tag", tag)));
    handTags.hidden = !tags.length;
  }

  function drawPots(model) {
    const hand = model.hand;
    const gathered = hand ? hand.pots.filter((pot) => pot.amount > 0) : [];
    pots.replaceChildren(...gathered.map((pot, index) => {
      const node = element("div", "pot");
      node.dataset.amount = String(pot.amount);
      if (gathered.length > 1) node.append(element("span", "pot-name", index === 0 ? t("Main") : t("Side {number}", { number: index })));
      node.setAttribute("aria-label", index === 0 ? t("Main pot: {amount}", { amount: pot.amount }) : t("Side pot {number}: {amount}", { number: index, amount: pot.amount }));
      node.append(element("span", "pot-amount", pot.amount));
      return node;
    }));
    potTotal.textContent = hand && hand.total ? t("Pot {amount}", { amount: hand.total }) : "";
  }

  function drawMessage(model) {
    const summary = model.summary;
    let text = "";
    if (!model.hand && summary) {
      const seated = model.seats.filter(Boolean).length;
      if (summary.paused) text = t("The host has paused the game");
      else if (!model.lastHand && seated < 2) text = t("Waiting for players");
      else if (!model.lastHand) text = t("The next hand starts soon");
    }
    message.textContent = text;
    message.hidden = !text;
  }

  // The pixel offset from a seat's centre toward the felt's centre for its bet.
  function towardCentre(position, width, height, portrait) {
    const dx = (position.centre.x - position.x) * width;
    const dy = (position.centre.y - position.y) * height;
    const length = Math.hypot(dx, dy) || 1;
    const reach = Math.min(length * (portrait ? 0.36 : 0.5), length - 40);
    const betX = (dx / length) * Math.max(reach, 60);
    const betY = (dy / length) * Math.max(reach, 60);
    return { betX, betY };
  }

  function render(model) {
    lastModel = model;
    const count = model.summary?.seats || model.seats.length;
    const width = root.clientWidth;
    const height = root.clientHeight;
    const portrait = height > width * 1.05;
    root.classList.toggle("portrait", portrait);
    root.dataset.seats = String(count);
    const me = mySeat(model);
    const bottom = model.viewer ?? 1;
    for (const [number, node] of seatNodes) {
      if (number > count) {
        node.remove();
        seatNodes.delete(number);
      }
    }
    const places = anchors(count, portrait, width, height);
    for (let number = 1; number <= count; number += 1) {
      const position = places[(number - bottom + count) % count];
      const isMe = Boolean(me && me.seat === number);
      drawSeat(model, model.seats[number - 1], number, position, isMe, towardCentre(position, width, height, portrait));
    }
    drawBoard(model);
    if (!portrait) clearOfBoard();
    drawPots(model);
    drawTags(model);
    flyToPot();
    drawMessage(model);
    placeHelper(model);
    tick();
  }

  // The hand helper sits under our cards.
  function placeHelper(model) {
    const me = mySeat(model);
    const node = me ? seatNodes.get(me.seat) : null;
    if (node && helper.parentElement !== node) node.append(helper);
    if (!node && helper.parentElement !== root) root.append(helper);
    helper.hidden = !node || !helper.textContent;
  }

  // The clock of the player to act: a ring that empties, then the time bank's.
  function tick() {
    const model = lastModel;
    if (!model) return;
    const clock = model.clock;
    for (const [number, node] of seatNodes) {
      const ring = node.querySelector(".countdown");
      if (!ring) continue;
      const on = clock && clock.seat === number && model.hand != null && clock.deadline != null;
      ring.hidden = !on;
      if (!on) continue;
      const seconds = model.summary?.action_seconds || 30;
      const left = (clock.deadline - Date.now()) / 1000;
      let fraction;
      let text;
      if (left >= 0) {
        fraction = Math.min(1, left / seconds);
        text = `${Math.ceil(left)}`;
        ring.classList.remove("bank");
        ring.dataset.bank = clock.bank ? t("+{seconds}s", { seconds: Math.round(clock.bank) }) : "";
      } else {
        const bank = Math.max(0, (clock.bank || 0) + left);
        fraction = clock.bank ? bank / clock.bank : 0;
        text = `${Math.ceil(bank)}`;
        ring.classList.add("bank");
        ring.dataset.bank = t("bank");
      }
      ring.style.setProperty("--left", fraction.toFixed(3));
      ring.classList.toggle("hurry", left < 6);
      const textNode = ring.querySelector(".countdown-text");
      if (textNode.textContent !== text) {
        textNode.textContent = text;
        const seconds = Number(text);
        const bank = clock.bank ? tn("{count} second to act, then {bank} seconds of time bank", "{count} seconds to act, then {bank} seconds of time bank", seconds, { bank: Math.round(clock.bank) })
          : tn("{count} second to act", "{count} seconds to act", seconds);
        ring.setAttribute("aria-label", left >= 0 ? bank : tn("time bank: {count} second", "time bank: {count} seconds", seconds));
      }
    }
  }
  setInterval(tick, 250);

  new ResizeObserver(() => {
    if (lastModel) render(lastModel);
  }).observe(root);

  return {
    render,
    // The cards of our best high and low (hand helper), highlighted on the felt.
    setHighlight(cards) {
      highlight = cards;
      if (lastModel) render(lastModel);
    },
    // The helper's words, "two pair, Kings and Fives · low 7,5,3,2,A": a part that names
    // a hand underlined in the colour of its cards' marks.
    setHelperText(text, { high, low }) {
      const [highWords, ...rest] = text.split(" · ");
      const parts = [element("span", high ? "helper-high-words" : "", highWords)];
      if (rest.length) parts.push(" · ", element("span", low ? "helper-low-words" : "", rest.join(" · ")));
      helper.replaceChildren(...(text ? parts : []));
      if (lastModel) placeHelper(lastModel);
    },
  };
}
