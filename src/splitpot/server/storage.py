"""The room's store, from the event loop: its calls run one at a time on one worker
thread, so the loop never waits on the database; while the database is away a call is
retried until it answers (the tables pause, nothing is lost); the tables' actions, and
their hands' starts and ends, are written in batches (the actions on PostgreSQL on a
thread and connection of their own; on SQLite's file on the loop itself when that needs
no waiting, else on the store's thread); password hashing has threads of its own."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, Generic, TypeVar

from sqlalchemy.exc import OperationalError

from splitpot.store import (
    ActionEntry,
    FencedOut,
    HandEnd,
    HandStart,
    LoggedAction,
    Store,
    StoredHand,
)

log = logging.getLogger("splitpot.room")
ON_THE_LOOP_MOST = 1  # actions a batch SQLite's file may be written on the loop
T = TypeVar("T")
E = TypeVar("E")  # what a batch's writes are made of
R = TypeVar("R")  # what each gives back


class Storage:
    """The store behind one room process; ``let_go`` is told of a table another process
    runs now (a write fenced out)."""

    def __init__(self, store: Store, retry: float, let_go: Callable[[str], None]) -> None:
        self.store = store
        self.retry = retry  # seconds between tries while the database is away
        self.closing = False  # the room stops: a database away is not waited for
        self._let_go = let_go
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        # the action log's commits wait on no hand's start or end where the database takes
        # two writers at once (PostgreSQL: 10% more actions a second, docs/load.md)
        self._log = (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="store-log")
            if store.concurrent_writes
            else self._db
        )
        # the store's writes looked up at each batch, as every other call is
        self._actions: Batches[ActionEntry, LoggedAction] = Batches(
            self,
            self._log,
            lambda actions: store.append_actions(actions),
            self._log_on_the_loop if store.writes_without_waiting else None,
        )
        self._starts: Batches[HandStart, StoredHand] = Batches(
            self, self._db, lambda starts: store.start_hands(starts)
        )
        self._ends: Batches[HandEnd, StoredHand] = Batches(
            self, self._db, lambda ends: store.finish_hands(ends)
        )

    def _log_on_the_loop(self, actions: Sequence[ActionEntry]) -> list[LoggedAction] | None:
        """A batch of one action (a bot's or a human's pace) written on the loop itself
        while SQLite's write lock is free: no thread to wake. None leaves it to the store's
        thread: a bigger batch (full speed: written there, beside the loop's own work) or
        the lock taken (docs/load.md, fifteenth round)."""
        if len(actions) > ON_THE_LOOP_MOST:
            return None
        return self.store.append_actions_now(actions)

    def shutdown(self) -> None:
        self._log.shutdown(wait=True)
        self._db.shutdown(wait=True)

    async def db(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store's thread; retry while the database is away."""
        return await self.run(self._db, partial(call, *args, **kwargs))

    async def run(
        self,
        thread: ThreadPoolExecutor,
        call: Callable[[], T],
        at_once: Callable[[], T | None] | None = None,
    ) -> T:
        """``call`` on ``thread``; retried while the database is away. ``at_once``, when
        given, is tried first on the loop: a call that never waits, None when it would."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                if at_once is not None and (result := at_once()) is not None:
                    return result
                return await loop.run_in_executor(thread, call)
            except OperationalError as error:
                if self.closing:
                    raise
                log.warning("database unavailable (%s); retrying", error.orig)
                await asyncio.sleep(self.retry)
            except FencedOut as error:  # another process runs the table now: let it go
                self._let_go(error.table_id)
                raise

    async def log_action(
        self, hand_id: str, seq: int, seat: int, kind: str, amount: int | None
    ) -> None:
        """Append action ``seq`` to its hand's log; return once it is committed."""
        await self._actions.add((hand_id, seat, kind, amount, seq))

    async def start_hand(self, table_id: str, setup: dict[str, Any]) -> StoredHand:
        """The table's next hand, stored (``Store.start_hand``), in the next batch."""
        return await self._starts.add((table_id, setup))

    async def finish_hand(
        self, hand_id: str, record: dict[str, Any], results: Mapping[int, int], rake: int
    ) -> StoredHand:
        """The hand's result and record, stored (``Store.finish_hand``), in the next batch."""
        return await self._ends.add((hand_id, record, results, rake))

    async def passwords(self, call: Callable[..., T], *args: Any) -> T:
        """A store call that hashes a password (argon2, about 0.1 s), on a thread of its
        own: the store's thread, which logs every table's actions, never waits for one."""
        return await asyncio.to_thread(call, *args)


class Batches(Generic[E, R]):
    """Writes that tables ask for while a batch of them is being written go together in
    the next: one transaction for many tables, each table still waiting for its own
    result. A batch refused is written again one entry at a time, so one bad entry fails
    only its own table. ``write_now``, when given, writes a batch on the loop if that
    needs no waiting (None when it would), and the thread writes the rest."""

    def __init__(
        self,
        storage: Storage,
        thread: ThreadPoolExecutor,
        write: Callable[[Sequence[E]], Sequence[R]],
        write_now: Callable[[Sequence[E]], Sequence[R] | None] | None = None,
    ) -> None:
        self._storage = storage
        self._thread = thread
        self._write = write
        self._write_now = write_now
        self._waiting: list[tuple[E, asyncio.Future[R]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def add(self, entry: E) -> R:
        """Write ``entry`` in the next batch; its result, once that batch is committed."""
        done: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._waiting.append((entry, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_waiting())
        return await done

    async def _write_waiting(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                results = await self._written([entry for entry, _ in batch])
                answers = list(zip(batch, results, strict=True))
            except Exception as error:
                if len(batch) == 1:
                    _refuse(batch[0][1], error)
                    continue
                for entry, done in batch:  # each alone: the bad one fails, the rest are written
                    try:
                        result = (await self._written([entry]))[0]
                    except Exception as alone:
                        _refuse(done, alone)
                    else:
                        _answer(done, result)
                continue
            for (_, done), result in answers:
                _answer(done, result)

    async def _written(self, entries: list[E]) -> Sequence[R]:
        """The entries written, on the loop if that needs no waiting, else on the batches'
        thread (retried while the database is away); a result for each."""
        now = None if self._write_now is None else partial(self._write_now, entries)
        return await self._storage.run(self._thread, partial(self._write, entries), now)


def _answer(done: asyncio.Future[R], result: R) -> None:
    """Answer a waiting table, unless it has stopped waiting (a table being stopped)."""
    if not done.done():
        done.set_result(result)


def _refuse(done: asyncio.Future[R], error: Exception) -> None:
    """Throw a table's write's error back to it, unless it has stopped waiting."""
    if not done.done():
        done.set_exception(error)
