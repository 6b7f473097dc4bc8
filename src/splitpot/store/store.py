"""The Store: the room's system of record. Every public call is one short transaction
(synchronous: the server calls it from a worker thread) and returns plain values."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from sqlalchemy import Connection, Engine, select
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session

from splitpot.room.director import Decision, TournamentState
from splitpot.room.schedule import Weekly
from splitpot.room.tournament_settings import TournamentSettings
from splitpot.store import (
    audits,
    club_games,
    club_ledger,
    clubs,
    hands,
    leases,
    ledger,
    notes,
    players,
    tables,
    tournaments,
)
from splitpot.store.database import (
    WRITE,
    WalIndex,
    create_store_engine,
    default_url,
    migrate,
    never_waiting_writer,
)
from splitpot.store.driver import Executor
from splitpot.store.errors import FencedOut, StoreError
from splitpot.store.models import RoomRow
from splitpot.store.values import (
    ActionEntry,
    Audit,
    AuditedHand,
    HandEnd,
    HandLog,
    HandSelection,
    HandStart,
    Hosting,
    Identity,
    LedgerJSON,
    LedgerTotals,
    LoggedAction,
    Note,
    Payment,
    Player,
    SeatRecord,
    SeatRecordStatus,
    StoredHand,
    TableOrders,
    TableRecord,
    TournamentRecord,
    TournamentResult,
    TournamentTableRecord,
)

Clock = Callable[[], datetime]


@dataclass
class Holder:
    """The leases one room process holds: its name, each table's fencing number, and
    each tournament's (its director's)."""

    owner: str
    fences: dict[str, int] = field(default_factory=dict)
    tournaments: dict[int, int] = field(default_factory=dict)


def utc_now() -> datetime:
    return datetime.now(UTC)


@contextmanager
def _refusals() -> Iterator[None]:
    """A write the database refuses (a broken constraint) as the store's own error."""
    try:
        yield
    except IntegrityError as error:
        raise StoreError(f"the database refused the change: {error.orig}") from error


