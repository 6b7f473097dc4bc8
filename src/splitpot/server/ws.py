"""The WebSocket ``/ws`` (PROTOCOL.md): one connection serves every table its player
watches or sits at, whichever of the room's processes runs it. A reader turns frames into
commands for the room to route; a writer drains the connection's bounded queue. Nothing a
client sends can reach a table unchecked."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
import time
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from fastapi import WebSocket
from starlette.types import Send
from starlette.websockets import WebSocketDisconnect
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import OPEN

from splitpot.i18n import negotiate, said, words
from splitpot.protocol import (
    MAX_FRAME,
    Command,
    ErrorCode,
    Hello,
    ProtocolError,
    error_message,
    frame,
    read_frame,
    welcome,
)
from splitpot.server.connection import Connection
from splitpot.server.errors import refusal
from splitpot.server.room import Room
from splitpot.store import token_hash

log = logging.getLogger("splitpot.room")

RATE = 20.0  # commands a second a connection may send, on average
BURST = 40.0  # and at once
TOO_BIG = 1009  # WebSocket close code: message too big
PATH = "/ws"  # where the room's WebSocket is (``app.DirectSocket`` sends it here)
FINAL_TEXT = 0x81  # a frame's first byte: FIN, and the opcode of text (RFC 6455 5.2)


async def websocket(socket: WebSocket, send: Send) -> None:
    """A connection to ``/ws``: refused by its Origin, or accepted and served; ``send``:
    the server's own, which the accepted socket's frames go straight to."""
    room: Room = socket.app.state.room
    if not room.guard.origin_allowed(socket.headers.get("origin"), socket.headers.get("host")):
        await socket.close(code=1008, reason="origin not allowed")
        return
    await socket.accept()
    await Client(room, socket, send).run()


@dataclass
class Client:
    room: Room
    socket: WebSocket
    send: Send  # the server's, past Starlette's checks of each message (the hot path)
    connection: Connection | None = None
    allowance: float = BURST
    checked: float = field(default_factory=time.monotonic)
    dropped: tuple[int, str] | None = None  # the close code and reason, once dropped

    async def run(self) -> None:
        writer: asyncio.Task[None] | None = None
        reader = asyncio.current_task()
        assert reader is not None
        try:
            while True:
                message = await self.socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                data = text if text is not None else message.get("bytes") or b""
                size = len(data.encode() if isinstance(data, str) else data)
                if size > MAX_FRAME:
                    await self.socket.close(TOO_BIG, f"a message is at most {MAX_FRAME} bytes")
                    break
                if self.connection is None:
                    await self._greet(data)
                    if self.connection is not None:
                        writer = asyncio.create_task(self._write(self.connection))
                        self.connection.on_drop = partial(self._drop, writer, reader)
                        await self.room.routing.rejoin(self.connection)
                    continue
                await self._take(data)
                if self.connection.closed:
                    break
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            if self.dropped is None:
                raise
            reader.uncancel()  # dropped: the room lets go now
        finally:
            await self._goodbye(writer)
        if self.dropped is not None:  # a close frame if the client still reads (1 s at most)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.socket.close(*self.dropped), 1)

    def _drop(
        self, writer: asyncio.Task[None], reader: asyncio.Task[Any], why: str, code: int
    ) -> None:
        """Stop the client's writer, even in the middle of a send it does not read, and
        its reader: the room forgets it at once, then closes the socket with ``code``."""
        log.warning("a client was dropped: %s", why)
        self.dropped = (code, why)
        writer.cancel()
        reader.cancel()

    async def _greet(self, data: str | bytes) -> None:
        """The first message is ``hello``: with a token, a player; without, a watcher.
        Hellos are rate-limited like commands (each with a token is a database lookup)."""
        ref = None
        try:
            self._spend()
            command = self._read(data)
            ref = command.ref
            if not isinstance(command, Hello):
                raise ProtocolError(ErrorCode.BAD_MESSAGE, said("the first message is hello"), ref)
            player = None
            if command.token is not None:
                player = await self.room.db(self.room.store.player_for_token, command.token)
                if player is None:
                    unknown = said("the token is unknown or logged out")
                    raise ProtocolError(ErrorCode.UNAUTHORIZED, unknown, ref)
        except Exception as error:  # a refusal, or a bug: answered, never a dropped socket
            failure = refusal(error)
            if failure.code is ErrorCode.SERVER_ERROR:
                log.exception("hello failed")
            hello = words(negotiate(self.socket.headers.get("accept-language")))
            answer = error_message(failure.code, failure.told(hello), failure.ref or ref)
            await self.socket.send_text(frame(answer))
            return
        session = None if command.token is None else token_hash(command.token)
        lang = command.lang or negotiate(self.socket.headers.get("accept-language"))
        self.connection = Connection(player, session=session, words=words(lang))
        self.room.routing.connections[self.connection.id] = self.connection
        who = None if player is None else str(player.id)
        greeting = welcome(who, None if player is None else player.name, lang.value)
        servers = self.room.servers()
        if servers:
            greeting["servers"] = list(servers)
        self.connection.send(frame(greeting))

    async def _take(self, data: str | bytes) -> None:
        """One command: checked, rate-limited, then given to its table."""
        assert self.connection is not None
        ref = None
        try:
            self._spend()
            command = self._read(data)
            ref = command.ref
            if isinstance(command, Hello):
                raise ProtocolError(ErrorCode.BAD_MESSAGE, said("hello comes once, first"), ref)
            assert isinstance(data, str)  # binary frames are refused by _read
            await self.room.routing.route(self.connection, command, data)
        except ProtocolError as error:
            self._refuse(error, error.ref if error.ref is not None else ref)
        except Exception as error:  # a refusal of the core or the store, or a bug
            failure = refusal(error)
            if failure.code is ErrorCode.SERVER_ERROR:
                log.exception("command failed")
            self._refuse(failure, ref)

    def _read(self, data: str | bytes) -> Command:
        if isinstance(data, bytes):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, said("frames are JSON text, not binary"))
        return read_frame(data)

    def _spend(self) -> None:
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                said("at most {rate} messages a second", rate=format(RATE, "g")),
            )
        self.allowance -= 1

    def _refuse(self, failure: ProtocolError, ref: object) -> None:
        """The refusal, in the connection's language."""
        assert self.connection is not None
        told = failure.told(self.connection.words)
        self.connection.send(frame(error_message(failure.code, told, ref)))  # type: ignore[arg-type]

    async def _write(self, connection: Connection) -> None:
        """Send the connection's frames in order, those waiting together in one write
        (written at once by its outbox where the socket takes them, here otherwise); then
        close the socket."""
        writer = frame_writer(self.send)
        connection.outbox.direct = None if writer is None else writer.write_now
        try:
            while texts := await connection.outbox.take():
                if writer is not None:
                    await writer.send(texts)
                    continue
                for text in texts:
                    await self.send({"type": "websocket.send", "text": text})
        except Exception:  # the socket went away: the reader sees it too
            connection.closed = True
        with contextlib.suppress(Exception):
            await self.socket.close()

    async def _goodbye(self, writer: asyncio.Task[None] | None) -> None:
        connection = self.connection
        if connection is None:
            return
        self.room.routing.goodbye(connection)
        connection.close()
        if writer is not None:  # it sends what is queued, or stops (cancelled, or at 1 s)
            await asyncio.wait({writer}, timeout=1)
            writer.cancel()


