"""The room benchmark's clients: guests made over HTTP, tables opened by them, one
asyncio WebSocket client per seat that answers every ``turn`` (at once, or after a
think time) and times each ``act`` to the event that reports it, and idle watchers that
read every frame of a table and never act (PROTOCOL.md, docs/protocol.md). Lean on
purpose: a watcher counts its frames without parsing them, so the clients, which share
the machine's cores with the room, are not what is measured."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

SEATS = 6
REPORTED = ("acted", "shown", "mucked")  # the event kinds that answer an act
RETRY = 0.06  # seconds before an act refused as rate_limited is sent again
OPENING = 10  # tables opened over HTTP at once
AWAY = (1.0, 3.0)  # seconds a churned player stays away before sitting again
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


async def play(ws_url: str, place: Seat, window: Window, tally: Tally, pace: Pace = Pace()) -> None:
    """Sit down, answer every turn until ``window.stop``, then leave (finishing the hand
    in play) and hang up; a seat that goes broke buys in again between hands. With churn,
    the player also leaves now and then, stays away a moment, and sits again."""
    rng = random.Random(f"{place.table}/{place.seat}/churn")
    try:
        async with connect(ws_url, max_size=2**22) as socket:
            tally.connected += 1
            try:
                await _ask(socket, {"type": "hello", "token": place.token}, "welcome", tally)
                sit = {"type": "sit", "table": place.table, "seat": place.seat}
                sit |= {"buy_in": place.buy_in, "post_now": True}
                first = True
                while not window.stop.is_set():
                    await _ask(socket, sit, "table", tally)
                    if first:
                        tally.seated += 1
                        first = False
                    else:
                        tally.resits += 1
                    player = Player(socket, place, window, tally, pace)
                    leaving = asyncio.create_task(player.leave_after(pace.stay(rng)))
                    try:
                        await player.run()
                    finally:
                        leaving.cancel()
                        player.stop_thinking()
                    await _wait(window.stop, rng.uniform(*AWAY))
            finally:
                tally.connected -= 1
    except (ConnectionClosed, OSError) as error:
        tally.errors[f"disconnected: {type(error).__name__}"] += 1


async def watch(ws_url: str, table: str, window: Window, tally: Tally, pace: Pace = Pace()) -> None:
    """A watcher without a session: hello, watch ``table``, read every frame (counted, not
    parsed) until ``window.stop``; with churn, hang up now and then and watch again."""
    rng = random.Random()
    while not window.stop.is_set():
        try:
            async with connect(ws_url, max_size=2**22) as socket:
                tally.connected += 1
                try:
                    await _ask(socket, {"type": "hello"}, "welcome", tally)
                    await _ask(socket, {"type": "watch", "table": table}, "table", tally)
                    tally.watching += 1
                    try:
                        reading = asyncio.create_task(_count(socket, tally))
                        stopping = asyncio.create_task(window.stop.wait())
                        done, _ = await asyncio.wait(
                            {reading, stopping},
                            timeout=pace.stay(rng),
                            return_when=asyncio.FIRST_COMPLETED,
                        )
                        reading.cancel()
                        stopping.cancel()
                        if reading in done and not window.stop.is_set():
                            tally.errors["watcher dropped"] += 1
                    finally:
                        tally.watching -= 1
                finally:
                    tally.connected -= 1
        except (ConnectionClosed, OSError) as error:
            tally.errors[f"watcher disconnected: {type(error).__name__}"] += 1
            await _wait(window.stop, 1.0)
        if not window.stop.is_set():
            tally.rewatches += 1


async def _count(socket: ClientConnection, tally: Tally) -> None:
    """Read every frame the room sends, as a browser would, without parsing it."""
    try:
        async for _ in socket:
            tally.frames += 1
    except ConnectionClosed:
        return


async def _wait(event: asyncio.Event, seconds: float | None) -> None:
    """Until ``event`` is set or ``seconds`` have passed (None: no limit)."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), seconds)


