"""Tables and their seats: creating, listing, invites, sitting down with a buy-in,
topping up, leaving with a cash-out, closing and reopening, and the host's bans."""

from __future__ import annotations

import secrets
import string
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from splitpot.store import ledger
from splitpot.store.errors import HandStateError, NotFound, SeatError, StoreError
from splitpot.store.models import BanRow, HandRow, PlayerRow, SeatRow, TableRow
from splitpot.store.players import get_player, hashes_match, new_secret, token_hash
from splitpot.store.values import (
    HandStatus,
    Hosting,
    SeatRecord,
    SeatRecordStatus,
    TableRecord,
    TransferKind,
)

TABLE_ID_ALPHABET = string.ascii_lowercase + string.digits
TABLE_ID_LENGTH = 8
TABLE_NAME_LENGTH = 64


def table_value(row: TableRow) -> TableRecord:
    return TableRecord(
        row.id,
        row.name,
        dict(row.settings),
        row.host_id,
        row.invite_hash is not None,
        row.created_at,
        row.closed,
    )


def create_table(
    session: Session,
    name: str,
    settings: dict[str, Any],
    host_id: int,
    private: bool,
    now: datetime,
) -> tuple[TableRecord, str | None]:
    """A new open table hosted by ``host_id``; a private one also gets its invite token."""
    shown = name.strip()
    if not 1 <= len(shown) <= TABLE_NAME_LENGTH:
        raise StoreError(f"a table name needs 1 to {TABLE_NAME_LENGTH} characters: {name!r}")
    get_player(session, host_id)
    table_id = _new_table_id(session)
    invite = new_secret() if private else None
    row = TableRow(
        id=table_id,
        name=shown,
        settings=settings,
        host_id=host_id,
        invite_hash=None if invite is None else token_hash(invite),
        created_at=now,
        closed=False,
    )
    session.add(row)
    session.flush()
    return table_value(row), invite


def _new_table_id(session: Session) -> str:
    while True:
        table_id = "".join(secrets.choice(TABLE_ID_ALPHABET) for _ in range(TABLE_ID_LENGTH))
        if session.get(TableRow, table_id) is None:
            return table_id


def get_table(session: Session, table_id: str, *, open_only: bool = False) -> TableRow:
    row = session.get(TableRow, table_id)
    if row is None:
        raise no_table(table_id)
    if open_only and row.closed:
        raise closed_table(table_id)
    return row


def no_table(table_id: str) -> NotFound:
    return NotFound(f"no table {table_id!r}")


def closed_table(table_id: str) -> StoreError:
    return StoreError(f"table {table_id!r} is closed")


def change_table(
    session: Session, table_id: str, settings: Mapping[str, Any], host_id: int | None
) -> TableRecord:
    """The host's changes: settings merged into the stored ones (the others kept), and
    the host role passed on when ``host_id`` is given."""
    row = get_table(session, table_id, open_only=True)
    if host_id is not None:
        get_player(session, host_id)
        row.host_id = host_id
    if settings:
        merged = dict(row.settings) | dict(settings)
        row.settings = merged  # a new dict: the JSON column sees the change
    session.flush()
    return table_value(row)


def list_tables(session: Session, include_private: bool, include_closed: bool) -> list[TableRecord]:
    query = select(TableRow).order_by(TableRow.created_at, TableRow.id)
    if not include_private:
        query = query.where(TableRow.invite_hash.is_(None))
    if not include_closed:
        query = query.where(TableRow.closed.is_(False))
    return [table_value(row) for row in session.scalars(query)]


def tables_of(session: Session, player_id: int) -> list[str]:
    """The open tables where the player sits, oldest first."""
    query = (
        select(TableRow.id)
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .where(SeatRow.player_id == player_id, TableRow.closed.is_(False))
        .order_by(TableRow.created_at, TableRow.id)
    )
    return list(session.scalars(query))


def hosting(session: Session, player_id: int, since: datetime) -> Hosting:
    """The tables the player hosts: open, open with a player seated, made since ``since``."""
    # a tournament's tables are its director's, held to no host's limits (RULES.md 8)
    mine = (TableRow.host_id == player_id) & TableRow.id.not_in(ledger.tournament_tables())
    opened = select(func.count()).where(mine, TableRow.closed.is_(False))
    in_use = (
        select(func.count(func.distinct(TableRow.id)))
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .where(mine, TableRow.closed.is_(False))
    )
    made = select(func.count()).where(mine, TableRow.created_at >= since)
    return Hosting(
        int(session.scalar(opened) or 0),
        int(session.scalar(in_use) or 0),
        int(session.scalar(made) or 0),
    )


def invite_matches(session: Session, table_id: str, invite: str) -> bool:
    return hashes_match(get_table(session, table_id).invite_hash, invite)


def new_invite(session: Session, table_id: str) -> str:
    """A new invite for a private table: the old one stops matching."""
    row = get_table(session, table_id, open_only=True)
    if row.invite_hash is None:
        raise StoreError(f"table {table_id!r} is public: it has no invite")
    invite = new_secret()
    row.invite_hash = token_hash(invite)
    return invite


def ban(session: Session, table_id: str, player_id: int, now: datetime) -> None:
    """Keep the player out of the table from now on (banning twice changes nothing)."""
    get_table(session, table_id, open_only=True)
    get_player(session, player_id)
    if session.get(BanRow, (table_id, player_id)) is None:
        session.add(BanRow(table_id=table_id, player_id=player_id, at=now))
        session.flush()


def bans(session: Session, table_id: str) -> frozenset[int]:
    """The players banned from the table."""
    query = select(BanRow.player_id).where(BanRow.table_id == table_id)
    return frozenset(session.scalars(query))


