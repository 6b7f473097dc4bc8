"""The host's room over real sockets (issue 24): a seat asked for and approved with
another stack, the waiting list in the lobby and its offer, the host's stack edits in
the ledger with their author, a table copied for next week, and the limits a weekly host
never meets while one who fills the room with tables does."""

from __future__ import annotations

import csv
import io
import time
from contextlib import closing
from dataclasses import replace

import pytest
from room_helpers import FAST, Client, RoomServer, is_event, ledger, running_room, seated

from splitpot.client.state import TableClient
from splitpot.server import room as server_room
from splitpot.store import Store

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)


def host_command(client: Client, table: str, action: str, **fields: object) -> dict[str, object]:
    """The host's command, answered by its ``host`` event in the table's log."""
    client.send({"type": "host", "table": table, "action": action, **fields})
    event: dict[str, object] = client.wait(
        lambda f: is_event("host")(f) and f["event"]["action"] == action
    )["event"]
    return event


def test_a_seat_by_approval_is_asked_for_and_the_host_seats_the_player(room: RoomServer) -> None:
    ann, ann_token = room.guest("Ann")
    bob, bob_token = room.guest("Bob")
    made = room.create_table(ann_token, name="Home", approval=True)["table"]
    table = made["id"]
    assert made["approval"] is True
    with closing(Client(room, ann_token)) as host, closing(Client(room, bob_token)) as player:
        host.state(table)
        player.send({"type": "sit", "table": table, "seat": 3, "buy_in": 100})
        asked = host.wait(is_event("seat_request"))["event"]
        assert (asked["player"], asked["seat"], asked["state"]) == (bob, 3, "asked")
        assert asked["text"] == "Bob asks for seat 3 with 100"
        assert player.wait(is_event("seat_request"))["event"]["state"] == "asked"
        state = host.state(table)
        assert [(r["player"], r["seat"], r["buy_in"]) for r in state["requests"]] == [(bob, 3, 100)]
        assert seated(state, 3)["player"] is None

        refused = player.error({"type": "host", "table": table, "action": "approve", "seat": 3})
        assert (refused["code"], refused["message"]) == (
            "forbidden",
            f"only the host of table {table} may do that",
        )
        told = host_command(host, table, "approve", seat=3, amount=150)
        assert (told["by"], told["player"], told["text"]) == (ann, bob, "The host seats Bob")
        mine = player.wait(
            lambda f: f["type"] == "table" and seated(f["state"], 3)["player"] == bob
        )
        assert seated(mine["state"], 3)["stack"] == 150
    assert ledger(room, bob_token)["balance"] == -150


def test_the_waiting_list_shows_in_the_lobby_and_a_freed_seat_is_offered(
    room: RoomServer,
) -> None:
    tokens = {name: room.guest(name)[1] for name in ("Ann", "Bob", "Cy")}
    table = room.create_table(tokens["Ann"], name="Full", seats=2)["table"]["id"]
    with (
        closing(Client(room, tokens["Ann"])) as ann,
        closing(Client(room, tokens["Bob"])) as bob,
        closing(Client(room, tokens["Cy"])) as cy,
    ):
        ann.sit(table, 1, 100)
        bob.sit(table, 2, 100)
        cy.state(table)
        terminal = TableClient(table)  # the terminal client's words for the same frames
        terminal.receive_all(cy.frames)
        cy.send(terminal.command("wait").send or {})
        joined = cy.wait(is_event("waiting_list"))["event"]
        assert joined["text"] == "Cy joins the waiting list: number 1"
        with room.http() as http:
            [listed] = [t for t in http.get("/api/tables").json()["tables"] if t["id"] == table]
        assert listed["waiting_list"] == 1
        bob.send({"type": "leave", "table": table})
        offer = cy.wait(is_event("seat_offer"))["event"]
        assert (offer["seat"], offer["state"], offer["seconds"]) == (2, "offered", 60)
        told = terminal.receive_all(cy.frames)  # the events it has not folded yet
        assert "Seat 2 is free for Cy, first on the waiting list" in told
        cy.sit(table, 2, 100)
        assert ann.state(table)["waiting_list"] == []


