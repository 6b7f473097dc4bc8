"""Statements about many rows (store/bulk.py), on SQLite and on PostgreSQL: a list of
keys that is one parameter whatever its length, and rows inserted in one statement on
PostgreSQL; the same rows written and found on both. And the action log's batch in
one statement on PostgreSQL (``hands.append_actions_at_once``), which answers as the
statements of SQLite do when it cannot write the batch whole."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, insert, select, text
from store_fixtures import SETUP, table_with_players, until_a_transaction_waits_on_a_lock

from splitpot.store import HandStateError, LoggedAction, Store
from splitpot.store.bulk import PerDatabase, RowsInsert
from splitpot.store.models import ActionRow, core_table

ACTIONS = core_table(ActionRow)
COLUMNS = ("hand_id", "seq", "seat", "kind", "amount", "at")
_SEQS = PerDatabase(
    lambda among: (
        select(ACTIONS.c.hand_id, ACTIONS.c.seq)
        .where(among(ACTIONS.c.hand_id, "hands"))
        .order_by(ACTIONS.c.hand_id, ACTIONS.c.seq)
    )
)


@contextmanager
def statements(store: Store) -> Iterator[list[tuple[str, bool]]]:
    """Each statement the store's engine sends the driver, and whether as executemany
    (not SQLite's ``BEGIN``, which the store sends itself)."""
    sent: list[tuple[str, bool]] = []

    def heard(*args: Any) -> None:
        _, _, statement, _, _, many = args
        if not statement.startswith("BEGIN"):
            sent.append((statement, many))

    event.listen(store.engine, "before_cursor_execute", heard)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", heard)


def hands(store: Store, count: int) -> list[str]:
    """``count`` hands in play, each at a table of its own."""
    return [
        store.start_hand(table_with_players(store, 100, 100)[0], SETUP).id for _ in range(count)
    ]


def test_rows_are_inserted_in_one_statement_on_postgresql_and_read_back_alike(
    store: Store,
) -> None:
    arrays = store.engine.dialect.name == "postgresql"
    at = datetime(2026, 12, 5, 10, 30, tzinfo=UTC)
    first, second = hands(store, 2)
    rows = [
        {"hand_id": first, "seq": 1, "seat": 1, "kind": "raise", "amount": 40, "at": at},
        {"hand_id": second, "seq": 1, "seat": 2, "kind": "check", "amount": None, "at": at},
        {"hand_id": first, "seq": 2, "seat": 2, "kind": "allin", "amount": 2**40, "at": at},
    ]
    log = RowsInsert(ACTIONS, COLUMNS)
    with statements(store) as sent, store.engine.begin() as connection:
        log.run(connection, rows)
        log.run(connection, [])  # nothing to write: no statement
    [(statement, many)] = sent
    assert ("unnest(" in statement, many) == ((True, False) if arrays else (False, True))
    with store.engine.connect() as connection:
        written = connection.execute(select(ACTIONS).order_by(ACTIONS.c.hand_id)).mappings()
        found = sorted((dict(row) for row in written), key=lambda row: (row["hand_id"], row["seq"]))
    assert found == sorted(rows, key=lambda row: (row["hand_id"], row["seq"]))


def test_a_list_of_keys_is_one_statement_whatever_its_length(store: Store) -> None:
    """The list is one parameter: a PostgreSQL array, a JSON array on SQLite. One
    statement for every length (prepared once by the driver), finding the same rows on
    both."""
    playing = hands(store, 5)
    store.append_actions([(hand, 1, "call", None, 1) for hand in playing])
    store.append_actions([(hand, 2, "check", None, 2) for hand in playing[:2]])
    asked = [playing[:1], playing[:3], [*playing, "no-such-hand"]]
    with statements(store) as sent, store.engine.connect() as connection:
        found = [connection.execute(_SEQS.on(connection), {"hands": keys}).all() for keys in asked]
    logged = {hand: [1, 2] if hand in playing[:2] else [1] for hand in playing}
    assert found == [
        [(hand, seq) for hand in sorted(keys) if hand in logged for seq in logged[hand]]
        for keys in asked
    ]
    texts = {statement for statement, _ in sent}
    assert len(sent) == 3 and len(texts) == 1


def logged(store: Store, hand: str) -> list[tuple[int, int, str, int | None]]:
    return [(a.seq, a.seat, a.kind, a.amount) for a in store.hand_log(hand).actions]


def test_a_batch_of_numbered_actions_is_one_statement_on_postgresql(store: Store) -> None:
    """Under leases, three tables' actions: one statement on PostgreSQL (SQLite: the
    fence check, the hands' lock, their last numbers, the rows); not numbered, or not
    all writable, the statements one by one, with their answers."""
    arrays = store.engine.dialect.name == "postgresql"
    tables = [table_with_players(store, 100, 100)[0] for _ in range(3)]
    store.hold_leases("test")
    for table in tables:
        assert store.claim_table(table, 3600)
    first, second, third = (store.start_hand(table, SETUP).id for table in tables)
    batch = [(first, 1, "raise", 4, 1), (second, 1, "call", None, 1), (first, 2, "call", None, 2)]
    with statements(store) as sent:
        answered = store.append_actions([*batch, (third, 2, "check", None, 1)])
    assert len(sent) == (1 if arrays else 4)
    assert [(a.seq, a.kind) for a in answered] == [
        (1, "raise"),
        (1, "call"),
        (2, "call"),
        (1, "check"),
    ]
    assert logged(store, first) == [(1, 1, "raise", 4), (2, 2, "call", None)]
    with statements(store) as sent:
        store.append_actions([(second, 2, "check", None, None)])  # numbered by the store
    assert len(sent) == 4 and logged(store, second) == [(1, 1, "call", None), (2, 2, "check", None)]
    with statements(store) as sent, pytest.raises(HandStateError, match="has 1 actions: action 3"):
        store.append_actions([(third, 1, "bet", 2, 3)])  # out of turn
    assert len(sent) == (4 if arrays else 3) and logged(store, third) == [(1, 2, "check", None)]


@pytest.mark.parametrize("theirs", ["call", "fold"], ids=["the same action", "another"])
def test_a_batch_that_crossed_another_write_is_answered_as_the_log_stands(
    store: Store, theirs: str
) -> None:
    """Another writer holds the hand and logs its action 1; the batch (1 and 2) waits for
    its lock and then reads the log as it stood before: the primary key refuses the rows,
    and the statements one by one answer from the log as it is now: action 1 held (the
    same) or refused (another)."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("row locks: SQLite has one writer at a time")
    [hand] = hands(store, 1)
    answers: list[Sequence[LoggedAction] | BaseException] = []

    def batch() -> None:
        try:
            answers.append(
                store.append_actions([(hand, 1, "call", None, 1), (hand, 2, "check", None, 2)])
            )
        except HandStateError as error:
            answers.append(error)

    writing = threading.Thread(target=batch)
    with store.engine.begin() as other, store.engine.connect() as watcher:
        other.execute(text("SELECT id FROM hands WHERE id = :hand FOR UPDATE"), {"hand": hand})
        at = datetime.now(UTC)
        other.execute(
            insert(ACTIONS).values(hand_id=hand, seq=1, seat=1, kind=theirs, amount=None, at=at)
        )
        writing.start()
        until_a_transaction_waits_on_a_lock(watcher)
    writing.join(60)
    [answer] = answers
    if theirs == "call":
        assert not isinstance(answer, BaseException)
        assert [(a.seq, a.kind) for a in answer] == [(1, "call"), (2, "check")]
        assert logged(store, hand) == [(1, 1, "call", None), (2, 2, "check", None)]
    else:
        assert isinstance(answer, HandStateError)
        assert str(answer) == f"hand {hand} has another action 1 already"
        assert logged(store, hand) == [(1, 1, "fold", None)]
