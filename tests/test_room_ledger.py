"""The ledger over HTTP (PROTOCOL.md "The ledger"): each player's entries and balance, a
table's ledger as CSV, its sit-downs as PokerNow's ledger CSV, the settle-up; every chip
accounted for (store.check_invariant)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from room_helpers import (
    Client,
    RoomServer,
    is_event,
    ledger,
    one_hand,
    paused_table,
    play,
    play_hands,
    seated,
)
from store_fixtures import SETUP

from splitpot.store import NotFound, Store

RANGE = {"min_buy_in": 50, "max_buy_in": 300}  # blinds 1/2


def test_buy_ins_hand_results_and_cash_outs(room: RoomServer, store: Store) -> None:
    ann_token, bob_token = room.guest("Ann")[1], room.guest("Bob")[1]
    table = room.create_table(ann_token, name="Ledger", seats=2)["table"]["id"]
    ann, bob = Client(room, ann_token), Client(room, bob_token)
    ann.sit(table, 1, 200)
    bob.sit(table, 2, 150)
    totals = store.check_invariant()
    assert (totals.balances, totals.on_tables) == (-350, 350)
    play_hands([ann, bob], table, 3)
    for client in (ann, bob):
        client.send({"type": "leave", "table": table})
    play([ann, bob], table, lambda: len(ann.events("player_left")) == 2)
    cashed = {e["seat"]: e["stack"] for e in ann.events("player_left")}
    assert store.check_invariant() == type(totals)(balances=0, on_tables=0, house=0)
    hands = [e["hand"] for e in ann.events("hand_ended")]
    mine = ledger(room, ann_token)
    assert mine["balance"] == cashed[1] - 200
    balance = [e for e in mine["entries"] if e["account"] == "balance"]
    assert [(e["kind"], e["amount"], e["table"]) for e in balance] == [
        ("buy_in", -200, table),
        ("cash_out", cashed[1], table),
    ]
    results = [e for e in mine["entries"] if e["kind"] == "hand_result"]
    assert [e["hand"] for e in results] == hands
    nets = {
        end["hand"]: next(s["stack"] for s in end["stacks"] if s["seat"] == 1)
        for end in ann.events("hand_ended")
    }
    assert 200 + sum(e["amount"] for e in results) == nets[hands[-1]] == cashed[1]
    assert ledger(room, bob_token)["balance"] == cashed[2] - 150 == -(cashed[1] - 200)

    with room.http(bob_token) as http:
        answer = http.get(f"/api/tables/{table}/ledger.csv")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(answer.text)))
        settle = http.get(f"/api/tables/{table}/settle").json()
    assert set(rows[0]) == {"entry", "time", "kind", "hand", "account", "player", "amount", "by"}
    assert sum(int(row["amount"]) for row in rows) == 0, "every transfer balances"
    buy_ins = sorted((row["player"], int(row["amount"])) for row in rows if row["kind"] == "buy_in")
    assert buy_ins == [("Ann", -200), ("Ann", 200), ("Bob", -150), ("Bob", 150)]
    assert {row["hand"] for row in rows if row["kind"] == "hand_result"} == set(hands)
    won = cashed[1] - 200
    if won:
        payer, payee = ("Bob", "Ann") if won > 0 else ("Ann", "Bob")
        payment = {"from": payer, "to": payee, "amount": abs(won)}
        assert settle == {"payments": [payment], "fewest": True}
    else:
        assert settle == {"payments": [], "fewest": True}


SIT_DOWN = ["player_nickname", "player_id", "session_start_at", "session_end_at"]
SIT_DOWN += ["buy_in", "buy_out", "stack", "net"]
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def sit_downs(text: str) -> list[dict[str, str]]:
    """The rows of a sessions CSV, its header checked."""
    assert text.splitlines()[0] == ",".join(SIT_DOWN)
    rows = list(csv.DictReader(io.StringIO(text)))
    for row in rows:
        assert ISO.match(row["session_start_at"])
        assert not row["session_end_at"] or ISO.match(row["session_end_at"])
        chips = [int(row[name]) for name in ("buy_in", "buy_out", "stack", "net")]
        assert chips[3] == chips[1] + chips[2] - chips[0], row
    return rows


def test_sit_downs_at_the_store(store: Store) -> None:
    """One row per sit-down (PokerNow's ledger): Bob tops up, cashes out and sits again;
    Cy leaves broke (nothing cashed out) and sits again; Ann is still seated. With the
    house's rake the nets sum to zero."""
    host = store.create_guest("Host").player.id
    table, _ = store.create_table("Home game", {"seats": 9, "variant": "o8"}, host)
    ann, bob, cy = (store.create_guest(name).player.id for name in ("Ann", "Bob", "Cy"))
    store.sit(table.id, 1, ann, 100)
    store.sit(table.id, 2, bob, 100)
    store.sit(table.id, 3, cy, 20)

    def hand(results: dict[int, int], rake: int = 0) -> None:
        store.finish_hand(store.start_hand(table.id, SETUP).id, {}, results, rake)

    hand({ann: 30, bob: -32}, rake=2)
    store.top_up(table.id, bob, 50)
    hand({ann: -10, bob: 10})
    assert store.leave(table.id, bob) == 128
    hand({ann: 20, cy: -20})
    assert store.leave(table.id, cy) == 0  # broke: no cash-out
    store.sit(table.id, 2, bob, 60)
    store.sit(table.id, 4, cy, 30)
    hand({ann: 5, bob: -6}, rake=1)
    rows = sit_downs(store.table_sit_downs_csv(table.id))
    chips = [
        (r["player_nickname"], r["player_id"], r["buy_in"], r["buy_out"], r["stack"], r["net"])
        for r in rows
    ]
    assert chips == [
        ("Ann", str(ann), "100", "0", "145", "45"),
        ("Bob", str(bob), "150", "128", "0", "-22"),
        ("Cy", str(cy), "20", "0", "0", "-20"),
        ("Bob", str(bob), "60", "0", "54", "-6"),
        ("Cy", str(cy), "30", "0", "30", "0"),
        ("house", "house", "0", "3", "0", "3"),
    ]
    assert sum(int(row["net"]) for row in rows) == 0
    assert [bool(row["session_end_at"]) for row in rows] == [False, True, True, False, False, True]
    first_bob, second_bob = rows[1], rows[3]
    assert first_bob["session_end_at"] <= second_bob["session_start_at"]
    fresh, _ = store.create_table("Empty", {"seats": 9, "variant": "o8"}, host)
    assert store.table_sit_downs_csv(fresh.id) == ",".join(SIT_DOWN) + "\n"
    with pytest.raises(NotFound, match="no table 'nope'"):
        store.table_sit_downs_csv("nope")


def test_sessions_csv_of_a_top_up_a_leave_and_a_new_sit_down(room: RoomServer) -> None:
    """GET /api/tables/{id}/sessions.csv: Bob tops up, leaves and sits again, so he has two
    rows; their chips agree with what the table said; the nets sum to zero (no rake)."""
    ann_token, bob_token = room.guest("Ann")[1], room.guest("Bob")[1]
    table, ann = paused_table(room, ann_token, name="Sessions", seats=3, **RANGE)
    bob = Client(room, bob_token)
    ann.sit(table, 1, 200)
    bob.sit(table, 2, 100)
    one_hand(ann, [ann, bob], table)
    bob.send({"type": "top_up", "table": table, "amount": 50})
    bob.wait(is_event("chips_added"))
    one_hand(ann, [ann, bob], table)
    bob.send({"type": "leave", "table": table})
    cashed = bob.wait(is_event("player_left"))["event"]["stack"]
    bob.sit(table, 3, 80)
    one_hand(ann, [ann, bob], table)
    state = ann.state(table)
    with room.http(bob_token) as http:
        answer = http.get(f"/api/tables/{table}/sessions.csv")
        settle = http.get(f"/api/tables/{table}/settle").json()
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    rows = sit_downs(answer.text)
    assert [row["player_nickname"] for row in rows] == ["Ann", "Bob", "Bob"]
    ann_row, first, second = rows
    assert ann_row["player_id"] != first["player_id"] == second["player_id"]
    assert (ann_row["buy_in"], ann_row["session_end_at"]) == ("200", "")
    assert int(ann_row["stack"]) == seated(state, 1)["stack"]
    assert (first["buy_in"], first["buy_out"], first["stack"]) == ("150", str(cashed), "0")
    assert first["session_end_at"] and first["session_end_at"] <= second["session_start_at"]
    assert (second["buy_in"], second["buy_out"], second["session_end_at"]) == ("80", "0", "")
    assert int(second["stack"]) == seated(state, 3)["stack"]
    assert sum(int(row["net"]) for row in rows) == 0, "no rake: the players' nets square"
    assert settle["fewest"] is True


def test_a_private_tables_sessions_need_its_invite(room: RoomServer) -> None:
    """sessions.csv shows a private table as ledger.csv does: to the host and with the
    invite; anyone else is told there is no such table."""
    ann_token, eve_token = room.guest("Ann")[1], room.guest("Eve")[1]
    created = room.create_table(ann_token, name="Friends", seats=2, private=True)
    table, invite = created["table"]["id"], created["invite"]
    path = f"/api/tables/{table}/sessions.csv"
    for token in (eve_token, None):
        with room.http(token) as http:
            for given in ({}, {"invite": "wrong"}):
                refused = http.get(path, params=given)
                assert refused.status_code == 404
                assert refused.json()["error"]["code"] == "unknown_table"
            assert http.get(path, params={"invite": invite}).status_code == 200
    with room.http(ann_token) as http:
        assert http.get(path).text == ",".join(SIT_DOWN) + "\n"
