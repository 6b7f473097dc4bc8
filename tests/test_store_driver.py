"""Statements run on the driver's own cursor (store/driver.py), on SQLite and on
PostgreSQL: the same rows as SQLAlchemy's execution finds, parameters through their
types, heard by the engine's statement listeners, and the driver's errors raised as
SQLAlchemy's (what the store and the room's retries catch), a lost connection given up.
And the connections the store keeps for its hot path from one write to the next."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, select, text
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from store_fixtures import hand_in_play, until_a_transaction_waits_on_a_lock

from splitpot.store import Store, StoreError
from splitpot.store.bulk import PerDatabase
from splitpot.store.driver import DriverStatement
from splitpot.store.models import ActionRow, HandRow, core_table

pytest_plugins = ["store_fixtures"]

ACTIONS = core_table(ActionRow)
HANDS = core_table(HandRow)
_STATUSES = PerDatabase(
    lambda among: select(HANDS.c.id, HANDS.c.status).where(among(HANDS.c.id, "hands"))
)


def test_a_statement_on_the_driver_finds_what_sqlalchemy_finds(store: Store) -> None:
    """A list of keys, a JSON array on SQLite and an array on PostgreSQL: the same rows
    from the driver's cursor as from SQLAlchemy's execution, and a key that is not
    there finds nothing."""
    playing = sorted(hand_in_play(store) for _ in range(3))
    asked = {"hands": [*playing[:2], "no-such-hand"]}
    with store.engine.connect() as connection:
        driven = _STATUSES.driver.rows(connection, asked)
        executed = connection.execute(_STATUSES.on(connection), asked).all()
    assert sorted(driven) == sorted(tuple(row) for row in executed)
    assert sorted(driven) == [(hand_id, "playing") for hand_id in playing[:2]]


def test_parameters_go_through_their_types_and_listeners_hear_the_statement(
    store: Store,
) -> None:
    """A time is bound as its column's type binds it (naive UTC on SQLite, a timestamp
    with its zone on PostgreSQL): written on the driver, read back the same through
    SQLAlchemy; the engine's ``before_cursor_execute`` listeners hear each statement."""
    at = datetime(2026, 12, 5, 14, 30, 5, 123456, tzinfo=UTC)
    first = hand_in_play(store)
    insert = DriverStatement.of(ACTIONS.insert())
    heard: list[tuple[str, bool]] = []

    def listen(*args: Any) -> None:
        if not args[2].startswith("BEGIN"):  # SQLite's, which the store sends itself
            heard.append((args[2], args[5]))

    event.listen(store.engine, "before_cursor_execute", listen)
    try:
        with store.engine.begin() as connection:
            insert.run_many(
                connection,
                [{"hand_id": first, "seq": seq, "seat": 1, "kind": "call", "amount": None,
                  "at": at} for seq in (1, 2)],
            )  # fmt: skip
    finally:
        event.remove(store.engine, "before_cursor_execute", listen)
    assert [(statement.startswith("INSERT INTO actions"), many) for statement, many in heard] == [
        (True, True)
    ]
    assert [(a.seq, a.at) for a in store.hand_log(first).actions] == [(1, at), (2, at)]


def test_the_driver_stores_a_value_as_sqlalchemy_stores_it(store: Store) -> None:
    """A time on a whole second, written once on the driver and once by SQLAlchemy's own
    execution: the database holds the same (on SQLite the same text, its microseconds
    written out, so that times still compare and sort as text)."""
    at = datetime(2026, 12, 5, 16, 0, 0, tzinfo=UTC)
    first = hand_in_play(store)
    row = {"hand_id": first, "seat": 1, "kind": "call", "amount": None, "at": at}
    with store.engine.begin() as connection:
        DriverStatement.of(ACTIONS.insert()).run(connection, {**row, "seq": 1})
        connection.execute(ACTIONS.insert(), {**row, "seq": 2})
        stored = connection.execute(  # a text statement: its values as the driver reads them
            text("SELECT at FROM actions WHERE hand_id = :hand ORDER BY seq"), {"hand": first}
        ).all()
    assert stored[0] == stored[1]


