"""The room no one can abuse (issue 19): tables of bots that no human sits at or watches
pause and then close, and closed tables stay closed; the room seats a limited number of
bots (the house's table aside); a host closes a table, everyone cashed out, and reopens
it with its history; a removed player stops watching, a banned one can neither watch nor
sit (over the WebSocket and HTTP, across a restart), and a new invite locks the old one
out. The store's part runs on SQLite and PostgreSQL; the room's on SQLite."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest
from room_helpers import (
    FAST,
    Client,
    RoomServer,
    chips_kept,
    eventually,
    is_event,
    ledger,
    paused_table,
    play,
    running_room,
    seated,
)

from splitpot.protocol import Host, HostAction, parse_command
from splitpot.store import Store, StoreError

ALONE = replace(FAST, idle_pause=1.0, idle_close=4.0)  # a table of bots alone: pause, close
room_behaviour = pytest.mark.one_database  # on SQLite only (conftest.py)


def latest(store: Store, table: str) -> int:
    """The number of the table's last hand."""
    return store.table_hands(table, 1)[0].number


def host(client: Client, table: str, action: str, **fields: Any) -> dict[str, Any]:
    """Send a host command and wait for its ``host`` event."""
    client.send({"type": "host", "table": table, "action": action, **fields})
    found = client.wait(lambda f: is_event("host")(f) and f["event"]["action"] == action)
    event: dict[str, Any] = found["event"]
    return event


def unwatched(client: Client, table: str) -> dict[str, Any]:
    frame = client.wait(lambda f: f["type"] == "unwatched" and f["table"] == table)
    return frame


def frames_after(client: Client, frame: dict[str, Any], table: str) -> list[dict[str, Any]]:
    """The frames of ``table`` that reached the client after ``frame``."""
    index = next(i for i, f in enumerate(client.frames) if f is frame)
    return [f for f in client.frames[index + 1 :] if f.get("table") == table]


def private_table(room: RoomServer, token: str, **settings: Any) -> tuple[str, str, Client]:
    """A new paused private table: its id, its invite and its host's client."""
    created = room.create_table(token, name="Friends", private=True, **settings)
    table, invite = created["table"]["id"], created["invite"]
    client = Client(room, token)
    client.state(table)
    host(client, table, "pause")
    return table, invite, client


def watch(client: Client, table: str, invite: str | None = None) -> dict[str, Any]:
    """Watch the table (with its invite): the answer, its ``table`` or its ``error``."""
    client.skip()
    ref = f"watch-{table}-{time.monotonic()}"
    message = {"type": "watch", "table": table, "ref": ref} | ({"invite": invite} if invite else {})
    client.refused.add(ref)
    client.send(message)
    return client.wait(
        lambda f: (
            (f["type"] == "table" and f["table"] == table)
            or (f["type"] == "error" and f.get("ref") == ref)
        )
    )


# ---------------------------------------------------------------- the protocol


@pytest.mark.parametrize(
    ("message", "command"),
    [
        ({"action": "ban", "seat": 2}, Host("t", HostAction.BAN, seat=1)),
        ({"action": "invite"}, Host("t", HostAction.INVITE)),
        ({"action": "close", "seat": 4}, Host("t", HostAction.CLOSE)),
    ],
)
def test_the_new_host_commands(message: dict[str, Any], command: Host) -> None:
    assert parse_command({"type": "host", "table": "t"} | message) == command


# ---------------------------------------------------------------- the store


def test_bans_invites_bot_seats_and_reopening_are_stored(make_store: Callable[..., Store]) -> None:
    store = make_store()
    ann, bob, bot = (store.create_guest(name).player.id for name in ("Ann", "Bob", "Ada (bot)"))
    table, invite = store.create_table("Friends", {"bot_players": [bot]}, ann, private=True)
    house, _ = store.create_table("House", {"bot_players": [bot], "house": True}, ann)
    public, _ = store.create_table("Open", {}, ann)
    assert invite is not None and store.bans(table.id) == frozenset()
    store.ban(table.id, bob)
    store.ban(table.id, bob)  # twice: still one ban
    with pytest.raises(StoreError, match=f"table '{public.id}' is public: it has no invite"):
        store.new_invite(public.id)
    fresh = store.new_invite(table.id)
    store.sit(table.id, 2, bot, 100)
    store.sit(house.id, 2, bot, 100)
    store.sit(public.id, 1, bob, 50)
    assert store.bot_seats() == 1, "the house's bots are not counted"
    again = make_store()  # as a restarted room reads it
    assert again.bans(table.id) == frozenset({bob}) and again.bans(public.id) == frozenset()
    assert not again.check_invite(table.id, invite) and again.check_invite(table.id, fresh)
    with pytest.raises(StoreError, match=f"table '{table.id}' is open"):
        again.reopen_table(table.id)
    assert again.close_table(table.id) == {bot: 100}
    assert again.bot_seats() == 0 and again.hosting(ann).open == 2
    assert again.reopen_table(table.id).closed is False
    assert again.hosting(ann).open == 3 and again.bans(table.id) == frozenset({bob})
    totals = again.check_invariant()
    assert totals.balances + totals.on_tables + totals.house == 0


