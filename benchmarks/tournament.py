"""The largest tournament one room process runs at a bot's pace: scheduled tournaments of
bots (RULES.md 8) at growing fields against a real ``splitpot serve``, each measured over
a window of play, until the room cannot keep the pace.

Run: ``.venv/bin/python benchmarks/tournament.py [--sizes 60,120,240,480] [--seconds S]
[--warmup S] [--db sqlite|URL] [--bot-delay S] [--hand-pause S]`` (docs/load.md
"Tournaments"). For each field size this starts its own room process (``splitpot serve``,
its pace from SPLITPOT_BOT_DELAY and SPLITPOT_HAND_PAUSE, by default the room's own: 0.8 s
a bot's decision, 3 s between hands) on a fresh database (a temporary SQLite file, or a
scratch PostgreSQL database made on the server of a postgresql:// URL and dropped after),
makes a scheduled tournament of that many bots at nine-seat tables (POST /api/tournaments
with ``bots``; the room plays a warm-up table meanwhile), waits for its start and every
table's first deal (how long that took is reported), plays --warmup seconds more and
measures the next --seconds: the tables dealing, hands a minute (in all, and a table),
a table's hands a minute as a share of the pace's ideal (the pause between hands and the
bots' delays alone, for as many actions as its hands had) and that share against the
smallest field's (the peer, in the same run), the time from a hand's end to the table's next
deal, how late each action came beyond the bot's delay, the room's CPU (of one core) and
RSS, what the machine's other processes took, and the hypervisor's steal. Hands and
actions are read from the room's database (their times are the store's, when it wrote
them). It stops at the first field that falls behind: its share of the ideal under 0.8
of the peer's (KEEP_PACE), or the room's CPU at 90% of a core (SATURATED).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
from room import HOST, client_cpu, database, machine_cpu, megabytes, percentile
from room import Room as RoomProcess
from room_clients import Tally, Window, open_tables
from room_clients import play as play_seat
from sqlalchemy import Engine, create_engine, select

from splitpot.server.options import RoomOptions
from splitpot.store.models import ActionRow, HandRow, TournamentTableRow

SIZES = (60, 120, 240, 480)  # players, in turn until the room falls behind
SEATS = 9
MOST_PLAYERS = 999  # a tournament takes at most 1,000 entrants; its host is not one here
SECONDS = 45.0  # measured a field
WARMUP = 5.0  # seconds of play after every table's first deal, before measuring
LEAD = 10.0  # seconds from making the tournament to its start (bots register, the room warms)
WARM_HANDS = 2  # hands the warm-up table plays
KEEP_PACE = 0.8  # a table's share of the pace's ideal, at least this much of the peer's
SATURATED = 0.9  # the room's CPU, of one core: at this it cannot keep up
PROGRESS = 5.0  # seconds between progress lines
WAIT = 180.0  # seconds a room may take to start, or a tournament to register and start
SCHEDULE = {  # levels by minutes, long enough that the field stays whole in a window
    "clock": "minutes",
    "levels": [
        {"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "ante": 0, "length": 10}
        for n in range(6)
    ],
}
STACK = 3000
PACE = RoomOptions()  # the room's own pace: a bot's delay, the pause between hands


class Room(RoomProcess):
    """``splitpot serve`` in a process of its own on a free loopback port, at a pace (its
    memory, CPU and readiness read as benchmarks/room.py's room's)."""

    def __init__(self, url: str, log: Path, bot_delay: float, hand_pause: float) -> None:
        with socket.socket() as probe:
            probe.bind((HOST, 0))
            self.port = int(probe.getsockname()[1])
        self.database = url
        self.url = f"http://{HOST}:{self.port}"
        self.ws_url = f"ws://{HOST}:{self.port}/ws"
        self.log = log
        pace = {"SPLITPOT_BOT_DELAY": f"{bot_delay:g}", "SPLITPOT_HAND_PAUSE": f"{hand_pause:g}"}
        serve = "import sys, splitpot.cli; sys.exit(splitpot.cli.main(sys.argv[1:]))"
        command = [sys.executable, "-c", serve, "serve", "--host", HOST]
        command += ["--port", str(self.port), "--db", url]
        with log.open("w") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=os.environ | pace
            )
        self.pid = self.process.pid

    def tail(self) -> str:
        """The end of the room's output (its log goes with the run)."""
        return f"the room's log ends:\n{self.log.read_text()[-3000:]}"

    def stop(self) -> None:
        """Killed (SIGKILL): its database is dropped after, so a graceful stop, which lets
        the hands in play finish, would only cost time."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@contextmanager
def room_on(db: str, args: argparse.Namespace) -> Iterator[tuple[Room, str]]:
    """A fresh room process on a fresh database (``db``: sqlite or a PostgreSQL server's
    URL), stopped and the database removed afterwards; the room and its database's URL."""
    kind = "sqlite" if db == "sqlite" else "postgresql"
    with (
        database(kind, db) as url,
        tempfile.NamedTemporaryFile(prefix="splitpot-tournament-", suffix=".log") as log,
    ):
        room = Room(url, Path(log.name), args.bot_delay, args.hand_pause)
        try:
            room.wait_ready(WAIT)
            yield room, url
        finally:
            room.stop()


