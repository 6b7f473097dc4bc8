// The rabbit hunt (RULES.md 7): after a hand that ended before the river, at a table that
// allows it, a seated player may ask to see the board that would have come; the room shows
// it to everyone (`rabbit`), and the felt marks those cards as never dealt.

export function createRabbit({ send }) {
  const button = document.querySelector("#rabbit-hunt");
  let model = null;

  button.addEventListener("click", () => {
    if (send({ type: "rabbit", table: model.tableId, ref: "rabbit" })) button.hidden = true;
  });

  return {
    render(next) {
      model = next;
      const last = model.lastHand;
      button.hidden = !(model.summary?.rabbit_hunt && model.viewer != null && !model.hand && last
        && last.board.length < 5 && !last.rabbit?.length);
    },
  };
}
