// The action bar (fold, check/call, bet/raise with slider, number box and presets, all in)
// and the pre-actions; each `turn` is answered once, by its `seq`. Our turn brings the
// keyboard's focus to the bar, unless the player is typing.

import { currentBet, inHand, legalEntry, mySeat, structure } from "./state.js";
import { t } from "../i18n.js";

const FRACTIONS = { half: 0.5, "three-quarters": 0.75 };
// Inputs that take no typing: focus may leave them for the action bar.
const NOT_TYPED = ["checkbox", "radio", "range", "button", "submit", "reset"];

// Whether the focus is where the player types (the chat box, an amount, a form).
function typingIn(node) {
  if (!(node instanceof HTMLElement)) return false;
  if (node.isContentEditable || node.tagName === "TEXTAREA" || node.tagName === "SELECT") return true;
  return node.tagName === "INPUT" && !NOT_TYPED.includes(node.type);
}

export function createActions({ send, onAnswered }) {
  const bar = document.querySelector("#actions");
  const pre = document.querySelector("#pre-actions");
  const errorBox = document.querySelector("#action-error");
  const turnStatus = document.querySelector("#turn-status");
  const foldButton = bar.querySelector(".fold");
  const callButton = bar.querySelector(".check-call");
  const raiseButton = bar.querySelector(".raise");
  const allInButton = bar.querySelector(".allin");
  const sizing = bar.querySelector(".sizing");
  const slider = bar.querySelector("#amount-slider");
  const amountBox = bar.querySelector("#amount");
  const presets = [...bar.querySelectorAll("[data-preset]")];
  const confirmFold = document.querySelector("#confirm-fold");
  const preBoxes = [...pre.querySelectorAll("input[data-pre]")];

  let model = null;
  let answered = new Set(); // seqs of the turns answered on this connection
  let sized = null; // {seq, amount}: the amount chosen for the open turn
  let ticked = null; // moment(): when the pre-action was ticked

  function openTurn() {
    const turn = model?.turn;
    return turn && !answered.has(turn.seq) ? turn : null;
  }

  function raiseEntry() {
    return legalEntry(model, "raise") || legalEntry(model, "bet");
  }

  function clamp(amount, entry) {
    return Math.min(entry.max, Math.max(entry.min, Math.floor(amount)));
  }

  // The total of a preset: Min, ½ and ¾ of the pot, Pot (pot limit: the most allowed), all in.
  function presetAmount(name, entry) {
    if (name === "min") return entry.min;
    if (name === "allin") return entry.max;
    const toMatch = currentBet(model);
    const toCall = toMatch - (mySeat(model)?.bet || 0);
    const pot = (model.hand?.total || 0) + toCall;
    if (name === "pot") return structure(model) === "pot-limit" ? entry.max : clamp(toMatch + pot, entry);
    return clamp(toMatch + FRACTIONS[name] * pot, entry);
  }

  function chosenAmount(entry) {
    const turn = model.turn;
    if (sized && sized.seq === turn.seq) return sized.amount;
    return entry.min;
  }

  function setAmount(amount) {
    const entry = raiseEntry();
    if (!entry || !model.turn) return;
    sized = { seq: model.turn.seq, amount: clamp(amount, entry) };
    drawBar();
  }

  function act(action, amount) {
    const turn = openTurn();
    if (!turn) return;
    const message = { type: "act", table: model.tableId, hand: turn.hand, action, ref: `act:${turn.seq}` };
    if (amount != null) message.amount = amount;
    if (!send(message)) {
      showError(t("Not connected: your action was not sent. Reconnecting…"));
      return;
    }
    answered.add(turn.seq);
    showError("");
    onAnswered();
    render(model);
  }

  function fold() {
    if (!openTurn()) return;
    if (legalEntry(model, "check")) {
      if (!confirmFold.open) confirmFold.showModal();
      return;
    }
    act("fold");
  }

  function checkOrCall() {
    if (!openTurn()) return;
    act(legalEntry(model, "check") ? "check" : "call");
  }

  function betOrRaise() {
    const entry = raiseEntry();
    if (!openTurn() || !entry) return;
    const typed = Number(amountBox.value);
    if (!Number.isInteger(typed) || typed < entry.min || typed > entry.max) {
      showError(t("Enter a whole number from {least} to {most}.", { least: entry.min, most: entry.max }));
      amountBox.focus();
      return;
    }
    act(entry.action, typed);
  }

  // "Bet 6", "Raise to 12": the button says the total it sends.
  function raiseWords(entry, amount) {
    return entry.action === "bet" ? t("Bet {amount}", { amount }) : t("Raise to {amount}", { amount });
  }

  function drawBar() {
    const turn = openTurn();
    bar.hidden = !turn;
    if (!turn) {
      if (confirmFold.open) confirmFold.close(); // the turn is over: nothing to confirm
      return;
    }
    const fixed = structure(model) === "limit";
    foldButton.hidden = !legalEntry(model, "fold");
    const check = legalEntry(model, "check");
    const call = legalEntry(model, "call");
    callButton.hidden = !check && !call;
    callButton.textContent = check ? t("Check") : call ? t("Call {amount}", { amount: call.amount }) : "";
    callButton.dataset.action = check ? "check" : "call";
    const entry = raiseEntry();
    raiseButton.hidden = !entry;
    sizing.hidden = !entry || entry.min === entry.max;
    if (entry) {
      const amount = chosenAmount(entry);
      raiseButton.textContent = raiseWords(entry, amount);
      raiseButton.dataset.action = entry.action;
      slider.min = String(entry.min);
      slider.max = String(entry.max);
      amountBox.min = String(entry.min);
      amountBox.max = String(entry.max);
      if (Number(slider.value) !== amount) slider.value = String(amount);
      if (document.activeElement !== amountBox) amountBox.value = String(amount);
      for (const button of presets) {
        const name = button.dataset.preset;
        button.hidden = fixed || (name === "allin" && structure(model) !== "no-limit");
        button.setAttribute("aria-pressed", String(presetAmount(name, entry) === amount));
      }
    }
    const allIn = legalEntry(model, "allin");
    allInButton.hidden = !allIn;
    if (allIn) allInButton.textContent = t("All in {amount}", { amount: allIn.amount });
  }

  // Pre-actions: offered while we are in the hand, someone else may still bet, and it is
  // not our turn.
  function drawPre() {
    const me = mySeat(model);
    const others = model.seats.some((seat) => seat && seat !== me && seat.status === "playing");
    const offer = inHand(model) && me.status === "playing" && others && model.turn == null;
    dropStalePre();
    pre.hidden = !offer;
    const toCall = currentBet(model) - (me?.bet || 0);
    for (const box of preBoxes) {
      if (box.dataset.pre === "check") box.closest("label").hidden = toCall > 0;
    }
  }

  // Where the hand stood when a pre-action was ticked.
  function moment() {
    const hand = model.hand;
    return hand ? { hand: hand.id, street: hand.street, bet: currentBet(model) } : null;
  }

  // A pre-action holds for the betting round it was ticked in (fold to any bet: for the
  // hand); "check" no longer once someone bets.
  function dropStalePre() {
    const box = preBoxes.find((candidate) => candidate.checked);
    if (!box) return;
    const now = moment();
    const then = ticked;
    const stale = !now || !then || now.hand !== then.hand
      || (box.dataset.pre !== "fold-any" && now.street !== then.street)
      || (box.dataset.pre === "check" && now.bet !== then.bet);
    if (stale) box.checked = false;
  }

  // The pre-action ticked for this turn, as the action to send, or null.
  function preAction() {
    dropStalePre();
    const chosen = preBoxes.find((box) => box.checked)?.dataset.pre;
    if (!chosen) return null;
    const check = legalEntry(model, "check");
    const call = legalEntry(model, "call");
    if (chosen === "check") return check ? "check" : null;
    if (chosen === "call-any") return call ? "call" : check ? "check" : null;
    return check ? "check" : legalEntry(model, "fold") ? "fold" : null; // check-fold, fold-any
  }

  function render(next) {
    model = next;
    drawBar();
    drawPre();
  }

  function showError(text) {
    errorBox.textContent = text;
  }

  // Our turn came: a ticked pre-action answers it at once; true when it did. Else the
  // turn is told (to screen readers too) and the focus comes to the bar.
  function onTurn() {
    if (!openTurn()) return false;
    showError("");
    const action = preAction();
    if (!action) {
      const choices = [...bar.querySelectorAll(".action-buttons button:not([hidden])")];
      turnStatus.textContent = t("Your turn: {choices}", { choices: choices.map((button) => button.textContent).join(t(", ")) });
      focusBar(choices);
      return false;
    }
    for (const box of preBoxes) if (box.dataset.pre !== "fold-any") box.checked = false;
    act(action);
    return true;
  }

  // The focus to the bar (check or call, else the first choice), never away from what the
  // player is typing (the chat), a dialog, or the bar itself.
  function focusBar(choices) {
    const active = document.activeElement;
    if (typingIn(active) || bar.contains(active) || document.querySelector("dialog[open]")) return;
    const target = callButton.hidden ? choices[0] : callButton;
    target?.focus();
  }

  // One pre-action at a time, like radio buttons that can all be off.
  for (const box of preBoxes) {
    box.addEventListener("change", () => {
      if (!box.checked) return;
      for (const other of preBoxes) if (other !== box) other.checked = false;
      ticked = moment();
    });
  }
  foldButton.addEventListener("click", fold);
  callButton.addEventListener("click", checkOrCall);
  raiseButton.addEventListener("click", betOrRaise);
  allInButton.addEventListener("click", () => act("allin"));
  slider.addEventListener("input", () => setAmount(Number(slider.value)));
  amountBox.addEventListener("input", () => {
    const entry = raiseEntry();
    const typed = Number(amountBox.value);
    if (!entry || !Number.isInteger(typed) || !model.turn) return;
    sized = { seq: model.turn.seq, amount: typed };
    raiseButton.textContent = raiseWords(entry, typed);
    if (typed >= entry.min && typed <= entry.max) slider.value = String(typed);
  });
  amountBox.addEventListener("change", () => {
    const typed = Number(amountBox.value);
    if (Number.isFinite(typed) && raiseEntry()) setAmount(typed);
  });
  amountBox.addEventListener("keydown", (event) => {
    if (event.key === "Enter") betOrRaise();
  });
  for (const button of presets) {
    button.addEventListener("click", () => {
      const entry = raiseEntry();
      if (entry) setAmount(presetAmount(button.dataset.preset, entry));
    });
  }
  confirmFold.addEventListener("close", () => {
    if (confirmFold.returnValue === "fold") act("fold");
    confirmFold.returnValue = "";
  });

  return {
    render,
    onTurn,
    showError,
    // A new connection: the room sends the open turn again, to be answered again.
    reset() {
      answered = new Set();
    },
    // A refused action: the turn is open again.
    refused(ref, message) {
      const seq = Number(String(ref).split(":")[1]);
      answered.delete(seq);
      showError(message);
      if (model) render(model);
    },
    // Keyboard shortcuts: f fold, c check/call, r bet/raise the amount in the box, p bet or
    // raise the pot, a all in. True if the key was one of them.
    shortcut(key) {
      if (!openTurn()) return false;
      const entry = raiseEntry();
      if (key === "f") fold();
      else if (key === "c") checkOrCall();
      else if (key === "r" && entry) betOrRaise();
      else if (key === "p" && entry) act(entry.action, presetAmount("pot", entry));
      else if (key === "a" && legalEntry(model, "allin")) act("allin");
      else if (key === "a" && entry) act(entry.action, entry.max);
      else return false;
      return true;
    },
  };
}
