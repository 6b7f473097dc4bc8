"""One client's WebSocket as the tables see it: frames go into a bounded outbox that a
writer task drains, so a slow reader never slows a table; when the outbox is full the
connection is dropped (the client reconnects and gets the whole table again). A client of
another of the room's processes is a ``RemoteConnection``: its frames go there."""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from splitpot.i18n import ENGLISH, Words
from splitpot.store import Player

if TYPE_CHECKING:
    from splitpot.server.cluster import Cluster

SEND_QUEUE = 512  # frames waiting for a slow client before it is dropped
TRY_AGAIN = 1013  # WebSocket close code: try again later (reconnect)
POLICY = 1008  # WebSocket close code: refused by the room's rules
SEND_BUFFER = 256 * 1024  # bytes the kernel may hold for a client (its socket's buffer)
_ids = itertools.count(1)


class _Due(threading.local):
    """The outboxes with frames to write at once, on this thread's loop: all written in
    one callback after the steps that queued them, one ``call_soon`` a turn of the loop
    rather than one a connection."""

    def __init__(self) -> None:
        self.outboxes: list[Outbox] = []
        self.loop: asyncio.AbstractEventLoop | None = None

    def add(self, outbox: Outbox) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self.loop:  # a new loop on this thread: the last one's are gone
            self.loop, self.outboxes = loop, []
        if not self.outboxes:
            loop.call_soon(self._flush)
        self.outboxes.append(outbox)

    def _flush(self) -> None:
        due, self.outboxes = self.outboxes, []
        for outbox in due:
            outbox.flush()


_due = _Due()


class Outbox:
    """A connection's frames waiting for its socket, at most ``SEND_QUEUE``. Where the
    socket can be written at once (``direct``), the frames a table's step queued are
    written in one callback after it; otherwise (the socket's buffer full, another
    server) the connection's writer task ``take``s them all and waits for the socket.
    Lighter than an ``asyncio.Queue`` and a task's wake a frame (docs/load.md)."""

    def __init__(self) -> None:
        self._frames: deque[str] = deque()
        self._waiter: asyncio.Future[None] | None = None  # the writer, idle
        self._flushing = False  # a direct write is on its way
        self.direct: Callable[[list[str]], bool] | None = None  # True: written now
        self.ended = False

    def put(self, frame: str) -> bool:
        """Queue ``frame``; False when the outbox is full (or ended), and nothing queued."""
        if self.ended or len(self._frames) >= SEND_QUEUE:
            return False
        self._frames.append(frame)
        if not self._idle():  # the writer is busy, woken or not started: it takes them
            return True
        if self.direct is None:
            self._wake()
        elif not self._flushing:
            self._flushing = True
            _due.add(self)
        return True

    def end(self) -> None:
        """No more frames: those waiting are dropped and the writer's ``take`` ends."""
        self.ended = True
        self._frames.clear()
        self._wake()

    async def take(self) -> list[str]:
        """Every frame waiting, in order, once there is one; [] once ended."""
        while not self._frames and not self.ended:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        taken = list(self._frames)
        self._frames.clear()
        return taken

    def flush(self) -> None:
        """The frames waiting, written at once while the writer is idle (so none can
        overtake another); where the socket cannot take them now, the writer does."""
        self._flushing = False
        if not self._frames or not self._idle() or self.direct is None:
            return
        if self.direct(list(self._frames)):
            self._frames.clear()
        else:
            self._wake()

    def _idle(self) -> bool:
        """The writer waits in ``take``, not yet woken."""
        return self._waiter is not None and not self._waiter.done()

    def _wake(self) -> None:
        if self._idle():
            assert self._waiter is not None
            self._waiter.set_result(None)


@dataclass(eq=False)
class Connection:
    """A client of the room; ``player`` is None for a watcher without a session."""

    player: Player | None
    outbox: Outbox = field(default_factory=Outbox)
    id: int = field(default_factory=lambda: next(_ids))
    session: str | None = None  # the hash of the session token it said hello with
    closed: bool = False
    on_drop: Callable[[str, int], None] | None = None  # cuts the socket of a client dropped
    watching: dict[str, str | None] = field(default_factory=dict)  # table -> its invite
    words: Words = ENGLISH  # the language of the dealer's words and the room's messages

    @property
    def player_id(self) -> int | None:
        return None if self.player is None else self.player.id

    def send(self, frame: str) -> None:
        """Queue a frame without waiting; a client too slow to keep up is dropped."""
        if not self.closed and not self.outbox.put(frame):
            self.drop(f"{SEND_QUEUE} messages unread")

    def drop(self, why: str, code: int = TRY_AGAIN) -> None:
        """Let go of the client (too slow to keep up, or its session ended): stop sending,
        and cut its socket (WebSocket close ``code``) even while a frame to it is stuck."""
        self.close()
        if self.on_drop is not None:
            self.on_drop(why, code)

    def close(self) -> None:
        """Stop sending; the writer ends and the socket is closed."""
        if self.closed:
            return
        self.closed = True
        self.outbox.end()


@dataclass(eq=False)
class RemoteConnection(Connection):
    """A client connected to another process of the room, at a table run here: its frames
    are sent to that process (``node``), which gives them to its connection ``remote_id``.
    That process's own queue bounds a slow client; this side only stops when it is told
    the client has gone (or the process has)."""

    node: str = ""
    remote_id: int = 0
    cluster: Cluster | None = None
    table_id: str = ""
    fence: int = 0  # the lease this process runs the table under

    def send(self, frame: str) -> None:
        if not self.closed and self.cluster is not None:
            self.cluster.frame(self.node, self.table_id, self.fence, self.remote_id, frame)

    def drop(self, why: str, code: int = TRY_AGAIN) -> None:
        self.closed = True

    def close(self) -> None:
        self.closed = True
