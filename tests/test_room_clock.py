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
    passive,
    play,
    play_hands,
    running_room,
    seated,
    seated_game,
)

from splitpot.room.clock import ActionClock
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
        # paused before Bob sits in: two clients' commands may reach the table in either
        # order, and a table still running deals at once when he does (a hand dealt before
        # the next round starts, its clock run out before it is looked at)
        ann.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
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
    ann.wait(is_event("sat_out"))
    ann.handled = ann.cursor  # a turn offered before she sat out is decided for her now
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


def test_a_losing_hand_is_mucked_at_once_or_shown_as_the_player_chose(
    room: RoomServer,
) -> None:
    """A hand that cannot win anything at the showdown is mucked at once by default (Ann)
    and shown at once for a player who chose so (Bob, ``preferences``): no one is asked,
    so no clock, no time-out, no sit-out and no time bank is spent on it; the hands that
    must show still show in RULES.md 5's order (checked down: the first seat left of the
    button first)."""
    settings = {"seats": 2, "action_seconds": 4, "time_bank_seconds": 4}
    table, (ann, bob) = seated_game(room, ("Ann", "Bob"), 100, name="Muck", **settings)
    bob.send({"type": "preferences", "table": table, "muck_losing": False})
    assert seated(bob.state(table), 2)["muck_losing"] is False
    assert seated(ann.state(table), 1)["muck_losing"] is True
    assert "muck_losing" not in seated(ann.state(table), 2), "the player's own, not others'"
    ann_mucked = bob_showed_a_loser = 0
    for _ in range(40):
        started = one_hand(ann, [ann, bob], table, passive)
        hand = started["hand"]
        shown = [e for e in ann.events("shown") if e["hand"] == hand]
        mucked = [e for e in ann.events("mucked") if e["hand"] == hand]
        paid = {e["seat"] for e in ann.events("pot_awarded") if e["hand"] == hand}
        assert shown[0]["seat"] != started["button"], "the big blind shows first"
        assert not [e for e in mucked if e["seat"] == 2], "Bob shows his losing hands"
        ann_mucked += bool([e for e in mucked if e["seat"] == 1])
        bob_showed_a_loser += any(e["seat"] == 2 and 2 not in paid for e in shown[1:])
        if ann_mucked and bob_showed_a_loser:
            break
    assert ann_mucked and bob_showed_a_loser
    turns = [f for client in (ann, bob) for f in client.frames if f["type"] == "turn"]
    asked = [t for t in turns if {"show", "muck"} & {e["action"] for e in t["legal"]}]
    assert not asked, "no one is asked to show or muck"
    assert not ann.events("sat_out"), "no time-out"
    state = ann.state(table)
    assert seated(state, 1)["time_bank"] == seated(state, 2)["time_bank"] == 4 * SCALE


def test_a_player_away_keeps_the_seat_and_checks_or_folds_at_once(room: RoomServer) -> None:
    """Bob steps away (``sit_out``) in the middle of a hand: every watcher sees him away at
    once (the seat's ``away``, a ``sat_out`` event); his decisions in the hand are made at
    once, check else fold, with no turn and no clock; he keeps the seat, and one
    ``sit_in`` brings him back."""
    settings = {"seats": 2, "action_seconds": 40, "time_bank_seconds": 40}  # 10 s each
    table, (ann, bob) = seated_game(room, ("Ann", "Bob"), 100, name="Away", **settings)
    watcher = Client(room, None)
    assert seated(watcher.state(table), 2)["away"] is False
    ann.send({"type": "host", "table": table, "action": "resume"})
    hand = ann.wait(is_event("hand_started"))["event"]["hand"]
    ann.send({"type": "host", "table": table, "action": "pause"})

    def anns_turn() -> bool:
        return any(f["type"] == "turn" and f["hand"] == hand for f in ann.frames)

    play([ann, bob], table, anns_turn)  # Bob acts if he is first
    turn = next(f for f in ann.frames if f["type"] == "turn" and f["hand"] == hand)
    bob.send({"type": "sit_out", "table": table})
    out = watcher.wait(is_event("sat_out"))["event"]
    assert (out["seat"], out["timed_out"]) == (2, False)
    during = seated(watcher.state(table), 2)
    assert during["away"] is True and during["status"] in ("playing", "folded")
    bob.skip()
    began = time.monotonic()
    ann.answered.add((table, turn["seq"]))
    ann.send({"type": "act", "table": table, "hand": hand, **passive(ann, turn)})
    play([ann], table, lambda: any(e["hand"] == hand for e in ann.events("hand_ended")))
    assert time.monotonic() - began < 5, "no clock waited out"
    assert not [f for f in bob.frames[bob.cursor :] if f["type"] == "turn"], "Bob is not asked"
    after = [e for e in ann.events("acted") if e["hand"] == hand and e["seat"] == 2]
    seqs = {id(f["event"]): f["seq"] for f in ann.frames if f["type"] == "event"}
    at = next(f["seq"] for f in ann.frames if is_event("sat_out")(f))
    assert {e["action"] for e in after if seqs[id(e)] > at} <= {"check", "fold"}
    assert not ann.events("sat_out")[0]["timed_out"]
    between = seated(watcher.state(table), 2)
    assert (between["away"], between["status"], between["player"]) == (
        True,
        "sitting_out",
        bob.welcome["player"]["id"],
    )
    bob.send({"type": "sit_in", "table": table})
    watcher.wait(is_event("sat_in"))
    assert seated(watcher.state(table), 2)["away"] is False
    watcher.close()
