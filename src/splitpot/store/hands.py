"""Hands and their logs: started with their setup, one row per accepted action, then
finished (with the ledger's result, in the same transaction) or cancelled.

Each of these writes may be sent again after a commit whose answer was lost (the room
retries while the database is away): a write the store already holds, the same, is
taken as done rather than made twice."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, insert, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from splitpot.store import ledger, tournaments
from splitpot.store.errors import HandStateError, NotFound, StoreError
from splitpot.store.models import (
    AccountRow,
    ActionRow,
    AuditRow,
    EntryRow,
    HandRow,
    HandSerialRow,
    TransferRow,
)
from splitpot.store.tables import get_table
from splitpot.store.values import (
    AccountKind,
    ActionEntry,
    HandLog,
    HandSelection,
    HandStatus,
    LoggedAction,
    StoredHand,
    TransferKind,
)

KIND_LENGTH = 16


def hand_value(session: Session, row: HandRow) -> StoredHand:
    return with_serial(row, serial_of(session, row.id))


def with_serial(row: HandRow, serial: int) -> StoredHand:
    return StoredHand(
        row.id,
        row.table_id,
        row.number,
        serial,
        HandStatus(row.status),
        row.started_at,
        row.ended_at,
        row.record,
    )


def serial_of(session: Session, hand_id: str) -> int:
    """The hand's number in the room (hand_serials)."""
    return session.scalars(
        select(HandSerialRow.serial).where(HandSerialRow.hand_id == hand_id)
    ).one()


def table_of(hand_id: str) -> str:
    """The table of a hand, from its id ("<table>-<number>")."""
    return hand_id.rpartition("-")[0]


