"""The room's HTTP parsers against each other (issue 26: "the HTTP parser as an option
measured"): ``splitpot serve --http h11`` (uvicorn's pure-Python parser, the default)
and ``--http httptools`` (llhttp, in C), each a room process on SQLite answering the
same requests from the same clients.

Run: ``.venv/bin/python benchmarks/parsers.py [--connections N] [--seconds S] [--tables T]``.
For each parser: ``GET /api/health`` (the parser and the app's routing, nearly nothing
else), ``GET /api/tables`` (the lobby of T public tables), ``GET /`` (the page), each from
N keep-alive connections asking as fast as they are answered; then WebSocket handshakes
(connect, a watcher's ``hello`` and its ``welcome``, close) from N/5 at once. The clients
are lean (one request written, the answer read by its length) and share the machine's
cores with the room, as in benchmarks/room.py; the room's CPU an answer is what the
parser changes.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
from room import HTTP_VARIABLE, Room, percentile
from websockets.asyncio.client import connect

PARSERS = ("h11", "httptools")
PATHS = ("/api/health", "/api/tables", "/")
HELLO = '{"type":"hello"}'  # a watcher's: no token


@dataclass
class Tally:
    """Answers and their times within the measured window."""

    times: list[float]
    failures: int = 0


async def answer_of(reader: asyncio.StreamReader) -> int:
    """Read one HTTP/1.1 answer (the room always says its length); its status."""
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    await reader.readexactly(length)
    return status


async def asker(port: int, path: str, until: float, tally: Tally) -> None:
    """One keep-alive connection asking for ``path`` until ``until``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = f"GET {path} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n\r\n".encode()
    try:
        while (start := time.perf_counter()) < until:
            writer.write(request)
            status = await answer_of(reader)
            if status == 200:
                tally.times.append(time.perf_counter() - start)
            else:
                tally.failures += 1
    finally:
        writer.close()


async def handshaker(ws_url: str, until: float, tally: Tally) -> None:
    """WebSocket handshakes, one after another: connect, a watcher's hello and its
    welcome, close."""
    while (start := time.perf_counter()) < until:
        try:
            async with connect(ws_url, compression=None) as socket:
                await socket.send(HELLO)
                await socket.recv()
        except OSError:
            tally.failures += 1
            continue
        tally.times.append(time.perf_counter() - start)


@dataclass(frozen=True)
class Row:
    parser: str
    what: str
    answers: int
    seconds: float
    p50: float
    p99: float
    cpu: float  # the room's CPU seconds in the window
    failures: int

    @property
    def rate(self) -> float:
        return self.answers / self.seconds

    @property
    def cpu_per_answer(self) -> float:
        return self.cpu / self.answers if self.answers else float("nan")


async def measure(room: Room, what: str, clients: int, seconds: float, parser: str) -> Row:
    tally = Tally([])
    until = time.perf_counter() + seconds
    before, started = room.cpu(), time.perf_counter()
    if what == "handshake":
        work = [handshaker(room.ws_url, until, tally) for _ in range(max(1, clients // 5))]
    else:
        work = [asker(room.port, what, until, tally) for _ in range(clients)]
    await asyncio.gather(*work)
    elapsed, cpu = time.perf_counter() - started, room.cpu() - before
    times = sorted(tally.times)
    return Row(
        parser, what, len(times), elapsed, percentile(times, 0.5), percentile(times, 0.99), cpu,
        tally.failures,
    )  # fmt: skip


def open_tables(room: Room, count: int) -> None:
    """``count`` public tables in the lobby, hosted by one guest."""
    with httpx.Client(base_url=room.url, timeout=30) as http:
        token = http.post("/api/guests", json={"name": "Lobby"}).json()["token"]
        headers = {"authorization": f"Bearer {token}"}
        for number in range(count):
            settings = {"name": f"Table {number}", "seats": 6, "bots": 0}
            http.post("/api/tables", json=settings, headers=headers).raise_for_status()


def run(parser: str, args: argparse.Namespace, folder: Path) -> list[Row]:
    os.environ[HTTP_VARIABLE] = parser
    room = Room(f"sqlite:///{folder}/{parser}.sqlite3", folder / f"{parser}.log")
    try:
        room.wait_ready()
        open_tables(room, args.tables)
        rows = []
        for what in (*PATHS, "handshake"):
            asyncio.run(measure(room, what, args.connections, 1.0, parser))  # warm
            rows.append(asyncio.run(measure(room, what, args.connections, args.seconds, parser)))
        return rows
    finally:
        room.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=50, help="keep-alive clients (50)")
    parser.add_argument("--seconds", type=float, default=5.0, help="each measure (5)")
    parser.add_argument("--tables", type=int, default=20, help="public tables (20)")
    parser.add_argument("--rounds", type=int, default=2, help="parsers alternated (2)")
    args = parser.parse_args()
    print(
        f"HTTP parsers: {args.connections} keep-alive clients, {args.seconds:g} s a measure, "
        f"{args.tables} tables in the lobby; load average {os.getloadavg()[0]:.1f}"
    )
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="splitpot-http-") as folder:
        for _ in range(args.rounds):
            for name in PARSERS:
                rows.extend(run(name, args, Path(folder)))
    print(
        f"{'parser':<10} {'answers':<12} {'per s':>8} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'CPU ms each':>11} {'x h11':>6} {'failed':>6}"
    )
    for what in (*PATHS, "handshake"):
        base = [r.cpu_per_answer for r in rows if r.what == what and r.parser == "h11"]
        for row in (r for r in rows if r.what == what):
            print(
                f"{row.parser:<10} {row.what:<12} {row.rate:>8,.0f} {row.p50 * 1000:>7.2f} "
                f"{row.p99 * 1000:>7.2f} {row.cpu_per_answer * 1000:>11.3f} "
                f"{row.cpu_per_answer / (sum(base) / len(base)):>6.2f} {row.failures:>6}"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
