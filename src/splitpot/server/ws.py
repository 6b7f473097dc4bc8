"""The WebSocket ``/ws`` (PROTOCOL.md): one connection serves every table its player
watches or sits at. A reader turns frames into table commands; a writer drains the
connection's bounded queue. Nothing a client sends can reach a table unchecked."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from splitpot.protocol import (
    MAX_FRAME,
    Act,
    Chat,
    Command,
    Commit,
    ErrorCode,
    Hello,
    Host,
    Leave,
    ProtocolError,
    Reveal,
    Sit,
    SitIn,
    SitOut,
    TopUp,
    Watch,
    error_message,
    frame,
    read_frame,
    welcome,
)
from splitpot.server.actor import Command as TableCommand
from splitpot.server.actor import TableActor
from splitpot.server.connection import Connection
from splitpot.server.errors import refusal
from splitpot.server.room import Room
from splitpot.store import token_hash

router = APIRouter()
log = logging.getLogger("splitpot.room")

RATE = 20.0  # commands a second a connection may send, on average
BURST = 40.0  # and at once
TOO_BIG = 1009  # WebSocket close code: message too big


@router.websocket("/ws")
async def websocket(socket: WebSocket) -> None:
    room: Room = socket.app.state.room
    if not room.origin_allowed(socket.headers.get("origin"), socket.headers.get("host")):
        await socket.close(code=1008, reason="origin not allowed")
        return
    await socket.accept()
    await Client(room, socket).run()


@dataclass
class Client:
    room: Room
    socket: WebSocket
    connection: Connection | None = None
    watching: dict[str, TableActor] = field(default_factory=dict)
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
                        await self._rejoin()
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
                raise ProtocolError(ErrorCode.BAD_MESSAGE, "the first message is hello", ref)
            player = None
            if command.token is not None:
                player = await self.room.db(self.room.store.player_for_token, command.token)
                if player is None:
                    raise ProtocolError(
                        ErrorCode.UNAUTHORIZED, "the token is unknown or logged out", ref
                    )
        except Exception as error:  # a refusal, or a bug: answered, never a dropped socket
            failure = refusal(error)
            if failure.code is ErrorCode.SERVER_ERROR:
                log.exception("hello failed")
            answer = error_message(failure.code, failure.message, failure.ref or ref)
            await self.socket.send_text(frame(answer))
            return
        session = None if command.token is None else token_hash(command.token)
        self.connection = Connection(player, session=session)
        self.room.connections.add(self.connection)
        who = None if player is None else str(player.id)
        self.connection.send(frame(welcome(who, None if player is None else player.name)))

    async def _rejoin(self) -> None:
        """After hello, every table where the player sits: its ``table``, then a ``turn``."""
        assert self.connection is not None
        player = self.connection.player
        if player is None:
            return
        for actor in self.room.seated(player.id):
            self.watching[actor.id] = actor
            await actor.submit(TableCommand(self.connection, "watch"))

    async def _take(self, data: str | bytes) -> None:
        """One command: checked, rate-limited, then given to its table."""
        assert self.connection is not None
        ref = None
        try:
            self._spend()
            command = self._read(data)
            ref = command.ref
            await self._dispatch(command)
        except ProtocolError as error:
            self._refuse(error.code, error.message, error.ref if error.ref is not None else ref)
        except Exception as error:  # a refusal of the core or the store, or a bug
            failure = refusal(error)
            if failure.code is ErrorCode.SERVER_ERROR:
                log.exception("command failed")
            self._refuse(failure.code, failure.message, ref)

    def _read(self, data: str | bytes) -> Command:
        if isinstance(data, bytes):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "frames are JSON text, not binary")
        return read_frame(data)

    def _spend(self) -> None:
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            raise ProtocolError(ErrorCode.RATE_LIMITED, f"at most {RATE:g} messages a second")
        self.allowance -= 1

    async def _dispatch(self, command: Command) -> None:
        assert self.connection is not None
        if isinstance(command, Hello):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "hello comes once, first", command.ref)
        if isinstance(command, Watch):
            actor = await self._visible(command.table, command.invite)
            self.watching[actor.id] = actor
            await self._submit(actor, "watch")
            return
        if self.connection.player is None:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "a watcher may only watch: say hello with a token"
            )
        if isinstance(command, Sit):
            actor = await self._visible(command.table, None)
            self.watching[actor.id] = actor
            await self._submit(
                actor, "sit", seat=command.seat, buy_in=command.buy_in, post_now=command.post_now
            )
        elif isinstance(command, Act):
            await self._submit(
                self._table(command.table),
                "act",
                hand=command.hand,
                action=command.action,
                seat=command.seat,
            )
        elif isinstance(command, SitOut):
            await self._submit(self._table(command.table), "sit_out")
        elif isinstance(command, SitIn):
            await self._submit(self._table(command.table), "sit_in", post_now=command.post_now)
        elif isinstance(command, Leave):
            await self._submit(self._table(command.table), "leave")
        elif isinstance(command, TopUp):
            await self._submit(self._table(command.table), "top_up", amount=command.amount)
        elif isinstance(command, Chat):
            actor = self.watching.get(command.table) or self._table(command.table)
            await self._submit(actor, "chat", text=command.text)
        elif isinstance(command, Host):
            await self._submit(
                self.room.actor(command.table),
                "host",
                action=command.action,
                seat=command.seat,
                small_blind=command.small_blind,
                big_blind=command.big_blind,
            )
        elif isinstance(command, Commit):
            await self._submit(self._table(command.table), "commit", commitment=command.commitment)
        elif isinstance(command, Reveal):
            await self._submit(
                self._table(command.table), "reveal", hand=command.hand, entropy=command.entropy
            )

    async def _visible(self, table: str, invite: str | None) -> TableActor:
        assert self.connection is not None
        actor = self.room.actor(table)
        if actor.id in self.watching:
            return actor
        if not await self.room.may_see(actor, invite, self.connection.player):
            raise ProtocolError(ErrorCode.FORBIDDEN, "a private table needs its invite")
        return actor

    def _table(self, table: str) -> TableActor:
        actor = self.room.actor(table)
        assert self.connection is not None and self.connection.player is not None
        if actor.seat_of(self.connection.player.id) is None:
            raise ProtocolError(
                ErrorCode.NOT_SEATED, f"{self.connection.player.name} does not sit at table {table}"
            )
        return actor

    async def _submit(self, actor: TableActor, name: str, **fields: Any) -> None:
        await actor.submit(TableCommand(self.connection, name, fields))

    def _refuse(self, code: ErrorCode, message: str, ref: object) -> None:
        assert self.connection is not None
        self.connection.send(frame(error_message(code, message, ref)))  # type: ignore[arg-type]

    async def _write(self, connection: Connection) -> None:
        """Send the connection's frames in order, then close the socket."""
        try:
            while (text := await connection.queue.get()) is not None:
                await self.socket.send_text(text)
        except Exception:  # the socket went away: the reader sees it too
            connection.closed = True
        with contextlib.suppress(Exception):
            await self.socket.close()

    async def _goodbye(self, writer: asyncio.Task[None] | None) -> None:
        connection = self.connection
        if connection is None:
            return
        self.room.connections.discard(connection)
        for actor in self.watching.values():
            actor.submit_nowait(TableCommand(connection, "unwatch"))
        connection.close()
        if writer is not None:  # it sends what is queued, or stops (cancelled, or at 1 s)
            await asyncio.wait({writer}, timeout=1)
            writer.cancel()
