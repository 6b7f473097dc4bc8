"""Every client's command to its table, here or in another process, and the frames of
tables other processes run to this one's clients (``server/cluster.py`` carries them):
the room's connections and its part in the cluster's routing (docs/deploy.md)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any, Protocol, TypeVar

from splitpot.i18n import said, words
from splitpot.protocol import ErrorCode, Hello, ProtocolError, Sit, TableMessage, Watch, read_frame
from splitpot.room.settings import TableSettings, parse_settings
from splitpot.server.actor import TableActor
from splitpot.server.cluster import Cluster, NoOwner
from splitpot.server.commands import request, unwatch
from splitpot.server.connection import POLICY, Connection, RemoteConnection
from splitpot.server.errors import refusal
from splitpot.server.lobby import TableFacts, summary
from splitpot.server.tournaments import Tournaments
from splitpot.store import Player, Store, TableRecord, token_hash
from splitpot.store.store import Holder

log = logging.getLogger("splitpot.room")
T = TypeVar("T")

OWNER_WAITS = (0.05, 0.1, 0.2, 0.4, 0.8)  # seconds between tries for a table with no owner
UNWATCHED = '{"type":"unwatched"'  # the start of a frame that ends a connection's watch


class Tables(Protocol):
    """What the routing needs of the room: its tables and where they run, the store, and
    to open, take, beat and start work."""

    tables: dict[str, TableActor]
    cluster: Cluster | None
    holder: Holder
    store: Store
    closing: bool

    async def db(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...

    async def facts(self, table_id: str, *, closed: bool = False) -> TableFacts: ...

    async def create_here(
        self, settings: TableSettings, host: Player, *, house: bool = False, club: str | None = None
    ) -> tuple[TableActor, str | None]: ...

    async def take(self, record: TableRecord) -> bool: ...

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None: ...

    async def beat(self) -> None: ...

    @property
    def tournaments(self) -> Tournaments: ...


class Routing:
    """The connections of this process and the cluster's messages for it
    (``cluster.Handler``)."""

    def __init__(self, room: Tables) -> None:
        self.room = room
        self.connections: dict[int, Connection] = {}  # this process's clients, by id
        # clients of other processes at tables run here: (table, process, their id)
        self.remote: dict[tuple[str, str, int], RemoteConnection] = {}
        self._fences: dict[str, int] = {}  # the newest owner's lease of each table, heard
        self._owners: dict[str, str] = {}  # the process each table's frames came from
        self._behind: set[tuple[int, str]] = set()  # (connection, table): frames were lost
        self._streams: dict[tuple[int, str], int] = {}  # (connection, table): its owner's fence

    async def route(self, connection: Connection, command: TableMessage, text: str) -> None:
        """A client's command to its table, run here or by another process (``text`` is
        the frame as the client sent it, for the other to read the same way). A watch
        is remembered, to ask again for the table when it moves."""
        if connection.player is None and not isinstance(command, Watch):
            raise ProtocolError(
                ErrorCode.FORBIDDEN, said("a watcher may only watch: say hello with a token")
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
        for pause in OWNER_WAITS:  # a table between owners has one again within moments
            actor = self.room.tables.get(command.table)
            if actor is not None:  # run here (perhaps since the last try)
                await actor.submit(request(connection, command))
                return
            if self.room.cluster is not None:
                message = {
                    "conn": connection.id,
                    "player": player_json(connection.player),
                    "lang": connection.words.language.value,
                    "text": text,
                }
                owner = self._owners.get(command.table)  # whose frames of it came last
                try:
                    await self.room.cluster.forward(command.table, message, owner)
                    return
                except NoOwner:
                    pass
            # unknown_table, if it is no open table at all; else one being taken (a
            # tournament's new table, a table left free) runs within moments
            await self.room.facts(command.table)
            await asyncio.sleep(pause)
        moving = f"table {command.table} is moving to another process: send it again"
        raise ProtocolError(ErrorCode.TRY_AGAIN, moving)

    async def rejoin(self, connection: Connection) -> None:
        """After hello: every table where the player sits, wherever it runs, sends its
        ``table`` (then a ``turn``)."""
        player = connection.player
        if player is None:
            return
        for table_id in await self.room.db(self.room.store.tables_of, player.id):
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
                await self.route(connection, command, text)
                if table_id in self.room.tables:  # run here now: its snapshot came directly
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
            actor = self.room.tables.get(table_id)
            if actor is not None:
                actor.submit_nowait(unwatch(connection))
            elif self.room.cluster is not None:
                self.room.cluster.unwatch(table_id, connection.id)

    # ------------------------------------------------------------ the cluster's messages

    async def on_command(self, table_id: str, message: dict[str, Any]) -> None:
        """A command from a client of another process for a table run here (or of this
        one, sent before the table came here: then the client is its own connection);
        answered to that process after the frames it made. A table gone from here does not
        answer a command heard through Redis (its new owner, hearing it too, does, or the
        sender gives up and asks again); one sent over the direct link, to this process
        alone, is answered ``elsewhere``, and its sender sends it through Redis."""
        cluster = self.room.cluster
        if cluster is None:
            return
        node, asked = message["from"], message["id"]
        actor = self.room.tables.get(table_id)
        if actor is None or actor.closed:
            if message.get("direct"):  # over the link: not run here
                cluster.answer(node, asked, {"elsewhere": True})
            return
        here = self.connections.get(message["conn"]) if node == cluster.id else None
        if node == cluster.id and here is None:
            return  # a client of this process that has gone since
        stub = here or self._remote(actor, node, message)
        try:
            command = read_frame(message["text"])
            if isinstance(command, Hello):
                raise ProtocolError(ErrorCode.BAD_MESSAGE, said("hello comes once, first"))
            await actor.submit(request(stub, command))
        except Exception as error:
            failure = refusal(error)
            if actor.closed:  # not run: the table stopped here
                if message.get("direct"):
                    cluster.answer(node, asked, {"elsewhere": True})
                return
            if failure.code is ErrorCode.SERVER_ERROR:
                log.exception("table %s: a command from %s failed", table_id, node)
            refused: dict[str, Any] = {"code": failure.code.value, "message": failure.message}
            if failure.said is not None:  # put in words by the client's own process
                refused["said"] = failure.said.to_json()
            cluster.answer(node, asked, refused)
        else:
            cluster.answer(node, asked, {})

    def _remote(self, actor: TableActor, node: str, message: dict[str, Any]) -> RemoteConnection:
        """The stand-in of another process's client (``message``: its command's envelope,
        with the player and the language it was greeted in)."""
        key = (actor.id, node, message["conn"])
        stub = self.remote.get(key)
        if stub is None:
            stub = RemoteConnection(
                player_of(message["player"]), node=node, remote_id=message["conn"],
                cluster=self.room.cluster, table_id=actor.id,
                fence=self.room.holder.fences.get(actor.id, 0),
                words=words(message.get("lang")),
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
        actor = self.room.tables.get(key[0])
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
                if self.room.cluster is not None:
                    self.room.cluster.unwatch(table_id, connection_id)
                continue
            stream = (connection_id, table_id)
            moved = self._streams.get(stream, fence) != fence
            if stream in self._behind or moved:
                if json.loads(frame).get("type") != "table":  # not where the stream starts
                    if stream not in self._behind:
                        self._behind.add(stream)
                        self.room.spawn(self._watch_again(connection, table_id))
                    continue
                self._behind.discard(stream)
            self._streams[stream] = fence
            connection.send(frame)
            if frame.startswith(UNWATCHED):  # its owner sends it the table no more
                connection.watching.pop(table_id, None)
                self._streams.pop(stream, None)
                if self.room.cluster is not None:
                    self.room.cluster.unwatch(table_id, connection_id)

    def on_gap(self, owner: str) -> None:
        """Frames from a process were lost (Redis was away, or took a batch no more): its
        tables' clients here ask for them whole, and get nothing of them until then."""
        self._catch_up({table for table, source in self._owners.items() if source == owner})

    def _catch_up(self, tables: set[str]) -> None:
        for connection in list(self.connections.values()):
            for table_id in tables & set(connection.watching):
                if table_id not in self.room.tables:
                    self._behind.add((connection.id, table_id))
                    self.room.spawn(self._watch_again(connection, table_id))

    async def on_question(self, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        """Another process asks this one to open a new table, or to take one over."""
        if kind == "create":
            settings = parse_settings(body["settings"])
            host = player_of(body["host"])
            assert host is not None
            house, club = bool(body.get("house")), body.get("club")
            actor, invite = await self.room.create_here(settings, host, house=house, club=club)
            return {"summary": summary(actor.host), "invite": invite}
        if kind == "take":
            if self.room.closing:
                return {"took": False}
            record = await self.room.db(self.room.store.table, body["table"])
            return {"took": await self.room.take(record)}
        if kind == "tournament_news":  # one of its tables waits: the director decides now
            self.room.tournaments.news(int(body["tournament"]))
            return {}
        if kind == "nudge":  # the director decided: the table asks the store now
            nudged = self.room.tables.get(str(body["table"]))
            if nudged is not None:
                nudged.nudge()
            return {}
        raise ValueError(f"no such question: {kind!r}")

    async def on_moved(self, table_id: str, fence: int) -> None:
        """A table is run by another process now (or again, after Redis was away), under
        the lease ``fence``: every client here that watches it asks for it again and gets
        it whole, from its new owner only."""
        self._fences[table_id] = max(fence, self._fences.get(table_id, 0))
        self._owners.pop(table_id, None)  # its commands go through Redis until its frames come
        await self._watch_elsewhere(table_id)

    async def _watch_elsewhere(self, table_id: str) -> None:
        """This process's clients watching the table ask whoever runs it for it again."""
        for connection in list(self.connections.values()):
            if table_id in connection.watching and not connection.closed:
                self.room.spawn(self._watch_again(connection, table_id))

    def on_logout(self, session: str) -> None:
        """A session ended in some process: its connections here go too."""
        for connection in list(self.connections.values()):
            if connection.session == session:
                connection.drop("logged out", POLICY)

    async def on_reconnected(self) -> None:
        """Redis was away and messages were lost: say again which tables run here (their
        watchers elsewhere ask for them whole), and ask again for the tables other
        processes run that this one's clients watch."""
        assert self.room.cluster is not None
        for table_id in self.room.tables:
            self.room.cluster.moved(table_id, self.room.holder.fences.get(table_id, 0))
        watched = {t for c in self.connections.values() for t in c.watching}
        self._catch_up(watched - set(self.room.tables))
        await self.room.beat()

    def end_session(self, token: str) -> None:
        """A session logged out: its live WebSockets, in every process, are let go at once
        (its token is refused from now on, so they cannot say hello again)."""
        session = token_hash(token)
        self.on_logout(session)
        if self.room.cluster is not None:
            self.room.cluster.logout(session)

    def forget_the_dead(self, live: set[str]) -> None:
        """The clients of processes that died (not among ``live``) are forgotten."""
        for key, stub in list(self.remote.items()):
            if stub.node not in live:
                self._forget_remote(key)

    def forget_table(self, table_id: str) -> None:
        """A table run here no more: its clients of other processes are forgotten, and
        this process's watchers ask whoever runs it now."""
        for key in [key for key in self.remote if key[0] == table_id]:
            self._forget_remote(key)
        self.room.spawn(self._watch_elsewhere(table_id))


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
