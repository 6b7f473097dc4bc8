"""A real ``splitpot serve`` process for fault tests: started, killed (SIGKILL) or stopped
(SIGTERM) and restarted on the same database; the players who play at it over WebSockets;
and the ledger's checks afterwards (every chip somewhere, every hand as the ledger has it).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import httpx
from room_helpers import Choose, Client, Frame, free_port, play
from sqlalchemy import select

from splitpot.store import Store
from splitpot.store.models import AccountRow, EntryRow, HandRow, PlayerRow, TransferRow


def hand_transfers(store: Store, hand_id: str) -> list[int]:
    with store.engine.connect() as db:
        return list(db.scalars(select(TransferRow.id).where(TransferRow.hand_id == hand_id)))


PACE = {"SPLITPOT_BOT_DELAY": "0.01", "SPLITPOT_HAND_PAUSE": "0.02"}
WAIT = 20.0  # seconds any one thing may take before the test gives up
# seconds a room may take to start and answer: 2 s on a quiet machine (benchmarks/startup.py),
# far more on one busy with other work (a load of 9 on 2 cores took over 20 s)
START_WAIT = 120.0
LEASE = 2.5  # seconds: the processes' leases in these tests (5 by default; 1.5 lapsed under load)


# A process that loads the room's code, then waits for a line before it serves: a restart
# that follows a kill need not wait for Python to import it all again.
READY = (
    "import sys; import splitpot.cli, splitpot.server.app, splitpot.server.main; "
    "sys.exit(splitpot.cli.main(sys.argv[1:]) if sys.stdin.readline() else 0)"
)


class Serve:
    """``splitpot serve --bots 3`` in a child process, restarted on the same database and
    port; each run's output goes to a file in the test's temporary folder. With
    ``spare``, the next run's process is started (its imports done) while this one runs."""

    def __init__(self, database_url: str, logs: Path, *flags: str, spare: bool = False) -> None:
        self.database_url = database_url
        self.flags = flags  # more of serve's options
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.logs = logs
        self.runs = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.spare: subprocess.Popen[bytes] | None = None
        self.keeps_spare = spare

    def _launch(self) -> subprocess.Popen[bytes]:
        """A process of the next run, waiting for its line to serve."""
        command = [sys.executable, "-c", READY, "serve", "--port", str(self.port)]
        command += ["--db", self.database_url, "--bots", "3", *self.flags]
        with (self.logs / f"serve-{self.runs + 1}.log").open("wb") as out:
            return subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=os.environ | PACE,
            )

    def prepare(self) -> None:
        """Launch the next run's process now, to load the room's code beside others."""
        if self.spare is None:
            self.spare = self._launch()

    def start(self) -> None:
        """Start the room and wait until it answers /api/health (recovery is done)."""
        process, self.spare = self.spare or self._launch(), None
        self.runs += 1
        assert process.stdin is not None
        process.stdin.write(b"serve\n")
        process.stdin.close()
        self.process = process
        if self.keeps_spare:
            self.spare = self._launch()
        deadline = time.monotonic() + START_WAIT
        while True:
            code = self.process.poll()
            assert code is None, f"splitpot serve exited {code}:\n{self.log().read_text()}"
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"no health:\n{self.log().read_text()}"
            time.sleep(0.05)

    def log(self) -> Path:
        return self.logs / f"serve-{self.runs}.log"

    def kill(self) -> None:
        """kill -9: no handler runs, nothing is flushed but what the database has."""
        self._stop(signal.SIGKILL)

    def close(self) -> None:
        """No more runs: the spare process (if any) goes without serving."""
        if self.spare is not None:
            assert self.spare.stdin is not None
            self.spare.stdin.close()
            self.spare.wait(30)
            self.spare = None

    def terminate(self) -> int:
        """SIGTERM, and the exit status once the room has stopped by itself."""
        return self._stop(signal.SIGTERM)

    def _stop(self, how: signal.Signals) -> int:
        assert self.process is not None
        self.process.send_signal(how)
        code = self.process.wait(60)
        text = self.log().read_text()
        assert "Traceback" not in text, f"run {self.runs} of the room failed:\n{text}"
        return code

    def tables(self) -> list[Frame]:
        tables: list[Frame] = httpx.get(f"{self.url}/api/tables", timeout=5).json()["tables"]
        return tables

    def bots_table(self) -> Frame:
        return next(table for table in self.tables() if table["bots"] == 3)


