"""A client's waiting frames go out in one write to its socket (``ws.frames_sender``):
over a real socket on uvicorn's websockets-sansio protocol, as the room serves, each frame
arrives whole and in order; under a server whose ``send`` is not that protocol's, the
frames go one by one through ``send``."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import uvicorn
from websockets.sync.client import connect

from splitpot.server.main import listening_socket
from splitpot.server.ws import frames_sender

FRAMES = ['{"type":"event","n":1}', '{"type":"event","n":2}', "x" * 70_000, "ü"]


class Counted:
    """A socket's transport that notes the size of each write."""

    def __init__(self, transport: asyncio.Transport, writes: list[int]) -> None:
        self.transport, self.writes = transport, writes

    def write(self, data: bytes) -> None:
        self.writes.append(len(data))
        self.transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


def test_waiting_frames_arrive_whole_in_order_from_one_write() -> None:
    writes: list[int] = []  # the size of each write to the socket after the handshake

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        await receive()
        await send({"type": "websocket.accept"})
        send.__self__.transport = Counted(send.__self__.transport, writes)
        send_all = frames_sender(send)
        assert send_all is not None
        await send_all(FRAMES)
        await receive()  # the client's goodbye

    listener = listening_socket("127.0.0.1", 0)
    port = listener.getsockname()[1]
    config = uvicorn.Config(
        app,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        lifespan="off",
        log_level="warning",
    )  # fmt: skip  (the room's: frames as they are, no compression)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        with connect(f"ws://127.0.0.1:{port}/", open_timeout=20, max_size=2**20) as client:
            received = [client.recv(timeout=20) for _ in FRAMES]
    finally:
        server.should_exit = True
        thread.join(timeout=20)
    assert received == FRAMES
    payload = sum(len(text.encode()) for text in FRAMES)
    headers = 2 + 2 + 10 + 2  # the 70,000-byte frame's length takes 8 more bytes
    assert writes[0] == payload + headers, writes  # all four in one write (then the close)


def test_another_servers_send_takes_the_frames_one_by_one() -> None:
    async def send(message: dict[str, Any]) -> None:
        raise AssertionError("not called here")

    assert frames_sender(send) is None
    assert frames_sender(asyncio.sleep) is None  # type: ignore[arg-type]
