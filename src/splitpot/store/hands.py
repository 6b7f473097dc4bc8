"""Hands and their logs: started with their setup, one row per accepted action, then
finished (with the ledger's result, in the same transaction) or cancelled.

Each of these writes may be sent again after a commit whose answer was lost (the room
retries while the database is away): a write the store already holds, the same, is
taken as done rather than made twice."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Integer, Select, bindparam, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute, Session

from splitpot.store import leases, ledger, tournaments
from splitpot.store.bulk import PerDatabase, RowsInsert
from splitpot.store.driver import DriverStatement
from splitpot.store.errors import HandStateError, NotFound, StoreError
from splitpot.store.models import (
    AccountRow,
    ActionRow,
    AuditRow,
    EntryRow,
    HandRow,
    HandSerialRow,
    TableRow,
    TournamentRow,
    TournamentTableRow,
    TransferRow,
    core_table,
)
from splitpot.store.tables import closed_table, get_table, no_table
from splitpot.store.values import (
    AccountKind,
    ActionEntry,
    HandEnd,
    HandLog,
    HandSelection,
    HandStart,
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


HANDS = core_table(HandRow)
ACTIONS = core_table(ActionRow)
TABLES = core_table(TableRow)
SERIALS = core_table(HandSerialRow)
TOURNAMENT_TABLES = core_table(TournamentTableRow)
TOURNAMENTS = core_table(TournamentRow)
PLAYING = HandStatus.PLAYING.value
FINISHED = HandStatus.FINISHED.value

# A hand's start and end, built once (as the action log's statements below): the tables'
# states for their next hands in one statement; hands with their serials and tournaments.
_NEXT_HANDS = PerDatabase(
    lambda among: select(
        TABLES.c.id,
        TABLES.c.closed,
        select(func.max(HANDS.c.number)).where(HANDS.c.table_id == TABLES.c.id).scalar_subquery(),
        select(HANDS.c.id)
        .where(HANDS.c.table_id == TABLES.c.id, HANDS.c.status == PLAYING)
        .limit(1)
        .scalar_subquery(),
    ).where(among(TABLES.c.id, "tables"))
)
_SETUP = select(HANDS.c.setup).where(HANDS.c.id == bindparam("hand"))
_START = insert(HANDS)
_NUMBER = insert(SERIALS).returning(SERIALS.c.serial, sort_by_parameter_order=True)


def start_hands(
    connection: Connection, starts: Sequence[HandStart], now: datetime
) -> list[StoredHand]:
    """Each table's next hand, numbered from 1, with id "<table>-<number>", and its
    serial, the room's next number, in the same transaction; refused while another hand
    of the table is in play, unless it is this one (the same setup) sent again. In SQL's
    core, four statements for all the tables (SQLite inserts the serials a row at a
    time, to give them in order): the room starts a hand every few seconds at every
    table."""
    tables = [table_id for table_id, _ in starts]
    if twice := _twice(tables):
        raise StoreError(f"one hand a table at a time: {twice} twice in one batch")
    for table_id, setup in starts:
        check_json(setup, f"the setup of table {table_id}'s hand")
    states = {
        state.id: state
        for state in connection.execute(_NEXT_HANDS.on(connection), {"tables": tables})
    }
    started: list[StoredHand | None] = []
    rows = []
    for table_id, setup in starts:
        state = states.get(table_id)
        if state is None:
            raise no_table(table_id)
        _, closed, last, playing = state
        if closed:
            raise closed_table(table_id)
        if playing is not None:
            started.append(_started_again(connection, table_id, playing, setup))
            continue
        number = (last or 0) + 1
        rows.append({"id": f"{table_id}-{number}", "table_id": table_id, "number": number,
                     "status": PLAYING, "started_at": now, "ended_at": None, "setup": setup,
                     "record": None})  # fmt: skip
        started.append(None)
    new: list[StoredHand] = []
    if rows:
        connection.execute(_START, rows)
        serials = connection.execute(_NUMBER, [{"hand_id": row["id"]} for row in rows]).scalars()
        new = [_new_hand(row, serial) for row, serial in zip(rows, serials, strict=True)]
    fresh = iter(new)
    return [hand if hand is not None else next(fresh) for hand in started]


def _twice(keys: Sequence[str]) -> str:
    """The keys given more than once, named; "" when none is."""
    return ", ".join(sorted(key for key, count in Counter(keys).items() if count > 1))


def _started_again(
    connection: Connection, table_id: str, playing: str, setup: dict[str, Any]
) -> StoredHand:
    """The hand in play at the table, when ``setup`` is its own (a start sent again)."""
    if not same_json(connection.execute(_SETUP, {"hand": playing}).scalar_one(), setup):
        raise HandStateError(f"table {table_id!r} is still playing hand {playing}")
    with Session(connection) as session:  # as it was stored
        return hand_value(session, get_hand(session, playing))


def _new_hand(row: Mapping[str, Any], serial: int) -> StoredHand:
    """The hand just started from its row as inserted, with its serial."""
    return StoredHand(
        row["id"], row["table_id"], row["number"], serial, HandStatus.PLAYING,
        row["started_at"], None, None,
    )  # fmt: skip


def get_hand(session: Session, hand_id: str, *, locked: bool = False) -> HandRow:
    """The hand's row (``locked``: until the end of the transaction, on PostgreSQL)."""
    row = session.get(HandRow, hand_id, with_for_update=locked)
    if row is None:
        raise no_hand(hand_id)
    return row


