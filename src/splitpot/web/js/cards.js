// Playing cards as elements: "As" -> a readable card with its name for screen readers.
// Shared by the table page and the hands panel (hands.js). The rank letters and suit
// symbols are the same in every language; the names for screen readers are translated.

import { t } from "./i18n.js";

const RANKS = {
  A: t("Ace"), K: t("King"), Q: t("Queen"), J: t("Jack"), T: t("Ten"), 9: t("Nine"), 8: t("Eight"),
  7: t("Seven"), 6: t("Six"), 5: t("Five"), 4: t("Four"), 3: t("Three"), 2: t("Two"),
};
const SUITS = { s: t("spades"), h: t("hearts"), d: t("diamonds"), c: t("clubs") };
const SYMBOLS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

// "As" -> "Ace of spades"; "??" -> "face-down card".
export function cardName(text) {
  const rank = RANKS[text[0]];
  const suit = SUITS[text[1]];
  return rank && suit ? t("{rank} of {suit}", { rank, suit }) : t("face-down card");
}

// The rank as printed on a card: "T" is "10".
function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

// <span class="card suit-s rank-A [large|small]" data-card="As" role="img"
//   aria-label="Ace of spades"><span class="rank">A</span><span class="suit">♠</span></span>
// "??" (or anything that is not a card) -> a face-down card with class "back".
export function cardElement(text, { size = "normal" } = {}) {
  const card = document.createElement("span");
  card.className = "card";
  if (size !== "normal") card.classList.add(size);
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", cardName(text));
  card.dataset.card = text;
  const rank = text[0];
  const suit = text[1];
  if (!RANKS[rank] || !SUITS[suit]) {
    card.classList.add("back");
    return card;
  }
  card.classList.add(`suit-${suit}`, `rank-${rank}`);
  const rankSpan = document.createElement("span");
  rankSpan.className = "rank";
  rankSpan.textContent = rankLabel(rank);
  const suitSpan = document.createElement("span");
  suitSpan.className = "suit";
  suitSpan.textContent = SYMBOLS[suit];
  rankSpan.setAttribute("aria-hidden", "true");
  suitSpan.setAttribute("aria-hidden", "true");
  card.append(rankSpan, suitSpan);
  return card;
}