@dataclass(frozen=True, slots=True)
class FrameWriter:
    """Frames to one client's socket in a single write, one system call for all that
    wait rather than one a frame (docs/load.md), made here (``text_frame``), a frame many
    connections share once for all: on uvicorn's websockets-sansio protocol, the room's
    server, whose socket it writes."""

    server: WebSocketsSansIOProtocol

    def write_now(self, texts: list[str]) -> bool:
        """Write the frames unless the socket's buffer is full or the socket is closing
        (False: nothing written; ``send`` waits, or tells)."""
        if not self.server.writable.is_set() or self._closing():
            return False
        self._write(texts)
        return True

    async def send(self, texts: list[str]) -> None:
        """Write the frames once the socket's buffer has room, as uvicorn's own ``send``
        waits: a client that stops reading fills its outbox and is dropped."""
        await self.server.writable.wait()
        if self._closing():
            raise ConnectionResetError("the client's socket is closing")
        self._write(texts)

    def _write(self, texts: list[str]) -> None:
        self.server.transport.write(b"".join([_framed(text) for text in texts]))

    def _closing(self) -> bool:
        server = self.server
        return (
            server.disconnected
            or server.close_sent
            or server.transport.is_closing()
            or server.conn.state is not OPEN  # the client's close frame came: nothing after
        )


def frame_writer(send: Send) -> FrameWriter | None:
    """The writer of the socket whose server's ``send`` this is, where it is uvicorn's
    websockets-sansio protocol; None under another server, whose ``send`` then takes the
    frames one by one."""
    server = getattr(send, "__self__", None)
    return FrameWriter(server) if isinstance(server, WebSocketsSansIOProtocol) else None


def text_frame(text: str) -> bytes:
    """``text`` as one final WebSocket text frame from the server: unmasked, not
    compressed (RFC 6455 5.2; the room offers no compression)."""
    payload = text.encode()
    size = len(payload)
    if size < 126:
        return bytes((FINAL_TEXT, size)) + payload
    if size < 1 << 16:
        return struct.pack("!BBH", FINAL_TEXT, 126, size) + payload
    return struct.pack("!BBQ", FINAL_TEXT, 127, size) + payload


# A frame the table shares (the same text to every connection that sees it alike) is
# framed once for all of them: their writers run one after another once the table yields.
_framed = lru_cache(maxsize=64)(text_frame)
