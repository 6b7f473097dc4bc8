// Which share of which pot an award is, in words, when a hand has two boards (a double
// board) or its board was run twice: "board 2, low half of the main pot". The room says
// each award's pot, share and board (`pot_awarded`); the page only names them. One
// sentence per case, so that each language orders its own words.

import { t } from "./i18n.js";

const ON_BOARD = {
  main: {
    high: (board) => t("board {board}, high half of the main pot", { board }),
    low: (board) => t("board {board}, low half of the main pot", { board }),
    whole: (board) => t("board {board}, all of its part of the main pot", { board }),
  },
  side: {
    high: (board, pot) => t("board {board}, high half of side pot {pot}", { board, pot }),
    low: (board, pot) => t("board {board}, low half of side pot {pot}", { board, pot }),
    whole: (board, pot) => t("board {board}, all of its part of side pot {pot}", { board, pot }),
  },
};
const ON_RUN = {
  main: {
    high: (run) => t("run {run}, high half of the main pot", { run }),
    low: (run) => t("run {run}, low half of the main pot", { run }),
    whole: (run) => t("run {run}, all of its part of the main pot", { run }),
  },
  side: {
    high: (run, pot) => t("run {run}, high half of side pot {pot}", { run, pot }),
    low: (run, pot) => t("run {run}, low half of side pot {pot}", { run, pot }),
    whole: (run, pot) => t("run {run}, all of its part of side pot {pot}", { run, pot }),
  },
};

/** How the hand was dealt: "boards" (a double board), "runs" (run twice) or null (one board). */
export function dealtOn(hand) {
  if (!hand?.boards?.length) return null;
  return hand.runs > 1 ? "runs" : "boards";
}

/**
 * Where an award comes from on two boards or runs (`dealt`: "boards" or "runs"): the
 * board's or run's share of the pot; a pot nobody contested (an award without a winning
 * hand) is the pot itself, on no board.
 */
export function shareWords(award, dealt) {
  const pot = award.pot ? "side" : "main";
  if (!award.high && !award.low) return award.pot ? t("side pot {number}", { number: award.pot }) : t("the main pot");
  const share = ["high", "low"].includes(award.share) ? award.share : "whole";
  const words = dealt === "runs" ? ON_RUN : ON_BOARD;
  return words[pot][share](award.board_number || 1, award.pot);
}

/** The board or run of an award, short: "board 2", "run 1" (null for a pot nobody contested). */
export function boardWords(award, dealt) {
  if (!award.high && !award.low) return null;
  const number = award.board_number || 1;
  return dealt === "runs" ? t("run {number}", { number }) : t("board {number}", { number });
}
