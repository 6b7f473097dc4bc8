"""Statements about many rows at once, built once for each kind of database: a list of
keys is one PostgreSQL array (``= ANY``, the same statement whatever the list's length)
where SQLite gets ``IN`` expanded to the list's length, and rows are inserted from
arrays (``unnest``) in one PostgreSQL statement where SQLite takes ``executemany``. On
PostgreSQL an expanded ``IN`` is compiled again at every call, and psycopg's
``executemany`` costs tens of microseconds of Python a row: together, half the action
log's CPU (docs/load.md, twelfth round)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from sqlalchemy import ColumnElement, Executable, Table, any_, bindparam, func, insert, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from splitpot.store.database import Executor

S = TypeVar("S", bound=Executable)
Among = Callable[[ColumnElement[Any], str], ColumnElement[bool]]  # column, the list's name


def _expanded(column: ColumnElement[Any], name: str) -> ColumnElement[bool]:
    return column.in_(bindparam(name, expanding=True))


def _array(column: ColumnElement[Any], name: str) -> ColumnElement[bool]:
    return column == any_(bindparam(name, type_=ARRAY(column.type)))


def uses_arrays(executor: Executor) -> bool:
    """Whether the transaction's database takes a list as one array (PostgreSQL)."""
    bind = executor.get_bind() if isinstance(executor, Session) else executor
    return bind.dialect.name == "postgresql"


class PerDatabase(Generic[S]):
    """A statement with lists of keys in it, ``among(column, name)`` for each: built once
    with arrays and once with ``IN``; ``on`` gives the one for the transaction's database."""

    def __init__(self, build: Callable[[Among], S]) -> None:
        self._arrays = build(_array)
        self._expanded = build(_expanded)

    def on(self, executor: Executor) -> S:
        return self._arrays if uses_arrays(executor) else self._expanded


class RowsInsert:
    """Rows into ``table``: on PostgreSQL one statement whatever their number, each of
    ``columns`` an array of the rows' values, unnested; elsewhere ``executemany``."""

    def __init__(self, table: Table, columns: Sequence[str]) -> None:
        self._columns = tuple(columns)
        self._each = insert(table)
        arrays = (
            func.unnest(
                *(bindparam(name, type_=ARRAY(table.c[name].type)) for name in self._columns)
            )
            .table_valued(*self._columns)
            .render_derived()
        )
        self._unnested = insert(table).from_select(
            self._columns, select(*(arrays.c[name] for name in self._columns))
        )

    def run(self, executor: Executor, rows: Sequence[Mapping[str, Any]]) -> None:
        if not rows:
            return
        if uses_arrays(executor):
            columns = {name: [row[name] for row in rows] for name in self._columns}
            executor.execute(self._unnested, columns)
        else:
            executor.execute(self._each, list(rows))
