"""Crashes and restarts of the room (PROTOCOL.md "Starting the room", DESIGN.md "Crash
safety", docs/room.md "Crashes and restarts"), on SQLite and on PostgreSQL.

Recovery in-process: a room whose actors stop dead after the last logged action, and a
new room on the same store that rebuilds the table from the log. Then the real thing: a
``splitpot serve`` process killed with SIGKILL at random moments while bots and two
players over WebSockets play, restarted on the same database each time; and SIGTERM.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from room_helpers import Client, Frame, is_event, replay
from room_process import (
    WAIT,
    Human,
    Players,
    Serve,
    check_chips,
    check_hands_against_ledger,
    chooser,
    hand_transfers,
)
from sqlalchemy import make_url

from splitpot.engine import Action
from splitpot.room.commands import Act, Person, Sit
from splitpot.room.host import Steps
from splitpot.room.settings import TableSettings
from splitpot.server.actor import Request, TableActor
from splitpot.server.connection import Connection
from splitpot.server.options import RoomOptions
from splitpot.server.recovery import restore_table
from splitpot.server.room import Room
from splitpot.store import HandStatus, LoggedAction, Player, SeatRecordStatus, Store
from splitpot.table import Table, TableView

# Deals shortly after the players sit; no bots, so nothing acts but the test.
HELD = RoomOptions(hand_pause=0.2, bot_delay=3600.0, db_retry=0.1)
BUY_IN = 200
NAMES = ("Ann", "Bob", "Cy")


# ---------------------------------------------------------------- recovery in-process


class Connections:
    """The room's connections of the test's players, by player id."""

    def __init__(self, players: list[Player]) -> None:
        self.players = {player.id: Person(player.id, player.name) for player in players}
        self.connections = {player.id: Connection(player) for player in players}

    async def act(self, actor: TableActor, action: Action) -> None:
        """The seat to act takes ``action``, through the actor like a client's ``act``."""
        host = actor.host
        seat = host.table.seat_to_act
        assert seat is not None and host.playing is not None, "no one is to act"
        player = host.occupants[seat].player_id
        command = Act(self.players[player], action, host.playing.id)
        await actor.submit(Request(self.connections[player], command))

    async def passive(self, actor: TableActor) -> None:
        """Check, else call: the hand goes on to the showdown, where the room shows or
        mucks for each player (their preferences) and settles the hand."""
        table = actor.host.table
        seat = table.seat_to_act
        legal = None if seat is None else table.view(seat).legal
        if legal is None or legal.muck:
            await asyncio.sleep(0.01)
        elif legal.check:
            await self.act(actor, Action.check())
        elif legal.call is not None:
            await self.act(actor, Action.call())
        else:
            await self.act(actor, Action.fold())


async def until(condition: object, what: str, timeout: float = 10.0) -> None:
    """Wait for ``condition()`` (the actors run meanwhile)."""
    assert callable(condition)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


@asynccontextmanager
async def room_on(store: Store) -> AsyncIterator[Room]:
    """A room on ``store`` whose end is a crash: its tables stop dead, nothing is saved."""
    room = Room(store, HELD)
    try:
        yield room
    finally:
        for actor in room.tables.values():
            await actor.stop()
        room.storage.shutdown()


async def restarted(room: Room, table_id: str) -> tuple[TableActor, Steps | None]:
    """The table as a restarted room rebuilds it: its lease taken (the same process name:
    at once), then restored from the store (not started), with the steps it begins with."""
    assert await room.db(room.store.claim_table, table_id, room.options.lease_seconds)
    return await restore_table(room, room.store.table(table_id), room.options.host())


def run(room: Room, actor: TableActor, first: Steps | None, *, hold: bool = False) -> None:
    """Start the restored table in the room (``hold``: it deals no new hand)."""
    room.tables[actor.id] = actor
    if hold:
        actor.hold()
    actor.start(first)


