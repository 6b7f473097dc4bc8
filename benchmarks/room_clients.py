"""The room benchmark's clients: guests made over HTTP, tables opened by them, one
asyncio WebSocket client per seat that answers every ``turn`` (at once, or after a
think time) and times each ``act`` to the event that reports it, and idle watchers that
read every frame of a table and never act (PROTOCOL.md, docs/protocol.md). Lean on
purpose, so that the clients, which share the machine's two cores with the room, are
not what is measured: picows reads the frames in C and hands each to a callback (the
websockets library's reader cost three times as much CPU an action, docs/load.md), a
player parses its frames with orjson, and a watcher counts its frames without parsing
them."""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from asyncio import FIRST_COMPLETED
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from picows import WSCloseCode, WSError, WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

SEATS = 6
REPORTED = ("acted", "shown", "mucked")  # the event kinds that answer an act
RETRY = 0.06  # seconds before an act refused as rate_limited is sent again
OPENING = 10  # tables opened over HTTP at once
AWAY = (1.0, 3.0)  # seconds a churned player stays away before sitting again
MAX_FRAME = 2**22  # bytes: the largest frame a client takes
CLOSING = 5.0  # seconds a client waits for the room's answer to its close
Frame = dict[str, Any]


@dataclass
class Window:
    """The measured stretch of a run (``time.perf_counter`` seconds), set once every
    player sits: an act counts when it is sent inside it, a hand when it ends inside it.
    Players leave when ``stop`` is set."""

    start: float = math.inf
    end: float = math.inf
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def holds(self, moment: float) -> bool:
        return self.start <= moment < self.end


@dataclass
class Tally:
    """What every client of a run adds up."""

    seated: int = 0
    hands: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, act to its event
    errors: Counter[str] = field(default_factory=Counter)
    connected: int = 0  # WebSocket connections open now (players and watchers)
    watching: int = 0  # watchers whose table snapshot has come, now
    frames: int = 0  # frames the watchers read
    playing: set[str] = field(default_factory=set)  # tables with an act timed in the window
    resits: int = 0  # players who left and sat down again (churn)
    rewatches: int = 0  # watchers who hung up and came back (churn)


@dataclass(frozen=True)
class Pace:
    """How the clients behave: ``think`` seconds before each act (0: at once), or with
    ``think_most`` a time drawn from ``think`` to it for each act (a human pace: each
    table's hands drift apart, as tables started at different times do); with ``churn``
    seconds, each player leaves after about that long at the table and sits
    again, and each watcher hangs up after about that long and watches again."""

    think: float = 0.0
    churn: float = 0.0
    think_most: float = 0.0  # above ``think``: each decision waits a time drawn between them

    def stay(self, rng: random.Random) -> float | None:
        return None if self.churn <= 0 else rng.uniform(0.5, 1.5) * self.churn


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's place: the table, the seat (from 1), the player's token, the buy-in."""

    table: str
    seat: int
    token: str
    buy_in: int


def choose(legal: list[Frame], rng: random.Random) -> Frame:
    """Check or call mostly, sometimes bet or raise the least, rarely fold a hand that
    faces a bet; at the showdown, show."""
    offered = {entry["action"]: entry for entry in legal}
    if "show" in offered:
        return {"action": "show"}
    roll = rng.random()
    if roll < 0.03 and "call" in offered:
        return {"action": "fold"}
    for name in ("bet", "raise"):
        if roll > 0.85 and name in offered:
            return {"action": name, "amount": offered[name]["min"]}
    for name in ("check", "call", "allin", "fold", "muck"):
        if name in offered:
            return {"action": name}
    raise ValueError(f"no action this bot knows among {legal!r}")


async def open_tables(url: str, count: int, players: int = SEATS) -> list[list[Seat]]:
    """``count`` six-seat pot-limit tables, each with ``players`` guests, the first its host."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:

        async def guest(name: str) -> str:
            answer = await http.post("/api/guests", json={"name": name})
            answer.raise_for_status()
            return str(answer.json()["token"])

        async def table(number: int) -> list[Seat]:
            tokens = [await guest(f"b{number}s{seat}") for seat in range(1, players + 1)]
            settings = {"name": f"bench {number}", "structure": "pot-limit", "seats": SEATS}
            answer = await http.post(
                "/api/tables", json=settings, headers={"Authorization": f"Bearer {tokens[0]}"}
            )
            answer.raise_for_status()
            summary = answer.json()["table"]
            return [
                Seat(str(summary["id"]), seat, token, int(summary["max_buy_in"]))
                for seat, token in enumerate(tokens, start=1)
            ]

        tables: list[list[Seat]] = []
        for first in range(0, count, OPENING):
            batch = range(first, min(count, first + OPENING))
            tables += await asyncio.gather(*(table(number) for number in batch))
        return tables


