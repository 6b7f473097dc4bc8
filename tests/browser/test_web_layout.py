"""The table on a phone (390x844, portrait) and a desktop (1366x768), the same player on
both, at a full table of ten seats on the player's turn: the action bar, the player's
cards and the seats do not overlap, the action bar is on screen, nothing is wider than
the screen, and the action buttons are touch targets of 44 px at least; with reduced motion
preferred, nothing animates."""

from __future__ import annotations

from typing import Any

from player import Player
from playwright.sync_api import expect
from room_helpers import RoomServer

Box = dict[str, float]
TOUCH = 44  # px: the least height of a touch target
SLACK = 1  # px: rounding of the layout


def overlap(a: Box, b: Box) -> bool:
    return (
        min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > SLACK
        and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > SLACK
    )


def box(player: Player, selector: str) -> Box:
    found = player.page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return dict(found)


def union(a: Box, b: Box | None) -> Box:
    if b is None:
        return a
    x, y = min(a["x"], b["x"]), min(a["y"], b["y"])
    right = max(a["x"] + a["width"], b["x"] + b["width"])
    bottom = max(a["y"] + a["height"], b["y"] + b["height"])
    return {"x": x, "y": y, "width": right - x, "height": bottom - y}


def overlaps(player: Player) -> list[str]:
    """The pairs among the action bar, the player's cards and every seat (its plate and
    its cards, wherever they are drawn) that overlap."""
    boxes = {"#actions": box(player, "#actions")}
    if player.page.locator(".seat #my-cards").count() == 0:
        boxes["#my-cards"] = box(player, "#my-cards")
    seats = player.page.locator("#felt .seat")
    for index in range(seats.count()):
        seat = seats.nth(index)
        name = f'.seat[data-seat="{seat.get_attribute("data-seat")}"]'
        cards = seat.locator(".cards")
        drawn = cards.bounding_box() if cards.count() and cards.is_visible() else None
        boxes[name] = union(box(player, name), dict(drawn) if drawn else None)
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
