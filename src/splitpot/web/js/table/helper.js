// The hand helper: our best high and low right now, in words, and the cards that make
// them (GET /api/helper), asked again whenever our cards or the board change. With two
// boards (a double board, or a board run twice: RULES.md 7) it tells each board's line,
// one under the other, and marks no cards: the words say which board.

import { request } from "../api.js";
import { t } from "../i18n.js";

// The answer with two boards as the page shows it: a line for each board.
function perBoard(answer) {
  const lines = answer.boards.map((board) => t("Board {number}: {text}", { number: board.board_number, text: board.text }));
  return { text: lines.join("\n"), high: null, low: null, low_possible: answer.low_possible };
}

export function createHelper({ onResult }) {
  const answers = new Map(); // "variant|hole|board" -> the room's answer
  let wanted = ""; // the key of the latest question

  async function update(variant, hole, board, board2 = null) {
    if (!variant || !hole || hole.length === 0 || hole.includes("??")) {
      wanted = "";
      onResult(null);
      return;
    }
    const key = `${variant}|${hole.join("")}|${board.join("")}|${board2 ? board2.join("") : ""}`;
    if (key === wanted) return;
    wanted = key;
    let answer = answers.get(key);
    if (!answer) {
      const query = new URLSearchParams({ variant, hole: hole.join(""), board: board.join("") });
      if (board2) query.set("board2", board2.join(""));
      try {
        answer = await request("GET", `/api/helper?${query}`);
      } catch {
        answer = null; // no helper: the page simply shows none
      }
      if (answer?.boards?.length > 1) answer = perBoard(answer);
      if (answer) answers.set(key, answer);
    }
    if (key === wanted) onResult(answer);
  }

  return { update };
}
