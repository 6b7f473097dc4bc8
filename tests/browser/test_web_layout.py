"""The table on a phone (390x844, portrait) and a desktop (1366x768), the same player on
both, at a full table of ten seats on the player's turn: the action bar, the player's
cards and the seats do not overlap, the action bar is on screen, nothing is wider than
the screen, and the action buttons are touch targets of 44 px at least; with reduced motion
preferred, nothing animates. And ten hands shown down at once (cards and award labels)
overlap neither each other nor the board, and stay on the screen."""

from __future__ import annotations

from typing import Any

from feed import Feed, command, showdown
from player import Player
from playwright.sync_api import expect
from room_helpers import RoomServer

Box = dict[str, float]
TOUCH = 44  # px: the least height of a touch target
SLACK = 1  # px: rounding of the layout
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Hal", "Ida", "Jo")  # Gil's opponents


def box(player: Player, selector: str) -> Box:
    found = player.page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return dict(found)


# The boxes of the action bar (when shown), the board's cards, the player's cards (unless
# inside their seat) and each seat: its plate with its cards and award labels, wherever
# they are drawn.
BOXES = """() => {
  const rect = (node) => {
    const r = node.getBoundingClientRect();
    return r.width && r.height ? {x: r.left, y: r.top, right: r.right, bottom: r.bottom} : null;
  };
  const join = (a, b) => (!a ? b : !b ? a : {x: Math.min(a.x, b.x), y: Math.min(a.y, b.y),
    right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom)});
  const boxes = {};
  for (const selector of ["#actions", "#board"]) {
    const found = rect(document.querySelector(selector));
    if (found) boxes[selector] = found;
  }
  const mine = document.querySelector("#my-cards");
  if (mine && !mine.closest(".seat") && rect(mine)) boxes["#my-cards"] = rect(mine);
  for (const seat of document.querySelectorAll("#felt .seat")) {
    let box = rect(seat);
    for (const part of seat.querySelectorAll(".cards, .awards")) box = join(box, rect(part));
    boxes[`.seat[data-seat="${seat.dataset.seat}"]`] = box;
  }
  return boxes;
}"""


def overlap(a: Box, b: Box) -> bool:
    return (
        min(a["right"], b["right"]) - max(a["x"], b["x"]) > SLACK
        and min(a["bottom"], b["bottom"]) - max(a["y"], b["y"]) > SLACK
    )


def overlaps(player: Player) -> list[str]:
    """The pairs among those boxes that overlap."""
    boxes: dict[str, Box] = player.page.evaluate(BOXES)
    names = sorted(boxes)
    return [
        f"{a} {boxes[a]} overlaps {b} {boxes[b]}"
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if overlap(boxes[a], boxes[b])
    ]


def check_fits(me: Player) -> None:
    """No overlap, the action bar on screen, nothing wider than the screen, buttons big
    enough to touch."""
    size = me.page.viewport_size
    assert size is not None
    found = overlaps(me)
    assert not found, f"at {size}:\n" + "\n".join(found)
    actions = box(me, "#actions")
    assert actions["x"] >= 0 and actions["x"] + actions["width"] <= size["width"] + SLACK, size
    assert actions["y"] >= 0 and actions["y"] + actions["height"] <= size["height"] + SLACK, size
    assert me.page.evaluate("document.documentElement.scrollWidth") <= size["width"], size
    buttons = me.page.locator("#actions button:visible")
    for index in range(buttons.count()):
        button = buttons.nth(index)
        height = (button.bounding_box() or {"height": 0})["height"]
        assert height >= TOUCH, f"at {size}: {button.inner_text()!r} is {height} px high"


MOTION = """() => {
  const seconds = (text) => Math.max(...text.split(",").map((t) => parseFloat(t) || 0));
  let most = 0;
  for (const node of document.querySelectorAll("*")) {
    const style = getComputedStyle(node);
    most = Math.max(most, seconds(style.animationDuration), seconds(style.transitionDuration));
  }
  return most;
}"""


def test_the_table_fits_a_phone_and_a_desktop_without_overlaps(
    room: RoomServer, players: Any
) -> None:
    _, token = room.guest("Host")
    table = room.create_table(token, name="Full house", seats=10, bots=8, action_seconds=120)
    desktop = players("Gil")
    phone = players("Gil", size="phone", same=desktop)
    for me in (desktop, phone):
        me.open_table(table["table"]["id"])
    desktop.sit(1, table["table"]["max_buy_in"], post_now=True)
    for me in (desktop, phone):
        expect(me.button("Fold")).to_be_visible(timeout=30_000)  # the player's turn
        expect(me.page.locator("#my-cards .card")).to_have_count(4)
        expect(me.page.locator("#felt .seat")).to_have_count(10)
        check_fits(me)
        # the players' contexts prefer reduced motion: nothing moves for long
        assert me.page.evaluate(MOTION) <= 0.001


def test_ten_hands_shown_down_fit_a_phone_and_a_desktop_without_overlaps(
    room: RoomServer, players: Any
) -> None:
    desktop = players("Gil")
    phone = players("Gil", size="phone", same=desktop)
    assert desktop.token is not None
    table = room.create_table(desktop.token, name="Ten hands", seats=10)["table"]["id"]
    feed = Feed(room, table)
    feed.add(1, desktop.token)
    for seat, name in enumerate(NAMES, start=2):
        feed.add(seat, room.guest(name)[1])
    feed.host(1, "pause")
    for seat in feed.clients:
        feed.sit(seat, 100)
    for me in (desktop, phone):
        me.open_table(table)
    hand = feed.deal(1)
    feed.play(hand, {seat: command(c, table, showdown) for seat, c in feed.clients.items()})
    shown = sum(len(event["cards"]) for event in feed.events("shown", hand))
    assert shown == 40, "every hand is shown"
    found = []
    for me in (desktop, phone):
        expect(me.page.locator("#felt .seat .card[data-card]:not(.back)")).to_have_count(40)
        expect(me.page.locator("#felt .award").first).to_be_visible()
        size = me.page.viewport_size
        assert size is not None
        found += [f"at {size}: {pair}" for pair in overlaps(me)]
        boxes = me.page.evaluate(BOXES)
        found += [
            f"at {size}: {name} {edges} is off the screen"
            for name, edges in boxes.items()
            if edges["x"] < -SLACK or edges["right"] > size["width"] + SLACK
        ]
    feed.close()
    assert not found, "\n".join(found)
