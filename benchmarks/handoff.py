"""What a store call costs on a thread of its own while another thread runs Python (the
room's event loop), against the same call with that thread quiet: the paced room's
excess (docs/load.md, fourteenth round). A worker thread logs one action at a time,
a pause between actions as at a bot's pace; beside it, a thread that is idle, busy a
share of the time, or always busy. Each statement lets go of the GIL and takes it back,
and taking it back from a running thread is what costs.

Run: ``.venv/bin/python benchmarks/handoff.py [--actions N] [--pause MS]``. Prints, for
each neighbour, the worker's CPU a call (the store's ``append_actions`` on SQLite, and
the driver's own transaction of the same statements) and the neighbour's.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from store import ACTIONS, SEATS, SETUP, seated_tables

from splitpot.store import Store, open_store

BUSY = (0.0, 0.15, 1.0)  # the neighbour's share of the time running Python


def by_store(store: Store, table: str) -> Callable[[int], Callable[[], None]]:
    """The store's call, as the room's logger makes it."""
    hand = [store.start_hand(table, SETUP).id]

    def each(number: int) -> Callable[[], None]:
        seq = number % ACTIONS + 1
        if seq == 1 and number:
            store.cancel_hand(hand[0])
            hand[0] = store.start_hand(table, SETUP).id
        return lambda: store.append_actions([(hand[0], seq % SEATS + 1, "call", 10, seq)])

    return each


def by_driver(path: Path) -> Callable[[int], Callable[[], None]]:
    """The same statements in the driver's own transaction: the floor under the call."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    def each(number: int) -> Callable[[], None]:
        hand = f"h{number // ACTIONS}"

        def call() -> None:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("SELECT fence FROM leases LIMIT 1").fetchall()
            connection.execute("SELECT status FROM hands WHERE id = ?", (hand,)).fetchall()
            connection.execute("SELECT max(seq) FROM actions WHERE hand_id = ?", (hand,)).fetchall()
            connection.execute("INSERT INTO bench_log VALUES (?, ?)", (hand, number))
            connection.execute("COMMIT")

        return call

    connection.execute("CREATE TABLE IF NOT EXISTS bench_log (hand TEXT, n INTEGER)")
    return each


def measured(
    calls: Callable[[int], Callable[[], None]], busy: float, actions: int, pause: float
) -> tuple[float, float]:
    """The worker's CPU a call and the neighbour's share of a core, ``busy`` of the
    time running Python (in slices of a millisecond)."""
    stop = threading.Event()
    spent = {"worker": 0.0, "neighbour": 0.0}  # the worker's CPU a call, the neighbour's share

    def neighbour() -> None:
        start = time.thread_time()
        begun = time.perf_counter()
        while not stop.is_set():
            if busy:
                until = time.perf_counter() + 0.001 * busy
                while time.perf_counter() < until:
                    pass
            if busy < 1:
                time.sleep(0.001 * (1 - busy))
        spent["neighbour"] = (time.thread_time() - start) / (time.perf_counter() - begun)

    def worker() -> None:
        for number in range(actions):
            call = calls(number)
            before = time.thread_time()
            call()
            spent["worker"] += time.thread_time() - before
            time.sleep(pause)
        spent["worker"] /= actions

    beside = threading.Thread(target=neighbour)
    beside.start()
    working = threading.Thread(target=worker)
    working.start()
    working.join()
    stop.set()
    beside.join()
    return spent["worker"], spent["neighbour"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=1500, help="calls a row (default 1500)")
    parser.add_argument(
        "--pause", type=float, default=2.0, help="milliseconds between calls (default 2)"
    )
    args = parser.parse_args()
    if args.actions < 1 or args.pause < 0:
        parser.error("--actions must be 1 or more and --pause 0 or more")
    folder = Path(tempfile.mkdtemp(prefix="splitpot-handoff-"))
    store = open_store(f"sqlite:///{folder / 'room.sqlite3'}")
    [table] = seated_tables(store, 1)
    print("| call | the neighbour runs Python | worker's CPU a call, ms | neighbour's CPU |")
    print("|---|---:|---:|---:|")
    for name, calls in (
        ("store.append_actions", by_store(store, table)),
        ("the driver alone", by_driver(folder / "room.sqlite3")),
    ):
        for busy in BUSY:
            worker, neighbour = measured(calls, busy, args.actions, args.pause / 1000)
            print(f"| {name} | {busy:.0%} of the time | {1000 * worker:.3f} | {neighbour:.0%} |")
    store.close()
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
