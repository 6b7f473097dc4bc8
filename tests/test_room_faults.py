"""Faults the room lives through (issue: load, faults and bad input): a database that
answers a commit and loses the answer, a database that goes away for seconds, and a
client that stops reading. Nothing is lost or made twice, no chip moves, and the other
players notice nothing but a pause.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from room_helpers import (
    Client,
    RoomServer,
    is_event,
    play_hands,
    replay,
    running_room,
    seated_game,
)
from room_process import Serve, check_chips, check_hands_against_ledger
from sqlalchemy import make_url
from sqlalchemy.exc import OperationalError

from splitpot.server.room import Room
from splitpot.store import HandStatus, Store

WAIT = 30.0  # seconds any one thing may take before a test gives up
RESET = struct.pack("ii", 1, 0)  # SO_LINGER on, 0 s: close() resets the connection


def every_hand_replays(store: Store, table: str) -> int:
    """Every finished hand's log replays through the engine to its end: no action is
    missing or logged twice. The number of finished hands."""
    finished = [h for h in store.table_hands(table, 1000) if h.status is HandStatus.FINISHED]
    for hand in finished:
        table_after, _ = replay(store.hand_log(hand.id))
        assert table_after.hand is None, f"hand {hand.id}'s log does not reach its end"
    return len(finished)


# ------------------------------------------------------------ a commit whose answer is lost


def lose_answers(
    store: Store, monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...]
) -> list[str]:
    """The named store writes commit, then fail as if the connection dropped before the
    answer came back, the first two times each is called. The names, as they failed."""
    lost: list[str] = []

    def losing(name: str, write: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            result = write(*args, **kwargs)
            if lost.count(name) < 2:
                lost.append(name)
                raise OperationalError(f"{name} (committed)", None, ConnectionError("cut"))
            return result

        return call

    for name in names:
        monkeypatch.setattr(store, name, losing(name, getattr(store, name)))
    return lost


def test_a_write_committed_but_unanswered_is_sent_again_and_made_once(
    room: RoomServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The room sends again a write whose answer the database lost: the hand's start,
    its actions and its result are each in the store once, and play goes on."""
    table, (ann, bob) = seated_game(room, ("Ann", "Bob"), 100, name="Lost", seats=2)
    # one table's actions, a batch of one each: SQLite's file logs them on the loop
    log = "append_actions_now" if store.writes_without_waiting else "append_actions"
    lost = lose_answers(store, monkeypatch, ("start_hands", log, "finish_hands"))
    ann.send({"type": "host", "table": table, "action": "resume"})
    play_hands([ann, bob], table, 3)
    assert sorted(set(lost)) == sorted([log, "finish_hands", "start_hands"])
    monkeypatch.undo()
    assert every_hand_replays(store, table) >= 3
    assert [h.number for h in store.table_hands(table, 1000)][-3:] == [3, 2, 1]
    check_chips(store)
    check_hands_against_ledger(store)


# ------------------------------------------------------------ the database goes away


class Cut:
    """A TCP relay on loopback between the room and PostgreSQL that the test can cut:
    every connection through it is reset and new ones are refused until it is mended."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.links: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None
        self.mend()

    def mend(self) -> None:
        """Listen again (on the same port once it has one)."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Stop listening and reset every connection through the relay."""
        with self.lock:
            assert self.listener is not None
            for end in (self.listener, *self.links):
                with contextlib.suppress(OSError):
                    end.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
                    end.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked on it
                end.close()
            self.listener = None
            self.links.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                near, _ = listener.accept()
            except OSError:
                return
            far = socket.create_connection(self.target)
            with self.lock:
                self.links += [near, far]
            for source, sink in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.close()


