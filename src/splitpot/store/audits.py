"""The end-of-session audits of a table (FAIRNESS.md "The end-of-session audit"): when a
session ends, the hands dealt since the last audit are one session, and every secret of
their deals (the pre-order and all 52 salts) is published from then on."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from splitpot.store.errors import HandStateError, NotFound
from splitpot.store.models import AuditRow, HandRow
from splitpot.store.tables import get_table
from splitpot.store.values import Audit, AuditedHand, HandStatus


def _value(row: AuditRow) -> Audit:
    return Audit(row.table_id, row.number, row.first_hand, row.last_hand, row.published_at)


def end_session(session: Session, table_id: str, now: datetime) -> Audit | None:
    """Close the table's session: its hands since the last audit are audited from now.
    None when no hand was dealt since; refused while a hand is in play (its cards would
    be published)."""
    get_table(session, table_id)
    playing = session.scalar(
        select(HandRow.id).where(
            HandRow.table_id == table_id, HandRow.status == HandStatus.PLAYING.value
        )
    )
    if playing is not None:
        raise HandStateError(f"table {table_id!r} is playing hand {playing}: finish it first")
    last = session.scalar(select(func.max(HandRow.number)).where(HandRow.table_id == table_id))
    before = session.scalars(
        select(AuditRow).where(AuditRow.table_id == table_id).order_by(AuditRow.number.desc())
    ).first()
    first = 1 if before is None else before.last_hand + 1
    if last is None or last < first:
        return None
    row = AuditRow(
        table_id=table_id,
        number=1 if before is None else before.number + 1,
        first_hand=first,
        last_hand=last,
        published_at=now,
    )
    session.add(row)
    session.flush()
    return _value(row)


def audits(session: Session, table_id: str) -> list[Audit]:
    """The table's published audits, the first session first."""
    rows = session.scalars(
        select(AuditRow).where(AuditRow.table_id == table_id).order_by(AuditRow.number)
    )
    return [_value(row) for row in rows]


def audited_hands(session: Session, table_id: str, number: int) -> tuple[Audit, list[AuditedHand]]:
    """One published audit and the deal secrets of its hands, in order (a hand called off
    before it was recorded has none)."""
    row = session.get(AuditRow, (table_id, number))
    if row is None:
        raise NotFound(f"table {table_id!r} has published no audit {number}")
    hands = session.scalars(
        select(HandRow)
        .where(
            HandRow.table_id == table_id,
            HandRow.number >= row.first_hand,
            HandRow.number <= row.last_hand,
        )
        .order_by(HandRow.number)
    )
    found = [
        AuditedHand(hand.id, hand.number, HandStatus(hand.status), hand.setup["fairness"])
        for hand in hands
        if isinstance(hand.setup.get("fairness"), dict)
    ]
    return _value(row), found
