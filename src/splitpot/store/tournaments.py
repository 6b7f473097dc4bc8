"""A tournament's records (RULES.md 8): made with its settings, entries paid and given
back, its state read for the director (``room/director.py``) and each of its decisions
written, each in one transaction; its tables' calls between hands, the players out at
the end of a hand, and its results.

Every writer of a tournament locks its row before the ledger's accounts, so that two
writers never wait for each other's locks (PostgreSQL)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from splitpot.i18n import said
from splitpot.room.director import (
    Decision,
    Entrant,
    Seating,
    Status,
    TournamentState,
    TournamentTable,
)
from splitpot.room.tournament_settings import TournamentSettings, settings_from_json
from splitpot.store import ledger
from splitpot.store.clubs import get_club
from splitpot.store.errors import NotFound, StoreError
from splitpot.store.models import (
    LeaseRow,
    PlayerRow,
    SeatRow,
    TournamentEntryRow,
    TournamentRow,
    TournamentTableRow,
)
from splitpot.store.players import get_player, hashes_match, new_secret, token_hash
from splitpot.store.tables import create_table, get_table, seats
from splitpot.store.values import (
    AccountKind,
    SeatRecordStatus,
    TableOrders,
    TournamentRecord,
    TournamentResult,
    TournamentTableRecord,
    TransferKind,
)

RESULTS_HEADER = ("place", "shared", "player", "player_id", "prize", "out_hand")


class TournamentError(StoreError):
    """A tournament change refused: an entry when registration is closed, a decision
    that no longer fits what the store holds."""


class NoTournament(NotFound):
    """An unknown tournament, or a table that is no tournament's."""


def record(row: TournamentRow) -> TournamentRecord:
    return TournamentRecord(
        row.id,
        row.name,
        dict(row.settings),
        row.host_id,
        row.club_id,
        row.status,
        row.created_at,
        row.start_at,
        row.started_at,
        row.finished_at,
        row.entries,
        row.pool,
        row.hand_for_hand,
        row.invite_hash is not None,
    )


def get_tournament(session: Session, tournament_id: int, *, lock: bool = False) -> TournamentRow:
    """The tournament's row (``lock``: locked to the end of the transaction)."""
    row = session.get(TournamentRow, tournament_id, with_for_update=lock)
    if row is None:
        raise NoTournament(said("there is no tournament {tournament}", tournament=tournament_id))
    return row


def create_tournament(
    session: Session,
    settings: TournamentSettings,
    host_id: int,
    club_id: str | None,
    invite: bool,
    now: datetime,
) -> tuple[TournamentRecord, str | None]:
    """A new tournament taking entries, hosted by ``host_id``, of ``club_id``'s club
    (None: the room's); ``invite``: registration by an invite code, returned once (the
    store keeps its hash, as a private table's)."""
    get_player(session, host_id)
    if club_id is not None:
        get_club(session, club_id)
    code = new_secret() if invite else None
    row = TournamentRow(
        name=settings.name,
        host_id=host_id,
        club_id=club_id,
        settings=settings.to_json(),
        status=Status.REGISTERING.value,
        invite_hash=None if code is None else token_hash(code),
        created_at=now,
        start_at=settings.start_at,
        entries=0,
        pool=0,
        hand_for_hand=False,
        fence=0,
    )
    session.add(row)
    session.flush()
    return record(row), code


def tournament(session: Session, tournament_id: int) -> TournamentRecord:
    return record(get_tournament(session, tournament_id))


def list_tournaments(session: Session, include_finished: bool) -> list[TournamentRecord]:
    """The tournaments, oldest first: those registering or running, and (``include_
    finished``) those finished or cancelled too."""
    query = select(TournamentRow).order_by(TournamentRow.created_at, TournamentRow.id)
    if not include_finished:
        query = query.where(
            TournamentRow.status.in_((Status.REGISTERING.value, Status.RUNNING.value))
        )
    return [record(row) for row in session.scalars(query)]


def check_tournament_invite(session: Session, tournament_id: int, code: str) -> bool:
    return hashes_match(get_tournament(session, tournament_id).invite_hash, code)


