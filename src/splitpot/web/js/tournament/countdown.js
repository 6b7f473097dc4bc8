// Live countdowns to the next level: an element marked with the moment it counts to
// (data-until, ms) shows the time left ("4:05"), redrawn each second by one timer for the
// whole page; at zero it says what the page gave for then ("next hand").

import { clockText } from "./words.js";

let timer = 0;
const finished = new WeakSet(); // the nodes whose zero was told

function drawOne(node, now) {
  const until = Number(node.dataset.until);
  if (!Number.isFinite(until)) return;
  const left = until - now;
  if (left > 0) {
    node.textContent = clockText(left);
    finished.delete(node);
    return;
  }
  node.textContent = node.dataset.zero || clockText(0);
  if (!finished.has(node)) {
    finished.add(node);
    node.dispatchEvent(new CustomEvent("countdown-zero", { bubbles: true }));
  }
}

/** Redraws every countdown of the page now. */
export function drawCountdowns() {
  const now = Date.now();
  for (const node of document.querySelectorAll("[data-until]")) drawOne(node, now);
}

/**
 * Makes `node` count down to `until` (a Date, ms or an ISO time; null: no countdown), showing
 * `zero` once it is reached; it fires "countdown-zero" (bubbling) once at zero.
 */
export function countDown(node, until, zero = "") {
  const moment = until == null ? NaN : until instanceof Date ? until.getTime() : typeof until === "number" ? until : Date.parse(until);
  if (!Number.isFinite(moment)) {
    delete node.dataset.until;
    finished.delete(node);
    return;
  }
  if (Number(node.dataset.until) !== moment) finished.delete(node);
  node.dataset.until = String(moment);
  node.dataset.zero = zero;
  node.setAttribute("role", "timer");
  drawOne(node, Date.now());
  if (!timer) timer = setInterval(drawCountdowns, 1000);
}