class Closed(Exception):
    """The room hung up (or the connection broke) while a client waited on it."""


class Link(WSListener):
    """One WebSocket connection, read by callbacks (picows parses the frames in C): each
    text frame goes to ``read``; frames nobody reads yet wait in ``backlog`` for the
    next reader. ``gone`` is done once the connection is closed."""

    def __init__(self) -> None:
        self.transport: WSTransport | None = None
        self.backlog: list[bytes] = []
        self.read: Callable[[WSFrame], None] = self._keep
        self.gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.asking: asyncio.Future[Frame] | None = None  # an answer awaited, failed at close

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type == WSMsgType.TEXT:
            self.read(frame)
        elif frame.msg_type == WSMsgType.CLOSE:
            transport.send_close(frame.get_close_code(), frame.get_close_message())
            transport.disconnect()

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        if not self.gone.done():
            self.gone.set_result(None)
        if self.asking is not None and not self.asking.done():
            self.asking.set_exception(Closed("the room hung up"))

    def _keep(self, frame: WSFrame) -> None:
        self.backlog.append(frame.get_payload_as_bytes())

    def hold(self) -> None:
        """From now on, frames wait in ``backlog`` for the next reader."""
        self.read = self._keep

    def hand_to(self, reader: Callable[[bytes], None]) -> None:
        """From now on, each frame's text to ``reader``, the waiting ones first."""
        waiting, self.backlog = self.backlog, []
        for text in waiting:
            reader(text)
        self.read = lambda frame: reader(frame.get_payload_as_bytes())

    def count_into(self, tally: Tally) -> None:
        """From now on, each frame (the waiting ones too) only counted in ``tally.frames``."""
        tally.frames += len(self.backlog)
        self.backlog = []

        def count(frame: WSFrame) -> None:
            tally.frames += 1

        self.read = count

    def send(self, text: bytes) -> None:
        if self.transport is not None and not self.transport.is_disconnected:
            self.transport.send(WSMsgType.TEXT, text)

    async def close(self) -> None:
        """Close the connection with its handshake, waiting for the room's answer a while."""
        if self.transport is not None and not self.transport.is_disconnected:
            self.transport.send_close(WSCloseCode.OK)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.gone), CLOSING)
            self.transport.disconnect()


async def _connect(ws_url: str) -> Link:
    _, link = await ws_connect(Link, ws_url, max_frame_size=MAX_FRAME)
    assert isinstance(link, Link)
    return link