def no_hand(hand_id: str) -> NotFound:
    return NotFound(f"no hand {hand_id!r}")


def check_playing(hand_id: str, status: str) -> None:
    if status != HandStatus.PLAYING.value:
        raise HandStateError(f"hand {hand_id} is {status}, not playing")


# The action log's statements, built once: the room runs them for every action of every
# table, and building a statement cost more than running it (docs/load.md).
_STATUSES = PerDatabase(
    lambda among: (
        select(HANDS.c.id, HANDS.c.status)
        .where(among(HANDS.c.id, "hands"))
        .order_by(HANDS.c.id)
        .with_for_update()
    )
)
_LAST_SEQS = PerDatabase(
    lambda among: (
        select(ACTIONS.c.hand_id, func.max(ACTIONS.c.seq))
        .where(among(ACTIONS.c.hand_id, "hands"))
        .group_by(ACTIONS.c.hand_id)
    )
)
_ACTION = select(ACTIONS.c.seat, ACTIONS.c.kind, ACTIONS.c.amount, ACTIONS.c.at).where(
    ACTIONS.c.hand_id == bindparam("hand"), ACTIONS.c.seq == bindparam("seq")
)
_LOG = RowsInsert(ACTIONS, ("hand_id", "seq", "seat", "kind", "amount", "at"))


# The action log at once, on PostgreSQL: one statement, run in autocommit, that writes
# every row of a batch or none. Each table's lease held at its fence (shared, as the
# fence check), each hand in play (locked), each hand's actions numbered on from its last:
# what is locked is read at its newest (a lock waited for reads the row again); the last
# numbers may be older when a lock was waited for, and then the primary key refuses the
# rows. Whatever it does not write goes to append_actions, whose answer is the exact one.
_AT_ONCE = DriverStatement.of(
    text(
        """
        WITH held AS (
            SELECT leases.table_id FROM leases
            JOIN unnest(:tables, :fences) AS wanted (table_id, fence)
                ON leases.table_id = wanted.table_id AND leases.fence = wanted.fence
            ORDER BY leases.table_id
            FOR SHARE OF leases
        ), playing AS (
            SELECT hands.id FROM hands
            WHERE hands.id = ANY(:hands) AND hands.status = :playing
            ORDER BY hands.id
            FOR UPDATE
        ), last AS (
            SELECT hand_id, max(seq) AS top FROM actions
            WHERE hand_id = ANY(:hands) GROUP BY hand_id
        ), new AS (
            SELECT * FROM unnest(:hand_ids, :seqs, :seats, :kinds, :amounts, :ats, :places)
                AS new (hand_id, seq, seat, kind, amount, at, place)
        )
        INSERT INTO actions (hand_id, seq, seat, kind, amount, at)
        SELECT new.hand_id, new.seq, new.seat, new.kind, new.amount, new.at FROM new
        WHERE (SELECT count(*) FROM held) = :table_count
            AND (SELECT count(*) FROM playing) = :hand_count
            AND NOT EXISTS (
                SELECT 1 FROM new AS each LEFT JOIN last ON last.hand_id = each.hand_id
                WHERE each.seq <> coalesce(last.top, 0) + each.place
            )
        """
    ).bindparams(
        bindparam("tables", type_=ARRAY(leases.LEASES.c.table_id.type)),
        bindparam("fences", type_=ARRAY(leases.LEASES.c.fence.type)),
        bindparam("hands", type_=ARRAY(HANDS.c.id.type)),
        bindparam("hand_ids", type_=ARRAY(ACTIONS.c.hand_id.type)),
        bindparam("seqs", type_=ARRAY(ACTIONS.c.seq.type)),
        bindparam("seats", type_=ARRAY(ACTIONS.c.seat.type)),
        bindparam("kinds", type_=ARRAY(ACTIONS.c.kind.type)),
        bindparam("amounts", type_=ARRAY(ACTIONS.c.amount.type)),
        bindparam("ats", type_=ARRAY(ACTIONS.c.at.type)),
        bindparam("places", type_=ARRAY(Integer)),
    )
)