def test_the_database_away_for_seconds_pauses_the_tables_and_loses_nothing(
    database_url: str, store: Store, tmp_path: Path
) -> None:
    """PostgreSQL unreachable for three seconds (every connection reset, new ones
    refused) while bots and a player play: the table pauses, the room answers health, no
    one is disconnected, and play resumes with every hand whole and every chip kept."""
    if not database_url.startswith("postgresql"):
        pytest.skip("the connection to cut is PostgreSQL's (SQLite is a file in the process)")
    url = make_url(database_url)
    relay = Cut(url.host or "127.0.0.1", url.port or 5432)
    room = Serve(url.set(host="127.0.0.1", port=relay.port).render_as_string(False), tmp_path)
    room.start()
    try:
        table = room.bots_table()["id"]
        watcher = Client(room, None)  # type: ignore[arg-type]
        watcher.send({"type": "watch", "table": table})
        watcher.wait(lambda f: f["type"] == "table", WAIT)
        watcher.wait(is_event("hand_ended"), WAIT)
        relay.cut()
        time.sleep(0.5)  # what was under way when the database went is stuck now
        during = watcher.hands_ended()
        time.sleep(3)
        assert watcher.hands_ended() <= during + 1, "hands ended with no database"
        assert httpx.get(f"{room.url}/api/health", timeout=5).status_code == 200
        relay.mend()
        deadline = time.monotonic() + WAIT
        while watcher.hands_ended() < during + 3:
            assert time.monotonic() < deadline, "play did not resume"
            assert not watcher.closed.is_set(), "the watcher was disconnected"
            time.sleep(0.05)
        assert "retrying" in room.log().read_text()
        watcher.close()
    finally:
        room.kill()
    check_chips(store)
    check_hands_against_ledger(store)
    assert every_hand_replays(store, table) >= 3


# ------------------------------------------------------------ a client that stops reading


def room_of(server: RoomServer) -> Room:
    """The room object behind a running test server (to count its connections)."""
    room: Room = server.server.config.app.state.room  # type: ignore[attr-defined]
    return room


def masked(text: str) -> bytes:
    """A client's WebSocket text frame (RFC 6455 5.2: clients mask what they send)."""
    data, key = text.encode(), os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else b"\xfe" + struct.pack("!H", len(data))
    return b"\x81" + size + key + bytes(b ^ key[i % 4] for i, b in enumerate(data))


def silent_watcher(server: RoomServer, table: str) -> socket.socket:
    """A WebSocket that says hello, watches ``table`` and then reads nothing at all, on
    a socket with a small receive buffer (a phone that went into a tunnel)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(WAIT)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    assert sock.recv(12) == b"HTTP/1.1 101"
    watch = json.dumps({"type": "watch", "table": table})
    sock.sendall(masked('{"type": "hello"}') + masked(watch))
    return sock


def test_a_client_that_stops_reading_is_dropped_and_its_table_plays_on(store: Store) -> None:
    """A watcher that reads nothing fills the kernel's bounded buffer, then its bounded
    queue, and is disconnected, without slowing its table; it reconnects and gets the
    whole table again."""
    with running_room(store) as server:
        _, token = server.guest("Holly")
        table = server.create_table(token, name="Busy", seats=6, bots=5)["table"]["id"]
        reader = Client(server, None)  # type: ignore[arg-type]
        reader.send({"type": "watch", "table": table})
        reader.wait(is_event("hand_ended"), WAIT)
        connections = room_of(server).routing.connections
        stalled = silent_watcher(server, table)
        stopped, before = time.monotonic(), reader.hands_ended()
        while len(connections) < 2:  # the silent watcher's hello
            assert time.monotonic() - stopped < WAIT, "the room never took the hello"
            time.sleep(0.01)
        while len(connections) > 1:  # the silent watcher is still connected
            assert time.monotonic() - stopped < 2 * WAIT, "the slow client was never dropped"
            time.sleep(0.05)
        dropped = time.monotonic()
        assert reader.hands_ended() - before >= 3, "the table waited for its slow watcher"
        assert not reader.closed.is_set()
        stalled.close()
        again = Client(server, None)  # type: ignore[arg-type]
        again.send({"type": "watch", "table": table})
        state = again.wait(lambda f: f["type"] == "table", WAIT)["state"]
        assert sum(seat["player"] is not None for seat in state["seats"]) == 5
        print(f"dropped after {dropped - stopped:.1f} s, {reader.hands_ended() - before} hands")
        for client in (reader, again):
            client.close()
