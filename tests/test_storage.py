"""The room's store from the event loop (server/storage.py), on SQLite and PostgreSQL: on
PostgreSQL the tables' actions are logged on a thread and connection of their own, so an
action's commit waits on no other store call (a hand's start or end); SQLite takes one
writer at a time, and there the log waits its turn. On PostgreSQL the hands of several
tables are written at once too."""

from __future__ import annotations

import asyncio
import threading

from store_fixtures import SETUP, table_with_players

from splitpot.server.storage import WRITERS, Storage
from splitpot.store import HandStateError, HandStatus, Store

DEADLINE = 30.0  # seconds a test waits for what it needs, however busy the machine


def hand_in_play(store: Store) -> str:
    table_id, _ = table_with_players(store, 100, 100)
    return store.start_hand(table_id, SETUP).id


def test_an_actions_commit_waits_on_no_other_store_call_where_the_database_allows(
    store: Store,
) -> None:
    hand = hand_in_play(store)
    storage = Storage(store, retry=0.05, let_go=lambda _: None)
    other_call_runs, release = threading.Event(), threading.Event()

    def long_call() -> str:  # a hand's start or end on a slow database, say
        other_call_runs.set()
        release.wait(DEADLINE)
        return "finished"

    async def scenario() -> tuple[bool, bool]:
        other = asyncio.create_task(storage.db(long_call))
        await asyncio.to_thread(other_call_runs.wait, DEADLINE)
        logged = asyncio.create_task(storage.log_action(hand, 1, 1, "call", None))
        if store.concurrent_writes:
            await asyncio.wait_for(logged, DEADLINE)  # committed while the other call runs
        else:  # one writer: the log waits its turn (this wait cannot pass by mistake)
            await asyncio.wait({logged}, timeout=0.3)
        logged_first = logged.done() and not other.done()
        release.set()
        assert await other == "finished"
        await asyncio.wait_for(logged, DEADLINE)
        return logged_first, store.concurrent_writes

    try:
        logged_first, concurrent = asyncio.run(scenario())
    finally:
        release.set()
        storage.shutdown()
    assert concurrent == (store.engine.dialect.name == "postgresql")
    assert logged_first == concurrent
    log = store.hand_log(hand)
    assert [(a.seq, a.seat, a.kind, a.amount) for a in log.actions] == [(1, 1, "call", None)]


def test_actions_of_many_tables_are_logged_together_and_a_bad_one_fails_alone(
    store: Store,
) -> None:
    hands = [hand_in_play(store) for _ in range(3)]
    storage = Storage(store, retry=0.05, let_go=lambda _: None)

    async def scenario() -> list[BaseException | None]:
        logged = [storage.log_action(hand, 1, 1, "call", None) for hand in hands]
        gap = storage.log_action(hands[0], 9, 2, "raise", 40)  # action 9 of a hand of none
        return await asyncio.gather(*logged, gap, return_exceptions=True)

    try:
        *answers, refused = asyncio.run(scenario())
    finally:
        storage.shutdown()
    assert answers == [None, None, None]
    assert isinstance(refused, HandStateError) and "action 9 is not next" in str(refused)
    for hand in hands:
        assert [(a.seq, a.kind) for a in store.hand_log(hand).actions] == [(1, "call")]


def test_store_calls_overlap_where_the_database_takes_several_writers(store: Store) -> None:
    """On PostgreSQL a table's hand is written while another store call is under way (up
    to WRITERS at once); on SQLite each waits its turn."""
    storage = Storage(store, retry=0.05, let_go=lambda _: None)
    running = [threading.Event() for _ in range(WRITERS)]
    release = threading.Event()

    def long_call(number: int) -> int:
        running[number].set()
        release.wait(DEADLINE)
        return number

    async def scenario() -> list[int]:
        calls = [asyncio.create_task(storage.db(long_call, n)) for n in range(WRITERS)]
        await asyncio.to_thread(running[0].wait, DEADLINE)
        if store.concurrent_writes:  # every one of them runs before any is let go
            await asyncio.to_thread(running[-1].wait, DEADLINE)
        else:  # one at a time (this wait cannot pass by mistake)
            await asyncio.sleep(0.3)
        started = [n for n, event in enumerate(running) if event.is_set()]
        release.set()
        assert await asyncio.gather(*calls) == list(range(WRITERS))
        return started

    try:
        started = asyncio.run(scenario())
    finally:
        release.set()
        storage.shutdown()
    assert started == (list(range(WRITERS)) if store.concurrent_writes else [0])


def test_hands_of_many_tables_start_and_end_at_once_and_every_chip_is_in_place(
    store: Store,
) -> None:
    """Twelve tables each start and finish three raked hands through the room's storage
    at once (on PostgreSQL on several writers): every hand is finished, every stack and
    the house hold what the results say."""
    tables = [table_with_players(store, 100, 100) for _ in range(12)]
    storage = Storage(store, retry=0.05, let_go=lambda _: None)

    async def play(table_id: str, ann: int, bob: int) -> None:
        for _ in range(3):
            hand = await storage.db(store.start_hand, table_id, SETUP)
            await storage.db(store.finish_hand, hand.id, {}, {ann: 5, bob: -7}, 2)

    async def scenario() -> None:
        await asyncio.gather(*(play(table_id, *players) for table_id, players in tables))

    try:
        asyncio.run(scenario())
    finally:
        storage.shutdown()
    for table_id, (ann, bob) in tables:
        assert {seat.player_id: seat.chips for seat in store.seats(table_id)} == {ann: 115, bob: 79}
        assert [hand.status for hand in store.table_hands(table_id)] == [HandStatus.FINISHED] * 3
    assert store.check_invariant().house == 12 * 3 * 2
