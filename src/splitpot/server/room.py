"""The room: every table's actor, the store behind them, and the lobby's view of them.

The store is synchronous; its calls run one at a time on one worker thread, so the event
loop never waits on the database and SQLite sees a single writer. When the database is
away, a call is retried until it answers: the tables pause, nothing is lost.

With a cluster (``server/cluster.py``) this process is one of the room's: it runs the
tables whose leases it holds, and serves clients at every table: a command for a table
another process runs goes there through Redis, and its frames come back the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import random
import re
import socket
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, TypeVar
from urllib.parse import urlsplit

from redis.exceptions import RedisError
from sqlalchemy.exc import OperationalError

from splitpot.bots import make_bot
from splitpot.cards import Deck
from splitpot.fair import GENESIS, SEED_BYTES, PreOrder, random_bytes
from splitpot.protocol import ErrorCode, Hello, ProtocolError, Sit, TableMessage, Watch, read_frame
from splitpot.room.commands import Person
from splitpot.room.effects import DealSecrets
from splitpot.room.host import HostOptions, Steps, TableHost
from splitpot.room.settings import TableSettings, parse_settings
from splitpot.server.actor import TableActor
from splitpot.server.cluster import Cluster, NoOwner, Unreachable, deal, least_loaded
from splitpot.server.commands import request, unwatch
from splitpot.server.connection import POLICY, Connection, RemoteConnection
from splitpot.server.errors import no_table, refusal
from splitpot.server.hand_cache import HandDocuments
from splitpot.server.lobby import TableFacts, facts, stored_facts, summary
from splitpot.server.recovery import restore_table
from splitpot.store import ActionEntry, FencedOut, NotFound, Player, Store, token_hash
from splitpot.store import Table as TableRecord
from splitpot.store.players import name_key

log = logging.getLogger("splitpot.room")
T = TypeVar("T")

LOGIN_RATE = 10  # login attempts a minute for one name from one address
NAME_RATE = 20  # login attempts a minute for one name from all addresses together
TABLES_PER_HOST = 10  # open tables one player may host
ADDRESS_RATE = 30  # sign-ups and logins a minute from one address
OWNER_WAITS = (0.05, 0.1, 0.2, 0.4, 0.8)  # seconds between tries for a table with no owner
TABLE_ID = re.compile(r"[a-z0-9]{1,16}")  # the store's table ids are 8 of these
UNWATCHED = '{"type":"unwatched"'  # the start of a frame that ends a connection's watch
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")  # this machine, by a loopback address
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
    hand_lists_per_minute: int = 60  # GET .../hands one address may ask (up to 50 hands each)
    hands_per_minute: int = 600  # GET /api/hands/{id} one address may ask
    closing_wait: float = 10.0  # seconds a stopping room lets hands in play finish
    idle_pause: float = 120.0  # seconds a table of bots deals with no human there, then pauses
    idle_close: float = 1800.0  # seconds with no human before such a table closes
    bot_seats: int = 100  # bots seated at once in the whole room (the house's table aside)
    seed: int | None = None  # tests only: the decks' shuffles from this seed (None: secret)
    clock_scale: float = 1.0  # tests only: every table's clock runs this much faster
    url: str | None = None  # where clients reach this process (http://host:port)

    def host(self) -> HostOptions:
        """The tables' pace (``room/host.py``)."""
        return HostOptions(
            self.hand_pause,
            self.street_pause,
            self.show_pause,
            self.reveal_wait,
            self.bot_delay,
            self.idle_pause,
            self.idle_close,
            self.clock_scale,
        )