def bot_seats(session: Session) -> int:
    """How many seats bots hold at open tables, the house's table left out (a table's
    bots are the players its settings list as ``bot_players``)."""
    rows = session.execute(
        select(TableRow.settings, SeatRow.player_id)
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .where(TableRow.closed.is_(False))
    )
    return sum(
        1
        for settings, player_id in rows
        if not settings.get("house") and player_id in settings.get("bot_players", ())
    )


def seats(session: Session, table_id: str) -> list[SeatRecord]:
    """The taken seats in seat order, each with the player's chips at the table."""
    get_table(session, table_id)
    rows = session.execute(
        select(SeatRow, PlayerRow.name)
        .join(PlayerRow, SeatRow.player_id == PlayerRow.id)
        .where(SeatRow.table_id == table_id)
        .order_by(SeatRow.seat)
    ).all()
    chips = ledger.stacks_at(session, table_id)
    return [
        SeatRecord(
            table_id,
            row.seat,
            row.player_id,
            name,
            SeatRecordStatus(row.status),
            chips.get(row.player_id, 0),
        )
        for row, name in rows
    ]


def sit(
    session: Session,
    table_id: str,
    seat: int,
    player_id: int,
    buy_in: int,
    status: SeatRecordStatus,
    now: datetime,
) -> SeatRecord:
    """Take a free seat and buy in (balance -> table), together."""
    table = get_table(session, table_id, open_only=True)
    get_player(session, player_id)
    capacity = table.settings.get("seats")
    top = capacity if ledger.is_whole(capacity) else None
    if not ledger.is_whole(seat) or seat < 1 or (top is not None and seat > top):
        raise SeatError(f"no seat {seat!r} at table {table_id!r}")
    if session.get(SeatRow, (table_id, seat)) is not None:
        raise SeatError(f"seat {seat} at table {table_id!r} is taken")
    if _seat_of(session, table_id, player_id) is not None:
        raise SeatError(f"player {player_id} already sits at table {table_id!r}")
    session.add(SeatRow(table_id=table_id, seat=seat, player_id=player_id, status=status.value))
    try:
        session.flush()
    except IntegrityError as error:  # taken at the same moment by another writer
        raise SeatError(f"seat {seat} at table {table_id!r} is taken") from error
    ledger.to_table(session, TransferKind.BUY_IN, player_id, table_id, buy_in, now)
    return _seat(session, table_id, player_id)


def _seat_of(session: Session, table_id: str, player_id: int) -> SeatRow | None:
    return session.scalar(
        select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.player_id == player_id)
    )


def _seated(session: Session, table_id: str, player_id: int) -> SeatRow:
    row = _seat_of(session, table_id, player_id)
    if row is None:
        raise NotFound(f"player {player_id} does not sit at table {table_id!r}")
    return row


def _seat(session: Session, table_id: str, player_id: int) -> SeatRecord:
    return next(s for s in seats(session, table_id) if s.player_id == player_id)


def top_up(
    session: Session, table_id: str, player_id: int, chips: int, now: datetime
) -> SeatRecord:
    get_table(session, table_id, open_only=True)
    _seated(session, table_id, player_id)
    ledger.to_table(session, TransferKind.TOP_UP, player_id, table_id, chips, now)
    return _seat(session, table_id, player_id)


def edit_stack(
    session: Session,
    table_id: str,
    player_id: int,
    chips: int,
    author_id: int,
    now: datetime,
    settled: str | None = None,
) -> SeatRecord:
    """The host's edit of a seated player's stack (``ledger.edit_stack``); ``settled``:
    the key of the table's document whose entry for the player the edit settles (a queued
    edit), removed in the same transaction, so that it is done exactly once."""
    row = get_table(session, table_id, open_only=True)
    _seated(session, table_id, player_id)
    ledger.edit_stack(session, player_id, table_id, chips, author_id, now)
    if settled is not None:
        waiting = {k: v for k, v in row.settings.get(settled, {}).items() if k != str(player_id)}
        row.settings = dict(row.settings) | {settled: waiting}
    return _seat(session, table_id, player_id)


def set_status(
    session: Session, table_id: str, player_id: int, status: SeatRecordStatus
) -> SeatRecord:
    _seated(session, table_id, player_id).status = status.value
    return _seat(session, table_id, player_id)


def leave(session: Session, table_id: str, player_id: int, now: datetime) -> int:
    """Free the player's seat and cash their whole stack out; the chips cashed out."""
    session.delete(_seated(session, table_id, player_id))
    return ledger.cash_out(session, player_id, table_id, now)


def close_table(session: Session, table_id: str, now: datetime) -> dict[int, int]:
    """Cash everyone out and close the table; refused while a hand is in play."""
    table = get_table(session, table_id, open_only=True)
    playing = session.scalar(
        select(HandRow.id).where(
            HandRow.table_id == table_id, HandRow.status == HandStatus.PLAYING.value
        )
    )
    if playing is not None:
        raise HandStateError(f"table {table_id!r} is playing hand {playing}: finish it first")
    cashed = {
        row.player_id: leave(session, table_id, row.player_id, now)
        for row in session.scalars(select(SeatRow).where(SeatRow.table_id == table_id)).all()
    }
    table.closed = True
    return cashed


def reopen_table(session: Session, table_id: str) -> TableRecord:
    """Open a closed table again, its hands and ledger as they were."""
    row = get_table(session, table_id)
    if not row.closed:
        raise StoreError(f"table {table_id!r} is open")
    row.closed = False
    session.flush()
    return table_value(row)
