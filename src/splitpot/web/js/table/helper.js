// The hand helper: our best high and low right now, in words, and the cards that make
// them (GET /api/helper), asked again whenever our cards or the board change.

import { request } from "../api.js";

export function createHelper({ onResult }) {
  const answers = new Map(); // "variant|hole|board" -> the room's answer
  let wanted = ""; // the key of the latest question

  async function update(variant, hole, board) {
    if (!variant || !hole || hole.length === 0 || hole.includes("??")) {
      wanted = "";
      onResult(null);
      return;
    }
    const key = `${variant}|${hole.join("")}|${board.join("")}`;
    if (key === wanted) return;
    wanted = key;
    let answer = answers.get(key);
    if (!answer) {
      const query = new URLSearchParams({ variant, hole: hole.join(""), board: board.join("") });
      try {
        answer = await request("GET", `/api/helper?${query}`);
      } catch {
        answer = null; // no helper: the page simply shows none
      }
      if (answer) answers.set(key, answer);
    }
    if (key === wanted) onResult(answer);
  }

  return { update };
}
