"""A room's start checks the database's revision before it loads Alembic: the newest
revision read from the migrations' file names is Alembic's head, and a database behind it
is still brought up to it (on SQLite and PostgreSQL)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from splitpot.store import LedgerTotals, Store
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


def test_the_accounts_already_there_get_the_sum_of_their_entries(store: Store) -> None:
    """Migration 0009 keeps each account's chips beside its entries: a room's accounts from
    before it get the sum of their entries, and the ledger is whole after it."""
    host = store.create_guest("Host").player.id
    table, _ = store.create_table("Old", {"seats": 6, "variant": "o8"}, host)
    ann, bob = (store.create_guest(name).player.id for name in ("Ann", "Bob"))
    store.sit(table.id, 1, ann, 150)
    store.sit(table.id, 2, bob, 100)
    for won in (30, -45, 20):
        hand = store.start_hand(table.id, {"button": 1, "seats": [1, 2]})
        store.finish_hand(hand.id, {}, {ann: won, bob: -won - 1}, rake=1)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0008")
        command.upgrade(config, "head")
    assert {seat.player_id: seat.chips for seat in store.seats(table.id)} == {ann: 155, bob: 92}
    assert store.balance(ann) == -150 and store.balance(bob) == -100
    assert store.check_invariant() == LedgerTotals(balances=-250, on_tables=247, house=3)
