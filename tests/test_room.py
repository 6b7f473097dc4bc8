"""The room over real sockets (PROTOCOL.md): a uvicorn server on a free loopback port,
real WebSocket and HTTP clients, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from room_helpers import Client, Frame, RoomServer, running_room

from splitpot.store import Store

pytest_plugins = ["store_fixtures"]


@pytest.fixture
def room(store: Store) -> Iterator[RoomServer]:
    with running_room(store) as server:
        yield server


def passive(legal: list[Frame]) -> Frame:
    """Check when free, else call: every hand goes to the showdown."""
    names = {entry["action"]: entry for entry in legal}
    if "check" in names:
        return {"action": "check"}
    if "call" in names:
        return {"action": "call"}
    return {"action": "show"} if "show" in names else {"action": names and next(iter(names))}


def play_until(clients: dict[str, Client], table: str, hands: int) -> None:
    """Answer every turn passively until ``hands`` hands have ended for every client."""
    ended = {name: 0 for name in clients}
    while min(ended.values()) < hands:
        for name, client in clients.items():
            frame = client.receive(0.02)
            if frame is None:
                continue
            if frame["type"] == "turn":
                action = passive(frame["legal"])
                client.send({"type": "act", "table": table, "hand": frame["hand"], **action})
            elif frame["type"] == "event" and frame["event"]["kind"] == "hand_ended":
                ended[name] += 1
            assert frame["type"] != "error", frame


def test_health_and_a_guest(room: RoomServer) -> None:
    with room.http() as http:
        assert http.get("/api/health").json() == {"status": "ok"}
        answer = http.post("/api/guests", json={"name": "Ann"})
    assert answer.status_code == 201
    body = answer.json()
    assert body["player"]["name"] == "Ann" and len(body["token"]) >= 40


def test_two_players_play_hands_to_the_showdown(room: RoomServer, store: Store) -> None:
    ann_id, ann_token = room.guest("Ann")
    _, bob_token = room.guest("Bob")
    table = room.create_table(ann_token, name="Heads up", structure="pot-limit", seats=2)
    table_id = table["table"]["id"]
    ann, bob = Client(room, ann_token), Client(room, bob_token)
    assert ann.welcome == {"type": "welcome", "player": {"id": ann_id, "name": "Ann"}}
    for client, seat in ((ann, 1), (bob, 2)):
        client.send({"type": "sit", "table": table_id, "seat": seat, "buy_in": 200})
        snapshot = client.wait(lambda f: f["type"] == "table")
        assert snapshot["state"]["seats"][seat - 1]["stack"] == 200
    play_until({"ann": ann, "bob": bob}, table_id, hands=3)
    shown = [f for f in ann.frames if f["type"] == "event" and f["event"]["kind"] == "shown"]
    assert shown, "passive play reaches the showdown"
    ends = [f["event"] for f in ann.frames if f["type"] == "event"
            and f["event"]["kind"] == "hand_ended"]
    for end in ends:
        assert sum(s["stack"] for s in end["stacks"]) == 400
    totals = store.check_invariant()
    assert totals.balances + totals.on_tables + totals.house == 0
    ann.close()
    bob.close()
