"""The store's hot path as the room drives it, without the room: each of T tables starts a
hand, logs its actions in batches of one action from every table (as the room's logger
gathers them while a commit is under way), then finishes it with its record and result,
under leases (every write fenced). Beside it, in the same run, the driver alone writing
the same rows in the same transactions (no checks, no ORM): the store's floor.

Run: ``.venv/bin/python benchmarks/store.py [--db sqlite|postgresql|both] [--tables T]
[--hands H] [--history N] [--postgres URL]`` (docs/load.md); ``--history N``: every table
has played N hands before the run (a room that has run for days). Prints, for each call,
the statements it runs, its wall time and its thread's CPU, and what a hand costs an
action (a hand of ACTIONS actions), against the driver's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from room import POSTGRES, database
from sqlalchemy import Engine, event

from splitpot.bots import make_bot
from splitpot.history.splitpot_json import to_json
from splitpot.history.table_log import record_of
from splitpot.rules import PotLimit, Variant
from splitpot.simulation import simulate
from splitpot.store import Store, open_store
from splitpot.table import TableConfig

ACTIONS = 32  # actions a hand, as the room's bots play (docs/load.md, the floor)
SEATS = 6
BUY_IN = 1_000
SETUP = {"button": 1, "seats": list(range(1, SEATS + 1)), "deck": ["As", "Kd", "7c"] * 17}
T = TypeVar("T")


@dataclass
class Cost:
    """What one kind of call cost, summed over its calls."""

    calls: int = 0
    statements: int = 0
    wall: float = 0.0
    cpu: float = 0.0

    def row(self, name: str, per_hand: float) -> str:
        """The call's row: statements ("-": the driver's are not counted), its wall and CPU
        time, and the CPU it costs an action."""
        per_call = 1000 / self.calls
        per_action = per_hand * self.cpu / self.calls * 1000 / ACTIONS
        statements = f"{self.statements / self.calls:.1f}" if self.statements else "-"
        return (
            f"| {name} | {self.calls:,} | {statements} | "
            f"{self.wall * per_call:.2f} | {self.cpu * per_call:.2f} | {per_action:.3f} |"
        )


@dataclass
class Meter:
    """Counts the statements an engine runs, and times calls by name."""

    engine: Engine
    statements: int = 0
    costs: dict[str, Cost] = field(default_factory=lambda: defaultdict(Cost))

    def __post_init__(self) -> None:
        event.listen(self.engine, "before_cursor_execute", self._count)

    def _count(self, *_: Any) -> None:
        self.statements += 1

    def time(self, name: str, call: Callable[..., T], *args: Any) -> T:
        before, wall, cpu = self.statements, time.perf_counter(), time.thread_time()
        value = call(*args)
        cost = self.costs[name]
        cost.calls += 1
        cost.wall += time.perf_counter() - wall
        cost.cpu += time.thread_time() - cpu
        cost.statements += self.statements - before
        return value


def records(count: int) -> list[dict[str, Any]]:
    """Hand records of the room's shape (splitpot JSON of hands bots played)."""
    documents: list[dict[str, Any]] = []
    config = TableConfig(Variant.O8, PotLimit(1, 2), seats=SEATS)
    bots = [make_bot("sensible", f"Bot {seat}", seed=seat) for seat in range(SEATS)]
    simulate(
        config,
        bots,
        count,
        seed=1,
        played=lambda dealt: documents.append(to_json(record_of(dealt), dealt.hand)),
    )
    return documents


def seated_tables(store: Store, count: int) -> dict[str, list[int]]:
    """``count`` tables of SEATS guests each, held under this process's leases."""
    holder = store.hold_leases("bench")
    host = store.create_guest("Host").player.id
    tables: dict[str, list[int]] = {}
    for number in range(count):
        table, _ = store.create_table(f"Table {number}", {"seats": SEATS}, host)
        if not store.claim_table(table.id, 3600):
            raise SystemExit(f"{holder.owner} could not claim table {table.id}")
        players = []
        for seat in range(1, SEATS + 1):
            player = store.create_guest(f"P{number}-{seat}").player.id
            store.sit(table.id, seat, player, BUY_IN)
            players.append(player)
        tables[table.id] = players
    return tables


