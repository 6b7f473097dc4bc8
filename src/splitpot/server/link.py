"""Direct links between the room's processes, beside Redis (docs/deploy.md): each process
listens on one TCP address (``serve --link``) and opens one connection to each other
process it sends to. A link carries the hot messages only (a client's command to its
table's owner, and the frames and answers that come back) as lines of JSON: one write and
one wake-up a hop, where Redis costs two of each. A message for a process with no link up
goes through Redis as before.

A link opens with a handshake on the room's key, which every process of the room reads
from Redis and which never crosses a link: each end sends a fresh nonce, and each proves
it holds the key with an HMAC over both nonces and both processes' ids, the listener
first. A stranger, a process of another room, or a program that took a dead process's
port learns nothing and is believed in nothing. The kernel's keepalive ends a link whose
other end went silent."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any, cast

log = logging.getLogger("splitpot.cluster")

Json = dict[str, Any]
LINE_LIMIT = 64 * 1024 * 1024  # bytes: a longer line ends the link (a batch is far less)
HELLO_LIMIT = 4096  # bytes: a handshake's line is far less
BUFFER_LIMIT = 16 * 1024 * 1024  # bytes waiting for a peer that does not read: it is let go
RETRY = 5.0  # seconds before a link that could not be opened is tried again
OPEN_WAIT = 2.0  # seconds a link's handshake may take
# the kernel's keepalive: a peer silent this long (idle 5 s, then 3 probes 2 s apart) is
# gone; unacknowledged data is given up on after USER_TIMEOUT milliseconds
KEEPALIVE = {"TCP_KEEPIDLE": 5, "TCP_KEEPINTVL": 2, "TCP_KEEPCNT": 3, "TCP_USER_TIMEOUT": 10_000}


NONCE = re.compile(r"[0-9a-f]{32}")  # a nonce as secrets.token_hex(16) makes it


def proof(key: str, role: str, connector: str, listener: str, nonces: tuple[str, str]) -> str:
    """What an end of a link shows to prove it holds the room's key: an HMAC of its role,
    both processes' ids and both nonces, written as a JSON list (no field can pass for
    another)."""
    signed = json.dumps([role, connector, listener, *nonces]).encode()
    return hmac.new(key.encode(), signed, hashlib.sha256).hexdigest()


def _nonce(value: Any) -> str:
    if not isinstance(value, str) or NONCE.fullmatch(value) is None:
        raise ValueError(f"not a nonce: {value!r}")
    return value


def _keep_alive(transport: asyncio.BaseTransport) -> None:
    """Have the kernel find a link whose other end went silent (Linux's options; where one
    is missing or refused, the link goes without it)."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in KEEPALIVE.items():
            if hasattr(socket, name):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)
    except OSError as error:
        log.info("a link goes without the kernel's keepalive (%s)", error)


