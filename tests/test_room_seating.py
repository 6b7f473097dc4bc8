"""Seating at the room's tables (RULES.md 6, PROTOCOL.md): a seat and a buy-in within
the table's range, waiting for the big blind or posting now, missed blinds, sitting out
and in, topping up between hands, leaving with the stack; one seat per player per table,
several tables per player. Hands are dealt one at a time (the host pauses the table)."""

from __future__ import annotations

import pytest
from room_helpers import (
    Client,
    Frame,
    RoomServer,
    big_blind,
    chips_kept,
    is_event,
    ledger,
    one_hand,
    passive,
    paused_table,
    play,
    posts,
    seated,
    seated_game,
)

from splitpot.store import Store

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)

RANGE = {"min_buy_in": 50, "max_buy_in": 300}  # blinds 1/2


def test_a_seat_and_a_buy_in_within_the_range(room: RoomServer, store: Store) -> None:
    """Refused sits name the problem and change nothing: a taken seat, a seat the table
    does not have, a buy-in out of range, a second seat at one table. A player may sit
    at two tables."""
    ann_token, bob_token = room.guest("Ann")[1], room.guest("Bob")[1]
    table = room.create_table(ann_token, name="One", seats=3, **RANGE)["table"]["id"]
    other = room.create_table(ann_token, name="Two", seats=2, **RANGE)["table"]["id"]
    ann, bob = Client(room, ann_token), Client(room, bob_token)
    ann.sit(table, 1, 100)
    before = bob.state(table)
    refusals = [
        ({"seat": 1, "buy_in": 100}, "seat_taken", "seat 1 is taken"),
        ({"seat": 4, "buy_in": 100}, "bad_message", "there is no seat 4: the table has 3"),
        ({"seat": 2, "buy_in": 49}, "buy_in", "the buy-in is 50 to 300, not 49"),
        ({"seat": 2, "buy_in": 301}, "buy_in", "the buy-in is 50 to 300, not 301"),
    ]
    for fields, code, message in refusals:
        error = bob.error({"type": "sit", "table": table, **fields})
        assert (error["code"], error["message"]) == (code, message)
    error = ann.error({"type": "sit", "table": table, "seat": 2, "buy_in": 100})
    assert (error["code"], error["message"]) == ("already_seated", "Ann already sits in seat 1")
    other_ann = Client(room, room.guest("Ann")[1])  # a guest's name may be shared
    error = other_ann.error({"type": "sit", "table": table, "seat": 2, "buy_in": 100})
    assert (error["code"], error["message"]) == (
        "name_taken",
        "a player named Ann sits at this table",
    )
    assert bob.state(table) == before
    assert ledger(room, bob_token) == {"balance": 0, "entries": []}
    ann.sit(other, 2, 60)  # a second table
    assert ledger(room, ann_token)["balance"] == -160
    assert store.check_invariant().on_tables == 160


def test_a_new_player_waits_for_the_big_blind_or_posts_now(room: RoomServer) -> None:
    tokens = [room.guest(name)[1] for name in ("Ann", "Bob", "Cy", "Dee")]
    table, host = paused_table(room, tokens[0], name="Joining", seats=4, **RANGE)
    ann, bob, cy, dee = (Client(room, token) for token in tokens)
    ann.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    everyone = [ann, bob, cy, dee]
    one_hand(host, everyone, table)
    cy.sit(table, 3, 100)  # waits for the big blind
    dee.sit(table, 4, 100, post_now=True)
    first: dict[int, dict[str, object]] = {}  # seat -> the first hand it was dealt
    while 3 not in first:
        started = one_hand(host, everyone, table)
        for seat in (3, 4):
            if seat in [s["seat"] for s in started["seats"]]:
                first.setdefault(seat, started)
    assert posts(ann, first[3]["hand"])[3] == {"big_blind": 2}, "Cy came in with the big blind"
    assert posts(ann, first[4]["hand"])[4] in ({"live": 2}, {"big_blind": 2})
    assert first[4]["number"] <= first[3]["number"], "Dee, posting, was dealt in after Cy"


