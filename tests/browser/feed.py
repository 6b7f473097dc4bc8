"""What the room says while the pages play, as it happens: a second WebSocket for each
player (same token as their page: a player's turn goes to all their connections), read on
threads into one list, so a test knows whose turn it is and when a hand ends without
polling a page; and the room's own event loop, to close a page's socket from the server."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from room_helpers import Client, Frame, RoomServer
from test_room_privacy import Truth

from splitpot.server.room import Room

T = TypeVar("T")
Act = Callable[[Frame], None]  # answers one turn (by clicks on a page, or a command)


class Feed:
    """Every frame the players' second connections receive, tagged with the seat, in
    order of arrival. The test reads it with ``next`` (a cursor it moves) or ``find``."""

    def __init__(self, room: RoomServer, table: str, invite: str | None = None) -> None:
        self.room = room
        self.table = table
        self.invite = invite
        self.clients: dict[int, Client] = {}
        self.frames: list[tuple[int, Frame]] = []
        self.cursor = 0
        self._arrived = threading.Condition()

    def add(self, seat: int, token: str) -> Client:
        """Follow the player who sits (or will sit) in ``seat``."""
        client = Client(self.room, token)
        watch = {"type": "watch", "table": self.table}
        client.send(watch if self.invite is None else watch | {"invite": self.invite})
        client.wait(lambda f: f["type"] == "table" and f["table"] == self.table)
        self.clients[seat] = client
        threading.Thread(target=self._forward, args=(seat, client), daemon=True).start()
        return client

    def _forward(self, seat: int, client: Client) -> None:
        while not client.closed.is_set():
            try:
                frame = client.wait(lambda f: True, timeout=3600)
            except AssertionError:
                return  # closed
            with self._arrived:
                self.frames.append((seat, frame))
                self._arrived.notify_all()

    def find(
        self, matches: Callable[[int, Frame], bool], start: int = 0, timeout: float = 20
    ) -> tuple[int, Frame]:
        """The first frame from ``start`` that matches (its index, the frame); waits."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            index = start
            while True:
                while index < len(self.frames):
                    seat, frame = self.frames[index]
                    if matches(seat, frame):
                        return index, frame
                    index += 1
                left = deadline - time.monotonic()
                assert left > 0, f"no such frame within {timeout} s; last: {self.frames[-3:]}"
                self._arrived.wait(left)

    def next(self, timeout: float = 20) -> tuple[int, Frame]:
        """The next frame after the cursor (seat, frame); the cursor moves past it."""
        index, frame = self.find(lambda seat, f: True, self.cursor, timeout)
        self.cursor = index + 1
        return self.frames[index][0], frame

    def event(self, kind: str, start: int = 0, by: int | None = None, **fields: Any) -> Frame:
        """The first event of ``kind`` at this table from ``start`` with these fields (as
        the player of seat ``by`` received it: a ``dealt`` has only the player's cards)."""

        def matches(seat: int, frame: Frame) -> bool:
            if by not in (None, seat) or frame["type"] != "event" or frame["table"] != self.table:
                return False
            event: Frame = frame["event"]
            return event["kind"] == kind and all(event.get(k) == v for k, v in fields.items())

        found: Frame = self.find(matches, start)[1]["event"]
        return found

    def events(self, kind: str, hand: str) -> list[Frame]:
        """The events of ``kind`` in ``hand`` received so far (as one player saw them)."""
        with self._arrived:
            first = min(self.clients)
            return [
                frame["event"]
                for seat, frame in self.frames
                if seat == first
                and frame["type"] == "event"
                and frame["event"]["kind"] == kind
                and frame["event"]["hand"] == hand
            ]

    def sit(self, seat: int, buy_in: int, post_now: bool = False) -> None:
        """The player followed for ``seat`` sits there (by a command, not a page)."""
        start = len(self.frames)
        sit = {"type": "sit", "table": self.table, "seat": seat, "buy_in": buy_in}
        sit["post_now"] = post_now
        self.clients[seat].send(sit)
        self.event("player_sat", start, seat=seat)

    def host(self, host_seat: int, action: str) -> None:
        """A host command on the host's second connection (pausing, resuming)."""
        start = len(self.frames)
        self.clients[host_seat].send({"type": "host", "table": self.table, "action": action})
        self.event("host", start, action=action)

    def deal(self, host_seat: int) -> str:
        """Deal exactly one hand at a table the host has paused: resume, pause again once
        the hand has started (it is played out). The hand's id."""
        start = len(self.frames)
        self.clients[host_seat].send({"type": "host", "table": self.table, "action": "resume"})
        hand: str = self.event("hand_started", start)["hand"]
        self.host(host_seat, "pause")
        return hand

    def play(self, hand: str, players: dict[int, Act], timeout: float = 60) -> Frame:
        """Answer each turn of ``hand`` with the seat's ``Act`` until the hand ends; its
        ``hand_ended`` event. The frames before the cursor were played already."""
        answered: set[tuple[int, int]] = set()
        deadline = time.monotonic() + timeout
        while True:
            seat, frame = self.next(deadline - time.monotonic())
            assert frame["type"] != "error", frame
            if frame["type"] == "turn" and frame["hand"] == hand:
                if (seat, frame["seq"]) not in answered:
                    answered.add((seat, frame["seq"]))
                    players[seat](frame)
            elif frame["type"] == "event" and frame["event"]["hand"] == hand:
                ended: Frame = frame["event"]
                if ended["kind"] == "hand_ended":
                    self._everyone_saw(ended)
                    return ended

    def _everyone_saw(self, event: Frame) -> None:
        """Wait until every player followed has received ``event`` too."""
        for follower in self.clients:
            self.find(lambda seat, f, s=follower: seat == s and f.get("event") == event)

    def close(self) -> None:
        for client in self.clients.values():
            client.close()


