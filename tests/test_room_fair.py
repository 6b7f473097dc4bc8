"""The room deals every hand by splitpot-deal-v1 (FAIRNESS.md), over real sockets: a hand
is announced with its commitments, the players who committed reveal, the record of each
hand verifies with nothing but ``splitpot.verify``, and the records form a chain."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
from pathlib import Path
from typing import Any

import pytest
from room_helpers import FAST, Client, Frame, RoomServer, is_event, one_hand, play, running_room

from splitpot.store import Store
from splitpot.verify import main as verify_main
from splitpot.verify import verify_chain, verify_hand

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)


def commitment_of(entropy: bytes) -> str:
    return hashlib.sha256(b"splitpot-player-v1" + entropy).hexdigest()


class Committer:
    """A player's client side of the fair deal: a commitment sent ahead of each hand, the
    entropy revealed when the hand's start lists it."""

    def __init__(self, client: Client, table: str, entropy: bytes | None = None) -> None:
        self.client, self.table = client, table
        self.entropy = entropy or secrets.token_bytes(32)
        self.revealed: list[str] = []
        client.send({"type": "commit", "table": table, "commitment": commitment_of(self.entropy)})

    def reveal(self, started: Frame) -> None:
        listed = {p["seat"] for p in started["fairness"]["players"]}
        if self.client.seat in listed:
            entropy, self.entropy = self.entropy, secrets.token_bytes(32)
            hand = started["hand"]
            self.client.send(
                {"type": "reveal", "table": self.table, "hand": hand, "entropy": entropy.hex()}
            )
            self.revealed.append(hand)
            commitment = commitment_of(self.entropy)
            self.client.send({"type": "commit", "table": self.table, "commitment": commitment})


def fair_game(room: RoomServer, names: list[str], **settings: Any) -> tuple[str, list[Client]]:
    tokens = [room.guest(name)[1] for name in names]
    table = room.create_table(tokens[0], name="Fair", **settings)["table"]["id"]
    clients = [Client(room, token) for token in tokens]
    clients[0].state(table)
    clients[0].send({"type": "host", "table": table, "action": "pause"})
    clients[0].wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
    for seat, client in enumerate(clients, start=1):
        client.sit(table, seat, 100)
    return table, clients


def play_fair_hand(
    host: Client, clients: list[Client], committers: list[Committer], table: str
) -> str:
    """Resume, take the hand's start, reveal, pause again and play the hand out."""
    host.skip()
    host.send({"type": "host", "table": table, "action": "resume"})
    started = host.wait(lambda f: is_event("hand_started")(f) and f["table"] == table)["event"]
    for committer in committers:
        committer.reveal(started)
    host.send({"type": "host", "table": table, "action": "pause"})
    hand = started["hand"]
    play(clients, table, lambda: any(e["hand"] == hand for e in host.events("hand_ended")))
    return str(hand)


def document(room: RoomServer, hand: str, token: str | None) -> dict[str, Any]:
    with room.http(token) as http:
        answer = http.get(f"/api/hands/{hand}")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_hand_is_announced_with_commitments_dealt_after_the_reveals_and_verifies(
    room: RoomServer,
) -> None:
    table, clients = fair_game(room, ["Ann", "Bob"])
    committers = [Committer(client, table) for client in clients]
    hand = play_fair_hand(clients[0], clients, committers, table)
    started = next(e for e in clients[1].events("hand_started") if e["hand"] == hand)
    fairness = started["fairness"]
    assert set(fairness) >= {"deck_commitment", "server_commitment", "players"}
    assert [p["seat"] for p in fairness["players"]] == [1, 2]
    kinds = [f["event"]["kind"] for f in clients[1].frames if f["type"] == "event"]
    assert kinds.index("hand_started") < kinds.index("dealt")  # announced, then dealt
    for committer in committers:
        assert committer.revealed == [hand]
    for client in clients:
        record = document(room, hand, client.token)
        checks = verify_hand(record)
        assert [c.name for c in checks if not c.passed] == []
        entropies = {p["seat"]: p["entropy"] for p in record["fairness"]["players"]}
        assert all(entropies.values())  # both revealed in time
        own = [
            r
            for r in record["fairness"]["revealed"]
            if r["card"] in record["holes"][client.seat - 1]
        ]
        assert len(own) == 4  # the reader's own hole cards, with their salts
    watcher = document(room, hand, None)
    assert [c.name for c in verify_hand(watcher) if not c.passed] == []
    for client in clients:
        client.close()