def _entry(session: Session, tournament_id: int, player_id: int) -> TournamentEntryRow | None:
    return session.get(TournamentEntryRow, (tournament_id, player_id))


def is_entrant(session: Session, tournament_id: int, player_id: int) -> bool:
    """Whether the player has an entry in the tournament (in play, out or placed)."""
    get_tournament(session, tournament_id)
    return _entry(session, tournament_id, player_id) is not None


def tournament_table(session: Session, table_id: str) -> TournamentTableRecord:
    """One of a tournament's tables, with the tournament's bots."""
    table = session.get(TournamentTableRow, table_id)
    if table is None:
        raise NoTournament(f"table {table_id} is no tournament's")
    bots = session.scalars(
        select(TournamentEntryRow.player_id).where(
            TournamentEntryRow.tournament_id == table.tournament_id,
            TournamentEntryRow.bot.is_(True),
        )
    )
    return TournamentTableRecord(
        table.table_id,
        table.tournament_id,
        table.number,
        table.ready,
        table.cleared,
        table.next_big_blind,
        table.broken,
        frozenset(bots),
    )


def register(
    session: Session,
    tournament_id: int,
    player_id: int,
    *,
    bot: bool,
    late_open: bool,
    now: datetime,
) -> None:
    """The player's entry (RULES.md 8): while the tournament takes entries (registering,
    or running with its late registration open: ``late_open``, by the level clock), once,
    up to its most entrants; the buy-in paid into the prize pool and the fee to the house
    (one ENTRY transfer)."""
    row = get_tournament(session, tournament_id, lock=True)
    player = get_player(session, player_id)
    status = Status(row.status)
    if status is Status.RUNNING and not late_open:
        raise TournamentError(said("registration for tournament {name} has closed", name=row.name))
    if status not in (Status.REGISTERING, Status.RUNNING):
        raise TournamentError(
            said("tournament {name} is {status}: it takes no entries", name=row.name, status=status)
        )
    if _entry(session, tournament_id, player_id) is not None:
        raise TournamentError(
            said("{player} is already in tournament {name}", player=player.name, name=row.name)
        )
    settings = settings_from_json(row.settings)
    if row.entries >= settings.most_entrants:
        raise TournamentError(
            said(
                "tournament {name} is full: {most} entrants",
                name=row.name,
                most=settings.most_entrants,
            )
        )
    _pay(session, row, player_id, settings, TransferKind.ENTRY, now)
    session.add(
        TournamentEntryRow(
            tournament_id=tournament_id,
            player_id=player_id,
            registered_at=now,
            bot=bot,
            out_stack=0,
            out_order=0,
            shared=0,
        )
    )
    row.entries += 1
    row.pool += settings.buy_in
    session.flush()


def _pay(
    session: Session,
    row: TournamentRow,
    player_id: int,
    settings: TournamentSettings,
    kind: TransferKind,
    now: datetime,
) -> None:
    """An entry's buy-in (to the pool) and fee (to the house) paid from the player's
    balance (ENTRY), or given back (REFUND); nothing for a free roll."""
    sign = 1 if kind is TransferKind.ENTRY else -1
    moves: list[tuple[ledger.Account, int]] = []
    if settings.buy_in:
        pool = ledger.open_tournament_account(session, AccountKind.POOL, row.id)
        moves.append((pool, sign * settings.buy_in))
    if settings.fee:
        house = ledger.open_account(session, AccountKind.HOUSE, None, None)
        moves.append((house, sign * settings.fee))
    if moves:
        balance = ledger.open_account(session, AccountKind.BALANCE, player_id, None)
        moves.insert(0, (balance, -sign * (settings.buy_in + settings.fee)))
        ledger.post(session, kind, now, moves, tournament_id=row.id)


def unregister(session: Session, tournament_id: int, player_id: int, now: datetime) -> None:
    """The player's entry taken back before the start, the buy-in and the fee refunded."""
    row = get_tournament(session, tournament_id, lock=True)
    player = get_player(session, player_id)
    if row.status != Status.REGISTERING.value:
        raise TournamentError(
            said("tournament {name} has started: entries are not given back now", name=row.name)
        )
    entry = _entry(session, tournament_id, player_id)
    if entry is None:
        raise TournamentError(
            said("{player} is not in tournament {name}", player=player.name, name=row.name)
        )
    settings = settings_from_json(row.settings)
    _pay(session, row, player_id, settings, TransferKind.REFUND, now)
    session.delete(entry)
    row.entries -= 1
    row.pool -= settings.buy_in
    session.flush()