def heads_up(
    room: RoomServer, host_token: str, name: str, **settings: Any
) -> tuple[str, Feed, Client]:
    """A new two-seat table of the host's (``host_token``), paused, followed on the wire
    for the host (seat 1) and for Bob, a guest who plays seat 2 by commands: the table's
    id, the feed and Bob's connection. Nobody sits yet."""
    _, bob_token = room.guest("Bob")
    table = room.create_table(host_token, name=name, seats=2, **settings)["table"]["id"]
    feed = Feed(room, table)
    feed.add(1, host_token)
    bob = feed.add(2, bob_token)
    feed.host(1, "pause")
    return str(table), feed, bob


def showdown(turn: Frame) -> Frame:
    """Check or call, and show at the showdown: the hand is shown down."""
    legal = {entry["action"] for entry in turn["legal"]}
    return {"action": next(a for a in ("check", "call", "show") if a in legal)}


def command(client: Client, table: str, choose: Callable[[Frame], Frame]) -> Act:
    """An ``Act`` for a player who plays by commands on their connection (not a page)."""
    return lambda turn: client.send(
        {"type": "act", "table": table, "hand": turn["hand"]} | choose(turn)
    )


def table_state(room: RoomServer, table: str) -> Frame:
    """The table as a watcher sees it now (a snapshot on a connection of its own)."""
    watcher = Client(room, None)
    try:
        return watcher.state(table)
    finally:
        watcher.close()


def on_loop(room: RoomServer, call: Callable[[Room], Awaitable[T]]) -> T:
    """Await ``call(room)`` on the running room's event loop (its thread); its result."""
    loop = room.server.servers[0].get_loop()
    app: Any = room.server.config.app
    return asyncio.run_coroutine_threadsafe(call(app.state.room), loop).result(timeout=10)


def truth(room: RoomServer, hand: str) -> Truth:
    """A finished hand as the store keeps it (read on the store's own thread)."""
    return on_loop(room, lambda r: r.db(Truth.of, r.store, hand))


def connections_of(room: RoomServer, player: str) -> set[int]:
    """The ids of the player's open connections to the room."""

    async def ids(r: Room) -> set[int]:
        return {c.id for c in r.routing.connections.values() if str(c.player_id) == str(player)}

    return on_loop(room, ids)


def drop(room: RoomServer, connections: set[int]) -> None:
    """The room closes these connections' sockets, as when it drops a slow client."""

    async def close(r: Room) -> None:
        for connection in list(r.routing.connections.values()):
            if connection.id in connections:
                connection.close()

    on_loop(room, close)