def test_a_player_who_missed_the_blinds_posts_them_to_come_back(room: RoomServer) -> None:
    """RULES.md 6: Cy sits out while the big blind passes his seat; coming back at once
    he posts the big blind live and the small blind dead (1/2: 2 live, 1 dead), once the
    button has passed him if he sits between it and the big blind."""
    names = ("Ann", "Bob", "Cy", "Dee")
    table, everyone = seated_game(room, names, 100, name="Missed", seats=4, **RANGE)
    ann, _, cy, _ = everyone
    one_hand(ann, everyone, table)
    cy.send({"type": "sit_out", "table": table})
    cy.wait(is_event("sat_out"))
    assert seated(cy.state(table), 3)["status"] == "sitting_out"
    big_blinds = [big_blind(ann, ann.events("hand_started")[-1]["hand"])]
    while big_blinds[-2:] != [2, 4]:  # the big blind went from Bob to Dee, past Cy
        started = one_hand(ann, everyone, table)
        assert 3 not in [s["seat"] for s in started["seats"]]
        big_blinds.append(big_blind(ann, started["hand"]))
    cy.send({"type": "sit_in", "table": table, "post_now": True})
    cy.wait(is_event("sat_in"))
    stack = seated(cy.state(table), 3)["stack"]
    started = one_hand(ann, everyone, table)
    while 3 not in [s["seat"] for s in started["seats"]]:
        started = one_hand(ann, everyone, table)
    assert posts(ann, started["hand"])[3] == {"live": 2, "dead": 1}
    texts = [e["text"] for e in ann.events("posted") if e["hand"] == started["hand"]]
    assert any("Cy" in text for text in texts), texts
    # The 3 posted came off his stack: before, less all he put in, plus what he won.
    hand = started["hand"]
    added = sum(e["added"] for e in ann.events("acted") if e["hand"] == hand and e["seat"] == 3)
    ended = next(e for e in ann.events("hand_ended") if e["hand"] == hand)
    won = sum(award["amount"] for award in ended["awards"] if award["seat"] == 3)
    after = stack - 3 - added + won
    assert {"seat": 3, "stack": after} in ended["stacks"]
    assert seated(cy.state(table), 3)["stack"] == after


def test_top_up_between_hands_within_the_maximum(room: RoomServer, store: Store) -> None:
    ann_token, bob_token = room.guest("Ann")[1], room.guest("Bob")[1]
    table, host = paused_table(room, ann_token, name="Top up", seats=2, **RANGE)
    bob = Client(room, bob_token)
    host.sit(table, 1, 200)
    bob.sit(table, 2, 100)
    one_hand(host, [host, bob], table)
    stack = seated(host.state(table), 1)["stack"]
    host.send({"type": "top_up", "table": table, "amount": 300 - stack})
    added = host.wait(is_event("chips_added"))["event"]
    assert (added["seat"], added["amount"], added["stack"]) == (1, 300 - stack, 300)
    error = host.error({"type": "top_up", "table": table, "amount": 1})
    assert error["code"] == "buy_in"
    assert error["message"] == "1 more would make 301: the maximum is 300"
    entries = ledger(room, ann_token)["entries"]
    assert isinstance(entries, list)
    assert [e["kind"] for e in entries if e["account"] == "balance"] == ["buy_in", "top_up"]
    # during the player's hand: not now
    host.send({"type": "host", "table": table, "action": "resume"})
    host.wait(is_event("hand_started"))
    error = host.error({"type": "top_up", "table": table, "amount": 1})
    assert (error["code"], error["message"]) == (
        "not_now",
        "seat 1 is in the hand: top up between hands",
    )
    assert ledger(room, ann_token)["entries"] == entries
    chips_kept(store)