def check_json(value: object, what: str) -> None:
    """Refuse, before writing anything, what the database could not store as JSON."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise StoreError(f"{what} is not JSON: {error}") from error


def same_json(stored: object, given: object) -> bool:
    """Whether a value the database holds as JSON is the one given (a write sent again)."""
    return bool(stored == json.loads(json.dumps(given)))


def start_hand(session: Session, table_id: str, setup: dict[str, Any], now: datetime) -> StoredHand:
    """The table's next hand, numbered from 1, with id "<table>-<number>", and its serial,
    the room's next number, in the same transaction; refused while another hand of the
    table is in play, unless it is this one (the same setup) sent again."""
    get_table(session, table_id, open_only=True)
    check_json(setup, "the hand's setup")
    playing = session.scalar(
        select(HandRow).where(
            HandRow.table_id == table_id, HandRow.status == HandStatus.PLAYING.value
        )
    )
    if playing is not None:
        if same_json(playing.setup, setup):
            return hand_value(session, playing)
        raise HandStateError(f"table {table_id!r} is still playing hand {playing.id}")
    last = session.scalar(select(func.max(HandRow.number)).where(HandRow.table_id == table_id))
    number = (last or 0) + 1
    row = HandRow(
        id=f"{table_id}-{number}",
        table_id=table_id,
        number=number,
        status=HandStatus.PLAYING.value,
        started_at=now,
        setup=setup,
    )
    session.add(row)
    session.flush()
    serial = HandSerialRow(hand_id=row.id)
    session.add(serial)
    session.flush()
    return with_serial(row, serial.serial)


def get_hand(session: Session, hand_id: str, *, playing: bool = False) -> HandRow:
    row = session.get(HandRow, hand_id, with_for_update=playing)
    if row is None:
        raise NotFound(f"no hand {hand_id!r}")
    if playing and row.status != HandStatus.PLAYING.value:
        raise HandStateError(f"hand {hand_id} is {row.status}, not playing")
    return row


def append_actions(
    session: Session, actions: Sequence[ActionEntry], now: datetime
) -> list[LoggedAction]:
    """Log actions of hands in play, in order: each one's ``seq`` is one more than its
    hand's last. A writer that numbers its actions gives ``seq``: the same action at that
    number is already logged (sent again), another is refused, and so is a gap.

    The hot path of the room (every action of every table): three statements for the
    whole batch, however many tables' actions it holds: the hands' statuses locked
    (writers of one hand queue on the lock), their last numbers, and the new rows."""
    for _, _, kind, amount, _ in actions:
        if not kind or len(kind) > KIND_LENGTH:
            raise StoreError(f"an action kind needs 1 to {KIND_LENGTH} characters: {kind!r}")
        if amount is not None and not ledger.is_whole(amount):
            raise StoreError(f"an action's amount is a whole number of chips, not {amount!r}")
    hand_ids = sorted({entry[0] for entry in actions})
    statuses: dict[str, str] = dict(
        session.execute(
            select(HandRow.id, HandRow.status)
            .where(HandRow.id.in_(hand_ids))
            .order_by(HandRow.id)
            .with_for_update()
        ).all()
    )
    for hand_id in hand_ids:
        if hand_id not in statuses:
            raise NotFound(f"no hand {hand_id!r}")
        if statuses[hand_id] != HandStatus.PLAYING.value:
            raise HandStateError(f"hand {hand_id} is {statuses[hand_id]}, not playing")
    last: dict[str, int | None] = dict(
        session.execute(
            select(ActionRow.hand_id, func.max(ActionRow.seq))
            .where(ActionRow.hand_id.in_(hand_ids))
            .group_by(ActionRow.hand_id)
        ).all()
    )
    rows: dict[tuple[str, int], LoggedAction] = {}  # what this batch adds
    logged = []
    for hand_id, seat, kind, amount, seq in actions:
        top = last.get(hand_id) or 0
        if seq is not None and seq <= top:
            logged.append(_held(session, rows, hand_id, seq, (seat, kind, amount)))
            continue
        if seq is not None and seq != top + 1:
            raise HandStateError(f"hand {hand_id} has {top} actions: action {seq} is not next")
        last[hand_id] = top + 1
        rows[hand_id, top + 1] = LoggedAction(top + 1, seat, kind, amount, now)
        logged.append(rows[hand_id, top + 1])
    if rows:
        session.execute(
            insert(ActionRow),
            [
                {"hand_id": hand_id, "seq": seq, "seat": a.seat, "kind": a.kind,
                 "amount": a.amount, "at": now}
                for (hand_id, seq), a in rows.items()
            ],
        )  # fmt: skip
    return logged


def _held(
    session: Session,
    added: Mapping[tuple[str, int], LoggedAction],
    hand_id: str,
    seq: int,
    action: tuple[int, str, int | None],
) -> LoggedAction:
    """Action ``seq`` of the hand, held already (in the log, or earlier in this batch):
    it must be the one sent again."""
    held = added.get((hand_id, seq))
    if held is None:
        row = session.get_one(ActionRow, (hand_id, seq))
        held = LoggedAction(row.seq, row.seat, row.kind, row.amount, row.at)
    if (held.seat, held.kind, held.amount) != action:
        raise HandStateError(f"hand {hand_id} has another action {seq} already")
    return held


def finish_hand(
    session: Session,
    hand_id: str,
    record: dict[str, Any],
    results: Mapping[int, int],
    rake: int,
    now: datetime,
) -> StoredHand:
    """The hand's result into the ledger, then the hand marked finished with its record
    (a hand finished already with this record: sent again, nothing more is written). At
    a tournament's table, the players the hand left with no chips are out (RULES.md 8),
    in the same transaction."""
    check_json(record, f"hand {hand_id}'s record")
    row = get_hand(session, hand_id)
    if row.status == HandStatus.FINISHED.value and same_json(row.record, record):
        return hand_value(session, row)
    row = get_hand(session, hand_id, playing=True)
    tournament = tournaments.table_tournament(session, row.table_id)  # locked before the ledger
    ledger.hand_result(session, row.table_id, hand_id, results, rake, now)
    if tournament is not None:
        tournaments.bust(session, tournament, row.table_id, hand_id, results)
    mark_ended(row, HandStatus.FINISHED, now, record)
    session.flush()
    return hand_value(session, row)


def cancel_hand(session: Session, hand_id: str, now: datetime) -> StoredHand:
    """Void a hand in play: no ledger entry, as no chip moved (results are only written
    when a hand finishes), so every stack is what it was before the hand."""
    row = get_hand(session, hand_id)
    if row.status == HandStatus.CANCELLED.value:
        return hand_value(session, row)  # sent again
    row = get_hand(session, hand_id, playing=True)
    mark_ended(row, HandStatus.CANCELLED, now, None)
    session.flush()
    return hand_value(session, row)


def mark_ended(
    row: HandRow, status: HandStatus, now: datetime, record: dict[str, Any] | None
) -> None:
    row.status = status.value
    row.ended_at = now
    row.record = record


def hand_log(session: Session, row: HandRow) -> HandLog:
    actions = session.scalars(
        select(ActionRow).where(ActionRow.hand_id == row.id).order_by(ActionRow.seq)
    )
    return HandLog(
        row.id,
        row.table_id,
        row.number,
        serial_of(session, row.id),
        HandStatus(row.status),
        row.started_at,
        dict(row.setup),
        tuple(LoggedAction(a.seq, a.seat, a.kind, a.amount, a.at) for a in actions),
    )


def unfinished_hands(session: Session) -> list[HandLog]:
    rows = session.scalars(
        select(HandRow)
        .where(HandRow.status == HandStatus.PLAYING.value)
        .order_by(HandRow.started_at, HandRow.id)
    )
    return [hand_log(session, row) for row in rows.all()]


def table_hands(session: Session, table_id: str, limit: int) -> list[StoredHand]:
    """The table's last ``limit`` hands, newest first."""
    get_table(session, table_id)
    rows = session.execute(
        _numbered().where(HandRow.table_id == table_id).order_by(HandRow.number.desc()).limit(limit)
    )
    return [with_serial(row, serial) for row, serial in rows]


