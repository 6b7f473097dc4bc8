"""Crashes and restarts of the room (PROTOCOL.md "Starting the room", DESIGN.md "Crash
safety", docs/room.md "Crashes and restarts"), on SQLite and on PostgreSQL.

Recovery in-process: a room whose actors stop dead after the last logged action, and a
new room on the same store that rebuilds the table from the log. Then the real thing: a
``splitpot serve`` process killed with SIGKILL at random moments while bots and two
players over WebSockets play, restarted on the same database each time; and SIGTERM.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from sqlalchemy import select

from splitpot.engine import Action
from splitpot.server.actor import Command, TableActor
from splitpot.server.connection import Connection
from splitpot.server.recovery import replay, restore_table
from splitpot.server.room import Room, RoomOptions
from splitpot.server.settings import TableSettings
from splitpot.store import HandStatus, Player, SeatStatus, Store
from splitpot.store.models import TransferRow
from splitpot.table import Table, TableView

pytest_plugins = ["store_fixtures"]

# Deals shortly after the players sit; no bots, so nothing acts but the test.
HELD = RoomOptions(hand_pause=0.2, bot_delay=3600.0, db_retry=0.1)
BUY_IN = 200
NAMES = ("Ann", "Bob", "Cy")


# ---------------------------------------------------------------- recovery in-process


class Players:
    """The room's connections of the test's players, by player id."""

    def __init__(self, players: list[Player]) -> None:
        self.connections = {player.id: Connection(player) for player in players}

    async def act(self, actor: TableActor, action: Action) -> None:
        """The seat to act takes ``action``, through the actor like a client's ``act``."""
        seat = actor.table.seat_to_act
        assert seat is not None, "no one is to act"
        connection = self.connections[actor.occupants[seat].player_id]
        fields = {"hand": actor.hand_id, "action": action}
        await actor.submit(Command(connection, "act", fields))

    async def passive(self, actor: TableActor) -> None:
        """Check, else call, else show: the hand goes on to the showdown."""
        seat = actor.table.seat_to_act
        assert seat is not None
        legal = actor.table.view(seat).legal
        assert legal is not None
        if legal.check:
            await self.act(actor, Action.check())
        elif legal.call is not None:
            await self.act(actor, Action.call())
        else:
            await self.act(actor, Action.show() if legal.show else Action.fold())


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
        room._db.shutdown(wait=True)


async def hand_in_play(room: Room, store: Store) -> tuple[TableActor, Players]:
    """Three players at a new table; their first hand is dealt, then a raise, two calls
    and a check on the flop are logged (the hand is in play, with a pot and a board)."""
    identities = [store.create_guest(name) for name in NAMES]
    actor, _ = await room.create_table(TableSettings("Crash", seats=4), identities[0].player)
    players = Players([identity.player for identity in identities])
    for seat, connection in enumerate(players.connections.values()):
        await actor.submit(Command(connection, "sit", {"seat": seat, "buy_in": BUY_IN}))
    await until(lambda: actor.hand_id is not None, "the deal")
    legal = actor.table.view(actor.table.seat_to_act).legal
    assert legal is not None and legal.min_to is not None
    await players.act(actor, Action.raise_to(legal.min_to))
    for _ in range(3):
        await players.passive(actor)
    assert actor.table.hand is not None and len(actor.table.hand.hand.board) == 3
    return actor, players


def views(table: Table) -> list[TableView]:
    """The table as every seat and a watcher see it."""
    return [table.view(viewer) for viewer in (None, *range(table.config.seats))]


def hand_transfers(store: Store, hand_id: str) -> list[int]:
    with store.engine.connect() as db:
        return list(db.scalars(select(TransferRow.id).where(TransferRow.hand_id == hand_id)))


def ledger_stacks(store: Store, table_id: str) -> dict[int, int]:
    """The chips of each seat (from 0) at the table, as the ledger has them."""
    return {seat.seat - 1: seat.chips for seat in store.seats(table_id)}


def table_stacks(table: Table) -> dict[int, int]:
    return {seat: player.stack for seat, player in enumerate(table.seats) if player is not None}