async def _ask(socket: ClientConnection, command: Frame, kind: str, tally: Tally) -> Frame:
    """Send ``command`` (its ``ref`` is its type) and wait for the frame of ``kind`` that
    answers it. Refusals of earlier commands (an act sent as the player left) are counted
    and passed over; one refused as rate_limited (no ``ref``) is sent again."""
    text = json.dumps(command | {"ref": command["type"]})
    await socket.send(text)
    while True:
        frame: Frame = json.loads(await socket.recv())
        if frame["type"] == kind:
            return frame
        if frame["type"] != "error":
            continue
        tally.errors[frame["code"]] += 1
        if frame.get("ref") == command["type"]:
            raise RuntimeError(f"waiting for {kind!r}: {frame}")
        if frame["code"] == "rate_limited" and frame.get("ref") is None:
            await asyncio.sleep(RETRY)
            await socket.send(text)


class Player:
    """One seat's reader: it acts on turns and matches each act to its event. A command
    waits until its event comes (``acted``, ``chips_added``, ``player_left``); one refused
    as rate_limited is sent again (that refusal names no ``ref``, so every waiting command
    is: a repeat is refused, harmlessly)."""

    def __init__(
        self, socket: ClientConnection, place: Seat, window: Window, tally: Tally, pace: Pace
    ):
        self.socket = socket
        self.think = (pace.think, max(pace.think, pace.think_most))  # seconds before each act
        self.thinking: set[asyncio.Task[None]] = set()
        self.place = place
        self.window = window
        self.tally = tally
        self.rng = random.Random(f"{place.table}/{place.seat}")
        self.sent: float | None = None  # when the act waiting for its event was sent
        self.waiting: dict[str, str] = {}  # commands by ref ("act", "top_up", "leave")

    async def run(self) -> None:
        async for text in self.socket:
            frame: Frame = json.loads(text)
            kind = frame["type"]
            if kind == "turn":
                action = {"hand": frame["hand"]} | choose(frame["legal"], self.rng)
                if self.think[1] > 0:  # keep reading while thinking: events are timed honestly
                    task = asyncio.create_task(self._act_later(action))
                    self.thinking.add(task)
                    task.add_done_callback(self.thinking.discard)
                else:
                    await self._send("act", action)
            elif kind == "event":
                if await self._on_event(frame["event"]):
                    return
            elif kind == "error":
                await self._on_error(frame)

    async def _act_later(self, action: Frame) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        await self._send("act", action)

    def stop_thinking(self) -> None:
        for task in list(self.thinking):
            task.cancel()

    async def leave_after(self, seconds: float | None) -> None:
        """Leave at ``window.stop``, or after ``seconds`` (churn) if that comes first."""
        await _wait(self.window.stop, seconds)
        await self._send("leave", {})

    async def _send(self, ref: str, fields: Frame) -> None:
        self.waiting[ref] = json.dumps(
            {"type": ref, "table": self.place.table, "ref": ref} | fields
        )
        await self._send_again(ref)

    async def _send_again(self, ref: str) -> None:
        if ref == "act":
            self.sent = time.perf_counter()
        await self.socket.send(self.waiting[ref])

    async def _on_error(self, frame: Frame) -> None:
        self.tally.errors[frame["code"]] += 1
        ref = frame.get("ref")
        if frame["code"] != "rate_limited":
            self._done(ref)
            return
        await asyncio.sleep(RETRY)
        for again in [ref] if ref in self.waiting else list(self.waiting):
            await self._send_again(again)

    def _done(self, ref: object) -> None:
        if isinstance(ref, str):
            self.waiting.pop(ref, None)
        if ref == "act":
            self.sent = None

    async def _on_event(self, event: Frame) -> bool:
        """Count and time the event; True once this player has left the table."""
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
                await self._send("top_up", {"amount": self.place.buy_in})
        return kind == "player_left" and seat == self.place.seat
