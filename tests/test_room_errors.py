"""Bad input gets a clear error and changes nothing (PROTOCOL.md): each refused command
is answered by an ``error`` with a code and a message naming the problem, the table and
the ledger stay as they were, and the other tables never notice. Over HTTP every error
is ``{"error": {"code", "message"}}`` with a 4xx, and no traceback reaches a client."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from room_helpers import (
    Client,
    Frame,
    RoomServer,
    chips_kept,
    is_event,
    ledger,
    paused_table,
    play,
    seated,
    seated_game,
)
from websockets.exceptions import ConnectionClosed

from splitpot.protocol import MAX_FRAME
from splitpot.server import room as server_room
from splitpot.store import Store, StoreError

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)


def unchanged(client: Client, table: str, before: Frame) -> None:
    """The table as ``client`` sees it is what it was (seq included: no event)."""
    after = client.state(table)
    assert after == before


def refused(client: Client, message: Frame, code: str, text: str) -> None:
    error = client.error(message)
    assert (error["code"], error["message"]) == (code, text)


def test_bad_commands_change_nothing_and_other_tables_never_notice(
    room: RoomServer, store: Store
) -> None:
    tokens = [room.guest(name)[1] for name in ("Ann", "Bob", "Cy")]
    table, ann = paused_table(room, tokens[0], name="Strict", seats=2, max_buy_in=200)
    bob, cy = Client(room, tokens[1]), Client(room, tokens[2])
    ann.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    bots = room.create_table(tokens[2], name="Busy", seats=3, bots=2)["table"]["id"]
    watcher = Client(room, None)
    watcher.state(bots)
    watcher.wait(is_event("hand_ended"))
    ledgers = [ledger(room, token) for token in tokens]

    before = bob.state(table)
    ann.send_text("{not json")
    error = ann.wait(lambda f: f["type"] == "error")
    assert error["code"] == "bad_message" and error["message"].startswith("a message must be JSON")
    ann.socket.send(b'{"type": "watch"}')
    error = ann.wait(lambda f: f["type"] == "error")
    assert error == {
        "type": "error",
        "code": "bad_message",
        "message": "frames are JSON text, not binary",
    }
    refused(
        ann,
        {"type": "dance"},
        "bad_message",
        'unknown message type "dance"; types are: '
        "hello, watch, sit, act, sit_out, sit_in, preferences, leave, top_up, chat, commit, "
        "reveal, host, run_it, rabbit, straddle, waiting_list",
    )
    refused(
        ann,
        {"type": "sit", "table": table, "seat": 2},
        "bad_message",
        "sit.buy_in must be a whole number from 1 to 1000000000000, not null",
    )
    refused(
        ann,
        {"type": "top_up", "table": table, "amount": "10"},
        "bad_message",
        'top_up.amount must be a whole number from 1 to 1000000000000, not "10"',
    )
    refused(ann, {"type": "watch", "table": "nope"}, "unknown_table", "there is no table 'nope'")
    refused(ann, {"type": "hello", "token": tokens[0]}, "bad_message", "hello comes once, first")
    refused(
        ann,
        {"type": "act", "table": table, "hand": "x", "action": "check"},
        "not_your_turn",
        "no hand is being played",
    )
    refused(
        cy, {"type": "leave", "table": table}, "not_seated", f"Cy does not sit at table {table}"
    )
    refused(
        bob,
        {"type": "sit", "table": table, "seat": 1, "buy_in": 100},
        "already_seated",
        "Bob already sits in seat 2",
    )
    refused(
        cy,
        {"type": "sit", "table": table, "seat": 1, "buy_in": 100},
        "seat_taken",
        "seat 1 is taken",
    )
    refused(
        ann,
        {"type": "top_up", "table": table, "amount": 101},
        "buy_in",
        "101 more would make 201: the maximum is 200",
    )
    unchanged(bob, table, before)

    ann.skip()
    ann.send({"type": "host", "table": table, "action": "resume"})
    hand = ann.wait(is_event("hand_started"))["event"]["hand"]
    ann.send({"type": "host", "table": table, "action": "pause"})
    ann.wait(is_event("host"))
    state = ann.state(table)
    to_act = state["hand"]["to_act"]
    acting, waiting = (ann, bob) if to_act == 1 else (bob, ann)
    turn = acting.wait(lambda f: f["type"] == "turn")
    legal = {entry["action"]: entry for entry in turn["legal"]}
    before = waiting.state(table)
    act = {"type": "act", "table": table, "hand": hand}
    refused(waiting, act | {"action": "call"}, "not_your_turn", f"seat {3 - to_act} is not to act")
    refused(
        acting,
        act | {"action": "call", "seat": 3 - to_act},
        "forbidden",
        f"seat {3 - to_act} is not yours: you sit in seat {to_act}",
    )
    refused(
        acting,
        act | {"hand": f"{table}-99", "action": "call"},
        "wrong_hand",
        f"hand {table}-99 is not the hand in play ({hand})",
    )
    top = legal["raise"]["max"]
    refused(
        acting,
        act | {"action": "raise", "amount": top + 1},
        "illegal_action",
        f"raise to {top + 1} is above the pot-limit maximum of {top}",
    )
    refused(
        acting,
        act | {"action": "bet", "amount": 4},
        "illegal_action",
        "cannot bet: there is a bet of 2; raise instead",
    )
    refused(cy, act | {"action": "fold"}, "not_seated", f"Cy does not sit at table {table}")
    unchanged(waiting, table, before)

    # too many commands a second: refused beyond the allowance, the rest answered
    cy.skip()
    for _ in range(60):
        cy.send({"type": "watch", "table": bots}, paced=False)
    limited = cy.wait(lambda f: f["type"] == "error")
    assert (limited["code"], limited["message"]) == ("rate_limited", "at most 20 messages a second")

    # a frame over 64 KiB closes that connection, and only that one
    cy.send({"type": "chat", "table": table, "text": "x" * (MAX_FRAME + 1)})
    cy.closed.wait(5)
    assert cy.socket.close_code == 1009
    with pytest.raises(ConnectionClosed):
        cy.socket.send(json.dumps({"type": "watch", "table": table}))

    unchanged(waiting, table, before)
    assert [ledger(room, token) for token in tokens] == ledgers
    chips_kept(store)  # (not the same totals: the bots buy in again when they go broke)
    play([ann, bob], table, lambda: bool(ann.events("hand_ended")))
    ended = watcher.hands_ended()
    watcher.skip()
    watcher.wait(is_event("hand_ended"))
    assert watcher.hands_ended() > ended, "the bots' table played on"
    events = [f for f in watcher.frames if f["type"] == "event"]
    assert [f["seq"] for f in events] == list(range(events[0]["seq"], events[-1]["seq"] + 1))
    assert not [f for f in watcher.frames if f["type"] == "error"]


def test_the_first_message_is_hello(room: RoomServer) -> None:
    client = Client(room, None, hello=False)
    client.send({"type": "watch", "table": "t"})
    assert client.wait(lambda f: True) == {
        "type": "error",
        "code": "bad_message",
        "message": "the first message is hello",
    }
    client.send({"type": "hello", "token": "not-a-token", "ref": 9})
    assert client.wait(lambda f: True) == {
        "type": "error",
        "code": "unauthorized",
        "message": "the token is unknown or logged out",
        "ref": 9,
    }
    _, token = room.guest("Ann")
    client.send({"type": "hello", "token": token})
    assert client.wait(lambda f: True)["type"] == "welcome"


def test_a_failing_store_refuses_and_changes_nothing(
    room: RoomServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault in the room (here the store failing) is a ``server_error`` with a plain
    message: the top-up is not made, and the table goes on."""
    token = room.guest("Ann")[1]
    table, ann = paused_table(room, token, name="Faults", seats=2)
    ann.sit(table, 1, 100)
    before = ann.state(table)

    def broken(*args: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store, "top_up", broken)
    refused(
        ann,
        {"type": "top_up", "table": table, "amount": 50},
        "server_error",
        "the room could not do that; try again",
    )
    monkeypatch.undo()
    unchanged(ann, table, before)
    assert seated(before, 1)["stack"] == 100
    ann.send({"type": "top_up", "table": table, "amount": 50})
    assert ann.wait(is_event("chips_added"))["event"]["stack"] == 150


