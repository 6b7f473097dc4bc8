"""Chat and names are text, never markup: a line with a <script> and an <img onerror> typed
on one page shows on every page as those very characters, and runs nothing; so does a
player's name with tags in it."""

from __future__ import annotations

from typing import Any

from feed import Feed
from playwright.sync_api import expect
from room_helpers import RoomServer

LINE = '<script>window.pwned = 1</script><img src="/x.png" onerror="window.pwned = 2"> gg'
NAME = "<b>Zed</b>"


def test_chat_with_markup_shows_as_text(room: RoomServer, players: Any) -> None:
    ann, zed = players("Ann"), players(NAME)
    assert ann.token is not None and zed.token is not None
    table = room.create_table(ann.token, name="Talkers", seats=2)["table"]["id"]
    feed = Feed(room, table)
    feed.add(2, zed.token)
    feed.sit(2, 200)
    for player in (ann, zed):
        player.open_table(table)
    expect(ann.seat(2).locator(".name")).to_have_text(NAME)

    ann.page.locator("form#chat-form input[name=chat]").fill(LINE)
    ann.page.locator("form#chat-form input[name=chat]").press("Enter")
    for player in (ann, zed):
        line = player.page.locator("#chat-log .chat-line").filter(has_text=LINE)
        expect(line).to_have_count(1)
        expect(line).to_contain_text("Ann")
        assert player.page.locator("#chat-log script, #chat-log img, #chat-log b").count() == 0
        assert player.page.evaluate("window.pwned") is None
    feed.clients[2].send({"type": "chat", "table": table, "text": LINE.replace("gg", "wp")})
    expect(ann.page.locator("#chat-log .chat-line").last).to_contain_text(NAME)
    expect(ann.page.locator("#chat-log .chat-line").last).to_contain_text(LINE.replace("gg", "wp"))
    assert ann.page.locator("#felt b, #chat-log b, #dealer-log b").count() == 0
    feed.close()
