"""Store fixtures, shared with the server's tests: ``database_url`` is a fresh database,
migrated and of a room of its own, once SQLite (a temporary file) and once PostgreSQL (a
database made for the test on the server of $SPLITPOT_TEST_POSTGRES, dropped after); each
is a copy of a database migrated once per test process, quicker than migrating anew.
``store`` is a Store on it and ``make_store`` opens more; ``SETUP`` (a hand's setup) and
``table_with_players`` and ``hand_in_play`` are what the store's tests deal and seat,
``chips`` what they count.

Without a PostgreSQL server the PostgreSQL runs are skipped, unless
SPLITPOT_REQUIRE_POSTGRES=1, which makes them fail instead. Use them by naming this module in
``pytest_plugins`` (tests/test_store.py does)."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from services import missing
from sqlalchemy import Connection, Engine, create_engine, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import OperationalError

from splitpot.store import Store, normalise_url, open_store

POSTGRES_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"
REQUIRED = "SPLITPOT_REQUIRE_POSTGRES"
BACKENDS = ("sqlite", "postgresql")
SETUP = {"button": 1, "seats": [1, 2], "deck": ["As", "Kd", "7c"]}  # a hand as the store keeps it


def cheap_hasher() -> PasswordHasher:
    """argon2 at its smallest cost: tests check behaviour, not the cost of guessing."""
    return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


_template: list[str] = []  # this process's migrated database, copied for each test


def _migrated_template(admin: Engine, server: URL) -> str:
    """A database with the migrations applied, made once per test process (and dropped
    when it ends): a test's database is a copy of it, quicker than migrating anew."""
    if not _template:
        name = f"splitpot_template_{secrets.token_hex(6)}"
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        atexit.register(_drop, server, name)
        open_store(server.set(database=name).render_as_string(hide_password=False)).close()
        _template.append(name)
    return _template[0]


def _drop(server: URL, name: str) -> None:
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()


_sqlite_template: list[Path] = []  # this process's migrated SQLite file, copied for each test


def fresh_sqlite_database(path: Path) -> str:
    """A migrated SQLite database at ``path`` (a copy of this process's template, made
    once and removed when it ends), with a room id of its own: its URL."""
    if not _sqlite_template:
        folder = Path(tempfile.mkdtemp(prefix="splitpot_template_"))
        atexit.register(shutil.rmtree, folder, True)
        template = folder / "template.sqlite3"
        open_store(f"sqlite:///{template}").close()  # closed: its WAL is written back
        _sqlite_template.append(template)
    shutil.copyfile(_sqlite_template[0], path)
    with sqlite3.connect(path) as copy:
        copy.execute("UPDATE room SET id = ?", (secrets.token_hex(8),))
    copy.close()
    return f"sqlite:///{path}"


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """Create ``splitpot_test_<random>`` on the test server (migrated: a copy of this
    process's template), yield its URL, drop it."""
    server = normalise_url(os.environ.get("SPLITPOT_TEST_POSTGRES", POSTGRES_DEFAULT))
    admin = create_engine(server, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5})
    name = f"splitpot_test_{secrets.token_hex(6)}"
    try:
        template = _migrated_template(admin, server)
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    except OperationalError as error:
        admin.dispose()
        missing(f"no PostgreSQL at {server.render_as_string()}: {error.orig}", REQUIRED)
    url = server.set(database=name)
    copy = create_engine(url)  # a room of its own, not the template's
    with copy.begin() as connection:
        connection.exec_driver_sql(f"UPDATE room SET id = '{secrets.token_hex(8)}'")
    copy.dispose()
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        admin.dispose()
        _drop(server, name)


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield fresh_sqlite_database(tmp_path / "room.sqlite3")
    else:
        with fresh_postgres_database() as url:
            yield url


StoreFactory = Callable[..., Store]


@pytest.fixture
def make_store(database_url: str) -> Iterator[StoreFactory]:
    """Open (and at the end close) stores on the test's database, as a restarted room
    would; keyword arguments go to open_store (e.g. ``clock=``)."""
    opened: list[Store] = []

    def make(**options: Any) -> Store:
        options.setdefault("password_hasher", cheap_hasher())
        opened.append(open_store(database_url, **options))
        return opened[-1]

    yield make
    for each in opened:
        each.close()


@pytest.fixture
def store(make_store: StoreFactory) -> Store:
    return make_store()


def at_once(work: Callable[..., None], calls: Iterable[tuple[Any, ...]]) -> list[BaseException]:
    """``work`` with each of ``calls``' arguments in a thread of its own, all at once (as
    processes writing one database); what they raised, in the test's thread."""
    errors: list[BaseException] = []

    def run(*args: Any) -> None:
        try:
            work(*args)
        except BaseException as error:  # reported to the caller
            errors.append(error)

    threads = [threading.Thread(target=run, args=args) for args in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def until_a_transaction_waits_on_a_lock(watcher: Connection, deadline: float = 30.0) -> None:
    """Wait until a transaction on the watcher's PostgreSQL database waits on a lock."""
    waiting = text(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    give_up = time.monotonic() + deadline
    while watcher.execute(waiting).scalar_one() == 0:
        assert time.monotonic() < give_up, "no transaction waited on a lock"
        watcher.rollback()
        time.sleep(0.01)


def table_with_players(store: Store, *buy_ins: int) -> tuple[str, list[int]]:
    """A table with one guest per buy-in, seated from seat 1."""
    host = store.create_guest("Host").player.id
    table, _ = store.create_table("Home game", {"seats": 9, "variant": "o8"}, host)
    ids = []
    for seat, chips in enumerate(buy_ins, start=1):
        player = store.create_guest(f"P{seat}").player.id
        store.sit(table.id, seat, player, chips)
        ids.append(player)
    return table.id, ids


def hand_in_play(store: Store) -> str:
    """A hand just started at a new table of two players (100 chips each): its id."""
    return store.start_hand(table_with_players(store, 100, 100)[0], SETUP).id


def sqlite_file(store: Store, why: str) -> Path:
    """The store's SQLite file; the test is skipped on another database (``why``)."""
    if store.engine.dialect.name != "sqlite":
        pytest.skip(why)
    return Path(str(store.engine.url.database))


def chips(store: Store, table_id: str) -> dict[int, int]:
    """Each seated player's chips at the table, by player id."""
    return {seat.player_id: seat.chips for seat in store.seats(table_id)}
