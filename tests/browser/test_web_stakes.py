"""New stakes on the page (issue 20): after the host changes them, between hands at once and
during a hand once it ends (``stakes_changed`` at the next deal), everything the page says
and checks follows: the game line, the table's settings, the buy-in and top-up ranges, and
amounts the old range refused are taken."""

from __future__ import annotations

from typing import Any

from feed import Feed, command
from player import Player, legal
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer


def summary(room: RoomServer, table: str) -> Frame:
    with room.http() as http:
        answer = http.get(f"/api/tables/{table}")
    assert answer.status_code == 200, answer.text
    found: Frame = answer.json()
    return found


def set_stakes(host: Player, small: int, big: int) -> None:
    """The host's stakes form on the page."""
    form = host.page.locator("form#host-stakes")
    form.locator("input[name=small_blind]").fill(str(small))
    form.locator("input[name=big_blind]").fill(str(big))
    form.get_by_role("button", name="Set stakes").click()


def shows_range(player: Player, table: Frame) -> None:
    low, high = table["min_buy_in"], table["max_buy_in"]
    buy_in = player.page.locator("#table-info dt:text-is('Buy-in') + dd")
    expect(buy_in).to_have_text(f"{low} to {high}")


def test_the_page_follows_new_stakes(room: RoomServer, players: Any) -> None:
    holly, cy = players("Holly"), players("Cy")
    assert holly.token is not None and cy.token is not None
    table = room.create_table(holly.token, name="Stakes", seats=3)["table"]
    table_id = table["id"]
    feed = Feed(room, table_id)
    feed.add(1, holly.token)
    feed.add(2, room.guest("Bob")[1])
    feed.host(1, "pause")
    feed.sit(1, table["max_buy_in"])
    feed.sit(2, table["max_buy_in"])
    for page in (holly, cy):
        page.open_table(table_id)
        shows_range(page, table)

    # between hands: at once
    set_stakes(holly, 2, 4)
    feed.event("host", action="stakes")
    doubled = summary(room, table_id)
    assert doubled["max_buy_in"] > table["max_buy_in"]
    for page in (holly, cy):
        shows_range(page, doubled)
        expect(page.page.locator("#table-game")).to_contain_text("Pot Limit 2/4")
    holly.page.get_by_role("button", name="Top up").click()
    top_up = holly.page.locator("dialog#top-up")
    room_left = doubled["max_buy_in"] - table["max_buy_in"]
    expect(top_up.locator(".top-up-range")).to_have_text(
        f"Up to {room_left} (the table's maximum buy-in is {doubled['max_buy_in']})."
    )
    top_up.locator("input[name=amount]").fill(str(room_left))
    top_up.get_by_role("button", name="Add chips").click()
    expect(top_up).to_be_hidden()
    feed.event("chips_added", seat=1, stack=doubled["max_buy_in"])
    cy.sit(3, doubled["max_buy_in"])  # more than the old maximum
    feed.add(3, cy.token)

    # during a hand: once it ends (the next hand says stakes_changed)
    hand = feed.deal(1)  # the table's first hand: no stakes before it to change
    set_stakes(holly, 3, 6)
    feed.event("host", action="stakes")
    shows_range(cy, doubled)  # the hand in play keeps the stakes it was dealt with

    def calls(turn: Frame) -> Frame:
        return {"action": "check" if "check" in legal(turn) else "call"}

    acts = {seat: command(client, table_id, calls) for seat, client in feed.clients.items()}
    feed.play(hand, acts)
    tripled = summary(room, table_id)
    assert tripled["stakes"] == "3/6"
    for page in (holly, cy):
        shows_range(page, tripled)
        expect(page.page.locator("#table-game")).to_contain_text("Pot Limit 3/6")
    start = len(feed.frames)
    hand = feed.deal(1)
    assert feed.event("stakes_changed", start)["stakes"] == "3/6"
    number = hand.rsplit("-", 1)[1]
    expect(cy.page.locator("#table-game")).to_contain_text(f"Pot Limit 3/6 · Hand #{number}")
    feed.play(hand, acts)
    feed.close()