# ---------------------------------------------------------------- tables of bots


@room_behaviour
def test_a_table_of_bots_alone_pauses_then_closes_and_stays_closed(store: Store) -> None:
    """Alone, a table of bots deals for ``idle_pause`` seconds, then no more, and closes at
    ``idle_close`` (its bots cashed out). Watched, it deals on. The house's table
    (``--bots``) never stops. A closed table does not come back at the next start; its host
    reopens it with its hands, and its bots sit again."""
    with running_room(store, ALONE, bots=2) as room:
        ann_id, ann_token = room.guest("Ann")
        alone = room.create_table(ann_token, name="Alone", bots=3, seats=4)["table"]["id"]
        watched = room.create_table(ann_token, name="Watched", bots=2, seats=3)["table"]["id"]
        watcher = Client(room, None)  # anyone watching is a human there
        watcher.state(watched)
        house = next(t["id"] for t in room.http().get("/api/tables").json()["tables"]
                     if t["name"] == "Bots' table")  # fmt: skip
        eventually(lambda: store.table(alone).closed, "the table of bots alone closes")
        hands = store.table_hands(alone)
        assert hands, "it dealt while it had not been alone long"
        assert store.seats(alone) == [] and store.bot_seats() == 2, "its bots are cashed out"
        [*cash_outs] = (
            row for row in csv.DictReader(io.StringIO(store.table_ledger_csv(alone)))
            if row["kind"] == "cash_out" and row["account"] == "balance"
        )  # fmt: skip
        assert len(cash_outs) == 3
        closed_at = datetime.fromisoformat(cash_outs[0]["time"])
        paused = (closed_at - max(hand.started_at for hand in hands)).total_seconds()
        assert paused > (ALONE.idle_close - ALONE.idle_pause) / 2, "no hand while it paused"
        house_hands = latest(store, house)
        watcher.skip()
        watcher.wait(is_event("hand_started"))  # watched, the other deals on
        assert not store.table(watched).closed
        eventually(lambda: latest(store, house) > house_hands, "the house deals on")
        watcher.close()
        eventually(lambda: store.table(watched).closed, "left alone, it closes too")
        assert not store.table(house).closed
        chips_kept(store)
    with running_room(store, ALONE, bots=2) as room:
        with room.http(ann_token) as http:
            listed = [t["name"] for t in http.get("/api/tables").json()["tables"]]
            assert listed == ["Bots' table"], "closed tables stay closed; one house table"
            assert http.get(f"/api/tables/{alone}").status_code == 404
            other = room.guest("Bob")[1]
            refused = room.http(other).post(f"/api/tables/{alone}/reopen")
            assert refused.status_code == 403, refused.text
            assert refused.json()["error"]["message"] == (
                f"only the host of table {alone} may reopen it"
            )
            opened = http.post(f"/api/tables/{alone}/reopen")
            assert opened.status_code == 200, opened.text
            assert (opened.json()["bots"], opened.json()["players"]) == (3, 3)
            again = http.post(f"/api/tables/{alone}/reopen")
            assert again.json()["error"] == {
                "code": "bad_message",
                "message": f"table {alone} is open",
            }
            kept = http.get(f"/api/hands/{hands[0].id}")  # it deals again at once: by id
            assert kept.status_code == 200 and kept.json()["id"] == hands[0].id, "history kept"
        ann = Client(room, ann_token)
        state = ann.state(alone)
        assert state["hands_played"] >= hands[0].number  # it deals again once open
        assert [seated(state, seat)["name"].endswith("(bot)") for seat in (2, 3, 4)] == [True] * 3
        started = ann.wait(is_event("hand_started"))["event"]
        assert started["number"] > hands[0].number
        assert ann_id == state["table"]["host"]
        chips_kept(store)


