"""Alembic's entry point: runs the migrations on the connection that
splitpot.store.database.migrate() hands over (there is no alembic.ini)."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from splitpot.store.models import Base


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters by copying
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("run the migrations through splitpot.store.open_store()")
run_migrations(connection)