@dataclass(frozen=True)
class Result:
    """One field measured."""

    players: int
    tables: int  # at the start
    dealing: int  # tables with a hand in play in the window
    seconds: float
    register: float  # seconds to make the tournament and register its bots
    seated: float  # seconds from the start until every table had dealt its first hand
    hands: int  # ended in the window
    per_table: float  # hands a minute a table: its deals less one over their time, summed
    actions: int  # taken in the window
    hand_length: float  # seconds from deal to end, median
    between: list[float]  # seconds from a hand's end to the table's next deal, sorted
    lags: list[float]  # seconds each action came after the one before, less the bot delay
    ideal: float  # hands a minute a table by the pace alone (the pause and the bots' delays)
    room_cpu: float  # CPU seconds in the window
    idle_rss: int  # bytes: the room started, no tournament yet
    rss: int  # bytes: the highest in the window
    others: float  # CPU seconds every other process on the machine took in the window
    steal: float  # CPU seconds the hypervisor took
    load: float  # the load average (1 minute) as the window began
    players_left: int  # at the end of the window

    @property
    def per_minute(self) -> float:
        return 60 * self.hands / self.seconds

    @property
    def cpu_share(self) -> float:
        return self.room_cpu / self.seconds


def post(http: httpx.Client, path: str, body: Any = None) -> Any:
    answer = http.post(path, json=body)
    if answer.status_code >= 300:
        raise RuntimeError(f"POST {path}: {answer.status_code} {answer.text[:500]}")
    return answer.json()


def make_tournament(http: httpx.Client, players: int) -> tuple[int, float]:
    """A scheduled tournament of ``players`` bots at nine-seat tables, starting LEAD s from
    now: its id, and the seconds its making took (the bots register in the request,
    docs/protocol.md "Tournaments")."""
    token = post(http, "/api/guests", {"name": "Director"})["token"]
    http.headers["Authorization"] = f"Bearer {token}"
    start = datetime.now(UTC) + timedelta(seconds=LEAD)
    settings = {
        "name": f"Bench {players}",
        "kind": "scheduled",
        "start_at": start.isoformat(),
        "seats": SEATS,
        "bots": players,
        "starting_stack": STACK,
        "schedule": SCHEDULE,
    }
    asked = time.monotonic()
    made = post(http, "/api/tournaments", settings)["tournament"]["id"]
    return int(made), time.monotonic() - asked


def lobby(http: httpx.Client, tournament: int) -> dict[str, Any]:
    answer = http.get(f"/api/tournaments/{tournament}")
    answer.raise_for_status()
    found: dict[str, Any] = answer.json()
    return found


def wait_running(http: httpx.Client, tournament: int, room: Room) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline and room.process.poll() is None:
        found = lobby(http, tournament)
        if found["status"] == "running":
            return found
        if found["status"] != "registering":
            raise RuntimeError(f"tournament {tournament} is {found['status']}, not running")
        time.sleep(0.2)
    raise RuntimeError(f"tournament {tournament} did not start; {room.tail()}")


