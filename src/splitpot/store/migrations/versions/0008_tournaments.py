"""Tournaments (RULES.md 8): the tournaments with their own leases, their entries and
places, their tables, and the tournament of a transfer in the ledger.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _key(column: str, table: str, target: str) -> sa.ForeignKeyConstraint:
    """``table.column`` refers to ``target``'s id."""
    referred = target.partition(".")[0]
    return sa.ForeignKeyConstraint([column], [target], name=op.f(f"fk_{table}_{column}_{referred}"))


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=16), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("invite_hash", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("start_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("entries", sa.Integer(), nullable=False),
        sa.Column("pool", sa.BigInteger(), nullable=False),
        sa.Column("hand_for_hand", sa.Boolean(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=True),
        sa.Column("fence", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        _key("host_id", "tournaments", "players.id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_tournaments_club_id"), "tournaments", ["club_id"], unique=False)
    op.create_index(op.f("ix_tournaments_status"), "tournaments", ["status"], unique=False)
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("bot", sa.Boolean(), nullable=False),
        sa.Column("out_hand", sa.String(length=40), nullable=True),
        sa.Column("out_stack", sa.BigInteger(), nullable=False),
        sa.Column("out_order", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("shared", sa.Integer(), nullable=False),
        sa.Column("prize", sa.BigInteger(), nullable=True),
        _key("tournament_id", "tournament_entries", "tournaments.id"),
        _key("player_id", "tournament_entries", "players.id"),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_tournament_entries")),
    )
    op.create_index(
        op.f("ix_tournament_entries_player_id"), "tournament_entries", ["player_id"], unique=False
    )
    op.create_table(
        "tournament_tables",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("ready", sa.Integer(), nullable=False),
        sa.Column("cleared", sa.Integer(), nullable=False),
        sa.Column("next_big_blind", sa.Integer(), nullable=True),
        sa.Column("broken", sa.Boolean(), nullable=False),
        _key("table_id", "tournament_tables", "card_tables.id"),
        _key("tournament_id", "tournament_tables", "tournaments.id"),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_tournament_tables")),
        sa.UniqueConstraint(
            "tournament_id", "number", name=op.f("uq_tournament_tables_tournament_id_number")
        ),
    )
    # a plain column, added in place (SQLite would copy the table to add a foreign key)
    op.add_column("transfers", sa.Column("tournament_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("transfers", "tournament_id")
    for table in ("tournament_tables", "tournament_entries", "tournaments"):
        op.drop_table(table)
