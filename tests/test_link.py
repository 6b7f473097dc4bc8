"""The direct links between the room's processes (``server/link.py``) over real loopback
sockets: a link opens with the room's key and the id of the process it is for, carries
lines of JSON in order, refuses a stranger, and is forgotten when its connection ends or
its process is gone; and ``InOrder`` and the cluster's receiving side put the numbered
batches of the two ways (Redis, a link) back in order, giving up on a lost one."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from splitpot.server import cluster as cluster_module
from splitpot.server.cluster import Cluster
from splitpot.server.in_order import InOrder
from splitpot.server.link import Links

WAIT = 10.0  # seconds: a generous deadline for what happens at once on loopback
KEY = "k" * 64


async def until(done: Callable[[], bool], what: str) -> None:
    """Wait for ``done``, up to ``WAIT`` seconds."""
    deadline = asyncio.get_running_loop().time() + WAIT
    while not done():
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.01)


class Heard:
    def __init__(self) -> None:
        self.messages: list[tuple[str, Any]] = []

    def __call__(self, peer: str, message: Any) -> None:
        self.messages.append((peer, message))


async def pair(
    sender_key: str | None = KEY, receiver_key: str | None = KEY, to: str | None = None
) -> tuple[Links, Links, Heard]:
    """Two processes' links: ``a`` knows where ``b`` listens (as ``to``, if given)."""
    heard = Heard()
    a, b = Links("a/1", Heard()), Links("b/1", heard)
    a.key, b.key = sender_key, receiver_key
    address = await b.listen("127.0.0.1", 0)
    a.know({to or b.id: address})
    return a, b, heard


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


def test_a_link_opens_with_the_rooms_key_and_carries_lines_in_order() -> None:
    async def test() -> None:
        a, b, heard = await pair()
        assert not a.send(b.id, '{"n":0}'), "no link yet: the message goes through Redis"
        await until(lambda: a.up(b.id), "the link opened")
        big = {"frame": "é" * 1_000_000, "text": "line\nbreak"}  # a newline inside JSON
        sent = [{"n": n} for n in range(1, 200)] + [big]
        for message in sent:
            assert a.send(b.id, json.dumps(message, ensure_ascii=False))
        await until(lambda: len(heard.messages) == len(sent), "every message came")
        assert heard.messages == [("a/1", message) for message in sent]
        a.close()
        b.close()

    run(test)


@pytest.mark.parametrize(
    ("sender_key", "receiver_key", "to"),
    [("x" * 64, KEY, None), (None, KEY, None), (KEY, None, None), (KEY, KEY, "c/1")],
    ids=["another room's key", "no key yet", "the other has no key yet", "for another process"],
)
def test_a_link_without_the_key_or_for_another_process_is_refused(
    sender_key: str | None, receiver_key: str | None, to: str | None
) -> None:
    async def test() -> None:
        a, b, heard = await pair(sender_key, receiver_key, to)
        node = to or b.id
        assert not a.send(node, '{"n":1}')
        await asyncio.sleep(0.5)  # what a link takes on loopback, many times over
        assert not a.up(node)
        assert not a.send(node, '{"n":2}')
        assert heard.messages == []
        a.close()
        b.close()

    run(test)


def test_a_stranger_that_says_no_hello_is_cut_off_and_nothing_is_heard() -> None:
    async def test() -> None:
        heard = Heard()
        b = Links("b/1", heard)
        b.key = KEY
        host, port = (await b.listen("127.0.0.1", 0)).rsplit(":", 1)
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(b'GET / HTTP/1.1\r\n\r\n{"t":"command"}\n')
        assert await asyncio.wait_for(reader.read(), WAIT) == b"", "closed without a word"
        writer.close()
        assert heard.messages == []
        b.close()

    run(test)


def test_a_link_whose_connection_ends_or_whose_process_is_gone_is_forgotten() -> None:
    async def test() -> None:
        a, b, _ = await pair()
        a.send(b.id, "{}")
        await until(lambda: a.up(b.id), "the link opened")
        b.close()  # the other process stops: its end of every link closes
        await until(lambda: not a.up(b.id), "the link was forgotten")
        assert not a.send(b.id, '{"n":1}')
        c, d, _ = await pair()
        c.send(d.id, "{}")
        await until(lambda: c.up(d.id), "the link opened")
        c.know({})  # d's beats stopped: it is gone
        assert not c.up(d.id)
        assert not c.send(d.id, "{}"), "no link to a process gone, nor a new one opened"
        for links in (a, c, d):
            links.close()

    run(test)


# ------------------------------------------------------------------ in order


def test_batches_are_taken_in_order_whichever_way_came_first() -> None:
    heard: InOrder[str] = InOrder()
    assert heard.take(1, "one") == ["one"]
    assert heard.take(3, "three") == [] and heard.waiting
    assert heard.take(4, "four") == []
    assert heard.take(2, "two") == ["two", "three", "four"] and not heard.waiting
    assert heard.take(2, "two again") == [], "a batch twice is taken once"
    assert heard.last == 4


def test_a_batch_that_never_comes_is_given_up_on_and_comes_too_late_after() -> None:
    heard: InOrder[str] = InOrder()
    assert heard.take(2, "two") == []
    assert heard.take(5, "five") == []
    assert heard.give_up() == ["two", "five"]
    assert not heard.waiting and heard.last == 5
    assert heard.take(1, "one") == [] and heard.take(3, "three") == []
    assert heard.take(6, "six") == ["six"]


class Handler:
    """What the cluster's receiving side hands on: frames and gaps."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.gaps: list[str] = []

    def on_frame(
        self, owner: str, table_id: str, fence: int, connections: list[int], frame: str
    ) -> None:
        self.frames.append(frame)

    def on_gap(self, owner: str) -> None:
        self.gaps.append(owner)


def batch(number: int, *frames: str) -> dict[str, Any]:
    items = [["f", "t1", 1, [7], frame] for frame in frames]
    return {"t": "items", "from": "owner/1", "n": number, "items": items}


def test_the_cluster_hands_on_frames_in_order_and_a_lost_batch_as_a_gap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cluster_module, "REORDER_WAIT", 0.2)

    async def test() -> None:
        cluster = Cluster("redis://127.0.0.1:1", "room", "me", "http://me", 5.0)
        handler = Handler()
        cluster.handler = handler  # type: ignore[assignment]
        cluster._hear_link("owner/1", batch(2, "c", "d"))  # over the link, first
        cluster._dispatch(f"{cluster.prefix}node:{cluster.id}", batch(1, "a", "b"))  # Redis
        assert handler.frames == ["a", "b", "c", "d"] and handler.gaps == []
        cluster._hear_link("owner/1", batch(4, "f"))  # 3 was lost on a link that broke
        cluster._hear_link("owner/1", batch(5, "g"))
        assert handler.frames == ["a", "b", "c", "d"]
        await until(lambda: handler.gaps == ["owner/1"], "the lost batch was given up on")
        assert handler.frames == ["a", "b", "c", "d", "f", "g"]
        cluster._dispatch(f"{cluster.prefix}node:{cluster.id}", batch(3, "e"))  # too late
        cluster._hear_link("owner/1", batch(6, "h"))
        assert handler.frames == ["a", "b", "c", "d", "f", "g", "h"]
        assert handler.gaps == ["owner/1"]
        await cluster.redis.aclose()

    run(test)