def test_a_player_who_does_not_reveal_is_dealt_in_without_entropy(store: Store) -> None:
    options = dataclasses.replace(FAST, reveal_wait=0.3)
    with running_room(store, options) as room:
        table, clients = fair_game(room, ["Ann", "Bob"])
        Committer(clients[1], table)  # Bob commits and never reveals
        hand = one_hand(clients[0], clients, table)["hand"]
        record = document(room, hand, None)
        assert record["fairness"]["players"] == [
            {
                "seat": 2,
                "commitment": record["fairness"]["players"][0]["commitment"],
                "entropy": None,
            }
        ]
        assert [c.name for c in verify_hand(record) if not c.passed] == []
        for client in clients:
            client.close()


def test_bad_commitments_and_reveals_are_refused_by_name(room: RoomServer) -> None:
    table, clients = fair_game(room, ["Ann", "Bob"])
    ann, bob = clients
    watcher = Client(room, None)
    watcher.state(table)
    refused = watcher.error({"type": "commit", "table": table, "commitment": "0" * 64})
    assert refused["code"] == "forbidden"
    assert (
        ann.error({"type": "commit", "table": table, "commitment": "xyz"})["code"] == "bad_message"
    )
    early = ann.error({"type": "reveal", "table": table, "hand": f"{table}-1", "entropy": "0" * 64})
    assert early["code"] == "not_now" and "no hand is waiting" in early["message"]
    bob_entropy = secrets.token_bytes(32)
    bob.send({"type": "commit", "table": table, "commitment": commitment_of(bob_entropy)})
    ann.skip()
    ann.send({"type": "host", "table": table, "action": "resume"})
    started = ann.wait(lambda f: is_event("hand_started")(f))["event"]
    hand = started["hand"]
    wrong = bob.error({"type": "reveal", "table": table, "hand": "nope", "entropy": "0" * 64})
    assert wrong["code"] == "wrong_hand" and hand in wrong["message"]
    lie = bob.error({"type": "reveal", "table": table, "hand": hand, "entropy": "0" * 64})
    assert lie["code"] == "bad_message" and "does not match the commitment" in lie["message"]
    uncommitted = ann.error({"type": "reveal", "table": table, "hand": hand, "entropy": "0" * 64})
    assert uncommitted["code"] == "not_now" and "no commitment" in uncommitted["message"]
    bob.send({"type": "reveal", "table": table, "hand": hand, "entropy": bob_entropy.hex()})
    ann.wait(lambda f: is_event("dealt")(f) and f["event"]["hand"] == hand)
    ann.send({"type": "host", "table": table, "action": "pause"})
    play(clients, table, lambda: any(e["hand"] == hand for e in ann.events("hand_ended")))
    record = document(room, hand, None)
    assert record["fairness"]["players"][0]["entropy"] == bob_entropy.hex()
    for client in (*clients, watcher):
        client.close()


def test_commands_sent_while_the_deal_waits_are_done_after_it(room: RoomServer) -> None:
    table, clients = fair_game(room, ["Ann", "Bob", "Cy"])
    ann, bob, cy = clients
    entropy = secrets.token_bytes(32)
    bob.send({"type": "commit", "table": table, "commitment": commitment_of(entropy)})
    ann.skip()
    ann.send({"type": "host", "table": table, "action": "resume"})
    hand = ann.wait(lambda f: is_event("hand_started")(f))["event"]["hand"]
    cy.send({"type": "sit_out", "table": table})  # while the deal waits for Bob
    bob.send({"type": "reveal", "table": table, "hand": hand, "entropy": entropy.hex()})
    ann.wait(lambda f: is_event("sat_out")(f))
    kinds = [f["event"]["kind"] for f in ann.frames if f["type"] == "event"]
    assert kinds.index("dealt") < kinds.index("sat_out")  # Cy is dealt in, then sits out
    dealt = {e["seat"] for e in ann.events("dealt") if e["hand"] == hand}
    assert dealt == {1, 2, 3}
    for client in clients:
        client.close()


