"""The room under load: N six-seat tables of WebSocket bot clients acting for S seconds
against one room process on loopback, on SQLite and on PostgreSQL; with idle watchers,
a human pace, the issue's goal, a soak with connection churn, and a profile.

Run: ``.venv/bin/python benchmarks/room.py [--tables N] [--watchers W] [--think S]
[--seconds S] [--db sqlite|postgresql|both|floor] [--sweep] [--goal] [--soak [SECONDS]]
[--profile FILE]`` (docs/load.md). Each run starts its own room process (``splitpot
serve`` with no pause between hands and no bot delay) on a fresh database (a temporary
SQLite file, or a PostgreSQL database made on --postgres and dropped after); this
process, on the same cores, plays every seat and holds every watcher. It prints hands and
actions a second, the time from an ``act`` to the event that reports it (p50, p99), the
clients connected, the room's memory per table and per watcher connection (RSS sampled
before and after the watchers connect, and at the end), its CPU and the clients', and
what other processes took. ``--think S``: each player waits S seconds before acting.
``--goal``: 100 tables and 400 watchers (1,000 clients), at full speed and paced, judged
against p99 < 100 ms, after the same two runs on benchmarks/floor.py (the room's stack
doing nothing but the frames an action sends: the room's CPU an action × that floor;
``--db floor`` alone). ``--sweep``: the most tables that keep p99 under 100 ms. ``--soak``:
20 tables and 100 watchers with churn, the room's RSS and open files sampled every 10 s,
and a verdict (flat or grows). ``--profile FILE``: py-spy samples the room during the
first run's measured seconds (folded stacks), summarised at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import re
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
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import httpx
import stalls
from room_clients import SEATS, Pace, Tally, Window, open_tables, play, watch
from sqlalchemy import create_engine

from splitpot.server.options import RoomOptions
from splitpot.store import normalise_url

TARGET_TABLES = 20
TARGET_HANDS = 100.0  # hands a second at TARGET_TABLES
TARGET_P99 = 0.100  # seconds
SWEEP = (5, 10, 20, 40, 60)  # tables tried in turn until p99 reaches 100 ms
PACED_SWEEP = (25, 50, 100, 200, 300, 400)  # the same with --think
MAX_TABLES = 500
GOAL_TABLES = 100  # the goal: 1,000 clients, 100 tables in play, p99 < 100 ms
GOAL_WATCHERS = 400
GOAL_CLIENTS = 1000
GOAL_THINK = 0.5  # seconds: --goal's paced run, unless --think says otherwise
WAIT_CLIENTS = 180.0  # seconds the clients may take to connect and sit
SOAK_TABLES = 20
SOAK_WATCHERS = 100
SOAK_CHURN = 40.0  # seconds a player sits (a watcher watches) before leaving, about
SOAK_EVERY = 10.0  # seconds between samples
SOAK_RSS = 0.05  # flat: the last third's highest RSS within 5% of the first third's
SOAK_FDS = 10  # and its fds within 10
SOAK_WINDOW = 50  # hands a table keeps (the last-hands window): memory grows until then
PROFILE_TOP = 15
BISECT = 3  # then at most this many runs between the last that kept it and the first not
POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
LOOP_VARIABLE = "SPLITPOT_BENCH_LOOP"  # --loop, for the room processes this starts
HTTP_VARIABLE = "SPLITPOT_BENCH_HTTP"  # their HTTP parser (benchmarks/parsers.py)
LINK_VARIABLE = "SPLITPOT_BENCH_LINK"  # "off": no direct links (benchmarks/cluster.py --link)
FLOOR = "floor"  # benchmarks/floor.py in place of the room: the floor under its CPU an action
HOST = "127.0.0.1"
# every benchmark client comes from 127.0.0.1: 600 guests for the goal's tables, and
# benchmarks/hands.py's clients asking for hands as fast as they are answered
FAST = RoomOptions(
    hand_pause=0.0,
    bot_delay=0.0,
    guests_per_minute=1_000_000,
    hand_lists_per_minute=1_000_000,
    hands_per_minute=1_000_000,
)


def serve(port: int, url: str, redis: str | None = None) -> None:
    """The room process: ``splitpot serve`` itself, with hands dealt back to back; with
    ``redis``, one of a room's processes (benchmarks/cluster.py), its lease from
    SPLITPOT_LEASE_SECONDS when set, its direct links off when SPLITPOT_BENCH_LINK=off."""
    from splitpot.server.main import Transport, seconds_from
    from splitpot.server.main import serve as serve_room

    if os.environ.get(stalls.VARIABLE):  # --stalls MS
        stalls.watch(int(os.environ[stalls.VARIABLE]) / 1000)
    lease = seconds_from("SPLITPOT_LEASE_SECONDS", FAST.lease_seconds, 0.5)
    link = None if os.environ.get(LINK_VARIABLE) == "off" else FAST.link
    options = replace(FAST, lease_seconds=lease, link=link)
    transport = Transport(
        loop=os.environ.get(LOOP_VARIABLE, "uvloop"),
        http=os.environ.get(HTTP_VARIABLE, "httptools"),
    )
    sys.exit(serve_room(HOST, port, url, options=options, redis=redis, transport=transport))


class Room:
    """A room process on a free loopback port: its URLs, its memory and its CPU time."""

    def __init__(self, url: str, log: Path, redis: str | None = None) -> None:
        with socket.socket() as probe:
            probe.bind((HOST, 0))
            port = int(probe.getsockname()[1])
        self.database = url
        self.port = port
        self.url = f"http://{HOST}:{port}"
        self.ws_url = f"ws://{HOST}:{port}/ws"
        self.log = log
        command = [sys.executable, __file__, "--serve", str(port), url, *([redis] if redis else [])]
        if url == FLOOR:  # benchmarks/floor.py: the same stack doing nothing but the frames
            command = [sys.executable, str(Path(__file__).with_name("floor.py")), str(port)]
        with log.open("w") as out:
            self.process = subprocess.Popen(
                command,
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

    async def steady_rss(self) -> int:
        """The median of a few RSS samples a quarter second apart, once the room settles."""
        samples = []
        for _ in range(5):
            await asyncio.sleep(0.25)
            samples.append(self.rss())
        return sorted(samples)[len(samples) // 2]

    def fds(self) -> int:
        """Open file descriptors (/proc/PID/fd): sockets, the database, the log."""
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def cpu(self) -> float:
        """User and system CPU seconds so far (/proc/PID/stat)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def analyze(self) -> None:
        """PostgreSQL's statistics of the room's tables gathered now (``ANALYZE``), as
        autovacuum does within a minute of a room's first writes: a fresh database's
        tables look empty to the planner, which then plans the action log's reads as
        scans of the whole table, and keeps the plans it has prepared (docs/load.md,
        twelfth round). Nothing on SQLite (whose planner keeps no such statistics)."""
        if not self.database.startswith("postgresql"):
            return
        engine = create_engine(normalise_url(self.database), isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as connection:
                connection.exec_driver_sql("ANALYZE")
        finally:
            engine.dispose()

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
    """A fresh, empty database of ``kind``; removed afterwards (the floor has none)."""
    if kind == "floor":
        yield FLOOR
        return
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
    watchers: int
    think: float  # seconds each player waits before answering its turn
    seconds: float
    hands: int
    latencies: list[float]  # sorted, seconds
    errors: Counter[str]
    idle_rss: int  # bytes: warmed up, no benchmark table yet
    opened_rss: int  # bytes: the tables opened, nobody at them yet
    watched_rss: int  # bytes: and the watchers connected
    end_rss: int  # bytes: at the end of the measured window
    room_cpu: float  # CPU seconds of the room process in the window
    client_cpu: float  # CPU seconds of this (client) process in the window
    other_cpu: float  # CPU seconds of every other process on the machine in the window
    steal: float  # CPU seconds the hypervisor took from this machine in the window
    connected: int  # client connections open at the end of the window
    playing: int  # tables with an act timed in the window (in play)
    room_fds: int  # the room's open file descriptors at the end of the window
    goal: bool = False  # a run of --goal: judged against the goal
    think_most: float = 0.0  # --think-most: each decision drawn from think to this

    def percentile(self, share: float) -> float:
        return percentile(self.latencies, share)

    @property
    def per_table(self) -> float:
        """Room memory a table in play adds: its six players' connections and its hands."""
        return (self.end_rss - self.watched_rss) / self.tables

    @property
    def per_watcher(self) -> float:
        """Room memory an idle watcher's connection adds (measured before play starts)."""
        return (self.watched_rss - self.opened_rss) / max(1, self.watchers)

    @property
    def pace_text(self) -> str:
        return f"{self.think:g}" + (f" to {self.think_most:g}" if self.think_most else "")

    @property
    def cpu_per_action(self) -> float:
        """The room's CPU seconds an action (an act answered in the window)."""
        return self.room_cpu / max(1, len(self.latencies))

    @property
    def keeps_p99(self) -> bool:
        return self.percentile(0.99) < TARGET_P99

    def target(self) -> str:
        if self.goal:
            return self.against_goal()
        if self.tables == TARGET_TABLES and self.think == 0 and self.watchers == 0:
            met = self.keeps_p99 and self.hands / self.seconds >= TARGET_HANDS
            return f"≥ {TARGET_HANDS:.0f} hands/s, p99 < 100 ms: {'met' if met else 'missed'}"
        return f"p99 < 100 ms: {'yes' if self.keeps_p99 else 'no'}"

    def against_goal(self) -> str:
        """The issue's goal: 1,000 connected clients, 100 tables in play, p99 < 100 ms."""
        misses = []
        if self.connected < GOAL_CLIENTS:
            misses.append(f"{self.connected:,} of {GOAL_CLIENTS:,} clients")
        if self.playing < GOAL_TABLES:
            misses.append(f"{self.playing} of {GOAL_TABLES} tables in play")
        p99 = self.percentile(0.99)
        if not self.keeps_p99:
            misses.append(f"p99 {1000 * p99:,.0f} ms, {p99 / TARGET_P99:.1f}× the 100 ms")
        return "goal met" if not misses else "goal missed by " + "; ".join(misses)


def machine_cpu() -> tuple[float, float]:
    """CPU seconds the whole machine has been busy (every core, every process) and stolen
    by the hypervisor, from /proc/stat: what other work took during a run is the busy
    time less the room's and the clients'."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick


def client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def ready_for_many_clients() -> None:
    """A benchmark's process: stopped from outside, it still stops its rooms and drops its
    scratch database; a thousand clients are a thousand sockets here and in the rooms
    (which inherit the limit)."""
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def percentile(ordered: list[float], share: float) -> float:
    """The value ``share`` of the way up ``ordered`` (sorted already); NaN if empty."""
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


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


async def warm_up(room: Room) -> int:
    """A table of two, a few hands: the room loads the engine, evaluator and histories
    (numba compiles the evaluator if its disk cache is stale: that can take minutes);
    the room's RSS after it."""
    first = Window()
    warming = asyncio.create_task(play_tables(room, 1, 2, first, Tally()))
    await asyncio.sleep(1.5)
    first.stop.set()
    await bounded(warming, 300, "the warm-up table")
    return room.rss()


async def until(done: Callable[[], bool], task: asyncio.Task[None], what: str) -> None:
    """Wait (at most WAIT_CLIENTS s) until ``done()``; fail at once if ``task`` ends first."""
    deadline = time.perf_counter() + WAIT_CLIENTS
    while not done():
        if task.done() or time.perf_counter() > deadline:
            raise RuntimeError(f"{what}: {task.exception() if task.done() else 'too slow'}")
        await asyncio.sleep(0.05)


async def fill(
    room: Room, tables: int, watchers: int, pace: Pace, window: Window, tally: Tally
) -> tuple[asyncio.Task[None], int, int]:
    """Open the tables, connect the watchers (spread over the tables) and sample the
    room's RSS before and after them, before anyone sits; then seat every player. The
    clients' task and the two RSS samples."""
    places = await open_tables(room.url, tables)
    opened = await room.steady_rss()
    table_ids = [table[0].table for table in places]
    watching = [
        watch(room.ws_url, table_ids[n % tables], window, tally, pace) for n in range(watchers)
    ]
    watching_task = asyncio.create_task(gather(watching))
    await until(lambda: tally.watching >= watchers, watching_task, "connecting the watchers")
    watched = await room.steady_rss()
    seats = [play(room.ws_url, place, window, tally, pace) for table in places for place in table]
    playing = asyncio.create_task(gather(seats))

    async def everyone() -> None:
        await asyncio.gather(watching_task, playing)

    clients = asyncio.create_task(everyone())
    try:
        await until(lambda: tally.seated >= SEATS * tables, clients, "seating the players")
    except RuntimeError:
        window.stop.set()
        raise
    return clients, opened, watched


async def gather(clients: Iterable[Awaitable[None]]) -> None:
    await asyncio.gather(*clients)


async def measure(
    room: Room, label: str, plan: Plan, seconds: float, warmup: float, profile: Path | None
) -> Result:
    idle = await warm_up(room)
    window, tally = Window(), Tally()
    clients, opened, watched = await fill(
        room, plan.tables, plan.watchers, plan.pace, window, tally
    )
    window.start = time.perf_counter() + warmup
    window.end = window.start + seconds
    await asyncio.sleep(warmup / 2)
    await asyncio.to_thread(room.analyze)
    await sleep_until(window.start)
    spy = None if profile is None else start_profile(room, profile, seconds)
    room_before, client_before, machine_before = room.cpu(), client_cpu(), machine_cpu()
    await sleep_until(window.end)
    room_after, client_after, machine_after = room.cpu(), client_cpu(), machine_cpu()
    room_used, client_used = room_after - room_before, client_after - client_before
    end_rss, fds, connected = room.rss(), room.fds(), tally.connected
    window.stop.set()
    longest = max(plan.pace.think, plan.pace.think_most)
    await bounded(clients, 60 + 2 * longest, "leaving the tables")
    if spy is not None:
        spy.wait(timeout=60)
    return Result(
        label,
        plan.tables,
        plan.watchers,
        plan.pace.think,
        seconds,
        tally.hands,
        sorted(tally.latencies),
        tally.errors,
        idle,
        opened,
        watched,
        end_rss,
        room_used,
        client_used,
        machine_after[0] - machine_before[0] - room_used - client_used,
        machine_after[1] - machine_before[1],
        connected,
        len(tally.playing),
        fds,
        plan.goal,
        plan.pace.think_most,
    )


@dataclass(frozen=True)
class Plan:
    """What a run puts on the room."""

    tables: int
    watchers: int = 0
    pace: Pace = field(default_factory=Pace)
    goal: bool = False


def run(kind: str, plan: Plan, args: argparse.Namespace, profile: Path | None) -> Result:
    """One benchmark run on a fresh room process and a fresh database."""
    with room_on(kind, args) as room:
        return asyncio.run(measure(room, kind, plan, args.seconds, args.warmup, profile))


@contextmanager
def room_on(kind: str, args: argparse.Namespace) -> Iterator[Room]:
    """A fresh room process on a fresh database of ``kind``, stopped afterwards."""
    with (
        database(kind, args.postgres) as url,
        tempfile.NamedTemporaryFile(prefix="splitpot-room-", suffix=".log") as log,
    ):
        room = Room(url, Path(log.name))
        try:
            room.wait_ready()
            yield room
        finally:
            room.stop()
            if os.environ.get(stalls.VARIABLE):
                caught = [line for line in room.log.read_text().splitlines() if stalls.MARK in line]
                print(f"{kind}: {len(caught)} stalls of the room's loop", *caught, sep="\n  ")


@dataclass(frozen=True)
class Sample:
    """One look at the room during a soak."""

    at: float  # seconds since the soak began
    rss: int  # bytes
    fds: int
    connected: int  # client connections open
    hands: int  # hands ended since the soak began
    p99: float  # seconds, of the acts since the last sample
    others: float  # cores other processes used since the last sample


async def soak(room: Room, kind: str, args: argparse.Namespace) -> tuple[list[Sample], Tally]:
    """A steady run of ``--soak`` seconds with connection churn; the room sampled every
    SOAK_EVERY seconds."""
    await warm_up(room)
    window, tally = Window(), Tally()
    pace = Pace(think=args.think, churn=SOAK_CHURN)
    clients, _, _ = await fill(room, SOAK_TABLES, SOAK_WATCHERS, pace, window, tally)
    began = time.perf_counter()
    window.start = began
    samples: list[Sample] = []
    seen = 0
    last = (began, machine_cpu()[0] - room.cpu() - client_cpu())
    while True:
        now = time.perf_counter()
        others = machine_cpu()[0] - room.cpu() - client_cpu()
        share = (others - last[1]) / max(1e-9, now - last[0])
        last = (now, others)
        fresh = sorted(tally.latencies[seen:])
        seen += len(fresh)
        p99 = percentile(fresh, 0.99)
        share = share if samples else math.nan
        samples.append(
            Sample(now - began, room.rss(), room.fds(), tally.connected, tally.hands, p99, share)
        )
        if now - began >= args.soak or clients.done():
            break
        await sleep_until(began + len(samples) * SOAK_EVERY)
    window.stop.set()
    await bounded(clients, 60 + 2 * args.think, "leaving the tables")
    return samples, tally


def verdict(samples: list[Sample], warm: float) -> str:
    """Flat if, after the warm-up, the last third's highest RSS is within SOAK_RSS of the
    first third's and its fds within SOAK_FDS; else it grows. The slope either way."""
    settled = [s for s in samples if s.at >= warm]
    third = max(1, len(settled) // 3)
    first, last = settled[:third], settled[-third:]
    rss_first, rss_last = max(s.rss for s in first), max(s.rss for s in last)
    fds_first, fds_last = max(s.fds for s in first), max(s.fds for s in last)
    flat = rss_last <= rss_first * (1 + SOAK_RSS) and fds_last <= fds_first + SOAK_FDS
    rss_slope = slope([(s.at, s.rss / 2**20) for s in settled]) * 60
    fds_slope = slope([(s.at, float(s.fds)) for s in settled]) * 60
    return (
        f"{'flat' if flat else 'grows'}: after {warm:.0f} s of warm-up, the last third's "
        f"highest RSS {megabytes(rss_last)} MB against the first third's "
        f"{megabytes(rss_first)} MB, fds {fds_last} against {fds_first}; least-squares "
        f"slope {rss_slope:+.2f} MB and {fds_slope:+.1f} fds a minute"
    )


def soak_warmup(samples: list[Sample], seconds: float) -> float:
    """The warm-up: until every table has dealt SOAK_WINDOW hands (its last-hands window
    is full, so the room's memory should stop growing), at most half the soak."""
    full = next((s.at for s in samples if s.hands >= SOAK_WINDOW * SOAK_TABLES), math.inf)
    return min(full, seconds / 2)


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of y over x."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    if spread == 0:
        return 0.0
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread


def print_soak(kind: str, samples: list[Sample], tally: Tally, seconds: float) -> None:
    warm = soak_warmup(samples, seconds)
    print("| s | room RSS MB | room fds | clients | hands | p99 ms (last 10 s) | others' CPU |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for s in samples:
        note = " (warm-up)" if s.at < warm else ""
        print(
            f"| {s.at:.0f}{note} | {megabytes(s.rss)} | {s.fds} | {s.connected:,} "
            f"| {s.hands:,} | {1000 * s.p99:.1f} | {s.others:.0%} |"
        )
    refusals = ", ".join(f"{code} {n}" for code, n in tally.errors.most_common()) or "none"
    print()
    print(
        f"{kind}: {len(tally.latencies):,} acts; churn: {tally.resits} players left and sat "
        f"again, {tally.rewatches} watchers hung up and watched again; refusals: {refusals}"
    )
    if samples[-1].hands < SOAK_WINDOW * SOAK_TABLES or warm >= seconds / 2:
        print(
            f"{kind}: the tables' last-hands windows ({SOAK_WINDOW} hands each) were still "
            f"filling {warm:.0f} s in: memory grows with them until then; soak longer"
        )
    print(f"{kind}: {verdict(samples, warm)}")


def start_profile(room: Room, out: Path, seconds: float) -> subprocess.Popen[bytes]:
    """py-spy sampling the room for ``seconds`` without stopping it (folded stacks in
    ``out``, a line per stack and thread)."""
    spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if spy is None:
        raise SystemExit("--profile needs py-spy: .venv/bin/pip install py-spy")
    command = [spy, "record", "--pid", str(room.pid), "--format", "raw", "--output", str(out)]
    options = ["--duration", str(math.ceil(seconds)), "--threads", "--nonblocking"]
    options.append("--full-filenames")  # the package of each file, for the summary
    return subprocess.Popen([*command, *options], stdout=subprocess.DEVNULL)


def megabytes(amount: float) -> str:
    return f"{amount / 2**20:,.1f}"


def print_results(results: list[Result]) -> None:
    print(
        "| database | tables | watchers | think s | clients | hands/s | actions/s | p50 ms "
        "| p99 ms | room CPU | CPU ms/action | client CPU | room RSS idle MB | MB per table "
        "| KB per watcher | room fds | others' CPU | steal | refusals | target | × floor |"
    )
    print("|---|" + "---:|" * 17 + "---|---|---:|")
    floors = {(r.tables, r.watchers, r.pace_text): r for r in results if r.database == FLOOR}
    for r in results:
        floor = floors.get((r.tables, r.watchers, r.pace_text))
        times = f"{r.cpu_per_action / floor.cpu_per_action:.1f}" if floor else "-"
        refusals = ", ".join(f"{code} {n}" for code, n in r.errors.most_common()) or "none"
        per_watcher = f"{r.per_watcher / 1024:,.0f}" if r.watchers else "-"
        print(
            f"| {r.database} | {r.tables} | {r.watchers} | {r.pace_text} | {r.connected:,} "
            f"| {r.hands / r.seconds:,.1f} "
            f"| {len(r.latencies) / r.seconds:,.0f} | {1000 * r.percentile(0.5):.1f} "
            f"| {1000 * r.percentile(0.99):.1f} | {r.room_cpu / r.seconds:.0%} "
            f"| {1000 * r.cpu_per_action:.2f} "
            f"| {r.client_cpu / r.seconds:.0%} | {megabytes(r.idle_rss)} "
            f"| {megabytes(r.per_table)} | {per_watcher} | {r.room_fds:,} "
            f"| {r.other_cpu / r.seconds:.0%} | {r.steal / r.seconds:.0%} "
            f"| {refusals} | {r.target()} | {times} |"
        )


def sweep(kind: str, args: argparse.Namespace, profile: Path | None) -> tuple[list[Result], str]:
    """Runs with more and more tables until p99 reaches 100 ms, then a bisection (bounded)
    between the most tables that kept it and the fewest that did not; and what it found."""
    results: list[Result] = []
    kept, missed = 0, None
    pace = Pace(think=args.think)

    def plan(tables: int) -> Plan:
        return Plan(tables, args.watchers * tables // args.tables, pace)

    for tables in PACED_SWEEP if args.think > 0 else SWEEP:
        results.append(run(kind, plan(tables), args, profile))
        profile = None
        if not results[-1].keeps_p99:
            missed = tables
            break
        kept = tables
    for _ in range(BISECT):
        if missed is None or missed - kept <= 1:
            break
        tables = (kept + missed) // 2
        results.append(run(kind, plan(tables), args, None))
        if results[-1].keeps_p99:
            kept = tables
        else:
            missed = tables
    paced = f" (think {args.think:g} s)" if args.think > 0 else ""
    if missed is None:
        tried = f"p99 < 100 ms with every number of tables tried, up to {kept}"
        return results, f"{kind}{paced}: {tried}"
    return (
        results,
        f"{kind}{paced}: the most tables with p99 < 100 ms: {kept} ({missed} did not keep it)",
    )


AREAS = (  # where a sample's time goes: the first of these its stack meets, leaf first
    ("JSON (json)", ("json/",)),
    ("SQL (SQLAlchemy, sqlite3, psycopg)", ("sqlalchemy/", "sqlite3/", "psycopg")),
    ("WebSocket (websockets, uvicorn, starlette)", ("websockets/", "uvicorn/", "starlette/")),
    ("sockets and the event loop (asyncio)", ("asyncio/", "selectors.py")),
    ("protocol: views and events to dicts (splitpot/protocol)", ("splitpot/protocol/",)),
    ("history and hand records (splitpot/history)", ("splitpot/history/",)),
    ("store code (splitpot/store)", ("splitpot/store/",)),
    (
        "engine, table, evaluator, rules",
        ("splitpot/engine/", "splitpot/table/", "splitpot/evaluate/", "splitpot/rules"),
    ),
    ("dealing and fairness", ("splitpot/fair", "splitpot/server/dealing")),
    ("server: actors, connections (splitpot/server)", ("splitpot/server/",)),
)
WRAPPERS = ("asyncio/", "threading.py", "concurrent/futures/", "uvicorn/server.py", "_compat.py")


def summarise_profile(path: Path, top: int = PROFILE_TOP) -> None:
    """py-spy's folded stacks, summed: where the time goes (AREAS), and the functions with
    the most samples on top of the stack (self) and anywhere in it (cumulative, without
    the event loop and thread wrappers), as shares of all samples."""
    own: Counter[str] = Counter()
    within: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    areas: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        samples = int(count)
        total += samples
        raw = stack.split(";")
        if raw and raw[0].startswith(("thread ", "process ")):
            threads[raw[0]] += samples
            raw = [frame for frame in raw if not frame.startswith(("thread ", "process "))]
        frames = [frame_name(frame) for frame in raw]
        if frames:
            own[frames[-1]] += samples
        areas[area(raw)] += samples
        for frame in set(frames):
            if not any(wrapper in frame for wrapper in WRAPPERS) and " (room.py)" not in frame:
                within[frame] += samples
    if not total:
        print(f"{path}: no samples")
        return
    print(f"profile {path}: {total:,} samples (idle threads not sampled)")
    tables = (("area", areas), ("thread", threads), ("self", own), ("cumulative", within))
    for title, counts in tables:
        print()
        print(f"| {title} | share |")
        print("|---|---:|")
        for name, samples in counts.most_common(top):
            print(f"| `{name}` | {samples / total:.1%} |")


def frame_name(frame: str) -> str:
    """``function (/path/to/package/file.py:123)`` as ``function (package/file.py)``: every
    line of a function counts as one, and the path starts at the package."""
    name, _, where = frame.partition(" (")
    where = where.removesuffix(")").rpartition(":")[0] or where.removesuffix(")")
    where = re.sub(r"^.*?(site-packages/|/src/|/lib/python3\.\d+/)", "", where)
    return f"{name} ({where})" if where else name


def area(frames: list[str]) -> str:
    for frame in reversed(frames):
        for name, markers in AREAS:
            if any(marker in frame for marker in markers):
                return name
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=TARGET_TABLES, help="tables (default 20)")
    parser.add_argument(
        "--watchers",
        type=int,
        default=0,
        help="idle watcher connections spread over the tables (default 0)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds each player waits before answering its turn (default 0: at once)",
    )
    parser.add_argument(
        "--think-most",
        type=float,
        default=0.0,
        help="with it, each decision waits a time drawn from --think to this (a human pace: "
        "--think 2 --think-most 8)",
    )
    parser.add_argument(
        "--seconds", type=float, help="measured seconds a run (default 20; 10 with --sweep)"
    )
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="seconds played before measuring (default 3)"
    )
    parser.add_argument(
        "--db",
        choices=("sqlite", "postgresql", "both", "floor"),
        default="both",
        help="(default both; floor: benchmarks/floor.py alone)",
    )
    parser.add_argument(
        "--sweep",
        action="store_true",
        help=f"tables in {SWEEP} (with --think: {PACED_SWEEP}) until p99 reaches 100 ms, "
        f"then {BISECT} runs between; watchers in proportion to --watchers/--tables",
    )
    parser.add_argument(
        "--goal",
        action="store_true",
        help=f"the issue's goal: {GOAL_TABLES} tables and {GOAL_WATCHERS} watchers "
        f"({GOAL_CLIENTS:,} clients), at full speed and paced (--think, default {GOAL_THINK:g})",
    )
    parser.add_argument(
        "--soak",
        type=float,
        metavar="SECONDS",
        nargs="?",
        const=180.0,
        help=f"a steady run ({SOAK_TABLES} tables, {SOAK_WATCHERS} watchers, churn) of "
        f"SECONDS (default 180), the room's RSS and fds sampled every {SOAK_EVERY:g} s",
    )
    parser.add_argument(
        "--postgres", default=POSTGRES, help=f"PostgreSQL server for scratch databases ({POSTGRES})"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="write py-spy's folded stacks of the room in the first run, and summarise them",
    )
    parser.add_argument(
        "--loop",
        choices=("uvloop", "asyncio"),
        default="uvloop",
        help="the room's event loop, as splitpot serve --loop (default uvloop)",
    )
    parser.add_argument(
        "--stalls",
        type=int,
        metavar="MS",
        help="catch the room's loop late by MS or more: where it was, each stall a line "
        "(benchmarks/stalls.py)",
    )
    parser.add_argument("--summarise", type=Path, help="summarise a --profile file and exit")
    parser.add_argument("--serve", nargs="+", metavar="PORT URL [REDIS]", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), *args.serve[1:3])
    if args.summarise:
        summarise_profile(args.summarise)
        return
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables must be from 1 to {MAX_TABLES}, not {args.tables}")
    if not 0 <= args.watchers <= 10 * MAX_TABLES:
        parser.error(f"--watchers must be from 0 to {10 * MAX_TABLES}, not {args.watchers}")
    if not 0 <= args.think <= 10:
        parser.error(f"--think must be from 0 to 10 seconds, not {args.think:g}")
    if args.think_most and not args.think <= args.think_most <= 30:
        parser.error(f"--think-most must be from --think to 30 seconds, not {args.think_most:g}")
    if args.soak is not None and not 30 <= args.soak <= 3600:
        parser.error(f"--soak must be from 30 to 3600 seconds, not {args.soak:g}")
    if args.seconds is None:
        args.seconds = 10.0 if args.sweep else 20.0
    if not 1 <= args.seconds <= 600:
        parser.error(f"--seconds must be from 1 to 600, not {args.seconds:g}")
    if not 0 <= args.warmup <= 60:
        parser.error(f"--warmup must be from 0 to 60, not {args.warmup:g}")
    kinds = ("sqlite", "postgresql") if args.db == "both" else (args.db,)
    os.environ[LOOP_VARIABLE] = args.loop  # the room processes' (and the floor's) loop
    if args.stalls is not None:
        if not 1 <= args.stalls <= 10_000:
            parser.error(f"--stalls must be from 1 to 10000 ms, not {args.stalls}")
        os.environ[stalls.VARIABLE] = str(args.stalls)
    ready_for_many_clients()
    load = os.getloadavg()
    where = f"one room process on loopback; {os.cpu_count()} cores shared by the room and "
    where += "this client process"
    if args.soak is not None:
        for kind in kinds:
            with room_on(kind, args) as room:
                samples, tally = asyncio.run(soak(room, kind, args))
            print(
                f"{kind} soak: {SOAK_TABLES} tables, {SOAK_WATCHERS} watchers, churn about "
                f"every {SOAK_CHURN:g} s, think {args.think:g} s, {args.soak:g} s; {where}; "
                f"load average {load[0]:.1f} {load[1]:.1f} before, {os.getloadavg()[0]:.1f} after"
            )
            print()
            print_soak(kind, samples, tally, args.soak)
            print()
        return
    results: list[Result] = []
    found: list[str] = []
    profile: Path | None = args.profile
    if args.goal:  # the floor first, under the same plans: the room's CPU an action × it
        kinds = (FLOOR, *kinds)
    for kind in kinds:
        if args.goal:
            paced = args.think if args.think > 0 else GOAL_THINK
            for pace in (Pace(), Pace(think=paced)):
                plan = Plan(GOAL_TABLES, GOAL_WATCHERS, pace, goal=True)
                results.append(run(kind, plan, args, profile))
                profile = None
        elif args.sweep:
            runs, finding = sweep(kind, args, profile)
            results += sorted(runs, key=lambda r: r.tables)
            found.append(finding)
        else:
            plan = Plan(
                args.tables, args.watchers, Pace(think=args.think, think_most=args.think_most)
            )
            results.append(run(kind, plan, args, profile))
        profile = None
    print(
        f"{', '.join(kinds)}; six bot clients a table, {args.seconds:g} s a run after "
        f"{args.warmup:g} s; {where}; load average {load[0]:.1f} {load[1]:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after"
    )
    print()
    print_results(results)
    if found:
        print()
        print("\n".join(found))
    if args.profile:
        print()
        summarise_profile(args.profile)


if __name__ == "__main__":
    main()