def wait_seated(engine: Engine, tournament: int, tables: set[str], room: Room) -> None:
    """Until every table of the start has dealt its first hand."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline and room.process.poll() is None:
        if tables <= {hand.table for hand in hands_of(engine, tournament)}:
            return
        time.sleep(0.5)
    raise RuntimeError(f"tournament {tournament}: not every table dealt; {room.tail()}")


@dataclass(frozen=True)
class Hand:
    table: str
    number: int
    started: datetime
    ended: datetime | None


def hands_of(engine: Engine, tournament: int) -> list[Hand]:
    """Every hand at the tournament's tables so far, from the room's database."""
    query = (
        select(HandRow.table_id, HandRow.number, HandRow.started_at, HandRow.ended_at)
        .join(TournamentTableRow, TournamentTableRow.table_id == HandRow.table_id)
        .where(TournamentTableRow.tournament_id == tournament)
    )
    with engine.connect() as db:
        return [Hand(*row) for row in db.execute(query)]


def actions_of(engine: Engine, tournament: int) -> dict[str, list[datetime]]:
    """The times of every action at the tournament's tables (in order), by hand."""
    query = (
        select(ActionRow.hand_id, ActionRow.at)
        .join(HandRow, HandRow.id == ActionRow.hand_id)
        .join(TournamentTableRow, TournamentTableRow.table_id == HandRow.table_id)
        .where(TournamentTableRow.tournament_id == tournament)
        .order_by(ActionRow.hand_id, ActionRow.seq)
    )
    times: dict[str, list[datetime]] = defaultdict(list)
    with engine.connect() as db:
        for hand_id, at in db.execute(query):
            times[hand_id].append(at)
    return times


def within(moment: datetime | None, start: datetime, end: datetime) -> bool:
    return moment is not None and start <= moment < end


def measure(players: int, db: str, args: argparse.Namespace) -> Result:
    """One field on a fresh room: make its tournament (its bots register while a warm-up
    table plays), wait for the start and the warm-up, measure the window."""
    with room_on(db, args) as (room, url), httpx.Client(base_url=room.url, timeout=WAIT) as http:
        engine = create_engine(url)
        try:
            idle_rss = room.rss()
            with ThreadPoolExecutor(1) as pool:
                making = pool.submit(make_tournament, http, players)
                asyncio.run(warm_up(room))
                tournament, register = making.result()
            return play(players, room, http, engine, tournament, register, idle_rss, args)
        finally:
            engine.dispose()


async def warm_up(room: Room) -> None:
    """Two players at a cash table for WARM_HANDS hands, acting at once: the room loads
    the evaluator and the hand histories (numba compiles it if its disk cache is stale)
    before the tournament starts, so the first showdowns do not stall the window."""
    window, tally = Window(start=0.0), Tally()
    (seats,) = await open_tables(room.url, 1, 2)
    players = (play_seat(room.ws_url, seat, window, tally) for seat in seats)
    warming = asyncio.create_task(gather(players))
    deadline = time.monotonic() + WAIT
    while tally.hands < WARM_HANDS and not warming.done() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    window.stop.set()
    await asyncio.wait_for(warming, WAIT)


async def gather(clients: Iterable[Awaitable[None]]) -> None:
    await asyncio.gather(*clients)


