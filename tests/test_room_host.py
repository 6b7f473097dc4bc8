"""A table's host (PROTOCOL.md, docs/protocol.md "Host commands"): pause and resume,
new stakes from the next hand, a player removed at the end of the hand, the role passed
on; each told in the table's chat; nobody else may. Private tables need their invite."""

from __future__ import annotations

from typing import Any

import pytest
from room_helpers import (
    Client,
    RoomServer,
    chips_kept,
    is_event,
    ledger,
    one_hand,
    play,
    posts,
    seated,
    seated_game,
)

from splitpot.protocol import ErrorCode, Host, HostAction, ProtocolError, parse_command
from splitpot.store import Store

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)


@pytest.mark.parametrize(
    ("message", "command"),
    [
        ({"type": "host", "table": "t", "action": "pause"}, Host("t", HostAction.PAUSE)),
        (
            {"type": "host", "table": "t", "action": "resume", "ref": 3},
            Host("t", HostAction.RESUME, ref=3),
        ),
        (
            {"type": "host", "table": "t", "action": "remove", "seat": 3},
            Host("t", HostAction.REMOVE, seat=2),
        ),
        (
            {"type": "host", "table": "t", "action": "host", "seat": 1},
            Host("t", HostAction.HOST, seat=0),
        ),
        (
            {"type": "host", "table": "t", "action": "stakes", "small_blind": 2, "big_blind": 4},
            Host("t", HostAction.STAKES, small_blind=2, big_blind=4),
        ),
    ],
)
def test_host_commands(message: dict[str, Any], command: Host) -> None:
    assert parse_command(message) == command


@pytest.mark.parametrize(
    ("message", "error"),
    [
        (
            {"action": "dance"},
            "host.action must be one of pause, resume, stakes, remove, host, ban, invite, "
            'close, end_session, bomb_pot, options, approve, reject, stack, not "dance"',
        ),
        ({"action": "remove"}, "host.seat must be a whole number from 1 to 10, not null"),
        ({"action": "host", "seat": 0}, "host.seat must be a whole number from 1 to 10, not 0"),
        ({"action": "stakes", "small_blind": 1}, "host.big_blind must be a whole number from 1 to"),
        (
            {"action": "stakes", "small_blind": 3, "big_blind": 2},
            "host.small_blind must be a whole number from 1 to 2, not 3",
        ),
    ],
)
def test_bad_host_commands_name_the_field(message: dict[str, Any], error: str) -> None:
    with pytest.raises(ProtocolError) as refusal:
        parse_command({"type": "host", "table": "t"} | message)
    assert refusal.value.code is ErrorCode.BAD_MESSAGE
    assert refusal.value.message.startswith(error)


def host_lines(client: Client) -> list[str]:
    return [e["text"] for e in client.events("host")]


def test_pause_resume_stakes_and_a_new_host(room: RoomServer) -> None:
    table, (ann, bob) = seated_game(room, ("Ann", "Bob"), 200, name="Home", seats=2)
    ann_id, bob_id = (client.welcome["player"]["id"] for client in (ann, bob))
    before = bob.state(table)
    refused = bob.error({"type": "host", "table": table, "action": "resume"})
    assert (refused["code"], refused["message"]) == (
        "forbidden",
        f"only the host of table {table} may do that",
    )
    assert bob.state(table) == before
    first = one_hand(ann, [ann, bob], table)
    assert (first["small_blind"], first["big_blind"]) == (1, 2)
    with pytest.raises(AssertionError, match="no such frame"):
        ann.wait(is_event("hand_started"), timeout=0.2)  # paused: no hand follows
    ann.send({"type": "host", "table": table, "action": "stakes", "small_blind": 2, "big_blind": 4})
    ann.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "stakes")
    assert ann.state(table)["table"]["stakes"] == "2/4", "between hands: at once"
    second = one_hand(ann, [ann, bob], table)
    assert (second["small_blind"], second["big_blind"]) == (2, 4)
    assert ann.events("stakes_changed")[-1]["text"] == "The game turns to Pot Limit 2/4"
    blinds = posts(ann, second["hand"])
    assert sorted(amount for posted in blinds.values() for amount in posted.values()) == [2, 4]
    stakes = {"type": "host", "table": table, "action": "stakes"}
    bad = ann.error(stakes | {"small_blind": 3, "big_blind": 2})
    assert (bad["code"], bad["message"]) == (
        "bad_message",
        "host.small_blind must be a whole number from 1 to 2, not 3",
    )
    ann.send({"type": "host", "table": table, "action": "host", "seat": 2})
    passed = ann.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "host")["event"]
    assert (passed["host"], passed["seat"]) == (bob_id, 2)  # the event names the new host
    assert ann.state(table)["table"]["host"] == bob_id
    assert ann.error({"type": "host", "table": table, "action": "resume"})["code"] == "forbidden"
    one_hand(bob, [ann, bob], table)
    assert host_lines(ann) == [
        "The host pauses the game",
        "The host resumes the game",
        "The host pauses the game after this hand",
        "The host sets the stakes to 2/4",
        "The host resumes the game",
        "The host pauses the game after this hand",
        "Bob is now the host",
        "The host resumes the game",
        "The host pauses the game after this hand",
    ]
    by = {e["action"]: e["by"] for e in ann.events("host")}
    assert (by["stakes"], by["host"]) == (ann_id, ann_id)