@room_behaviour
def test_the_room_seats_a_limited_number_of_bots(store: Store) -> None:
    """A new table whose bots would pass ``bot_seats`` is refused, naming the cap, and
    nothing is made; the house's table is not counted; a closed table's bots are not."""
    with running_room(store, replace(FAST, bot_seats=5), bots=4) as room:
        ann_token, bob_token = room.guest("Ann")[1], room.guest("Bob")[1]
        first = room.create_table(ann_token, name="Three", bots=3, seats=4)["table"]["id"]
        tables = {t["id"] for t in room.http().get("/api/tables").json()["tables"]}
        with room.http(bob_token) as http:
            refused = http.post("/api/tables", json={"name": "More", "bots": 3})
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"] == {
            "code": "rate_limited",
            "message": "the room seats at most 5 bots at once and 3 sit now: "
            "3 more would pass that",
        }
        listed = {t["id"] for t in room.http().get("/api/tables").json()["tables"]}
        assert listed == tables, "nothing was made"
        room.create_table(bob_token, name="Two", bots=2, seats=3)
        ann = Client(room, ann_token)
        ann.state(first)
        host(ann, first, "close")
        assert unwatched(ann, first)["reason"] == "closed"
        eventually(lambda: store.table(first).closed, "the table closes")
        room.create_table(bob_token, name="Three again", bots=3, seats=4)
        chips_kept(store)


@room_behaviour
def test_the_host_closes_a_table_and_reopens_it_with_its_history(
    room: RoomServer, store: Store
) -> None:
    """Closed at the end of the hand in play: every player cashed out (a ``cash_out``
    each, the ledger whole), every watcher told and let go, the table gone from the room
    until its host reopens it; reopened, its hands and numbering go on."""
    tokens = [room.guest(name)[1] for name in ("Ann", "Bob", "Cy")]
    table, ann = paused_table(room, tokens[0], name="Friday", seats=3)
    bob, cy = Client(room, tokens[1]), Client(room, tokens[2])
    ann.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    cy.state(table)  # watching
    ann.send({"type": "host", "table": table, "action": "resume"})
    hand = ann.wait(is_event("hand_started"))["event"]["hand"]
    line = host(ann, table, "close")
    assert line["text"] == "The host closes the table at the end of the hand"
    play([ann, bob], table, lambda: bool(ann.events("hand_ended")))
    goodbyes = [unwatched(client, table) for client in (ann, bob, cy)]
    assert {(g["reason"], g["text"]) for g in goodbyes} == {
        ("closed", "The table Friday is closed")
    }
    left = {e["seat"]: e["stack"] for e in cy.events("player_left")}
    assert sorted(left) == [1, 2] and sum(left.values()) == 200
    for token, seat in ((tokens[0], 1), (tokens[1], 2)):
        mine = ledger(room, token)
        assert mine["balance"] == left[seat] - 100
        assert [e["kind"] for e in mine["entries"]][-1] == "cash_out"
    chips_kept(store)
    assert store.table(table).closed and store.seats(table) == []
    assert ann.error({"type": "watch", "table": table})["code"] == "unknown_table"
    assert room.http().get(f"/api/tables/{table}").status_code == 404
    refused = room.http(tokens[1]).post(f"/api/tables/{table}/reopen")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "forbidden")
    assert store.table(table).closed, "refused: nothing changed"
    reopened = room.http(tokens[0]).post(f"/api/tables/{table}/reopen")
    assert reopened.status_code == 200 and reopened.json()["players"] == 0
    state = ann.state(table)
    assert state["hands_played"] == 1 and state["table"]["paused"] is False
    hands = room.http(tokens[0]).get(f"/api/tables/{table}/hands").json()["hands"]
    assert [h["id"] for h in hands] == [hand]
    ann.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    assert ann.wait(is_event("hand_started"))["event"]["number"] == 2
    chips_kept(store)


# ---------------------------------------------------------------- remove, ban, invite


@room_behaviour
def test_remove_ends_the_players_watch(room: RoomServer) -> None:
    """Every connection of the removed player is told and receives the table no more; to
    come back they need what a stranger needs (here the invite): a kick, not a ban."""
    ann_token, bob_token = room.guest("Ann")[1], room.guest("Bob")[1]
    table, invite, ann = private_table(room, ann_token, seats=3)
    bob, bob_again = Client(room, bob_token), Client(room, bob_token)
    assert watch(bob, table, invite)["type"] == "table"
    assert watch(bob_again, table, invite)["type"] == "table"
    bob.sit(table, 2, 100)
    line = host(ann, table, "remove", seat=2)
    assert (line["text"], line["seat"], line["player"]) == (
        "The host removes Bob",
        2,
        bob.welcome["player"]["id"],
    )
    told = {client: unwatched(client, table) for client in (bob, bob_again)}
    for frame in told.values():
        assert (frame["reason"], frame["text"]) == (
            "removed",
            "The host removed you from the table Friends",
        )
    ann.send({"type": "chat", "table": table, "text": "bye Bob"})
    ann.wait(lambda f: f["type"] == "chat")
    host(ann, table, "resume")
    for client, frame in told.items():
        assert frames_after(client, frame, table) == [], "nothing of the table after it"
    refused = bob.error({"type": "sit", "table": table, "seat": 2, "buy_in": 100})
    assert refused["code"] == "unknown_table", "not watching, not seated, no invite"
    assert watch(bob, table, invite)["type"] == "table"
    bob.sit(table, 2, 100)