def _locked(error: DBAPIError) -> bool:
    """SQLite's answer when another connection holds the write lock."""
    return getattr(error.orig, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY


def open_store(
    url: str | None = None,
    *,
    password_hasher: PasswordHasher | None = None,
    clock: Clock = utc_now,
) -> Store:
    """Connect to ``url`` (default: the SQLite file of default_database_path()), apply the
    migrations, and return the store. ``postgresql://`` URLs use psycopg 3."""
    engine = create_store_engine(url or default_url())
    migrate(engine)
    return Store(engine, password_hasher or PasswordHasher(), clock)


class _Kept:
    """A connection kept from one call to the next, for the room's hot path: taking one
    from the pool and giving it back cost 25 us, as much as a batch's statements
    (docs/load.md, fourteenth round). A call while another thread has it gets one of its
    own; a database error gives it up (it may be lost; SQLite's lock held by another
    writer leaves it sound, and kept), as does a connection invalidated (reconnected in
    place it would lose its autocommit), and the next call takes another."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._lock = threading.Lock()
        self._connection: Connection | None = None

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        if not self._lock.acquire(blocking=False):
            with self.engine.connect() as connection:
                yield connection
            return
        try:
            if self._connection is None:
                self._connection = self.engine.connect()
            yield self._connection
        except DBAPIError as error:
            if not _locked(error):
                self._give_up()
            raise
        finally:
            if self._connection is not None and self._connection.invalidated:
                self._give_up()  # reconnected in place, it would lose its options
            self._lock.release()

    def close(self) -> None:
        with self._lock:
            self._give_up()

    def _give_up(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


class _WithoutWaiting:
    """The never-waiting writer's connection, and the WAL index it reads before it writes
    (SQLite's file)."""

    def __init__(self, engine: Engine) -> None:
        self.kept = _Kept(engine)
        self.wal = WalIndex(Path(str(engine.url.database)).resolve())  # as SQLite finds it

    def close(self) -> None:
        self.kept.close()
        self.kept.engine.dispose()  # an engine of its own
        self.wal.close()


class _WouldSync(Exception):
    """A write that would sync the disk: left to the store's thread."""


class Store:
    """The database behind the room: players and sessions, tables and seats, hands and
    their logs, and the chip ledger."""

    def __init__(self, engine: Engine, password_hasher: PasswordHasher, clock: Clock) -> None:
        self.engine = engine
        self._writer = engine.execution_options(**{WRITE: True})
        # the hot path's connections, kept from one write to the next
        self._kept_writer = _Kept(self._writer)
        self._kept_at_once = _Kept(engine.execution_options(isolation_level="AUTOCOMMIT"))
        # SQLite's file: the action log tried on the caller's thread, never waiting
        never_waiting = never_waiting_writer(engine)
        self._without_waiting = None if never_waiting is None else _WithoutWaiting(never_waiting)
        self._hasher = password_hasher
        self._clock = clock
        self.holder: Holder | None = None  # set when the process runs tables under leases
        # PostgreSQL takes writes on several connections at once; SQLite one writer at a time
        self.concurrent_writes = engine.dialect.name == "postgresql"

    @property
    def writes_without_waiting(self) -> bool:
        """Whether ``append_actions_now`` can write (SQLite's file)."""
        return self._without_waiting is not None

    def close(self) -> None:
        self._kept_writer.close()
        self._kept_at_once.close()
        if self._without_waiting is not None:
            self._without_waiting.close()
        self.engine.dispose()

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    @contextmanager
    def _write(self, *for_tables: str, tournament: int | None = None) -> Iterator[Session]:
        """One transaction: all of it is written, or (on any error) none of it. A write for
        tables (``for_tables``) or for a tournament's director (``tournament``) is refused,
        when this process holds leases, unless it still holds each of them (their fencing
        numbers are checked first, in the transaction)."""
        with (
            _refusals(),
            Session(self._writer, expire_on_commit=False) as session,
            session.begin(),
        ):
            self._check_fences(session, for_tables)
            if self.holder is not None and tournament is not None:
                fence = self.holder.tournaments.get(tournament)
                if fence is None:
                    raise leases.TournamentFencedOut(
                        tournament, f"this process does not run tournament {tournament}"
                    )
                leases.check_tournament_fence(session, tournament, fence)
            yield session

    @contextmanager
    def _write_core(self, *for_tables: str, kept: _Kept | None = None) -> Iterator[Connection]:
        """``_write`` without the ORM's session, for the room's hot path (every action,
        every hand): its statements are built once and run in SQL's core, on a connection
        kept from one write to the next (``kept``, the writer's by default)."""
        kept = kept or self._kept_writer
        with _refusals(), kept.connection() as connection, connection.begin():
            self._check_fences(connection, for_tables)
            yield connection

    def _check_fences(self, executor: Executor, for_tables: Sequence[str]) -> None:
        """When this process holds leases: refused unless it holds each table's."""
        if fences := self._fences(for_tables):
            leases.check_fences(executor, fences)

    def _fences(self, for_tables: Sequence[str]) -> dict[str, int]:
        """Each table's fencing number, when this process holds leases (none when it
        does not); refused at once for a table it does not hold."""
        if self.holder is None:
            return {}
        fences: dict[str, int] = {}
        for table_id in sorted(set(for_tables)):
            fence = self.holder.fences.get(table_id)
            if fence is None:
                raise FencedOut(table_id, f"this process does not run table {table_id}")
            fences[table_id] = fence
        return fences

    # Players and sessions

    def create_guest(self, name: str) -> Identity:
        with self._write() as s:
            return players.add_player(s, name, None, self._hasher, self._clock())

    def create_account(self, name: str, password: str) -> Identity:
        with self._write() as s:
            return players.add_player(s, name, password, self._hasher, self._clock())

    def log_in(self, name: str, password: str) -> Identity:
        with self._write() as s:
            return players.log_in(s, name, password, self._hasher, self._clock())

    def log_out(self, token: str) -> bool:
        with self._write() as s:
            return players.revoke(s, token)

    def player_for_token(self, token: str) -> Player | None:
        with self._read() as s:
            return players.player_for_token(s, token)

    def player(self, player_id: int) -> Player:
        with self._read() as s:
            return players.player_value(players.get_player(s, player_id))

    # Tables and seats

    def create_table(
        self, name: str, settings: dict[str, Any], host_id: int, *, private: bool = False
    ) -> tuple[TableRecord, str | None]:
        hands.check_json(settings, "the table's settings")
        with self._write() as s:
            return tables.create_table(s, name, settings, host_id, private, self._clock())

    def change_table(
        self, table_id: str, settings: Mapping[str, Any], host_id: int | None = None
    ) -> TableRecord:
        """A host's changes, kept across restarts: settings merged into the stored ones
        (stakes, paused), and the host role passed to ``host_id``."""
        hands.check_json(dict(settings), "the table's settings")
        with self._write(table_id) as s:
            return tables.change_table(s, table_id, settings, host_id)

    def table(self, table_id: str) -> TableRecord:
        with self._read() as s:
            return tables.table_value(tables.get_table(s, table_id))

    def list_tables(
        self, *, include_private: bool = False, include_closed: bool = False
    ) -> list[TableRecord]:
        with self._read() as s:
            return tables.list_tables(s, include_private, include_closed)

    def tables_of(self, player_id: int) -> list[str]:
        """The open tables where the player sits (a hello's tables, in any process)."""
        with self._read() as s:
            return tables.tables_of(s, player_id)

    def hosting(self, player_id: int) -> Hosting:
        """The tables the player hosts, in every process of the room (made: in the last
        24 hours)."""
        with self._read() as s:
            return tables.hosting(s, player_id, self._clock() - timedelta(hours=24))

    def room_id(self) -> str:
        """The id of the room this database records (made by its migrations)."""
        with self._read() as s:
            return str(s.scalars(select(RoomRow.id)).one())

    def check_invite(self, table_id: str, invite: str) -> bool:
        with self._read() as s:
            return tables.invite_matches(s, table_id, invite)

    def new_invite(self, table_id: str) -> str:
        """A private table's new invite; the old one no longer lets anyone in."""
        with self._write(table_id) as s:
            return tables.new_invite(s, table_id)

    def ban(self, table_id: str, player_id: int) -> None:
        with self._write(table_id) as s:
            tables.ban(s, table_id, player_id, self._clock())

    def bans(self, table_id: str) -> frozenset[int]:
        with self._read() as s:
            return tables.bans(s, table_id)

    def bot_seats(self) -> int:
        """Seats bots hold at open tables in the whole room (the house's table aside)."""
        with self._read() as s:
            return tables.bot_seats(s)

    def close_table(self, table_id: str) -> dict[int, int]:
        """Cash everyone out (each a ``cash_out``, as ``leave``) and close the table:
        it comes back only when its host reopens it."""
        with self._write(table_id) as s:
            return tables.close_table(s, table_id, self._clock())

    def end_session(self, table_id: str) -> Audit | None:
        """End the table's session: its hands since the last audit are published with
        every salt (FAIRNESS.md); None when no hand was dealt since."""
        with self._write(table_id) as s:
            return audits.end_session(s, table_id, self._clock())

    def audits(self, table_id: str) -> list[Audit]:
        with self._read() as s:
            return audits.audits(s, table_id)

    def audited_hands(self, table_id: str, number: int) -> tuple[Audit, list[AuditedHand]]:
        with self._read() as s:
            return audits.audited_hands(s, table_id, number)

    def reopen_table(self, table_id: str) -> TableRecord:
        """A closed table open again (no process runs it: it is claimed after)."""
        with self._write() as s:
            return tables.reopen_table(s, table_id)

    def seats(self, table_id: str) -> list[SeatRecord]:
        with self._read() as s:
            return tables.seats(s, table_id)

    def sit(
        self,
        table_id: str,
        seat: int,
        player_id: int,
        buy_in: int,
        status: SeatRecordStatus = SeatRecordStatus.WAITING,
    ) -> SeatRecord:
        with self._write(table_id) as s:
            return tables.sit(s, table_id, seat, player_id, buy_in, status, self._clock())

    def top_up(self, table_id: str, player_id: int, chips: int) -> SeatRecord:
        with self._write(table_id) as s:
            return tables.top_up(s, table_id, player_id, chips, self._clock())

    def edit_stack(
        self,
        table_id: str,
        player_id: int,
        chips: int,
        author_id: int,
        settled: str | None = None,
    ) -> SeatRecord:
        """The host's stack edit: ``chips`` added (taken, below 0), ``author_id`` its
        author; ``settled``: the table document's key of the queued edit it settles."""
        with self._write(table_id) as s:
            now = self._clock()
            return tables.edit_stack(s, table_id, player_id, chips, author_id, now, settled)

    def set_seat_status(
        self, table_id: str, player_id: int, status: SeatRecordStatus
    ) -> SeatRecord:
        with self._write(table_id) as s:
            return tables.set_status(s, table_id, player_id, status)

    def leave(self, table_id: str, player_id: int) -> int:
        with self._write(table_id) as s:
            return tables.leave(s, table_id, player_id, self._clock())

    # Leases (store/leases.py)

    def hold_leases(self, owner: str) -> Holder:
        """From now on this store writes for a table only while ``owner`` holds it."""
        self.holder = Holder(owner)
        return self.holder

    def claim_table(self, table_id: str, ttl: float) -> bool:
        """Take the table for ``ttl`` seconds unless another process holds it."""
        assert self.holder is not None, "hold_leases first"
        try:
            with self._write() as s:
                fence = leases.claim(s, table_id, self.holder.owner, ttl, self._clock())
        except StoreError:  # another process made the table's first lease at the same time
            return False
        if fence is not None:
            self.holder.fences[table_id] = fence
        return fence is not None

    def renew_leases(self, ttl: float) -> set[str]:
        """Extend every lease held; the tables lost to another process (forgotten here)."""
        assert self.holder is not None, "hold_leases first"
        held = dict(self.holder.fences)  # the room's thread adds and drops tables meanwhile
        with self._write() as s:
            lost = leases.renew(s, self.holder.owner, held, ttl, self._clock())
        for table_id in lost:
            if self.holder.fences.get(table_id) == held[table_id]:
                del self.holder.fences[table_id]
        return lost

    def release_table(self, table_id: str) -> None:
        """Give up the table's lease: another process may take it at once."""
        assert self.holder is not None, "hold_leases first"
        fence = self.holder.fences.pop(table_id, None)
        if fence is not None:
            with self._write() as s:
                leases.release(s, table_id, self.holder.owner, fence, self._clock())

    def free_tables(self) -> list[str]:
        """Open tables no process holds (never leased, released, or lapsed)."""
        with self._read() as s:
            return leases.free_tables(s, self._clock())

    # Hands

    def start_hand(self, table_id: str, setup: dict[str, Any]) -> StoredHand:
        return self.start_hands([(table_id, setup)])[0]

    def start_hands(self, starts: Sequence[HandStart]) -> list[StoredHand]:
        """Several tables' next hands, each (table id, setup), in one transaction: all of
        them, or (on any error) none."""
        with self._write_core(*(table_id for table_id, _ in starts)) as connection:
            return hands.start_hands(connection, starts, self._clock())

    def append_action(
        self, hand_id: str, seat: int, kind: str, amount: int | None = None, seq: int | None = None
    ) -> LoggedAction:
        return self.append_actions([(hand_id, seat, kind, amount, seq)])[0]

    def append_actions(self, actions: Sequence[ActionEntry]) -> list[LoggedAction]:
        """Log several actions, of one hand or of many, in one transaction: all of them, or
        (on any error) none. Each is (hand id, seat, kind, amount, seq or None). On
        PostgreSQL a batch of numbered actions is first tried in one statement
        (``hands.append_actions_at_once``: one answer to wait for instead of six)."""
        tables = [hands.table_of(entry[0]) for entry in actions]
        now = self._clock()
        if self.concurrent_writes:
            fences = self._fences(tables)
            with self._kept_at_once.connection() as connection:
                logged = hands.append_actions_at_once(connection, actions, fences, now)
            if logged is not None:
                return logged
        with self._write_core(*tables) as connection:
            return hands.append_actions(connection, actions, now)

    def append_actions_now(self, actions: Sequence[ActionEntry]) -> list[LoggedAction] | None:
        """``append_actions`` if it needs no waiting: on SQLite's file with its write lock
        free, on the never-waiting writer (the event loop logs so, with no thread to wake:
        docs/store.md). None when it would wait (another writer has the lock, the write
        would start the WAL again and sync its header to the disk, the database is not
        SQLite's file, or is away): nothing is written."""
        if self._without_waiting is None:
            return None
        tables = [hands.table_of(entry[0]) for entry in actions]
        try:
            with self._write_core(*tables, kept=self._without_waiting.kept) as connection:
                if self._without_waiting.wal.restarts_next():  # known once the lock is held
                    raise _WouldSync
                return hands.append_actions(connection, actions, self._clock())
        except (OperationalError, _WouldSync):
            return None  # the store's thread waits for the lock, syncs, or retries

    def finish_hand(
        self, hand_id: str, record: dict[str, Any], results: Mapping[int, int], rake: int = 0
    ) -> StoredHand:
        return self.finish_hands([(hand_id, record, results, rake)])[0]

    def finish_hands(self, ends: Sequence[HandEnd]) -> list[StoredHand]:
        """Several hands finished, each (hand id, record, results, rake), in one
        transaction: all of them, or (on any error) none."""
        with self._write_core(*(hands.table_of(end[0]) for end in ends)) as connection:
            return hands.finish_hands(connection, ends, self._clock())

    def cancel_hand(self, hand_id: str) -> StoredHand:
        with self._write(hands.table_of(hand_id)) as s:
            return hands.cancel_hand(s, hand_id, self._clock())

    def hand(self, hand_id: str) -> StoredHand:
        with self._read() as s:
            return hands.hand_value(s, hands.get_hand(s, hand_id))

    def hand_log(self, hand_id: str) -> HandLog:
        with self._read() as s:
            return hands.hand_log(s, hands.get_hand(s, hand_id))

    def table_hands(self, table_id: str, limit: int = 50) -> list[StoredHand]:
        with self._read() as s:
            return hands.table_hands(s, table_id, limit)

    def finished_hands(self, table_id: str, wanted: HandSelection) -> list[StoredHand]:
        """The table's finished hands that ``wanted`` picks, newest first."""
        with self._read() as s:
            return hands.finished_hands(s, table_id, wanted)

    def unfinished_hands(self) -> list[HandLog]:
        with self._read() as s:
            return hands.unfinished_hands(s)

    # The ledger

    def balance(self, player_id: int) -> int:
        with self._read() as s:
            players.get_player(s, player_id)
            return ledger.balance_of(s, player_id)

    def ledger_for(self, player_id: int) -> LedgerJSON:
        with self._read() as s:
            players.get_player(s, player_id)
            return ledger.ledger_for(s, player_id)

    def table_ledger_csv(self, table_id: str) -> str:
        with self._read() as s:
            tables.get_table(s, table_id)
            return ledger.table_ledger_csv(s, table_id)

    def table_sit_downs_csv(self, table_id: str) -> str:
        with self._read() as s:
            tables.get_table(s, table_id)
            return ledger.table_sit_downs_csv(s, table_id)

    def table_stats(self, table_id: str) -> ledger.TableStats:
        with self._read() as s:
            tables.get_table(s, table_id)
            return ledger.table_stats(s, table_id)

    def seated_at(self, table_id: str, moment: datetime) -> dict[str, int]:
        """The player id of each name seated at the table at ``moment`` (a hand's start)."""
        with self._read() as s:
            return ledger.seated_at(s, table_id, moment)

    def settle(self, table_id: str) -> list[Payment]:
        with self._read() as s:
            tables.get_table(s, table_id)
            return ledger.settle(s, table_id)

    def check_invariant(self) -> LedgerTotals:
        with self._read() as s:
            return ledger.check_invariant(s)

    # ---- notes (issue 24)

    def notes_of(self, owner_id: int) -> list[Note]:
        """The player's private notes on others (read for their owner only)."""
        with self._read() as s:
            return notes.notes_of(s, owner_id)

    def keep_note(
        self, owner_id: int, subject_id: int, text: str, colour: str | None
    ) -> Note | None:
        """Write the owner's note on the subject (store/notes.py checks each part); an
        empty text with no colour deletes it (None)."""
        with self._write() as s:
            return notes.keep_note(s, owner_id, subject_id, text, colour, self._clock())

    def drop_note(self, owner_id: int, subject_id: int) -> bool:
        """Delete the owner's note on the subject; True if there was one."""
        with self._write() as s:
            return notes.drop_note(s, owner_id, subject_id)

    # ---- statistics (issue 24)

    def session_start(self, table_id: str) -> int:
        """The number of the first hand of the table's session (``hands.session_start``)."""
        with self._read() as s:
            return hands.session_start(s, table_id)

    def hands_from(self, table_id: str, first: int, most: int) -> list[StoredHand]:
        """The table's newest ``most`` finished hands numbered ``first`` on, newest first."""
        with self._read() as s:
            return hands.hands_from(s, table_id, first, most)

    def player_tables(self, player_id: int) -> list[str]:
        """The tables where the player was dealt a hand."""
        with self._read() as s:
            players.get_player(s, player_id)
            return hands.player_tables(s, player_id)

    def player_hands(self, player_id: int, table_ids: Sequence[str], most: int) -> list[StoredHand]:
        """The newest ``most`` finished hands the player was dealt at ``table_ids``."""
        with self._read() as s:
            return hands.player_hands(s, player_id, table_ids, most)

    # ---- clubs (issue 24)

    def now(self) -> datetime:
        """The store's clock (a weekly game is due by it)."""
        return self._clock()

    def create_club(self, name: str, membership: str, owner_id: int) -> tuple[clubs.Club, str]:
        """A new club owned by ``owner_id``, and its invite code (shown once)."""
        with self._write() as s:
            return clubs.create_club(s, name, membership, owner_id, self._clock())

    def club(self, club_id: str, viewer_id: int) -> clubs.Club:
        with self._read() as s:
            return clubs.club(s, club_id, viewer_id)

    def clubs_of(self, player_id: int) -> list[clubs.Club]:
        with self._read() as s:
            return clubs.clubs_of(s, player_id)

    def change_club(
        self, club_id: str, actor_id: int, name: str | None, membership: str | None
    ) -> clubs.Club:
        with self._write() as s:
            return clubs.change_club(s, club_id, actor_id, name, membership, self._clock())

    def new_club_invite(self, club_id: str, actor_id: int) -> str:
        with self._write() as s:
            return clubs.new_club_invite(s, club_id, actor_id, self._clock())

    def join_club(self, club_id: str, player_id: int, code: str | None) -> clubs.Club:
        with self._write() as s:
            return clubs.join(s, club_id, player_id, code, self._clock())

    def leave_club(self, club_id: str, player_id: int) -> None:
        with self._write() as s:
            clubs.leave(s, club_id, player_id, self._clock())

    def club_command(self, club_id: str, player_id: int, command: str) -> clubs.Club:
        """The club, if the player may give ``command`` there (``clubs.COMMANDS``)."""
        with self._read() as s:
            return clubs.club_value(s, clubs.allowed(s, club_id, player_id, command), player_id)

    def club_members(self, club_id: str, viewer_id: int) -> list[clubs.Member]:
        with self._read() as s:
            return clubs.members(s, club_id, viewer_id)

    def answer_club_request(
        self, club_id: str, actor_id: int, player_id: int, approve: bool
    ) -> clubs.Member | None:
        with self._write() as s:
            return clubs.answer_request(s, club_id, actor_id, player_id, approve, self._clock())

    def remove_club_member(self, club_id: str, actor_id: int, player_id: int) -> None:
        with self._write() as s:
            clubs.remove(s, club_id, actor_id, player_id, self._clock())

    def set_club_role(self, club_id: str, actor_id: int, player_id: int, role: str) -> clubs.Member:
        with self._write() as s:
            return clubs.set_role(s, club_id, actor_id, player_id, role, self._clock())

    def club_log(self, club_id: str, viewer_id: int, limit: int) -> list[clubs.LogLine]:
        with self._read() as s:
            return clubs.club_log(s, club_id, viewer_id, limit)

    def log_club(self, club_id: str, actor_id: int | None, kind: str, **fields: Any) -> None:
        """A line of the club's log for what the room did outside the store (a table)."""
        with self._write() as s:
            clubs.write_log(s, club_id, actor_id, kind, self._clock(), **fields)

    def create_club_table(
        self, club_id: str, name: str, settings: dict[str, Any], host_id: int
    ) -> TableRecord:
        """A private table of the club, seen by its members (no one gets an invite)."""
        hands.check_json(settings, "the table's settings")
        with self._write() as s:
            return clubs.create_club_table(s, club_id, name, settings, host_id, self._clock())

    def table_club(self, table_id: str) -> clubs.ClubTag | None:
        with self._read() as s:
            return clubs.table_club(s, table_id)

    def sees_club_table(self, table_id: str, player_id: int) -> bool:
        with self._read() as s:
            return clubs.sees_club_table(s, table_id, player_id)

    def club_tables(self, club_id: str, viewer_id: int) -> list[str]:
        with self._read() as s:
            return clubs.club_tables(s, club_id, viewer_id)

    def add_club_game(
        self,
        club_id: str,
        actor_id: int,
        settings: dict[str, Any],
        when: Weekly,
        host_id: int,
        next_at: datetime,
    ) -> club_games.ClubGame:
        hands.check_json(settings, "the game's settings")
        with self._write() as s:
            return club_games.add_game(
                s, club_id, actor_id, settings, when, host_id, next_at, self._clock()
            )

    def stop_club_game(self, club_id: str, actor_id: int, game_id: int) -> None:
        with self._write() as s:
            club_games.stop_game(s, club_id, actor_id, game_id, self._clock())

    def weekly_games(self, club_id: str, viewer_id: int) -> list[club_games.ClubGame]:
        with self._read() as s:
            return club_games.games(s, club_id, viewer_id)

    def due_games(self, now: datetime) -> list[club_games.ClubGame]:
        with self._read() as s:
            return club_games.due_games(s, now)

    def claim_game(self, game_id: int, due_at: datetime, next_at: datetime) -> bool:
        """Whether this caller takes the game's opening due at ``due_at`` (moving it on to
        ``next_at``): among processes sharing the database, exactly one does."""
        with self._write() as s:
            return club_games.claim_game(s, game_id, due_at, next_at)

    def log_game(self, game_id: int, kind: str, **fields: Any) -> None:
        with self._write() as s:
            club_games.log_game(s, game_id, kind, self._clock(), **fields)

    def club_results(
        self, club_id: str, viewer_id: int, span: club_ledger.Span
    ) -> club_ledger.ClubLedger:
        with self._read() as s:
            return club_ledger.club_ledger(s, club_id, viewer_id, span)

    def club_settle(self, club_id: str, viewer_id: int, span: club_ledger.Span) -> list[Payment]:
        with self._read() as s:
            return club_ledger.club_settle(s, club_id, viewer_id, span)

    # ---- tournaments (RULES.md 8; store/tournaments.py)

    def create_tournament(
        self,
        settings: TournamentSettings,
        host_id: int,
        club_id: str | None = None,
        invite: bool = False,
    ) -> tuple[TournamentRecord, str | None]:
        """A new tournament taking entries, and its invite code (``invite``; shown once)."""
        with self._write() as s:
            return tournaments.create_tournament(
                s, settings, host_id, club_id, invite, self._clock()
            )

    def tournament(self, tournament_id: int) -> TournamentRecord:
        with self._read() as s:
            return tournaments.tournament(s, tournament_id)

    def list_tournaments(self, include_finished: bool = False) -> list[TournamentRecord]:
        with self._read() as s:
            return tournaments.list_tournaments(s, include_finished)

    def check_tournament_invite(self, tournament_id: int, code: str) -> bool:
        with self._read() as s:
            return tournaments.check_tournament_invite(s, tournament_id, code)

    def register(
        self, tournament_id: int, player_id: int, *, bot: bool = False, late_open: bool = False
    ) -> None:
        """The player's entry, its buy-in and fee paid (``late_open``: a running
        tournament's late registration is open, by its level clock)."""
        with self._write() as s:
            tournaments.register(
                s, tournament_id, player_id, bot=bot, late_open=late_open, now=self._clock()
            )

    def unregister(self, tournament_id: int, player_id: int) -> None:
        """The player's entry taken back before the start, its buy-in and fee refunded."""
        with self._write() as s:
            tournaments.unregister(s, tournament_id, player_id, self._clock())

    def start_now(self, tournament_id: int) -> TournamentRecord:
        """The host's start: the tournament starts now (its director starts it)."""
        with self._write() as s:
            return tournaments.start_now(s, tournament_id, self._clock())

    def is_entrant(self, tournament_id: int, player_id: int) -> bool:
        """Whether the player has an entry in the tournament (out or not)."""
        with self._read() as s:
            return tournaments.is_entrant(s, tournament_id, player_id)

    def tournament_table_owners(self, tournament_id: int) -> dict[str, str]:
        """The process running each table of the tournament still playing."""
        with self._read() as s:
            return tournaments.table_owners(s, tournament_id)

    def tournament_table(self, table_id: str) -> TournamentTableRecord:
        """The tournament a table is one of, its number there, and the tournament's bots
        (NoTournament: a cash table)."""
        with self._read() as s:
            return tournaments.tournament_table(s, table_id)

    def tournament_state(self, tournament_id: int) -> TournamentState:
        """What the tournament's director decides from."""
        with self._read() as s:
            return tournaments.state(s, tournament_id)

    def apply_decision(self, tournament_id: int, decision: Decision) -> list[str]:
        """Write the director's decision in one transaction, fenced by the tournament's
        lease (when this store holds leases); the ids of the tables it opened."""
        with self._write(tournament=tournament_id) as s:
            return tournaments.apply(s, tournament_id, decision, self._clock())

    def table_check(self, table_id: str, ready: int, next_big_blind: int | None) -> TableOrders:
        """A tournament table's call between hands (fenced by the table's lease): it
        waits to deal hand ``ready``; what it is to do."""
        with self._write(table_id) as s:
            return tournaments.table_check(s, table_id, ready, next_big_blind)

    def tournament_results(self, tournament_id: int) -> list[TournamentResult]:
        with self._read() as s:
            return tournaments.results(s, tournament_id)

    def tournament_results_csv(self, tournament_id: int) -> str:
        with self._read() as s:
            return tournaments.results_csv(s, tournament_id)

    def claim_tournament(self, tournament_id: int, ttl: float) -> bool:
        """Take the tournament's director for ``ttl`` seconds unless another process
        holds it."""
        assert self.holder is not None, "hold_leases first"
        with self._write() as s:
            fence = leases.claim_tournament(s, tournament_id, self.holder.owner, ttl, self._clock())
        if fence is not None:
            self.holder.tournaments[tournament_id] = fence
        return fence is not None

    def renew_tournament_leases(self, ttl: float) -> set[int]:
        """Extend every tournament lease held; the tournaments lost (forgotten here)."""
        assert self.holder is not None, "hold_leases first"
        held = dict(self.holder.tournaments)
        with self._write() as s:
            lost = leases.renew_tournaments(s, self.holder.owner, held, ttl, self._clock())
        for tournament_id in lost:
            if self.holder.tournaments.get(tournament_id) == held[tournament_id]:
                del self.holder.tournaments[tournament_id]
        return lost

    def release_tournament(self, tournament_id: int) -> None:
        """Give up the tournament's lease: another process may take it at once."""
        assert self.holder is not None, "hold_leases first"
        fence = self.holder.tournaments.pop(tournament_id, None)
        if fence is not None:
            with self._write() as s:
                leases.release_tournament(s, tournament_id, self.holder.owner, fence, self._clock())

    def free_tournaments(self) -> list[int]:
        """Tournaments registering or running that no process holds."""
        with self._read() as s:
            return leases.free_tournaments(s, self._clock())
