"""Frames queued together as one message (docs/protocol.md "Batched frames", issue 26): a
client whose hello says ``batch`` gets the frames the room queued for it meanwhile as one
JSON array, in order, the same frames a client without it gets one by one."""

from __future__ import annotations

import json
from typing import Any

import pytest
from room_helpers import FAST, Client, RoomServer, running_room

from splitpot.store import Store

pytestmark = pytest.mark.one_database  # the room's sending: on SQLite (conftest.py)


def events_of(client: Client, table: str) -> list[tuple[int, str]]:
    """The table's events the client received, as (seq, kind), in order."""
    return [
        (f["seq"], f["event"]["kind"])
        for f in client.frames
        if f["type"] == "event" and f["table"] == table
    ]


def watcher(room: RoomServer, table: str, **hello: Any) -> Client:
    client = Client(room, None, hello=False)
    client.send({"type": "hello"} | hello)
    assert client.wait(lambda f: f["type"] in ("welcome", "error"))["type"] == "welcome"
    client.send({"type": "watch", "table": table})
    client.wait(lambda f: f["type"] == "table")
    return client


def test_a_batch_client_gets_the_same_frames_in_order_some_as_arrays(store: Store) -> None:
    with running_room(store, FAST) as room:
        _, token = room.guest("Hana")
        table = room.create_table(token, name="Bots", seats=4, bots=3)["table"]["id"]
        batched = watcher(room, table, batch=True)
        plain = watcher(room, table)
        try:
            for client in (batched, plain):  # both through hand 4's end
                client.wait(
                    lambda f: (
                        f["type"] == "event"
                        and f["event"]["kind"] == "hand_ended"
                        and f["event"]["number"] >= 4
                    ),
                    timeout=60,
                )
            arrays = [json.loads(text) for text in batched.raw if text.startswith("[")]
            assert arrays, "an action's acted and to_act were queued together"
            assert all(len(array) >= 2 for array in arrays)
            assert not any(text.startswith("[") for text in plain.raw)
            seen, told = events_of(batched, table), events_of(plain, table)
            common = min(len(seen), len(told))
            first = max(seen[0][0], told[0][0])  # each began where its watch began
            both = [e for e in seen[:common] if e[0] >= first]
            assert both and both == [e for e in told[:common] if e[0] >= first][: len(both)]
            assert [seq for seq, _ in seen] == sorted({seq for seq, _ in seen})  # in order
        finally:
            batched.close()
            plain.close()


def test_a_batch_that_is_not_true_or_false_is_refused_naming_it(store: Store) -> None:
    with running_room(store, FAST) as room:
        client = Client(room, None, hello=False)
        try:
            client.send({"type": "hello", "batch": "yes", "ref": "h"})
            refused = client.wait(lambda f: f["type"] == "error")
            assert refused["code"] == "bad_message" and "batch" in refused["message"]
            assert refused["ref"] == "h"
        finally:
            client.close()