def play(
    players: int,
    room: Room,
    http: httpx.Client,
    engine: Engine,
    tournament: int,
    register: float,
    idle_rss: int,
    args: argparse.Namespace,
) -> Result:
    """Wait for the tournament's start and the warm-up; sample the room through the window;
    then read its hands and actions from the database."""
    running = wait_running(http, tournament, room)
    tables = {t["id"] for t in running["tables"]}
    progress(players, f"started on {len(tables)} tables; waiting for every table's first deal")
    wait_seated(engine, tournament, tables, room)
    progress(players, f"every table deals; {args.warmup:g} s of warm-up")
    time.sleep(args.warmup)
    load = os.getloadavg()[0]
    begin = datetime.now(UTC)
    cpu_before, mine_before, machine_before = room.cpu(), client_cpu(), machine_cpu()
    window_start = time.monotonic()
    rss = room.rss()
    while (elapsed := time.monotonic() - window_start) < args.seconds:
        if room.process.poll() is not None:
            raise RuntimeError(f"the room stopped; {room.tail()}")
        time.sleep(min(PROGRESS, args.seconds - elapsed))
        rss = max(rss, room.rss())
        now = datetime.now(UTC)
        done = sum(within(h.ended, begin, now) for h in hands_of(engine, tournament))
        share = (room.cpu() - cpu_before) / max(1e-9, time.monotonic() - window_start)
        progress(
            players,
            f"{time.monotonic() - window_start:.0f} of {args.seconds:g} s: {done:,} hands, "
            f"room CPU {share:.0%}",
        )
    cpu_after, mine_after, machine_after = room.cpu(), client_cpu(), machine_cpu()
    seconds = time.monotonic() - window_start
    end = datetime.now(UTC)
    room_used = cpu_after - cpu_before
    ending = lobby(http, tournament)
    hands = hands_of(engine, tournament)
    actions = actions_of(engine, tournament)
    by_table: dict[str, list[Hand]] = defaultdict(list)
    for hand in hands:
        by_table[hand.table].append(hand)
    firsts = [min(h.started for h in dealt) for table, dealt in by_table.items() if table in tables]
    began = ending["started_at"] or running["started_at"]  # the start, as the store has it
    opened = datetime.fromisoformat(began) if began else min(firsts, default=begin)
    seated = (max(firsts) - opened).total_seconds() if len(firsts) == len(tables) else math.nan
    between, cycles, spans = [], 0, 0.0
    for dealt in by_table.values():
        dealt.sort(key=lambda h: h.number)
        for hand, after in pairwise(dealt):
            if hand.ended is not None and within(after.started, begin, end):
                between.append((after.started - hand.ended).total_seconds())
        starts = [h.started for h in dealt if within(h.started, begin, end)]
        if len(starts) >= 2:
            cycles += len(starts) - 1
            spans += (starts[-1] - starts[0]).total_seconds()
    ended = [h for h in hands if within(h.ended, begin, end)]
    lengths = [(h.ended - h.started).total_seconds() for h in ended if h.ended is not None]
    lags, counted = [], 0
    for times in actions.values():
        inside = [t for t in times if within(t, begin, end)]
        counted += len(inside)
        lags += [(b - a).total_seconds() - args.bot_delay for a, b in pairwise(inside)]
    per_hand = sum(len(actions.get(f"{h.table}-{h.number}", ())) for h in ended)
    cycle = args.hand_pause + args.bot_delay * per_hand / max(1, len(ended))
    dealing = {h.table for h in hands if h.started < end and (h.ended is None or h.ended >= begin)}
    return Result(
        players=players,
        tables=len(tables),
        dealing=len(dealing),
        seconds=seconds,
        register=register,
        seated=seated,
        hands=len(ended),
        per_table=60 * cycles / spans if spans else math.nan,
        actions=counted,
        hand_length=statistics.median(lengths) if lengths else math.nan,
        between=sorted(between),
        lags=sorted(lags),
        ideal=60 / cycle,
        room_cpu=room_used,
        idle_rss=idle_rss,
        rss=rss,
        others=machine_after[0] - machine_before[0] - room_used - (mine_after - mine_before),
        steal=machine_after[1] - machine_before[1],
        load=load,
        players_left=int(ending["players_left"]),
    )


def progress(players: int, what: str) -> None:
    print(f"  {players} players: {what}", file=sys.stderr, flush=True)


def against(result: Result, peer: Result) -> float:
    """The field's share of the pace's ideal over the peer's: how much of the pace the
    room kept at this field, where the smallest kept it all."""
    return (result.per_table / result.ideal) / (peer.per_table / peer.ideal)


def verdict(result: Result, peer: Result) -> str:
    """Whether the field kept the bot's pace: its tables' share of the pace's ideal
    against the peer's (the smallest field, measured in the same run), and the room's
    CPU."""
    if math.isnan(result.per_table) or math.isnan(peer.per_table):
        return "unjudged: a table dealt fewer than two hands in the window (--seconds)"
    if result.cpu_share >= SATURATED:
        return f"behind: the room's CPU at {result.cpu_share:.0%} of a core"
    if against(result, peer) < KEEP_PACE:
        return f"behind: {against(result, peer):.2f}× the peer's share of the pace"
    return "kept the pace"


def kept(result: Result, peer: Result) -> bool:
    return verdict(result, peer) == "kept the pace"


