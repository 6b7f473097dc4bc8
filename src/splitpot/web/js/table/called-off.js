// The table's count of hands called off after the players revealed their entropy
// (FAIRNESS.md: counted per table, since a room could cancel until it likes the deal), as
// this browser kept them: shown while there is any, after a reload too, kept current as
// this tab or another one of the table counts one more.

import { t } from "../i18n.js";

/** Draws `announced.cancelledCount()` in `node` (hidden while it is 0), now and on change. */
export function showCalledOff(node, announced) {
  function draw() {
    const count = announced.cancelledCount();
    node.hidden = count === 0;
    node.textContent = count ? t("Hands called off after the reveals here: {count}", { count }) : "";
  }
  announced.onCalledOff(draw);
  draw();
}