def test_the_hosts_stack_edit_is_told_and_kept_with_its_author(
    room: RoomServer, store: Store
) -> None:
    ann, ann_token = room.guest("Ann")
    _, bob_token = room.guest("Bob")
    table = room.create_table(ann_token, name="Edits")["table"]["id"]
    with closing(Client(room, ann_token)) as host, closing(Client(room, bob_token)) as bob:
        host.sit(table, 1, 100)
        bob.sit(table, 2, 100)
        host.send({"type": "host", "table": table, "action": "pause"})
        host.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
        refused = bob.error(
            {"type": "host", "table": table, "action": "stack", "seat": 2, "amount": 900}
        )
        assert refused["code"] == "forbidden"
        host.send({"type": "host", "table": table, "action": "stack", "seat": 2, "amount": 500})
        edited = bob.wait(is_event("stack_edited"))["event"]
        assert (edited["seat"], edited["amount"], edited["stack"]) == (2, 500, 600)
        assert edited["text"] == "The host adds 500 to Bob's stack: 600"
        too_much = host.error(
            {"type": "host", "table": table, "action": "stack", "seat": 2, "amount": -601}
        )
        assert (too_much["code"], too_much["message"]) == (
            "bad_message",
            "Bob has 600: 601 cannot be taken",
        )
        host.send({"type": "host", "table": table, "action": "stack", "seat": 2, "amount": -50})
        assert bob.wait(is_event("stack_edited"))["event"]["stack"] == 550
    entries = [e for e in ledger(room, bob_token)["entries"] if e["kind"] == "stack_edit"]
    assert [(e["amount"], e["account"], e["by"]) for e in entries] == [
        (-500, "balance", ann),
        (50, "balance", ann),
    ]
    with room.http(ann_token) as http:
        text = http.get(f"/api/tables/{table}/ledger.csv").text
    rows = [r for r in csv.DictReader(io.StringIO(text)) if r["kind"] == "stack_edit"]
    assert {(r["account"], r["amount"], r["by"]) for r in rows} == {
        ("balance", "-500", "Ann"),
        ("table", "500", "Ann"),
        ("table", "-50", "Ann"),
        ("balance", "50", "Ann"),
    }
    totals = store.check_invariant()
    assert totals.balances + totals.on_tables + totals.house == 0


def test_a_table_is_copied_by_its_host_alone_with_its_settings_now(room: RoomServer) -> None:
    _, ann_token = room.guest("Ann")
    _, bob_token = room.guest("Bob")
    made = room.create_table(ann_token, name="Friday O8", small_blind=1, big_blind=2, seats=6)
    table = made["table"]["id"]
    with closing(Client(room, ann_token)) as host:
        host.state(table)
        host_command(host, table, "stakes", small_blind=2, big_blind=4)
        host_command(host, table, "close")
    with room.http(ann_token) as http:
        copied = http.post(f"/api/tables/{table}/copy", json={"name": "Friday O8, week 2"})
        assert copied.status_code == 201, copied.text
        summary = copied.json()["table"]
        assert (summary["name"], summary["small_blind"], summary["big_blind"]) == (
            "Friday O8, week 2",
            2,
            4,
        )
        assert summary["id"] != table and summary["seats"] == 6
        bad = http.post(f"/api/tables/{table}/copy", json={"seats": 99})
        assert bad.status_code == 400
        assert bad.json()["error"]["message"] == "seats must be from 2 to 10, not 99"
    with room.http(bob_token) as http:
        theirs = http.post(f"/api/tables/{table}/copy")
        assert theirs.status_code == 403
        assert theirs.json()["error"]["message"] == f"only the host of table {table} may do that"


