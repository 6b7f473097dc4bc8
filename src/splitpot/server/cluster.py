"""The room's processes talking through Redis (docs/deploy.md): one process owns each table
(its lease in the store), and any process serves any player. This module is only the
messaging; what the messages mean is the room's (``server/room.py``).

Channels, all under ``splitpot:<room id>:`` (the id is the database's, so two rooms that
share a Redis never hear each other):

- ``table:<id>``: commands for the table, heard by the process that owns it;
- ``node:<process>``: what comes back to one process: frames for its connections, in
  order, and answers to its commands and questions;
- ``room``: what every process hears: a table taken over, a session logged out.

Hashes: ``nodes`` (each live process: its address, its link's and its load) and
``tables`` (each open table's lobby summary and owner), rewritten every beat; the key
``link-key``, the room's key for the direct links between its processes
(``server/link.py``), which carry a client's commands to its table's owner and what comes
back, as the ``table:`` and ``node:`` channels would, whenever a link is up. Messages
are lost while Redis is away; when it is back, every process says again what it owns and
asks again for what its clients watch, so each client gets its tables whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable
from typing import Any, Protocol

from redis import asyncio as aioredis
from redis.exceptions import RedisError

from splitpot.i18n import Said
from splitpot.protocol import ErrorCode, ProtocolError
from splitpot.server.in_order import InOrder
from splitpot.server.link import Links
from splitpot.server.placement import Node

log = logging.getLogger("splitpot.cluster")

ANSWER_WAIT = 5.0  # seconds a process waits for a table's owner to answer a command
FIRST_CONNECT = 2.0  # seconds a starting process waits for Redis before going on without
REORDER_WAIT = 0.5  # seconds a batch that came early waits for those before it
Json = dict[str, Any]


class NoOwner(Exception):
    """No process listens for the table: it is changing hands, or it does not exist."""


class Unreachable(Exception):
    """Redis did not take the message (it is away): nothing was sent."""


class Handler(Protocol):
    """What the room does with what it hears."""

    async def on_command(self, table_id: str, message: Json) -> None: ...

    def on_unwatch(self, table_id: str, node: str, connection: int) -> None: ...

    def on_frame(
        self, owner: str, table_id: str, fence: int, connections: list[int], frame: str
    ) -> None: ...

    def on_gap(self, owner: str) -> None: ...

    async def on_question(self, kind: str, body: Json) -> Json: ...

    async def on_moved(self, table_id: str, fence: int) -> None: ...

    def on_logout(self, session: str) -> None: ...

    async def on_reconnected(self) -> None: ...


class Cluster:
    """This process's link to the others. Every message through Redis goes out through one
    publisher, in order (pipelined); a batch for another process goes over the direct link
    when one is up, and the batches' numbers put the two ways back in the order sent."""

    def __init__(
        self,
        url: str,
        room_id: str,
        node: str,
        public_url: str,
        ttl: float,
        link: tuple[str, int] | None = None,
    ) -> None:
        self.id = f"{node}/{secrets.token_hex(4)}"
        # direct links to the others (``link``: where this process listens for theirs)
        self.links = None if link is None else Links(self.id, self._hear_link, self._link_lost)
        self._link_at = link
        self.url = public_url
        self.ttl = ttl  # a beat older than this is a dead process's
        self.redis: aioredis.Redis = aioredis.from_url(
            url,
            socket_connect_timeout=2,
            socket_timeout=5,
            socket_keepalive=True,
            health_check_interval=2,
        )
        self.prefix = f"splitpot:{room_id}:"
        self.handler: Handler | None = None
        self.connected = False
        self.nodes: list[Node] = []  # the live processes at the last look
        self._owned: set[str] = set()  # table channels this process listens to
        self._pubsub: Any = None
        self._subscribed: dict[str, asyncio.Future[None]] = {}
        self._waiting: dict[int, asyncio.Future[Json]] = {}
        self._ids = itertools.count(1)
        self._outbox: dict[str, list[Any]] = {}  # node -> items for it, in order
        self._numbers: dict[str, int] = {}  # node -> the number of the last batch sent it
        self._heard: dict[str, InOrder[Json]] = {}  # node -> its batches heard, in order
        self._holes: dict[str, asyncio.TimerHandle] = {}  # node -> when to give up waiting
        self._flush_due = False
        self._sending: list[tuple[str, str, asyncio.Future[int] | None]] = []
        self._wake = asyncio.Event()  # something to publish
        self._idle = asyncio.Event()  # nothing left to publish
        self._tasks: set[asyncio.Task[Any]] = set()
        self._listener: asyncio.Task[None] | None = None
        self._publisher: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._lost = False  # messages were lost: resynchronise once Redis answers
        self._stopping = False

    # ------------------------------------------------------------ names

    def _table(self, table_id: str) -> str:
        return f"{self.prefix}table:{table_id}"

    def _node(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    @property
    def _room(self) -> str:
        return f"{self.prefix}room"

    # ------------------------------------------------------------ life

    async def start(self, handler: Handler) -> None:
        """Listen and publish; wait a little for Redis (the room runs its own tables
        without it, and joins the others when it comes)."""
        self.handler = handler
        if self.links is not None and self._link_at is not None:
            host, port = self._link_at
            try:
                log.info("direct links: listening on %s", await self.links.listen(host, port))
            except OSError as error:
                log.warning("no direct links at %s:%d (%s): Redis carries all", host, port, error)
                self.links = None
        self._listener = asyncio.create_task(self._listen(), name="cluster listener")
        self._publisher = asyncio.create_task(self._publish_all(), name="cluster publisher")
        try:
            await asyncio.wait_for(self._ready.wait(), FIRST_CONNECT)
        except TimeoutError:
            log.warning("Redis does not answer yet; the room goes on and keeps trying")

    async def stop(self) -> None:
        """Say goodbye (this process's beat is taken out) and stop listening."""
        self._flush()
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            await asyncio.wait_for(self._drain(), 1)
            await asyncio.wait_for(self.redis.hdel(f"{self.prefix}nodes", self.id), 1)
        self._stopping = True
        if self.links is not None:
            self.links.close()
        for timer in self._holes.values():
            timer.cancel()
        for task in (self._listener, self._publisher, *self._tasks):
            if task is not None:
                task.cancel()
        for task in (self._listener, self._publisher):
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    async def _drain(self) -> None:
        while self._sending:
            self._idle.clear()
            await self._idle.wait()

    # ------------------------------------------------------------ listening

    async def _listen(self) -> None:
        """Hear this process's channels; after a break, join again and resynchronise."""
        pause, first = 0.1, True
        while not self._stopping:
            pubsub = self.redis.pubsub()
            try:
                if not first:  # connections from before a break may point at a dead server
                    await self.redis.connection_pool.disconnect()
                channels = [self._room, self._node(self.id), *map(self._table, self._owned)]
                await pubsub.subscribe(*channels)  # confirmed in messages not read yet
                joined = [self._expect(channel) for channel in channels]
                self._pubsub = pubsub
                self._spawn(self._joined(joined))
                first, pause = False, 0.1
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._hear(message)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                if self.connected:
                    log.warning("Redis unavailable (%s); retrying", error)
                    self._lost = True  # what was sent to this process meanwhile is gone
                self.connected = False
                self._pubsub = None
                for waiting in self._subscribed.values():
                    if not waiting.done():
                        waiting.set_exception(Unreachable("Redis is away"))
                self._subscribed.clear()
                await asyncio.sleep(pause)
                pause = min(2 * pause, 2.0)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _expect(self, channel: str) -> asyncio.Future[None]:
        """A future done when Redis confirms the subscription to ``channel``."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._subscribed[channel] = done
        return done

    async def _joined(self, joined: list[asyncio.Future[None]]) -> None:
        """Once Redis has every subscription: connected; if messages were lost (a break,
        or Redis away when this process started), resynchronise."""
        try:
            answers = await asyncio.wait_for(
                asyncio.gather(*joined, return_exceptions=True), ANSWER_WAIT
            )
        except TimeoutError:
            return  # the listener breaks and tries again
        if any(isinstance(answer, BaseException) for answer in answers):
            return
        self.connected = True
        self._ready.set()
        if self._lost:
            self._lost = False
            log.warning("Redis is back: this process says again what it runs and watches")
            await self._handle().on_reconnected()

    def _hear(self, message: dict[str, Any]) -> None:
        channel = bytes(message["channel"]).decode()
        if message["type"] == "subscribe":
            waiting = self._subscribed.pop(channel, None)
            if waiting is not None and not waiting.done():
                waiting.set_result(None)
            return
        if message["type"] != "message":
            return
        try:
            body = json.loads(message["data"])
            self._dispatch(channel, body)
        except Exception:  # one bad message must not stop the listener
            log.exception("a message from Redis could not be handled")

    def _dispatch(self, channel: str, body: Json) -> None:
        handler = self._handle()
        kind = body["t"]
        if channel.startswith(f"{self.prefix}table:"):
            table_id = channel.removeprefix(f"{self.prefix}table:")
            if kind == "command":
                self._spawn(handler.on_command(table_id, body))
            elif kind == "unwatch":
                handler.on_unwatch(table_id, body["from"], body["conn"])
        elif channel == self._room:
            if kind == "moved":
                self._spawn(handler.on_moved(body["table"], body["fence"]))
            elif kind == "logout":
                handler.on_logout(body["session"])
        elif kind == "items":
            self._take(body)
        elif kind == "ask":
            self._spawn(self._answer_question(body))

    def _hear_link(self, peer: str, body: Json) -> None:
        """A message over another process's direct link: a batch of items for this
        process, or a command for a table it runs; from that process only (the handshake
        proved who it is)."""
        if body.get("from") != peer:
            log.warning("a message over %s's link says it is from %s", peer, body.get("from"))
        elif body["t"] == "items":
            self._take(body)
        elif body["t"] == "command":
            self._spawn(self._handle().on_command(body["table"], body))

    def _take(self, body: Json) -> None:
        """A numbered batch of items from another process, handled in order: one that
        overtook another waits for it up to ``REORDER_WAIT`` (counted again whenever an
        earlier one comes), then those missing are lost (the sender's tables are caught
        up on whole). A batch that comes after it was given up on brings its answers
        only: its frames are stale, but its commands were run."""
        sender, number = body["from"], body["n"]
        heard = self._heard.setdefault(sender, InOrder())
        if number <= heard.last:
            self._items(sender, body["items"], frames=False)
            return
        last = heard.last
        for batch in heard.take(number, body):
            self._items(sender, batch["items"])
        hole = self._holes.get(sender)
        if hole is not None and (not heard.waiting or heard.last != last):
            hole.cancel()
            del self._holes[sender]
        if heard.waiting and sender not in self._holes:
            loop = asyncio.get_running_loop()
            self._holes[sender] = loop.call_later(REORDER_WAIT, self._give_up, sender)

    def _give_up(self, sender: str) -> None:
        self._holes.pop(sender, None)
        self._handle().on_gap(sender)  # messages were lost on the way
        for batch in self._heard[sender].give_up():
            self._items(sender, batch["items"])

    def _items(self, sender: str, items: list[Any], *, frames: bool = True) -> None:
        handler = self._handle()
        for item in items:
            try:
                if item[0] != "f":  # an answer: request, body
                    waiting = self._waiting.get(item[1])
                    if waiting is not None and not waiting.done():
                        waiting.set_result(item[2])
                elif frames:  # a frame: table, fencing number, connections, text
                    handler.on_frame(sender, item[1], item[2], item[3], item[4])
            except Exception:  # one bad item must not lose the others
                log.exception("an item from %s could not be handled", sender)

    def _link_lost(self, node: str) -> None:
        """The link to ``node`` ended, perhaps with batches on their way: the next
        number goes through Redis now, empty if nothing else is due, so ``node`` finds
        the hole if one was lost and catches up."""
        self._outbox.setdefault(node, [])
        self._flush_soon()

    def _handle(self) -> Handler:
        assert self.handler is not None, "start the cluster first"
        return self.handler

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ owning tables

    async def own(self, table_id: str) -> None:
        """Listen for the table's commands (this process runs it now); returns once Redis
        has the subscription, so commands sent from now on reach this process."""
        self._owned.add(table_id)
        pubsub = self._pubsub
        if pubsub is None:
            return  # joined when Redis is back
        channel = self._table(table_id)
        done = self._expect(channel)
        try:
            await pubsub.subscribe(channel)
            await asyncio.wait_for(done, ANSWER_WAIT)
        except (RedisError, OSError, TimeoutError, Unreachable) as error:
            log.warning("table %s: not subscribed yet (%s)", table_id, error)
        finally:
            self._subscribed.pop(channel, None)

    async def disown(self, table_id: str) -> None:
        self._owned.discard(table_id)
        pubsub = self._pubsub
        if pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await pubsub.unsubscribe(self._table(table_id))

    # ------------------------------------------------------------ sending

    async def forward(self, table_id: str, message: Json, owner: str | None = None) -> None:
        """A client's command to the table's owner, and its answer: nothing (done) or the
        owner's refusal, raised as ``ProtocolError``. Over the direct link to ``owner``
        (the process the table's frames come from) while one is up and that process runs
        the table, else through Redis. ``NoOwner`` when no process listens for the table;
        ``ProtocolError`` TRY_AGAIN when Redis or the owner does not answer."""
        answer: Json = {"elsewhere": True}
        if owner is not None and self.links is not None:
            answer = await self._command(table_id, message, owner)
        if answer.get("elsewhere"):  # no link up, or not run there: through Redis
            answer = await self._command(table_id, message)
        if answer.get("code") is not None:
            told = Said.from_json(answer["said"]) if "said" in answer else answer["message"]
            raise ProtocolError(ErrorCode(answer["code"]), told)

    async def _command(self, table_id: str, message: Json, owner: str | None = None) -> Json:
        """Send a command and wait for its answer: published on the table's channel, or
        over the link to ``owner`` (``elsewhere`` if no link is up: nothing was sent)."""
        request = next(self._ids)
        answered: asyncio.Future[Json] = asyncio.get_running_loop().create_future()
        self._waiting[request] = answered
        try:
            body = message | {"t": "command", "from": self.id, "id": request}
            if owner is not None:
                direct = body | {"table": table_id, "direct": True}
                text = json.dumps(direct, separators=(",", ":"))
                assert self.links is not None
                if not self.links.send(owner, text):
                    return {"elsewhere": True}
            else:
                try:
                    listeners = await self._send(self._table(table_id), body)
                except Unreachable:
                    raise ProtocolError(
                        ErrorCode.TRY_AGAIN,
                        f"table {table_id} cannot be reached now: send it again",
                    ) from None
                if listeners == 0:
                    raise NoOwner(table_id)
            try:
                return await asyncio.wait_for(answered, ANSWER_WAIT)
            except TimeoutError:
                raise ProtocolError(
                    ErrorCode.TRY_AGAIN, f"table {table_id} did not answer: send it again"
                ) from None
        finally:
            self._waiting.pop(request, None)

    def unwatch(self, table_id: str, connection: int) -> None:
        """A connection of this process no longer watches a table another runs."""
        self._queue(self._table(table_id), {"t": "unwatch", "from": self.id, "conn": connection})

    def frame(self, node: str, table_id: str, fence: int, connection: int, frame: str) -> None:
        """A frame of a table run here (under the lease ``fence``) for a connection of
        another process, which takes frames of the newest owner only. A frame that several
        of its connections get in a row travels once."""
        items = self._outbox.setdefault(node, [])
        last = items[-1] if items else None
        if last is not None and last[0] == "f" and last[4] is frame and last[1] == table_id:
            last[3].append(connection)
        else:
            items.append(["f", table_id, fence, [connection], frame])
        self._flush_soon()

    def answer(self, node: str, request: int, body: Json) -> None:
        """The answer to another process's command or question, after the frames the
        command made for it."""
        self._outbox.setdefault(node, []).append(["a", request, body])
        self._flush_soon()

    def node_of(self, owner: str) -> str | None:
        """The live process that holds leases as ``owner`` (a node's id is
        ``<lease name>/<boot>``), if any."""
        found = [n for n in self.nodes if n.id.rpartition("/")[0] == owner]
        return min(found, key=lambda n: n.age).id if found else None

    async def ask(self, node: str, kind: str, body: Json) -> Json:
        """A question for another process (open a table here, take this table): its
        answer, or ``Unreachable`` / ``TimeoutError``."""
        request = next(self._ids)
        answered = asyncio.get_running_loop().create_future()
        self._waiting[request] = answered
        try:
            message = {"t": "ask", "kind": kind, "body": body, "from": self.id, "id": request}
            await self._send(self._node(node), message)
            answer = await asyncio.wait_for(answered, ANSWER_WAIT)
        finally:
            self._waiting.pop(request, None)
        if "error" in answer:
            raise Unreachable(answer["error"])
        return dict(answer["body"])

    async def _answer_question(self, message: Json) -> None:
        try:
            body = await self._handle().on_question(message["kind"], message["body"])
            answer: Json = {"body": body}
        except Exception as error:
            log.exception("a question from %s failed", message["from"])
            answer = {"error": str(error) or type(error).__name__}
        self.answer(message["from"], message["id"], answer)

    def moved(self, table_id: str, fence: int) -> None:
        """Tell every process that this one runs the table now, under the lease ``fence``:
        their clients watching it ask it for the table again."""
        self._queue(self._room, {"t": "moved", "table": table_id, "fence": fence})

    def logout(self, session: str) -> None:
        self._queue(self._room, {"t": "logout", "session": session})

    def _flush_soon(self) -> None:
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        outbox, self._outbox = self._outbox, {}
        for node, items in outbox.items():
            number = self._numbers[node] = self._numbers.get(node, 0) + 1
            body = {"t": "items", "from": self.id, "n": number, "items": items}
            text = json.dumps(body, separators=(",", ":"))
            if self.links is None or not self.links.send(node, text):
                self._publish(self._node(node), text)

    def _queue(self, channel: str, body: Json, heard: asyncio.Future[int] | None = None) -> None:
        self._publish(channel, json.dumps(body, separators=(",", ":")), heard)

    def _publish(self, channel: str, text: str, heard: asyncio.Future[int] | None = None) -> None:
        self._sending.append((channel, text, heard))
        self._wake.set()

    async def _send(self, channel: str, body: Json) -> int:
        """Publish in turn with the rest; how many processes heard it."""
        self._flush()  # what was queued before goes first
        heard: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue(channel, body, heard)
        return await heard

    async def _publish_all(self) -> None:
        """The one publisher: what is queued goes in one pipeline, in order."""
        while True:
            if not self._sending:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            batch, self._sending = self._sending, []
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data, _ in batch:
                        pipe.publish(channel, data)
                    heard = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                log.warning("Redis did not take %d messages (%s)", len(batch), error)
                self._lost = True
                for _, _, waiting in batch:
                    if waiting is not None and not waiting.done():
                        waiting.set_exception(Unreachable(str(error)))
                await self._break_listener()
            else:
                for (_, _, waiting), count in zip(batch, heard, strict=True):
                    if waiting is not None and not waiting.done():
                        waiting.set_result(int(count))

    async def _break_listener(self) -> None:
        """Messages were lost: listen again from scratch, which resynchronises."""
        pubsub = self._pubsub
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    # ------------------------------------------------------------ beats

    async def beat(self, tables: dict[str, Json], connections: int) -> None:
        """This process is alive, with its load; and the lobby's entry of each table it
        runs. Then the live processes, as every process sees them."""
        now = time.time()
        me = {"url": self.url, "tables": len(tables), "connections": connections, "at": now}
        if self.links is not None and self.links.address is not None:
            me["link"] = self.links.address
        entries = {
            table_id: json.dumps({"owner": self.id, "at": now, **entry})
            for table_id, entry in tables.items()
        }
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(f"{self.prefix}nodes", self.id, json.dumps(me))
            if entries:
                pipe.hset(f"{self.prefix}tables", mapping=entries)  # type: ignore[arg-type]
            pipe.hgetall(f"{self.prefix}nodes")
            if self.links is not None:  # the first process to ask makes the room's key
                pipe.set(f"{self.prefix}link-key", secrets.token_hex(32), nx=True)
                pipe.get(f"{self.prefix}link-key")
            answers = await pipe.execute()
        nodes = answers[2 if entries else 1]
        self.nodes = self._live(nodes, now)
        if self.links is not None:
            self.links.key = _text(answers[-1])
            others = [node for node in self.nodes if node.link and node.id != self.id]
            self.links.know({node.id: node.link for node in others})

    def _live(self, nodes: dict[Any, Any], now: float) -> list[Node]:
        live = [
            Node(
                key,
                seen["url"],
                seen["tables"],
                seen["connections"],
                now - seen["at"],
                seen.get("link", ""),
            )
            for key, seen in self._fresh(nodes, now).items()
        ]
        return sorted(live, key=lambda node: (node.id != self.id, node.id))

    def _fresh(self, entries: dict[Any, Any], now: float) -> dict[str, Json]:
        """A hash's entries written less than ``ttl`` ago (older ones are a dead
        process's), decoded."""
        decoded = {_text(key): json.loads(value) for key, value in entries.items()}
        return {key: entry for key, entry in decoded.items() if now - entry["at"] < self.ttl}

    async def forget(self, table_ids: list[str]) -> None:
        """Take tables this process no longer runs out of the lobby (their next owner puts
        them back)."""
        if table_ids:
            await self.redis.hdel(f"{self.prefix}tables", *table_ids)

    async def directory(self) -> dict[str, Json]:
        """Every table the processes run, as their owners last described it: its lobby
        summary and owner (entries of a dead owner's tables age out)."""
        return self._fresh(await self.redis.hgetall(f"{self.prefix}tables"), time.time())


def _text(key: bytes | str) -> str:
    return key.decode() if isinstance(key, bytes) else key