def first_turn(clients: list[Client], timeout: float = 10) -> tuple[Client, Frame]:
    """The client that gets the first ``turn``, and that turn."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for client in clients:
            turn = next((f for f in list(client.frames) if f["type"] == "turn"), None)
            if turn is not None:
                return client, turn
        time.sleep(0.01)
    raise AssertionError("nobody got a turn")


def test_an_action_the_log_refuses_is_undone_and_may_be_sent_again(
    room: RoomServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store refuses to log an action (not a passing outage): the table goes back to
    what the log holds, the player is told to send it again, nobody is told the action,
    and the hand then plays on and is written once."""
    table, (ann, bob) = seated_game(room, ("Ann", "Bob"), 100, name="Log", seats=2)
    ann.send({"type": "host", "table": table, "action": "resume"})
    acting, turn = first_turn([ann, bob])
    before = acting.state(table)

    def refused(*args: Any) -> None:  # once: the store then logs again
        monkeypatch.undo()
        raise StoreError("the database refused the change: a test's fault")

    for name in ("append_actions", "append_actions_now"):  # on the store's thread or the loop
        monkeypatch.setattr(store, name, refused)
    acting.send(
        {"type": "act", "table": table, "hand": turn["hand"], "action": "call", "ref": "first"}
    )
    error = acting.wait(lambda f: f["type"] == "error")
    assert (error["code"], error["ref"]) == ("server_error", "first")
    assert error["message"] == "the room could not record that action: send it again"
    again = acting.state(table)
    assert again["seats"] == before["seats"] and again["hand"] == before["hand"]
    assert not [e for e in ann.events("acted") if e["hand"] == turn["hand"]]
    play([ann, bob], table, lambda: bool(ann.events("hand_ended")))
    chips_kept(store)
    hand = store.hand(turn["hand"])
    assert hand.status.value == "finished"
    assert store.hand_log(turn["hand"]).actions[0].kind in ("call", "fold", "check")