def start_now(session: Session, tournament_id: int, now: datetime) -> TournamentRecord:
    """The host's start (of a sit-and-go not yet full): it starts at ``now``, with at
    least two entrants."""
    row = get_tournament(session, tournament_id, lock=True)
    if row.status != Status.REGISTERING.value:
        raise TournamentError(
            said("tournament {name} is {status}: it cannot start", name=row.name, status=row.status)
        )
    if row.entries < 2:
        raise TournamentError(
            said(
                "tournament {name} needs two entrants to start, not {entries}",
                name=row.name,
                entries=row.entries,
            )
        )
    row.start_at = now
    session.flush()
    return record(row)


def _tables(session: Session, tournament_id: int) -> list[TournamentTableRow]:
    return list(
        session.scalars(
            select(TournamentTableRow)
            .where(TournamentTableRow.tournament_id == tournament_id)
            .order_by(TournamentTableRow.number)
        )
    )


def state(session: Session, tournament_id: int) -> TournamentState:
    """What the director decides from: the entrants in the order they registered (each
    with their seat, 0-based, and chips there, or how they went out), the tables, the
    entries, the pool, hand for hand, the status and the start."""
    row = get_tournament(session, tournament_id)
    tables = _tables(session, tournament_id)
    ids = [table.table_id for table in tables]
    seated = {
        seat.player_id: (seat.table_id, seat.seat - 1)
        for seat in session.scalars(select(SeatRow).where(SeatRow.table_id.in_(ids)))
    }
    chips = {
        (player, table_id): total
        for table_id in ids
        for player, total in ledger.stacks_at(session, table_id).items()
    }
    entries = session.execute(
        select(TournamentEntryRow, PlayerRow.name)
        .join(PlayerRow, PlayerRow.id == TournamentEntryRow.player_id)
        .where(TournamentEntryRow.tournament_id == tournament_id)
        .order_by(TournamentEntryRow.registered_at, TournamentEntryRow.player_id)
    ).all()
    entrants = []
    for entry, name in entries:
        table, seat = seated.get(entry.player_id, (None, None))
        entrants.append(
            Entrant(
                entry.player_id,
                name,
                table,
                seat,
                0 if table is None else chips.get((entry.player_id, table), 0),
                entry.out_hand,
                entry.out_stack,
                entry.out_order,
                entry.place,
                entry.bot,
            )
        )
    return TournamentState(
        row.id,
        settings_from_json(row.settings),
        Status(row.status),
        row.start_at,
        tuple(entrants),
        tuple(
            TournamentTable(t.table_id, t.number, t.ready, t.cleared, t.next_big_blind, t.broken)
            for t in tables
        ),
        row.entries,
        row.pool,
        row.hand_for_hand,
    )


def apply(session: Session, tournament_id: int, decision: Decision, now: datetime) -> list[str]:
    """Write the director's decision, in its order: the start (its tables opened, the
    players seated with their chips from the bank), late entrants seated, places and
    prizes, moves (each with the player's whole stack), tables broken (closed), tables
    cleared to deal, hand for hand, the end (the winner's chips back to the bank) or the
    cancellation (every entry refunded). The ids of the tables it opened.

    A decision that no longer fits what the store holds (a seat taken, a player placed or
    moved since) is refused whole: the director decides again from the state now."""
    row = get_tournament(session, tournament_id, lock=True)
    status = Status(row.status)
    if status in (Status.FINISHED, Status.CANCELLED) and decision.changes:
        raise TournamentError(f"tournament {tournament_id} is {status}: it decides nothing more")
    settings = settings_from_json(row.settings)
    opened: list[str] = []
    if decision.start:
        opened = _start(session, row, settings, decision, now)
    tables = {table.number: table for table in _tables(session, tournament_id)}
    for seating in decision.seated:
        _sit(session, row, settings, _numbered(tables, seating.table, row.id), seating, now)
    for finish in decision.finishes:
        _place(session, row, finish.player, finish.place, finish.shared, finish.prize, now)
    for move in decision.moves:
        source = _numbered(tables, move.from_table, row.id).table_id
        target = _numbered(tables, move.to_table, row.id).table_id
        _move(session, row, move.player, (source, move.from_seat), (target, move.to_seat), now)
    for number in decision.broken:
        table = _numbered(tables, number, row.id)
        table.broken = True
        get_table(session, table.table_id).closed = True
    for number in decision.cleared:
        table = _numbered(tables, number, row.id)
        table.cleared = table.ready
    row.hand_for_hand = decision.hand_for_hand
    if decision.finished:
        _finish(session, row, tables.values(), now)
    if decision.cancelled:
        _cancel(session, row, settings, now)
    session.flush()
    return opened


