"""Statements run on the transaction's own driver cursor, for the room's hot path (the
action log, and the fence check of every write): each is built once in SQL's core and
compiled once for each database, its parameters go through their types as SQLAlchemy's
would, and the driver's errors come out as SQLAlchemy's. An execution through
SQLAlchemy cost 60 to 70 us of Python here where the statement itself took 5 to 15
(docs/load.md, fourteenth round). Rows come back as the driver reads them, so these
statements select text and integers only."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, Dialect, Executable
from sqlalchemy.engine.interfaces import DBAPIModule
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

T = TypeVar("T")
Executor = Session | Connection  # a transaction: the ORM's, or SQL's core (the hot path)
Build = Callable[[str], Executable]  # a database's name to its form of the statement


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A statement's SQL for one database, and how to pass it its parameters."""

    sql: str
    order: tuple[str, ...] | None  # the parameters' names in place order (SQLite's ?)
    processors: Mapping[str, Callable[[Any], Any]]  # each parameter's type, for the driver

    def bind(self, parameters: Mapping[str, Any]) -> Sequence[Any] | Mapping[str, Any]:
        processed = {
            name: processor(parameters[name]) for name, processor in self.processors.items()
        }
        values = {**parameters, **processed}
        return values if self.order is None else tuple(values[name] for name in self.order)


def _compile(statement: Executable, dialect: Dialect) -> _Compiled:
    assert isinstance(statement, ClauseElement)
    compiled = statement.compile(dialect=dialect)
    assert isinstance(compiled, SQLCompiler)
    processors = {}
    for name, bind in compiled.binds.items():
        # the database's own form of the type, as SQLAlchemy binds it (SQLite's times
        # as text with their microseconds)
        processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
        if processor is not None:
            processors[name] = processor
    order = tuple(compiled.positiontup) if compiled.positiontup is not None else None
    return _Compiled(str(compiled), order, processors)


class DriverStatement:
    """A statement of SQL's core run on the driver's cursor of a transaction (a
    Connection's or a Session's); ``build`` gives it for a database by its name."""

    def __init__(self, build: Build) -> None:
        self._build = build
        self._compiled: dict[str, _Compiled] = {}

    @classmethod
    def of(cls, statement: Executable) -> DriverStatement:
        """The same statement on every database."""
        return cls(lambda _: statement)

    def rows(self, executor: Executor, parameters: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """The statement's rows, as the driver reads them."""
        return self._run(executor, parameters, lambda cursor: list(cursor.fetchall()))

    def run(self, executor: Executor, parameters: Mapping[str, Any]) -> int:
        """Run the statement; the rows it changed."""
        return self._run(executor, parameters, lambda cursor: int(cursor.rowcount))

    def run_many(self, executor: Executor, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run the statement once for each of ``rows`` (the driver's ``executemany``)."""
        self._run(executor, rows, lambda _: None, many=True)

    def _run(
        self, executor: Executor, parameters: Any, answer: Callable[[Any], T], many: bool = False
    ) -> T:
        """Run on the transaction's driver cursor; ``answer`` reads the cursor after. The
        engine's ``before_cursor_execute`` listeners hear of it (what counts statements);
        a driver's error is raised as SQLAlchemy's (an OperationalError is retried by the
        room), a lost connection invalidated so that its pool does not give it out again."""
        connection = executor.connection() if isinstance(executor, Session) else executor
        dialect = connection.dialect
        compiled = self._compiled.get(dialect.name)
        if compiled is None:
            compiled = self._compiled[dialect.name] = _compile(self._build(dialect.name), dialect)
        bound: Any = (
            [compiled.bind(row) for row in parameters] if many else compiled.bind(parameters)
        )
        cursor = None
        try:
            cursor = connection.connection.cursor()
            if connection.dispatch.before_cursor_execute:
                connection.dispatch.before_cursor_execute(
                    connection, cursor, compiled.sql, bound, None, many
                )
            if many:
                cursor.executemany(compiled.sql, bound)
            else:
                cursor.execute(compiled.sql, bound)
            return answer(cursor)
        except dialect.loaded_dbapi.Error as error:
            raise _wrapped(connection, cursor, compiled.sql, bound, error) from error
        finally:
            if cursor is not None:
                cursor.close()


def _wrapped(
    connection: Connection, cursor: Any, sql: str, parameters: Any, error: DBAPIModule.Error
) -> BaseException:
    dialect = connection.dialect
    lost = dialect.is_disconnect(error, connection.connection.dbapi_connection, cursor)
    if lost:
        connection.invalidate(error)
    return DBAPIError.instance(
        sql, parameters, error, dialect.loaded_dbapi.Error, connection_invalidated=lost,
        dialect=dialect,
    )  # fmt: skip