def finished_hands(session: Session, table_id: str, wanted: HandSelection) -> list[StoredHand]:
    """The table's last finished hands that ``wanted`` picks, newest first: started
    from ``since`` and before ``until``, those ``player_id`` was dealt in (the ledger's
    hand results name each player dealt in), at most ``most``."""
    get_table(session, table_id)
    query = _numbered().where(
        HandRow.table_id == table_id, HandRow.status == HandStatus.FINISHED.value
    )
    if wanted.since is not None:
        query = query.where(HandRow.started_at >= wanted.since)
    if wanted.until is not None:
        query = query.where(HandRow.started_at < wanted.until)
    if wanted.player_id is not None:
        query = query.where(HandRow.id.in_(_dealt_in(table_id, wanted.player_id)))
    rows = session.execute(query.order_by(HandRow.number.desc()).limit(wanted.most))
    return [with_serial(row, serial) for row, serial in rows]


def _numbered() -> Select[HandRow, int]:
    """Hands with their serials."""
    return select(HandRow, HandSerialRow.serial).join(
        HandSerialRow, HandSerialRow.hand_id == HandRow.id
    )


def _dealt_in(table_id: str, player_id: int) -> Select[str | None]:
    """The ids of the table's hands whose result moved (by any amount, zero too) the
    player's chips at the table: the hands they were dealt in."""
    return _their_results(TransferRow.hand_id, player_id).where(TransferRow.table_id == table_id)


def _their_results(column: InstrumentedAttribute[str | None], player_id: int) -> Select[str | None]:
    """``column`` of every hand result that moved the player's chips (by any amount)."""
    return (
        select(column)
        .join(EntryRow, EntryRow.transfer_id == TransferRow.id)
        .join(AccountRow, AccountRow.id == EntryRow.account_id)
        .where(
            TransferRow.kind == TransferKind.HAND_RESULT.value,
            AccountRow.player_id == player_id,
        )
    )


# ---- statistics (issue 24)


def session_start(session: Session, table_id: str) -> int:
    """The number of the first hand of the table's session (docs/protocol.md
    "Statistics"): the first hand after the later of the last end of a session (its
    audit) and the last moment the table held no chips (every stack cashed out: the
    table closed, or everyone left); one past the last hand when none was dealt since."""
    get_table(session, table_id)
    audited = session.scalar(
        select(func.max(AuditRow.last_hand)).where(AuditRow.table_id == table_id)
    )
    stacks = session.execute(
        select(TransferRow.id, TransferRow.kind, func.sum(EntryRow.amount))
        .join(EntryRow, EntryRow.transfer_id == TransferRow.id)
        .join(AccountRow, AccountRow.id == EntryRow.account_id)
        .where(TransferRow.table_id == table_id, AccountRow.kind == AccountKind.TABLE.value)
        .group_by(TransferRow.id, TransferRow.kind)
        .order_by(TransferRow.id)
    ).all()
    chips, emptied = 0, 0  # the chips at the table; the last transfer that left none
    for transfer, kind, amount in stacks:
        chips += amount
        if chips == 0 and kind != TransferKind.HAND_RESULT.value:  # cashed out, or taken
            emptied = transfer
    after_empty = session.scalar(
        select(func.min(HandRow.number))
        .join(TransferRow, TransferRow.hand_id == HandRow.id)
        .where(HandRow.table_id == table_id, TransferRow.id > emptied)
    )
    last = session.scalar(select(func.max(HandRow.number)).where(HandRow.table_id == table_id))
    first = (last or 0) + 1 if after_empty is None else after_empty
    return max(first, (audited or 0) + 1)


def hands_from(session: Session, table_id: str, first: int, most: int) -> list[StoredHand]:
    """The table's finished hands numbered ``first`` on, the newest ``most`` of them,
    newest first."""
    get_table(session, table_id)
    rows = session.execute(
        _numbered()
        .where(
            HandRow.table_id == table_id,
            HandRow.status == HandStatus.FINISHED.value,
            HandRow.number >= first,
        )
        .order_by(HandRow.number.desc())
        .limit(most)
    )
    return [with_serial(row, serial) for row, serial in rows]


def player_tables(session: Session, player_id: int) -> list[str]:
    """The tables where the player was dealt a hand (a hand result of theirs there), a
    tournament's left out: their figures' net is in room chips, not a tournament's."""
    dealt = _their_results(TransferRow.table_id, player_id).where(
        TransferRow.table_id.not_in(ledger.tournament_tables())
    )
    rows = session.scalars(dealt.distinct())
    return sorted(table for table in rows if table is not None)


def player_hands(
    session: Session, player_id: int, table_ids: Sequence[str], most: int
) -> list[StoredHand]:
    """The newest ``most`` finished hands the player was dealt at ``table_ids``, newest
    first (by the room's serial)."""
    dealt = _their_results(TransferRow.hand_id, player_id).where(
        TransferRow.table_id.in_(table_ids)
    )
    rows = session.execute(
        _numbered()
        .where(HandRow.id.in_(dealt), HandRow.status == HandStatus.FINISHED.value)
        .order_by(HandSerialRow.serial.desc())
        .limit(most)
    )
    return [with_serial(row, serial) for row, serial in rows]
