"""The floor under the room's CPU an action (issue 26): a server on the room's own stack
(uvicorn, its HTTP parser and the websockets library, Starlette's WebSocket) that does
nothing but what the protocol makes any room do. It answers benchmarks/room_clients.py as
the room does (guests, tables, hello, sit, watch, act, top_up, leave) and, for each
``act``, sends the frames the room sends, of the room's sizes, to the same connections:
an ``acted`` and a ``to_act`` event to everyone at the table and the next player's
``turn``. No rules, no database, no history: every hand is ``ACTIONS_A_HAND`` calls.

Run by benchmarks/room.py (``--db floor``, and beside each goal run); alone:
``.venv/bin/python benchmarks/floor.py PORT`` serves until SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import secrets
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

# A hand of the benchmark's bots at the room, as a watcher counted them (3 December 2026,
# nine hands): 32 acts, and 22 other events (blinds posted, cards dealt, boards, rounds
# ended, hands shown or mucked, pots awarded) besides its start and its end. The frames
# are padded to the room's mean sizes: acted 169 bytes, to_act 165, the others about 180,
# hand_started 771, hand_ended 490; a table snapshot 885 and more.
ACTIONS_A_HAND = 32
OTHER_EVENTS = 22
BUY_IN = 200
SEND_QUEUE = 512  # as the room's (server/connection.py)
TEXT = "Player 3 calls 2 chips"
OTHER_TEXT = "Board: Qh 3s 5h 7c, and what the dealer says"
START_TEXT = "x" * 640  # the hand's title, the button, the blinds: hand_started's text
SNAPSHOT_PADDING = 700

Frame = dict[str, Any]


def encode(frame: Frame) -> str:
    """As the room encodes its frames (protocol/messages.py): compact, UTF-8 as it is."""
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


class Connection:
    """One client: frames queued and written by a task of its own, as the room's are."""

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.queue: asyncio.Queue[str] = asyncio.Queue(SEND_QUEUE)
        self.writer = asyncio.create_task(self._write())

    def send(self, text: str) -> None:
        if not self.queue.full():
            self.queue.put_nowait(text)

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            await self.socket.send_text(text)


@dataclass
class Table:
    id: str
    seats: dict[int, Connection] = field(default_factory=dict)
    watchers: set[Connection] = field(default_factory=set)
    to_act: int | None = None
    hand: int = 0
    actions: int = 0
    seq: int = 0

    def everyone(self) -> list[Connection]:
        return [*self.seats.values(), *self.watchers]

    def event(self, kind: str, **fields: Any) -> None:
        """One event to everyone at the table, encoded once."""
        self.seq += 1
        event = {"kind": kind, "hand": f"{self.id}-{self.hand}"} | fields
        text = encode({"type": "event", "table": self.id, "seq": self.seq, "event": event})
        for connection in self.everyone():
            connection.send(text)

    def next_seat(self, after: int) -> int:
        seated = sorted(self.seats)
        return next((seat for seat in seated if seat > after), seated[0])

    def deal(self) -> None:
        self.hand += 1
        self.actions = 0
        self.event("hand_started", number=self.hand, button=min(self.seats), text=START_TEXT)
        self.turn(min(self.seats))

    def turn(self, seat: int) -> None:
        self.to_act = seat
        self.event("to_act", seat=seat, deadline="2026-12-03T12:00:30.250Z", time_bank=60.0)
        self.seq += 1
        legal = [
            {"action": "fold"},
            {"action": "call", "amount": 2},
            {"action": "raise", "min": 4, "max": 98},
            {"action": "allin", "amount": BUY_IN},
        ]
        self.seats[seat].send(
            encode(
                {
                    "type": "turn",
                    "table": self.id,
                    "hand": f"{self.id}-{self.hand}",
                    "seat": seat,
                    "legal": legal,
                    "deadline": "2026-12-03T12:00:30.250Z",
                    "seq": self.seq,
                    "time_bank": 60.0,
                }
            )
        )

    def act(self, seat: int) -> None:
        if seat != self.to_act:
            return
        self.actions += 1
        self.event("acted", seat=seat, action="call", to=2, added=2, all_in=False, text=TEXT)
        if self.actions < ACTIONS_A_HAND:
            self.turn(self.next_seat(seat))
            return
        for _ in range(OTHER_EVENTS):
            self.event("round_ended", pots=[{"amount": 12, "eligible": [1, 2]}], text=OTHER_TEXT)
        stacks = [{"seat": s, "stack": BUY_IN} for s in sorted(self.seats)]
        self.event("hand_ended", stacks=stacks, awards=[], text="x" * 220)
        self.deal()

    def snapshot(self) -> str:
        seats = [{"seat": s, "name": f"Player {s}", "stack": BUY_IN} for s in sorted(self.seats)]
        state = {"seats": seats, "padding": "x" * SNAPSHOT_PADDING}
        return encode({"type": "table", "table": self.id, "state": state})