def test_leave_between_hands_and_during_one(room: RoomServer, store: Store) -> None:
    """Leaving between hands cashes the stack out at once; during a hand the player's
    hand is folded at their turn (at once when it is) and the stack cashed out when the
    hand ends. The ledger shows it: the balance is the stack taken away less the buy-in."""
    table, everyone = seated_game(room, ("Ann", "Bob", "Cy"), 100, name="Leaving", **RANGE)
    ann, bob, cy = everyone
    one_hand(ann, everyone, table)
    stack = seated(cy.state(table), 3)["stack"]
    cy.send({"type": "leave", "table": table})
    left = cy.wait(is_event("player_left"))["event"]
    assert (left["seat"], left["stack"], left["text"]) == (
        3,
        stack,
        f"Cy leaves the table with {stack}",
    )
    assert seated(ann.state(table), 3) == {"seat": 3, "player": None}
    assert ledger(room, cy.token)["balance"] == stack - 100
    # Bob leaves during a hand, on his turn or before it
    ann.skip()
    ann.send({"type": "host", "table": table, "action": "resume"})
    hand = ann.wait(is_event("hand_started"))["event"]["hand"]
    ann.send({"type": "host", "table": table, "action": "pause"})
    ann.wait(is_event("host"))
    bob.send({"type": "leave", "table": table})

    def bob_folded() -> bool:
        return any(
            e["hand"] == hand and e["seat"] == 2
            for e in ann.events("acted")
            if e["action"] == "fold"
        )

    play([ann], table, bob_folded)
    assert not [
        e
        for e in ann.events("acted")
        if e["hand"] == hand and e["seat"] == 2 and e["action"] != "fold"
    ], "Bob's only action is the fold"
    play([ann], table, lambda: bool([e for e in ann.events("player_left") if e["seat"] == 2]))
    assert [e["hand"] for e in ann.events("hand_ended")][-1] == hand
    gone = next(e for e in ann.events("player_left") if e["seat"] == 2)
    ended = next(e for e in ann.events("hand_ended") if e["hand"] == hand)
    seqs = {id(f["event"]): f["seq"] for f in ann.frames if f["type"] == "event"}
    assert seqs[id(gone)] > seqs[id(ended)], "Bob goes when the hand is over, not before"
    assert ledger(room, bob.token)["balance"] == gone["stack"] - 100
    assert seated(ann.state(table), 2)["player"] is None
    chips_kept(store)


def test_leaving_at_the_showdown_mucks_or_shows(room: RoomServer, store: Store) -> None:
    """Bob is all in and asks to leave: nothing is left to fold, so at the showdown his
    hand is mucked if it cannot win, else shown (docs/rules.md), and he goes with what
    he has when the hand ends."""
    tokens = [room.guest(name)[1] for name in ("Ann", "Bob", "Cy")]
    table, ann = paused_table(
        room, tokens[0], name="Showdown", seats=3, structure="no-limit", **RANGE
    )
    bob, cy = Client(room, tokens[1]), Client(room, tokens[2])
    for seat, (client, buy_in) in enumerate(((ann, 300), (bob, 50), (cy, 300)), start=1):
        client.sit(table, seat, buy_in)

    def bob_shoves(client: Client, turn: Frame) -> Frame:
        return {"action": "allin"} if client is bob else passive(client, turn)

    def bob_all_in() -> list[str]:
        return [e["hand"] for e in ann.events("acted") if e["seat"] == 2 and e["all_in"]]

    ann.send({"type": "host", "table": table, "action": "resume"})
    play([ann, bob, cy], table, lambda: bool(bob_all_in()), bob_shoves)
    hand = bob_all_in()[0]
    bob.send({"type": "leave", "table": table})
    play([ann, cy], table, lambda: bool(ann.events("player_left")))
    shown = [e for e in ann.events("shown") if e["hand"] == hand and e["seat"] == 2]
    mucked = [e for e in ann.events("mucked") if e["hand"] == hand and e["seat"] == 2]
    assert len(shown) + len(mucked) == 1
    end = next(e for e in ann.events("hand_ended") if e["hand"] == hand)
    left = ann.events("player_left")[0]
    assert left["stack"] == next(s["stack"] for s in end["stacks"] if s["seat"] == 2)
    assert ledger(room, tokens[1])["balance"] == left["stack"] - 50