def test_the_records_of_a_table_form_a_chain(room: RoomServer, tmp_path: Path) -> None:
    table, clients = fair_game(room, ["Ann", "Bob"])
    for _ in range(3):
        one_hand(clients[0], clients, table)
    with room.http() as http:
        listed = http.get(f"/api/tables/{table}/hands").json()["hands"]
    oldest_first = listed[::-1]
    assert [c.passed for c in verify_chain(oldest_first)] == [True, True, True]
    assert oldest_first[0]["chain"]["previous"] == "0" * 64
    exported = tmp_path / "table.json"
    with room.http() as http:  # the API's answer as it is, newest first
        exported.write_text(http.get(f"/api/tables/{table}/hands").text)
    assert verify_main([str(exported), "--chain"]) == 0
    oldest_first[1]["players"][0]["stack"] += 1  # a past hand rewritten
    exported.write_text(json.dumps(oldest_first))
    assert verify_main([str(exported), "--chain"]) == 1
    for client in clients:
        client.close()


def test_a_seeded_room_draws_the_same_secrets_again(make_store: Any) -> None:
    """Test mode: a room with the same seed draws the same pre-order and server seed, so
    with the same entropy a table deals the same cards (the deck also hangs on the table's
    and the hand's ids, FAIRNESS.md step 4). Without a seed nothing repeats."""
    secrets_drawn = []
    for seed in (11, 11, None):
        store = make_store()
        with running_room(store, dataclasses.replace(FAST, seed=seed)) as room:
            table, clients = fair_game(room, ["Ann", "Bob"])
            committers = [Committer(c, table, bytes([i]) * 32) for i, c in enumerate(clients)]
            hand = play_fair_hand(clients[0], clients, committers, table)
            fairness = document(room, hand, None)["fairness"]
            secrets_drawn.append((fairness["server_seed"], fairness["deck_commitment"]))
            for client in clients:
                client.close()
    assert secrets_drawn[0] == secrets_drawn[1] != secrets_drawn[2]


def test_an_announced_hand_the_store_refuses_is_called_off_and_dealt_again(
    room: RoomServer, store: Store, monkeypatch: Any
) -> None:
    """The deal is announced before it is recorded: if the store then refuses it, the
    hand is called off (nothing of it was dealt) and the next try deals it."""
    table, clients = fair_game(room, ["Ann", "Bob"])
    start_hands, refusals = store.start_hands, []

    def refuse_once(*args: Any, **kwargs: Any) -> Any:
        if not refusals:
            refusals.append(args)
            raise RuntimeError("the database is away")
        return start_hands(*args, **kwargs)

    monkeypatch.setattr(store, "start_hands", refuse_once)
    ann = clients[0]
    ann.skip()
    ann.send({"type": "host", "table": table, "action": "resume"})
    first = ann.wait(is_event("hand_started"))["event"]
    cancelled = ann.wait(is_event("hand_cancelled"))["event"]
    assert cancelled["hand"] == first["hand"]
    assert cancelled["text"] == f"Hand #{first['number']} is called off"
    again = ann.wait(is_event("hand_started"))["event"]
    assert again["hand"] == first["hand"]  # the same number, with new commitments
    assert again["fairness"]["deck_commitment"] != first["fairness"]["deck_commitment"]
    ann.wait(lambda f: is_event("dealt")(f) and f["event"]["hand"] == again["hand"])
    for client in clients:
        client.close()
