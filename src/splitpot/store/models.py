"""The database schema as SQLAlchemy 2 typed models: the migrations build exactly this
(tests/test_store.py compares them)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

HASH_LENGTH = 64  # a SHA-256 digest in hex


class UTCDateTime(TypeDecorator[datetime]):
    """A moment in UTC: stored naive in UTC on SQLite, as timestamptz on PostgreSQL, and
    always read back timezone-aware, so times compare and print the same on both."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"a naive time {value!r}: the store keeps times in UTC")
        moment = value.astimezone(UTC)
        return moment if dialect.name == "postgresql" else moment.replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


def core_table(row: type[Base]) -> Table:
    """A mapped class's ``Table``, for statements in SQL's core (the room's hot path);
    mypy knows ``__table__`` only as a ``FromClause``."""
    table = row.__table__
    assert isinstance(table, Table)
    return table


class PlayerRow(Base):
    """A guest (no password) or an account; ``name_key`` (the folded name) is set for
    accounts only, so account names are unique ignoring case and guests may share names."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    name_key: Mapped[str | None] = mapped_column(String(100), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class SessionRow(Base):
    """A session token, kept only as its SHA-256 hash; logging out deletes the row."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class TableRow(Base):
    """A card table; ``settings`` is the server's JSON (variant, stakes, seats, ...)."""

    __tablename__ = "card_tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    invite_hash: Mapped[str | None] = mapped_column(String(HASH_LENGTH))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    closed: Mapped[bool] = mapped_column(Boolean)
    # no foreign key (clubs are never deleted): SQLite adds and drops a plain column in
    # place, where a key would make it copy the table that every other one refers to
    club_id: Mapped[str | None] = mapped_column(String(16), index=True)


class BanRow(Base):
    """A player the table's host banned: they may neither watch nor sit there again."""

    __tablename__ = "bans"

    table_id: Mapped[str] = mapped_column(ForeignKey("card_tables.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime())


class AuditRow(Base):
    """A table's session ended with its audit: the deal secrets of hands ``first_hand``
    to ``last_hand`` (by number) are published from ``published_at`` on."""

    __tablename__ = "audits"

    table_id: Mapped[str] = mapped_column(ForeignKey("card_tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    first_hand: Mapped[int] = mapped_column(Integer)
    last_hand: Mapped[int] = mapped_column(Integer)
    published_at: Mapped[datetime] = mapped_column(UTCDateTime())


class SeatRow(Base):
    """Who sits where; the chips in front of them come from the ledger, not from here."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "player_id"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("card_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    status: Mapped[str] = mapped_column(String(16))


class HandRow(Base):
    """One hand: its setup (with the secret deck order) and, once finished, its record."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("card_tables.id"))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), index=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class HandSerialRow(Base):
    """A hand's number in the whole room (PokerStars text's ``Hand #``), counted by the
    database, so that processes sharing it never give two hands one number; never reused
    (SQLite's AUTOINCREMENT, PostgreSQL's sequence)."""

    __tablename__ = "hand_serials"
    __table_args__ = ({"sqlite_autoincrement": True},)

    serial: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    hand_id: Mapped[str] = mapped_column(ForeignKey("hands.id"), unique=True)


class ActionRow(Base):
    """One accepted action of a hand, numbered from 1 in the order the table took it."""

    __tablename__ = "actions"

    hand_id: Mapped[str] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    amount: Mapped[int | None] = mapped_column(BigInteger)
    at: Mapped[datetime] = mapped_column(UTCDateTime())


class AccountRow(Base):
    """A ledger account: a player's balance, a player's chips at one table, the house, a
    tournament's prize pool, or its bank (which issues its chips: below zero by as many as
    are in play). ``key`` ("balance:7", "table:7:abc123", "house", "pool:3", "bank:3")
    makes each one unique. ``chips``: the sum of its entries, kept with every transfer, so
    that what an account holds is one row however many hands it has seen."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("card_tables.id"))
    chips: Mapped[int] = mapped_column(BigInteger, server_default="0")


class TransferRow(Base):
    """One movement of chips: its entries sum to zero."""

    __tablename__ = "transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    table_id: Mapped[str | None] = mapped_column(ForeignKey("card_tables.id"), index=True)
    hand_id: Mapped[str | None] = mapped_column(ForeignKey("hands.id"), unique=True)
    author_id: Mapped[int | None] = mapped_column(Integer)  # a host's stack edit (as club_id)
    tournament_id: Mapped[int | None] = mapped_column(Integer)  # a tournament's (as club_id)


class EntryRow(Base):
    """One side of a transfer: chips into (positive) or out of (negative) an account."""

    __tablename__ = "entries"
    __table_args__ = (Index("ix_entries_account_id_id", "account_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transfer_id: Mapped[int] = mapped_column(ForeignKey("transfers.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    amount: Mapped[int] = mapped_column(BigInteger)


class LeaseRow(Base):
    """Which room process runs a table, until when; ``fence`` counts the table's owners
    (each new one adds one) and every write for the table must carry the current one."""

    __tablename__ = "leases"

    table_id: Mapped[str] = mapped_column(ForeignKey("card_tables.id"), primary_key=True)
    owner: Mapped[str | None] = mapped_column(String(64))
    fence: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())


class RoomRow(Base):
    """The room this database is the record of: one row, its id made by the migration.
    Processes on one database are one room; their Redis keys and channels carry its id,
    so two rooms sharing a Redis never hear each other."""

    __tablename__ = "room"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)


class NoteRow(Base):
    """A player's private note and colour tag on another player (issue 24): only its
    owner ever reads it."""

    __tablename__ = "notes"

    owner_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    subject_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    text: Mapped[str] = mapped_column(String(2000))
    colour: Mapped[str | None] = mapped_column(String(16))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ClubRow(Base):
    """A club: its owner, how one joins (``membership``: open, request or closed) and the
    hash of its invite code."""

    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    owner_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    membership: Mapped[str] = mapped_column(String(8))
    invite_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ClubMemberRow(Base):
    """A player's place in a club: ``role`` owner, manager, member, or asked (waiting for
    a manager's approval)."""

    __tablename__ = "club_members"

    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(8))
    since: Mapped[datetime] = mapped_column(UTCDateTime())


class ClubGameRow(Base):
    """A club's recurring game: its table settings, opened every week on ``weekday``
    (0 Monday) at ``minute`` past midnight in ``zone`` (an IANA name); ``next_at`` is the
    next time it opens (UTC), ``table_id`` the table it opened last."""

    __tablename__ = "club_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id"), index=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    weekday: Mapped[int] = mapped_column(Integer)
    minute: Mapped[int] = mapped_column(Integer)
    zone: Mapped[str] = mapped_column(String(64))
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    next_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("card_tables.id"))
    active: Mapped[bool] = mapped_column(Boolean)


class ClubLogRow(Base):
    """One line of a club's log: who did what (``kind``, with its ``fields``), when."""

    __tablename__ = "club_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id"), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(24))
    fields: Mapped[dict[str, Any]] = mapped_column(JSON)


