"""The clock and the connection (RULES.md 6 "Time", PROTOCOL.md): a time limit per
decision and a time bank; on expiry the player checks if free, else folds, and sits out;
a player sitting out too long loses the seat; a dropped connection keeps the seat and a
reconnect gets the whole table, then the turn. Tables here run a fast clock."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from room_helpers import (
    FAST,
    Client,
    Frame,
    RoomServer,
    is_event,
    ledger,
    one_hand,
    play,
    play_hands,
    running_room,
    seated,
    seated_game,
)

from splitpot.server.clock import ActionClock
from splitpot.store import Store

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)

SCALE = 0.25  # a second of the table's clock lasts a quarter of a second


@pytest.fixture
def room(store: Store) -> Iterator[RoomServer]:
    with running_room(store, replace(FAST, clock_scale=SCALE)) as server:
        yield server


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def pushes(client: Client, turn: Frame) -> Frame:
    """Call before the flop, bet or raise after it when possible: the other player faces
    a bet on every street but the first."""
    legal = {entry["action"]: entry for entry in turn["legal"]}
    flop = any(e["hand"] == turn["hand"] for e in client.events("board"))
    for name in ("bet", "raise"):
        if flop and name in legal:
            return {"action": name, "amount": legal[name]["min"]}
    for name in ("check", "call", "show"):
        if name in legal:
            return {"action": name}
    raise AssertionError(turn)


def bob_out(client: Client) -> list[Frame]:
    """The sat_out events of seat 2 that ``client`` received."""
    return [e for e in client.events("sat_out") if e["seat"] == 2]


def test_a_player_out_of_time_checks_or_folds_and_sits_out(room: RoomServer) -> None:
    """Bob never answers. When his clock runs out he checks if he may, else folds, and
    sits out (told once); his later decisions in the hand are made at once the same way,
    with no clock (docs/rules.md); no hand is dealt until he sits in."""
    settings = {"seats": 2, "action_seconds": 1, "time_bank_seconds": 1}
    table, (ann, bob) = seated_game(room, ("Ann", "Bob"), 100, name="Clock", **settings)
    timed_out: list[str] = []
    while not {"check", "fold"} <= set(timed_out):
        bob.skip()
        ann.skip()
        started = datetime.now(UTC)
        outs_before = len(bob_out(ann))
        hand = one_hand(ann, [ann], table, pushes)["hand"]
        turns = [f for f in bob.frames[bob.cursor :] if f["type"] == "turn"]
        assert len(turns) == 1, "one clock a hand: the later decisions are made at once"
        assert (turns[0]["hand"], turns[0]["seat"]) == (hand, 2)
        assert 0 <= turns[0]["time_bank"] <= SCALE
        assert started < when(turns[0]["deadline"]) < datetime.now(UTC)
        acted = [e for e in ann.events("acted") if e["hand"] == hand and e["seat"] == 2]
        timed_out += [e["action"] for e in acted]
        # Told once, whenever in the hand the clock ran out (before or after its end).
        if len(bob_out(ann)) == outs_before:
            ann.wait(lambda f: is_event("sat_out")(f) and f["event"]["seat"] == 2, timeout=2)
        out = bob_out(ann)[outs_before:]
        assert len(out) == 1 and out[0]["timed_out"] is True
        assert out[0]["text"] == "Bob is out of time and sits out"
        assert seated(ann.state(table), 2)["status"] == "sitting_out"
        ann.send({"type": "host", "table": table, "action": "resume"})
        with pytest.raises(AssertionError, match="no such frame"):
            ann.wait(is_event("hand_started"), timeout=0.2)
        ann.send({"type": "host", "table": table, "action": "pause"})
        bob.send({"type": "sit_in", "table": table})
        bob.wait(is_event("sat_in"))
    assert set(timed_out) == {"check", "fold"}


def test_the_time_bank_pays_for_a_late_action(room: RoomServer) -> None:
    """Past the deadline a player may still act while the time bank lasts; the time used
    comes off the bank, as the next turn shows."""
    settings = {"seats": 2, "action_seconds": 1, "time_bank_seconds": 3}
    table, (ann, bob) = seated_game(room, ("Ann", "Bob"), 100, name="Bank", **settings)
    ann.send({"type": "host", "table": table, "action": "resume"})
    play([ann], table, lambda: bool(bob.events("hand_started")), pushes)
    first = bob.wait(lambda f: f["type"] == "turn")
    late = when(first["deadline"]) + timedelta(seconds=SCALE)  # a second into the bank
    time.sleep(max(0.0, (late - datetime.now(UTC)).total_seconds()))
    bob.send({"type": "act", "table": table, "hand": first["hand"], **pushes(bob, first)})
    play([ann], table, lambda: any(f["type"] == "turn" for f in bob.frames[bob.cursor :]), pushes)
    second = bob.wait(lambda f: f["type"] == "turn")
    assert second["hand"] == first["hand"]
    assert first["time_bank"] == pytest.approx(3 * SCALE, abs=0.06)
    assert second["time_bank"] < first["time_bank"] - SCALE / 2
    assert not bob.events("sat_out"), "Bob acted in time: the bank paid"
    assert [e for e in bob.events("acted") if e["seat"] == 2], "his late action counted"


def test_the_clock_spends_and_refills_the_bank() -> None:
    clock = ActionClock(10, 30, refill=2)
    turn = clock.start(3, now=100)
    assert (turn.deadline, turn.expires) == (110, 140)
    clock.stop(turn, now=105)  # in time: the bank is whole
    assert clock.bank(3) == 30
    clock.stop(clock.start(3, now=200), now=225)  # 15 s late
    assert clock.bank(3) == 15
    assert clock.start(3, now=300).expires == 325
    clock.hand_dealt((3, 4))
    assert (clock.bank(3), clock.bank(4)) == (17, 30)
    clock.forget(3)
    assert clock.bank(3) == 30


def test_a_player_sitting_out_too_long_loses_the_seat(room: RoomServer, store: Store) -> None:
    """sit_out_hands 2: after two hands dealt without her, Ann is cashed out."""
    _, token = room.guest("Ann")
    table = room.create_table(token, name="Away", seats=3, bots=2, sit_out_hands=2)
    table_id = table["table"]["id"]
    ann = Client(room, token)
    ann.sit(table_id, 1, 100)
    ann.send({"type": "sit_out", "table": table_id})
    play([ann], table_id, lambda: bool(ann.events("player_left")))
    out_at = next(i for i, f in enumerate(ann.frames) if is_event("sat_out")(f))
    left_at = next(i for i, f in enumerate(ann.frames) if is_event("player_left")(f))
    started = [f["event"] for f in ann.frames[out_at:left_at] if is_event("hand_started")(f)]
    without = [s for s in started if 1 not in [seat["seat"] for seat in s["seats"]]]
    assert len(without) == 2
    removed = ann.events("removed")
    assert removed[0]["text"] == "Ann has sat out 2 hands and leaves"
    left = ann.events("player_left")[0]
    assert left["seat"] == 1
    body = ledger(room, token)
    assert body["balance"] == left["stack"] - 100
    assert body["entries"][-1]["kind"] == "cash_out"


def test_a_dropped_connection_keeps_the_seat_and_a_reconnect_goes_on(room: RoomServer) -> None:
    """Ann hangs up on her turn; the seat stays hers (not connected); she says hello
    again and gets the table, with her cards and the hand in play, then her turn, and
    the hand goes on."""
    ann_token, bob_token = room.guest("Ann")[1], room.guest("Bob")[1]
    table = room.create_table(ann_token, name="Reconnect", seats=2)["table"]["id"]
    ann, bob = Client(room, ann_token), Client(room, bob_token)
    ann.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    play(
        [ann, bob],
        table,
        lambda: (
            bool(ann.frames)
            and ann.frames[-1]["type"] == "turn"
            and ann.frames[-1]["hand"].endswith("-1")
        ),
    )
    turn = ann.frames[-1]
    cards = next(e["cards"] for e in ann.events("dealt") if e["seat"] == 1)
    ann.close()
    away = bob.state(table)
    assert seated(away, 1)["player"] is not None and seated(away, 1)["connected"] is False
    again = Client(room, ann_token)
    snapshot = again.wait(lambda f: f["type"] == "table")
    state = snapshot["state"]
    assert state["hand"]["id"] == turn["hand"] and state["hand"]["to_act"] == 1
    assert seated(state, 1)["cards"] == cards and "cards" not in seated(state, 2)
    assert seated(state, 1)["connected"] is True
    repeated = again.wait(lambda f: f["type"] == "turn")
    assert {k: repeated[k] for k in ("hand", "seat", "legal", "seq")} == {
        k: turn[k] for k in ("hand", "seat", "legal", "seq")
    }
    play_hands([again, bob], table, 1)
    assert again.events("hand_ended")[0]["hand"] == turn["hand"]
