"""What asking for hand histories costs everyone else: one room process on SQLite, a table
of bots that has played its last 50 hands (then paused), and a watcher's WebSocket round
trip (a ``watch`` of a table that does not exist, answered by the event loop at once)
timed while C anonymous clients ask for ``GET /api/tables/{id}/hands?limit=50`` as fast
as they are answered, against the same round trip with no one asking.

Run: ``.venv/bin/python benchmarks/hands.py [--clients C] [--seconds S]``. The room is
benchmarks/room.py's (``splitpot serve``'s code, hands back to back, no bot delay), with
the per-address limits raised: every client here comes from 127.0.0.1, and what is
measured is what the limits cannot stop (clients from many addresses). It prints the
round trip's p50, p99 and worst, and the lists of hands answered a second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
from room import Room, database, percentile, ready_for_many_clients
from websockets.asyncio.client import connect

HANDS = 50  # the table's finished hands when the measuring starts
PROBE_EVERY = 0.05  # seconds between round trips
NO_TABLE = "qqqqqqqq"  # a table id of the store's form that no table has


async def bots_table(url: str) -> str:
    """A table of five bots whose host (a guest here) pauses it once it has played HANDS
    hands: its id."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        answer = await http.post("/api/guests", json={"name": "Bench"})
        token = answer.json()["token"]
        settings = {"name": "Histories", "seats": 6, "bots": 5}
        headers = {"Authorization": f"Bearer {token}"}
        table = (await http.post("/api/tables", json=settings, headers=headers)).json()
        table_id = str(table["table"]["id"])
        deadline = time.monotonic() + 300
        while len((await http.get(f"/api/tables/{table_id}/hands")).json()["hands"]) < HANDS:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the bots did not play {HANDS} hands in 300 s")
            await asyncio.sleep(0.5)
    async with connect(url.replace("http", "ws", 1) + "/ws") as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        await socket.send(json.dumps({"type": "watch", "table": table_id}))  # to hear it
        await socket.send(json.dumps({"type": "host", "table": table_id, "action": "pause"}))
        async for text in socket:
            frame = json.loads(text)
            if frame["type"] == "event" and frame["event"]["kind"] == "host":
                break
    return table_id


async def round_trips(ws_url: str, seconds: float) -> list[float]:
    """A watcher's round trips for ``seconds``, one every PROBE_EVERY: sorted seconds."""
    times: list[float] = []
    async with connect(ws_url) as socket:
        await socket.send(json.dumps({"type": "hello"}))
        await socket.recv()
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            sent = time.perf_counter()
            await socket.send(json.dumps({"type": "watch", "table": NO_TABLE}))
            while json.loads(await socket.recv())["type"] != "error":
                pass
            times.append(time.perf_counter() - sent)
            await asyncio.sleep(PROBE_EVERY)
    return sorted(times)


async def ask(url: str, table: str, stop: asyncio.Event, answers: Counter[int]) -> None:
    """One anonymous client asking for the table's last hands until ``stop``."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        while not stop.is_set():
            answer = await http.get(f"/api/tables/{table}/hands", params={"limit": HANDS})
            answers[answer.status_code] += 1


async def measure(room: Room, clients: int, seconds: float) -> None:
    table = await bots_table(room.url)
    quiet = await round_trips(room.ws_url, seconds)
    stop, answers = asyncio.Event(), Counter[int]()
    askers = [asyncio.create_task(ask(room.url, table, stop, answers)) for _ in range(clients)]
    await asyncio.sleep(1.0)  # every client is asking
    answers.clear()
    loaded = await round_trips(room.ws_url, seconds)
    stop.set()
    await asyncio.gather(*askers)
    rate = sum(answers.values()) / seconds
    print(f"a watcher's WebSocket round trip, {HANDS} finished hands at the table:")
    for label, times in (("no one asking", quiet), (f"{clients} clients asking", loaded)):
        p50, p99 = (1000 * percentile(times, share) for share in (0.5, 0.99))
        print(
            f"  {label:<20} p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  worst "
            f"{1000 * times[-1]:7.1f} ms  ({len(times)} round trips)"
        )
    statuses = ", ".join(f"{count} x {status}" for status, count in sorted(answers.items()))
    print(f"  lists of hands answered: {rate:.1f} a second ({statuses})")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=16, help="clients asking (default 16)")
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="seconds of each measurement (default 10)"
    )
    args = parser.parse_args()
    if not 1 <= args.clients <= 500:
        parser.error(f"--clients must be from 1 to 500, not {args.clients}")
    if not 1 <= args.seconds <= 600:
        parser.error(f"--seconds must be from 1 to 600, not {args.seconds:g}")
    ready_for_many_clients()
    with (
        tempfile.TemporaryDirectory(prefix="splitpot-hands-") as folder,
        database("sqlite", "") as url,
    ):
        room = Room(url, Path(folder) / "room.log")
        try:
            room.wait_ready()
            asyncio.run(measure(room, args.clients, args.seconds))
        finally:
            room.stop()


if __name__ == "__main__":
    main()