def append_actions_at_once(
    connection: Connection,
    actions: Sequence[ActionEntry],
    fences: Mapping[str, int],
    now: datetime,
) -> list[LoggedAction] | None:
    """The batch logged in one statement (``_AT_ONCE``, PostgreSQL, ``connection`` in
    autocommit), or None, having written nothing: an action not numbered, a table not
    at its fence, a hand not in play, an action that is not its hand's next (sent again,
    out of turn), or a write that crossed another; append_actions then tells which.
    ``fences``: each table's fencing number, when this process holds leases."""
    _check_entries(actions)
    if not actions:
        return None
    places: Counter[str] = Counter()
    rows = []
    logged = []
    for hand_id, seat, kind, amount, seq in actions:
        if seq is None:
            return None
        places[hand_id] += 1
        rows.append((hand_id, seq, seat, kind, amount, places[hand_id]))
        logged.append(LoggedAction(seq, seat, kind, amount, now))
    hand_ids, seqs, seats, kinds, amounts, numbers = (
        list(column) for column in zip(*rows, strict=True)
    )
    tables = sorted(fences)
    try:
        written = _AT_ONCE.run(
            connection,
            {"tables": tables, "fences": [fences[table] for table in tables],
             "hands": sorted(places), "playing": PLAYING, "hand_ids": hand_ids,
             "seqs": seqs, "seats": seats, "kinds": kinds, "amounts": amounts,
             "ats": [now] * len(rows), "places": numbers, "table_count": len(tables),
             "hand_count": len(places)},
        )  # fmt: skip
    except IntegrityError:  # a row another write took since this one's snapshot
        return None
    return logged if written == len(rows) else None


def _check_entries(actions: Sequence[ActionEntry]) -> None:
    for _, _, kind, amount, _ in actions:
        if not kind or len(kind) > KIND_LENGTH:
            raise StoreError(f"an action kind needs 1 to {KIND_LENGTH} characters: {kind!r}")
        if amount is not None and not ledger.is_whole(amount):
            raise StoreError(f"an action's amount is a whole number of chips, not {amount!r}")


def append_actions(
    connection: Connection, actions: Sequence[ActionEntry], now: datetime
) -> list[LoggedAction]:
    """Log actions of hands in play, in order: each one's ``seq`` is one more than its
    hand's last. A writer that numbers its actions gives ``seq``: the same action at that
    number is already logged (sent again), another is refused, and so is a gap.

    The hot path of the room (every action of every table), in SQL's core: three
    statements for the whole batch, however many tables' actions it holds: the hands'
    statuses locked (writers of one hand queue on the lock), their last numbers, and the
    new rows."""
    _check_entries(actions)
    hand_ids = sorted({entry[0] for entry in actions})
    statuses: dict[str, str] = dict(_STATUSES.driver.rows(connection, {"hands": hand_ids}))
    for hand_id in hand_ids:
        if hand_id not in statuses:
            raise no_hand(hand_id)
        check_playing(hand_id, statuses[hand_id])
    # read after the lock, by a statement of its own: on PostgreSQL a statement that
    # waited for the lock still sees the log as it was when it began
    last: dict[str, int] = dict(_LAST_SEQS.driver.rows(connection, {"hands": hand_ids}))
    rows: dict[tuple[str, int], LoggedAction] = {}  # what this batch adds
    logged = []
    for hand_id, seat, kind, amount, seq in actions:
        top = last.get(hand_id, 0)
        if seq is not None and seq <= top:
            logged.append(_held(connection, rows, hand_id, seq, (seat, kind, amount)))
            continue
        if seq is not None and seq != top + 1:
            raise HandStateError(f"hand {hand_id} has {top} actions: action {seq} is not next")
        last[hand_id] = top + 1
        rows[hand_id, top + 1] = LoggedAction(top + 1, seat, kind, amount, now)
        logged.append(rows[hand_id, top + 1])
    if rows:
        _LOG.run(
            connection,
            [
                {"hand_id": hand_id, "seq": seq, "seat": a.seat, "kind": a.kind,
                 "amount": a.amount, "at": now}
                for (hand_id, seq), a in rows.items()
            ],
        )  # fmt: skip
    return logged


