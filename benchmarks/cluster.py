"""The room on several processes (docs/deploy.md), measured on this machine: what a
command routed to its table's process (over the direct link between the processes, or
through Redis alone with ``--link off``) costs over one its process serves itself, how
long a dead process's tables take to move, and how the room's capacity grows with
processes.

Run: ``.venv/bin/python benchmarks/cluster.py [--routed] [--failover] [--capacity]
[--processes 1,2,3] [--tables N] [--watchers W] [--think S] [--seconds S] [--lease S]
[--link on|off]``
(no mode: all three). Each mode starts its own ``splitpot serve --redis`` processes
(hands dealt back to back, no bot delay) on a fresh PostgreSQL database made on
--postgres and dropped after, with Redis at --redis (default the machine's; the room's
keys carry the database's room id, so nothing else there is touched). Every client runs
in this process, on the same cores, as in benchmarks/room.py, whose clients it uses.

- ``--routed``: two processes; half of each table's players talk to the process that
  runs the table, half to the other; the time from an ``act`` to its event, both ways.
  The peer, in the same window: a message through Redis to another process and back, two
  bare hops (a publish and a subscriber's read each, redis-py on uvloop as the room), the
  least a routed command's two hops (the command in, its frames out) can cost here.
- ``--failover``: three processes, busy tables of bots; the process running the most is
  killed (SIGKILL), three times; for each of its tables, the time until another process
  holds its lease, until a watcher connected elsewhere has the whole table again, and
  until play goes on.
- ``--capacity``: 1, 2 and 3 processes (--processes); the players of each table and the
  watchers spread over them as a load balancer would; at full speed and paced (--think).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import multiprocessing.synchronize
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import redis
import uvloop
from redis import asyncio as aioredis
from room import (
    LINK_VARIABLE,
    POSTGRES,
    Room,
    bounded,
    client_cpu,
    database,
    gather,
    percentile,
    ready_for_many_clients,
    sleep_until,
    until,
)
from room_clients import SEATS, Pace, Seat, Tally, Window, open_tables, play, watch
from sqlalchemy import Engine, create_engine, text
from websockets.asyncio.client import connect
from websockets.sync.client import connect as connect_now

from splitpot.store import normalise_url

REDIS = "redis://127.0.0.1:6379/0"
ROUTED_TABLES = 10
ROUTED_THINK = 0.2  # seconds: the routed comparison runs well below capacity
BARE_GAP = 0.01  # seconds between the peer's round trips
FAILOVER_TABLES = 9
FAILOVER_KILLS = 3
CAPACITY_TABLES = 60
CAPACITY_WATCHERS = 240
CAPACITY_THINK = 0.5
WAIT = 60.0  # seconds any one step may take


# ------------------------------------------------------------------ the processes


@contextmanager
def cluster(count: int, args: argparse.Namespace) -> Iterator[tuple[Engine, list[Room]]]:
    """``count`` processes of one room on a fresh database: an engine on it (to read the
    leases) and the processes, each knowing all the others; stopped (SIGTERM) afterwards."""
    os.environ["SPLITPOT_LEASE_SECONDS"] = str(args.lease)
    with database("postgresql", args.postgres) as url, ExitStack() as stack:
        engine = create_engine(normalise_url(url))
        stack.callback(engine.dispose)
        rooms: list[Room] = []
        for number in range(count):
            log = stack.enter_context(
                tempfile.NamedTemporaryFile(prefix=f"splitpot-node{number}-", suffix=".log")
            )
            rooms.append(Room(url, Path(log.name), args.redis))
            rooms[-1].wait_ready()
        try:
            for room in rooms:
                known(room, count)
            yield engine, rooms
        finally:
            for room in rooms:
                room.stop()


def known(room: Room, count: int) -> None:
    """Wait until the process names ``count`` processes in its welcome."""
    deadline = time.monotonic() + WAIT
    while len(servers(room.ws_url)) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{room.url} does not see {count} processes")
        time.sleep(0.2)


def servers(ws_url: str) -> list[str]:
    """The addresses a process gives its clients."""
    with connect_now(ws_url) as socket:
        socket.send(json.dumps({"type": "hello"}))
        found: list[str] = json.loads(socket.recv()).get("servers", [])
        return found


def owners(engine: Engine, rooms: list[Room]) -> dict[str, Room]:
    """Each table's process, from its lease (the owner is ``host:port``)."""
    with engine.connect() as db:
        leases = db.execute(text("SELECT table_id, owner FROM leases")).all()
    by_port = {room.port: room for room in rooms}
    found = {}
    for table, owner in leases:
        port = int(str(owner).rsplit(":", 1)[1]) if owner else None
        if port in by_port:
            found[str(table)] = by_port[port]
    return found


def redis_cpu(url: str) -> float:
    """CPU seconds the Redis server has used (from its INFO, where it runs here)."""
    info = redis.Redis.from_url(url).info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


