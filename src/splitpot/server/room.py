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
import logging
import os
import random
import re
import socket
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from redis.exceptions import RedisError

from splitpot.bots import make_bot
from splitpot.cards import Deck
from splitpot.fair import GENESIS, SEED_BYTES, PreOrder, random_bytes
from splitpot.i18n import said
from splitpot.protocol import ErrorCode, ProtocolError
from splitpot.room.commands import Person
from splitpot.room.effects import DealSecrets
from splitpot.room.host import Steps, TableHost
from splitpot.room.settings import TableSettings
from splitpot.server.actor import TableActor
from splitpot.server.cluster import Cluster, Unreachable
from splitpot.server.errors import no_table
from splitpot.server.guard import Guard
from splitpot.server.hand_cache import HandDocuments
from splitpot.server.lobby import TableFacts, facts, stored_facts, summary
from splitpot.server.options import RoomOptions
from splitpot.server.placement import deal, least_loaded
from splitpot.server.recovery import restore_table
from splitpot.server.routing import Routing, player_json
from splitpot.server.schedule import keep_schedule
from splitpot.server.storage import Storage
from splitpot.server.tournaments import Tournaments
from splitpot.store import NotFound, Player, Store, StoredHand, TableRecord

log = logging.getLogger("splitpot.room")
T = TypeVar("T")

# What one player may host (docs/room.md "Limits"): a weekly host, whose old tables empty
# and close by themselves, never meets them; a player making tables to fill the room does.
TABLES_PER_HOST = 10  # open tables with a player seated
OPEN_TABLES_PER_HOST = 50  # open tables, empty ones too (an empty table closes in a week)
TABLES_PER_DAY = 20  # tables made in 24 hours
TABLE_ID = re.compile(r"[a-z0-9]{1,16}")  # the store's table ids are 8 of these
BOT_NAMES = ("Ada", "Bram", "Cleo", "Dov", "Edda", "Finn", "Gus", "Hana", "Ivo")


