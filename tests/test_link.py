"""The direct links between the room's processes (``server/link.py``) over real loopback
sockets: a link opens with a handshake on the room's key (which never crosses it) and
the id of the process it is for, carries lines of JSON in order, refuses a stranger, a
process without the key and a listener that cannot prove it holds it, and is forgotten
(its loss told) when its connection ends or its process is gone; and ``InOrder`` and the
cluster's receiving side put the numbered batches of the two ways (Redis, a link) back
in order, giving up on a lost one, and still take a late batch's answers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from splitpot.server import cluster as cluster_module
from splitpot.server import link as link_module
from splitpot.server.cluster import Cluster
from splitpot.server.in_order import InOrder
from splitpot.server.link import Links, proof

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


def links(node: str, heard: Heard | None = None, lost: list[str] | None = None) -> Links:
    return Links(node, heard or Heard(), (lost if lost is not None else []).append)


async def pair(
    sender_key: str | None = KEY,
    receiver_key: str | None = KEY,
    to: str | None = None,
    lost: list[str] | None = None,
) -> tuple[Links, Links, Heard]:
    """Two processes' links: ``a`` knows where ``b`` listens (as ``to``, if given)."""
    heard = Heard()
    a, b = links("a/1", lost=lost), links("b/1", heard)
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
        if sender_key is not None:  # without a key it does not even try
            await until(lambda: node in a._failed, "the link was refused")
        assert not a.up(node)
        assert not a.send(node, '{"n":2}')
        assert heard.messages == []
        a.close()
        b.close()

    run(test)


