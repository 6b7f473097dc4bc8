"""The room no one can abuse (docs/security.md), over a real server: the hand histories
are built once, off the event loop, in answers of bounded size and at a bounded rate per
address."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from room_helpers import FAST, Client, RoomServer, one_hand, running_room, seated_game

import splitpot.server.hand_cache as hand_cache
from splitpot.server.http import MAX_HANDS
from splitpot.store import Store

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)

UNKNOWN = "qqqqqqqq"  # a table id of the store's form that no table has


def played(room: RoomServer, hands: int) -> tuple[str, list[Client]]:
    """Ann (the host) and Bob at a new table, ``hands`` hands played out: its id and their
    clients."""
    table, clients = seated_game(room, ("Ann", "Bob"), 100, name="Hands", seats=2)
    for _ in range(hands):
        one_hand(clients[0], clients, table)
    return table, clients


# ---------------------------------------------------------------- hand histories


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int | None, str]]]:
    """Every document the room builds, as (hand, reader, thread name)."""
    made: list[tuple[str, int | None, str]] = []
    build = hand_cache.hand_document

    def counted(stored: Any, viewer: int | None, *args: Any, **kwargs: Any) -> Any:
        made.append((stored.id, viewer, threading.current_thread().name))
        return build(stored, viewer, *args, **kwargs)

    monkeypatch.setattr(hand_cache, "hand_document", counted)
    yield made


def test_a_list_of_hands_holds_at_most_50_and_says_so(room: RoomServer) -> None:
    """``limit`` is 1 to 50 (PROTOCOL.md's ``?limit=50`` is the most): beyond it, a 400
    that names the parameter and its maximum; nothing is clamped silently."""
    table = room.create_table(room.guest("Ann")[1], name="Few")["table"]["id"]
    with room.http() as http:
        assert http.get(f"/api/tables/{table}/hands", params={"limit": MAX_HANDS}).json() == {
            "hands": []
        }
        answer = http.get(f"/api/tables/{table}/hands", params={"limit": MAX_HANDS + 1})
    assert answer.status_code == 400
    assert answer.json() == {
        "error": {
            "code": "bad_message",
            "message": "query.limit: Input should be less than or equal to 50",
        }
    }


def test_a_finished_hand_is_built_once_for_each_reader_and_off_the_event_loop(
    room: RoomServer, builds: list[tuple[str, int | None, str]]
) -> None:
    """The list and the single hand give the same bytes every time: each document is
    built once for a watcher and once for each player of the hand, on the room's hands
    thread, never on the event loop; anyone who did not play reads the watcher's."""
    table, (ann, _) = played(room, 2)
    ann_id = int(ann.welcome["player"]["id"])
    eve = room.guest("Eve")[1]
    route = f"/api/tables/{table}/hands"
    with room.http() as anonymous, room.http(ann.token) as ann_http, room.http(eve) as eve_http:
        first = anonymous.get(route)
        hands = [doc["id"] for doc in first.json()["hands"]]
        assert len(hands) == 2
        assert builds and {thread for _, _, thread in builds} == {"hands_0"}
        assert sorted(hand for hand, _, _ in builds) == sorted(hands)  # one each, a watcher's
        assert anonymous.get(route).content == first.content
        assert eve_http.get(route).content == first.content  # Eve played none of them
        single = anonymous.get(f"/api/hands/{hands[0]}")
        assert single.headers["content-type"] == "application/json"
        assert single.content in first.content
        assert len(builds) == 2, builds
        own = ann_http.get(route)
        assert own.content != first.content and own.json()["hands"][0]["you"] == 0
        assert ann_http.get(route).content == own.content
        texts = [anonymous.get(f"/api/hands/{hands[0]}", params={"format": "phh"}) for _ in "ab"]
        assert texts[0].content == texts[1].content
        assert texts[0].headers["content-type"].startswith("text/plain")
    readers = [(hand, reader) for hand, reader, _ in builds]
    assert sorted(readers, key=str) == sorted(
        [(h, None) for h in hands] + [(h, ann_id) for h in hands] + [(hands[0], None)], key=str
    )
    assert all(thread == "hands_0" for _, _, thread in builds)


def test_hand_histories_are_rate_limited_per_address(store: Store) -> None:
    """Lists of a table's hands and single hands each have their allowance a minute from
    one address (60 and 600 by default); past it, 429 ``rate_limited``, whatever the
    table, and nothing is built; the rest of the API is not held up."""
    assert (FAST.hand_lists_per_minute, FAST.hands_per_minute) == (60, 600)
    options = replace(FAST, hand_lists_per_minute=4, hands_per_minute=6)
    with running_room(store, options) as room:
        table, _ = played(room, 1)
        with room.http() as http:
            hand = http.get(f"/api/tables/{table}/hands").json()["hands"][0]["id"]
            for _ in range(3):
                assert http.get(f"/api/tables/{table}/hands").status_code == 200
            for route in (f"/api/tables/{table}/hands", f"/api/tables/{UNKNOWN}/hands"):
                answer = http.get(route)
                assert answer.status_code == 429, answer.text
                message = "too many lists of hands asked from one address: wait a minute"
                assert answer.json() == {"error": {"code": "rate_limited", "message": message}}
            for _ in range(6):
                assert http.get(f"/api/hands/{hand}").status_code == 200
            refused = http.get(f"/api/hands/{hand}", params={"format": "pokerstars"})
            assert refused.status_code == 429
            assert refused.json()["error"]["message"] == (
                "too many hands asked from one address: wait a minute"
            )
            assert http.get(f"/api/tables/{table}").status_code == 200
