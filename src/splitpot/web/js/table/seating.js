// Waiting for a seat (docs/protocol.md "Seats by approval and the waiting list"): our own
// request and its wait, the full table's waiting list (join, leave, our place), the seat
// offered to us with its countdown; for the host, each request to approve (with the stack
// asked, or another) or turn down. The room decides; the page asks and shows.

import { isHost, mySeat } from "./state.js";
import { t } from "../i18n.js";

function byId(id) {
  return document.querySelector(`#${id}`);
}

// Seconds left until a deadline (ms), never below 0.
function secondsLeft(deadline) {
  return deadline == null ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

export function createSeating({ send, openBuyIn }) {
  const box = byId("seat-waiting");
  const status = byId("seat-waiting-status");
  const join = byId("waiting-join");
  const leave = byId("waiting-leave");
  const take = byId("offer-take");
  const withdraw = byId("request-withdraw");
  const hostBox = byId("host-requests");
  const hostList = byId("host-request-list");
  let model = null;
  let ticking = null;

  function command(type, fields = {}) {
    return send({ type, table: model.tableId, ref: type, ...fields });
  }

  join.addEventListener("click", () => command("waiting_list", { join: true }));
  leave.addEventListener("click", () => command("waiting_list", { join: false }));
  withdraw.addEventListener("click", () => command("leave"));
  take.addEventListener("click", () => {
    if (model.offer) openBuyIn(model.offer.seat);
  });

  function me() {
    return model.player ? String(model.player.id) : null;
  }

  // Our own wait: a request, an offer, a place on the list, or the way to join it.
  function drawOwn() {
    const id = me();
    const asked = model.requests.find((request) => request.player === id);
    const offered = model.offer && model.offer.player === id ? model.offer : null;
    const place = model.waitingList.findIndex((person) => person.player === id) + 1;
    const full = model.seats.length > 0 && model.seats.every(Boolean) && !model.offer;
    const seated = Boolean(mySeat(model));
    let words = "";
    if (asked) {
      words = t("You asked for seat {seat} with {amount}: the host answers within {seconds} s.", {
        seat: asked.seat, amount: asked.buy_in, seconds: secondsLeft(asked.deadline),
      });
    } else if (offered) {
      words = t("Seat {seat} is yours if you take it within {seconds} s.", {
        seat: offered.seat, seconds: secondsLeft(offered.deadline),
      });
    } else if (place) {
      words = t("You are number {place} on the waiting list of {count}.", {
        place, count: model.waitingList.length,
      });
    } else if (full && !seated && model.waitingList.length) {
      words = t("{count} waiting for a seat.", { count: model.waitingList.length });
    }
    status.textContent = words;
    const buyIn = byId("buy-in");
    if (asked && buyIn.open) buyIn.close(); // asked: the host answers
    withdraw.hidden = !asked;
    take.hidden = !offered;
    leave.hidden = !place || Boolean(offered);
    join.hidden = !(model.player && full && !seated && !place && !asked);
    box.hidden = !(words || !join.hidden);
  }

  // The host's list of requests, each with the stack to seat the player with.
  function drawRequests() {
    const host = isHost(model);
    hostBox.hidden = !host || model.requests.length === 0;
    if (hostBox.hidden) return;
    const shown = new Set();
    for (const asked of model.requests) {
      const key = `${asked.seat}:${asked.player}`;
      shown.add(key);
      let item = hostList.querySelector(`[data-request="${CSS.escape(key)}"]`);
      if (!item) {
        item = requestItem(asked);
        item.dataset.request = key;
        hostList.append(item);
      }
      item.querySelector(".request-text").textContent = t(
        "{name} asks for seat {seat} with {amount} ({seconds} s left)",
        { name: asked.name, seat: asked.seat, amount: asked.buy_in, seconds: secondsLeft(asked.deadline) },
      );
    }
    for (const item of [...hostList.children]) {
      if (!shown.has(item.dataset.request)) item.remove();
    }
  }

  function requestItem(asked) {
    const item = document.createElement("li");
    item.className = "request";
    const text = document.createElement("span");
    text.className = "request-text";
    const label = document.createElement("label");
    label.className = "request-stack";
    const words = document.createElement("span");
    words.textContent = t("Stack");
    const stack = document.createElement("input");
    stack.type = "number";
    stack.min = "1";
    stack.step = "1";
    stack.value = String(asked.buy_in);
    label.append(words, stack);
    const approve = document.createElement("button");
    approve.type = "button";
    approve.className = "primary";
    approve.textContent = t("Approve");
    approve.addEventListener("click", () => {
      const amount = Number(stack.value);
      const fields = { action: "approve", seat: asked.seat };
      if (Number.isInteger(amount) && amount > 0) fields.amount = amount;
      send({ type: "host", table: model.tableId, ref: "host", ...fields });
    });
    const reject = document.createElement("button");
    reject.type = "button";
    reject.className = "danger";
    reject.textContent = t("Turn down");
    reject.addEventListener("click", () => {
      send({ type: "host", table: model.tableId, ref: "host", action: "reject", seat: asked.seat });
    });
    item.append(text, label, approve, reject);
    return item;
  }

  function draw() {
    drawOwn();
    drawRequests();
    const counting = model.requests.length > 0 || model.offer;
    if (counting && !ticking) ticking = setInterval(() => model && draw(), 1000);
    if (!counting && ticking) {
      clearInterval(ticking);
      ticking = null;
    }
  }

  return {
    render(next) {
      model = next;
      draw();
    },
    // A refusal of our waiting-list command, shown where it was asked; true when ours.
    refused(ref, message) {
      if (ref !== "waiting_list") return false;
      status.textContent = message;
      box.hidden = false;
      return true;
    },
  };
}
