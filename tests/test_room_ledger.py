"""The ledger over HTTP (PROTOCOL.md "The ledger"): each player's entries and balance, a
table's ledger as CSV, the settle-up; every chip accounted for (store.check_invariant)."""

from __future__ import annotations

import csv
import io

from room_helpers import Client, RoomServer, ledger, play, play_hands

from splitpot.store import Store


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
    assert set(rows[0]) == {"entry", "time", "kind", "hand", "account", "player", "amount"}
    assert sum(int(row["amount"]) for row in rows) == 0, "every transfer balances"
    buy_ins = sorted((row["player"], int(row["amount"])) for row in rows if row["kind"] == "buy_in")
    assert buy_ins == [("Ann", -200), ("Ann", 200), ("Bob", -150), ("Bob", 150)]
    assert {row["hand"] for row in rows if row["kind"] == "hand_result"} == set(hands)
    won = cashed[1] - 200
    if won:
        payer, payee = ("Bob", "Ann") if won > 0 else ("Ann", "Bob")
        assert settle == {"payments": [{"from": payer, "to": payee, "amount": abs(won)}]}
    else:
        assert settle == {"payments": []}
