"""The room: every table's actor, the store behind them, and the lobby's view of them.

The store is synchronous; its calls run one at a time on one worker thread, so the event
loop never waits on the database and SQLite sees a single writer. When the database is
away, a call is retried until it answers: the tables pause, nothing is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar
from urllib.parse import urlsplit

from sqlalchemy.exc import OperationalError

from splitpot.protocol import ErrorCode, ProtocolError
from splitpot.server.actor import Command, TableActor
from splitpot.server.connection import POLICY, Connection
from splitpot.server.recovery import restore_table
from splitpot.server.settings import TableSettings
from splitpot.store import ActionEntry, FencedOut, Player, Store, token_hash
from splitpot.store import Table as TableRecord

log = logging.getLogger("splitpot.room")
T = TypeVar("T")

LOGIN_RATE = 10  # login attempts a minute for one name from one address
TABLES_PER_HOST = 10  # open tables one player may host (bots' tables deal forever)
ADDRESS_RATE = 30  # sign-ups and logins a minute from one address
BOT_NAMES = ("Ada", "Bram", "Cleo", "Dov", "Edda", "Finn", "Gus", "Hana", "Ivo")


@dataclass(frozen=True, slots=True)
class RoomOptions:
    hand_pause: float = 3.0  # seconds between hands, to read the result
    street_pause: float = 1.5  # seconds more for each street of an all-in run-out
    show_pause: float = 0.7  # seconds more for each hand shown at the showdown
    reveal_wait: float = 2.0  # seconds players have to reveal their entropy at a deal
    bot_delay: float = 0.8  # seconds a bot "thinks"
    db_retry: float = 0.5  # seconds between tries while the database is away
    origins: tuple[str, ...] = ()  # pages on other origins allowed to open the WebSocket
    node: str | None = None  # this process's name among the room's (default: host:pid)
    lease_seconds: float = 5.0  # a table's lease, renewed three times as often
    guests_per_minute: int = 30  # new guests one address may make (load tests raise it)
    closing_wait: float = 10.0  # seconds a stopping room lets hands in play finish
    seed: int | None = None  # tests only: the decks' shuffles from this seed (None: secret)
    clock_scale: float = 1.0  # tests only: every table's clock runs this much faster


class Room:
    """All tables of one server process."""

    def __init__(self, store: Store, options: RoomOptions | None = None) -> None:
        self.store = store
        self.options = options or RoomOptions()
        self.tables: dict[str, TableActor] = {}
        self.connections: set[Connection] = set()
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._shuffles = None if self.options.seed is None else random.Random(self.options.seed)
        self.closing = False
        self._tries: dict[tuple[str, str], list[float]] = {}
        self._actions: list[tuple[ActionEntry, asyncio.Future[None]]] = []
        self._logger: asyncio.Task[None] | None = None
        self.node = self.options.node or f"{socket.gethostname()}:{os.getpid()}"
        self.holder = store.hold_leases(self.node)
        self._keeper: asyncio.Task[None] | None = None
        self._stopping: set[asyncio.Task[None]] = set()  # tables let go, being stopped

    async def db(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store's thread; retry while the database is away."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                return await loop.run_in_executor(self._db, partial(call, *args, **kwargs))
            except OperationalError as error:
                if self.closing:
                    raise
                log.warning("database unavailable (%s); retrying", error.orig)
                await asyncio.sleep(self.options.db_retry)
            except FencedOut as error:  # another process runs the table now: let it go
                self._let_go(error.table_id)
                raise

    def seed(self) -> int | None:
        """A seed for a deck's shuffle or a bot: None (secret randomness), unless the
        options give the room a seed (tests that need the same deals every run)."""
        return None if self._shuffles is None else self._shuffles.getrandbits(64)

    def rng(self) -> random.Random | None:
        """A seeded generator for the fair deal's secrets in tests, else None (secret)."""
        seed = self.seed()
        return None if seed is None else random.Random(seed)

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
                await self.db(self.store.append_actions, [entry for entry, _ in batch])
            except Exception:  # one bad action must not fail the others: each alone
                for entry, done in batch:
                    try:
                        await self.db(self.store.append_action, *entry)
                    except Exception as error:
                        _answer(done, error)
                    else:
                        _answer(done, None)
                continue
            for _, done in batch:
                _answer(done, None)

    # ------------------------------------------------------------ tables

    async def open(self) -> None:
        """Bring back every open table of the store that no other process runs, resuming
        hands left in play; then keep their leases, and take over tables left free."""
        for record in await self.db(self.store.list_tables, include_private=True):
            await self._take(record)
        self._keeper = asyncio.create_task(self._keep_leases(), name="leases")

    async def _take(self, record: TableRecord) -> None:
        """Run the table here if its lease can be had: rebuilt from the store, its hand in
        play resumed from the log."""
        if not await self.db(self.store.claim_table, record.id, self.options.lease_seconds):
            return  # another process runs it
        try:
            actor = await restore_table(self, record)
        except Exception:  # one table that cannot come back must not keep the room shut
            log.exception("table %s could not be restored; it stays closed", record.id)
            return
        self.tables[actor.id] = actor
        actor.start()

    async def _keep_leases(self) -> None:
        """Renew this process's leases; let go of tables another process took; take the
        tables no process holds (their process stopped or died)."""
        while not self.closing:
            await asyncio.sleep(self.options.lease_seconds / 3)
            try:
                for table_id in await self.db(self.store.renew_leases, self.options.lease_seconds):
                    self._let_go(table_id)
                for table_id in await self.db(self.store.free_tables):
                    if table_id not in self.tables and not self.closing:
                        await self._take(await self.db(self.store.table, table_id))
            except Exception:  # the next round tries again
                log.exception("the table leases could not be kept")

    def _let_go(self, table_id: str) -> None:
        """Stop running a table whose lease is lost: no write of this process reaches the
        store for it any more (fenced), and its clients are let go to find it again."""
        actor = self.tables.pop(table_id, None)
        self.holder.fences.pop(table_id, None)
        if actor is None:
            return
        log.warning("table %s: another process runs it now; stopping it here", table_id)
        actor.closed = True
        for connection in list(actor.watchers):
            connection.drop(f"table {table_id} moved to another process")
        stopping = asyncio.get_running_loop().create_task(actor.stop())
        self._stopping.add(stopping)  # held until done: the loop keeps only weak references
        stopping.add_done_callback(self._stopping.discard)

    async def create_table(
        self, settings: TableSettings, host: Player
    ) -> tuple[TableActor, str | None]:
        """A new table with its host, and its bots seated; the invite of a private table."""
        hosted = sum(1 for actor in self.tables.values() if actor.host_id == host.id)
        if hosted >= TABLES_PER_HOST:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED, f"a player may host at most {TABLES_PER_HOST} tables"
            )
        bots = [
            await self.db(self.store.create_guest, f"{name} (bot)")
            for name in random.sample(BOT_NAMES, settings.bots)
        ]
        document = settings.to_json() | {"bot_players": [bot.player.id for bot in bots]}
        record, invite = await self.db(
            self.store.create_table, settings.name, document, host.id, private=settings.private
        )
        await self.db(self.store.claim_table, record.id, self.options.lease_seconds)
        actor = TableActor(self, record.id, settings, host.id)
        self.tables[record.id] = actor
        for seat, bot in enumerate(bots, start=1):
            buy_in = actor.table.config.max_buy_in
            await self.db(self.store.sit, record.id, seat + 1, bot.player.id, buy_in)
            actor.table.sit(seat, bot.player.name, buy_in)
            actor.add_bot(seat, bot.player, self.seed())
        actor.start()
        return actor, invite

    def actor(self, table_id: object) -> TableActor:
        actor = self.tables.get(table_id) if isinstance(table_id, str) else None
        if actor is None:
            raise ProtocolError(ErrorCode.UNKNOWN_TABLE, f"there is no table {table_id!r}")
        return actor

    def seated(self, player_id: int) -> list[TableActor]:
        return [actor for actor in self.tables.values() if actor.seat_of(player_id) is not None]

    async def command(
        self, actor: TableActor, connection: Connection, name: str, **fields: Any
    ) -> None:
        await actor.submit(Command(connection, name, fields))

    async def close(self) -> None:
        """Stop taking hands; let hands in play finish (bounded), then stop every table."""
        self.closing = True
        for actor in self.tables.values():
            actor.paused = True
        deadline = time.monotonic() + self.options.closing_wait
        while any(a.table.hand is not None or a.hand_id is not None for a in self.tables.values()):
            if time.monotonic() > deadline:
                break  # what is left resumes from the log on the next start
            await asyncio.sleep(0.05)
        if self._keeper is not None:
            self._keeper.cancel()
        for actor in list(self.tables.values()):
            await actor.stop()
            await self._release(actor.id)
        self._db.shutdown(wait=True)

    async def _release(self, table_id: str) -> None:
        """Give the table's lease up (another process may take it at once), unless the
        database is away: then it lapses by itself."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.db(self.store.release_table, table_id), 2)

    async def may_see(self, actor: TableActor, invite: str | None, player: Player | None) -> bool:
        """A private table is seen by its host, its players and whoever has the invite."""
        if not actor.settings.private:
            return True
        if player is not None and (
            player.id == actor.host_id or actor.seat_of(player.id) is not None
        ):
            return True
        return bool(invite) and await self.db(self.store.check_invite, actor.id, invite)

    def end_session(self, token: str) -> None:
        """A session logged out: its live WebSockets are let go at once (its token is
        refused from now on, so they cannot say hello again)."""
        session = token_hash(token)
        for connection in list(self.connections):
            if connection.session == session:
                connection.drop("logged out", POLICY)

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """A browser's WebSocket must come from the room's own pages (or a listed origin);
        clients that send no Origin (terminal clients, bots) are not browsers."""
        if origin is None:
            return True
        if origin in self.options.origins:
            return True
        return host is not None and urlsplit(origin).netloc == host

    def login_attempt(self, address: str, name: str) -> None:
        """At most LOGIN_RATE tries a minute for one name from one address, and
        ADDRESS_RATE for all names from one address (password hashing is costly)."""
        self._spend(
            "too many login attempts: wait a minute",
            ((address, "name:" + name.strip().lower()), LOGIN_RATE),
            ((address, ""), ADDRESS_RATE),
        )

    def guest_made(self, address: str) -> None:
        """At most ``guests_per_minute`` new guests a minute from one address: each is a
        player and a session in the database."""
        self._spend(
            "too many new guests from one address: wait a minute",
            ((address, "guests"), self.options.guests_per_minute),
        )

    def _spend(self, refusal: str, *allowances: tuple[tuple[str, str], int]) -> None:
        """One more try against each (key, most a minute), or refused (nothing counted)."""
        now = time.monotonic()
        if len(self._tries) > 10_000:  # forget the addresses that have gone quiet
            self._tries = {k: t for k, t in self._tries.items() if now - t[-1] < 60}
        recent = {
            key: [t for t in self._tries.get(key, []) if now - t < 60] for key, _ in allowances
        }
        if any(len(recent[key]) >= most for key, most in allowances):
            raise ProtocolError(ErrorCode.RATE_LIMITED, refusal)
        for key, tries in recent.items():
            self._tries[key] = [*tries, now]

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