async def hand_in_play(room: Room, store: Store) -> tuple[TableActor, Connections]:
    """Three players at a new table; their first hand is dealt, then a raise, two calls
    and a check on the flop are logged (the hand is in play, with a pot and a board)."""
    identities = [store.create_guest(name) for name in NAMES]
    actor, _ = await room.create_here(TableSettings("Crash", seats=4), identities[0].player)
    players = Connections([identity.player for identity in identities])
    for seat, (player, connection) in enumerate(players.connections.items()):
        sit = Sit(players.players[player], seat, BUY_IN)
        await actor.submit(Request(connection, sit))
    await until(lambda: actor.host.playing is not None, "the deal")
    table = actor.host.table
    legal = table.view(table.seat_to_act).legal
    assert legal is not None and legal.min_to is not None
    await players.act(actor, Action.raise_to(legal.min_to))
    for _ in range(3):
        await players.passive(actor)
    assert table.hand is not None and len(table.hand.hand.board) == 3
    return actor, players


def views(table: Table) -> list[TableView]:
    """The table as every seat and a watcher see it."""
    return [table.view(viewer) for viewer in (None, *range(table.config.seats))]


def ledger_stacks(store: Store, table_id: str) -> dict[int, int]:
    """The chips of each seat (from 0) at the table, as the ledger has them."""
    return {seat.seat - 1: seat.chips for seat in store.seats(table_id)}


def table_stacks(table: Table) -> dict[int, int]:
    return {seat: player.stack for seat, player in enumerate(table.seats) if player is not None}


def hand_of(actor: TableActor) -> str | None:
    playing = actor.host.playing
    return None if playing is None else playing.id


def test_a_hand_in_play_resumes_exactly_where_its_log_stops(store: Store) -> None:
    async def scenario() -> None:
        async with room_on(store) as room:
            actor, players = await hand_in_play(room, store)
            before_table = actor.host.table
            hand_id, before, seats = hand_of(actor), views(before_table), list(before_table.seats)
            board = actor.host.scene.board
        assert hand_id is not None
        logged = store.hand_log(hand_id)
        assert logged.status is HandStatus.PLAYING and len(logged.actions) == 4
        async with room_on(store) as room:
            resumed, first = await restarted(room, actor.id)
            host = resumed.host
            assert hand_of(resumed) == hand_id and first is None
            assert views(host.table) == before  # same seat to act, stacks, bets, board
            assert len(board) == 3 and host.scene.board == board  # the dealer's words go on
            assert host.table.seats == seats
            assert {s: o.player_id for s, o in host.occupants.items()} == {
                s: o.player_id for s, o in actor.host.occupants.items()
            }
            run(room, resumed, first, hold=True)  # no next hand: the stacks stay as it ends
            await until(lambda: host.turn is not None, "the turn")
            turn = host.turn  # the player to act has a full action time again
            assert turn is not None and turn.seat == host.table.seat_to_act
            assert turn.deadline == turn.started + host.settings.action_seconds
            while hand_of(resumed) == hand_id:
                await players.passive(resumed)
            await until(lambda: hand_of(resumed) is None, "the result")
            assert store.hand(hand_id).status is HandStatus.FINISHED
            assert store.hand_log(hand_id).actions[:4] == logged.actions
            assert ledger_stacks(store, actor.id) == table_stacks(host.table)
        totals = store.check_invariant()
        assert totals.on_tables == 3 * BUY_IN and totals.balances == -3 * BUY_IN

    asyncio.run(scenario())


def test_a_log_that_cannot_be_replayed_is_cancelled_with_every_bet_returned(
    store: Store,
) -> None:
    async def scenario() -> None:
        async with room_on(store) as room:
            actor, players = await hand_in_play(room, store)
            hand_id, seat = hand_of(actor), actor.host.table.seat_to_act
            snapshot = store.hand_log(str(hand_id)).setup["snapshot"]
        assert hand_id is not None and seat is not None
        store.append_action(hand_id, seat + 1, "raise", 10**9)  # more than anyone has
        with pytest.raises(ValueError, match="raise"):
            replay(store.hand_log(hand_id))
        async with room_on(store) as room:
            restored, first = await restarted(room, actor.id)
            table = restored.host.table
            assert store.hand(hand_id).status is HandStatus.CANCELLED
            assert hand_transfers(store, hand_id) == []
            assert table.hand is None and hand_of(restored) is None
            assert table.snapshot() | {"hands_played": 0} == snapshot
            stacks = {seat: BUY_IN for seat in range(3)}
            assert table_stacks(table) == ledger_stacks(store, actor.id) == stacks
            # The next hand is number 2 on the table and in the store: one id for both.
            run(room, restored, first)
            await until(lambda: hand_of(restored) is not None, "the next deal")
            assert restored.host.table.hand is not None
            assert restored.host.table.hand.number == 2
            assert hand_of(restored) == f"{actor.id}-2"
            assert len(players.connections) == 3
        assert store.check_invariant().house == 0

    asyncio.run(scenario())