def _numbered(
    tables: Mapping[int, TournamentTableRow], number: int, tournament_id: int
) -> TournamentTableRow:
    table = tables.get(number)
    if table is None:
        raise TournamentError(f"tournament {tournament_id} has no table {number}")
    return table


def _start(
    session: Session,
    row: TournamentRow,
    settings: TournamentSettings,
    decision: Decision,
    now: datetime,
) -> list[str]:
    """The tournament running: its tables opened (private, hosted by its host, of its
    club), numbered from 1; refused unless those seated are its entrants, every one."""
    if row.status != Status.REGISTERING.value:
        raise TournamentError(f"tournament {row.id} is {row.status}: it has started already")
    entered = set(
        session.scalars(
            select(TournamentEntryRow.player_id).where(TournamentEntryRow.tournament_id == row.id)
        )
    )
    seated = {seating.player for seating in decision.seated}
    if seated != entered or len(decision.seated) != len(seated):
        raise TournamentError(
            f"tournament {row.id}'s entrants changed since the decision: "
            f"{sorted(entered)} are in, {sorted(seated)} were seated"
        )
    row.status, row.started_at = Status.RUNNING.value, now
    opened = []
    for number in range(1, decision.tables + 1):
        table_settings = settings.table_settings(row.id, number, 0)
        document = table_settings.to_json()
        table, _ = create_table(session, table_settings.name, document, row.host_id, True, now)
        get_table(session, table.id).club_id = row.club_id
        session.add(
            TournamentTableRow(
                table_id=table.id,
                tournament_id=row.id,
                number=number,
                ready=0,
                cleared=0,
                next_big_blind=None,
                broken=False,
            )
        )
        opened.append(table.id)
    session.flush()
    return opened


def _sit(
    session: Session,
    row: TournamentRow,
    settings: TournamentSettings,
    table: TournamentTableRow,
    seating: Seating,
    now: datetime,
) -> None:
    """An entrant seated (at the start, or late) with the starting stack from the bank."""
    entry = _entry(session, row.id, seating.player)
    if entry is None or entry.out_hand is not None or entry.place is not None:
        raise TournamentError(f"player {seating.player} is not in play in tournament {row.id}")
    if _seat_of(session, row.id, seating.player) is not None:
        raise TournamentError(f"player {seating.player} has a seat in tournament {row.id}")
    _take_seat(session, row, table.table_id, seating.seat, seating.player, settings.seats)
    bank = ledger.open_tournament_account(session, AccountKind.BANK, row.id)
    stack = ledger.open_account(session, AccountKind.TABLE, seating.player, table.table_id)
    moves = [(bank, -settings.starting_stack), (stack, settings.starting_stack)]
    ledger.post(session, TransferKind.CHIPS, now, moves, table.table_id, tournament_id=row.id)


def _take_seat(
    session: Session, row: TournamentRow, table_id: str, seat: int, player: int, size: int
) -> None:
    if not 0 <= seat < size:
        raise TournamentError(f"tournament {row.id}'s tables have no seat {seat}")
    if session.get(SeatRow, (table_id, seat + 1)) is not None:
        raise TournamentError(f"seat {seat} at table {table_id} of tournament {row.id} is taken")
    status = SeatRecordStatus.PLAYING.value
    session.add(SeatRow(table_id=table_id, seat=seat + 1, player_id=player, status=status))
    session.flush()


