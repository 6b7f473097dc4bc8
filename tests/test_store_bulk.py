"""Statements about many rows (store/bulk.py), on SQLite and on PostgreSQL: a list of
keys that is one array on PostgreSQL, whatever its length, and rows inserted in one
statement there; the same rows written and found on both."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import event, select
from store_fixtures import SETUP, table_with_players

from splitpot.store import Store
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


def test_a_list_of_keys_is_one_statement_on_postgresql_whatever_its_length(
    store: Store,
) -> None:
    """On PostgreSQL the list is an array: one statement for every length, prepared once
    by the driver; on SQLite ``IN`` grows with the list. Both find the same rows."""
    arrays = store.engine.dialect.name == "postgresql"
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
    assert len(sent) == 3 and len(texts) == (1 if arrays else 3)