@room_behaviour
def test_a_banned_player_can_neither_watch_nor_sit(store: Store) -> None:
    """Banned (removed, and kept out): refused by name over the WebSocket and HTTP, the
    ban kept across a restart; the host cannot ban themselves, nor a bot."""
    with running_room(store) as room:
        ann_token, bob_token = room.guest("Ann")[1], room.guest("Bob")[1]
        table, ann = paused_table(room, ann_token, name="Open", seats=4, bots=1)
        bob = Client(room, bob_token)
        ann.sit(table, 1, 100)
        bob.sit(table, 3, 100)
        for seat, message in (
            (1, "the host cannot ban themselves"),
            (2, "seat 2 is a bot: remove it, not ban it"),
        ):
            refused = ann.error({"type": "host", "table": table, "action": "ban", "seat": seat})
            assert (refused["code"], refused["message"]) == ("bad_message", message)
        line = host(ann, table, "ban", seat=3)
        assert line["text"] == "The host bans Bob"
        told = unwatched(bob, table)
        assert (told["reason"], told["text"]) == (
            "banned",
            "The host banned you from the table Open",
        )
        assert seated(ann.state(table), 3) == {"seat": 3, "player": None}
    with running_room(store) as room:
        bob = Client(room, bob_token)
        banned = f"Bob is banned from table {table}"
        for message in (
            {"type": "watch", "table": table},
            {"type": "sit", "table": table, "seat": 3, "buy_in": 100},
            {"type": "chat", "table": table, "text": "let me in"},
        ):
            refused = bob.error(message)
            assert (refused["code"], refused["message"]) == ("forbidden", banned), message
        with room.http(bob_token) as http:
            for path in (f"/api/tables/{table}", f"/api/tables/{table}/hands"):
                answer = http.get(path)
                assert answer.status_code == 403 and answer.json()["error"]["message"] == banned
        assert not [f for f in bob.frames if f["type"] == "table"]
        assert room.http().get(f"/api/tables/{table}").status_code == 200, "others see it"
        chips_kept(store)


@room_behaviour
def test_a_new_invite_locks_the_old_one_out(store: Store) -> None:
    """Only the host's connections get the new invite; the old one lets no new watcher
    in (nor over HTTP, nor after a restart); a watcher it let in watches on, but must
    watch again with the new one to sit. A public table has no invite to replace."""
    with running_room(store) as room:
        tokens = [room.guest(name)[1] for name in ("Ann", "Cy", "Dee")]
        table, old, ann = private_table(room, tokens[0], seats=3)
        cy, dee = Client(room, tokens[1]), Client(room, tokens[2])
        assert watch(cy, table, old)["type"] == "table"
        ann.skip()
        ann.send({"type": "host", "table": table, "action": "invite"})
        new = ann.wait(lambda f: f["type"] == "invite")  # before the host's line
        line = ann.wait(is_event("host"))["event"]
        assert line["text"] == "The host makes a new invite: the old one lets no one in any more"
        assert new["table"] == table and new["invite"] not in (old, None)
        cy.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "invite")
        assert not [text for text in cy.raw if new["invite"] in text], "the host's alone"
        refused = watch(dee, table, old)
        assert refused["type"] == "error" and refused["code"] == "unknown_table"
        with room.http(tokens[2]) as http:
            assert http.get(f"/api/tables/{table}", params={"invite": old}).status_code == 404
            assert http.get(f"/api/tables/{table}", params={"invite": new["invite"]}).is_success
        assert watch(dee, table, new["invite"])["type"] == "table"
        ann.send({"type": "chat", "table": table, "text": "hello all"})
        cy.wait(lambda f: f["type"] == "chat" and f["text"] == "hello all")  # watches on
        refused = cy.error({"type": "sit", "table": table, "seat": 2, "buy_in": 100})
        assert (refused["code"], refused["message"]) == (
            "forbidden",
            "the host made a new invite: watch again with it",
        )
        assert watch(cy, table, new["invite"])["type"] == "table"
        cy.sit(table, 2, 100)
        public = room.create_table(tokens[0], name="Open")["table"]["id"]
        refused = ann.error({"type": "host", "table": public, "action": "invite"})
        assert refused["message"] == f"table {public} is public: it has no invite"
    with running_room(store) as room, room.http(tokens[2]) as http:
        assert http.get(f"/api/tables/{table}", params={"invite": old}).status_code == 404
        assert http.get(f"/api/tables/{table}", params={"invite": new["invite"]}).is_success