def ms(seconds: float) -> str:
    return f"{1000 * seconds:,.1f}"


async def seat_everyone(
    places: list[tuple[str, Seat, Tally]], window: Window, pace: Pace
) -> asyncio.Task[None]:
    """Every player at its table through its process; returns once all are seated."""
    tallies = {id(tally): tally for _, _, tally in places}

    async def everyone() -> None:
        await asyncio.gather(*(play(url, seat, window, tally, pace) for url, seat, tally in places))

    task = asyncio.create_task(everyone())
    await until(lambda: sum(t.seated for t in tallies.values()) >= len(places), task, "sitting")
    return task


# ------------------------------------------------------------------ routed commands


async def routed(args: argparse.Namespace) -> None:
    links = "direct links" if args.link == "on" else "Redis alone (--link off)"
    print(
        f"Routed commands: 2 processes, {links}, {args.tables} tables, "
        f"players think {args.think:g} s"
    )
    with cluster(2, args) as (engine, rooms):
        tables = await open_tables(rooms[0].url, args.tables)
        owner = owners(engine, rooms)
        local, through = Tally(), Tally()
        places = []
        for table in tables:
            home = owner[table[0].table]
            other = next(room for room in rooms if room is not home)
            for place in table:
                if place.seat <= SEATS // 2:
                    places.append((home.ws_url, place, local))
                else:
                    places.append((other.ws_url, place, through))
        window = Window()
        players = await seat_everyone(places, window, Pace(think=args.think))
        window.start = time.perf_counter() + args.warmup
        window.end = window.start + args.seconds
        await sleep_until(window.start)
        hops = await asyncio.to_thread(bare_hops, args.redis, args.seconds)
        await sleep_until(window.end)
        window.stop.set()
        await bounded(players, WAIT, "leaving")
    print(f"{'players talk to':<34} {'acts':>7} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}")
    rows = [
        ("the table's own process", local.latencies),
        ("another process (routed)", through.latencies),
        ("peer: two bare hops through Redis", hops),
    ]
    medians = []
    for label, latencies in rows:
        times = sorted(latencies)
        medians.append(percentile(times, 0.5))
        print(
            f"{label:<34} {len(times):>7,} {ms(medians[-1]):>8} "
            f"{ms(percentile(times, 0.9)):>8} {ms(percentile(times, 0.99)):>8}"
        )
    extra = medians[1] - medians[0]
    if args.link == "on":
        print(
            f"a routed command costs {ms(extra)} ms more at the median over the direct link "
            f"(target: 1 ms at most); two bare hops through Redis alone take {ms(medians[2])}"
        )
    else:
        print(
            f"a routed command costs {ms(extra)} ms more at the median: the two bare hops "
            f"{ms(medians[2])}, the room's own work on the way {ms(extra - medians[2])}"
        )
    print()


def bare_hops(url: str, seconds: float) -> list[float]:
    """The peer: round trips through Redis between two fresh processes on uvloop for
    ``seconds`` (one a BARE_GAP), each a publish heard by the other process, which
    publishes it back. Their times, in seconds."""
    spawn = multiprocessing.get_context("spawn")
    channel = f"splitpot-bench:{os.getpid()}:"
    ready, results = spawn.Event(), spawn.Queue()
    echo = spawn.Process(target=_run_echo, args=(url, channel, ready), daemon=True)
    echo.start()
    try:
        if not ready.wait(WAIT):
            raise RuntimeError("the peer's echo process did not start")
        pinger = spawn.Process(target=_run_pings, args=(url, channel, seconds, results))
        pinger.start()
        times: list[float] = results.get(timeout=seconds + WAIT)
        pinger.join(WAIT)
        return times
    finally:
        echo.terminate()
        echo.join(WAIT)


async def _listening(url: str, channel: str) -> tuple[aioredis.Redis, Any]:
    """A client of Redis, and its subscription to ``channel``, confirmed."""
    client = aioredis.from_url(url)
    pubsub = client.pubsub()
    await pubsub.subscribe(channel)
    await pubsub.get_message(timeout=WAIT)  # the subscription's confirmation
    return client, pubsub


def _run_echo(url: str, channel: str, ready: multiprocessing.synchronize.Event) -> None:
    uvloop.run(_echo(url, channel, ready))


async def _echo(url: str, channel: str, ready: multiprocessing.synchronize.Event) -> None:
    """Publish back on ``<channel>out`` whatever is heard on ``<channel>in``."""
    client, pubsub = await _listening(url, channel + "in")
    ready.set()
    while True:
        message = await pubsub.get_message(timeout=WAIT)
        if message is not None and message["type"] == "message":
            await client.publish(channel + "out", message["data"])


