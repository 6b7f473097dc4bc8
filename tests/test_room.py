"""The room over real sockets (PROTOCOL.md): a uvicorn server on a free loopback port,
real WebSocket and HTTP clients, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from room_helpers import (
    Client,
    RoomServer,
    chips_kept,
    is_event,
    paused_table,
    play_hands,
    seated,
)

from splitpot.store import Store

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)


def test_health_and_a_guest(room: RoomServer) -> None:
    with room.http() as http:
        assert http.get("/api/health").json() == {"status": "ok"}
        answer = http.post("/api/guests", json={"name": "Ann"})
    assert answer.status_code == 201
    body = answer.json()
    assert body["player"]["name"] == "Ann" and len(body["token"]) >= 40
    assert isinstance(body["player"]["id"], str), "player ids are text"


def test_two_players_play_hands_to_the_showdown(room: RoomServer, store: Store) -> None:
    ann_id, ann_token = room.guest("Ann")
    _, bob_token = room.guest("Bob")
    table = room.create_table(ann_token, name="Heads up", structure="pot-limit", seats=2)
    table_id = table["table"]["id"]
    ann, bob = Client(room, ann_token), Client(room, bob_token)
    assert ann.welcome == {"type": "welcome", "player": {"id": ann_id, "name": "Ann"}, "lang": "en"}
    for client, seat in ((ann, 1), (bob, 2)):
        snapshot = client.sit(table_id, seat, 200)
        assert seated(snapshot["state"], seat)["stack"] == 200
    play_hands([ann, bob], table_id, 3)
    assert ann.events("shown"), "passive play reaches the showdown"
    ends = ann.events("hand_ended")
    assert [end["hand"] for end in ends] == [f"{table_id}-{n}" for n in range(1, len(ends) + 1)]
    for end in ends:
        assert sum(s["stack"] for s in end["stacks"]) == 400
        assert sum(a["amount"] for a in end["awards"]) > 0
    chips_kept(store)
    with room.http(ann_token) as http:
        last = http.get(f"/api/tables/{table_id}/hands", params={"limit": 2}).json()["hands"]
    numbers = [int(hand["id"].rsplit("-", 1)[1]) for hand in last]
    assert len(numbers) == 2 and numbers[0] == numbers[1] + 1, "the last two, newest first"
    assert all(hand["result"] for hand in last)
    ann.close()
    bob.close()


def test_three_players_and_a_watcher_see_the_same_hands(room: RoomServer, store: Store) -> None:
    """Three players play to the showdown; a watcher without a session sees every event
    in the same order (seq rising by one), the dealer's words included, and no hole card
    before it is shown."""
    tokens = [room.guest(name)[1] for name in ("Ann", "Bob", "Cy")]
    # paused while they sit: the first hand is the three's, however slow Cy's seat comes
    table_id, host = paused_table(room, tokens[0], name="Three", seats=3)
    watcher = Client(room, None)
    assert watcher.welcome == {"type": "welcome", "player": None, "lang": "en"}
    first = watcher.state(table_id)
    assert [s["player"] for s in first["seats"]] == [None, None, None]
    players = [host, *(Client(room, token) for token in tokens[1:])]
    for seat, client in enumerate(players, start=1):
        client.sit(table_id, seat, 100)
    host.send({"type": "host", "table": table_id, "action": "resume"})
    play_hands([*players, watcher], table_id, 2)
    frames = [f for f in watcher.frames if f["type"] == "event"]
    seqs = [f["seq"] for f in frames]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    started = watcher.events("hand_started")
    assert [s["seat"] for s in started[0]["seats"]] == [1, 2, 3]
    assert all(e["cards"] is None for e in watcher.events("dealt"))
    acted = watcher.events("acted")
    assert acted and all(e["text"] for e in acted), "the dealer tells every action"
    assert all(e["text"] for e in watcher.events("board"))
    assert watcher.events("shown") and watcher.events("pot_awarded")
    for hand in {e["hand"] for e in watcher.events("pot_awarded")}:  # the dealer tells awards
        awards = [e for e in watcher.events("pot_awarded") if e["hand"] == hand]
        assert awards[0]["text"], awards
    for client in players:  # each player saw their own four cards, and only theirs
        dealt = [e for e in client.events("dealt") if e["cards"] is not None]
        assert {e["seat"] for e in dealt} == {client.seat}
        assert all(len(e["cards"]) == 4 for e in dealt)
    refused = watcher.error({"type": "sit", "table": table_id, "seat": 1, "buy_in": 100})
    assert refused["code"] == "forbidden"
    chips_kept(store)


def test_bots_fill_the_seats_a_table_asks_for(room: RoomServer, store: Store) -> None:
    """A table with two bots: they sit at once, labelled as bots, and play the sensible
    bot's game against a player."""
    _, token = room.guest("Ann")
    table = room.create_table(token, name="With bots", seats=4, bots=2)
    assert table["table"]["bots"] == 2 and table["table"]["players"] == 2
    table_id = table["table"]["id"]
    ann = Client(room, token)
    snapshot = ann.sit(table_id, 1, 200)
    bots = [s for s in snapshot["state"]["seats"] if s["player"] is not None and s.get("bot")]
    assert len(bots) == 2 and all(s["name"].endswith("(bot)") for s in bots)
    assert seated(snapshot["state"], 1)["bot"] is False
    play_hands([ann], table_id, 3)
    actors = {e["seat"] for e in ann.events("acted")}
    assert actors - {1}, "the bots act"
    ann.wait(is_event("hand_started"))
    chips_kept(store)


def test_a_table_of_bots_plays_on_and_a_broke_bot_buys_in_again(room: RoomServer) -> None:
    _, token = room.guest("Ann")
    table = room.create_table(token, name="Bots only", seats=3, bots=2)["table"]["id"]
    watcher = Client(room, None)
    watcher.state(table)
    rebuy = watcher.wait(is_event("chips_added"), timeout=30)["event"]
    assert rebuy["stack"] == rebuy["amount"] == 200, "all in again with the maximum buy-in"
    watcher.wait(is_event("hand_started"))
