"""Hand serials: every hand's number in the whole room, for PokerStars text (issue 20);
the hands already played are numbered in the order they started.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "hand_serials",
        sa.Column("serial", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("hand_id", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_hand_serials_hand_id_hands")
        ),
        sa.PrimaryKeyConstraint("serial", name=op.f("pk_hand_serials")),
        sa.UniqueConstraint("hand_id", name=op.f("uq_hand_serials_hand_id")),
        sqlite_autoincrement=True,
    )
    op.execute("INSERT INTO hand_serials (hand_id) SELECT id FROM hands ORDER BY started_at, id")


def downgrade() -> None:
    op.drop_table("hand_serials")