def _run_pings(url: str, channel: str, seconds: float, results: Any) -> None:
    """``results``: the queue the times go back in."""
    results.put(uvloop.run(_pings(url, channel, seconds)))


async def _pings(url: str, channel: str, seconds: float) -> list[float]:
    client, pubsub = await _listening(url, channel + "out")
    times = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        sent = time.perf_counter()
        await client.publish(channel + "in", b"ping")
        while (message := await pubsub.get_message(timeout=WAIT)) is not None:
            if message["type"] == "message":
                break
        times.append(time.perf_counter() - sent)
        await asyncio.sleep(BARE_GAP)
    await client.aclose()
    return times


# ------------------------------------------------------------------ failover


@dataclass
class Watched:
    """What a watcher connected to a surviving process saw of one table."""

    table: str
    whole_again: float | None = None  # seconds after the kill: the table message
    plays_on: float | None = None  # seconds after the kill: the next event after it


async def watch_through(
    ws_url: str, watched: Watched, killed: asyncio.Event, at: list[float]
) -> None:
    """Watch the table; after the kill, note when its table comes whole and play goes on."""
    async with connect(ws_url, max_size=2**22) as socket:
        await socket.send(json.dumps({"type": "hello"}))
        await socket.recv()
        await socket.send(json.dumps({"type": "watch", "table": watched.table}))
        async for text_frame in socket:
            frame = json.loads(text_frame)
            if not killed.is_set():
                continue
            now = time.perf_counter() - at[0]
            if frame["type"] == "table" and watched.whole_again is None:
                watched.whole_again = now
            elif frame["type"] == "event" and watched.whole_again is not None:
                watched.plays_on = now
                return


async def failover(args: argparse.Namespace) -> None:
    print(f"Failover: 3 processes, {FAILOVER_TABLES} tables of bots, leases of {args.lease:g} s")
    leases, wholes, plays = [], [], []
    with cluster(3, args) as (engine, rooms):
        async with httpx.AsyncClient(base_url=rooms[0].url, timeout=30) as http:
            token = (await http.post("/api/guests", json={"name": "Holly"})).json()["token"]
            for number in range(FAILOVER_TABLES):
                answer = await http.post(
                    "/api/tables",
                    json={"name": f"busy {number}", "seats": 6, "bots": 5},
                    headers={"Authorization": f"Bearer {token}"},
                )
                answer.raise_for_status()
        for kill in range(FAILOVER_KILLS):
            owner = owners(engine, rooms)
            victim = max(rooms, key=lambda room: sum(o is room for o in owner.values()))
            survivors = [room for room in rooms if room is not victim]
            moving = [table for table, room in owner.items() if room is victim]
            killed, at = asyncio.Event(), [0.0]
            seen = [Watched(table) for table in moving]
            watchers = [
                asyncio.create_task(
                    watch_through(survivors[n % len(survivors)].ws_url, watched, killed, at)
                )
                for n, watched in enumerate(seen)
            ]
            await asyncio.sleep(2.0)  # every watcher has its table, and the tables play
            victim.process.kill()
            at[0] = time.perf_counter()
            killed.set()
            moved = await leases_moved(engine, rooms, victim, moving, at[0])
            await bounded(asyncio.create_task(gather(watchers)), WAIT, "the tables moving")
            victim.process.wait()
            leases += moved
            wholes += [w.whole_again for w in seen if w.whole_again is not None]
            plays += [w.plays_on for w in seen if w.plays_on is not None]
            print(f"kill {kill + 1}: {len(moving)} tables moved, the last in {max(moved):.2f} s")
            rooms[rooms.index(victim)] = again = Room(victim.database, victim.log, args.redis)
            again.wait_ready()
    print(f"{'after the kill (seconds)':<40} {'median':>7} {'max':>7}")
    for label, values in (
        ("another process holds the lease", leases),
        ("a watcher elsewhere has the table whole", wholes),
        ("play goes on", plays),
    ):
        print(f"{label:<40} {statistics.median(values):>7.2f} {max(values):>7.2f}")
    print()


async def leases_moved(
    engine: Engine, rooms: list[Room], victim: Room, tables: list[str], killed: float
) -> list[float]:
    """Seconds from the kill until each table's lease is another process's (read on a
    thread: the watchers' clocks run on this loop)."""
    moved: dict[str, float] = {}
    deadline = time.perf_counter() + WAIT
    while len(moved) < len(tables):
        if time.perf_counter() > deadline:
            raise RuntimeError("the tables never moved")
        now = await asyncio.to_thread(owners, engine, rooms)
        for table in tables:
            if table not in moved and now.get(table) not in (None, victim):
                moved[table] = time.perf_counter() - killed
        await asyncio.sleep(0.05)
    return list(moved.values())


# ------------------------------------------------------------------ capacity


