"""What the felt says once the room has said otherwise (issue 20): a seat plate after the
uncalled part of an all-in came back, the all-in equity boxes clear of the board's cards
on a desktop, and the phone's header with the table's name, game, stakes and hand number
whole at 390 px."""

from __future__ import annotations

import re
from typing import Any

from feed import command, heads_up
from player import Player, legal
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer

RANGE = {"min_buy_in": 50, "max_buy_in": 400}

# Watches the felt every 50 ms: each overlap of a visible equity box with a card of the
# board, and the board's sizes seen while an equity box was visible.
WATCH_EQUITY = """() => {
  window.equityOverBoard = [];
  window.equityBoards = [];
  const box = (node) => node.getBoundingClientRect();
  setInterval(() => {
    const shown = [...document.querySelectorAll(".equity:not([hidden])")];
    const cards = [...document.querySelectorAll("#board .card")];
    if (!shown.length) return;
    if (!window.equityBoards.includes(cards.length)) window.equityBoards.push(cards.length);
    for (const equity of shown) {
      const e = box(equity);
      for (const card of cards) {
        const c = box(card);
        const x = Math.min(e.right, c.right) - Math.max(e.left, c.left);
        const y = Math.min(e.bottom, c.bottom) - Math.max(e.top, c.top);
        const seat = equity.closest(".seat").dataset.seat;
        if (x > 1 && y > 1) window.equityOverBoard.push(`seat ${seat} over ${card.dataset.card}`);
      }
    }
  }, 50);
}"""

# Text cut off: an element whose content is wider than its box, or which leaves the screen.
CLIPPED = """(selector) => {
  const node = document.querySelector(selector);
  const r = node.getBoundingClientRect();
  return node.scrollWidth > node.clientWidth + 1 || r.left < 0 || r.right > innerWidth + 1;
}"""


def test_an_uncalled_all_in_comes_back_and_the_equities_leave_the_board_clear(
    room: RoomServer, players: Any
) -> None:
    """Ann shoves 300 into Bob's 100: 200 come back to her, so her plate no longer says
    she raised 300 all in, nor marks her all in; on the run-out neither seat's equity box
    covers a card of the board (desktop, heads-up: Bob's seat faces the board)."""
    ann = players("Ann")
    assert ann.token is not None
    table_id, feed, bob = heads_up(room, ann.token, "Shove", structure="no-limit", **RANGE)
    feed.sit(1, 300)
    feed.sit(2, 100)
    ann.open_table(table_id)
    hand = feed.deal(1)

    def ann_shoves(turn: Frame) -> None:
        ann.click("All in")

    def bob_calls(turn: Frame) -> Frame:
        return {"action": "call" if "call" in legal(turn) else "check"}

    ann.page.evaluate(WATCH_EQUITY)
    feed.play(hand, {1: ann_shoves, 2: command(bob, table_id, bob_calls)})
    returned = feed.events("uncalled", hand)
    assert [(e["seat"], e["amount"]) for e in returned] == [(1, 200)]
    # the run-out, street by street on the page, the equities clear of the board
    ann.page.wait_for_function("() => window.equityBoards.includes(5)")
    assert {0, 3, 4, 5} <= set(ann.page.evaluate("window.equityBoards"))
    assert not ann.page.evaluate("window.equityOverBoard")
    ended = feed.events("hand_ended", hand)[0]
    stack = next(s["stack"] for s in ended["stacks"] if s["seat"] == 1)
    expect(ann.stack(1)).to_have_text(str(stack))
    plate = ann.seat(1).locator(".last-action")
    expect(plate).not_to_have_text(re.compile(r"300|all in", re.IGNORECASE))
    expect(ann.seat(1)).not_to_have_class(re.compile(r"\ball-in\b"))
    feed.close()


def header_whole(player: Player) -> None:
    for selector in ("#table-name", "#table-game"):
        assert not player.page.evaluate(CLIPPED, selector), f"{selector} is cut off"


def test_the_phone_header_shows_the_name_game_stakes_and_hand(
    room: RoomServer, players: Any
) -> None:
    """At 390 px the header's table name and game line are whole: the stakes and the
    hand's number show, with the lobby, connection and header buttons beside them."""
    ann = players("Ann", size="phone")
    assert ann.token is not None
    table_id, feed, _ = heads_up(room, ann.token, "Friday night at Ann's")
    feed.sit(1, 100)
    feed.sit(2, 100)
    ann.open_table(table_id)
    assert ann.page.viewport_size == {"width": 390, "height": 844}
    expect(ann.page.locator("#table-name")).to_have_text("Friday night at Ann's")
    header_whole(ann)
    hand = feed.deal(1)
    number = int(hand.rsplit("-", 1)[1])
    game = ann.page.locator("#table-game")
    expect(game).to_contain_text("Pot Limit 1/2")
    expect(game).to_contain_text(f"Hand #{number}")
    expect(game).to_contain_text("Omaha Hi/Lo")
    header_whole(ann)
    for name in ("Back to the lobby", "Last hands", "Settings"):
        box = ann.page.get_by_role("link" if "lobby" in name else "button", name=name)
        edges = box.bounding_box()
        assert edges is not None and edges["x"] + edges["width"] <= 390, name
    feed.close()