def print_results(results: list[Result], args: argparse.Namespace) -> None:
    peer = results[0]
    print(
        "| players | tables | dealing | players left | bots registered s | tables seated s "
        "| hands/min | hands/min a table | pace's ideal | share | × peer | hand s p50 "
        "| end → next deal s p50 | p90 | action lag ms p50 | p99 | actions/s | room CPU "
        "| CPU ms/action | RSS idle MB | RSS MB | others' CPU | steal | load avg | verdict |"
    )
    print("|" + "---:|" * 24 + "---|")
    for r in results:
        print(
            f"| {r.players:,} | {r.tables} | {r.dealing} | {r.players_left:,} "
            f"| {r.register:.1f} | {r.seated:.1f} | {r.per_minute:,.1f} | {r.per_table:.2f} "
            f"| {r.ideal:.2f} | {r.per_table / r.ideal:.0%} | {against(r, peer):.2f} "
            f"| {r.hand_length:.1f} "
            f"| {percentile(r.between, 0.5):.2f} | {percentile(r.between, 0.9):.2f} "
            f"| {1000 * percentile(r.lags, 0.5):.0f} | {1000 * percentile(r.lags, 0.99):.0f} "
            f"| {r.actions / r.seconds:.1f} | {r.cpu_share:.0%} "
            f"| {1000 * r.room_cpu / max(1, r.actions):.2f} | {megabytes(r.idle_rss)} "
            f"| {megabytes(r.rss)} | {r.others / r.seconds:.0%} | {r.steal / r.seconds:.0%} "
            f"| {r.load:.1f} | {verdict(r, peer)} |"
        )
    held = [r for r in results if kept(r, peer)]
    print()
    if not held:
        print(f"one process kept the bot's pace at none of the fields tried ({peer.players} up)")
        return
    best = held[-1]
    if len(held) == len(results) and best.players == max(args.sizes):
        tail = f" (the largest field tried: it kept the pace, at {best.cpu_share:.0%} of a core)"
    else:
        tail = f" ({results[-1].players} players fell behind)"
    print(
        f"one process runs a tournament of {best.players:,} players on {best.tables} tables "
        f"at {best.per_minute:,.0f} hands a minute ({best.per_table:.2f} a table, bot delay "
        f"{args.bot_delay:g} s, {args.hand_pause:g} s between hands){tail}"
    )


def sizes(text: str) -> tuple[int, ...]:
    try:
        found = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are whole numbers, not {text!r}") from None
    if not found or any(not 2 <= n <= MOST_PLAYERS for n in found):
        raise argparse.ArgumentTypeError(f"each size from 2 to {MOST_PLAYERS} players: {text!r}")
    return tuple(sorted(set(found)))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes",
        type=sizes,
        default=SIZES,
        help=f"players a field, tried smallest first (default {','.join(map(str, SIZES))})",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=SECONDS,
        help=f"seconds measured a field (default {SECONDS:g})",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=WARMUP,
        help=f"seconds of play after every table's first deal, before measuring "
        f"(default {WARMUP:g})",
    )
    parser.add_argument(
        "--db",
        default="sqlite",
        help="sqlite (a temporary file, the default) or a PostgreSQL server's URL "
        "(postgresql://user@host:port/db: a scratch database is made there and dropped)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=PACE.bot_delay,
        help=f"seconds a bot thinks (default the room's {PACE.bot_delay:g})",
    )
    parser.add_argument(
        "--hand-pause",
        type=float,
        default=PACE.hand_pause,
        help=f"seconds between hands (default the room's {PACE.hand_pause:g})",
    )
    args = parser.parse_args()
    if not 30 <= args.seconds <= 600:
        parser.error(f"--seconds must be from 30 to 600, not {args.seconds:g}")
    if not 0 <= args.warmup <= 120:
        parser.error(f"--warmup must be from 0 to 120, not {args.warmup:g}")
    if not 0 <= args.bot_delay <= 10 or not 0 <= args.hand_pause <= 60:
        parser.error("--bot-delay must be from 0 to 10 seconds, --hand-pause from 0 to 60")
    if args.db != "sqlite" and not args.db.startswith("postgresql"):
        parser.error(f"--db is sqlite or a postgresql:// URL, not {args.db!r}")
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    load = os.getloadavg()
    results: list[Result] = []
    for players in args.sizes:
        progress(players, "a room and a tournament")
        results.append(measure(players, args.db, args))
        if not kept(results[-1], results[0]):
            break
    kind = "SQLite" if args.db == "sqlite" else "PostgreSQL"
    print(
        f"{kind}; scheduled tournaments of bots at {SEATS}-seat tables, bot delay "
        f"{args.bot_delay:g} s, {args.hand_pause:g} s between hands; {args.seconds:g} s "
        f"measured a field after {args.warmup:g} s; one room process on loopback, "
        f"{os.cpu_count()} cores; load average {load[0]:.1f} {load[1]:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after"
    )
    print()
    print_results(results, args)


if __name__ == "__main__":
    main()