def _held(
    connection: Connection,
    added: Mapping[tuple[str, int], LoggedAction],
    hand_id: str,
    seq: int,
    action: tuple[int, str, int | None],
) -> LoggedAction:
    """Action ``seq`` of the hand, held already (in the log, or earlier in this batch):
    it must be the one sent again."""
    held = added.get((hand_id, seq))
    if held is None:
        seat, kind, amount, at = connection.execute(_ACTION, {"hand": hand_id, "seq": seq}).one()
        held = LoggedAction(seq, seat, kind, amount, at)
    if (held.seat, held.kind, held.amount) != action:
        raise HandStateError(f"hand {hand_id} has another action {seq} already")
    return held


_FINISHING = PerDatabase(  # hands with their serials and tournaments, locked (finish_hands)
    lambda among: (
        select(
            HANDS.c.id,
            HANDS.c.table_id,
            HANDS.c.number,
            HANDS.c.status,
            HANDS.c.started_at,
            HANDS.c.ended_at,
            HANDS.c.record,
            SERIALS.c.serial,
            TOURNAMENT_TABLES.c.tournament_id,
        )
        .join_from(HANDS, SERIALS, SERIALS.c.hand_id == HANDS.c.id)
        .outerjoin(TOURNAMENT_TABLES, TOURNAMENT_TABLES.c.table_id == HANDS.c.table_id)
        .where(among(HANDS.c.id, "hands"))
        .order_by(HANDS.c.id)
        .with_for_update(of=HANDS)
    )
)
_END = update(HANDS).where(HANDS.c.id == bindparam("hand"))
_TOURNAMENTS = PerDatabase(
    lambda among: (
        select(TOURNAMENTS.c.id)
        .where(among(TOURNAMENTS.c.id, "tournaments"))
        .order_by(TOURNAMENTS.c.id)
        .with_for_update()
    )
)


def finish_hands(
    connection: Connection, ends: Sequence[HandEnd], now: datetime
) -> list[StoredHand]:
    """Each hand's result into the ledger, and the hand marked finished with its record
    (a hand finished already with this record: sent again, nothing more is written). At
    a tournament's table, the players the hand left with no chips are out (RULES.md 8),
    in the same transaction, the batch's tournaments locked first. In SQL's core, a
    statement for all the hands at each step (but for a tournament's hand): the room
    ends a hand every few seconds at every table."""
    ids = [hand_id for hand_id, *_ in ends]
    if twice := _twice(ids):
        raise StoreError(f"a hand is finished once: {twice} twice in one batch")
    for hand_id, record, _, _ in ends:
        check_json(record, f"hand {hand_id}'s record")
    found = {
        row.id: row for row in connection.execute(_FINISHING.on(connection), {"hands": sorted(ids)})
    }
    # every writer of a tournament locks its row before the ledger's accounts
    # (leases.check_tournament_fence): all of the batch's, in their order, first
    held = {row.tournament_id for row in found.values() if row.status == PLAYING} - {None}
    if held:
        connection.execute(_TOURNAMENTS.on(connection), {"tournaments": sorted(held)}).all()
    finished: list[StoredHand] = []
    results: list[ledger.HandResult] = []
    ended: list[dict[str, Any]] = []
    for hand_id, record, result, rake in ends:
        row = found.get(hand_id)
        if row is None:
            raise no_hand(hand_id)
        _, table_id, number, status, started_at, ended_at, stored, serial, tournament_id = row
        hand = StoredHand(
            hand_id, table_id, number, serial, HandStatus(status), started_at, ended_at, stored
        )
        if hand.status is HandStatus.FINISHED and same_json(stored, record):
            finished.append(hand)  # sent again
            continue
        check_playing(hand_id, status)
        if tournament_id is None:
            results.append((table_id, hand_id, result, rake))
        else:
            with Session(connection) as session:  # in this transaction
                tournament = tournaments.get_tournament(session, tournament_id, lock=True)
                ledger.hand_result(session, table_id, hand_id, result, rake, now)
                tournaments.bust(session, tournament, table_id, hand_id, result)
                session.flush()
        ended.append({"hand": hand_id, "status": FINISHED, "ended_at": now, "record": record})
        finished.append(replace(hand, status=HandStatus.FINISHED, ended_at=now, record=record))
    if results:
        ledger.hand_results(connection, results, now)
    if ended:
        connection.execute(_END, ended)
    return finished


def cancel_hand(session: Session, hand_id: str, now: datetime) -> StoredHand:
    """Void a hand in play: no ledger entry, as no chip moved (results are only written
    when a hand finishes), so every stack is what it was before the hand."""
    row = get_hand(session, hand_id, locked=True)
    if row.status == HandStatus.CANCELLED.value:
        return hand_value(session, row)  # sent again
    check_playing(row.id, row.status)
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