class _Lines(asyncio.Protocol):
    """A connection's bytes cut into lines; a line too long, or a handshake not done in
    time, ends it."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.trusted = False  # the handshake is done
        self._parts: list[bytes] = []
        self._size = 0
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        loop = asyncio.get_running_loop()
        self._deadline = loop.call_later(OPEN_WAIT, self._late)
        _keep_alive(transport)

    def _late(self) -> None:
        if not self.trusted:
            self.close("the handshake took too long")

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()

    def data_received(self, data: bytes) -> None:
        if b"\n" not in data:
            self._parts.append(data)
            self._size += len(data)
            if self._size > (LINE_LIMIT if self.trusted else HELLO_LIMIT):
                self.close("a line over the limit")
            return
        *lines, rest = b"".join([*self._parts, data]).split(b"\n")
        self._parts, self._size = ([rest], len(rest)) if rest else ([], 0)
        for line in lines:
            if self.transport is None or self.transport.is_closing():
                return
            if not self.trusted and len(line) > HELLO_LIMIT:
                self.close("a handshake's line over the limit")
                return
            self.line(line)

    def line(self, line: bytes) -> None:
        raise NotImplementedError

    def send(self, message: Json) -> None:
        assert self.transport is not None
        self.transport.write(json.dumps(message).encode() + b"\n")

    def close(self, why: str) -> None:
        """End the connection at once (what is unsent is dropped: its peer is gone, slow
        or not to be believed)."""
        log.info("a link is closed: %s", why)
        if self.transport is not None:
            self.transport.abort()


class _Incoming(_Lines):
    """Another process's link to this one: its hello (who it is, for whom, its nonce),
    this process's nonce and proof, its proof, then its messages."""

    def __init__(self, links: Links) -> None:
        super().__init__()
        self._links = links
        self._peer = ""
        self._nonces = ("", "")
        self._stage = "hello"  # then "proof", then trusted

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._links.incoming.add(self)
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._links.incoming.discard(self)

    def line(self, line: bytes) -> None:
        if self.trusted:
            self._links.hear(self._peer, line)
            return
        key = self._links.key
        if key is None:
            self.close("a link before this process has the room's key")
            return
        try:
            message = json.loads(line)
            if self._stage == "hello":
                peer, to = str(message["from"]), str(message["to"])
                if to != self._links.id:
                    self.close("a link for another process")
                    return
                self._peer, self._nonces = peer, (_nonce(message["nonce"]), secrets.token_hex(16))
                shown = proof(key, "listener", peer, to, self._nonces)
                self.send({"nonce": self._nonces[1], "proof": shown})
                self._stage = "proof"
                return
            expected = proof(key, "connector", self._peer, self._links.id, self._nonces)
            shown = message["proof"]
            if not isinstance(shown, str) or not hmac.compare_digest(shown, expected):
                self.close("a link without the room's key")
                return
        except Exception:  # anything a stranger sends (deep JSON too) ends it, quietly
            self.close("a handshake that is not one")
            return
        self.trusted = True
        self.send({"ok": True})


class _Outgoing(_Lines):
    """This process's link to another: its hello, the other's nonce and proof, its own
    proof, then the other's ok; ``done`` once trusted, and ``Links.forget`` told when its
    connection ends."""

    def __init__(self, links: Links, node: str, key: str) -> None:
        super().__init__()
        self.node = node
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._links = links
        self._key = key
        self._nonces = (secrets.token_hex(16), "")
        self._stage = "proof"  # the listener's; then "ok"

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.send({"from": self._links.id, "to": self.node, "nonce": self._nonces[0]})

    def line(self, line: bytes) -> None:
        try:
            message = json.loads(line)
            if self._stage == "proof":
                self._nonces = (self._nonces[0], _nonce(message["nonce"]))
                ids = (self._links.id, self.node)
                expected = proof(self._key, "listener", *ids, self._nonces)
                shown = message["proof"]
                if not isinstance(shown, str) or not hmac.compare_digest(shown, expected):
                    self.close(f"{self.node} does not hold the room's key")
                    return
                self.send({"proof": proof(self._key, "connector", *ids, self._nonces)})
                self._stage = "ok"
            elif message == {"ok": True} and not self.done.done():
                self.trusted = True
                self.done.set_result(None)
            else:
                self.close(f"{self.node} said what a link's answer is not")
        except Exception:  # anything else from a stranger ends it, quietly
            self.close(f"{self.node} answered a handshake with something else")

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if not self.done.done():
            self.done.set_exception(ConnectionError("closed before its handshake was done"))
        self._links.forget(self)