def test_a_weekly_host_never_meets_a_limit_and_one_filling_the_room_does(
    room: RoomServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, ann_token = room.guest("Ann")
    table = room.create_table(ann_token, name="Week 1")["table"]["id"]
    with room.http(ann_token) as http:
        for week in range(2, 13):  # a table a week, played and left: the old cap was 10
            with closing(Client(room, ann_token)) as host:
                host.sit(table, 1, 100)
                host.send({"type": "leave", "table": table})
                host.wait(is_event("player_left"))
            answer = http.post(f"/api/tables/{table}/copy", json={"name": f"Week {week}"})
            assert answer.status_code == 201, (week, answer.text)
            table = answer.json()["table"]["id"]
    assert store.hosting(int(ann)).open == 12

    monkeypatch.setattr(server_room, "TABLES_PER_HOST", 1)
    _, bea_token = room.guest("Bea")
    first = room.create_table(bea_token, name="In use")["table"]["id"]
    with closing(Client(room, bea_token)) as bea, room.http(bea_token) as http:
        bea.sit(first, 1, 100)
        refused = http.post("/api/tables", json={"name": "Another"})
        assert refused.status_code == 429
        assert refused.json()["error"]["message"] == (
            "a player may host at most 1 tables where players sit: close one first"
        )
    monkeypatch.setattr(server_room, "OPEN_TABLES_PER_HOST", 1)
    _, cy_token = room.guest("Cy")
    room.create_table(cy_token, name="Empty")
    with room.http(cy_token) as http:
        refused = http.post("/api/tables", json={"name": "Another"})
        assert refused.json()["error"]["message"] == (
            "a player may host at most 1 open tables: close one first (an empty table "
            "closes by itself after a week)"
        )


def test_an_empty_table_closes_by_itself_and_its_host_may_reopen_it(store: Store) -> None:
    options = replace(FAST, empty_close=1.0)
    with running_room(store, options) as room:
        _, token = room.guest("Ann")
        table = room.create_table(token, name="Nobody came")["table"]["id"]
        deadline = time.monotonic() + 30
        while not store.table(table).closed:
            assert time.monotonic() < deadline, "the empty table did not close"
            time.sleep(0.1)
        with room.http(token) as http:
            again = http.post(f"/api/tables/{table}/reopen")
            assert again.status_code == 200, again.text


def test_a_clubs_table_is_copied_into_the_club_by_its_managers_alone(room: RoomServer) -> None:
    _, ann_token = room.guest("Ann")
    bob, bob_token = room.guest("Bob")
    with room.http(ann_token) as ann, room.http(bob_token) as bob_http:
        made = ann.post("/api/clubs", json={"name": "Friday club"}).json()
        club = made["club"]["id"]
        joined = bob_http.post(f"/api/clubs/{club}/join", json={"code": made["invite"]})
        assert joined.status_code == 200, joined.text
        role = f"/api/clubs/{club}/members/{bob}/role"
        assert ann.put(role, json={"role": "manager"}).status_code == 200
        opened = bob_http.post(f"/api/clubs/{club}/tables", json={"name": "Friday O8"})
        table = opened.json()["table"]["id"]
        assert ann.put(role, json={"role": "member"}).status_code == 200
        refused = bob_http.post(f"/api/tables/{table}/copy")
        assert (refused.status_code, refused.json()["error"]["message"]) == (
            403,
            f"only a manager of club {club} may open its tables",
        )
        assert ann.put(role, json={"role": "manager"}).status_code == 200
        copied = bob_http.post(f"/api/tables/{table}/copy", json={"private": False})
        assert copied.status_code == 201, copied.text
        summary = copied.json()["table"]
        assert summary["private"] is True and summary["club"] == {"id": club, "name": "Friday club"}
        log = ann.get(f"/api/clubs/{club}/log").json()["log"]
        assert log[0]["kind"] == "table_copied"
        assert log[0]["fields"] == {"table": summary["id"], "copy_of": table}
