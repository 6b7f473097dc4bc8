// The home game's options at the table (RULES.md 7): shown in the header; the player's
// straddle choice (never, next hand, every hand) where the table has straddles; the host's
// call of a bomb pot for the next hand and the options form (changed from the next hand).
// The room decides what each choice does, and says so (`straddle_chosen`, `bomb_pot_called`,
// a refusal); the page only asks.

import { element } from "../dom.js";
import { OPTIONS_OFF, fillOptions, readOptions } from "../option-fields.js";
import { optionWords } from "../option-words.js";
import { isHost, mySeat } from "./state.js";

function byId(id) {
  return document.querySelector(`#${id}`);
}

export function createOptions({ send, showError }) {
  const header = byId("table-options");
  const straddleChoice = byId("straddle-choice");
  const straddle = byId("straddle");
  const bomb = byId("host-bomb");
  const bombCalled = byId("host-bomb-called");
  const form = byId("host-options");
  let model = null;
  let filled = null; // the options the host's form was last filled with

  function command(type, fields) {
    return send({ type, table: model.tableId, ref: type, ...fields });
  }

  straddle.addEventListener("change", () => command("straddle", { straddle: straddle.value }));
  bomb.addEventListener("click", () => command("host", { action: "bomb_pot" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const { options, problems } = readOptions(form);
    if (problems.length) {
      showError(problems[0][1]);
      return;
    }
    showError("");
    command("host", { action: "options", ...options });
  });

  function drawHeader() {
    const words = optionWords(model.summary);
    const key = words.join("|");
    if (header.dataset.key === key) return;
    header.dataset.key = key;
    header.replaceChildren(...words.map((word) => element("li", "badge", word)));
    header.hidden = !words.length;
  }

  function drawStraddle() {
    const me = mySeat(model);
    straddleChoice.hidden = !(me && model.summary.straddle);
    if (me && document.activeElement !== straddle) straddle.value = me.straddle || "off";
  }

  function drawHost() {
    if (!isHost(model)) return;
    bombCalled.hidden = !model.bombCalled;
    // filled when the table's options change (and first), never over the host's typing
    const key = JSON.stringify(Object.keys(OPTIONS_OFF).map((name) => model.summary[name]));
    if (filled === key) return;
    filled = key;
    fillOptions(form, model.summary);
  }

  return {
    render(next) {
      model = next;
      drawHeader();
      drawStraddle();
      drawHost();
    },
  };
}