class Room:
    """All tables of one server process."""

    def __init__(
        self, store: Store, options: RoomOptions | None = None, cluster: Cluster | None = None
    ) -> None:
        self.store = store
        self.options = options or RoomOptions()
        self.cluster = cluster
        self.tables: dict[str, TableActor] = {}
        self._taking: set[str] = set()  # tables whose lease this process is claiming
        self.storage = Storage(store, self.options.db_retry, self._let_go)
        self.guard = Guard(self.options, self.servers)
        self.routing = Routing(self)
        self._free_since: dict[str, float] = {}  # tables no process held, since when
        self._shuffles = None if self.options.seed is None else random.Random(self.options.seed)
        self.closing = False
        self.node = self.options.node or f"{socket.gethostname()}:{os.getpid()}"
        self.holder = store.hold_leases(self.node)
        self._keeper: asyncio.Task[None] | None = None
        self._looker: asyncio.Task[None] | None = None
        self._schedule: asyncio.Task[None] | None = None  # the clubs' weekly games
        self._background: set[asyncio.Task[Any]] = set()  # work started and not awaited
        self._opening = asyncio.Lock()  # tables are opened one at a time: no two pass a cap
        self.documents = HandDocuments()  # finished hands as their readers get them
        self.tournaments = Tournaments(self)  # those this process directs (RULES.md 8)

    @property
    def others(self) -> Cluster | None:
        """The room's other processes, when it has them and Redis answers."""
        return self.cluster if self.cluster is not None and self.cluster.connected else None

    async def db(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A store call on the store's thread (``Storage.db``)."""
        return await self.storage.db(call, *args, **kwargs)

    async def log_action(
        self, hand_id: str, seq: int, seat: int, kind: str, amount: int | None
    ) -> None:
        """Action ``seq`` of a hand logged, in the next batch (``Storage.log_action``)."""
        await self.storage.log_action(hand_id, seq, seat, kind, amount)

    async def start_hand(self, table_id: str, setup: dict[str, Any]) -> StoredHand:
        """The table's next hand stored, in the next batch (``Storage.start_hand``)."""
        return await self.storage.start_hand(table_id, setup)

    async def finish_hand(
        self, hand_id: str, record: dict[str, Any], results: Mapping[int, int], rake: int
    ) -> StoredHand:
        """A hand's end stored, in the next batch (``Storage.finish_hand``)."""
        return await self.storage.finish_hand(hand_id, record, results, rake)

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

    # ------------------------------------------------------------ tables

    async def open(self) -> None:
        """Join the room's other processes (with a cluster); bring back every open table
        of the store that no other process runs, resuming hands left in play; then keep
        their leases, and take over tables left free."""
        if self.cluster is not None:
            await self.cluster.start(self.routing)
        for record in await self.db(self.store.list_tables, include_private=True):
            await self.take(record)
        await self.tournaments.look_around()
        self._keeper = asyncio.create_task(self._keep_leases(), name="leases")
        self._looker = asyncio.create_task(self._look_around(), name="free tables")
        every = self.options.schedule_seconds
        self._schedule = asyncio.create_task(keep_schedule(self, every), name="weekly games")
        await self.beat()

    async def take(self, record: TableRecord) -> bool:
        """Run the table here if its lease can be had: rebuilt from the store, its hand in
        play resumed from the log. The other processes hear that it runs here."""
        if record.id in self.tables or record.id in self._taking:
            return True  # run here, or being taken (a process never claims a table twice)
        if record.closed:
            return False
        self._taking.add(record.id)
        try:
            if not await self.db(self.store.claim_table, record.id, self.options.lease_seconds):
                return False  # another process runs it
            try:
                actor, first = await restore_table(self, record, self.options.host())
            except Exception:  # one table that cannot come back must not keep the room shut
                log.exception("table %s could not be restored; it stays closed", record.id)
                return False
            await self._run(actor, first)
            return True
        finally:
            self._taking.discard(record.id)

    async def _run(self, actor: TableActor, first: Steps | None = None) -> None:
        """Start a table's task (``first``: the steps it begins with); its commands from
        other processes come here from now on, and the processes whose clients watch it
        ask it for the table again."""
        self.tables[actor.id] = actor
        actor.start(first)
        if self.cluster is not None:
            await self.cluster.own(actor.id)
            self.cluster.moved(actor.id, self.holder.fences.get(actor.id, 0))
            await self.beat()

    async def _keep_leases(self) -> None:
        """Renew this process's leases, and let go of tables another process took; on a
        beat of its own, which nothing else holds up. A stopping room keeps its leases
        until it has handed its tables over."""
        while True:
            await asyncio.sleep(self.options.lease_seconds / 3)
            try:
                for table_id in await self.db(self.store.renew_leases, self.options.lease_seconds):
                    self._let_go(table_id)
                await self.tournaments.renew()
            except Exception:  # the next beat tries again
                log.exception("the table leases could not be renewed")

    async def _look_around(self) -> None:
        """Beat (this process lives, with its load), then take the tables no process holds
        (their process stopped or died), this process's share of them first."""
        while not self.closing:
            await asyncio.sleep(self.options.lease_seconds / 3)
            try:
                await self.beat()  # and the others' beats, as they are now
                free = await self.db(self.store.free_tables)
                for table_id in self._share([t for t in free if t not in self.tables]):
                    if not self.closing:
                        await self.take(await self.db(self.store.table, table_id))
                await self.tournaments.look_around()
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

    async def beat(self) -> None:
        """Tell the other processes this one lives, with its load and its tables' lobby
        entries; forget the clients of processes that died."""
        cluster = self.cluster
        if cluster is None or not cluster.connected:
            return
        entries = {table_id: {"summary": summary(a.host)} for table_id, a in self.tables.items()}
        try:
            await cluster.beat(entries, len(self.routing.connections))
        except (RedisError, OSError) as error:
            log.warning("the beat did not reach Redis (%s)", error)
            return
        self.routing.forget_the_dead({node.id for node in cluster.nodes})

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
            self.spawn(self.cluster.disown(table_id))
            actor.watchers.clear()  # nothing more goes out from here
            self.routing.forget_table(table_id)
        self.spawn(actor.stop())

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Work the room starts and does not wait for, held until done (the event loop
        keeps only weak references to tasks)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def create_table(
        self, settings: TableSettings, host: Player, *, house: bool = False, club: str | None = None
    ) -> tuple[dict[str, Any], str | None]:
        """A new table with its host and its bots, in the least-loaded process of the
        room: its lobby summary, and the invite of a private table. The house's table
        (``splitpot serve --bots``) is held to no player's limits; a ``club``'s table is
        seen by the club's members (and has no invite)."""
        async with self._opening:
            if not house:
                await self._within_limits(host, settings.bots)
            target = await self._placement()
            if target is not None and self.cluster is not None:
                body = {
                    "settings": settings.to_json(),
                    "host": player_json(host),
                    "house": house,
                    "club": club,
                }
                try:
                    answer = await self.cluster.ask(target, "create", body)
                    return answer["summary"], answer["invite"]
                except (Unreachable, TimeoutError, RedisError, OSError) as error:
                    log.warning("process %s did not open the table (%s): here", target, error)
            actor, invite = await self.create_here(settings, host, house=house, club=club)
            return summary(actor.host), invite

    async def _within_limits(self, host: Player, bots: int) -> None:
        """A player hosts at most TABLES_PER_HOST tables in use, OPEN_TABLES_PER_HOST open
        ones, and makes at most TABLES_PER_DAY a day; the whole room seats at most
        ``bot_seats`` bots at once: a table that would pass any of them is refused."""
        hosting = await self.db(self.store.hosting, host.id)
        if hosting.in_use >= TABLES_PER_HOST:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                said(
                    "a player may host at most {most} tables where players sit: close one first",
                    most=TABLES_PER_HOST,
                ),
            )
        if hosting.open >= OPEN_TABLES_PER_HOST:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                said(
                    "a player may host at most {most} open tables: close one first (an empty "
                    "table closes by itself after a week)",
                    most=OPEN_TABLES_PER_HOST,
                ),
            )
        if hosting.made >= TABLES_PER_DAY:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                said("a player may make at most {most} tables in 24 hours", most=TABLES_PER_DAY),
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
        await self.beat()  # this process's load as it is now, and the others' last
        best = least_loaded(self.cluster.nodes)
        return None if best is None or best.id == self.cluster.id else best.id

    async def create_here(
        self, settings: TableSettings, host: Player, *, house: bool = False, club: str | None = None
    ) -> tuple[TableActor, str | None]:
        """A new table run by this process, with its host, and its bots seated."""
        bots = [
            (await self.db(self.store.create_guest, f"{name} (bot)")).player
            for name in random.sample(BOT_NAMES, settings.bots)
        ]
        document = settings.to_json() | {"bot_players": [bot.id for bot in bots]}
        if house:
            document["house"] = True
        if club is None:
            record, invite = await self.db(
                self.store.create_table, settings.name, document, host.id, private=settings.private
            )
        else:
            record = await self.db(
                self.store.create_club_table, club, settings.name, document, host.id
            )
            invite = None
        self._taking.add(record.id)  # free until claimed: the look for free tables waits
        try:
            await self.db(self.store.claim_table, record.id, self.options.lease_seconds)
            table = TableHost(record.id, settings, host.id, self.options.host(), house=house)
            actor = TableActor(self, table, GENESIS)
            await self._sit_bots(actor, bots)
            await self._run(actor)
        finally:
            self._taking.discard(record.id)
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
            return await self._club_facts(facts(actor.host))
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
        listed = None if entry is None else entry["summary"]
        return await self._club_facts(stored_facts(record, seats, banned, listed))

    async def _club_facts(self, table: TableFacts) -> TableFacts:
        """A club's table (always private) with its club in its summary."""
        club = await self.db(self.store.table_club, table.id) if table.private else None
        if club is None:
            return table
        return replace(table, summary=table.summary | {"club": {"id": club.id, "name": club.name}})

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

    # ------------------------------------------------------------ stopping

    async def close(self) -> None:
        """Stop taking hands; hand each table over as soon as it is between hands (the
        leases kept meanwhile), up to ``closing_wait``; what is left in play resumes from
        its log in the process that takes it next."""
        self.closing = self.storage.closing = True
        await self.tournaments.close()
        for actor in self.tables.values():
            actor.hold()
        deadline = time.monotonic() + self.options.closing_wait
        while self.tables and time.monotonic() < deadline:
            for actor in list(self.tables.values()):
                if actor.host.between_hands():
                    await self._hand_over(actor)
            await asyncio.sleep(0.05)
        for task in (self._keeper, self._looker, self._schedule):
            if task is not None:
                task.cancel()
        for actor in list(self.tables.values()):
            await self._hand_over(actor)
        if self.cluster is not None:
            await self.cluster.stop()
        self.documents.close()
        self.storage.shutdown()

    async def _hand_over(self, actor: TableActor) -> None:
        """Stop the table here and give its lease up; in a cluster, the least-loaded other
        process is asked to take it at once."""
        await self._stop_here(actor)
        cluster = self.cluster
        if cluster is None or not cluster.connected:
            return
        target = least_loaded([node for node in cluster.nodes if node.id != cluster.id])
        if target is not None:
            self.spawn(self._ask_to_take(target.id, actor.id))

    def retire(self, actor: TableActor) -> None:
        """A table closed (by its host, or left to its bots) stops here and gives its lease
        up: no process runs it until its host reopens it."""
        self.tables.pop(actor.id, None)
        actor.closed = True
        self.spawn(self._stop_here(actor))

    async def _stop_here(self, actor: TableActor) -> None:
        """Stop listening for the table's commands, stop its task here, give its lease up,
        and take it out of the lobby. Deaf first: a command sent from now on finds no
        owner and is sent again until the next one listens, where one heard here after
        the table stopped would be lost and its sender told ``try_again`` only after
        ``cluster.ANSWER_WAIT``."""
        self.tables.pop(actor.id, None)
        cluster = self.cluster
        connected = cluster is not None and cluster.connected
        if cluster is not None and connected:
            with contextlib.suppress(RedisError, OSError):
                await cluster.disown(actor.id)
        await actor.stop()
        await self._release(actor.id)
        if cluster is not None and connected:
            with contextlib.suppress(RedisError, OSError):
                await cluster.forget([actor.id])

    async def place(self, table_ids: list[str]) -> None:
        """Tables just opened (a tournament's) run where the room is least loaded: dealt
        over the live processes as free tables are, each asked to take its own; a table
        nobody takes is taken by the look for free tables within a beat."""
        cluster = self.cluster
        if cluster is None or not cluster.connected or not cluster.nodes:
            for table_id in table_ids:
                await self.take(await self.db(self.store.table, table_id))
            return
        beats = 1.5 * self.options.lease_seconds / 3
        loads = {node.id: node.tables for node in cluster.nodes if node.age < beats}
        loads[cluster.id] = len(self.tables)
        for table_id, node in deal(table_ids, loads).items():
            if node == cluster.id:
                await self.take(await self.db(self.store.table, table_id))
            else:
                await self._ask_to_take(node, table_id)

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
                ErrorCode.FORBIDDEN,
                said("{name} is banned from table {table}", name=player.name, table=table.id),
            )
        if not table.private:
            return True
        if player is not None and (player.id == table.host_id or player.id in table.players):
            return True
        if player is not None and await self.db(self.store.sees_club_table, table.id, player.id):
            return True  # a member of the table's club
        if await self._sees_tournament_table(table.id, invite, player):
            return True
        return bool(invite) and await self.db(self.store.check_invite, table.id, invite)

    async def _sees_tournament_table(
        self, table_id: str, invite: str | None, player: Player | None
    ) -> bool:
        """A tournament's table is seen by whoever sees the tournament (its lobby lists
        each table to watch): anyone, for a public one; its host, its entrants and whoever
        has its invite, for a private one."""
        store = self.store
        try:
            place = await self.db(store.tournament_table, table_id)
        except NotFound:
            return False  # a cash table
        tournament = await self.db(store.tournament, place.tournament_id)
        if not tournament.private:
            return True
        if player is not None and (
            player.id == tournament.host_id
            or await self.db(store.is_entrant, tournament.id, player.id)
        ):
            return True
        return bool(invite) and await self.db(store.check_tournament_invite, tournament.id, invite)