class Room:
    """All tables of one server process."""

    def __init__(
        self, store: Store, options: RoomOptions | None = None, cluster: Cluster | None = None
    ) -> None:
        self.store = store
        self.options = options or RoomOptions()
        self.cluster = cluster
        self.tables: dict[str, TableActor] = {}
        self.connections: dict[int, Connection] = {}  # this process's clients, by id
        # clients of other processes at tables run here: (table, process, their id)
        self.remote: dict[tuple[str, str, int], RemoteConnection] = {}
        self._fences: dict[str, int] = {}  # the newest owner's lease of each table, heard
        self._owners: dict[str, str] = {}  # the process each table's frames came from
        self._behind: set[tuple[int, str]] = set()  # (connection, table): frames were lost
        self._streams: dict[tuple[int, str], int] = {}  # (connection, table): its owner's fence
        self._free_since: dict[str, float] = {}  # tables no process held, since when
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._shuffles = None if self.options.seed is None else random.Random(self.options.seed)
        self.closing = False
        self._tries: dict[tuple[str, str], list[float]] = {}
        self._actions: list[tuple[ActionEntry, asyncio.Future[None]]] = []
        self._logger: asyncio.Task[None] | None = None
        self.node = self.options.node or f"{socket.gethostname()}:{os.getpid()}"
        self.holder = store.hold_leases(self.node)
        self._keeper: asyncio.Task[None] | None = None
        self._looker: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()  # work started and not awaited
        self._opening = asyncio.Lock()  # tables are opened one at a time: no two pass a cap
        self.documents = HandDocuments()  # finished hands as their readers get them

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

    def deal_secrets(self) -> DealSecrets:
        """A deal's secrets (FAIRNESS.md 1 and 2) and a draw's cards: the operating
        system's randomness, or, in tests, the options' seed."""
        rng = self.rng()
        draw = Deck(self.rng() or random.SystemRandom()).cards
        return DealSecrets(PreOrder.draw(rng), random_bytes(SEED_BYTES, rng), tuple(draw))

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
        """Join the room's other processes (with a cluster); bring back every open table
        of the store that no other process runs, resuming hands left in play; then keep
        their leases, and take over tables left free."""
        if self.cluster is not None:
            await self.cluster.start(self)
        for record in await self.db(self.store.list_tables, include_private=True):
            await self._take(record)
        self._keeper = asyncio.create_task(self._keep_leases(), name="leases")
        self._looker = asyncio.create_task(self._look_around(), name="free tables")
        await self._beat()

    async def _take(self, record: TableRecord) -> bool:
        """Run the table here if its lease can be had: rebuilt from the store, its hand in
        play resumed from the log. The other processes hear that it runs here."""
        if record.id in self.tables:
            return True
        if record.closed:
            return False
        if not await self.db(self.store.claim_table, record.id, self.options.lease_seconds):
            return False  # another process runs it
        try:
            actor, first = await restore_table(self, record, self.options.host())
        except Exception:  # one table that cannot come back must not keep the room shut
            log.exception("table %s could not be restored; it stays closed", record.id)
            return False
        await self._run(actor, first)
        return True

    async def _run(self, actor: TableActor, first: Steps | None = None) -> None:
        """Start a table's task (``first``: the steps it begins with); its commands from
        other processes come here from now on, and the processes whose clients watch it
        ask it for the table again."""
        self.tables[actor.id] = actor
        actor.start(first)
        if self.cluster is not None:
            await self.cluster.own(actor.id)
            self.cluster.moved(actor.id, self.holder.fences.get(actor.id, 0))
            await self._beat()

    async def _keep_leases(self) -> None:
        """Renew this process's leases, and let go of tables another process took; on a
        beat of its own, which nothing else holds up. A stopping room keeps its leases
        until it has handed its tables over."""
        while True:
            await asyncio.sleep(self.options.lease_seconds / 3)
            try:
                for table_id in await self.db(self.store.renew_leases, self.options.lease_seconds):
                    self._let_go(table_id)
            except Exception:  # the next beat tries again
                log.exception("the table leases could not be renewed")

    async def _look_around(self) -> None:
        """Beat (this process lives, with its load), then take the tables no process holds
        (their process stopped or died), this process's share of them first."""
        while not self.closing:
            await asyncio.sleep(self.options.lease_seconds / 3)
            try:
                await self._beat()  # and the others' beats, as they are now
                free = await self.db(self.store.free_tables)
                for table_id in self._share([t for t in free if t not in self.tables]):
                    if not self.closing:
                        await self._take(await self.db(self.store.table, table_id))
            except Exception:  # the next beat tries again
                log.exception("the free tables could not be taken")

    def _share(self, free: list[str]) -> list[str]:
        """The free tables this process takes now: its share of them, as every process
        deals them from the same beats (``cluster.deal``), so a dead process's tables
        spread out; and any still free a beat and a half later (its process did not take
        it)."""
        now = time.monotonic()
        self._free_since = {t: self._free_since.get(t, now) for t in free}
        cluster = self.cluster
        if cluster is None or not cluster.nodes:
            return free
        beats = 1.5 * self.options.lease_seconds / 3  # a process quiet longer may be dead
        loads = {node.id: node.tables for node in cluster.nodes if node.age < beats}
        loads[cluster.id] = len(self.tables)
        dealt = deal(free, loads)
        return [t for t in free if dealt[t] == cluster.id or now - self._free_since[t] > beats]

    async def _beat(self) -> None:
        """Tell the other processes this one lives, with its load and its tables' lobby
        entries; forget the clients of processes that died."""
        cluster = self.cluster
        if cluster is None or not cluster.connected:
            return
        entries = {table_id: {"summary": summary(a.host)} for table_id, a in self.tables.items()}
        try:
            await cluster.beat(entries, len(self.connections))
        except (RedisError, OSError) as error:
            log.warning("the beat did not reach Redis (%s)", error)
            return
        live = {node.id for node in cluster.nodes}
        for key, stub in list(self.remote.items()):
            if stub.node not in live:
                self._forget_remote(key)

    def _let_go(self, table_id: str) -> None:
        """Stop running a table whose lease is lost: no write of this process reaches the
        store for it any more (fenced). Alone, the room lets its clients go to find it
        again; in a cluster its new owner tells every process, and theirs ask it anew."""
        actor = self.tables.pop(table_id, None)
        self.holder.fences.pop(table_id, None)
        if actor is None:
            return
        log.warning("table %s: another process runs it now; stopping it here", table_id)
        actor.closed = True
        if self.cluster is None:
            for connection in list(actor.watchers):
                connection.drop(f"table {table_id} moved to another process")
        else:
            self._spawn(self.cluster.disown(table_id))
            for key in [key for key in self.remote if key[0] == table_id]:
                self._forget_remote(key)
            actor.watchers.clear()  # nothing more goes out from here
            self._spawn(self._watch_elsewhere(table_id))
        self._spawn(actor.stop())

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Work the room starts and does not wait for, held until done (the event loop
        keeps only weak references to tasks)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def create_table(
        self, settings: TableSettings, host: Player, *, house: bool = False
    ) -> tuple[dict[str, Any], str | None]:
        """A new table with its host and its bots, in the least-loaded process of the
        room: its lobby summary, and the invite of a private table. The house's table
        (``splitpot serve --bots``) is held to no player's limits."""
        async with self._opening:
            if not house:
                await self._within_limits(host, settings.bots)
            target = await self._placement()
            if target is not None and self.cluster is not None:
                body = {"settings": settings.to_json(), "host": player_json(host), "house": house}
                try:
                    answer = await self.cluster.ask(target, "create", body)
                    return answer["summary"], answer["invite"]
                except (Unreachable, TimeoutError, RedisError, OSError) as error:
                    log.warning("process %s did not open the table (%s): here", target, error)
            actor, invite = await self.create_here(settings, host, house=house)
            return summary(actor.host), invite

    async def _within_limits(self, host: Player, bots: int) -> None:
        """A player hosts at most TABLES_PER_HOST open tables, and the whole room seats at
        most ``bot_seats`` bots at once: a table that would pass either is refused."""
        if await self.db(self.store.hosted, host.id) >= TABLES_PER_HOST:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED, f"a player may host at most {TABLES_PER_HOST} tables"
            )
        if not bots:
            return
        seated, cap = await self.db(self.store.bot_seats), self.options.bot_seats
        if seated + bots > cap:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"the room seats at most {cap} bots at once and {seated} sit now: "
                f"{bots} more would pass that",
            )

    async def _placement(self) -> str | None:
        """The process a new table goes to, when it is not this one."""
        if self.cluster is None or not self.cluster.connected:
            return None
        await self._beat()  # this process's load as it is now, and the others' last
        best = least_loaded(self.cluster.nodes)
        return None if best is None or best.id == self.cluster.id else best.id

    async def create_here(
        self, settings: TableSettings, host: Player, *, house: bool = False
    ) -> tuple[TableActor, str | None]:
        """A new table run by this process, with its host, and its bots seated."""
        bots = [
            (await self.db(self.store.create_guest, f"{name} (bot)")).player
            for name in random.sample(BOT_NAMES, settings.bots)
        ]
        document = settings.to_json() | {"bot_players": [bot.id for bot in bots]}
        if house:
            document["house"] = True
        record, invite = await self.db(
            self.store.create_table, settings.name, document, host.id, private=settings.private
        )
        await self.db(self.store.claim_table, record.id, self.options.lease_seconds)
        table = TableHost(record.id, settings, host.id, self.options.host(), house=house)
        actor = TableActor(self, table, GENESIS)
        await self._sit_bots(actor, bots)
        await self._run(actor)
        return actor, invite

    async def _sit_bots(self, actor: TableActor, bots: list[Player]) -> None:
        """The bots of a table not yet running sit in seats 2, 3, ... with the maximum
        buy-in (the store first)."""
        host = actor.host
        buy_in = host.table.config.max_buy_in
        for seat, bot in enumerate(bots, start=1):
            await self.db(self.store.sit, actor.id, seat + 1, bot.id, buy_in)
            playing = make_bot("sensible", bot.name, self.seed())
            host.seat(seat, Person(bot.id, bot.name), buy_in, playing)

    async def reopen(self, table_id: str, player: Player) -> dict[str, Any]:
        """Its host opens a closed table again, here, with its hands and ledger: its bots
        sit again with the maximum buy-in (held to the limits of a new table); players
        sit anew. The table's lobby summary."""
        async with self._opening:
            record = await self._closed_table(table_id, player)
            bot_ids = list(record.settings.get("bot_players", []))
            await self._within_limits(player, len(bot_ids))
            record = await self.db(self.store.reopen_table, table_id)
            if not await self.db(self.store.claim_table, table_id, self.options.lease_seconds):
                return (await self.facts(table_id)).summary  # another process took it at once
            actor, first = await restore_table(self, record, self.options.host())
            await self._sit_bots(actor, [await self.db(self.store.player, i) for i in bot_ids])
            await self._run(actor, first)
            return summary(actor.host)

    async def _closed_table(self, table_id: str, player: Player) -> TableRecord:
        """The closed table ``player`` hosts, or the refusal that says why not (to anyone
        but its host, a private table is no table at all)."""
        record = None
        if TABLE_ID.fullmatch(table_id):  # not one the store makes: not worth a query
            with contextlib.suppress(NotFound):
                record = await self.db(self.store.table, table_id)
        if record is None or (record.private and player.id != record.host_id):
            raise no_table(table_id)
        if player.id != record.host_id:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, f"only the host of table {table_id} may reopen it"
            )
        if not record.closed:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"table {table_id} is open")
        return record

    async def facts(self, table_id: str, *, closed: bool = False) -> TableFacts:
        """A table wherever it runs: this process's own, else the store's (the system of
        record) with the summary its owner gave the lobby; a closed table only when
        ``closed`` (its history is read, nothing is done at it)."""
        actor = self.tables.get(table_id)
        if actor is not None:
            return facts(actor.host)
        if not TABLE_ID.fullmatch(table_id):  # not one the store makes: not worth a query
            raise no_table(table_id)
        try:
            record = await self.db(self.store.table, table_id)
        except NotFound:
            record = None
        if record is None or (record.closed and not closed):
            raise no_table(table_id)
        seats = await self.db(self.store.seats, table_id)
        banned = await self.db(self.store.bans, table_id)
        entry = (await self._directory()).get(table_id)
        return stored_facts(record, seats, banned, None if entry is None else entry["summary"])

    async def lobby(self) -> list[dict[str, Any]]:
        """The public tables of every process: this one's as they are, the others' as
        their owners last told (through Redis)."""
        listed = [summary(a.host) for a in self.tables.values() if not a.host.settings.private]
        others = await self._directory()
        for table_id in sorted(others):
            entry = others[table_id]["summary"]
            if table_id not in self.tables and not entry.get("private"):
                listed.append(entry)
        return listed

    async def _directory(self) -> dict[str, Any]:
        if self.cluster is None or not self.cluster.connected:
            return {}
        try:
            return await self.cluster.directory()
        except (RedisError, OSError):
            return {}

    def servers(self) -> list[str]:
        """Where clients may reach the room: every live process, this one first (once
        each: behind a load balancer they all give its address)."""
        if self.cluster is not None and self.cluster.nodes:
            return list(dict.fromkeys(node.url for node in self.cluster.nodes))
        return [self.options.url] if self.options.url else []

    # ------------------------------------------------------------ commands

    async def send(self, connection: Connection, command: TableMessage, text: str) -> None:
        """A client's command to its table, run here or by another process (``text`` is
        the frame as the client sent it, for the other to read the same way). A watch
        is remembered, to ask again for the table when it moves."""
        if connection.player is None and not isinstance(command, Watch):
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "a watcher may only watch: say hello with a token"
            )
        table_id = command.table
        watches = isinstance(command, Watch | Sit) and table_id not in connection.watching
        if watches:  # before the answer: the table's frames may come first
            connection.watching[table_id] = getattr(command, "invite", None)
        try:
            await self._route(connection, command, text)
        except BaseException as error:
            moving = (
                isinstance(error, ProtocolError)
                and error.code is ErrorCode.TRY_AGAIN
                and isinstance(command, Watch)
            )
            if watches and not moving:  # a table between owners comes when it has one
                connection.watching.pop(table_id, None)
            raise
        if isinstance(command, Watch) and command.invite:
            connection.watching[table_id] = command.invite

    async def _route(self, connection: Connection, command: TableMessage, text: str) -> None:
        message = {"conn": connection.id, "player": player_json(connection.player), "text": text}
        for pause in OWNER_WAITS:  # a table between owners has one again within moments
            actor = self.tables.get(command.table)
            if actor is not None:  # run here (perhaps since the last try)
                await actor.submit(request(connection, command))
                return
            if self.cluster is None:
                raise no_table(command.table)
            try:
                await self.cluster.forward(command.table, message)
                return
            except NoOwner:
                await self.facts(command.table)  # unknown_table, if it is no table at all
            await asyncio.sleep(pause)
        moving = f"table {command.table} is moving to another process: send it again"
        raise ProtocolError(ErrorCode.TRY_AGAIN, moving)

    async def rejoin(self, connection: Connection) -> None:
        """After hello: every table where the player sits, wherever it runs, sends its
        ``table`` (then a ``turn``)."""
        player = connection.player
        if player is None:
            return
        for table_id in await self.db(self.store.tables_of, player.id):
            await self._watch_again(connection, table_id)

    async def _watch_again(self, connection: Connection, table_id: str) -> None:
        """Ask the table for the whole of it again (after hello, or when it moved), a few
        times while it changes hands."""
        invite = connection.watching.get(table_id)
        command = Watch(table_id, invite)
        asked = {"type": "watch", "table": table_id} | ({"invite": invite} if invite else {})
        text = json.dumps(asked)
        for attempt in range(1, 6):
            try:
                await self.send(connection, command, text)
                if table_id in self.tables:  # run here now: its snapshot came directly
                    self._behind.discard((connection.id, table_id))
                return
            except ProtocolError as error:
                if error.code is not ErrorCode.TRY_AGAIN or connection.closed:
                    log.info("table %s cannot be watched again: %s", table_id, error.message)
                    break
            await asyncio.sleep(0.2 * attempt)
        self._behind.discard((connection.id, table_id))

    def goodbye(self, connection: Connection) -> None:
        """A client went: every table it watched forgets it."""
        self.connections.pop(connection.id, None)
        for table_id in connection.watching:
            self._behind.discard((connection.id, table_id))
            self._streams.pop((connection.id, table_id), None)
            actor = self.tables.get(table_id)
            if actor is not None:
                actor.submit_nowait(unwatch(connection))
            elif self.cluster is not None:
                self.cluster.unwatch(table_id, connection.id)

    # ------------------------------------------------------------ the cluster's messages

    async def on_command(self, table_id: str, message: dict[str, Any]) -> None:
        """A command from a client of another process for a table run here (or of this
        one, sent before the table came here: then the client is its own connection);
        answered to that process after the frames it made. A table gone from here does not
        answer: its new owner does, or the sender gives up and asks again."""
        actor = self.tables.get(table_id)
        cluster = self.cluster
        if actor is None or actor.closed or cluster is None:
            return
        node, asked = message["from"], message["id"]
        here = self.connections.get(message["conn"]) if node == cluster.id else None
        if node == cluster.id and here is None:
            return  # a client of this process that has gone since
        stub = here or self._remote(actor, node, message["conn"], message["player"])
        try:
            command = read_frame(message["text"])
            if isinstance(command, Hello):
                raise ProtocolError(ErrorCode.BAD_MESSAGE, "hello comes once, first")
            await actor.submit(request(stub, command))
        except Exception as error:
            failure = refusal(error)
            if actor.closed:
                return
            if failure.code is ErrorCode.SERVER_ERROR:
                log.exception("table %s: a command from %s failed", table_id, node)
            cluster.answer(node, asked, {"code": failure.code.value, "message": failure.message})
        else:
            cluster.answer(node, asked, {})

    def _remote(
        self, actor: TableActor, node: str, connection: int, player: dict[str, Any] | None
    ) -> RemoteConnection:
        key = (actor.id, node, connection)
        stub = self.remote.get(key)
        if stub is None:
            stub = RemoteConnection(
                player_of(player), node=node, remote_id=connection, cluster=self.cluster,
                table_id=actor.id, fence=self.holder.fences.get(actor.id, 0),
            )  # fmt: skip
            self.remote[key] = stub
        return stub

    def on_unwatch(self, table_id: str, node: str, connection: int) -> None:
        self._forget_remote((table_id, node, connection))

    def _forget_remote(self, key: tuple[str, str, int]) -> None:
        stub = self.remote.pop(key, None)
        if stub is None:
            return
        stub.close()
        actor = self.tables.get(key[0])
        if actor is not None:
            actor.submit_nowait(unwatch(stub))

    def on_frame(
        self, owner: str, table_id: str, fence: int, connections: list[int], frame: str
    ) -> None:
        """A frame of a table another process runs, for connections of this one; from a
        process that lost the table (an older fencing number), nothing. A connection that
        has gone, or stopped watching, is forgotten there too. A connection whose frames
        were lost on the way, or whose table's owner changed, gets nothing of the table
        but the whole table again: its new owner's stream starts with it."""
        if fence < self._fences.get(table_id, 0):
            return
        self._fences[table_id] = fence
        self._owners[table_id] = owner
        for connection_id in connections:
            connection = self.connections.get(connection_id)
            if connection is None or table_id not in connection.watching:
                if self.cluster is not None:
                    self.cluster.unwatch(table_id, connection_id)
                continue
            stream = (connection_id, table_id)
            moved = self._streams.get(stream, fence) != fence
            if stream in self._behind or moved:
                if json.loads(frame).get("type") != "table":  # not where the stream starts
                    if stream not in self._behind:
                        self._behind.add(stream)
                        self._spawn(self._watch_again(connection, table_id))
                    continue
                self._behind.discard(stream)
            self._streams[stream] = fence
            connection.send(frame)
            if frame.startswith(UNWATCHED):  # its owner sends it the table no more
                connection.watching.pop(table_id, None)
                self._streams.pop(stream, None)
                if self.cluster is not None:
                    self.cluster.unwatch(table_id, connection_id)

    def on_gap(self, owner: str) -> None:
        """Frames from a process were lost (Redis was away, or took a batch no more): its
        tables' clients here ask for them whole, and get nothing of them until then."""
        self._catch_up({table for table, source in self._owners.items() if source == owner})

    def _catch_up(self, tables: set[str]) -> None:
        for connection in list(self.connections.values()):
            for table_id in tables & set(connection.watching):
                if table_id not in self.tables:
                    self._behind.add((connection.id, table_id))
                    self._spawn(self._watch_again(connection, table_id))

    async def on_question(self, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        """Another process asks this one to open a new table, or to take one over."""
        if kind == "create":
            settings = parse_settings(body["settings"])
            host = player_of(body["host"])
            assert host is not None
            actor, invite = await self.create_here(settings, host, house=bool(body.get("house")))
            return {"summary": summary(actor.host), "invite": invite}
        if kind == "take":
            if self.closing:
                return {"took": False}
            return {"took": await self._take(await self.db(self.store.table, body["table"]))}
        raise ValueError(f"no such question: {kind!r}")

    async def on_moved(self, table_id: str, fence: int) -> None:
        """A table is run by another process now (or again, after Redis was away), under
        the lease ``fence``: every client here that watches it asks for it again and gets
        it whole, from its new owner only."""
        self._fences[table_id] = max(fence, self._fences.get(table_id, 0))
        await self._watch_elsewhere(table_id)

    async def _watch_elsewhere(self, table_id: str) -> None:
        """This process's clients watching the table ask whoever runs it for it again."""
        for connection in list(self.connections.values()):
            if table_id in connection.watching and not connection.closed:
                self._spawn(self._watch_again(connection, table_id))

    def on_logout(self, session: str) -> None:
        """A session ended in some process: its connections here go too."""
        for connection in list(self.connections.values()):
            if connection.session == session:
                connection.drop("logged out", POLICY)

    async def on_reconnected(self) -> None:
        """Redis was away and messages were lost: say again which tables run here (their
        watchers elsewhere ask for them whole), and ask again for the tables other
        processes run that this one's clients watch."""
        assert self.cluster is not None
        for table_id in self.tables:
            self.cluster.moved(table_id, self.holder.fences.get(table_id, 0))
        watched = {t for c in self.connections.values() for t in c.watching}
        self._catch_up(watched - set(self.tables))
        await self._beat()

    # ------------------------------------------------------------ stopping

    async def close(self) -> None:
        """Stop taking hands; hand each table over as soon as it is between hands (the
        leases kept meanwhile), up to ``closing_wait``; what is left in play resumes from
        its log in the process that takes it next."""
        self.closing = True
        for actor in self.tables.values():
            actor.hold()
        deadline = time.monotonic() + self.options.closing_wait
        while self.tables and time.monotonic() < deadline:
            for actor in list(self.tables.values()):
                if actor.host.between_hands():
                    await self._hand_over(actor)
            await asyncio.sleep(0.05)
        for task in (self._keeper, self._looker):
            if task is not None:
                task.cancel()
        for actor in list(self.tables.values()):
            await self._hand_over(actor)
        if self.cluster is not None:
            await self.cluster.stop()
        self.documents.close()
        self._db.shutdown(wait=True)

    async def _hand_over(self, actor: TableActor) -> None:
        """Stop the table here and give its lease up; in a cluster, the least-loaded other
        process is asked to take it at once."""
        await self._stop_here(actor)
        cluster = self.cluster
        if cluster is None or not cluster.connected:
            return
        target = least_loaded([node for node in cluster.nodes if node.id != cluster.id])
        if target is not None:
            self._spawn(self._ask_to_take(target.id, actor.id))

    def retire(self, actor: TableActor) -> None:
        """A table closed (by its host, or left to its bots) stops here and gives its lease
        up: no process runs it until its host reopens it."""
        self.tables.pop(actor.id, None)
        actor.closed = True
        self._spawn(self._stop_here(actor))

    async def _stop_here(self, actor: TableActor) -> None:
        """Stop the table's task here, give its lease up, and take it out of the lobby."""
        self.tables.pop(actor.id, None)
        await actor.stop()
        await self._release(actor.id)
        cluster = self.cluster
        if cluster is not None and cluster.connected:
            with contextlib.suppress(RedisError, OSError):
                await cluster.disown(actor.id)
                await cluster.forget([actor.id])

    async def _ask_to_take(self, node: str, table_id: str) -> None:
        with contextlib.suppress(Unreachable, TimeoutError, RedisError, OSError):
            await self.cluster.ask(node, "take", {"table": table_id})  # type: ignore[union-attr]

    async def _release(self, table_id: str) -> None:
        """Give the table's lease up (another process may take it at once), unless the
        database is away: then it lapses by itself."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.db(self.store.release_table, table_id), 2)

    async def may_see(self, table: TableFacts, invite: str | None, player: Player | None) -> bool:
        """A private table is seen by its host, its players and whoever has the invite. A
        player its host banned sees nothing of it: refused, saying so."""
        if player is not None and player.id in table.banned:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, f"{player.name} is banned from table {table.id}"
            )
        if not table.private:
            return True
        if player is not None and (player.id == table.host_id or player.id in table.players):
            return True
        return bool(invite) and await self.db(self.store.check_invite, table.id, invite)

    def end_session(self, token: str) -> None:
        """A session logged out: its live WebSockets, in every process, are let go at once
        (its token is refused from now on, so they cannot say hello again)."""
        session = token_hash(token)
        self.on_logout(session)
        if self.cluster is not None:
            self.cluster.logout(session)

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """A browser's WebSocket must come from the room's own pages (or a listed origin);
        clients that send no Origin (terminal clients, bots) are not browsers."""
        if origin is None:
            return True
        if origin in self.options.origins or origin in self.servers():
            return True
        return host is not None and urlsplit(origin).netloc == host

    def host_allowed(self, host: str, local: str | None) -> bool:
        """A request must name the room in its Host header, or another site's name pointed
        at this machine (DNS rebinding) would reach it with that site's pages: the address
        it came in on (``local``; a loopback one by any loopback name), or the host of
        ``url`` or of a listed origin. The port is not compared (a proxy's may differ)."""
        try:
            name = urlsplit(f"//{host}").hostname
        except ValueError:  # an unclosed [ of an IPv6 address
            return False
        own = {urlsplit(url).hostname for url in (self.options.url, *self.options.origins) if url}
        if local is not None:
            own.add(local)
            if _is_loopback(local):
                own.update(LOOPBACK_NAMES)
        return name is not None and name in own

    def login_attempt(self, address: str, name: str) -> None:
        """At most LOGIN_RATE tries a minute for one name from one address, NAME_RATE for
        one name from all addresses (a guesser with many addresses), and ADDRESS_RATE for
        all names from one address (password hashing is costly). Names count as accounts
        compare them."""
        key = "name:" + name_key(name.strip())
        self._spend(
            "too many login attempts: wait a minute",
            ((address, key), LOGIN_RATE),
            (("*", key), NAME_RATE),
            ((address, ""), ADDRESS_RATE),
        )

    def guest_made(self, address: str) -> None:
        """At most ``guests_per_minute`` new guests a minute from one address: each is a
        player and a session in the database."""
        self._spend(
            "too many new guests from one address: wait a minute",
            ((address, "guests"), self.options.guests_per_minute),
        )

    def hands_read(self, address: str, *, listed: bool) -> None:
        """Hand histories cost CPU to build (each hand is replayed): at most
        ``hand_lists_per_minute`` lists of a table's hands (``listed``) and
        ``hands_per_minute`` single hands a minute from one address."""
        if listed:
            kind, most = "lists of hands", self.options.hand_lists_per_minute
        else:
            kind, most = "hands", self.options.hands_per_minute
        refusal = f"too many {kind} asked from one address: wait a minute"
        self._spend(refusal, ((address, kind), most))

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


def _is_loopback(address: str) -> bool:
    """Whether ``address`` is a loopback IP address (not a name, not a Unix socket's path)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def _answer(done: asyncio.Future[None], error: Exception | None) -> None:
    """Answer a waiting table, unless it has stopped waiting (a table being stopped)."""
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


def player_json(player: Player | None) -> dict[str, Any] | None:
    """A player as one process tells another."""
    if player is None:
        return None
    created = player.created_at.isoformat()
    return {"id": player.id, "name": player.name, "guest": player.guest, "created": created}


def player_of(body: dict[str, Any] | None) -> Player | None:
    if body is None:
        return None
    created = datetime.fromisoformat(body["created"])
    return Player(int(body["id"]), str(body["name"]), bool(body["guest"]), created)
