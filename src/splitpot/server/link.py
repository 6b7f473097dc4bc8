"""Direct links between the room's processes, beside Redis (docs/deploy.md): each process
listens on one TCP address (``serve --link``) and opens one connection to each other
process it sends to. A link carries the hot messages only (a client's command to its
table's owner, and the frames and answers that come back) as lines of JSON: one write and
one wake-up a hop, where Redis costs two of each. A message for a process with no link up
goes through Redis as before. A connection opens with the room's key, which every process
of the room reads from Redis, and the id of the process it is for: a stranger, or a
process of another room, is refused."""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from collections.abc import Callable
from typing import Any, cast

log = logging.getLogger("splitpot.cluster")

Json = dict[str, Any]
LINE_LIMIT = 64 * 1024 * 1024  # bytes: a longer line ends the link (a batch is far less)
BUFFER_LIMIT = 16 * 1024 * 1024  # bytes waiting for a peer that does not read: it is let go
RETRY = 5.0  # seconds before a link that could not be opened is tried again
OPEN_WAIT = 2.0  # seconds a link may take to open and be accepted
ACCEPTED = b"ok\n"


class _Lines(asyncio.Protocol):
    """A connection's bytes cut into lines."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self._rest = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        if b"\n" not in data:
            self._rest += data
            if len(self._rest) > LINE_LIMIT:
                self.close("a line over the limit")
            return
        *lines, self._rest = (self._rest + data).split(b"\n")
        for line in lines:
            if self.transport is None or self.transport.is_closing():
                return
            self.line(line)

    def line(self, line: bytes) -> None:
        raise NotImplementedError

    def close(self, why: str) -> None:
        log.info("a link is closed: %s", why)
        if self.transport is not None:
            self.transport.close()


class _Incoming(_Lines):
    """Another process's link to this one: its hello, then its messages."""

    def __init__(self, links: Links) -> None:
        super().__init__()
        self._links = links
        self._peer: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._links.incoming.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._links.incoming.discard(self)

    def line(self, line: bytes) -> None:
        if self._peer is not None:
            self._links.hear(self._peer, line)
            return
        try:
            hello = json.loads(line)
            peer, to, key = str(hello["from"]), hello["to"], str(hello["key"])
        except (ValueError, KeyError, TypeError):
            self.close("a hello that is not one")
            return
        known = self._links.key
        if known is None or not hmac.compare_digest(key.encode(), known.encode()):
            self.close(f"{peer} does not know the room's key")
        elif to != self._links.id:
            self.close(f"{peer} looks for {to}, not this process")
        else:
            self._peer = peer
            assert self.transport is not None
            self.transport.write(ACCEPTED)


class _Outgoing(_Lines):
    """This process's link to another: up once the other accepts it; ``lost`` is told
    when its connection ends."""

    def __init__(self, lost: Callable[[_Outgoing], None]) -> None:
        super().__init__()
        self.accepted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._lost = lost

    def line(self, line: bytes) -> None:
        if line + b"\n" == ACCEPTED and not self.accepted.done():
            self.accepted.set_result(None)
        else:
            self.close("the other process said what a link's answer is not")

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.accepted.done():
            self.accepted.set_exception(ConnectionError("closed before it was accepted"))
        self._lost(self)


class Links:
    """This process's direct links: the address it listens on for the others, and its
    connections to them. ``hear`` gets each message from another process."""

    def __init__(self, node: str, hear: Callable[[str, Json], None]) -> None:
        self.id = node
        self.key: str | None = None  # the room's key, from Redis (None: links refused)
        self.address: str | None = None  # where the others reach this process: host:port
        self._hear = hear
        self._server: asyncio.Server | None = None
        self.incoming: set[_Incoming] = set()  # the others' links to this process
        self._addresses: dict[str, str] = {}  # the others' link addresses, from their beats
        self._up: dict[str, _Outgoing] = {}
        self._opening: set[str] = set()
        self._failed: dict[str, float] = {}  # process -> when a link to it last failed
        self._tasks: set[asyncio.Task[None]] = set()

    async def listen(self, host: str, port: int) -> str:
        """Listen for the others (port 0: a free one); the address they reach."""
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(lambda: _Incoming(self), host, port)
        bound = self._server.sockets[0].getsockname()[1]
        self.address = f"{host}:{bound}"
        return self.address

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in self._tasks:
            task.cancel()
        for link in [*self._up.values(), *self.incoming]:
            link.close("this process stops")
        self._up.clear()

    def hear(self, peer: str, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            log.warning("a line from %s over its link is not JSON", peer)
            return
        try:
            self._hear(peer, message)
        except Exception:  # one bad message must not end the link
            log.exception("a message from %s over its link could not be handled", peer)

    def know(self, addresses: dict[str, str]) -> None:
        """The live processes' link addresses (their beats): a link to a process gone, or
        moved to another address, is closed."""
        self._addresses = dict(addresses)
        for node, link in list(self._up.items()):
            if node not in self._addresses:
                del self._up[node]
                link.close(f"{node} is gone")

    def up(self, node: str) -> bool:
        return node in self._up

    def send(self, node: str, message: str) -> bool:
        """Write a message on the link to ``node``: True if it went, False if there is no
        link up (one is opened for next time, if ``node`` has an address)."""
        link = self._up.get(node)
        if link is None or link.transport is None or link.transport.is_closing():
            self._up.pop(node, None)
            self._open_soon(node)
            return False
        if link.transport.get_write_buffer_size() > BUFFER_LIMIT:
            del self._up[node]
            link.close(f"{node} does not read its link")
            return False
        link.transport.write(message.encode() + b"\n")
        return True

    def _open_soon(self, node: str) -> None:
        address = self._addresses.get(node)
        if address is None or self.key is None or node in self._opening:
            return
        if time.monotonic() - self._failed.get(node, -RETRY) < RETRY:
            return
        self._opening.add(node)
        task = asyncio.create_task(self._open(node, address, self.key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _open(self, node: str, address: str, key: str) -> None:
        try:
            link = await asyncio.wait_for(self._connect(node, address, key), OPEN_WAIT)
        except (OSError, ValueError, TimeoutError) as error:
            log.info("no link to %s at %s (%s): Redis carries its messages", node, address, error)
            self._failed[node] = time.monotonic()
            return
        finally:
            self._opening.discard(node)
        if self._addresses.get(node) != address:  # gone or moved meanwhile
            link.close(f"{node} moved")
            return
        self._up[node] = link
        self._failed.pop(node, None)

    async def _connect(self, node: str, address: str, key: str) -> _Outgoing:
        """A connection to ``node``, its hello said and accepted."""
        host, _, port = address.rpartition(":")
        loop = asyncio.get_running_loop()
        transport, link = await loop.create_connection(
            lambda: _Outgoing(self._forget), host, int(port)
        )
        hello = {"from": self.id, "to": node, "key": key}
        transport.write(json.dumps(hello).encode() + b"\n")
        try:
            await link.accepted
        except BaseException:
            transport.close()
            raise
        return link

    def _forget(self, link: _Outgoing) -> None:
        """A link's connection ended: messages for its process go through Redis."""
        for node, up in list(self._up.items()):
            if up is link:
                del self._up[node]
