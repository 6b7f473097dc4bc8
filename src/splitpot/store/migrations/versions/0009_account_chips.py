"""Each ledger account's chips kept as a running total beside its entries (issue 26: a
table's stacks were summed from every hand it had played, a cost that grew with the
room's age); the accounts already there get the sum of their entries.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "accounts", sa.Column("chips", sa.BigInteger(), server_default="0", nullable=False)
    )
    op.execute(
        "UPDATE accounts SET chips = (SELECT COALESCE(SUM(entries.amount), 0) FROM entries "
        "WHERE entries.account_id = accounts.id)"
    )


def downgrade() -> None:
    op.drop_column("accounts", "chips")
