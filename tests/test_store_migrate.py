"""A room's start checks the database's revision before it loads Alembic: the newest
revision read from the migrations' file names is Alembic's head, and a database behind it
is still brought up to it (on SQLite and PostgreSQL)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from splitpot.store import Store
from splitpot.store.database import MIGRATIONS, current_revision, migrate, newest_revision


def test_the_newest_revision_is_alembics_head() -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert newest_revision() == ScriptDirectory.from_config(config).get_current_head()


def test_a_database_behind_the_newest_revision_is_migrated(store: Store) -> None:
    assert current_revision(store.engine) == newest_revision()
    tables = sorted(inspect(store.engine).get_table_names())
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:  # as if the newest migration had not run
        config.attributes["connection"] = connection
        command.downgrade(config, "-1")
    before = current_revision(store.engine)
    assert before is not None and before < newest_revision()
    migrate(store.engine)
    assert current_revision(store.engine) == newest_revision()
    assert sorted(inspect(store.engine).get_table_names()) == tables
