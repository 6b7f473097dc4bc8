"""The room's store from the event loop (server/storage.py), on SQLite and PostgreSQL: on
PostgreSQL the tables' actions are logged on a thread and connection of their own, so an
action's commit waits on no other store call (a hand's start or end); SQLite takes one
writer at a time, and there the log waits its turn."""

from __future__ import annotations

import asyncio
import threading

from store_fixtures import SETUP, table_with_players

from splitpot.server.storage import Storage
from splitpot.store import HandStateError, Store

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
