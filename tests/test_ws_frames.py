"""A client's waiting frames go out in one write to its socket (``ws.FrameWriter``):
over a real socket on uvicorn's websockets-sansio protocol, as the room serves, each frame
arrives whole and in order; under a server whose ``send`` is not that protocol's, the
frames go one by one through ``send``. The room makes the frames itself (``text_frame``,
byte for byte as the websockets library would), and a connection's ``Outbox`` writes
the frames of a table's step at once after it, or hands its writer all that wait."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
import uvicorn
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from splitpot.server.connection import SEND_QUEUE, Connection, Outbox
from splitpot.server.main import listening_socket
from splitpot.server.ws import frame_writer, text_frame

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


def test_waiting_frames_arrive_whole_in_order_each_batch_in_one_write() -> None:
    writes: list[int] = []  # the size of each write to the socket after the handshake

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        await receive()
        await send({"type": "websocket.accept"})
        send.__self__.transport = Counted(send.__self__.transport, writes)
        writer = frame_writer(send)
        assert writer is not None
        assert writer.write_now(FRAMES[:2])  # at once, as an outbox does after a step
        await writer.send(FRAMES[2:])  # as the writer task does
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
    sizes = [len(text.encode()) for text in FRAMES]  # each frame's head: 2 bytes; 10 for
    batches = [sizes[0] + sizes[1] + 2 + 2, sizes[2] + sizes[3] + 10 + 2]  # 70,000 bytes
    assert writes[:2] == batches, writes  # each batch in one write (then the close)


def test_another_servers_send_takes_the_frames_one_by_one() -> None:
    async def send(message: dict[str, Any]) -> None:
        raise AssertionError("not called here")

    assert frame_writer(send) is None
    assert frame_writer(asyncio.sleep) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65_535, 65_536, 200_000])
def test_a_text_frame_is_the_websockets_librarys_byte_for_byte(size: int) -> None:
    text = ("é" + "a" * size)[:size] if size else ""  # at the length's edges, not ASCII too
    expected = Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])
    assert text_frame(text) == expected


def test_the_outbox_hands_its_writer_every_waiting_frame_in_order() -> None:
    async def play() -> None:
        outbox = Outbox()
        taking = asyncio.ensure_future(outbox.take())
        await asyncio.sleep(0)
        assert not taking.done()  # nothing waits yet
        assert outbox.put("a") and outbox.put("b")
        assert await taking == ["a", "b"]
        assert outbox.put("c")
        outbox.end()  # what waits is dropped, and the writer stops
        assert await outbox.take() == []
        assert not outbox.put("d")
        waiting = Outbox()
        ending = asyncio.ensure_future(waiting.take())
        await asyncio.sleep(0)
        waiting.end()
        assert await ending == []  # a writer waiting is woken by the end

    asyncio.run(play())


class Socket:
    """A socket's direct write: what it wrote, each call; ``full`` while it cannot."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.full = False

    def write_now(self, texts: list[str]) -> bool:
        if self.full:
            return False
        self.writes.append(texts)
        return True


def test_a_steps_frames_are_written_at_once_in_one_write_while_the_writer_idles() -> None:
    async def play() -> None:
        outbox, socket = Outbox(), Socket()
        outbox.direct = socket.write_now
        taking = asyncio.ensure_future(outbox.take())
        await asyncio.sleep(0)
        outbox.put("acted")
        outbox.put("to_act")
        assert socket.writes == []  # not before the table's step ends
        await asyncio.sleep(0)
        assert socket.writes == [["acted", "to_act"]]
        assert not taking.done()  # the writer was not woken
        socket.full = True  # the client reads no more: the writer waits for the socket
        outbox.put("turn")
        await asyncio.sleep(0)
        assert await taking == ["turn"]
        socket.full = False
        outbox.put("later")  # the writer is busy with "turn": it takes this one next
        await asyncio.sleep(0)
        assert socket.writes == [["acted", "to_act"]]
        assert await outbox.take() == ["later"]
        idle = asyncio.ensure_future(outbox.take())
        await asyncio.sleep(0)
        outbox.put("never sent")
        outbox.end()  # ended before the write: nothing goes, and the writer stops
        await asyncio.sleep(0)
        assert socket.writes == [["acted", "to_act"]]
        assert await idle == []

    asyncio.run(play())


def test_the_outboxes_a_turn_filled_are_written_after_it_and_a_new_loop_starts_afresh() -> None:
    """Every outbox a turn of the loop filled is written in one callback after it; a loop
    that stopped before that callback ran leaves nothing stuck for the thread's next."""

    writers: list[asyncio.Future[list[str]]] = []

    async def fill(sockets: list[Socket], stop: bool = False) -> None:
        outboxes = []
        for socket in sockets:
            outbox = Outbox()
            outbox.direct = socket.write_now
            outboxes.append(outbox)
            writers.append(asyncio.ensure_future(outbox.take()))
        await asyncio.sleep(0)  # the writers wait
        for number, outbox in enumerate(outboxes):
            outbox.put(f"frame {number}")
        if stop:  # the loop stops before the writes' turn
            asyncio.get_running_loop().stop()

    left = [Socket()]
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(lambda *_: None)  # its writers are left pending: so be it
    filled = loop.create_task(fill(left, stop=True))
    loop.run_forever()
    loop.close()
    assert filled.done() and left[0].writes == []

    async def play() -> None:
        sockets = [Socket(), Socket(), Socket()]
        await fill(sockets)
        assert [socket.writes for socket in sockets] == [[], [], []]  # not in the turn
        await asyncio.sleep(0)
        assert [socket.writes for socket in sockets] == [
            [["frame 0"]],
            [["frame 1"]],
            [["frame 2"]],
        ]

    asyncio.run(play())


def test_a_connection_whose_outbox_is_full_is_dropped_and_nothing_more_queued() -> None:
    async def play() -> None:
        dropped: list[tuple[str, int]] = []
        connection = Connection(None)
        connection.on_drop = lambda why, code: dropped.append((why, code))
        for n in range(SEND_QUEUE):
            connection.send(str(n))
        assert dropped == []
        connection.send("one too many")
        assert dropped == [(f"{SEND_QUEUE} messages unread", 1013)]
        assert connection.closed
        assert await connection.outbox.take() == []

    asyncio.run(play())