def _seat_of(session: Session, tournament_id: int, player_id: int) -> SeatRow | None:
    """The player's seat at one of the tournament's tables, if any."""
    return session.scalar(
        select(SeatRow)
        .join(TournamentTableRow, TournamentTableRow.table_id == SeatRow.table_id)
        .where(TournamentTableRow.tournament_id == tournament_id, SeatRow.player_id == player_id)
    )


def _place(
    session: Session,
    row: TournamentRow,
    player: int,
    place: int,
    shared: int,
    prize: int,
    now: datetime,
) -> None:
    """A place final: the entry's place, how many share it, its prize paid from the pool."""
    entry = _entry(session, row.id, player)
    if entry is None or entry.place is not None:
        raise TournamentError(f"player {player} has no place to take in tournament {row.id}")
    entry.place, entry.shared, entry.prize = place, shared, prize
    if prize > 0:
        pool = ledger.open_tournament_account(session, AccountKind.POOL, row.id)
        balance = ledger.open_account(session, AccountKind.BALANCE, player, None)
        moves = [(pool, -prize), (balance, prize)]
        ledger.post(session, TransferKind.PRIZE, now, moves, tournament_id=row.id)


def _move(
    session: Session,
    row: TournamentRow,
    player: int,
    source: tuple[str, int],
    target: tuple[str, int],
    now: datetime,
) -> None:
    """A player moved (balancing, or a table broken) with their whole stack (0-based
    seats); their seat's status goes with them."""
    (from_table, from_seat), (to_table, to_seat) = source, target
    seat = session.get(SeatRow, (from_table, from_seat + 1))
    if seat is None or seat.player_id != player:
        raise TournamentError(
            f"player {player} is not in seat {from_seat} at table {from_table} to move"
        )
    status = seat.status
    session.delete(seat)
    session.flush()
    size = settings_from_json(row.settings).seats
    _take_seat(session, row, to_table, to_seat, player, size)
    session.get_one(SeatRow, (to_table, to_seat + 1)).status = status
    here = ledger.open_account(session, AccountKind.TABLE, player, from_table)
    chips = ledger.account_total(session, here)
    if chips:
        there = ledger.open_account(session, AccountKind.TABLE, player, to_table)
        moves = [(here, -chips), (there, chips)]
        ledger.post(session, TransferKind.CHIPS, now, moves, to_table, tournament_id=row.id)


def _finish(
    session: Session,
    row: TournamentRow,
    tables: Iterable[TournamentTableRow],
    now: datetime,
) -> None:
    """The end: every chip still on the tournament's tables (the winner's) back to its
    bank, every seat freed, every table closed."""
    row.status, row.finished_at = Status.FINISHED.value, now
    bank = ledger.open_tournament_account(session, AccountKind.BANK, row.id)
    for table in tables:
        for seat in session.scalars(select(SeatRow).where(SeatRow.table_id == table.table_id)):
            session.delete(seat)
        for player, chips in sorted(ledger.stacks_at(session, table.table_id).items()):
            if chips:
                stack = ledger.open_account(session, AccountKind.TABLE, player, table.table_id)
                moves = [(stack, -chips), (bank, chips)]
                ledger.post(
                    session, TransferKind.CHIPS, now, moves, table.table_id, tournament_id=row.id
                )
        table.broken = True
        get_table(session, table.table_id).closed = True


def _cancel(
    session: Session, row: TournamentRow, settings: TournamentSettings, now: datetime
) -> None:
    """Called off before the start: every entry refunded (the entries stay, paid none)."""
    if row.status != Status.REGISTERING.value:
        raise TournamentError(f"tournament {row.id} is {row.status}: too late to call off")
    row.status, row.finished_at = Status.CANCELLED.value, now
    players = session.scalars(
        select(TournamentEntryRow.player_id)
        .where(TournamentEntryRow.tournament_id == row.id)
        .order_by(TournamentEntryRow.player_id)
    ).all()
    for player in players:
        _pay(session, row, player, settings, TransferKind.REFUND, now)
    row.entries, row.pool = 0, 0


