"""A real room for tests: uvicorn on a free loopback port in a thread, and clients that
talk to it over real sockets (HTTP with httpx, the WebSocket with websockets)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from splitpot.server.app import create_app
from splitpot.server.room import RoomOptions
from splitpot.store import Store

FAST = RoomOptions(hand_pause=0.05, bot_delay=0.0, db_retry=0.1)
Frame = dict[str, Any]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RoomServer:
    """A running room: ``url`` for HTTP, ``ws_url`` for the WebSocket."""

    def __init__(self, store: Store, options: RoomOptions = FAST, bots: int = 0) -> None:
        self.store = store
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        config = uvicorn.Config(
            create_app(store, options, bots=bots),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=64 * 1024,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> RoomServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the room did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=40)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10)

    def guest(self, name: str) -> tuple[str, str]:
        """A new guest: (player id, token)."""
        with self.http() as http:
            answer = http.post("/api/guests", json={"name": name})
        answer.raise_for_status()
        body = answer.json()
        return str(body["player"]["id"]), body["token"]

    def create_table(self, token: str, **settings: Any) -> dict[str, Any]:
        with self.http() as http:
            answer = http.post(
                "/api/tables", json=settings, headers={"Authorization": f"Bearer {token}"}
            )
        assert answer.status_code == 201, answer.text
        body: dict[str, Any] = answer.json()
        return body


@contextmanager
def running_room(store: Store, options: RoomOptions = FAST, bots: int = 0) -> Iterator[RoomServer]:
    room = RoomServer(store, options, bots).start()
    try:
        yield room
    finally:
        room.stop()


class Client:
    """One WebSocket client: every frame it receives is kept, in order."""

    def __init__(self, room: RoomServer, token: str | None) -> None:
        self._exit = ExitStack()
        self.socket: ClientConnection = self._exit.enter_context(
            connect(room.ws_url, max_size=2**22)
        )
        self.frames: list[Frame] = []
        self.raw: list[str] = []
        self.send({"type": "hello", "token": token} if token else {"type": "hello"})
        self.welcome = self.wait(lambda f: f["type"] in ("welcome", "error"))

    def send(self, message: Frame) -> None:
        self.socket.send(json.dumps(message))

    def receive(self, timeout: float) -> Frame | None:
        try:
            text = self.socket.recv(timeout=timeout)
        except TimeoutError:
            return None
        assert isinstance(text, str)
        self.raw.append(text)
        frame: Frame = json.loads(text)
        self.frames.append(frame)
        return frame

    def wait(self, matches: Callable[[Frame], bool], timeout: float = 10) -> Frame:
        """The first frame from now on that matches (earlier frames are not searched)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            frame = self.receive(left)
            if frame is not None and matches(frame):
                return frame
        raise AssertionError(f"no such frame within {timeout} s; last: {self.frames[-3:]}")

    def close(self) -> None:
        self._exit.close()


def is_event(kind: str) -> Callable[[Frame], bool]:
    return lambda f: f["type"] == "event" and f["event"]["kind"] == kind
