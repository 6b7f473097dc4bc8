"""The room's store, from the event loop: its calls run one at a time on one worker
thread, so the loop never waits on the database and SQLite sees a single writer; while the
database is away a call is retried until it answers (the tables pause, nothing is lost);
the tables' actions are logged in batches, on PostgreSQL on a thread and connection of
their own; password hashing has threads of its own."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from sqlalchemy.exc import OperationalError

from splitpot.store import ActionEntry, FencedOut, Store

log = logging.getLogger("splitpot.room")
T = TypeVar("T")


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
        self._actions: list[tuple[ActionEntry, asyncio.Future[None]]] = []
        self._logger: asyncio.Task[None] | None = None

    def shutdown(self) -> None:
        self._log.shutdown(wait=True)
        self._db.shutdown(wait=True)

    async def db(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store's thread; retry while the database is away."""
        return await self._run(self._db, partial(call, *args, **kwargs))

    async def _run(self, thread: ThreadPoolExecutor, call: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        while True:
            try:
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
        """Append action ``seq`` to its hand's log; return once it is committed. The actions
        that tables log while a commit is under way go together in the next one: one
        transaction for many tables, each table still waiting for its own action."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._actions.append(((hand_id, seat, kind, amount, seq), done))
        if self._logger is None or self._logger.done():
            self._logger = asyncio.create_task(self._write_actions())
        await done

    async def _write_actions(self) -> None:
        while self._actions:
            batch, self._actions = self._actions, []
            try:
                entries = [entry for entry, _ in batch]
                await self._run(self._log, partial(self.store.append_actions, entries))
            except Exception:  # one bad action must not fail the others: each alone
                for entry, done in batch:
                    try:
                        await self._run(self._log, partial(self.store.append_action, *entry))
                    except Exception as error:
                        _answer(done, error)
                    else:
                        _answer(done, None)
                continue
            for _, done in batch:
                _answer(done, None)

    async def passwords(self, call: Callable[..., T], *args: Any) -> T:
        """A store call that hashes a password (argon2, about 0.1 s), on a thread of its
        own: the store's thread, which logs every table's actions, never waits for one."""
        return await asyncio.to_thread(call, *args)


def _answer(done: asyncio.Future[None], error: Exception | None) -> None:
    """Answer a waiting table, unless it has stopped waiting (a table being stopped)."""
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