def test_a_hand_over_in_its_log_but_not_in_the_ledger_is_finished_on_restart(
    store: Store,
) -> None:
    """The crash came after the last action was logged and before the result was
    written; a player who asked to leave during the hand is cashed out once it ends."""

    async def scenario() -> None:
        async with room_on(store) as room:
            actor, _ = await hand_in_play(room, store)
            hand_id = hand_of(actor)
        assert hand_id is not None
        table, _ = replay(store.hand_log(hand_id))
        while (seat := table.seat_to_act) is not None:
            table.act(seat, Action.fold())
            store.append_action(hand_id, seat + 1, "fold")
        finished = table_stacks(table)
        leaver = next(iter(store.seats(actor.id)))
        store.set_seat_status(actor.id, leaver.player_id, SeatRecordStatus.LEAVING)
        async with room_on(store) as room:
            restored, first = await restarted(room, actor.id)
            assert first is not None  # the hand's result is written when the table starts
            run(room, restored, first, hold=True)
            await until(lambda: hand_of(restored) is None, "the result")
            await until(lambda: restored.host.seat_of(leaver.player_id) is None, "the leaver gone")
        assert store.hand(hand_id).status is HandStatus.FINISHED
        assert restored.host.table.hand is None
        stays = {seat: chips for seat, chips in finished.items() if seat != leaver.seat - 1}
        assert table_stacks(restored.host.table) == ledger_stacks(store, actor.id) == stays
        assert store.balance(leaver.player_id) == finished[leaver.seat - 1] - BUY_IN
        assert sum(finished.values()) == 3 * BUY_IN
        store.check_invariant()

    asyncio.run(scenario())


# ---------------------------------------------------------------- a real process

# kill -9s a run: 6 on PostgreSQL (the room's database in production), 3 on SQLite, at
# moments drawn anew each run; SPLITPOT_TEST_KILLS=N for a longer soak of both
KILLS = {"postgresql": 6, "sqlite": 3}


@dataclass
class Crashes:
    """The hands in play at each kill, and what became of them."""

    store: Store  # the test's own, beside the room's
    pending: dict[str, tuple[LoggedAction, ...]] = field(default_factory=dict)
    mid_hand: int = 0  # kills that left a hand in play
    hit: set[str] = field(default_factory=set)  # the hands in play at a kill
    resumed: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)

    def killed(self) -> None:
        """After a kill: the ledger holds, and the hands in play are noted with their log."""
        check_chips(self.store)
        in_play = self.store.unfinished_hands()
        self.mid_hand += bool(in_play)
        self.hit |= {hand.id for hand in in_play}
        self.pending |= {hand.id: hand.actions for hand in in_play}

    def settle(self) -> None:
        """Hands in play at a kill: cancelled with no ledger entry, or finished with the
        log as it was at the kill and then more (resumed where the log stopped). Those
        still in play stay pending."""
        for hand_id, logged in list(self.pending.items()):
            status = self.store.hand(hand_id).status
            if status is HandStatus.CANCELLED:
                assert hand_transfers(self.store, hand_id) == []
                self.cancelled.append(hand_id)
            elif status is HandStatus.FINISHED:
                log = self.store.hand_log(hand_id)
                assert log.actions[: len(logged)] == logged, hand_id
                assert replay(log)[0].hand is None  # the log holds the whole hand
                self.resumed.append(hand_id)
            else:
                continue
            del self.pending[hand_id]

    def play_on(self, players: Players) -> None:
        """Play until a hand has ended since the restart and no hand of a kill is left."""
        while True:
            players.play_hand()
            self.settle()
            if not self.pending:
                return

    def check_rejoined(self, human: Human, snapshot: Frame) -> None:
        """The player's seat, with the ledger's chips (less what is in the pot when dealt
        in); a hand of a kill still in play is the one the table shows (or over since)."""
        state = snapshot["state"]
        mine = state["seats"][human.seat - 1]
        assert (mine["player"], mine["name"]) == (human.id, human.name)
        chips = {str(seat.player_id): seat.chips for seat in self.store.seats(snapshot["table"])}
        shown = None if state["hand"] is None else state["hand"]["id"]
        for hand_id in self.pending:
            hand = self.store.hand(hand_id)
            if hand_id != shown and hand.table_id == snapshot["table"]:
                assert hand.status is not HandStatus.PLAYING
        if shown is not None and mine["status"] in ("playing", "all_in", "folded"):
            assert mine["stack"] <= chips[human.id]
        else:
            assert mine["stack"] == chips[human.id]


