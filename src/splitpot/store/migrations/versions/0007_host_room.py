"""The host's room (issue 24): notes on players, clubs with their members, recurring games
and log, a table's club, and the author of a host's stack edit in the ledger.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.schema import SchemaItem

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _player(column: str, table: str, *, nullable: bool = False) -> list[SchemaItem]:
    """A column naming a player, with its foreign key."""
    return [
        sa.Column(column, sa.Integer(), nullable=nullable),
        sa.ForeignKeyConstraint(
            [column], ["players.id"], name=op.f(f"fk_{table}_{column}_players")
        ),
    ]


def _club(table: str) -> list[SchemaItem]:
    return [
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name=op.f(f"fk_{table}_club_id_clubs")),
    ]


def upgrade() -> None:
    op.create_table(
        "notes",
        *_player("owner_id", "notes"),
        *_player("subject_id", "notes"),
        sa.Column("text", sa.String(length=2000), nullable=False),
        sa.Column("colour", sa.String(length=16), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("owner_id", "subject_id", name=op.f("pk_notes")),
    )
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        *_player("owner_id", "clubs"),
        sa.Column("membership", sa.String(length=8), nullable=False),
        sa.Column("invite_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clubs")),
    )
    op.create_table(
        "club_members",
        *_club("club_members"),
        *_player("player_id", "club_members"),
        sa.Column("role", sa.String(length=8), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("club_id", "player_id", name=op.f("pk_club_members")),
    )
    op.create_index(op.f("ix_club_members_player_id"), "club_members", ["player_id"], unique=False)
    op.create_table(
        "club_games",
        sa.Column("id", sa.Integer(), nullable=False),
        *_club("club_games"),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("weekday", sa.Integer(), nullable=False),
        sa.Column("minute", sa.Integer(), nullable=False),
        sa.Column("zone", sa.String(length=64), nullable=False),
        *_player("host_id", "club_games"),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["card_tables.id"], name=op.f("fk_club_games_table_id_card_tables")
        ),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_games")),
    )
    op.create_index(op.f("ix_club_games_club_id"), "club_games", ["club_id"], unique=False)
    op.create_index(op.f("ix_club_games_next_at"), "club_games", ["next_at"], unique=False)
    op.create_table(
        "club_log",
        sa.Column("id", sa.Integer(), nullable=False),
        *_club("club_log"),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        *_player("actor_id", "club_log", nullable=True),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("fields", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_log")),
    )
    op.create_index(op.f("ix_club_log_club_id"), "club_log", ["club_id"], unique=False)
    # plain columns, added in place (SQLite would copy a table to add a foreign key)
    op.add_column("card_tables", sa.Column("club_id", sa.String(length=16), nullable=True))
    op.create_index(op.f("ix_card_tables_club_id"), "card_tables", ["club_id"], unique=False)
    op.add_column("transfers", sa.Column("author_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("transfers", "author_id")
    op.drop_index(op.f("ix_card_tables_club_id"), table_name="card_tables")
    op.drop_column("card_tables", "club_id")
    for table in ("club_log", "club_games", "club_members", "clubs", "notes"):
        op.drop_table(table)