tables: dict[str, Table] = {}
players = itertools.count(1)


async def health(_: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def guests(request: Request) -> JSONResponse:
    body = await request.json()
    token = secrets.token_urlsafe(16)
    player = str(next(players))
    return JSONResponse({"token": token, "player": {"id": player, "name": body["name"]}}, 201)


async def new_table(_: Request) -> JSONResponse:
    table = Table(secrets.token_hex(4))
    tables[table.id] = table
    return JSONResponse({"table": {"id": table.id, "max_buy_in": BUY_IN}}, 201)


async def ws(socket: WebSocket) -> None:
    await socket.accept()
    connection = Connection(socket)
    sitting: dict[str, int] = {}
    try:
        while True:
            command: Frame = json.loads(await socket.receive_text())
            kind, table = command["type"], tables.get(command.get("table", ""))
            if kind == "hello":
                connection.send(encode({"type": "welcome", "player": None}))
            elif table is None:
                continue
            elif kind == "sit":
                seat = int(command["seat"])
                table.seats[seat] = connection
                sitting[table.id] = seat
                connection.send(table.snapshot())
                if table.to_act is None and len(table.seats) >= 2:
                    table.deal()
            elif kind == "watch":
                table.watchers.add(connection)
                connection.send(table.snapshot())
            elif kind == "act":
                table.act(sitting.get(table.id, 0))
            elif kind == "top_up":
                table.event("chips_added", seat=sitting.get(table.id), amount=BUY_IN, text=None)
            elif kind == "leave":
                seat = sitting.pop(table.id)
                table.event("player_left", seat=seat, stack=BUY_IN, text="Player leaves")
                del table.seats[seat]
                if table.to_act == seat or len(table.seats) < 2:
                    table.to_act = None
                    if len(table.seats) >= 2:
                        table.deal()
    except WebSocketDisconnect:
        pass
    finally:
        connection.writer.cancel()
        for table in tables.values():
            table.watchers.discard(connection)


app = Starlette(
    routes=[
        Route("/api/health", health),
        Route("/api/guests", guests, methods=["POST"]),
        Route("/api/tables", new_table, methods=["POST"]),
        WebSocketRoute("/ws", ws),
    ]
)


def main() -> None:
    """Serve on 127.0.0.1:PORT with the room's uvicorn settings (server/main.py)."""
    parser = argparse.ArgumentParser(
        description="The floor under the room's CPU an action: the room's stack doing "
        "nothing but its frames, on 127.0.0.1 until SIGTERM (benchmarks/room.py --db floor "
        "starts it)."
    )
    parser.add_argument("port", type=int, help="the loopback port to serve on")
    port = parser.parse_args().port
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        http=os.environ.get("SPLITPOT_BENCH_HTTP", "httptools"),  # the room's parser
        loop=os.environ.get("SPLITPOT_BENCH_LOOP", "uvloop"),  # room.py --loop
        log_level="warning",
        ws_per_message_deflate=False,
        ws_max_size=65536,
    )


if __name__ == "__main__":
    main()
