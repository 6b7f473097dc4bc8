"""The action log written where it needs no waiting (``Store.append_actions_now``), on
SQLite and on PostgreSQL: on SQLite's file it is the store's own log, written at once
while the write lock is free and refused at once (nothing written) while another
connection holds it; it never checkpoints the WAL, nor starts it again (a write that
syncs the disk), so its commit is one the event loop may make. PostgreSQL's answers come
over the network, so there it never writes."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from store_fixtures import cheap_hasher, hand_in_play, sqlite_file

from splitpot.store import Store, open_store
from splitpot.store.database import SQLITE_BUSY_SECONDS

pytest_plugins = ["store_fixtures"]

WAL_FRAME = 4096 + 24  # a page of SQLite's default size and its frame's header
AUTOCHECKPOINT = 1000  # SQLite's default: the WAL's frames that make a commit checkpoint


LOCKS = "a write lock held by another connection of the same file, its WAL: SQLite"


def test_actions_written_without_waiting_are_the_stores_log(store: Store) -> None:
    playing = hand_in_play(store)
    now = store.append_actions_now([(playing, 1, "call", None, 1), (playing, 2, "raise", 40, 2)])
    if store.engine.dialect.name == "postgresql":  # never on the event loop
        assert not store.writes_without_waiting
        assert now is None
        assert store.hand_log(playing).actions == ()
        return
    assert store.writes_without_waiting
    assert now is not None
    assert [(a.seq, a.seat, a.kind, a.amount) for a in now] == [
        (1, 1, "call", None),
        (2, 2, "raise", 40),
    ]
    store.append_actions([(playing, 1, "check", None, 3)])  # the writer's thread goes on
    log = store.hand_log(playing).actions
    assert [(a.seq, a.seat, a.kind, a.amount) for a in log] == [
        (1, 1, "call", None),
        (2, 2, "raise", 40),
        (3, 1, "check", None),
    ]
    assert [a.at for a in log[:2]] == [a.at for a in now]


def test_a_write_lock_held_elsewhere_is_not_waited_for_and_nothing_is_written(
    store: Store,
) -> None:
    path = sqlite_file(store, LOCKS)
    playing = hand_in_play(store)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another writer, as the store's thread
        began = time.monotonic()
        assert store.append_actions_now([(playing, 1, "call", None, 1)]) is None
        waited = time.monotonic() - began
        assert store.hand_log(playing).actions == ()
        other.execute("COMMIT")
    finally:
        other.close()
    assert waited < min(1.0, SQLITE_BUSY_SECONDS)  # no busy timeout was waited out
    logged = store.append_actions_now([(playing, 1, "call", None, 1)])  # the lock is free
    assert logged is not None and [a.seq for a in logged] == [1]
    assert [(a.seq, a.kind) for a in store.hand_log(playing).actions] == [(1, "call")]


def test_the_writer_that_never_waits_leaves_the_checkpoints_to_the_others(
    store: Store,
) -> None:
    """SQLite checkpoints the WAL at a commit that finds it past 1,000 frames, and then
    starts it again from its beginning; the never-waiting writer's commits never do, so
    its WAL grows past that (the next commit on another connection checkpoints it)."""
    path = sqlite_file(store, LOCKS)
    playing = hand_in_play(store)
    wal = path.with_name(path.name + "-wal")
    seq = 0
    while wal.stat().st_size < (AUTOCHECKPOINT + 200) * WAL_FRAME:
        seq += 1
        assert store.append_actions_now([(playing, seq % 2 + 1, "call", None, seq)]) is not None
        assert seq < 20 * AUTOCHECKPOINT, "the WAL stopped growing: something checkpointed it"
    assert len(store.hand_log(playing).actions) == seq


def test_a_write_that_would_start_the_wal_again_is_left_to_the_thread(store: Store) -> None:
    """Once the WAL was all copied into the database, the next write starts it again and
    syncs its new header to the disk: the never-waiting writer leaves that write to
    another (nothing written), and writes the ones after it."""
    path = sqlite_file(store, LOCKS)
    playing = hand_in_play(store)
    assert store.append_actions_now([(playing, 1, "call", None, 1)]) is not None
    other = sqlite3.connect(path, isolation_level=None)
    try:
        busy, frames, copied = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        other.close()
    assert (busy, copied) == (0, frames)  # all of it copied: the next write starts it again
    assert store.append_actions_now([(playing, 2, "check", None, 2)]) is None
    assert [a.seq for a in store.hand_log(playing).actions] == [1]
    store.append_actions([(playing, 2, "check", None, 2)])  # the store's thread starts it
    assert store.append_actions_now([(playing, 1, "call", None, 3)]) is not None
    assert [(a.seq, a.kind) for a in store.hand_log(playing).actions] == [
        (1, "call"),
        (2, "check"),
        (3, "call"),
    ]


def test_a_database_reached_through_a_link_is_written_without_waiting(
    store: Store, tmp_path: Path
) -> None:
    """SQLite keeps the WAL and its index beside the file a link points to: the store
    reads the index there, so its writes through the link still go on the loop."""
    link = tmp_path / "room-link.sqlite3"
    link.symlink_to(sqlite_file(store, LOCKS))
    linked = open_store(f"sqlite:///{link}", password_hasher=cheap_hasher())
    try:
        playing = hand_in_play(linked)
        written = [linked.append_actions_now([(playing, seq, "call", None, seq)]) for seq in (1, 2)]
    finally:
        linked.close()
    assert [None if w is None else [a.seq for a in w] for w in written] == [[1], [2]]