def http_error(answer: Any, status: int, code: str, message: str | None = None) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code
    assert "Traceback" not in answer.text
    if message is not None:
        assert body["error"]["message"] == message


def test_http_errors_are_json_with_a_code(
    room: RoomServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, token = room.guest("Ann")
    with room.http() as http:
        http_error(http.get("/api/nope"), 404, "not_found")
        http_error(http.delete("/api/health"), 405, "bad_message")
        http_error(
            http.post(
                "/api/guests", content=b"{not json", headers={"content-type": "application/json"}
            ),
            400,
            "bad_message",
        )
        http_error(
            http.post("/api/guests", json={"name": ""}),
            400,
            "bad_message",
            "name: String should have at least 1 character",
        )
        http_error(
            http.post("/api/tables", json={"name": "x"}),
            401,
            "unauthorized",
            "this needs a session: Authorization: Bearer TOKEN",
        )
        http_error(http.get("/api/me/ledger"), 401, "unauthorized")
        http_error(http.get("/api/tables/nope"), 404, "unknown_table", "there is no table 'nope'")
        http_error(http.get("/api/hands/nope"), 404, "unknown_hand", "there is no hand 'nope'")
        for _ in range(10):
            http_error(
                http.post("/api/sessions", json={"name": "Zed", "password": "pw"}),
                401,
                "unauthorized",
            )
        http_error(
            http.post("/api/sessions", json={"name": "Zed", "password": "pw"}),
            429,
            "rate_limited",
            "too many login attempts: wait a minute",
        )
        for n in range(20):  # other names from the same address: 30 tries a minute in all
            http_error(
                http.post("/api/sessions", json={"name": f"Zed{n}", "password": "pw"}),
                401,
                "unauthorized",
            )
        http_error(
            http.post("/api/accounts", json={"name": "Yan", "password": "password1"}),
            429,
            "rate_limited",
            "too many login attempts: wait a minute",
        )
    with room.http("not-a-token") as http:
        http_error(
            http.get("/api/me/ledger"), 401, "unauthorized", "the token is unknown or logged out"
        )
    with room.http(token) as http:
        for settings, message in (
            ({"name": "x", "seats": 11}, "seats must be from 2 to 10, not 11"),
            ({"name": "x", "colour": "red"}, "unknown setting 'colour'; settings are: "),
            (
                {"name": "x", "structure": "spread"},
                "structure must be one of limit, pot-limit, no-limit, mixed, not 'spread'",
            ),
            ([1, 2], "table settings are a JSON object"),
        ):
            answer = http.post("/api/tables", json=settings)
            http_error(answer, 400, "bad_message")
            assert answer.json()["error"]["message"].startswith(message)
        table = http.post("/api/tables", json={"name": "Open"}).json()["table"]["id"]
        http_error(http.get(f"/api/tables/{table}/hands", params={"limit": 0}), 400, "bad_message")
        http_error(http.get("/api/hands/x", params={"format": "xml"}), 400, "bad_message")

        def broken(*args: Any) -> None:
            raise RuntimeError("disk on fire at /var/secret")

        monkeypatch.setattr(store, "ledger_for", broken)
        answer = http.get("/api/me/ledger")
        http_error(answer, 500, "server_error", "the room could not do that; try again")
        assert "secret" not in answer.text


def test_request_bodies_and_tables_a_player_hosts_are_bounded(
    room: RoomServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_room, "TABLES_PER_DAY", 10)
    token = room.guest("Hal")[1]
    with room.http(token) as http:
        http_error(
            http.post("/api/guests", json={"name": "x" * 70_000}),
            400,
            "bad_message",
            "a request body is at most 65536 bytes",
        )
        for number in range(10):
            answer = http.post("/api/tables", json={"name": f"T{number}"})
            assert answer.status_code == 201, answer.text
        http_error(
            http.post("/api/tables", json={"name": "One more"}),
            429,
            "rate_limited",
            "a player may make at most 10 tables in 24 hours",
        )
        assert len(http.get("/api/tables").json()["tables"]) == 10
