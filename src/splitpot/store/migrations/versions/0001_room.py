"""The room: players, sessions, tables, seats, hands, actions, and the chip ledger
(accounts, transfers, entries) with its house account.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def moment() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("name_key", sa.String(length=100), nullable=True),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("created_at", moment(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("name_key", name=op.f("uq_players_name_key")),
    )
    op.create_table(
        "card_tables",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("invite_hash", sa.String(length=64), nullable=True),
        sa.Column("created_at", moment(), nullable=False),
        sa.Column("closed", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["host_id"], ["players.id"], name=op.f("fk_card_tables_host_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_card_tables")),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("created_at", moment(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_sessions_player_id_players")
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_sessions")),
    )
    op.create_index(op.f("ix_sessions_player_id"), "sessions", ["player_id"])
    accounts = op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_accounts_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_accounts_table_id_card_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("key", name=op.f("uq_accounts_key")),
    )
    op.create_index(op.f("ix_accounts_player_id"), "accounts", ["player_id"])
    op.bulk_insert(accounts, [{"key": "house", "kind": "house"}])
    op.create_table(
        "hands",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("started_at", moment(), nullable=False),
        sa.Column("ended_at", moment(), nullable=True),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_hands_table_id_card_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
        sa.UniqueConstraint("table_id", "number", name=op.f("uq_hands_table_id_number")),
    )
    op.create_index(op.f("ix_hands_status"), "hands", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_seats_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_seats_table_id_card_tables")
        ),
        sa.PrimaryKeyConstraint("table_id", "seat", name=op.f("pk_seats")),
        sa.UniqueConstraint("table_id", "player_id", name=op.f("uq_seats_table_id_player_id")),
    )
    op.create_index(op.f("ix_seats_player_id"), "seats", ["player_id"])
    op.create_table(
        "actions",
        sa.Column("hand_id", sa.String(length=40), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=True),
        sa.Column("at", moment(), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_actions_hand_id_hands")),
        sa.PrimaryKeyConstraint("hand_id", "seq", name=op.f("pk_actions")),
    )
    op.create_table(
        "transfers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("at", moment(), nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=True),
        sa.Column("hand_id", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_transfers_hand_id_hands")),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_transfers_table_id_card_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transfers")),
        sa.UniqueConstraint("hand_id", name=op.f("uq_transfers_hand_id")),
    )
    op.create_index(op.f("ix_transfers_table_id"), "transfers", ["table_id"])
    op.create_table(
        "entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("transfer_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_entries_account_id_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["transfer_id"], ["transfers.id"], name=op.f("fk_entries_transfer_id_transfers")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entries")),
    )
    op.create_index("ix_entries_account_id_id", "entries", ["account_id", "id"])
    op.create_index(op.f("ix_entries_transfer_id"), "entries", ["transfer_id"])


def downgrade() -> None:
    for table in (
        "entries",
        "transfers",
        "actions",
        "seats",
        "hands",
        "accounts",
        "sessions",
        "card_tables",
        "players",
    ):
        op.drop_table(table)
