// After a hand on two boards or a board run twice, the list of every share the room paid
// (`pot_awarded`), each named: "Ann wins 20: board 2, low half of the main pot". It stays
// until the next deal, as the awards on the felt do.

import { element } from "../dom.js";
import { t } from "../i18n.js";
import { dealtOn, shareWords } from "../share-words.js";
import { shownHand } from "./state.js";

export function createShares() {
  const list = document.querySelector("#shares");

  return {
    render(model) {
      const dealt = dealtOn(shownHand(model));
      const awards = dealt ? model.showdown.awards.filter((award) => award.amount) : [];
      const lines = awards.map((award) => t("{name} wins {amount}: {share}", {
        name: model.seats[award.seat - 1]?.name || t("Seat {seat}", { seat: award.seat }),
        amount: award.amount,
        share: shareWords(award, dealt),
      }));
      const key = lines.join("\n");
      if (list.dataset.key === key) return;
      list.dataset.key = key;
      list.replaceChildren(...lines.map((line, index) => {
        const item = element("li", `share ${awards[index].share}`, line);
        item.dataset.board = String(awards[index].board_number || 1);
        return item;
      }));
      list.hidden = !lines.length;
    },
  };
}