def test_kill_9_at_random_moments_loses_no_chip(
    database_url: str, store: Store, tmp_path: Path
) -> None:
    """PROTOCOL.md: a ``kill -9`` at any moment loses no chip; every unfinished hand
    resumes where it was (or is cancelled with every bet returned)."""
    backend = make_url(database_url).get_backend_name()
    kills = int(os.environ.get("SPLITPOT_TEST_KILLS", KILLS[backend]))
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    room = Serve(database_url, tmp_path, spare=True)
    room.start()
    table = room.bots_table()
    with httpx.Client(base_url=room.url, timeout=5) as http:  # a second busy table: bots only
        host = http.post("/api/guests", json={"name": "Holly"}).json()["token"]
        created = http.post(
            "/api/tables",
            json={"name": "Bots", "seats": 6, "bots": 5},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert created.status_code == 201, created.text
    humans = []
    for name, seat in (("Ann", 1), ("Bob", 5)):
        with httpx.Client(base_url=room.url, timeout=5) as http:
            body = http.post("/api/guests", json={"name": name}).json()
        humans.append(Human(name, str(body["player"]["id"]), body["token"], seat))
        humans[-1].connect(room).sit(table["id"], seat, table["max_buy_in"])
    players = Players(humans, table["id"], chooser(rng))
    crashes = Crashes(store)
    started, early = time.monotonic(), 0
    try:
        for kill in range(kills):
            if kill == 0:
                players.play_to_a_turn()  # one kill surely in a hand
            else:
                players.play_for(rng.uniform(0.1, 0.6))  # the players went on
            room.kill()
            for human in humans:
                human.disconnect()
            crashes.killed()
            in_play = len(crashes.pending)
            room.start()
            crashes.settle()  # cancelled, or finished before the players are back
            early += len(crashes.pending) < in_play
            running = {listed["id"] for listed in room.tables()}
            assert {hand.table_id for hand in store.unfinished_hands()} <= running
            for human in humans:
                crashes.check_rejoined(human, human.rejoin(room, table["id"]))
        crashes.play_on(players)
    finally:
        for human in humans:
            human.disconnect()
        room.kill()
        room.close()
    check_chips(store)
    finished = check_hands_against_ledger(store)
    for hand in store.unfinished_hands():  # in play at the last kill: it would resume
        replay(hand)
    report = (
        f"seed {seed}: {kills} kills in {time.monotonic() - started:.1f} s, "
        f"{crashes.mid_hand} in a hand ({len(crashes.hit)} hands); "
        f"resumed {len(crashes.resumed)} "
        f"({early} ended before the players were back), "
        f"cancelled {len(crashes.cancelled)}; {finished} hands finished"
    )
    print(report)
    assert crashes.mid_hand >= 1, report
    assert not crashes.cancelled, report  # a log cut by a kill always replays
    assert set(crashes.resumed) == crashes.hit, report


def test_sigterm_lets_hands_in_play_finish_then_exits_0(
    database_url: str, store: Store, tmp_path: Path
) -> None:
    """PROTOCOL.md: on SIGTERM the room stops dealing, lets the hands in play finish (or
    saves them to resume: their log replays) and exits 0."""
    room = Serve(database_url, tmp_path)
    room.start()
    table = room.bots_table()["id"]
    watcher = Client(room, None)  # type: ignore[arg-type]
    watcher.send({"type": "watch", "table": table})
    watcher.wait(lambda f: f["type"] == "table", WAIT)
    watcher.wait(is_event("hand_ended"), WAIT)
    time.sleep(random.uniform(0.0, 0.2))
    try:
        code = room.terminate()
    finally:
        watcher.close()
    check_chips(store)
    hands = store.table_hands(table, 1000)
    assert sum(hand.status is HandStatus.FINISHED for hand in hands) >= 1
    assert not any(hand.status is HandStatus.CANCELLED for hand in hands)
    for saved in store.unfinished_hands():
        replay(saved)  # resumes on the next start
    check_hands_against_ledger(store)
    assert code == 0
