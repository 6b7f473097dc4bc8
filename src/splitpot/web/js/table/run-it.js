// The vote to run it twice (RULES.md 7): when the room asks the players still in (`run_it`,
// with its deadline), an asked player answers Twice or Once before the clock runs out;
// everyone at the table sees who has answered what and how long is left, until the room
// says the outcome (`runs`). Not answering counts as "no" (the room decides it).

import { formatNumber, t } from "../i18n.js";

export function createRunIt({ send }) {
  const panel = document.querySelector("#run-it");
  const clock = panel.querySelector(".run-it-clock");
  const status = document.querySelector("#run-it-status");
  const buttons = [...panel.querySelectorAll("[data-run-it]")];
  let model = null;
  let sent = null; // the hand whose vote this page answered, and how: {hand, yes}
  let focused = null; // the hand whose vote the focus was brought to

  function vote() {
    return model?.hand?.runIt || null;
  }

  function secondsLeft(asked) {
    if (asked.deadline == null) return null;
    return Math.max(0, Math.ceil((asked.deadline - Date.now()) / 1000));
  }

  function answer(yes) {
    const hand = model?.hand;
    if (!hand?.runIt) return;
    if (send({ type: "run_it", table: model.tableId, hand: hand.id, yes, ref: "run_it" })) {
      sent = { hand: hand.id, yes };
      draw();
    }
  }
  for (const button of buttons) button.addEventListener("click", () => answer(button.dataset.runIt === "yes"));

  // Each asked player's answer so far: "Ann: yes · Bob: …".
  function answers(asked) {
    return asked.seats.map((number) => {
      const name = model.seats[number - 1]?.name || t("Seat {seat}", { seat: number });
      const said = asked.answers[number];
      const word = said === true ? t("twice") : said === false ? t("once") : "…";
      return t("{name}: {answer}", { name, answer: word });
    }).join(" · ");
  }

  function draw() {
    const asked = vote();
    const left = asked ? secondsLeft(asked) : null;
    const time = left == null ? "" : t("{seconds} s", { seconds: formatNumber(left) });
    const words = asked ? `${t("Run it twice?")} ${answers(asked)}${time ? ` · ${time}` : ""}` : "";
    status.hidden = !asked;
    if (status.textContent !== words) status.textContent = words;
    const mine = model?.viewer;
    const hand = model?.hand;
    const answered = asked && (asked.answers[mine] != null || sent?.hand === hand?.id);
    panel.hidden = !(asked && asked.seats.includes(mine) && !answered && left !== 0);
    if (clock.textContent !== time) clock.textContent = time;
    // asked: the focus comes to the answer once, unless the player is typing
    const typing = document.activeElement?.matches?.("input, textarea, select");
    if (!panel.hidden && focused !== hand.id && !typing) buttons[0].focus({ preventScroll: true });
    if (!panel.hidden) focused = hand.id;
  }
  setInterval(() => {
    if (vote()) draw();
  }, 250);

  return {
    render(next) {
      model = next;
      draw();
    },
  };
}
