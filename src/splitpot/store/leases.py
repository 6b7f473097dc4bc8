"""Table leases: each open table is run by one room process at a time (its owner), for a
few seconds at a time, renewed while the process lives. Taking a table over adds one to
its fencing number, and every write for the table checks that number in the same
transaction, so a process that lost a table (paused, cut off, or just slow) can never
write for it again. Safety rests on the fence alone; clocks only decide when a lease
lapses (issue: many server processes).

A tournament's director runs under a lease of the same kind, on its tournaments row:
one process at a time decides for it, and its writes carry the tournament's fence."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from sqlalchemy import and_, or_, select, tuple_, update
from sqlalchemy.orm import Session

from splitpot.store.bulk import PerDatabase
from splitpot.store.driver import Executor
from splitpot.store.errors import FencedOut
from splitpot.store.models import LeaseRow, TableRow, TournamentRow, core_table


def claim(session: Session, table_id: str, owner: str, ttl: float, now: datetime) -> int | None:
    """Take the table for ``ttl`` seconds if no other owner holds a live lease on it: its
    fencing number (one more than the last holder's), or None while another holds it. An
    owner's own lease is taken again at once with a new number: the owner restarted (a
    process knows the tables it holds and never claims them twice), and whatever is left
    of its former self is fenced out."""
    until = now + timedelta(seconds=ttl)
    lease = session.get(LeaseRow, table_id, with_for_update=True)
    if lease is None:
        session.add(LeaseRow(table_id=table_id, owner=owner, fence=1, expires_at=until))
        session.flush()
        return 1
    if lease.owner not in (None, owner) and lease.expires_at > now:
        return None
    lease.owner, lease.fence, lease.expires_at = owner, lease.fence + 1, until
    return lease.fence


LEASES = core_table(LeaseRow)
RENEW_BATCH = 400  # leases renewed by one statement (a statement's parameters are bounded)


def renew(
    session: Session, owner: str, fences: Mapping[str, int], ttl: float, now: datetime
) -> set[str]:
    """Extend the owner's leases; the tables among ``fences`` it no longer holds (another
    owner took them: their fencing number moved on). Two statements for many tables, in
    SQL's core (a room of 500 tables renewed them one ORM statement each: 15% of its CPU,
    docs/load.md)."""
    until = now + timedelta(seconds=ttl)
    ids = sorted(fences)
    lost: set[str] = set()
    for start in range(0, len(ids), RENEW_BATCH):
        chunk = ids[start : start + RENEW_BATCH]
        pairs = [(table_id, fences[table_id]) for table_id in chunk]
        mine = and_(LEASES.c.owner == owner, tuple_(LEASES.c.table_id, LEASES.c.fence).in_(pairs))
        # locked in the tables' order first, as every write's fence check reads them: an
        # update locks rows in the order it finds them, and with the action log on a
        # connection of its own (PostgreSQL) the two could each wait on the other
        locked = select(LEASES.c.table_id).where(mine).order_by(LEASES.c.table_id)
        held = list(session.scalars(locked.with_for_update()))
        lost |= set(chunk) - set(held)
        if held:
            session.execute(
                update(LEASES).where(LEASES.c.table_id.in_(held)).values(expires_at=until)
            )
    return lost


def release(session: Session, table_id: str, owner: str, fence: int, now: datetime) -> None:
    """Give the table up at once (a process stopping): another may take it now."""
    session.execute(
        update(LeaseRow)
        .where(LeaseRow.table_id == table_id, LeaseRow.owner == owner, LeaseRow.fence == fence)
        .values(owner=None, expires_at=now)
    )


def free_tables(session: Session, now: datetime) -> list[str]:
    """Open tables that no process holds: never leased, released, or lapsed."""
    held = select(LeaseRow.table_id).where(LeaseRow.owner.is_not(None), LeaseRow.expires_at > now)
    return list(
        session.scalars(
            select(TableRow.id)
            .where(TableRow.closed.is_(False), TableRow.id.not_in(held))
            .order_by(TableRow.created_at)
        )
    )


_FENCES = PerDatabase(  # built once: every write of the room runs it (docs/load.md)
    lambda among: (
        select(LEASES.c.table_id, LEASES.c.fence)
        .where(among(LEASES.c.table_id, "tables"))
        .order_by(LEASES.c.table_id)
        .with_for_update(read=True)
    )
)


def check_fences(executor: Executor, fences: Mapping[str, int]) -> None:
    """Refuse the transaction's write unless each table's fencing number is still the one
    in ``fences``: one statement for all of them (a batch of actions logged for many
    tables checked its tables one statement each: 9% of a busy room's CPU, docs/load.md).
    The rows are read under a shared lock (on PostgreSQL), so a takeover waits for this
    transaction to end, and this write is in the log the new owner reads."""
    tables = sorted(fences)
    current: dict[str, int] = dict(_FENCES.driver.rows(executor, {"tables": tables}))
    for table_id in tables:
        if current.get(table_id) != fences[table_id]:
            raise FencedOut(
                table_id,
                f"table {table_id} has been taken over (fencing number "
                f"{current.get(table_id)}, not {fences[table_id]}): "
                "this process may not write for it",
            )


# ---- tournaments (RULES.md 8): the director's lease, on the tournament's row

LEASED = ("registering", "running")  # room.director.Status: a tournament still deciding


class TournamentFencedOut(FencedOut):
    """A write for a tournament another process's director runs now (a newer fencing
    number): this process may never write for it again."""

    def __init__(self, tournament_id: int, message: str) -> None:
        super().__init__("", message)
        self.tournament_id = tournament_id


def claim_tournament(
    session: Session, tournament_id: int, owner: str, ttl: float, now: datetime
) -> int | None:
    """Take the tournament for ``ttl`` seconds unless another owner holds a live lease on
    it: its fencing number, or None (as ``claim`` for a table; None too for a tournament
    that is not there)."""
    row = session.get(TournamentRow, tournament_id, with_for_update=True)
    if row is None:
        return None
    live = row.expires_at is not None and row.expires_at > now
    if row.owner not in (None, owner) and live:
        return None
    row.owner, row.fence = owner, row.fence + 1
    row.expires_at = now + timedelta(seconds=ttl)
    session.flush()
    return row.fence


def renew_tournaments(
    session: Session, owner: str, fences: Mapping[int, int], ttl: float, now: datetime
) -> set[int]:
    """Extend the owner's tournament leases; the tournaments it no longer holds."""
    until = now + timedelta(seconds=ttl)
    lost = set()
    for tournament_id, fence in fences.items():
        renewed = session.execute(
            update(TournamentRow)
            .where(
                TournamentRow.id == tournament_id,
                TournamentRow.owner == owner,
                TournamentRow.fence == fence,
            )
            .values(expires_at=until)
        )
        if renewed.rowcount != 1:  # type: ignore[attr-defined]
            lost.add(tournament_id)
    return lost


