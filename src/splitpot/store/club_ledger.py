"""A club's ledger (issue 24): its players' results over the hands that ended at the
club's tables (all of them, a span of time, or one table), from the ledger's hand results,
and the settle-up of those results (``settle.settle_up``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from splitpot.i18n import said
from splitpot.store import ledger
from splitpot.store.clubs import allowed
from splitpot.store.errors import StoreError
from splitpot.store.ledger import HOUSE, labels
from splitpot.store.models import AccountRow, EntryRow, TableRow, TransferRow
from splitpot.store.settle import settle_up
from splitpot.store.values import AccountKind, Payment, TransferKind


@dataclass(frozen=True, slots=True)
class Span:
    """Which hands of a club's tables count: those ending from ``since`` and before
    ``until``, at ``table`` (None: no bound)."""

    since: datetime | None = None
    until: datetime | None = None
    table: str | None = None


@dataclass(frozen=True, slots=True)
class ClubResult:
    """A player's results at the club's tables: tables played, hands dealt, net chips."""

    player_id: int
    name: str  # as the ledger's CSV prints it ("Bob #12" for a name two players share)
    tables: int
    hands: int
    net: int


@dataclass(frozen=True, slots=True)
class ClubLedger:
    """The hands counted, the house's rake, and each player's results, the best net
    first; the nets and the rake sum to zero."""

    hands: int
    rake: int
    players: tuple[ClubResult, ...]


def club_ledger(session: Session, club_id: str, viewer_id: int, span: Span) -> ClubLedger:
    """The club's players' results over the hands of ``span``; for its members."""
    rows = _results(session, club_id, viewer_id, span)
    figures: dict[int, tuple[set[str], set[str], int]] = {}
    hands: set[str] = set()
    rake = 0
    for player_id, table_id, hand_id, amount in rows:
        hands.add(hand_id)
        if player_id is None:
            rake += amount
            continue
        tables, dealt, net = figures.get(player_id, (set(), set(), 0))
        figures[player_id] = (tables | {table_id}, dealt | {hand_id}, net + amount)
    names = labels(session, figures)
    players = sorted(
        (
            ClubResult(player_id, names[player_id], len(tables), len(dealt), net)
            for player_id, (tables, dealt, net) in figures.items()
        ),
        key=lambda result: (-result.net, result.name.casefold(), result.player_id),
    )
    return ClubLedger(len(hands), rake, tuple(players))


def club_settle(session: Session, club_id: str, viewer_id: int, span: Span) -> list[Payment]:
    """Who pays whom to square the results of ``span`` (the house is paid its rake)."""
    ledger = club_ledger(session, club_id, viewer_id, span)
    nets = {player.name: player.net for player in ledger.players}
    if ledger.rake:
        nets[HOUSE] = ledger.rake
    return settle_up(nets)


def _results(
    session: Session, club_id: str, viewer_id: int, span: Span
) -> list[tuple[int | None, str, str, int]]:
    """Each entry of a hand result at the club's tables in ``span``: (player, or None for
    the house; table; hand; chips)."""
    allowed(session, club_id, viewer_id, "ledger")
    where: list[ColumnElement[bool]] = [
        TableRow.club_id == club_id,
        TransferRow.kind == TransferKind.HAND_RESULT.value,
        TransferRow.table_id.not_in(ledger.tournament_tables()),  # tournament chips
    ]
    if span.table is not None:
        if session.scalar(select(TableRow.club_id).where(TableRow.id == span.table)) != club_id:
            raise StoreError(
                said("table {table} is not a table of club {club}", table=span.table, club=club_id)
            )
        where.append(TransferRow.table_id == span.table)
    if span.since is not None:
        where.append(TransferRow.at >= span.since)
    if span.until is not None:
        where.append(TransferRow.at < span.until)
    rows = session.execute(
        select(
            AccountRow.player_id, AccountRow.kind, TableRow.id, TransferRow.hand_id, EntryRow.amount
        )
        .join(EntryRow, EntryRow.transfer_id == TransferRow.id)
        .join(AccountRow, EntryRow.account_id == AccountRow.id)
        .join(TableRow, TableRow.id == TransferRow.table_id)
        .where(*where)
        .order_by(EntryRow.id)
    ).all()
    return [
        (
            None if kind == AccountKind.HOUSE.value else player_id,
            table_id,
            str(hand_id),
            int(amount),
        )
        for player_id, kind, table_id, hand_id, amount in rows
    ]
