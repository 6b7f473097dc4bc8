"""A room of several ``splitpot serve`` processes for tests: one PostgreSQL database, one
Redis (the machine's, or one of the test's own that it may stop), each process on its own
loopback port; and where each table runs (its lease)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from room_helpers import Client, Frame, free_port, new_guest
from room_process import WAIT, Serve
from services import missing
from sqlalchemy import text

from splitpot.store import Store

REDIS = os.environ.get("SPLITPOT_TEST_REDIS", "redis://127.0.0.1:6379/0")
REQUIRED = "SPLITPOT_REQUIRE_REDIS"


def redis_or_skip(url: str = REDIS) -> str:
    """``url`` if a Redis answers there; else the test is skipped (failed when
    SPLITPOT_REQUIRE_REDIS=1, as CI sets it)."""
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        missing(f"no Redis at {url}: {error}", REQUIRED)
    return url


class OwnRedis:
    """A redis-server of the test's own on a free port, to stop and start again."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            missing("no redis-server to start", REQUIRED)
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + WAIT
        while True:
            try:
                redis.Redis.from_url(self.url, socket_connect_timeout=1).ping()
                return
            except redis.RedisError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None


@contextmanager
def processes(
    database_url: str,
    redis_url: str,
    logs: Path,
    count: int,
    after_first: Callable[[Serve], None] | None = None,
    flags: tuple[str, ...] = (),
) -> Iterator[list[Serve]]:
    """``count`` processes of one room, the first started first (it opens the bots'
    table; ``after_first`` is called then), each with ``flags`` to serve; each knows all
    the others before this yields. All killed at the end."""
    started: list[Serve] = []
    try:
        for number in range(count):  # each loads the room's code at once, then serves in turn
            folder = logs / f"process-{number + 1}"
            folder.mkdir()
            started.append(Serve(database_url, folder, "--redis", redis_url, *flags))
            started[-1].prepare()
        for number, room in enumerate(started):
            room.start()
            if number == 0 and after_first is not None:
                after_first(started[0])
        for room in started:
            wait_for_servers(room, len(started))
        yield started
    finally:
        for room in started:
            if room.process is not None and room.process.poll() is None:
                room.kill()
            room.close()  # a process launched but never started


def wait_for_servers(room: Serve, count: int) -> None:
    """Wait until the process names ``count`` processes to its clients, itself first."""
    deadline = time.monotonic() + WAIT
    while True:
        watcher = Client(room, None)  # type: ignore[arg-type]
        servers: list[str] = watcher.welcome.get("servers", [])
        watcher.close()
        if len(servers) == count:
            assert servers[0] == room.url, servers  # itself first
            return
        assert time.monotonic() < deadline, f"{room.url} knows {servers}"
        time.sleep(0.1)


def owner(store: Store, table: str) -> str:
    """The lease holder of a table: ``host:port`` of the process that runs it."""
    with store.engine.connect() as db:
        holder = db.scalar(text("SELECT owner FROM leases WHERE table_id = :t"), {"t": table})
    return str(holder)


def runs(room: Serve, store: Store, table: str) -> bool:
    return owner(store, table).endswith(f":{room.port}")


def guest(room: Serve, name: str) -> tuple[str, str]:
    """A new guest made at this process: (player id, token)."""
    return new_guest(room.url, name)


def lobby(room: Serve) -> dict[str, Frame]:
    return {table["id"]: table for table in room.tables()}