@pytest.mark.parametrize(
    ("sent", "wait"),
    [
        (b'GET / HTTP/1.1\r\n\r\n{"t":"command"}\n', 5.0),
        (b'{"from": "x/1", "to": "b/1", "nonce": "n"}\n', 5.0),  # not a nonce
        (b'{"from": "x/1", "to": "b/1", "nonce": "' + b"0" * 32 + b'"}\n{"proof": "no"}\n', 5.0),
        (b"[" * 4000 + b"\n", 5.0),  # deeper than the JSON reader goes
        (b"x" * 5000, 5.0),  # no newline: more than a handshake's line may hold
        (b"", 0.3),  # nothing at all: the handshake's time runs out
    ],
    ids=["not a hello", "not a nonce", "a wrong proof", "deep JSON", "too long", "silence"],
)
def test_a_stranger_is_cut_off_and_nothing_it_says_is_heard(
    sent: bytes, wait: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cut off at once for what it says (before the handshake's time could run out), or
    when that time runs out for saying nothing; the loop meets no error on the way."""
    monkeypatch.setattr(link_module, "OPEN_WAIT", wait)

    async def test() -> None:
        loop = asyncio.get_running_loop()
        errors: list[dict[str, Any]] = []
        loop.set_exception_handler(lambda _, context: errors.append(context))
        heard = Heard()
        b = links("b/1", heard)
        b.key = KEY
        host, port = (await b.listen("127.0.0.1", 0)).rsplit(":", 1)
        reader, writer = await asyncio.open_connection(host, int(port))
        began = loop.time()
        writer.write(sent)
        answer = await asyncio.wait_for(reader.read(), WAIT)  # until it is closed
        took = loop.time() - began
        assert (took < 1.0) if sent else (took >= 0.25), took
        assert b"ok" not in answer and KEY.encode() not in answer, answer
        writer.close()
        assert heard.messages == [] and errors == []
        b.close()

    run(test)


def test_a_listener_and_a_connector_are_not_believed_for_ids_and_nonces_run_together() -> None:
    """The forgery a proof over ``|``-joined fields allowed: a program on a dead process's
    port starts a link to a live process with a hello whose id holds the connector's id,
    the dead one's and the connector's nonce, and hands the live one's proof back as its
    own. Neither end believes it, and the live process hears nothing."""

    async def test() -> None:
        heard = Heard()
        a, b = links("a/1"), links("b/1", heard)
        a.key = b.key = KEY
        b_host, b_port = (await b.listen("127.0.0.1", 0)).rsplit(":", 1)
        relayed: list[bytes] = []

        async def impostor(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonce = json.loads(await reader.readline())["nonce"]
            to_b, from_b = await asyncio.open_connection(b_host, int(b_port))
            forged = {"from": f"a/1|d/1|{nonce}", "to": "b/1", "nonce": "1" * 32}
            from_b.write(json.dumps(forged).encode() + b"\n")
            shown = json.loads(await to_b.readline())
            spliced = {"nonce": f"b/1|{'1' * 32}|{shown['nonce']}", "proof": shown["proof"]}
            writer.write(json.dumps(spliced).encode() + b"\n")
            relayed.append(await reader.readline())  # a's proof, had it believed
            from_b.write(relayed[-1])
            relayed.append(await to_b.readline())  # b's ok, had it believed
            from_b.write(b'{"t":"command","from":"d/1","table":"t","id":1,"text":"x"}\n')
            writer.close()
            from_b.close()

        server = await asyncio.start_server(impostor, "127.0.0.1", 0)
        a.know({"d/1": f"127.0.0.1:{server.sockets[0].getsockname()[1]}"})
        a.send("d/1", "{}")
        await until(lambda: "d/1" in a._failed, "a did not believe the impostor")
        await until(lambda: len(relayed) == 2, "the impostor was cut off")
        assert relayed == [b"", b""], "a sent no proof, b no ok"
        assert not a.up("d/1") and heard.messages == []
        server.close()
        a.close()
        b.close()

    run(test)


def test_the_key_never_crosses_a_link_and_a_listener_without_it_is_not_believed() -> None:
    """A program on the port a dead process left (it knows the id the others look for,
    not the key): it sees the connector's hello and nonce, never the key, cannot prove
    it holds the key, and is sent nothing more."""

    async def test() -> None:
        seen: list[bytes] = []

        async def impostor(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            hello = await reader.readline()
            seen.append(hello)
            nonce = json.loads(hello)["nonce"]
            guessed = proof("not the key", "listener", "a/1", "b/1", (nonce, "n2"))
            writer.write(json.dumps({"nonce": "n2", "proof": guessed}).encode() + b"\n")
            seen.append(await reader.read())  # what else it is told, until closed
            writer.close()

        server = await asyncio.start_server(impostor, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        a = links("a/1")
        a.key = KEY
        a.know({"b/1": f"127.0.0.1:{port}"})
        assert not a.send("b/1", '{"t":"command","text":"secret"}')
        await until(lambda: "b/1" in a._failed, "the impostor was not believed")
        await until(lambda: len(seen) == 2, "the impostor was cut off")
        assert json.loads(seen[0])["to"] == "b/1"
        assert KEY.encode() not in b"".join(seen)
        assert seen[1] == b"", "nothing was sent after a wrong proof"
        assert not a.up("b/1")
        a.close()
        server.close()

    run(test)


def test_a_link_whose_connection_ends_or_whose_process_is_gone_is_forgotten() -> None:
    async def test() -> None:
        lost: list[str] = []
        a, b, _ = await pair(lost=lost)
        a.send(b.id, "{}")
        await until(lambda: a.up(b.id), "the link opened")
        b.close()  # the other process stops: its end of every link closes
        await until(lambda: not a.up(b.id), "the link was forgotten")
        assert lost == [b.id], "its loss is told (batches on their way may be lost)"
        assert not a.send(b.id, '{"n":1}')
        lost.clear()
        c, d, _ = await pair(lost=lost)
        c.send(d.id, "{}")
        await until(lambda: c.up(d.id), "the link opened")
        c.know({})  # d's beats stopped: it is gone
        assert not c.up(d.id) and lost == [d.id]
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


def batch(number: int, *frames: str, answer: int | None = None) -> dict[str, Any]:
    items: list[Any] = [["f", "t1", 1, [7], frame] for frame in frames]
    if answer is not None:
        items.append(["a", answer, {}])
    return {"t": "items", "from": "owner/1", "n": number, "items": items}


def a_cluster(handler: Handler) -> Cluster:
    """The cluster's receiving side, with no Redis behind it (nothing is sent)."""
    cluster = Cluster("redis://127.0.0.1:1", "room", "me", "http://me", 5.0, ("127.0.0.1", 0))
    cluster.handler = handler  # type: ignore[assignment]
    return cluster


def test_the_cluster_hands_on_frames_in_order_and_a_lost_batch_as_a_gap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cluster_module, "REORDER_WAIT", 0.2)

    async def test() -> None:
        handler = Handler()
        cluster = a_cluster(handler)
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


def test_a_message_over_a_link_is_taken_only_from_the_process_that_opened_it() -> None:
    async def test() -> None:
        handler = Handler()
        cluster = a_cluster(handler)
        cluster._hear_link("other/1", batch(1, "a"))  # says it is from owner/1
        assert handler.frames == []
        cluster._hear_link("owner/1", batch(1, "a"))
        assert handler.frames == ["a"]
        await cluster.redis.aclose()

    run(test)


def test_a_batch_given_up_on_still_answers_its_command_and_the_wait_restarts_on_progress(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The wait for a missing batch starts again when an earlier one comes; a batch that
    comes after it was given up on brings its answer (the command was run) but not its
    stale frames."""
    monkeypatch.setattr(cluster_module, "REORDER_WAIT", 0.4)

    async def test() -> None:
        handler = Handler()
        cluster = a_cluster(handler)
        loop = asyncio.get_running_loop()
        answered: asyncio.Future[dict[str, Any]] = loop.create_future()
        cluster._waiting[41] = answered
        cluster._hear_link("owner/1", batch(3, "c"))
        cluster._hear_link("owner/1", batch(5, "e"))
        await asyncio.sleep(0.3)
        cluster._hear_link("owner/1", batch(1, "a"))  # progress: 1 and 2... 2 still missing
        await asyncio.sleep(0.2)  # 0.5 s since the first wait began, 0.2 since progress
        assert handler.gaps == [], "the wait started again when batch 1 came"
        await until(lambda: handler.gaps == ["owner/1"], "batch 2 was given up on")
        assert handler.frames == ["a", "c", "e"]
        cluster._dispatch(f"{cluster.prefix}node:{cluster.id}", batch(2, "b", answer=41))
        assert answered.done() and answered.result() == {}, "the late batch's answer came"
        assert handler.frames == ["a", "c", "e"], "its stale frame did not"
        await cluster.redis.aclose()

    run(test)


def test_a_lost_link_sends_the_next_number_through_redis_so_a_hole_is_found() -> None:
    """When its link to a process ends, the cluster numbers the next batch for it at
    once, through Redis, even with nothing to say: a batch lost with the link is then a
    hole the other process finds."""

    async def test() -> None:
        cluster = a_cluster(Handler())
        cluster.frame("other/1", "t1", 1, 7, "a")
        cluster._flush()  # no link is up: batch 1 goes through Redis
        cluster._link_lost("other/1")
        await asyncio.sleep(0)  # the flush that was made due
        sent = [(channel, json.loads(text)) for channel, text, _ in cluster._sending]
        node = f"{cluster.prefix}node:other/1"
        assert [(c, m["n"], m["items"]) for c, m in sent] == [
            (node, 1, [["f", "t1", 1, [7], "a"]]),
            (node, 2, []),
        ]
        await cluster.redis.aclose()

    run(test)
