"""The room benchmark's players: guests made over HTTP, tables opened by them, and one
asyncio WebSocket client per seat that answers every ``turn`` at once and times each
``act`` to the event that reports it (PROTOCOL.md, docs/protocol.md)."""

from __future__ import annotations

import asyncio
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

        return [await table(number) for number in range(count)]


async def play(ws_url: str, place: Seat, window: Window, tally: Tally) -> None:
    """Sit down, answer every turn at once until ``window.stop``, then leave (finishing
    the hand in play) and hang up; a seat that goes broke buys in again between hands."""
    try:
        async with connect(ws_url, max_size=2**22) as socket:
            await socket.send(json.dumps({"type": "hello", "token": place.token}))
            await _expect(socket, "welcome", tally)
            sit = {"type": "sit", "table": place.table, "seat": place.seat}
            await socket.send(json.dumps(sit | {"buy_in": place.buy_in, "post_now": True}))
            await _expect(socket, "table", tally)
            tally.seated += 1
            player = Player(socket, place, window, tally)
            leaving = asyncio.create_task(player.leave_on_stop())
            try:
                await player.run()
            finally:
                leaving.cancel()
    except (ConnectionClosed, OSError) as error:
        tally.errors[f"disconnected: {type(error).__name__}"] += 1


async def _expect(socket: ClientConnection, kind: str, tally: Tally) -> Frame:
    while True:
        frame: Frame = json.loads(await socket.recv())
        if frame["type"] == kind:
            return frame
        if frame["type"] == "error":
            tally.errors[frame["code"]] += 1
            raise RuntimeError(f"waiting for {kind!r}: {frame}")


class Player:
    """One seat's reader: it acts on turns and matches each act to its event. A command
    waits until its event comes (``acted``, ``chips_added``, ``player_left``); one refused
    as rate_limited is sent again (that refusal names no ``ref``, so every waiting command
    is: a repeat is refused, harmlessly)."""

    def __init__(self, socket: ClientConnection, place: Seat, window: Window, tally: Tally):
        self.socket = socket
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
                action = choose(frame["legal"], self.rng)
                await self._send("act", {"hand": frame["hand"]} | action)
            elif kind == "event":
                if await self._on_event(frame["event"]):
                    return
            elif kind == "error":
                await self._on_error(frame)

    async def leave_on_stop(self) -> None:
        await self.window.stop.wait()
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
