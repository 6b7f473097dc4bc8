"""One client's WebSocket as the tables see it: frames go into a bounded queue that a
writer task drains, so a slow reader never slows a table; when the queue is full the
connection is dropped (the client reconnects and gets the whole table again). A client of
another of the room's processes is a ``RemoteConnection``: its frames go there."""

from __future__ import annotations

import asyncio
import itertools
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


@dataclass(eq=False)
class Connection:
    """A client of the room; ``player`` is None for a watcher without a session."""

    player: Player | None
    queue: asyncio.Queue[str | None] = field(
        default_factory=lambda: asyncio.Queue(maxsize=SEND_QUEUE)
    )
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
        if self.closed:
            return
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
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
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)


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