def release_tournament(
    session: Session, tournament_id: int, owner: str, fence: int, now: datetime
) -> None:
    """Give the tournament up at once: another process may take it now."""
    session.execute(
        update(TournamentRow)
        .where(
            TournamentRow.id == tournament_id,
            TournamentRow.owner == owner,
            TournamentRow.fence == fence,
        )
        .values(owner=None, expires_at=now)
    )


def free_tournaments(session: Session, now: datetime) -> list[int]:
    """Tournaments registering or running that no process holds, oldest first."""
    return list(
        session.scalars(
            select(TournamentRow.id)
            .where(
                TournamentRow.status.in_(LEASED),
                or_(
                    TournamentRow.owner.is_(None),
                    TournamentRow.expires_at.is_(None),
                    TournamentRow.expires_at <= now,
                ),
            )
            .order_by(TournamentRow.id)
        )
    )


def check_tournament_fence(session: Session, tournament_id: int, fence: int) -> None:
    """Refuse the transaction's write unless ``fence`` is still the tournament's fencing
    number. The row is locked (on PostgreSQL) until the transaction ends: a takeover
    waits for it, and the director's writes to the row that follow need no other lock
    (every writer of a tournament locks its row before the ledger's accounts)."""
    current = session.scalar(
        select(TournamentRow.fence).where(TournamentRow.id == tournament_id).with_for_update()
    )
    if current != fence:
        raise TournamentFencedOut(
            tournament_id,
            f"tournament {tournament_id} has been taken over (fencing number {current}, "
            f"not {fence}): this process may not write for it",
        )