def test_a_hand_in_play_resumes_exactly_where_its_log_stops(store: Store) -> None:
    async def scenario() -> None:
        async with room_on(store) as room:
            actor, players = await hand_in_play(room, store)
            hand_id, before, seats = actor.hand_id, views(actor.table), list(actor.table.seats)
        assert hand_id is not None
        logged = store.hand_log(hand_id)
        assert logged.status is HandStatus.PLAYING and len(logged.actions) == 4
        async with room_on(store) as room:
            resumed = await restore_table(room, store.table(actor.id))
            assert resumed.hand_id == hand_id
            assert views(resumed.table) == before  # same seat to act, stacks, bets, board
            assert resumed.table.seats == seats
            assert {s: o.player_id for s, o in resumed.occupants.items()} == {
                s: o.player_id for s, o in actor.occupants.items()
            }
            resumed.paused = True  # no next hand: the stacks stay as this one leaves them
            room.tables[resumed.id] = resumed
            resumed.start()
            while resumed.hand_id == hand_id:
                await players.passive(resumed)
            await until(lambda: resumed.hand_id is None, "the result")
            assert store.hand(hand_id).status is HandStatus.FINISHED
            assert store.hand_log(hand_id).actions[:4] == logged.actions
            assert ledger_stacks(store, actor.id) == table_stacks(resumed.table)
        totals = store.check_invariant()
        assert totals.on_tables == 3 * BUY_IN and totals.balances == -3 * BUY_IN

    asyncio.run(scenario())


def test_a_log_that_cannot_be_replayed_is_cancelled_with_every_bet_returned(
    store: Store,
) -> None:
    async def scenario() -> None:
        async with room_on(store) as room:
            actor, players = await hand_in_play(room, store)
            hand_id, seat = actor.hand_id, actor.table.seat_to_act
            snapshot = store.hand_log(str(hand_id)).setup["snapshot"]
        assert hand_id is not None and seat is not None
        store.append_action(hand_id, seat + 1, "raise", 10**9)  # more than anyone has
        with pytest.raises(ValueError, match="raise"):
            replay(store.hand_log(hand_id))
        async with room_on(store) as room:
            restored = await restore_table(room, store.table(actor.id))
            assert store.hand(hand_id).status is HandStatus.CANCELLED
            assert hand_transfers(store, hand_id) == []
            assert restored.table.hand is None and restored.hand_id is None
            assert restored.table.snapshot() | {"hands_played": 0} == snapshot
            stacks = {seat: BUY_IN for seat in range(3)}
            assert table_stacks(restored.table) == ledger_stacks(store, actor.id) == stacks
            # The next hand is number 2 on the table and in the store: one id for both.
            room.tables[restored.id] = restored
            restored.start()
            await until(lambda: restored.hand_id is not None, "the next deal")
            assert restored.table.hand is not None and restored.table.hand.number == 2
            assert restored.hand_id == f"{actor.id}-2"
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
            hand_id = actor.hand_id
        assert hand_id is not None
        table = replay(store.hand_log(hand_id))
        while (seat := table.seat_to_act) is not None:
            table.act(seat, Action.fold())
            store.append_action(hand_id, seat + 1, "fold")
        finished = table_stacks(table)
        leaver = next(iter(store.seats(actor.id)))
        store.set_seat_status(actor.id, leaver.player_id, SeatStatus.LEAVING)
        async with room_on(store) as room:
            restored = await restore_table(room, store.table(actor.id))
        assert store.hand(hand_id).status is HandStatus.FINISHED
        assert restored.hand_id is None and restored.table.hand is None
        stays = {seat: chips for seat, chips in finished.items() if seat != leaver.seat - 1}
        assert table_stacks(restored.table) == ledger_stacks(store, actor.id) == stays
        assert store.balance(leaver.player_id) == finished[leaver.seat - 1] - BUY_IN
        assert sum(finished.values()) == 3 * BUY_IN
        store.check_invariant()

    asyncio.run(scenario())