def test_a_broken_constraint_on_the_driver_is_sqlalchemys_error_and_the_stores(
    store: Store,
) -> None:
    """The same action number twice: the driver's IntegrityError comes out as
    SQLAlchemy's, the transaction is rolled back whole; through the store, the store's
    own error naming the refusal."""
    first = hand_in_play(store)
    insert = DriverStatement.of(ACTIONS.insert())
    row = {"hand_id": first, "seq": 1, "seat": 1, "kind": "call", "amount": None,
           "at": datetime.now(UTC)}  # fmt: skip
    with pytest.raises(IntegrityError) as refused, store.engine.begin() as connection:
        insert.run(connection, row)
        insert.run(connection, {**row, "kind": "fold"})
    assert refused.value.statement is not None and "INSERT INTO actions" in refused.value.statement
    assert store.hand_log(first).actions == ()  # the first row went with the transaction
    store.append_actions([(first, 1, "call", None, 1)])
    with pytest.raises(StoreError, match="has another action 1 already"):
        store.append_actions([(first, 1, "fold", None, 1)])


def test_a_statement_the_database_cannot_run_is_sqlalchemys_error(store: Store) -> None:
    missing = DriverStatement.of(text("SELECT no_such_column FROM hands"))
    with store.engine.connect() as connection, pytest.raises((OperationalError, ProgrammingError)):
        missing.rows(connection, {})


def test_a_lost_connection_is_an_operational_error_and_given_up(store: Store) -> None:
    """The server ends the connection (PostgreSQL): the driver's statement raises
    SQLAlchemy's OperationalError marked as a lost connection (the room retries those),
    and the next transaction gets a live connection from the pool."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("a server that can end one connection: PostgreSQL")
    asked = {"hands": ["no-such-hand"]}
    with store.engine.connect() as connection:
        pid = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
        connection.rollback()
        with store.engine.connect() as other:
            other.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid or 0)})")
        with pytest.raises(OperationalError) as lost:
            _STATUSES.driver.rows(connection, asked)
        assert lost.value.connection_invalidated
    with store.engine.connect() as connection:
        assert _STATUSES.driver.rows(connection, asked) == []


def postgresql_only(store: Store) -> None:
    if store.engine.dialect.name != "postgresql":
        pytest.skip("row locks and a server that ends connections: PostgreSQL")


def test_a_write_while_the_kept_connection_waits_goes_on_one_of_its_own(store: Store) -> None:
    """The store keeps one connection for the hot path's writes: a thread's batch holds
    it while it waits on another transaction's lock; a write from another thread then is
    not held up behind it (a connection of its own), and both are logged."""
    postgresql_only(store)
    waiting, other = hand_in_play(store), hand_in_play(store)
    answers: list[object] = []

    def batch() -> None:
        answers.append(store.append_actions([(waiting, 1, "call", None, None)]))

    writing = threading.Thread(target=batch)
    with store.engine.begin() as lock, store.engine.connect() as watcher:
        lock.execute(text("SELECT id FROM hands WHERE id = :hand FOR UPDATE"), {"hand": waiting})
        writing.start()
        until_a_transaction_waits_on_a_lock(watcher)
        assert [a.seq for a in store.append_actions([(other, 1, "check", None, 1)])] == [1]
        assert answers == []  # still waiting on the lock
    writing.join(60)
    assert [(a.seq, a.kind) for a in store.hand_log(waiting).actions] == [(1, "call")]
    assert [(a.seq, a.kind) for a in store.hand_log(other).actions] == [(1, "check")]


def test_a_kept_connection_the_server_ended_fails_one_write_and_the_next_goes_on(
    store: Store,
) -> None:
    """The server ends every connection of the store's: the next write of the hot path
    raises SQLAlchemy's OperationalError (the room retries it), the connection it kept is
    given up, and the write after it is logged on a new one."""
    postgresql_only(store)
    playing = hand_in_play(store)
    store.append_actions([(playing, 1, "call", None, 1)])  # the kept connections in use
    with store.engine.connect() as admin:
        admin.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    with pytest.raises(OperationalError):
        store.append_actions([(playing, 2, "check", None, 2)])
    store.append_actions([(playing, 2, "check", None, 2)])
    assert [(a.seq, a.kind) for a in store.hand_log(playing).actions] == [
        (1, "call"),
        (2, "check"),
    ]
