"""Table leases: each open table is run by one room process at a time (its owner), for a
few seconds at a time, renewed while the process lives. Taking a table over adds one to
its fencing number, and every write for the table checks that number in the same
transaction, so a process that lost a table (paused, cut off, or just slow) can never
write for it again. Safety rests on the fence alone; clocks only decide when a lease
lapses (issue: many server processes)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from splitpot.store.errors import FencedOut
from splitpot.store.models import LeaseRow, TableRow


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


def renew(
    session: Session, owner: str, fences: Mapping[str, int], ttl: float, now: datetime
) -> set[str]:
    """Extend the owner's leases; the tables among ``fences`` it no longer holds (another
    owner took them: their fencing number moved on)."""
    until = now + timedelta(seconds=ttl)
    lost = set()
    for table_id, fence in fences.items():
        renewed = session.execute(
            update(LeaseRow)
            .where(LeaseRow.table_id == table_id, LeaseRow.owner == owner, LeaseRow.fence == fence)
            .values(expires_at=until)
        )
        if renewed.rowcount != 1:  # type: ignore[attr-defined]
            lost.add(table_id)
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


def check_fence(session: Session, table_id: str, fence: int) -> None:
    """Refuse the transaction's write unless ``fence`` is still the table's fencing
    number. The row is read under a shared lock (on PostgreSQL), so a takeover waits for
    this transaction to end, and this write is in the log the new owner reads."""
    current = session.scalar(
        select(LeaseRow.fence).where(LeaseRow.table_id == table_id).with_for_update(read=True)
    )
    if current != fence:
        raise FencedOut(
            table_id,
            f"table {table_id} has been taken over (fencing number {current}, not {fence}): "
            "this process may not write for it",
        )