class Links:
    """This process's direct links: the address it listens on for the others, and its
    connections to them. ``hear`` gets each message from another process; ``lost`` is
    told of a link to another that ended (what was on its way may be lost)."""

    def __init__(
        self, node: str, hear: Callable[[str, Json], None], lost: Callable[[str], None]
    ) -> None:
        self.id = node
        self.key: str | None = None  # the room's key, from Redis (None: no link opens)
        self.address: str | None = None  # where the others reach this process: host:port
        self.incoming: set[_Incoming] = set()  # the others' links to this process
        self._hear = hear
        self._lost = lost
        self._server: asyncio.Server | None = None
        self._addresses: dict[str, str] = {}  # the others' link addresses, from their beats
        self._up: dict[str, tuple[str, _Outgoing]] = {}  # process -> (its address, link)
        self._opening: set[str] = set()
        self._failed: dict[str, float] = {}  # process -> when a link to it last failed
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    async def listen(self, host: str, port: int) -> str:
        """Listen for the others (port 0: a free one); the address they reach."""
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(lambda: _Incoming(self), host, port)
        bound = self._server.sockets[0].getsockname()[1]
        self.address = f"{host}:{bound}"
        return self.address

    def close(self) -> None:
        """This process stops: no link is listened for or opened any more."""
        self._closed = True
        if self._server is not None:
            self._server.close()
        for task in self._tasks:
            task.cancel()
        for _, link in self._up.values():
            if link.transport is not None:
                link.transport.close()  # what was written still goes
        for incoming in list(self.incoming):
            incoming.close("this process stops")
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
        at another address now, is closed."""
        self._addresses = dict(addresses)
        self._failed = {node: at for node, at in self._failed.items() if node in addresses}
        for node, (address, _) in list(self._up.items()):
            if self._addresses.get(node) != address:
                self.drop(node, f"{node} is gone or moved")

    def up(self, node: str) -> bool:
        return node in self._up

    def drop(self, node: str, why: str) -> None:
        """Let a link go (its process is gone, or does not answer over it)."""
        found = self._up.pop(node, None)
        if found is not None:
            found[1].close(why)
            self._lost(node)

    def send(self, node: str, message: str) -> bool:
        """Write a message on the link to ``node``: True if it went, False if there is no
        link up (one is opened for next time, if ``node`` has an address)."""
        found = self._up.get(node)
        if found is None:
            self._open_soon(node)
            return False
        link = found[1]
        assert link.transport is not None
        if link.transport.is_closing():  # ending: ``forget`` is told of it next
            return False
        if link.transport.get_write_buffer_size() > BUFFER_LIMIT:
            self.drop(node, f"{node} does not read its link")
            return False
        link.transport.write(message.encode() + b"\n")
        return True

    def forget(self, link: _Outgoing) -> None:
        """A link's connection ended: messages for its process go through Redis."""
        found = self._up.get(link.node)
        if found is not None and found[1] is link:
            del self._up[link.node]
            self._lost(link.node)

    def _open_soon(self, node: str) -> None:
        address = self._addresses.get(node)
        if self._closed or address is None or self.key is None or node in self._opening:
            return
        if time.monotonic() - self._failed.get(node, -RETRY) < RETRY:
            return
        self._opening.add(node)
        task = asyncio.create_task(self._open(node, address, self.key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _open(self, node: str, address: str, key: str) -> None:
        try:
            link = await self._connect(node, address, key)
        except (OSError, ValueError, TimeoutError) as error:
            log.info("no link to %s at %s (%s): Redis carries its messages", node, address, error)
            self._failed[node] = time.monotonic()
            return
        finally:
            self._opening.discard(node)
        if self._closed or self._addresses.get(node) != address:  # gone or moved meanwhile
            link.close(f"{node} moved")
            return
        self._up[node] = (address, link)
        self._failed.pop(node, None)

    async def _connect(self, node: str, address: str, key: str) -> _Outgoing:
        """A link to ``node`` whose handshake is done (closed if it is not)."""
        host, _, port = address.rpartition(":")
        loop = asyncio.get_running_loop()
        _, link = await asyncio.wait_for(
            loop.create_connection(lambda: _Outgoing(self, node, key), host, int(port)),
            OPEN_WAIT,
        )
        try:
            await asyncio.wait_for(link.done, OPEN_WAIT)
        except BaseException:  # refused, too slow, or this process stops
            link.close("its handshake was not done")
            raise
        return link