def play_store(store: Store, meter: Meter, tables: dict[str, list[int]], hands: int) -> None:
    """``hands`` hands at every table, every call as the room makes it."""
    documents = records(8)
    for number in range(hands):
        started = {
            table: meter.time("start_hand", store.start_hand, table, SETUP) for table in tables
        }
        for seq in range(1, ACTIONS + 1):
            batch = [(hand.id, seq % SEATS + 1, "call", 10, seq) for hand in started.values()]
            meter.time("append_actions", store.append_actions, batch)
        for table, hand in started.items():
            first, second = tables[table][:2]
            won = 10 if number % 2 else -10
            record = dict(documents[number % len(documents)])
            meter.time(
                "finish_hand", store.finish_hand, hand.id, record, {first: won, second: -won}
            )


START = (
    "INSERT INTO hands (id, table_id, number, status, started_at, setup) "
    "VALUES (?, ?, ?, 'playing', ?, ?)"
)
LOG = "INSERT INTO actions (hand_id, seq, seat, kind, amount, at) VALUES (?, ?, ?, ?, ?, ?)"


def play_driver(store: Store, meter: Meter, tables: dict[str, list[int]], hands: int) -> None:
    """The same rows in the same transactions, written by the driver alone: a hand row,
    the action rows of every table at once, a transfer, its entries and the accounts'
    totals, the hand marked finished. The floor under the store's calls."""
    documents = records(8)
    connection = store.engine.raw_connection()
    accounts = _accounts(connection, tables)
    mark = "%s" if store.engine.dialect.name == "postgresql" else "?"
    now = datetime.now(UTC).isoformat()

    def write(sql: str, rows: list[tuple[Any, ...]]) -> None:
        """Rows in a transaction of their own."""
        cursor = connection.cursor()
        cursor.executemany(sql.replace("?", mark), rows)
        cursor.close()
        connection.commit()

    try:
        for number in range(hands):
            hands_now = {table: f"{table}-drv{number}" for table in tables}
            for table, hand in hands_now.items():
                row = (hand, table, 10_000 + number, now, json.dumps(SETUP))
                meter.time("start_hand", write, START, [row])
            for seq in range(1, ACTIONS + 1):
                rows = [
                    (hand, seq, seq % SEATS + 1, "call", 10, now) for hand in hands_now.values()
                ]
                meter.time(
                    "append_actions",
                    lambda rows=rows: write(
                        "INSERT INTO actions (hand_id, seq, seat, kind, amount, at) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        rows,
                    ),
                )
            for table, hand in hands_now.items():
                record = json.dumps(documents[number % len(documents)])
                first, second = (accounts[table, player] for player in tables[table][:2])
                moves = ((first, 10), (second, -10))
                meter.time(
                    "finish_hand", _finish, connection, mark, (hand, table, now), record, moves
                )
    finally:
        connection.close()


def write_history(store: Store, tables: dict[str, list[int]], hands: int) -> None:
    """``hands`` earlier results at every table, written by the driver: each moves 10 chips
    between the table's first two players, the sign alternating, so that an even count
    leaves every account's total as it was (and the ledger whole)."""
    connection = store.engine.raw_connection()
    mark = "%s" if store.engine.dialect.name == "postgresql" else "?"
    accounts = _accounts(connection, tables)
    now = datetime.now(UTC).isoformat()
    cursor = connection.cursor()
    try:
        for table, players in tables.items():
            first, second = (accounts[table, player] for player in players[:2])
            sql = "INSERT INTO transfers (kind, at, table_id) VALUES ('hand_result', ?, ?)"
            cursor.executemany(sql.replace("?", mark), [(now, table)] * hands)
            sql = (
                "SELECT id FROM transfers WHERE table_id = ? AND hand_id IS NULL "
                "ORDER BY id DESC LIMIT ?"  # these, not the buy-ins before them
            )
            cursor.execute(sql.replace("?", mark), (table, hands))
            transfers = [transfer for (transfer,) in cursor.fetchall()]
            rows = []
            for number, transfer in enumerate(transfers):
                won = 10 if number % 2 else -10
                rows += [(transfer, first, won), (transfer, second, -won)]
            sql = "INSERT INTO entries (transfer_id, account_id, amount) VALUES (?, ?, ?)"
            cursor.executemany(sql.replace("?", mark), rows)
            connection.commit()
    finally:
        cursor.close()
        connection.close()