async def play(ws_url: str, place: Seat, window: Window, tally: Tally, pace: Pace = Pace()) -> None:
    """Sit down, answer every turn until ``window.stop``, then leave (finishing the hand
    in play) and hang up; a seat that goes broke buys in again between hands. With churn,
    the player also leaves now and then, stays away a moment, and sits again."""
    rng = random.Random(f"{place.table}/{place.seat}/churn")
    try:
        link = await _connect(ws_url)
    except (OSError, WSError) as error:
        tally.errors[f"disconnected: {type(error).__name__}"] += 1
        return
    tally.connected += 1
    try:
        await _ask(link, {"type": "hello", "token": place.token}, "welcome", tally)
        sit = {"type": "sit", "table": place.table, "seat": place.seat}
        sit |= {"buy_in": place.buy_in, "post_now": True}
        first = True
        while not window.stop.is_set():
            await _ask(link, sit, "table", tally)
            if first:
                tally.seated += 1
                first = False
            else:
                tally.resits += 1
            player = Player(link, place, window, tally, pace)
            leaving = asyncio.create_task(player.leave_after(pace.stay(rng)))
            try:
                await player.run()
            finally:
                leaving.cancel()
                player.stop_thinking()
            await _wait(window.stop, rng.uniform(*AWAY))
    except Closed as error:
        tally.errors[f"disconnected: {type(error).__name__}"] += 1
    finally:
        tally.connected -= 1
        await link.close()


async def watch(ws_url: str, table: str, window: Window, tally: Tally, pace: Pace = Pace()) -> None:
    """A watcher without a session: hello, watch ``table``, read every frame (counted, not
    parsed) until ``window.stop``; with churn, hang up now and then and watch again."""
    rng = random.Random()
    while not window.stop.is_set():
        try:
            link = await _connect(ws_url)
        except (OSError, WSError) as error:
            tally.errors[f"watcher disconnected: {type(error).__name__}"] += 1
            await _wait(window.stop, 1.0)
            continue
        tally.connected += 1
        try:
            await _ask(link, {"type": "hello"}, "welcome", tally)
            await _ask(link, {"type": "watch", "table": table}, "table", tally)
            tally.watching += 1
            try:
                link.count_into(tally)
                stopping = asyncio.create_task(window.stop.wait())
                done, _ = await asyncio.wait(
                    {link.gone, stopping}, timeout=pace.stay(rng), return_when=FIRST_COMPLETED
                )
                stopping.cancel()
                if link.gone in done and not window.stop.is_set():
                    tally.errors["watcher dropped"] += 1
            finally:
                tally.watching -= 1
        except Closed as error:
            tally.errors[f"watcher disconnected: {type(error).__name__}"] += 1
            await _wait(window.stop, 1.0)
        finally:
            tally.connected -= 1
            await link.close()
        if not window.stop.is_set():
            tally.rewatches += 1


