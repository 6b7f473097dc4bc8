// What the page's own checks of the deal found, above the table and kept in view: warnings
// (the room may be cheating this player: loud, an alert) and notices (what the player should
// know of a deal that is no cheat on them: mild, a status).

import { element } from "../dom.js";

/** `warnings` and `notices`: the page's two sections, each holding a list. */
export function createDealAlerts(warnings, notices) {
  function add(section, text) {
    section.hidden = false;
    section.querySelector("ul").append(element("li", "", text));
  }
  return {
    warn: (text) => add(warnings, text),
    note: (text) => add(notices, text),
  };
}