def _accounts(connection: Any, tables: dict[str, list[int]]) -> dict[tuple[str, int], int]:
    cursor = connection.cursor()
    cursor.execute("SELECT table_id, player_id, id FROM accounts WHERE kind = 'table'")
    found = {(table, player): account for table, player, account in cursor.fetchall()}
    cursor.close()
    return found


def _finish(
    connection: Any,
    mark: str,
    hand_at: tuple[str, str, str],
    record: str,
    moves: tuple[tuple[int, int], ...],
) -> None:
    """A hand's result and record: a transfer, its entries and the accounts' totals, the
    hand marked finished."""
    hand, table, now = hand_at
    cursor = connection.cursor()
    sql = "INSERT INTO transfers (kind, at, table_id, hand_id) VALUES ('hand_result', ?, ?, ?)"
    cursor.execute(sql.replace("?", mark), (now, table, hand))
    cursor.execute("SELECT max(id) FROM transfers")
    (transfer,) = cursor.fetchone()
    sql = "INSERT INTO entries (transfer_id, account_id, amount) VALUES (?, ?, ?)"
    cursor.executemany(sql.replace("?", mark), [(transfer, *move) for move in moves])
    sql = "UPDATE accounts SET chips = chips + ? WHERE id = ?"
    cursor.executemany(sql.replace("?", mark), [(amount, account) for account, amount in moves])
    sql = "UPDATE hands SET status = 'finished', ended_at = ?, record = ? WHERE id = ?"
    cursor.execute(sql.replace("?", mark), (now, record, hand))
    cursor.close()
    connection.commit()


@contextmanager
def metered_store(url: str) -> Iterator[tuple[Store, Meter]]:
    store = open_store(url)
    try:
        yield store, Meter(store.engine)
    finally:
        store.close()


def measure(kind: str, args: argparse.Namespace) -> None:
    with database(kind, args.postgres) as url, metered_store(url) as (store, meter):
        tables = seated_tables(store, args.tables)
        write_history(store, tables, args.history)
        play_store(store, Meter(store.engine), tables, 1)  # warm: caches, statements compiled
        play_store(store, meter, tables, args.hands)
        floor = Meter(store.engine)
        play_driver(store, floor, tables, args.hands)
    per_hand = {"start_hand": 1, "append_actions": ACTIONS / args.tables, "finish_hand": 1}
    print(
        f"\n{kind}: {args.tables} tables, {args.hands} hands each after {args.history:,} "
        f"played, batches of {args.tables}"
    )
    print("\n| call | calls | statements | wall ms | CPU ms | CPU ms an action |")
    print("|---|---:|---:|---:|---:|---:|")
    totals = Counter[str]()
    for who, metered in (("store", meter), ("driver", floor)):
        for name in per_hand:
            print(metered.costs[name].row(f"{who}: {name}", per_hand[name]))
            cost = metered.costs[name]
            totals[who] += per_hand[name] * cost.cpu / cost.calls * 1000 / ACTIONS
    ratio = totals["store"] / totals["driver"]
    print(
        f"\nCPU an action: store {totals['store']:.3f} ms, driver alone {totals['driver']:.3f} ms "
        f"({ratio:.1f} x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--tables", type=int, default=20, help="tables (default 20)")
    parser.add_argument("--hands", type=int, default=5, help="hands each table (default 5)")
    parser.add_argument(
        "--history", type=int, default=0, help="hands each table played before (default 0)"
    )
    parser.add_argument("--postgres", default=POSTGRES, help="a PostgreSQL server URL")
    args = parser.parse_args()
    if args.tables < 1 or args.hands < 1:
        parser.error("--tables and --hands are at least 1")
    if args.history < 0 or args.history % 2:
        parser.error("--history is an even number of hands, 0 or more")
    kinds = ("sqlite", "postgresql") if args.db == "both" else (args.db,)
    for kind in kinds:
        measure(kind, args)


if __name__ == "__main__":
    sys.exit(main())
