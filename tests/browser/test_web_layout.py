"""A full table of ten seats (nine players and an empty seat) on a phone (390x844,
portrait) and a desktop (1366x768), the same player on both: on the player's turn and
after nine hands are shown down (each player chose to show losing hands too), the action
bar, the board, the player's cards and the seats (plates, cards, award labels) do not
overlap and stay on the screen, the page is no wider than the screen, and the action
buttons are touch targets of 44 px at least; with reduced motion preferred, nothing
animates."""

from __future__ import annotations

import time
from typing import Any

from feed import Feed, command, showdown
from player import Player
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer

Box = dict[str, float]
TOUCH = 44  # px: the least height of a touch target
SLACK = 1  # px: rounding of the layout
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Hal", "Ida")  # Gil's opponents


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


def misfits(me: Player) -> list[str]:
    """What does not fit: overlaps, a box off the screen's sides, a page wider than the
    screen; on the player's turn, the action bar off the screen or a button too small to
    touch."""
    size = me.page.viewport_size
    assert size is not None
    found = overlaps(me)
    boxes: dict[str, Box] = me.page.evaluate(BOXES)
    assert any(name.startswith(".seat") for name in boxes), boxes
    found += [
        f"{name} {edges} is off the screen"
        for name, edges in boxes.items()
        if edges["x"] < -SLACK or edges["right"] > size["width"] + SLACK
    ]
    if me.page.evaluate("document.documentElement.scrollWidth") > size["width"]:
        found.append("the page is wider than the screen")
    actions = boxes.get("#actions")
    if actions is not None:
        if actions["y"] < 0 or actions["bottom"] > size["height"] + SLACK:
            found.append(f"#actions {actions} is off the screen")
        buttons = me.page.locator("#actions button:visible")
        for index in range(buttons.count()):
            height = (buttons.nth(index).bounding_box() or {"height": 0})["height"]
            if height < TOUCH:
                found.append(f"{buttons.nth(index).inner_text()!r} is {height} px high")
    return [f"at {size}: {problem}" for problem in found]


def settled_misfits(me: Player, deadline: float = 10.0) -> list[str]:
    """What still does not fit once the page has laid out what it just drew: measured
    again until nothing misfits or ``deadline`` seconds pass (a plate caught between two
    layouts fits a moment later; a real misfit stays and is reported)."""
    ends = time.monotonic() + deadline
    found = misfits(me)
    while found and time.monotonic() < ends:
        me.page.wait_for_timeout(100)
        found = misfits(me)
    return found


# How much taller a seat is with its marks ("Away", "Disconnected") than without them.
MARK_HEIGHT = """(seat) => {
  const node = document.querySelector(`#felt .seat[data-seat="${seat}"]`);
  const marks = node.querySelector(".marks");
  const shown = node.getBoundingClientRect().height;
  marks.style.display = "none";
  const hidden = node.getBoundingClientRect().height;
  marks.style.display = "";
  return shown - hidden;
}"""


MOTION = """() => {
  const seconds = (text) => Math.max(...text.split(",").map((t) => parseFloat(t) || 0));
  let most = 0;
  for (const node of document.querySelectorAll("*")) {
    const style = getComputedStyle(node);
    most = Math.max(most, seconds(style.animationDuration), seconds(style.transitionDuration));
  }
  return most;
}"""


def test_a_full_table_fits_a_phone_and_a_desktop_without_overlaps(
    room: RoomServer, players: Any
) -> None:
    desktop = players("Gil")
    phone = players("Gil", size="phone", same=desktop)
    assert desktop.token is not None
    table = room.create_table(desktop.token, name="Full house", seats=10)["table"]["id"]
    feed = Feed(room, table)
    feed.add(1, desktop.token)
    for seat, name in enumerate(NAMES, start=2):
        feed.add(seat, room.guest(name)[1])
    feed.host(1, "pause")
    for seat, client in feed.clients.items():
        feed.sit(seat, 100)
        # every hand is shown down, the losing ones too (the room mucks them by default)
        client.send({"type": "preferences", "table": table, "muck_losing": False})
    for me in (desktop, phone):
        me.open_table(table)
    found: list[str] = []
    turns: list[Frame] = []

    def on_gils_turn(turn: Frame) -> None:
        turns.append(turn)
        if len(turns) == 1:
            # Ann steps away in the hand: her plate says so (Fold, Away) at the showdown
            feed.clients[2].send({"type": "sit_out", "table": table})
            for me in (desktop, phone):
                expect(me.button("Fold")).to_be_visible()
                expect(me.page.locator("#my-cards .card")).to_have_count(4)
                expect(me.page.locator("#felt .seat")).to_have_count(10)
                found.extend(settled_misfits(me))
                # the players' contexts prefer reduced motion: nothing moves for long
                assert me.page.evaluate(MOTION) <= 0.001
        command(feed.clients[1], table, showdown)(turn)

    hand = feed.deal(1)
    acts = {seat: command(c, table, showdown) for seat, c in feed.clients.items()}
    feed.play(hand, acts | {1: on_gils_turn})
    assert turns, "Gil had a turn"
    shown = sum(len(event["cards"]) for event in feed.events("shown", hand))
    assert shown in (32, 36), "every hand shown down (Ann's too, if she had acted)"
    for me in (desktop, phone):
        expect(me.page.locator("#felt .seat .card[data-card]:not(.back)")).to_have_count(shown)
        expect(me.page.locator("#felt .award").first).to_be_visible()
        expect(me.seat(2).locator(".marks")).to_have_text("Away")
        assert me.page.evaluate(MARK_HEIGHT, 2) == 0, "a mark makes a plate no taller"
        found.extend(f"at the showdown, {problem}" for problem in settled_misfits(me))
    feed.close()
    assert not found, "\n".join(found)
