"""Audits: each table's sessions ended with their deals' secrets published (issue 19).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "audits",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("first_hand", sa.Integer(), nullable=False),
        sa.Column("last_hand", sa.Integer(), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_audits_table_id_card_tables")
        ),
        sa.PrimaryKeyConstraint("table_id", "number", name=op.f("pk_audits")),
    )


def downgrade() -> None:
    op.drop_table("audits")