async def capacity_run(
    rooms: list[Room], tables: int, watchers: int, pace: Pace, args: argparse.Namespace
) -> list[str]:
    """One run: players and watchers spread round the processes; a printed row."""
    opened = await open_tables(rooms[0].url, tables)
    tally, window = Tally(), Window()
    places = [
        (rooms[(number * SEATS + place.seat) % len(rooms)].ws_url, place, tally)
        for number, table in enumerate(opened)
        for place in table
    ]
    watching = asyncio.create_task(
        gather(
            watch(rooms[n % len(rooms)].ws_url, opened[n % tables][0].table, window, tally, pace)
            for n in range(watchers)
        )
    )
    await until(lambda: tally.watching >= watchers, watching, "connecting the watchers")
    players = await seat_everyone(places, window, pace)
    window.start = time.perf_counter() + args.warmup
    window.end = window.start + args.seconds
    await sleep_until(window.start)
    before = sum(room.cpu() for room in rooms), redis_cpu(args.redis), client_cpu()
    await sleep_until(window.end)
    after = sum(room.cpu() for room in rooms), redis_cpu(args.redis), client_cpu()
    connected = tally.connected
    window.stop.set()
    await bounded(players, WAIT + 2 * pace.think, "leaving")
    await bounded(watching, WAIT, "hanging up")
    acts = sorted(tally.latencies)
    rate = len(acts) / args.seconds
    rooms_cpu, redis_used, clients = (after[i] - before[i] for i in range(3))
    return [
        str(len(rooms)),
        "full speed" if pace.think == 0 else f"think {pace.think:g} s",
        f"{connected:,}",
        f"{rate:,.0f}",
        ms(percentile(acts, 0.5)),
        ms(percentile(acts, 0.99)),
        f"{100 * rooms_cpu / args.seconds:.0f}%",
        f"{100 * redis_used / args.seconds:.0f}%",
        f"{1000 * (rooms_cpu + redis_used) / max(1, len(acts)):.2f}",
        f"{100 * clients / args.seconds:.0f}%",
    ]


def capacity(args: argparse.Namespace) -> None:
    print(
        f"Capacity: {args.tables} tables of six and {args.watchers} watchers spread over the "
        f"processes, {args.seconds:g} s measured"
    )
    rows = []
    for count in args.processes:
        for pace in (Pace(), Pace(think=args.think)):
            with cluster(count, args) as (_, rooms):
                run = capacity_run(rooms, args.tables, args.watchers, pace, args)
                rows.append(asyncio.run(run))
            print("  " + " | ".join(rows[-1]), flush=True)
    header = [
        "processes", "pace", "clients", "actions/s", "p50 ms", "p99 ms", "rooms' CPU",
        "Redis CPU", "CPU ms/action", "clients' CPU",
    ]  # fmt: skip
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--routed", action="store_true", help="the cost of a routed command")
    parser.add_argument("--failover", action="store_true", help="how fast tables move")
    parser.add_argument("--capacity", action="store_true", help="capacity by processes")
    parser.add_argument(
        "--processes",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[1, 2, 3],
        help="--capacity's process counts (default 1,2,3)",
    )
    parser.add_argument("--tables", type=int, help="tables (routed 10, capacity 60)")
    parser.add_argument("--watchers", type=int, default=CAPACITY_WATCHERS, help="capacity's")
    parser.add_argument("--think", type=float, help="seconds a player waits (routed 0.2, 0.5)")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured (default 15)")
    parser.add_argument("--warmup", type=float, default=3.0, help="played first (default 3)")
    parser.add_argument("--lease", type=float, default=5.0, help="leases in seconds (5)")
    parser.add_argument("--postgres", default=POSTGRES, help=f"(default {POSTGRES})")
    parser.add_argument("--redis", default=REDIS, help=f"(default {REDIS})")
    parser.add_argument(
        "--link",
        choices=("on", "off"),
        default="on",
        help="the direct links between the processes (serve --link), or Redis alone (off)",
    )
    args = parser.parse_args()
    os.environ[LINK_VARIABLE] = args.link
    ready_for_many_clients()
    try:
        redis.Redis.from_url(args.redis, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        sys.exit(f"benchmarks/cluster.py: no Redis at {args.redis}: {error}")
    everything = not (args.routed or args.failover or args.capacity)
    if args.routed or everything:
        asyncio.run(routed(defaults(args, tables=ROUTED_TABLES, think=ROUTED_THINK)))
    if args.failover or everything:
        asyncio.run(failover(args))
    if args.capacity or everything:
        capacity(defaults(args, tables=CAPACITY_TABLES, think=CAPACITY_THINK))


def defaults(args: argparse.Namespace, **values: object) -> argparse.Namespace:
    """``args``, with ``values`` where the command line left them out."""
    given = {name: value for name, value in vars(args).items() if value is not None}
    return argparse.Namespace(**(values | given))


if __name__ == "__main__":
    main()
