"""The room's store from the event loop (server/storage.py), on SQLite and PostgreSQL: an
action's commit waits on no other store call (a hand's start or end): on PostgreSQL the
tables' actions are logged on a thread and connection of their own, on SQLite's file on
the loop while the write lock is free (and on the store's thread, waiting its turn, while
another writer has it). Actions, and hands' starts and ends, of many tables go to the
database together, and one bad write fails only its own table."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

import pytest
from store_fixtures import SETUP, chips, hand_in_play, sqlite_file, table_with_players

from splitpot.server.storage import Storage
from splitpot.store import HandStateError, HandStatus, LedgerError, NotFound, Store, StoredHand
from splitpot.store.database import SQLITE_BUSY_SECONDS

T = TypeVar("T")
R = TypeVar("R")
DEADLINE = 30.0  # seconds a test waits for what it needs, however busy the machine


def test_an_actions_commit_waits_on_no_other_store_call(store: Store) -> None:
    """A store call runs long on the store's thread (a hand's end on a slow database):
    an action is logged meanwhile, on PostgreSQL on the log's own thread and connection,
    on SQLite's file on the event loop itself (its write lock is free)."""
    hand = hand_in_play(store)
    storage = Storage(store, retry=0.05, let_go=lambda _: None)
    other_call_runs, release = threading.Event(), threading.Event()

    def long_call() -> str:
        other_call_runs.set()
        release.wait(DEADLINE)
        return "finished"

    async def scenario() -> bool:
        other = asyncio.create_task(storage.db(long_call))
        await asyncio.to_thread(other_call_runs.wait, DEADLINE)
        await asyncio.wait_for(storage.log_action(hand, 1, 1, "call", None), DEADLINE)
        logged_first = not other.done()
        release.set()
        assert await other == "finished"
        return logged_first

    try:
        logged_first = asyncio.run(scenario())
    finally:
        release.set()
        storage.shutdown()
    assert logged_first
    log = store.hand_log(hand)
    assert [(a.seq, a.seat, a.kind, a.amount) for a in log.actions] == [(1, 1, "call", None)]


def test_on_sqlite_an_action_waits_for_another_writer_off_the_loop(store: Store) -> None:
    """Another connection holds SQLite's write lock: the action is not written on the
    loop (which would wait), but on the store's thread once the lock is free; the loop
    runs on meanwhile."""
    path = sqlite_file(store, "one writer at a time: SQLite")
    hand = hand_in_play(store)
    storage = Storage(store, retry=0.05, let_go=lambda _: None)
    other = sqlite3.connect(path, isolation_level=None)

    async def scenario() -> tuple[bool, float]:
        other.execute("BEGIN IMMEDIATE")
        began = time.monotonic()
        logged = asyncio.create_task(storage.log_action(hand, 1, 1, "call", None))
        for _ in range(20):  # the loop's own timers go on while the action waits
            await asyncio.sleep(0.01)
        ticking = time.monotonic() - began
        waited = not logged.done()
        other.execute("COMMIT")
        await asyncio.wait_for(logged, DEADLINE)
        return waited, ticking

    try:
        waited, ticking = asyncio.run(scenario())
    finally:
        other.close()
        storage.shutdown()
    assert waited
    assert ticking < SQLITE_BUSY_SECONDS / 4  # not held while a busy timeout ran out
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


def test_hands_of_many_tables_start_and_end_together_and_a_bad_one_fails_alone(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = [table_with_players(store, 100, 100) for _ in range(3)]
    (one, (ann, bob)), (two, (cat, dan)), (three, (eve, fay)) = tables
    batches: list[tuple[str, int]] = []
    for name in ("start_hands", "finish_hands"):
        monkeypatch.setattr(store, name, counted(getattr(store, name), name, batches))
    storage = Storage(store, retry=0.05, let_go=lambda _: None)
    Answers = list[StoredHand | BaseException]

    async def scenario() -> tuple[Answers, Answers]:
        starts = [storage.start_hand(table_id, SETUP) for table_id in (one, two, three, "nosuch")]
        started = await asyncio.gather(*starts, return_exceptions=True)
        ends = [
            storage.finish_hand(f"{one}-1", {"n": 1}, {ann: 10, bob: -10}, 0),
            storage.finish_hand(f"{two}-1", {"n": 2}, {cat: 20, dan: -20}, 0),
            storage.finish_hand(f"{three}-1", {"n": 3}, {eve: 5}, 0),  # not summing to 0
        ]
        return started, await asyncio.gather(*ends, return_exceptions=True)

    try:
        started, finished = asyncio.run(scenario())
    finally:
        storage.shutdown()
    *hands, unknown = started
    assert [getattr(hand, "id", None) for hand in hands] == [f"{one}-1", f"{two}-1", f"{three}-1"]
    assert isinstance(unknown, NotFound) and "no table 'nosuch'" in str(unknown)
    *done, refused = finished
    assert [(getattr(hand, "id", None), getattr(hand, "record", None)) for hand in done] == [
        (f"{one}-1", {"n": 1}),
        (f"{two}-1", {"n": 2}),
    ]
    assert isinstance(refused, LedgerError) and "results sum to 5" in str(refused)
    assert [chips(store, table_id) for table_id, _ in tables] == [
        {ann: 110, bob: 90},
        {cat: 120, dan: 80},
        {eve: 100, fay: 100},
    ]
    assert store.hand(f"{three}-1").status is HandStatus.PLAYING
    # four starts in one transaction, refused for the unknown table, then each alone; the
    # same for the three ends
    assert batches == [
        ("start_hands", 4),
        *[("start_hands", 1)] * 4,
        ("finish_hands", 3),
        *[("finish_hands", 1)] * 3,
    ]


def counted(
    write: Callable[[Sequence[T]], R], name: str, batches: list[tuple[str, int]]
) -> Callable[[Sequence[T]], R]:
    """``write``, noting the size of each batch it is given."""

    def noted(entries: Sequence[T]) -> R:
        batches.append((name, len(entries)))
        return write(entries)

    return noted
