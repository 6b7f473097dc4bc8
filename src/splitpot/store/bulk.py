"""Statements about many rows at once, built once for each kind of database: a list of
keys is one parameter whatever its length, a PostgreSQL array (``= ANY``) or, on
SQLite, a JSON array (``IN json_each``), and rows are inserted from arrays (``unnest``)
in one PostgreSQL statement where SQLite takes ``executemany``. An expanded ``IN`` is
compiled again at every call, and psycopg's ``executemany`` costs tens of microseconds
of Python a row: together, half the action log's CPU (docs/load.md, twelfth round)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from sqlalchemy import JSON, ColumnElement, Executable, Table, any_, bindparam, func, insert, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from splitpot.store.driver import DriverStatement, Executor

S = TypeVar("S", bound=Executable)
Among = Callable[[ColumnElement[Any], str], ColumnElement[bool]]  # column, the list's name
POSTGRESQL = "postgresql"


def _json_array(column: ColumnElement[Any], name: str) -> ColumnElement[bool]:
    values = func.json_each(bindparam(name, type_=JSON)).table_valued("value")
    return column.in_(select(values.c.value))


def _array(column: ColumnElement[Any], name: str) -> ColumnElement[bool]:
    return column == any_(bindparam(name, type_=ARRAY(column.type)))


def database_of(executor: Executor) -> str:
    """The name of the transaction's database ("postgresql", "sqlite")."""
    bind = executor.get_bind() if isinstance(executor, Session) else executor
    return bind.dialect.name


class PerDatabase(Generic[S]):
    """A statement with lists of keys in it, ``among(column, name)`` for each: built once
    with PostgreSQL's arrays and once with SQLite's; ``on`` gives the one for the
    transaction's database, ``driver`` runs it on the driver's cursor."""

    def __init__(self, build: Callable[[Among], S]) -> None:
        self._arrays = build(_array)
        self._json_arrays = build(_json_array)
        self.driver = DriverStatement(self.for_database)

    def for_database(self, name: str) -> S:
        return self._arrays if name == POSTGRESQL else self._json_arrays

    def on(self, executor: Executor) -> S:
        return self.for_database(database_of(executor))


class RowsInsert:
    """Rows into ``table``, on the driver's cursor: on PostgreSQL one statement whatever
    their number, each of ``columns`` an array of the rows' values, unnested; elsewhere
    ``executemany``."""

    def __init__(self, table: Table, columns: Sequence[str]) -> None:
        self._columns = tuple(columns)
        arrays = (
            func.unnest(
                *(bindparam(name, type_=ARRAY(table.c[name].type)) for name in self._columns)
            )
            .table_valued(*self._columns)
            .render_derived()
        )
        self._unnested = DriverStatement.of(
            insert(table).from_select(
                self._columns, select(*(arrays.c[name] for name in self._columns))
            )
        )
        self._each = DriverStatement.of(
            insert(table).values(
                {name: bindparam(name, type_=table.c[name].type) for name in self._columns}
            )
        )

    def run(self, executor: Executor, rows: Sequence[Mapping[str, Any]]) -> None:
        if not rows:
            return
        if database_of(executor) == POSTGRESQL:  # a list is one array
            columns = {name: [row[name] for row in rows] for name in self._columns}
            self._unnested.run(executor, columns)
        else:
            self._each.run_many(executor, rows)