@dataclass
class Human:
    """A player at the bots' table; a new WebSocket after each restart."""

    name: str
    id: str
    token: str
    seat: int
    client: Client | None = None

    def connect(self, room: Serve) -> Client:
        """A new WebSocket, and hello with the player's token."""
        self.client = Client(room, self.token)  # type: ignore[arg-type]
        assert self.client.welcome["type"] == "welcome", self.client.welcome
        return self.client

    def rejoin(self, room: Serve, table: str) -> Frame:
        """After a restart: hello again, and the table comes back by itself (PROTOCOL.md:
        after hello, a ``table`` message for every table where the player sits)."""
        snapshot = self.connect(room).wait(lambda f: f["type"] == "table", WAIT)
        assert snapshot["table"] == table
        return snapshot

    def disconnect(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None


def chooser(rng: random.Random) -> Choose:
    """Check, call small bets, sometimes bet or raise the least, show at the showdown."""

    def choose(client: Client, turn: Frame) -> Frame:
        options = {entry["action"]: entry for entry in turn["legal"]}
        for kind in ("bet", "raise"):
            if kind in options and rng.random() < 0.2:
                return {"action": kind, "amount": options[kind]["min"]}
        if "check" in options:
            return {"action": "check"}
        if "call" in options and options["call"]["amount"] <= 10:
            return {"action": "call"}
        return {"action": "show" if "show" in options else "fold"}

    return choose


@dataclass
class Players:
    """The humans at one table, playing by one chooser."""

    humans: list[Human]
    table: str
    choose: Choose

    def clients(self) -> list[Client]:
        return [human.client for human in self.humans if human.client is not None]

    def hands_ended(self) -> int:
        """Hands ended since the first player's last connect."""
        return self.clients()[0].hands_ended(self.table)

    def play_hand(self) -> None:
        """Play until one more hand ends."""
        target = self.hands_ended() + 1
        play(self.clients(), self.table, lambda: self.hands_ended() >= target, self.choose, WAIT)

    def play_for(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        play(self.clients(), self.table, lambda: time.monotonic() >= end, self.choose, WAIT)

    def play_to_a_turn(self) -> None:
        """Play until a player gets a turn, and leave it unanswered: a hand is in play."""
        clients = self.clients()
        marks = [len(client.frames) for client in clients]

        def to_act() -> bool:  # a turn came: ``play`` leaves it unread
            return any(
                frame["type"] == "turn" and frame["table"] == self.table
                for client, mark in zip(clients, marks, strict=True)
                for frame in client.frames[mark:]
            )

        play(clients, self.table, to_act, self.choose, WAIT)


def check_chips(store: Store) -> None:
    """The ledger's invariant, and every chip somewhere: balances, tables, the house."""
    totals = store.check_invariant()
    assert totals.balances + totals.on_tables + totals.house == 0, totals
    assert totals.on_tables > 0


def check_hands_against_ledger(store: Store) -> int:
    """Every finished hand started with the stacks its players had in the ledger then,
    and its result left them the stacks its record ends with: the tables' chips and the
    ledger's never drift apart, crash after crash. Cancelled hands moved no chip. The
    number of finished hands."""
    with store.engine.connect() as db:
        entries = db.execute(
            select(TransferRow.kind, TransferRow.hand_id, EntryRow.account_id)
            .add_columns(PlayerRow.name, EntryRow.amount)
            .join(TransferRow, EntryRow.transfer_id == TransferRow.id)
            .join(AccountRow, EntryRow.account_id == AccountRow.id)
            .outerjoin(PlayerRow, AccountRow.player_id == PlayerRow.id)
            .order_by(EntryRow.id)
        ).all()
        hands = db.execute(select(HandRow.id, HandRow.status, HandRow.record)).all()
    records = {hand: record for hand, status, record in hands if status == "finished"}
    cancelled = {hand for hand, status, _ in hands if status == "cancelled"}
    chips: dict[int, int] = defaultdict(int)
    results: set[str] = set()
    for kind, hand, account, name, amount in entries:
        assert hand not in cancelled, f"cancelled hand {hand} moved chips"
        if kind == "hand_result" and name is not None:
            players = records[hand]["players"]
            index = [player["name"] for player in players].index(name)
            assert players[index]["stack"] == chips[account], (hand, name)
            assert records[hand]["result"]["stacks"][index] == chips[account] + amount
            results.add(hand)
        chips[account] += amount
    assert results == set(records)
    return len(records)
