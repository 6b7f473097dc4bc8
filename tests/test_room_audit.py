"""The end-of-session audit (FAIRNESS.md, issue 19): a table announces it when it is made;
when the host ends the session, or the table closes, every salt of the session's hands
is published at ``GET /api/tables/{id}/audit``, and ``splitpot verify --audit`` checks
that each hand's 52 commitments were 52 different cards. Before that, nothing is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from room_helpers import Client, RoomServer, is_event, paused_table, play
from test_room_fair import Committer, document, fair_game, play_fair_hand

from splitpot import fair
from splitpot.store import HandStateError, Store
from splitpot.verify import main, verify_audit

SETUP: dict[str, Any] = {"fairness": {"pre_order": ["As"], "salts": ["00"], "server_seed": ""}}


def test_a_session_ends_with_the_hands_since_the_last_audit(store: Store) -> None:
    """The store's sessions: each audit holds the hands dealt since the one before; none
    while no hand was dealt since; refused while a hand is in play."""
    host = store.create_guest("Host").player.id
    table, _ = store.create_table("Audited", {"seats": 6, "audit": True}, host)
    assert store.end_session(table.id) is None  # no hand yet: no audit
    for _ in range(2):
        store.cancel_hand(store.start_hand(table.id, SETUP).id)
    first = store.end_session(table.id)
    assert first is not None and (first.number, first.first_hand, first.last_hand) == (1, 1, 2)
    assert store.end_session(table.id) is None  # nothing dealt since
    playing = store.start_hand(table.id, {"fairness": {**SETUP["fairness"], "n": 3}})
    with pytest.raises(HandStateError, match="finish it first"):
        store.end_session(table.id)
    assert [a.number for a in store.audits(table.id)] == [1], "refused: nothing changed"
    store.cancel_hand(playing.id)
    second = store.end_session(table.id)
    assert second is not None and (second.first_hand, second.last_hand) == (3, 3)
    audit, hands = store.audited_hands(table.id, 2)
    assert audit == second and [(h.number, h.fairness["n"]) for h in hands] == [(3, 3)]
    assert [h.number for h in store.audited_hands(table.id, 1)[1]] == [1, 2]


# ------------------------------------------------------------------ the room

room_behaviour = pytest.mark.one_database  # on SQLite only (conftest.py)


def host_says(client: Client, table: str, action: str) -> dict[str, Any]:
    client.send({"type": "host", "table": table, "action": action})
    found = client.wait(lambda f: is_event("host")(f) and f["event"]["action"] == action)
    event: dict[str, Any] = found["event"]
    return event


def audit_of(room: RoomServer, table: str, token: str | None = None, **query: Any) -> Any:
    with room.http(token) as http:
        return http.get(f"/api/tables/{table}/audit", params=query)


@room_behaviour
def test_the_audit_is_published_when_the_session_ends_and_verifies(
    room: RoomServer, tmp_path: Path
) -> None:
    table, clients = fair_game(room, ["Ann", "Bob"], audit=True)
    ann = clients[0]
    with room.http() as http:
        listed = [t for t in http.get("/api/tables").json()["tables"] if t["id"] == table]
    assert listed[0]["audit"] is True  # announced in the lobby before anyone plays
    committers = [Committer(client, table) for client in clients]
    hands = [play_fair_hand(ann, clients, committers, table) for _ in range(2)]
    early = audit_of(room, table)
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_now"
    assert "no session of table" in early.json()["error"]["message"]

    said = host_says(ann, table, "end_session")
    assert said["text"] == "The host ends the session: every salt of its hands is published"
    told = ann.wait(is_event("audit"))["event"]
    assert (told["session"], told["first_hand"], told["last_hand"]) == (1, *hands)
    assert told["text"] == "Session 1 ends: every salt of hands #1 to #2 is published"

    answer = audit_of(room, table)
    assert answer.status_code == 200, answer.text
    audit = answer.json()
    assert [h["hand"] for h in audit["hands"]] == hands
    for hand in audit["hands"]:
        assert sorted(hand["cards"]) == sorted(fair.CARDS) and len(hand["salts"]) == 52
    records = [document(room, hand, ann.token) for hand in hands]
    for hand in audit["hands"]:
        announced = next(e for e in ann.events("hand_started") if e["hand"] == hand["hand"])
        assert hand["deck_commitment"] == announced["fairness"]["deck_commitment"]
    assert all(check.passed for check in verify_audit(audit, records))
    kept = tmp_path / "audit.json"
    kept.write_text(json.dumps(audit))
    paths = []
    for record in records:
        paths.append(tmp_path / f"{record['id']}.json")
        paths[-1].write_text(json.dumps(record))
    assert main(["--audit", str(kept), *map(str, paths)]) == 0

    forged = json.loads(json.dumps(audit))  # a deck that committed the ace of spades twice
    cards = forged["hands"][0]["cards"]
    cards[cards.index("Ks")] = "As"
    kept.write_text(json.dumps(forged))
    assert main(["--audit", str(kept)]) == 1
    for client in clients:
        client.close()


@room_behaviour
def test_closing_the_table_ends_its_session_and_the_audit_stays_readable(
    room: RoomServer,
) -> None:
    """The hand in play is played out first, and its salts are not published while it is
    played; the second session holds the hands since the first; a closed table's audits,
    hands and settle-up are still read; ``session`` picks an earlier audit."""
    table, clients = fair_game(room, ["Ann", "Bob"], audit=True)
    ann = clients[0]
    committers = [Committer(client, table) for client in clients]
    first = play_fair_hand(ann, clients, committers, table)
    host_says(ann, table, "end_session")
    assert ann.wait(is_event("audit"))["event"]["last_hand"] == first
    ann.skip()
    ann.send({"type": "host", "table": table, "action": "resume"})
    started = ann.wait(lambda f: is_event("hand_started")(f) and f["table"] == table)["event"]
    for committer in committers:
        committer.reveal(started)
    said = host_says(ann, table, "close")
    assert said["text"] == "The host closes the table at the end of the hand"
    during = audit_of(room, table).json()
    assert [s["session"] for s in during["sessions"]] == [1]
    assert [h["hand"] for h in during["hands"]] == [first]
    second = started["hand"]
    play(clients, table, lambda: any(e["hand"] == second for e in ann.events("hand_ended")))
    told = ann.wait(is_event("audit"))["event"]
    assert (told["session"], told["first_hand"], told["last_hand"]) == (2, second, second)
    assert told["text"] == "Session 2 ends: every salt of hand #2 is published"
    ann.wait(lambda f: f["type"] == "unwatched" and f["table"] == table)

    closed = audit_of(room, table).json()  # the table is closed: its history is still read
    assert [h["hand"] for h in closed["hands"]] == [second]
    assert [h["hand"] for h in audit_of(room, table, session=1).json()["hands"]] == [first]
    later = audit_of(room, table, session=3)
    assert later.status_code == 409
    assert later.json()["error"]["message"] == (
        f"session 3 of table {table} has not ended (sessions 1 to 2 have)"
    )
    with room.http(ann.token) as http:
        assert len(http.get(f"/api/tables/{table}/hands").json()["hands"]) == 2
        assert http.get(f"/api/tables/{table}/settle").status_code == 200
        assert http.get(f"/api/tables/{table}").status_code == 404  # closed: no table to join
    for client in clients:
        client.close()


@room_behaviour
def test_a_private_tables_audit_is_hidden_from_strangers(room: RoomServer) -> None:
    token, stranger = room.guest("Ann")[1], room.guest("Bob")[1]
    table, ann = paused_table(room, token, name="Home", audit=True, private=True)
    hidden = audit_of(room, table, stranger)
    assert hidden.status_code == 404 and hidden.json()["error"]["code"] == "unknown_table"
    assert audit_of(room, table, token).json()["error"]["code"] == "not_now"  # the host
    ann.close()


@room_behaviour
def test_a_table_made_without_the_audit_publishes_none(room: RoomServer) -> None:
    token = room.guest("Ann")[1]
    table, ann = paused_table(room, token, name="Plain")
    refused = ann.error({"type": "host", "table": table, "action": "end_session"})
    assert refused["code"] == "bad_message"
    assert refused["message"] == (
        f"table {table} was made without the audit: its sessions publish no salts"
    )
    answer = audit_of(room, table)
    assert answer.status_code == 400 and answer.json()["error"]["message"] == refused["message"]
    ann.close()
