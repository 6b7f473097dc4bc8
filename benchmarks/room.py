"""The room under load: N six-seat tables of WebSocket bot clients acting at once for S
seconds against one room process on loopback, on SQLite and on PostgreSQL.

Run: ``.venv/bin/python benchmarks/room.py [--tables N] [--seconds S] [--db
sqlite|postgresql|both] [--sweep]``. Each run starts its own room process (``splitpot
serve`` with no pause between hands and no bot delay) on a fresh database (a temporary
SQLite file, or a PostgreSQL database made on --postgres and dropped after); this process
plays every seat. It prints hands and actions a second, the time from an ``act`` to the
event that reports it (p50, p99), and the room's memory per table (its RSS after the run
less its RSS idle, over N), with the room's CPU (of one core, and per action). The target:
20 tables at 100 hands a second or more with p99 under 100 ms; ``--sweep`` finds the most
tables that keep p99 under 100 ms. ``--profile FILE`` samples the room with py-spy during
the first run's measured seconds (folded stacks, one line per stack).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from room_clients import Tally, Window, open_tables, play
from sqlalchemy import create_engine

from splitpot.server.room import RoomOptions
from splitpot.store import normalise_url

TARGET_TABLES = 20
TARGET_HANDS = 100.0  # hands a second at TARGET_TABLES
TARGET_P99 = 0.100  # seconds
SWEEP = (5, 10, 20, 40, 60)  # tables tried in turn until p99 reaches 100 ms
BISECT = 3  # then at most this many runs between the last that kept it and the first not
POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
HOST = "127.0.0.1"
FAST = RoomOptions(hand_pause=0.0, bot_delay=0.0)


def serve(port: int, url: str) -> None:
    """The room process: ``splitpot serve`` itself, with hands dealt back to back."""
    from splitpot.server.main import serve as serve_room

    sys.exit(serve_room(HOST, port, url, options=FAST))


class Room:
    """A room process on a free loopback port: its URLs, its memory and its CPU time."""

    def __init__(self, url: str, log: Path) -> None:
        with socket.socket() as probe:
            probe.bind((HOST, 0))
            port = int(probe.getsockname()[1])
        self.url = f"http://{HOST}:{port}"
        self.ws_url = f"ws://{HOST}:{port}/ws"
        self.log = log
        with log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, __file__, "--serve", str(port), url],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.pid = self.process.pid

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the room did not start; its log:\n{self.log.read_text()[-3000:]}")

    def rss(self) -> int:
        """Resident memory in bytes (/proc/PID/status)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError(f"no VmRSS for process {self.pid}")

    def cpu(self) -> float:
        """User and system CPU seconds so far (/proc/PID/stat)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """SIGTERM (the room finishes hands in play and exits), then SIGKILL if it hangs."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=45)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextmanager
def database(kind: str, postgres: str) -> Iterator[str]:
    """A fresh, empty database of ``kind``; removed afterwards."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="splitpot-bench-") as folder:
            yield f"sqlite:///{folder}/room.sqlite3"
        return
    server = normalise_url(postgres)
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    name = f"splitpot_bench_{secrets.token_hex(6)}"
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            yield server.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as connection:
                connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()


@dataclass(frozen=True)
class Result:
    database: str
    tables: int
    seconds: float
    hands: int
    latencies: list[float]  # sorted, seconds
    errors: Counter[str]
    idle_rss: int  # bytes: warmed up, no benchmark table yet
    end_rss: int  # bytes: at the end of the measured window
    room_cpu: float  # CPU seconds of the room process in the window
    client_cpu: float  # CPU seconds of this (client) process in the window

    def percentile(self, share: float) -> float:
        if not self.latencies:
            return math.nan
        return self.latencies[min(len(self.latencies) - 1, int(share * len(self.latencies)))]

    @property
    def per_table(self) -> float:
        return (self.end_rss - self.idle_rss) / self.tables

    @property
    def keeps_p99(self) -> bool:
        return self.percentile(0.99) < TARGET_P99

    def target(self) -> str:
        if self.tables == TARGET_TABLES:
            met = self.keeps_p99 and self.hands / self.seconds >= TARGET_HANDS
            return f"≥ {TARGET_HANDS:.0f} hands/s, p99 < 100 ms: {'met' if met else 'missed'}"
        return f"p99 < 100 ms: {'yes' if self.keeps_p99 else 'no'}"


def client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def sleep_until(moment: float) -> None:
    await asyncio.sleep(max(0.0, moment - time.perf_counter()))


async def bounded(task: asyncio.Task[None], seconds: float, what: str) -> None:
    try:
        await asyncio.wait_for(task, seconds)
    except TimeoutError as error:
        raise RuntimeError(f"{what} took over {seconds:g} s") from error


async def play_tables(room: Room, count: int, players: int, window: Window, tally: Tally) -> None:
    """Open the tables and play them until ``window.stop`` and every player has left."""
    places = [place for table in await open_tables(room.url, count, players) for place in table]
    await asyncio.gather(*(play(room.ws_url, place, window, tally) for place in places))


async def measure(
    room: Room, label: str, tables: int, seconds: float, warmup: float, profile: Path | None
) -> Result:
    # a table of two, a few hands: the room loads the engine, evaluator and histories
    # (numba compiles the evaluator if its disk cache is stale: that can take minutes)
    first = Window()
    warming = asyncio.create_task(play_tables(room, 1, 2, first, Tally()))
    await asyncio.sleep(1.5)
    first.stop.set()
    await bounded(warming, 300, "the warm-up table")
    idle = room.rss()

    window, tally = Window(), Tally()
    players = asyncio.create_task(play_tables(room, tables, 6, window, tally))
    deadline = time.perf_counter() + 120
    while tally.seated < 6 * tables:
        if players.done() or time.perf_counter() > deadline:
            window.stop.set()
            raise RuntimeError(f"{tally.seated} of {6 * tables} players sat: {tally.errors}")
        await asyncio.sleep(0.05)
    window.start = time.perf_counter() + warmup
    window.end = window.start + seconds
    await sleep_until(window.start)
    spy = None if profile is None else start_profile(room, profile, seconds)
    room_before, client_before = room.cpu(), client_cpu()
    await sleep_until(window.end)
    room_after, client_after = room.cpu(), client_cpu()
    end_rss = room.rss()
    window.stop.set()
    await bounded(players, 60, "leaving the tables")
    if spy is not None:
        spy.wait(timeout=60)
    return Result(
        label,
        tables,
        seconds,
        tally.hands,
        sorted(tally.latencies),
        tally.errors,
        idle,
        end_rss,
        room_after - room_before,
        client_after - client_before,
    )


def run(kind: str, tables: int, args: argparse.Namespace, profile: Path | None) -> Result:
    """One benchmark run on a fresh room process and a fresh database."""
    with (
        database(kind, args.postgres) as url,
        tempfile.NamedTemporaryFile(prefix="splitpot-room-", suffix=".log") as log,
    ):
        room = Room(url, Path(log.name))
        try:
            room.wait_ready()
            return asyncio.run(measure(room, kind, tables, args.seconds, args.warmup, profile))
        finally:
            room.stop()


def start_profile(room: Room, out: Path, seconds: float) -> subprocess.Popen[bytes]:
    """py-spy sampling the room for ``seconds`` without stopping it (folded stacks in
    ``out``, a line per stack and thread)."""
    spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if spy is None:
        raise SystemExit("--profile needs py-spy: .venv/bin/pip install py-spy")
    command = [spy, "record", "--pid", str(room.pid), "--format", "raw", "--output", str(out)]
    options = ["--duration", str(math.ceil(seconds)), "--threads", "--nonblocking"]
    return subprocess.Popen([*command, *options], stdout=subprocess.DEVNULL)


def megabytes(amount: float) -> str:
    return f"{amount / 2**20:,.1f}"


def print_results(results: list[Result]) -> None:
    print(
        "| database | tables | hands/s | actions/s | p50 ms | p99 ms | room CPU | CPU ms/action "
        "| client CPU | room RSS idle MB | MB per table | refusals | target |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for r in results:
        refusals = ", ".join(f"{code} {n}" for code, n in r.errors.most_common()) or "none"
        print(
            f"| {r.database} | {r.tables} | {r.hands / r.seconds:,.1f} "
            f"| {len(r.latencies) / r.seconds:,.0f} | {1000 * r.percentile(0.5):.1f} "
            f"| {1000 * r.percentile(0.99):.1f} | {r.room_cpu / r.seconds:.0%} "
            f"| {1000 * r.room_cpu / max(1, len(r.latencies)):.2f} "
            f"| {r.client_cpu / r.seconds:.0%} | {megabytes(r.idle_rss)} "
            f"| {megabytes(r.per_table)} | {refusals} | {r.target()} |"
        )


def sweep(kind: str, args: argparse.Namespace, profile: Path | None) -> tuple[list[Result], str]:
    """Runs with more and more tables until p99 reaches 100 ms, then a bisection (bounded)
    between the most tables that kept it and the fewest that did not; and what it found."""
    results: list[Result] = []
    kept, missed = 0, None
    for tables in SWEEP:
        results.append(run(kind, tables, args, profile))
        profile = None
        if not results[-1].keeps_p99:
            missed = tables
            break
        kept = tables
    for _ in range(BISECT):
        if missed is None or missed - kept <= 1:
            break
        tables = (kept + missed) // 2
        results.append(run(kind, tables, args, None))
        if results[-1].keeps_p99:
            kept = tables
        else:
            missed = tables
    if missed is None:
        return results, f"{kind}: p99 < 100 ms with every number of tables tried, up to {kept}"
    return results, f"{kind}: the most tables with p99 < 100 ms: {kept} ({missed} did not keep it)"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=TARGET_TABLES, help="tables (default 20)")
    parser.add_argument(
        "--seconds", type=float, help="measured seconds a run (default 20; 10 with --sweep)"
    )
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="seconds played before measuring (default 3)"
    )
    parser.add_argument(
        "--db", choices=("sqlite", "postgresql", "both"), default="both", help="(default both)"
    )
    parser.add_argument(
        "--sweep",
        action="store_true",
        help=f"tables in {SWEEP} until p99 reaches 100 ms, then {BISECT} runs between",
    )
    parser.add_argument(
        "--postgres", default=POSTGRES, help=f"PostgreSQL server for scratch databases ({POSTGRES})"
    )
    parser.add_argument(
        "--profile", type=Path, help="write py-spy's folded stacks of the room in the first run"
    )
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "URL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1])
    if not 1 <= args.tables <= 100:
        parser.error(f"--tables must be from 1 to 100, not {args.tables}")
    if args.seconds is None:
        args.seconds = 10.0 if args.sweep else 20.0
    if not 1 <= args.seconds <= 600:
        parser.error(f"--seconds must be from 1 to 600, not {args.seconds:g}")
    if not 0 <= args.warmup <= 60:
        parser.error(f"--warmup must be from 0 to 60, not {args.warmup:g}")
    kinds = ("sqlite", "postgresql") if args.db == "both" else (args.db,)
    # stopped from outside: still stop the room and drop the scratch database
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    load = os.getloadavg()[0]
    results: list[Result] = []
    found: list[str] = []
    profile: Path | None = args.profile
    for kind in kinds:
        if args.sweep:
            runs, finding = sweep(kind, args, profile)
            results += sorted(runs, key=lambda r: r.tables)
            found.append(finding)
        else:
            results.append(run(kind, args.tables, args, profile))
        profile = None
    print(
        f"{', '.join(kinds)}; six bot clients a table acting at once, {args.seconds:g} s a run "
        f"after {args.warmup:g} s; one room process on loopback; {os.cpu_count()} cores; "
        f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    print()
    print_results(results)
    if found:
        print()
        print("\n".join(found))


if __name__ == "__main__":
    main()
