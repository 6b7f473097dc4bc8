"""Chat at a table (PROTOCOL.md): a line goes to everyone at the table exactly as typed
(HTML is text, never markup), within a length limit and a rate limit per player; a
watcher with a session may chat, one without may not; the dealer speaks in events."""

from __future__ import annotations

import pytest
from room_helpers import Client, RoomServer

from splitpot.protocol import MAX_CHAT

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)


def test_chat_lines_reach_the_table_as_typed(room: RoomServer) -> None:
    ann_id, ann_token = room.guest("Ann")
    kim_id, kim_token = room.guest("Kim")
    table = room.create_table(ann_token, name="Talk", seats=2)["table"]["id"]
    ann, kim, stranger = Client(room, ann_token), Client(room, kim_token), Client(room, None)
    ann.sit(table, 1, 100)
    kim.state(table)  # watches with a session
    stranger.state(table)
    line = '<script>alert("hi")</script> <b>&amp;</b> ♠'
    ann.send({"type": "chat", "table": table, "text": f"  {line} "})
    for client in (ann, kim, stranger):
        said = client.wait(lambda f: f["type"] == "chat")
        assert said == {
            "type": "chat",
            "table": table,
            "from": {"id": ann_id, "name": "Ann", "seat": 1},
            "text": line,
        }
        raw = next(r for r in client.raw if '"type":"chat"' in r)
        assert "<script>" in raw and "&lt;" not in raw, "sent as text, not escaped or parsed"
    kim.send({"type": "chat", "table": table, "text": "gl"})
    heard = ann.wait(lambda f: f["type"] == "chat")
    assert heard["from"] == {"id": kim_id, "name": "Kim", "seat": None}
    refused = stranger.error({"type": "chat", "table": table, "text": "hello"})
    assert refused["code"] == "forbidden"
    long = ann.error({"type": "chat", "table": table, "text": "x" * (MAX_CHAT + 1)})
    assert long["code"] == "bad_message"
    assert long["message"].startswith(f"chat.text must be one line of 1 to {MAX_CHAT} characters")


def test_a_player_who_chats_too_fast_is_refused(room: RoomServer) -> None:
    ann_token = room.guest("Ann")[1]
    table = room.create_table(ann_token, name="Spam", seats=2)["table"]["id"]
    ann, kim = Client(room, ann_token), Client(room, room.guest("Kim")[1])
    ann.sit(table, 1, 100)
    kim.state(table)
    for n in range(5):
        ann.send({"type": "chat", "table": table, "text": f"line {n}"})
    refused = ann.error({"type": "chat", "table": table, "text": "one more"})
    assert (refused["code"], refused["message"]) == (
        "rate_limited",
        "at most 5 chat lines in 10 seconds",
    )
    kim.send({"type": "chat", "table": table, "text": "my turn"})  # per player
    kim.wait(lambda f: f["type"] == "chat" and f["text"] == "my turn")
    heard = [f["text"] for f in kim.frames if f["type"] == "chat"]
    assert heard == [f"line {n}" for n in range(5)] + ["my turn"]