async def _wait(event: asyncio.Event, seconds: float | None) -> None:
    """Until ``event`` is set or ``seconds`` have passed (None: no limit)."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), seconds)


async def _ask(link: Link, command: Frame, kind: str, tally: Tally) -> Frame:
    """Send ``command`` (its ``ref`` is its type) and wait for the frame of ``kind`` that
    answers it; the frames after it wait for the next reader. Refusals of earlier
    commands (an act sent as the player left) are counted and passed over; one refused
    as rate_limited (no ``ref``) is sent again."""
    loop = asyncio.get_running_loop()
    text = orjson.dumps(command | {"ref": command["type"]})
    answer: asyncio.Future[Frame] = loop.create_future()

    def read(payload: bytes) -> None:
        if answer.done():
            link.backlog.append(payload)
            return
        frame: Frame = orjson.loads(payload)
        if frame["type"] == kind:
            answer.set_result(frame)
        elif frame["type"] == "error":
            tally.errors[frame["code"]] += 1
            if frame.get("ref") == command["type"]:
                answer.set_exception(RuntimeError(f"waiting for {kind!r}: {frame}"))
            elif frame["code"] == "rate_limited" and frame.get("ref") is None:
                loop.call_later(RETRY, link.send, text)

    if link.gone.done():
        raise Closed("the room hung up")
    link.asking = answer
    link.hand_to(read)
    link.send(text)
    try:
        return await answer
    finally:
        link.asking = None
        link.hold()


class Player:
    """One seat's reader: it acts on turns and matches each act to its event, all in the
    frames' callbacks. A command waits until its event comes (``acted``, ``chips_added``,
    ``player_left``); one refused as rate_limited is sent again (that refusal names no
    ``ref``, so every waiting command is: a repeat is refused, harmlessly)."""

    def __init__(self, link: Link, place: Seat, window: Window, tally: Tally, pace: Pace):
        self.link = link
        self.loop = asyncio.get_running_loop()
        self.think = (pace.think, max(pace.think, pace.think_most))  # seconds before each act
        self.timers: set[asyncio.TimerHandle] = set()
        self.place = place
        self.window = window
        self.tally = tally
        self.rng = random.Random(f"{place.table}/{place.seat}")
        self.sent: float | None = None  # when the act waiting for its event was sent
        self.waiting: dict[str, bytes] = {}  # commands by ref ("act", "top_up", "leave")
        self.left: asyncio.Future[None] = self.loop.create_future()

    async def run(self) -> None:
        """Play until this player has left the table, or the room hung up."""
        self.link.hand_to(self._read)
        try:
            await asyncio.wait({self.left, self.link.gone}, return_when=FIRST_COMPLETED)
        finally:
            self.link.hold()

    def _read(self, payload: bytes) -> None:
        frame: Frame = orjson.loads(payload)
        kind = frame["type"]
        if kind == "turn":
            action = {"hand": frame["hand"]} | choose(frame["legal"], self.rng)
            if self.think[1] > 0:  # keep reading while thinking: events are timed honestly
                self._later(self.rng.uniform(*self.think), self._send, "act", action)
            else:
                self._send("act", action)
        elif kind == "event":
            self._on_event(frame["event"])
        elif kind == "error":
            self._on_error(frame)

    def _later(self, seconds: float, call: Callable[..., None], *args: Any) -> None:
        def fire() -> None:
            self.timers.discard(handle)
            call(*args)

        handle = self.loop.call_later(seconds, fire)
        self.timers.add(handle)

    def stop_thinking(self) -> None:
        for handle in self.timers:
            handle.cancel()
        self.timers.clear()

    async def leave_after(self, seconds: float | None) -> None:
        """Leave at ``window.stop``, or after ``seconds`` (churn) if that comes first."""
        await _wait(self.window.stop, seconds)
        self.stop_thinking()  # a player who has got up does not act afterwards
        self._send("leave", {})

    def _send(self, ref: str, fields: Frame) -> None:
        self.waiting[ref] = orjson.dumps(
            {"type": ref, "table": self.place.table, "ref": ref} | fields
        )
        self._send_again(ref)

    def _send_again(self, ref: str) -> None:
        if ref == "act":
            self.sent = time.perf_counter()
        self.link.send(self.waiting[ref])

    def _on_error(self, frame: Frame) -> None:
        self.tally.errors[frame["code"]] += 1
        ref = frame.get("ref")
        if frame["code"] != "rate_limited":
            self._done(ref)
            return
        for again in [ref] if ref in self.waiting else list(self.waiting):
            self._later(RETRY, self._send_again, again)

    def _done(self, ref: object) -> None:
        if isinstance(ref, str):
            self.waiting.pop(ref, None)
        if ref == "act":
            self.sent = None

    def _on_event(self, event: Frame) -> None:
        """Count and time the event; ``left`` is done once this player has left."""
        now = time.perf_counter()
        kind, seat = event["kind"], event.get("seat")
        if self.sent is not None and seat == self.place.seat and kind in REPORTED:
            if self.window.holds(self.sent):
                self.tally.latencies.append(now - self.sent)
                self.tally.playing.add(self.place.table)
            self._done("act")
        elif kind == "chips_added" and seat == self.place.seat:
            self._done("top_up")
        elif kind == "hand_ended":
            if self.place.seat == 1 and self.window.holds(now):
                self.tally.hands += 1
            stacks = {entry["seat"]: entry["stack"] for entry in event["stacks"]}
            if stacks.get(self.place.seat) == 0 and not self.window.stop.is_set():
                self._send("top_up", {"amount": self.place.buy_in})
        elif kind == "player_left" and seat == self.place.seat and not self.left.done():
            self.left.set_result(None)
