"""The room closes a page's WebSocket in the middle of a hand, on the player's turn: the
page says it is reconnecting, connects again by itself, comes back to the same table with
the same cards and the same turn, and acts."""

from __future__ import annotations

import re
from typing import Any

from feed import command, connections_of, drop, heads_up, showdown
from player import passive
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer

# Every text #connection shows from now on, in window.statusesSaid.
WATCH_STATUS = """() => {
  const status = document.querySelector("#connection");
  window.statusesSaid = [];
  new MutationObserver(() => window.statusesSaid.push(status.textContent.trim())).observe(
    status, {childList: true, characterData: true, subtree: true});
}"""


def test_the_page_comes_back_after_the_room_closes_its_socket_mid_hand(
    room: RoomServer, players: Any
) -> None:
    ann = players("Ann")
    assert ann.token is not None
    table, feed, _ = heads_up(room, ann.token, "Wobbly line")
    feed.sit(1, 200)
    feed.sit(2, 200)
    followers = connections_of(room, str(ann.player_id))
    ann.open_table(table)
    expect(ann.seat(1)).to_have_class(re.compile(r"\bme\b"))
    page_socket = connections_of(room, str(ann.player_id)) - followers
    assert len(page_socket) == 1, page_socket

    hand = feed.deal(1)
    dealt = feed.event("dealt", by=1, seat=1, hand=hand)
    dropped: list[Frame] = []

    def ann_acts(turn: Frame) -> None:
        if not dropped:  # the first turn: the room drops the page's socket first
            dropped.append(turn)
            ann.page.evaluate(WATCH_STATUS)
            with ann.page.expect_websocket() as again:
                drop(room, page_socket)
            expect(ann.page.locator("#connection")).to_have_text("Connected")
            assert again.value.url == ann.sockets[0].url and ann.sockets[0].is_closed()
            said = ann.page.evaluate("window.statusesSaid")
            assert said[-2:] == ["Reconnecting…", "Connected"], said
            expect(ann.seat(1)).to_have_class(re.compile(r"\bme\b"))
            for card in dealt["cards"]:
                expect(ann.page.locator(f'#my-cards .card[data-card="{card}"]')).to_be_visible()
        passive(ann, turn)

    ended = feed.play(hand, {1: ann_acts, 2: command(feed.clients[2], table, showdown)})
    assert dropped, "Ann had a turn"
    assert len(ann.sockets) == 2
    hellos = [frame for frame in ann.sent if frame["type"] == "hello"]
    assert [hello["token"] for hello in hellos] == [ann.token, ann.token]
    assert ann.page.url.endswith(f"/tables/{table}")
    assert any(e["seat"] == 1 and e["hand"] == hand for e in feed.events("acted", hand)), (
        "Ann acted after the reconnect"
    )
    for entry in ended["stacks"]:
        expect(ann.stack(entry["seat"])).to_have_text(re.compile(rf"\b{entry['stack']}\b"))
    feed.close()