def table_check(
    session: Session, table_id: str, ready: int, next_big_blind: int | None
) -> TableOrders:
    """A tournament table's call between hands: it waits to deal hand ``ready`` (never
    fewer than it said before), ``next_big_blind`` (0-based) due the big blind; what it is
    to do (``TableOrders``): deal if cleared, stop if broken, and its seats now."""
    table = session.get(TournamentTableRow, table_id, with_for_update=True)
    if table is None:
        raise NoTournament(f"table {table_id} is no tournament's")
    if not ledger.is_whole(ready) or ready < table.ready:
        raise TournamentError(
            f"table {table_id} waited to deal hand {table.ready}, not {ready!r}: hands only go on"
        )
    row = get_tournament(session, table.tournament_id)
    size = settings_from_json(row.settings).seats
    if next_big_blind is not None and (
        not ledger.is_whole(next_big_blind) or not 0 <= next_big_blind < size
    ):
        raise TournamentError(f"table {table_id} has no seat {next_big_blind!r} for the big blind")
    table.ready, table.next_big_blind = ready, next_big_blind
    session.flush()
    return TableOrders(
        row.id,
        table.number,
        table.cleared >= table.ready,
        table.broken,
        row.status,
        row.started_at,
        row.hand_for_hand,
        tuple(seats(session, table_id)),
        row.owner,
    )


def table_owners(session: Session, tournament_id: int) -> dict[str, str]:
    """The process running each of the tournament's tables that still play (their
    leases' owners), for the director to tell them it decided."""
    rows = session.execute(
        select(LeaseRow.table_id, LeaseRow.owner)
        .join(TournamentTableRow, TournamentTableRow.table_id == LeaseRow.table_id)
        .where(
            TournamentTableRow.tournament_id == tournament_id,
            TournamentTableRow.broken.is_(False),
            LeaseRow.owner.is_not(None),
        )
    )
    return {table_id: owner for table_id, owner in rows if owner is not None}


def bust(
    session: Session,
    row: TournamentRow,
    table_id: str,
    hand_id: str,
    results: Mapping[int, int],
) -> list[int]:
    """After a hand's result at a tournament's table: each player it left with no chips
    is out (the hand, the stack they started it with, the order the store heard of it)
    and leaves their seat. The players out, in ascending id."""
    chips = ledger.stacks_at(session, table_id)
    out = sorted(player for player in results if chips.get(player, 0) == 0)
    last = session.scalar(
        select(func.max(TournamentEntryRow.out_order)).where(
            TournamentEntryRow.tournament_id == row.id
        )
    )
    order = last or 0
    for player in out:
        entry = _entry(session, row.id, player)
        if entry is None or entry.out_hand is not None:
            continue
        order += 1
        entry.out_hand, entry.out_stack, entry.out_order = hand_id, -results[player], order
        seat = session.scalar(
            select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.player_id == player)
        )
        if seat is not None:
            session.delete(seat)
    session.flush()
    return out


def results(session: Session, tournament_id: int) -> list[TournamentResult]:
    """The places final so far, the best first (players sharing one by name, then id)."""
    get_tournament(session, tournament_id)
    rows = session.execute(
        select(TournamentEntryRow, PlayerRow.name)
        .join(PlayerRow, PlayerRow.id == TournamentEntryRow.player_id)
        .where(
            TournamentEntryRow.tournament_id == tournament_id,
            TournamentEntryRow.place.is_not(None),
        )
    ).all()
    found = [
        TournamentResult(
            entry.place, entry.shared, entry.player_id, name, entry.prize or 0, entry.out_hand
        )
        for entry, name in rows
        if entry.place is not None
    ]
    return sorted(found, key=lambda r: (r.place, r.name.casefold(), r.player_id))


def results_csv(session: Session, tournament_id: int) -> str:
    """The results as CSV with a header (``RESULTS_HEADER``), a name two players share
    with the player's id ("Bob #12") as the ledger's CSV prints it."""
    found = results(session, tournament_id)
    names = ledger.labels(session, (result.player_id for result in found))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULTS_HEADER)
    for result in found:
        writer.writerow(
            [
                result.place,
                result.shared,
                names[result.player_id],
                result.player_id,
                result.prize,
                result.out_hand or "",
            ]
        )
    return out.getvalue()