class TournamentRow(Base):
    """A tournament (RULES.md 8): its settings (``TournamentSettings.to_json``), where it
    stands (``status``: registering, running, finished or cancelled), its paid entries
    and prize pool, and its own lease: the process whose director runs it (``owner``,
    until ``expires_at``), ``fence`` counting its owners as a table's lease does."""

    __tablename__ = "tournaments"
    __table_args__ = ({"sqlite_autoincrement": True},)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    club_id: Mapped[str | None] = mapped_column(String(16), index=True)  # as card_tables'
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(12), index=True)
    invite_hash: Mapped[str | None] = mapped_column(String(HASH_LENGTH))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    start_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    entries: Mapped[int] = mapped_column(Integer)
    pool: Mapped[int] = mapped_column(BigInteger)
    hand_for_hand: Mapped[bool] = mapped_column(Boolean)
    owner: Mapped[str | None] = mapped_column(String(64))
    fence: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class TournamentEntryRow(Base):
    """A player's entry: once out, the hand they went out in, the stack they started it
    with and the order the store heard of it; once placed, their place (the best of those
    ``shared`` players share) and prize."""

    __tablename__ = "tournament_entries"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    registered_at: Mapped[datetime] = mapped_column(UTCDateTime())
    bot: Mapped[bool] = mapped_column(Boolean)
    out_hand: Mapped[str | None] = mapped_column(String(40))
    out_stack: Mapped[int] = mapped_column(BigInteger)
    out_order: Mapped[int] = mapped_column(Integer)
    place: Mapped[int | None] = mapped_column(Integer)
    shared: Mapped[int] = mapped_column(Integer)
    prize: Mapped[int | None] = mapped_column(BigInteger)


class TournamentTableRow(Base):
    """One of a tournament's tables (numbered from 1): ``ready`` is the number of the hand
    it waits to deal, ``cleared`` the last the director let it deal, ``next_big_blind``
    the seat (0-based) due the big blind; ``broken`` once its players went elsewhere."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("card_tables.id"), primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    number: Mapped[int] = mapped_column(Integer)
    ready: Mapped[int] = mapped_column(Integer)
    cleared: Mapped[int] = mapped_column(Integer)
    next_big_blind: Mapped[int | None] = mapped_column(Integer)
    broken: Mapped[bool] = mapped_column(Boolean)
