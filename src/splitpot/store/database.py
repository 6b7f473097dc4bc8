"""Opening the database: the default SQLite file, URL spelling, SQLite's pragmas and
write locks, and the Alembic migrations applied from inside the package."""

from __future__ import annotations

import mmap
import struct
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import StaticPool

from splitpot.store.driver import DriverStatement
from splitpot.store.errors import StoreError

MIGRATIONS = Path(__file__).parent / "migrations"
WRITE = "splitpot_write"  # the execution option that makes a SQLite transaction a writer
SQLITE_BUSY_SECONDS = 10.0


def default_database_path() -> Path:
    """Where the room keeps its SQLite file when no URL is given."""
    return Path(user_data_dir("splitpot")) / "room.sqlite3"


def default_url() -> str:
    return f"sqlite:///{default_database_path()}"


def normalise_url(url: str) -> URL:
    """Parse an SQLAlchemy URL; plain ``postgresql://`` (or ``postgres://``) means the
    psycopg 3 driver."""
    try:
        parsed = make_url(url)
    except Exception as error:  # SQLAlchemy raises ArgumentError with a terse text
        raise StoreError(f"not a database URL: {url!r}") from error
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise StoreError(f"unsupported database {backend!r} in {url!r}: use sqlite or postgresql")
    return parsed


def create_store_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, foreign keys, a busy timeout, and
    ``BEGIN IMMEDIATE`` for writers so two writers queue instead of failing mid-way."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() == "postgresql":
        # No pre-ping: a round trip on every transaction; the room retries a call whose
        # connection went away (server.room.Room.db).
        return create_engine(parsed)
    if _in_memory(parsed):
        return _sqlite_engine(parsed, SQLITE_BUSY_SECONDS, in_memory=True)
    Path(str(parsed.database)).expanduser().parent.mkdir(parents=True, exist_ok=True)
    return _sqlite_engine(parsed, SQLITE_BUSY_SECONDS)


def _in_memory(url: URL) -> bool:
    """A SQLite URL of a database in memory (no file named)."""
    return url.database in (None, "", ":memory:")


def never_waiting_writer(engine: Engine) -> Engine | None:
    """For a SQLite file, a writer that never waits: a write lock another connection holds
    is an error at once (no busy timeout), and its commits never checkpoint the WAL (the
    other connections do, at their commits), so a commit is a write into the system's page
    cache. The event loop may write on it (docs/store.md). None for PostgreSQL, whose
    answers come over the network, and for SQLite in memory (one connection for all)."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or _in_memory(url):
        return None
    return _sqlite_engine(url, 0.0, checkpoints=False).execution_options(**{WRITE: True})


class WalIndex:
    """What SQLite's WAL index (the ``-shm`` file beside the database) says of the log,
    read from its documented layout (sqlite.org/walformat.html, 2.2): the frames in
    the log (``mxFrame``, at byte 16 of the header's first copy) and those copied into
    the database (``nBackfill``, at byte 96), in the machine's byte order."""

    _WORD = struct.Struct("=I")
    _FRAMES_AT, _COPIED_AT, _READ = 16, 96, 136  # the bytes read: both copies, the counts

    def __init__(self, database: Path) -> None:
        self._path = database.with_name(database.name + "-shm")
        self._map: mmap.mmap | None = None

    def restarts_next(self) -> bool:
        """Whether the next frame written starts the log again: it was all copied into
        the database (or holds nothing). In that write SQLite syncs the log's new header
        to the disk (``synchronous=NORMAL``); read inside a write transaction, where no
        other writer can change it. True when the index cannot be read (the safe side)."""
        if self._map is None:
            try:
                with self._path.open("rb") as index:
                    self._map = mmap.mmap(index.fileno(), self._READ, access=mmap.ACCESS_READ)
            except (OSError, ValueError):
                return True
        frames: int = self._WORD.unpack_from(self._map, self._FRAMES_AT)[0]
        copied: int = self._WORD.unpack_from(self._map, self._COPIED_AT)[0]
        return frames == copied

    def close(self) -> None:
        if self._map is not None:
            self._map.close()
            self._map = None


def _sqlite_engine(
    url: URL, busy_seconds: float, *, in_memory: bool = False, checkpoints: bool = True
) -> Engine:
    connect_args: dict[str, Any] = {"timeout": busy_seconds}
    options: dict[str, Any] = {}
    if in_memory:  # one connection for every thread: the database lives in it
        connect_args["check_same_thread"] = False
        options["poolclass"] = StaticPool
    engine = create_engine(url, connect_args=connect_args, **options)
    connect = _sqlite_connect if checkpoints else _sqlite_connect_uncheckpointed
    event.listen(engine, "connect", connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL, NORMAL survives a crash of the process (kill -9) with every commit; only a
    # power loss may lose the last ones. FULL would sync the disk on every action.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_connect_uncheckpointed(dbapi_connection: Any, record: Any) -> None:
    _sqlite_connect(dbapi_connection, record)
    dbapi_connection.execute("PRAGMA wal_autocheckpoint=0")


_BEGIN_WRITE = DriverStatement.of(text("BEGIN IMMEDIATE"))
_BEGIN_READ = DriverStatement.of(text("BEGIN"))


def _sqlite_begin(connection: Connection) -> None:
    """Begin on the driver's cursor (SQLAlchemy's own execution of it cost about 30 us a
    transaction, docs/load.md, fourteenth round)."""
    writer = connection.get_execution_options().get(WRITE, False)
    (_BEGIN_WRITE if writer else _BEGIN_READ).run(connection, {})


def newest_revision() -> str:
    """The newest migration's revision: its file's number (``0005_audits.py`` is "0005")."""
    return max(path.name.partition("_")[0] for path in (MIGRATIONS / "versions").glob("0*_*.py"))


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None: a new database)."""
    with engine.connect() as connection:
        try:
            return connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
        except DBAPIError:
            return None


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration (no alembic.ini needed). A database
    already there is left alone without loading Alembic (a third of a second of every
    room's start)."""
    if current_revision(engine) == newest_revision():
        return
    from alembic import command  # only when there is something to do
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.execution_options(**{WRITE: True}).begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
