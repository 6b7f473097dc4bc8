"""The room no one can abuse (docs/security.md), over a real server: the hand histories
are built once, off the event loop, in answers of bounded size and at a bounded rate per
address; a private table answers a stranger as a table that does not exist does."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from room_helpers import FAST, Client, Frame, RoomServer, one_hand, running_room, seated_game

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


# ---------------------------------------------------------------- private tables


def same_refusal(hidden: dict[str, Any], unknown: dict[str, Any], ids: dict[str, str]) -> None:
    """Two refusals alike but for the ids they name (``ids``: the unknown's -> the
    hidden's)."""
    text = str(unknown)
    for fake, real in ids.items():
        text = text.replace(fake, real)
    assert str(hidden) == text, (hidden, unknown)


def test_a_private_table_answers_a_stranger_as_no_table_at_all(room: RoomServer) -> None:
    """Every HTTP route of a table or its hands, and every WebSocket command at it, gives a
    stranger (no invite, a wrong one, another table's) the answer that an id no table has
    gets: 404 ``unknown_table`` or ``unknown_hand``, word for word; its invite opens it."""
    ann_token, bob_token, eve_token = (room.guest(name)[1] for name in ("Ann", "Bob", "Eve"))
    created = room.create_table(ann_token, name="Hidden", seats=2, private=True)
    table, invite = created["table"]["id"], created["invite"]
    other_invite = room.create_table(eve_token, name="Eves", private=True)["invite"]
    ann, bob = Client(room, ann_token), Client(room, bob_token)
    ann.state(table)
    ann.send({"type": "host", "table": table, "action": "pause"})
    ann.wait(lambda f: f["type"] == "event" and f["event"]["kind"] == "host")
    bob.send({"type": "watch", "table": table, "invite": invite})
    bob.wait(lambda f: f["type"] == "table")
    ann.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    hand = one_hand(ann, [ann, bob], table)["hand"]
    fake_hand = f"{UNKNOWN}-1"
    ids = {UNKNOWN: table, fake_hand: hand}

    for token in (eve_token, None):
        with room.http(token) as http:
            for given in (None, "wrong", other_invite):
                params = {} if given is None else {"invite": given}
                for path in ("", "/hands", "/ledger.csv", "/settle"):
                    hidden = http.get(f"/api/tables/{table}{path}", params=params)
                    unknown = http.get(f"/api/tables/{UNKNOWN}{path}", params=params)
                    assert hidden.status_code == unknown.status_code == 404, hidden.text
                    assert hidden.json()["error"]["code"] == "unknown_table"
                    same_refusal(hidden.json(), unknown.json(), ids)
                for form in ("json", "pokerstars", "phh"):
                    asked = params | {"format": form}
                    hidden = http.get(f"/api/hands/{hand}", params=asked)
                    unknown = http.get(f"/api/hands/{fake_hand}", params=asked)
                    assert hidden.status_code == unknown.status_code == 404, hidden.text
                    assert hidden.json()["error"]["code"] == "unknown_hand"
                    same_refusal(hidden.json(), unknown.json(), ids)

    commands: list[Frame] = [
        {"type": "watch"},
        {"type": "watch", "invite": "wrong"},
        {"type": "watch", "invite": other_invite},
        {"type": "sit", "seat": 2, "buy_in": 100},
        {"type": "chat", "text": "anyone here?"},
        {"type": "leave"},
        {"type": "sit_out"},
        {"type": "top_up", "amount": 10},
        {"type": "act", "hand": hand, "action": "fold"},
        {"type": "host", "action": "pause"},
        {"type": "commit", "commitment": "0" * 64},
    ]
    eve, stranger = Client(room, eve_token), Client(room, None)
    for client in (eve, stranger):
        for command in commands:
            hidden = client.error(command | {"table": table})
            unknown = client.error(command | {"table": UNKNOWN})
            same_refusal(without_ref(hidden), without_ref(unknown), ids)
        assert not [f for f in client.frames if f.get("table") == table], client.frames
    assert eve.error({"type": "chat", "table": table, "text": "hi"})["code"] == "unknown_table"
    eve.send({"type": "watch", "table": table, "invite": invite})
    eve.wait(lambda f: f["type"] == "table" and f["table"] == table)


def without_ref(error: Frame) -> Frame:
    return {key: value for key, value in error.items() if key != "ref"}