def test_the_host_removes_a_player_at_the_end_of_the_hand(room: RoomServer, store: Store) -> None:
    table, everyone = seated_game(room, ("Ann", "Bob", "Cy"), 100, name="Remove", seats=3)
    ann, _, cy = everyone
    ann.skip()
    ann.send({"type": "host", "table": table, "action": "resume"})
    hand = ann.wait(is_event("hand_started"))["event"]["hand"]
    ann.send({"type": "host", "table": table, "action": "pause"})
    ann.send({"type": "host", "table": table, "action": "remove", "seat": 3})
    line = ann.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "remove")
    assert line["event"]["text"] == "The host removes Cy at the end of the hand"
    ann.send({"type": "host", "table": table, "action": "stakes", "small_blind": 2, "big_blind": 4})
    line = ann.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "stakes")
    assert line["event"]["text"] == "The host sets the stakes to 2/4 from the next hand"
    assert ann.state(table)["hand"]["stakes"] == "1/2"
    play(everyone, table, lambda: bool(ann.events("player_left")))
    assert ann.state(table)["table"]["stakes"] == "2/4"
    cy_acted = [e["action"] for e in ann.events("acted") if e["seat"] == 3 and e["hand"] == hand]
    assert cy_acted and cy_acted != ["fold"], "Cy plays the hand out"
    assert ann.events("hand_ended")[-1]["hand"] == hand
    left = ann.events("player_left")[0]
    assert left["seat"] == 3
    assert ledger(room, cy.token)["balance"] == left["stack"] - 100
    assert seated(ann.state(table), 3) == {"seat": 3, "player": None}
    empty = ann.error({"type": "host", "table": table, "action": "remove", "seat": 3})
    assert (empty["code"], empty["message"]) == ("bad_message", "seat 3 is empty")
    chips_kept(store)


def test_a_private_table_needs_its_invite(room: RoomServer) -> None:
    ann_token, bob_token = room.guest("Ann")[1], room.guest("Bob")[1]
    created = room.create_table(ann_token, name="Friends", seats=2, private=True)
    table, invite = created["table"]["id"], created["invite"]
    assert created["table"]["private"] is True and len(invite) >= 16
    with room.http(bob_token) as http:
        assert table not in [t["id"] for t in http.get("/api/tables").json()["tables"]]
        for params in ({}, {"invite": "wrong"}):  # as if there were no such table
            answer = http.get(f"/api/tables/{table}", params=params)
            assert answer.status_code == 404
            assert answer.json()["error"]["code"] == "unknown_table"
            assert http.get(f"/api/tables/{table}/hands", params=params).status_code == 404
        assert http.get(f"/api/tables/{table}", params={"invite": invite}).json()["id"] == table
    bob = Client(room, bob_token)
    for message in (
        {"type": "watch", "table": table},
        {"type": "watch", "table": table, "invite": "wrong"},
        {"type": "sit", "table": table, "seat": 2, "buy_in": 100},
    ):
        error = bob.error(message)
        assert (error["code"], error["message"]) == (
            "unknown_table",
            f"there is no table {table!r}",
        )
    assert not [f for f in bob.frames if f["type"] == "table"]
    bob.send({"type": "watch", "table": table, "invite": invite})
    assert bob.wait(lambda f: f["type"] == "table")["state"]["table"]["private"] is True
    bob.sit(table, 2, 100)
    stranger = Client(room, None)
    assert stranger.error({"type": "watch", "table": table})["code"] == "unknown_table"
    stranger.send({"type": "watch", "table": table, "invite": invite})
    stranger.wait(lambda f: f["type"] == "table")


def test_the_hosts_changes_outlive_a_restart(store: Store) -> None:
    """Paused, the stakes and the host role are kept in the store: a restarted room has
    the same host, stays paused, and deals at the new stakes."""
    from room_helpers import running_room

    with running_room(store) as room:
        table, (ann, bob) = seated_game(room, ("Ann", "Bob"), 100, name="Kept", seats=2)
        ann.send(
            {"type": "host", "table": table, "action": "stakes", "small_blind": 2, "big_blind": 4}
        )
        ann.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "stakes")
        ann.send({"type": "host", "table": table, "action": "host", "seat": 2})
        ann.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "host")
        bob_token, ann_token = bob.token, ann.token
    with running_room(store) as room:
        ann, bob = Client(room, ann_token), Client(room, bob_token)
        state = bob.state(table)
        assert state["table"]["host"] == bob.welcome["player"]["id"]
        assert (state["table"]["small_blind"], state["table"]["big_blind"]) == (2, 4)
        assert state["table"]["paused"] is True and state["hand"] is None
        ann.send({"type": "host", "table": table, "action": "resume"})
        refused = ann.wait(lambda f: f["type"] == "error")
        assert refused["code"] == "forbidden"
        bob.send({"type": "host", "table": table, "action": "resume"})
        started = bob.wait(is_event("hand_started"))["event"]
        assert started["small_blind"] == 2 and started["big_blind"] == 4
