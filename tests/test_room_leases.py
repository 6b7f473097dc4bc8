"""Room processes sharing one database (issue: many server processes): each table is run
by the one process that holds its lease; when that process dies its tables are taken
over by another within seconds and their hands resume from the log; a process whose
lease was taken can never write for the table again (fencing). On SQLite and PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from room_helpers import Client, RoomServer, is_event, replay, seated_game
from room_process import LEASE, WAIT, Serve, check_chips, check_hands_against_ledger
from sqlalchemy import text

from splitpot.store import HandStatus, Store


def listed(room: Serve) -> set[str]:
    """The tables the process runs (its lobby)."""
    return {table["id"] for table in room.tables()}


@contextmanager
def two_processes(database_url: str, tmp_path: Path) -> Iterator[tuple[Serve, Serve, str]]:
    """Two ``splitpot serve`` processes on one PostgreSQL database, the second started once
    the first runs the bots' table: both, and that table's id; both killed at the end."""
    if not database_url.startswith("postgresql"):
        pytest.skip("processes sharing one database: PostgreSQL (SQLite: tests/test_leases.py)")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = Serve(database_url, tmp_path / "a"), Serve(database_url, tmp_path / "b")
    second.prepare()  # its code loads while the first starts
    first.start()
    try:
        table = first.bots_table()["id"]
        second.start()
        yield first, second, table
    finally:
        first.kill()
        second.kill()
        second.close()


def test_a_killed_processs_tables_are_taken_over_and_their_hands_resume(
    database_url: str, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two ``splitpot serve`` processes on one database: the second runs none of the
    first's tables; the first is killed in a hand; within a few seconds the second runs
    the table, the hand resumes from its log, and play goes on for a watcher there. No
    chip is lost and every hand's log replays."""
    monkeypatch.setenv("SPLITPOT_LEASE_SECONDS", str(LEASE))
    with two_processes(database_url, tmp_path) as (first, second, table):
        assert listed(second) == set(), "the second process runs a table the first holds"
        watcher = Client(first, None)  # type: ignore[arg-type]
        watcher.send({"type": "watch", "table": table})
        watcher.wait(is_event("hand_ended"), WAIT)
        watcher.wait(is_event("acted"), WAIT)  # in a hand
        first.kill()
        killed = time.monotonic()
        in_play = {hand.id: hand.actions for hand in store.unfinished_hands()}
        watcher.close()
        while table not in listed(second):
            assert time.monotonic() - killed < WAIT, "the table was never taken over"
            time.sleep(0.05)
        took = time.monotonic() - killed
        again = Client(second, None)  # type: ignore[arg-type]
        again.send({"type": "watch", "table": table})
        again.wait(lambda f: f["type"] == "table", WAIT)
        for _ in range(2):
            again.wait(is_event("hand_ended"), WAIT)
        again.close()
    print(f"taken over {took:.1f} s after the kill (leases of {LEASE} s)")
    assert took < 3 * LEASE + 2
    for hand_id, logged in in_play.items():  # resumed where its log stopped
        assert store.hand(hand_id).status is HandStatus.FINISHED
        assert store.hand_log(hand_id).actions[: len(logged)] == logged
    check_chips(store)
    check_hands_against_ledger(store)
    for hand in store.unfinished_hands():
        replay(hand)


def test_a_process_whose_table_was_taken_over_writes_nothing_more(
    room: RoomServer, store: Store
) -> None:
    """Another process takes the table over while this one still plays it (paused past
    its lease, or cut off from the database): the next action this one tries to log is
    refused by the fencing number, nothing more of it reaches the store, and it lets go
    of the table and of the clients there."""
    table, (ann, bob) = seated_game(room, ("Ann", "Bob"), 100, name="Fenced", seats=2)
    ann.send({"type": "host", "table": table, "action": "resume"})
    hand_id = ann.wait(is_event("hand_started"), WAIT)["event"]["hand"]
    ann.wait(lambda f: f["type"] == "turn" or is_event("to_act")(f), WAIT)
    logged = store.hand_log(hand_id).actions
    with store.engine.begin() as db:  # the takeover, as another process makes it
        db.execute(
            text("UPDATE leases SET owner = 'elsewhere', fence = fence + 1 WHERE table_id = :t"),
            {"t": table},
        )
    for client in (ann, bob):
        client.send({"type": "act", "table": table, "hand": hand_id, "action": "call"})
    for client in (ann, bob):
        assert client.closed.wait(WAIT), "a client of the lost table is still connected"
    assert store.hand_log(hand_id).actions == logged
    with httpx.Client(base_url=room.url, timeout=5) as http:
        assert table not in {t["id"] for t in http.get("/api/tables").json()["tables"]}


def test_a_stopping_process_hands_its_tables_over_between_hands(
    database_url: str, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM: the process lets the hand in play finish, gives the table's lease up and
    exits 0; the other process takes the table at once (no lease to wait out) and deals
    its next hand, and no hand is left half played."""
    monkeypatch.setenv("SPLITPOT_LEASE_SECONDS", "5")  # a takeover that waited would show
    with two_processes(database_url, tmp_path) as (first, second, table):
        watcher = Client(first, None)  # type: ignore[arg-type]
        watcher.send({"type": "watch", "table": table})
        in_play = watcher.wait(is_event("hand_started"), WAIT)["event"]["hand"]
        watcher.wait(is_event("acted"), WAIT)  # in that hand
        stopping = time.monotonic()
        assert first.terminate() == 0
        watcher.close()
        while table not in listed(second):
            assert time.monotonic() - stopping < WAIT, "the table was never taken over"
            time.sleep(0.05)
        took = time.monotonic() - stopping
        assert store.hand(in_play).status is HandStatus.FINISHED  # before the handover
        again = Client(second, None)  # type: ignore[arg-type]
        again.send({"type": "watch", "table": table})
        again.wait(is_event("hand_ended"), WAIT)
        again.close()
    print(f"handed over {took:.1f} s after SIGTERM (leases of 5 s)")
    assert took < 5, "the second process waited for the lease to lapse"
    hands = store.table_hands(table, 1000)
    assert not any(hand.status is HandStatus.CANCELLED for hand in hands)
    check_chips(store)
    check_hands_against_ledger(store)
