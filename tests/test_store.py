"""The store: migrations match the models; players and sessions; tables and seats; hand
logs and crash recovery; the chip ledger and its invariant. Each test that touches a
database runs on SQLite and on PostgreSQL (tests/store_fixtures.py)."""

from __future__ import annotations

import csv
import hashlib
import io
import random
import re
import threading
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from hypothesis import given
from hypothesis import strategies as st
from platformdirs import user_data_dir
from sqlalchemy import Column, Connection, Integer, MetaData, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from store_fixtures import (
    SETUP,
    at_once,
    chips,
    table_with_players,
    until_a_transaction_waits_on_a_lock,
)

from splitpot.store import (
    AccountKind,
    BadName,
    BadPassword,
    HandStateError,
    HandStatus,
    Hosting,
    InvariantBroken,
    LedgerError,
    LedgerTotals,
    LoginFailed,
    NameTaken,
    NotFound,
    Payment,
    SeatError,
    SeatRecordStatus,
    Store,
    StoreError,
    TransferKind,
    default_database_path,
    ledger,
    normalise_url,
    open_store,
    settle_up,
)
from splitpot.store import hands as hands_module
from splitpot.store.models import (
    AccountRow,
    Base,
    EntryRow,
    PlayerRow,
    SessionRow,
    TableRow,
    TransferRow,
    core_table,
)

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


# Opening the database


def test_migrations_build_exactly_the_models(store: Store) -> None:
    with store.engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "compare_server_default": True}
        )
        assert compare_metadata(context, Base.metadata) == []
        # the comparison does see a difference when there is one
        changed = MetaData()
        for table in Base.metadata.tables.values():
            table.to_metadata(changed)
        changed.tables["players"].append_column(Column("extra", Integer))
        assert [diff[0] for diff in compare_metadata(context, changed)] == ["add_column"]
        assert connection.scalar(text("SELECT version_num FROM alembic_version")) == "0009"


def test_reopening_keeps_everything_and_migrates_nothing(make_store: Callable[..., Store]) -> None:
    first = make_store()
    alice = first.create_account("Alice", "opensesame")
    table, _ = first.create_table("T", {}, alice.player.id)
    first.sit(table.id, 1, alice.player.id, 100)
    hand = first.start_hand(table.id, SETUP)
    first.append_action(hand.id, 1, "fold")
    first.close()  # as if the process died here
    again = make_store()
    assert again.player_for_token(alice.token) == alice.player
    [log] = again.unfinished_hands()
    assert (log.id, [a.kind for a in log.actions]) == (hand.id, ["fold"])
    assert chips(again, table.id) == {alice.player.id: 100}


def test_every_process_on_a_database_reads_its_one_room_id(
    make_store: Callable[..., Store], tmp_path: Path
) -> None:
    """The migrations give a database its room id (the cluster's Redis names carry it):
    the same for every store opened on it, another for another database."""
    first, second = make_store(), make_store()
    assert first.room_id() == second.room_id()
    assert len(first.room_id()) == 16 and int(first.room_id(), 16) >= 0
    other = open_store(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    try:
        assert other.room_id() != first.room_id()
    finally:
        other.close()


def test_the_tables_a_player_sits_at_and_hosts(store: Store) -> None:
    """Where a hello finds a player's tables, in any process, and how many they host."""
    ann = store.create_guest("Ann").player
    bob = store.create_guest("Bob").player
    first, _ = store.create_table("One", {}, ann.id)
    second, _ = store.create_table("Two", {}, ann.id)
    store.sit(second.id, 1, bob.id, 100)
    store.sit(first.id, 2, bob.id, 100)
    assert store.tables_of(bob.id) == [first.id, second.id]  # oldest first
    assert store.tables_of(ann.id) == []
    assert (store.hosting(ann.id), store.hosting(bob.id)) == (Hosting(2, 2, 2), Hosting(0, 0, 0))
    store.leave(first.id, bob.id)
    assert store.tables_of(bob.id) == [second.id]
    assert store.hosting(ann.id) == Hosting(2, 1, 2), "an empty table is not in use"
    store.close_table(second.id)
    assert store.hosting(ann.id) == Hosting(1, 0, 2), "a closed table is still made today"


def test_sqlite_has_wal_and_foreign_keys(tmp_path: Path) -> None:
    opened = open_store(f"sqlite:///{tmp_path / 'deep' / 'room.sqlite3'}")
    try:
        with opened.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert (tmp_path / "deep" / "room.sqlite3").exists()
    finally:
        opened.close()


def test_urls_and_default_path() -> None:
    assert normalise_url("postgresql://u:p@db:5432/room").drivername == "postgresql+psycopg"
    assert normalise_url("postgres://u@db/room").drivername == "postgresql+psycopg"
    assert normalise_url("postgresql+psycopg://u@db/room").drivername == "postgresql+psycopg"
    assert normalise_url("sqlite:///x.sqlite3").drivername == "sqlite"
    with pytest.raises(StoreError, match="unsupported database 'mysql'"):
        normalise_url("mysql://root@localhost/room")
    with pytest.raises(StoreError, match=r"not a database URL: 'room\.db'"):
        normalise_url("room.db")
    assert default_database_path() == Path(user_data_dir("splitpot")) / "room.sqlite3"


# Players and sessions


def test_guests_get_a_trimmed_name_and_a_session(store: Store) -> None:
    ann = store.create_guest("  Ann  ")
    other = store.create_guest("Ann")
    assert (ann.player.name, ann.player.guest) == ("Ann", True)
    assert other.player.id != ann.player.id  # guests may share a name
    assert len(ann.token) >= 43 and ann.token != other.token
    assert store.player_for_token(ann.token) == ann.player
    assert store.player_for_token(other.token) == other.player
    assert store.player_for_token("not-a-token") is None
    assert store.balance(ann.player.id) == 0


def test_a_write_the_database_refuses_is_a_store_error_and_keeps_nothing(store: Store) -> None:
    """A broken constraint the store's own checks did not catch (two writers racing) is
    the store's error, naming the refusal, in the ORM's writes and the core's alike; and
    the whole transaction is undone, the rows written before the refusal too."""
    store.create_account("Ann", "a long password")
    players = core_table(PlayerRow)
    now = datetime.now(UTC)
    refused = r"the database refused the change: .*(unique|UNIQUE)"
    with pytest.raises(StoreError, match=refused), store._write() as session:
        session.add(PlayerRow(name="Bob", created_at=now))
        session.flush()
        session.add(PlayerRow(name="ANN", name_key="ann", created_at=now))
    with pytest.raises(StoreError, match=refused), store._write_core() as connection:
        connection.execute(players.insert(), {"name": "Cy", "created_at": now})
        connection.execute(players.insert(), {"name": "ann", "name_key": "ann", "created_at": now})
    with store.engine.connect() as db:
        assert list(db.scalars(select(PlayerRow.name))) == ["Ann"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "a name needs at least one character"),
        ("   ", "a name needs at least one character"),
        ("x" * 25, "is longer than 24 characters"),
        ("tab\there", r"holds U\+0009 \(a control character\), which cannot be printed"),
        ("nul\x00", r"holds U\+0000 \(a control character\), which cannot be printed"),
    ],
)
def test_bad_names_are_refused(store: Store, name: str, message: str) -> None:
    with pytest.raises(BadName, match=message):
        store.create_guest(name)
    with pytest.raises(BadName, match=message):
        store.create_account(name, "long enough")
    assert store.create_guest("y" * 24).player.name == "y" * 24


def test_accounts_log_in_and_names_are_unique_ignoring_case(store: Store) -> None:
    alice = store.create_account("Alice", "correct horse")
    assert not alice.player.guest
    for taken in ("alice", " ALICE ", "\uff21lice"):  # the last one with a full-width A
        with pytest.raises(NameTaken, match="is taken"):
            store.create_account(taken, "another password")
    store.create_guest("alice")  # a guest does not take an account's name
    again = store.log_in(" aLiCe ", "correct horse")
    assert again.player == alice.player and again.token != alice.token
    assert store.player_for_token(again.token) == alice.player


def test_wrong_password_and_unknown_name_fail_alike(store: Store) -> None:
    store.create_account("Bob", "hunter2hunter2")
    store.create_guest("Carol")
    failures = []
    for name, password in (
        ("Bob", "wrong password"),
        ("Nobody", "hunter2hunter2"),
        ("Carol", "whatever it is"),
    ):
        with pytest.raises(LoginFailed) as caught:
            store.log_in(name, password)
        failures.append(str(caught.value))
    assert failures == ["unknown name or wrong password"] * 3


def test_passwords_need_eight_characters_and_are_hashed(store: Store) -> None:
    with pytest.raises(BadPassword, match="a password needs 8 to 1024 characters, not 7"):
        store.create_account("Dave", "1234567")
    dave = store.create_account("Dave", "12345678")
    with Session(store.engine) as session:
        stored = session.scalar(select(text("password_hash")).select_from(text("players")))
        hashes = session.scalars(select(SessionRow.token_hash)).all()
    assert stored is not None and stored.startswith("$argon2id$") and "12345678" not in stored
    assert hashes == [hashlib.sha256(dave.token.encode()).hexdigest()]


def test_log_out_revokes_only_that_token(store: Store) -> None:
    first = store.create_account("Erin", "password!")
    second = store.log_in("Erin", "password!")
    assert store.log_out(first.token) is True
    assert store.player_for_token(first.token) is None
    assert store.player_for_token(second.token) == first.player
    assert store.log_out(first.token) is False


# Tables and seats


def test_tables_public_private_and_invites(store: Store) -> None:
    host = store.create_guest("Host").player.id
    public, no_invite = store.create_table(" Friday ", {"seats": 6, "small_blind": 1}, host)
    private, invite = store.create_table("Secret", {"seats": 2}, host, private=True)
    assert no_invite is None and invite is not None and len(invite) >= 43
    assert re.fullmatch(r"[a-z0-9]{8}", public.id)
    assert (public.name, public.settings, public.host_id, public.private) == (
        "Friday",
        {"seats": 6, "small_blind": 1},
        host,
        False,
    )
    assert store.table(private.id) == private and private.private
    assert [t.id for t in store.list_tables()] == [public.id]
    assert {t.id for t in store.list_tables(include_private=True)} == {public.id, private.id}
    assert store.check_invite(private.id, invite)
    assert not store.check_invite(private.id, invite + "x")
    assert not store.check_invite(public.id, invite)
    with Session(store.engine) as session:
        assert (
            session.get(TableRow, private.id).invite_hash
            == hashlib.sha256(  # type: ignore[union-attr]
                invite.encode()
            ).hexdigest()
        )
    with pytest.raises(NotFound, match="no table 'nope'"):
        store.table("nope")
    with pytest.raises(NotFound, match="no player 999"):
        store.create_table("T", {}, 999)
    with pytest.raises(StoreError, match="a table name needs 1 to 64 characters"):
        store.create_table("  ", {}, host)
    with pytest.raises(StoreError, match="the table's settings is not JSON"):
        store.create_table("T", {"bad": {1, 2}}, host)


def test_sit_buys_in_and_leave_cashes_out(store: Store) -> None:
    table_id, (ann, bob) = table_with_players(store, 500, 200)
    seats = store.seats(table_id)
    assert [(s.seat, s.name, s.chips, s.status) for s in seats] == [
        (1, "P1", 500, SeatRecordStatus.WAITING),
        (2, "P2", 200, SeatRecordStatus.WAITING),
    ]
    assert (store.balance(ann), store.balance(bob)) == (-500, -200)
    assert store.top_up(table_id, bob, 300).chips == 500
    assert (
        store.set_seat_status(table_id, bob, SeatRecordStatus.SITTING_OUT).status == "sitting_out"
    )
    assert store.leave(table_id, ann) == 500
    assert store.balance(ann) == 0
    assert [s.player_id for s in store.seats(table_id)] == [bob]
    assert store.check_invariant() == LedgerTotals(balances=-500, on_tables=500, house=0)


def test_seats_refused_and_nothing_half_written(store: Store) -> None:
    table_id, (ann,) = table_with_players(store, 100)
    bob = store.create_guest("Bob").player.id
    with pytest.raises(SeatError, match=f"seat 1 at table '{table_id}' is taken"):
        store.sit(table_id, 1, bob, 100)
    with pytest.raises(SeatError, match=f"player {ann} already sits at table '{table_id}'"):
        store.sit(table_id, 2, ann, 100)
    for seat in (0, 10, True):
        with pytest.raises(SeatError, match=f"no seat {seat!r} at table"):
            store.sit(table_id, seat, bob, 100)
    for buy_in in (0, -5, True):
        with pytest.raises(
            LedgerError, match=f"buy-in must be a positive whole number of chips, not {buy_in!r}"
        ):
            store.sit(table_id, 2, bob, buy_in)
    assert [s.player_id for s in store.seats(table_id)] == [ann]  # the seat was not kept
    with pytest.raises(NotFound, match=f"player {bob} does not sit at table"):
        store.top_up(table_id, bob, 10)
    with pytest.raises(NotFound, match=f"player {bob} does not sit at table"):
        store.leave(table_id, bob)
    with pytest.raises(NotFound, match="no player 999"):
        store.sit(table_id, 3, 999, 100)
    assert store.balance(bob) == 0
    store.check_invariant()


def test_close_table_cashes_everyone_out(store: Store) -> None:
    table_id, (ann, bob) = table_with_players(store, 300, 100)
    hand = store.start_hand(table_id, SETUP)
    with pytest.raises(HandStateError, match=f"is playing hand {hand.id}: finish it first"):
        store.close_table(table_id)
    store.finish_hand(hand.id, {}, {ann: 50, bob: -50})
    assert store.close_table(table_id) == {ann: 350, bob: 50}
    assert store.table(table_id).closed and store.seats(table_id) == []
    assert store.list_tables() == [] and store.list_tables(include_closed=True)[0].id == table_id
    assert (store.balance(ann), store.balance(bob)) == (50, -50)
    for refused in (
        lambda: store.sit(table_id, 1, ann, 10),
        lambda: store.start_hand(table_id, SETUP),
        lambda: store.close_table(table_id),
    ):
        with pytest.raises(StoreError, match=f"table '{table_id}' is closed"):
            refused()


# Hands


def test_hand_log_appends_in_order_and_replays(store: Store) -> None:
    table_id, _ = table_with_players(store, 100, 100)
    hand = store.start_hand(table_id, SETUP)
    assert (hand.id, hand.number, hand.status) == (f"{table_id}-1", 1, HandStatus.PLAYING)
    with pytest.raises(HandStateError, match=f"still playing hand {hand.id}"):
        store.start_hand(table_id, {**SETUP, "button": 2})  # another hand (the same: sent again)
    logged = [
        store.append_action(hand.id, seat, kind, amount)
        for seat, kind, amount in [(1, "call", None), (2, "raise", 40), (1, "allin", None)]
    ]
    assert [a.seq for a in logged] == [1, 2, 3]
    [log] = store.unfinished_hands()
    assert log.setup == SETUP and log.status is HandStatus.PLAYING
    assert [(a.seq, a.seat, a.kind, a.amount) for a in log.actions] == [
        (1, 1, "call", None),
        (2, 2, "raise", 40),
        (3, 1, "allin", None),
    ]
    assert log == store.hand_log(hand.id)
    assert all(a.at.tzinfo is not None for a in log.actions)
    with pytest.raises(StoreError, match="an action kind needs 1 to 16 characters"):
        store.append_action(hand.id, 1, "")
    with pytest.raises(StoreError, match=r"amount is a whole number of chips, not 2\.5"):
        store.append_action(hand.id, 1, "bet", 2.5)  # type: ignore[arg-type]
    with pytest.raises(NotFound, match="no hand 'zz-1'"):
        store.append_action("zz-1", 1, "fold")


def test_actions_of_several_hands_are_logged_in_one_transaction_or_not_at_all(
    store: Store,
) -> None:
    """The room's batched log: many tables' actions in one commit, all or none."""
    first_table, _ = table_with_players(store, 100, 100)
    second_table, _ = table_with_players(store, 100, 100)
    first = store.start_hand(first_table, SETUP)
    second = store.start_hand(second_table, SETUP)
    logged = store.append_actions(
        [
            (first.id, 1, "call", None, None),
            (second.id, 1, "raise", 8, 1),
            (first.id, 2, "check", None, 2),
        ]
    )
    assert [(a.seq, a.seat, a.kind, a.amount) for a in logged] == [
        (1, 1, "call", None),
        (1, 1, "raise", 8),
        (2, 2, "check", None),
    ]
    with pytest.raises(NotFound, match="no hand 'zz-1'"):
        store.append_actions([(second.id, 2, "call", None, 2), ("zz-1", 1, "fold", None, 1)])
    assert [a.kind for a in store.hand_log(second.id).actions] == ["raise"]


def test_hand_writes_sent_again_after_a_lost_answer_are_written_once(store: Store) -> None:
    """The room sends a write again when the database went away before answering: the
    start, each numbered action, the result and a cancel, held already, are not made twice;
    an action numbered out of turn, or another action at a held number, is refused."""
    table_id, (ann, bob) = table_with_players(store, 100, 100)
    hand = store.start_hand(table_id, SETUP)
    assert store.start_hand(table_id, SETUP) == hand
    with pytest.raises(HandStateError, match=f"still playing hand {hand.id}"):
        store.start_hand(table_id, {**SETUP, "deck": ["Kd"]})
    store.append_actions([(hand.id, 1, "raise", 10, 1)])
    store.append_actions([(hand.id, 1, "raise", 10, 1), (hand.id, 2, "call", None, 2)])
    store.append_action(hand.id, 2, "call", None, seq=2)
    with pytest.raises(HandStateError, match=f"hand {hand.id} has another action 2 already"):
        store.append_action(hand.id, 2, "fold", None, seq=2)
    with pytest.raises(HandStateError, match="has 2 actions: action 4 is not next"):
        store.append_action(hand.id, 1, "check", None, seq=4)
    log = store.hand_log(hand.id).actions
    assert [(a.seq, a.seat, a.kind, a.amount) for a in log] == [
        (1, 1, "raise", 10),
        (2, 2, "call", None),
    ]
    finished = store.finish_hand(hand.id, {"won": "Ann"}, {ann: 10, bob: -10})
    assert store.finish_hand(hand.id, {"won": "Ann"}, {ann: 10, bob: -10}) == finished
    with pytest.raises(HandStateError, match="finished, not playing"):
        store.finish_hand(hand.id, {"won": "Bob"}, {ann: -10, bob: 10})
    assert chips(store, table_id) == {ann: 110, bob: 90}
    store.check_invariant()
    second = store.start_hand(table_id, SETUP)
    cancelled = store.cancel_hand(second.id)
    assert store.cancel_hand(second.id) == cancelled


def test_cancel_hand_moves_no_chip(store: Store) -> None:
    table_id, players = table_with_players(store, 100, 250)
    hand = store.start_hand(table_id, SETUP)
    store.append_action(hand.id, 1, "raise", 60)
    cancelled = store.cancel_hand(hand.id)
    assert cancelled.status is HandStatus.CANCELLED and cancelled.ended_at is not None
    assert store.unfinished_hands() == []
    assert chips(store, table_id) == dict(zip(players, (100, 250), strict=True))
    with pytest.raises(HandStateError, match=f"hand {hand.id} is cancelled, not playing"):
        store.append_action(hand.id, 2, "call")
    with pytest.raises(HandStateError, match="is cancelled, not playing"):
        store.finish_hand(hand.id, {}, {players[0]: 0, players[1]: 0})
    assert store.start_hand(table_id, SETUP).id == f"{table_id}-2"
    assert [h.number for h in store.table_hands(table_id)] == [2, 1]
    assert [h.number for h in store.table_hands(table_id, limit=1)] == [2]


def test_finish_hand_writes_results_rake_and_record(store: Store) -> None:
    table_id, (ann, bob, cat) = table_with_players(store, 500, 300, 200)
    hand = store.start_hand(table_id, SETUP)
    record = {"id": hand.id, "awards": [{"seat": 1, "chips": 195}]}
    finished = store.finish_hand(hand.id, record, {ann: 95, bob: -100, cat: 0}, rake=5)
    assert finished.status is HandStatus.FINISHED and finished.record == record
    assert store.hand(hand.id) == finished
    assert chips(store, table_id) == {ann: 595, bob: 200, cat: 200}
    assert store.check_invariant() == LedgerTotals(balances=-1000, on_tables=995, house=5)
    with pytest.raises(HandStateError, match=f"hand {hand.id} is finished, not playing"):
        store.finish_hand(hand.id, {**record, "awards": []}, {ann: 95, bob: -100}, rake=5)
    with pytest.raises(HandStateError, match="is finished, not playing"):
        store.cancel_hand(hand.id)


def test_hands_of_several_tables_start_in_one_transaction(store: Store) -> None:
    tables = [table_with_players(store, 100, 100)[0] for _ in range(3)]
    store.close_table(tables[2])
    with pytest.raises(StoreError, match=f"table {tables[2]!r} is closed"):
        store.start_hands([(table_id, SETUP) for table_id in tables])
    assert [store.table_hands(table_id) for table_id in tables] == [[], [], []]
    with pytest.raises(StoreError, match=f"one hand a table at a time: {tables[0]} twice in"):
        store.start_hands([(tables[0], SETUP), (tables[0], SETUP)])
    first = store.start_hand(tables[0], SETUP)
    again, new = store.start_hands([(tables[0], SETUP), (tables[1], {"button": 2})])
    assert again == first  # sent again: as it was stored
    assert (new.id, new.number, new.serial) == (f"{tables[1]}-1", 1, first.serial + 1)
    assert store.hand_log(new.id).setup == {"button": 2}
    with pytest.raises(HandStateError, match=f"still playing hand {new.id}"):
        store.start_hands([(tables[0], SETUP), (tables[1], SETUP)])


def test_hands_of_several_tables_finish_in_one_transaction(store: Store) -> None:
    (one, (ann, bob)), (two, (cat, dan)) = (table_with_players(store, 500, 300) for _ in "ab")
    first, second = (store.start_hand(table_id, SETUP) for table_id in (one, two))
    bad = (second.id, {}, {cat: 50, dan: -40}, 0)
    with pytest.raises(LedgerError, match=f"hand {second.id}: results sum to 10"):
        store.finish_hands([(first.id, {"n": 1}, {ann: 95, bob: -100}, 5), bad])
    assert [store.hand(hand.id).status for hand in (first, second)] == [HandStatus.PLAYING] * 2
    assert chips(store, one) == {ann: 500, bob: 300} and store.check_invariant().house == 0
    with pytest.raises(StoreError, match=f"a hand is finished once: {first.id} twice in one"):
        store.finish_hands([(first.id, {}, {ann: 0, bob: 0}, 0)] * 2)
    ends = [
        (first.id, {"n": 1}, {ann: 95, bob: -100}, 5),
        (second.id, {"n": 2}, {cat: -297, dan: 290}, 7),
    ]
    ends.sort(key=lambda end: end[0], reverse=True)  # not the order the hands are read in
    finished = store.finish_hands(ends)
    assert [(hand.id, hand.status, hand.record) for hand in finished] == [
        (hand_id, HandStatus.FINISHED, record) for hand_id, record, _, _ in ends
    ]
    assert chips(store, one) == {ann: 595, bob: 200} and chips(store, two) == {cat: 203, dan: 590}
    assert store.check_invariant() == LedgerTotals(balances=-1600, on_tables=1588, house=12)
    assert store.finish_hands(ends) == finished  # sent again: nothing more is written
    assert store.check_invariant().house == 12


def test_transfers_written_together_each_see_the_chips_the_ones_before_left(
    store: Store,
) -> None:
    table_id, (ann, bob) = table_with_players(store, 100, 100)
    now = datetime.now(UTC)
    with store.engine.begin() as connection:
        ann_stack, bob_stack = (
            ledger.open_account(connection, AccountKind.TABLE, player, table_id)
            for player in (ann, bob)
        )
        hand = TransferKind.HAND_RESULT
        first = ledger.Transfer(hand, [(ann_stack, -60), (bob_stack, 60)], table_id)
        second = ledger.Transfer(hand, [(ann_stack, -60), (bob_stack, 60)], table_id)
        with pytest.raises(LedgerError, match=r"has 40 chips at table \w+, not the 60"):
            ledger.post_all(connection, [first, second], now)
        back = ledger.Transfer(hand, [(bob_stack, -160), (ann_stack, 160)], table_id)
        ledger.post_all(connection, [first, back], now)
    assert chips(store, table_id) == {ann: 200, bob: 0}
    store.check_invariant()


@pytest.mark.parametrize(
    ("results", "rake", "message"),
    [
        ({0: 100, 1: -90}, 0, "results sum to 10 and the rake is 0; together they must"),
        ({0: 100, 1: -100}, 5, "results sum to 0 and the rake is 5"),
        ({0: 95, 1: -100}, -5, "the rake must be a whole number >= 0, not -5"),
        ({0: 301, 1: -301}, 0, "has 300 chips at table .*, not the 301 the hand_result takes"),
        ({0: 10, 2: -10}, 0, "player .* has no chips at"),
        ({0: True, 1: -1}, 0, "result True is not chips"),
        ({}, 0, "a result needs the players dealt in"),
    ],
)
def test_bad_hand_results_write_nothing(
    store: Store, results: dict[int, int], rake: int, message: str
) -> None:
    table_id, players = table_with_players(store, 500, 300)
    outsider = store.create_guest("Outsider").player.id
    ids = [*players, outsider]
    hand = store.start_hand(table_id, SETUP)
    with pytest.raises(LedgerError, match=message):
        store.finish_hand(hand.id, {}, {ids[i]: net for i, net in results.items()}, rake)
    assert store.hand(hand.id).status is HandStatus.PLAYING
    assert chips(store, table_id) == dict(zip(players, (500, 300), strict=True))
    assert store.check_invariant().house == 0


def test_finish_hand_is_one_transaction(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, (ann, bob) = table_with_players(store, 500, 300)
    hand = store.start_hand(table_id, SETUP)
    store.append_action(hand.id, 1, "bet", 100)

    hand_results = hands_module.ledger.hand_results

    def crash(*args: Any) -> None:  # after the ledger's entries were written
        hand_results(*args)
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(hands_module.ledger, "hand_results", crash)
    with pytest.raises(RuntimeError, match="the disk is full"):
        store.finish_hand(hand.id, {"ok": True}, {ann: 100, bob: -100})
    monkeypatch.undo()
    with Session(store.engine) as session:
        assert (
            session.scalars(select(TransferRow).where(TransferRow.hand_id == hand.id)).all() == []
        )
    assert store.hand(hand.id).status is HandStatus.PLAYING
    assert chips(store, table_id) == {ann: 500, bob: 300}
    store.finish_hand(hand.id, {"ok": True}, {ann: 100, bob: -100})
    assert chips(store, table_id) == {ann: 600, bob: 200}


def test_hand_setup_and_record_must_be_json(store: Store) -> None:
    table_id, (ann, bob) = table_with_players(store, 100, 100)
    with pytest.raises(StoreError, match=f"the setup of table {table_id}.s hand is not JSON"):
        store.start_hand(table_id, {"deck": {"As"}})
    hand = store.start_hand(table_id, SETUP)
    with pytest.raises(StoreError, match=f"hand {hand.id}'s record is not JSON"):
        store.finish_hand(hand.id, {"when": datetime.now(UTC)}, {ann: 0, bob: 0})
    assert store.hand(hand.id).status is HandStatus.PLAYING


def test_concurrent_writers_queue_instead_of_failing(store: Store) -> None:
    table_id, players = table_with_players(store, 100, 100, 100, 100)
    hand = store.start_hand(table_id, SETUP)

    def work(player: int, seat: int) -> None:
        for _ in range(10):
            store.append_action(hand.id, seat, "check")
            store.top_up(table_id, player, 1)

    assert at_once(work, [(p, i) for i, p in enumerate(players, 1)]) == []
    log = store.hand_log(hand.id)
    assert [a.seq for a in log.actions] == list(range(1, 41))
    assert Counter(a.seat for a in log.actions) == dict.fromkeys(range(1, 5), 10)
    assert set(chips(store, table_id).values()) == {110}
    store.check_invariant()


def test_stores_moving_one_accounts_chips_at_once_keep_its_total(
    make_store: Callable[..., Store],
) -> None:
    """Running totals under contention: three stores on one database (as three processes),
    each running its own table, top up Ann from her one balance and rake hands into the
    one house account at once; no move is lost, and every account's total is still the
    sum of its entries."""
    stores = [make_store() for _ in range(3)]
    host = stores[0].create_guest("Host").player.id
    ann, bob = (stores[0].create_guest(name).player.id for name in ("Ann", "Bob"))
    tables = [stores[0].create_table(f"T{n}", {"seats": 6}, host)[0].id for n in range(3)]
    for table_id in tables:
        stores[0].sit(table_id, 1, ann, 100)
        stores[0].sit(table_id, 2, bob, 100)

    def work(store: Store, table_id: str) -> None:
        for _ in range(8):
            store.top_up(table_id, ann, 1)
            hand = store.start_hand(table_id, SETUP)
            store.finish_hand(hand.id, {}, {ann: -2, bob: 1}, rake=1)

    assert at_once(work, zip(stores, tables, strict=True)) == []
    for table_id in tables:
        assert chips(stores[1], table_id) == {ann: 100 + 8 - 16, bob: 100 + 8}
    assert stores[2].balance(ann) == -3 * (100 + 8)
    totals = LedgerTotals(balances=-3 * (100 + 8 + 100), on_tables=3 * (92 + 108), house=24)
    assert stores[0].check_invariant() == totals


def test_two_transactions_opening_one_new_account_at_once_share_it(store: Store) -> None:
    """Two writers (two processes on PostgreSQL) open one account first at one moment, a
    player's stack at a table, say: the second waits on the first's new row and, once it
    is committed, takes that account; neither fails."""
    if not store.concurrent_writes:
        pytest.skip("SQLite has one writer at a time: no two transactions open an account")
    ann = store.create_guest("Ann").player.id
    table_id = store.create_table("Home game", {"seats": 6}, ann)[0].id

    def open_stack(executor: Connection) -> int:
        return ledger.open_account(executor, AccountKind.TABLE, ann, table_id).id

    opened: list[int] = []

    def second_writer() -> None:
        with store.engine.begin() as second:
            opened.append(open_stack(second))

    second = threading.Thread(target=second_writer)
    with store.engine.begin() as first, store.engine.connect() as watcher:
        made = open_stack(first)
        second.start()
        until_a_transaction_waits_on_a_lock(watcher)  # the second, on the first's new row
    second.join(60)
    assert opened == [made]


def test_an_account_for_no_such_player_is_refused_by_the_database(store: Store) -> None:
    """The savepoint that lets a second writer take an account the first opened lets no
    other refusal through: a stack for a player who does not exist fails, as before."""
    host = store.create_guest("Host").player.id
    table_id = store.create_table("Home game", {"seats": 6}, host)[0].id
    with store.engine.begin() as connection, pytest.raises(IntegrityError):
        ledger.open_account(connection, AccountKind.TABLE, host + 1000, table_id)


# The ledger


def test_player_ledger_shape_and_balance(make_store: Callable[..., Store]) -> None:
    moments = iter(
        datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=timezone(timedelta(hours=2)))
        + timedelta(seconds=i)
        for i in range(100)
    )
    clocked = make_store(clock=lambda: next(moments))
    table_id, (ann, bob) = table_with_players(clocked, 400, 200)  # host, table, P1 at +2s
    clocked.top_up(table_id, ann, 100)
    hand = clocked.start_hand(table_id, SETUP)
    clocked.finish_hand(hand.id, {}, {ann: -150, bob: 145}, rake=5)
    assert clocked.leave(table_id, ann) == 350
    ledger = clocked.ledger_for(ann)
    player = clocked.player(ann)
    assert player.created_at == datetime(2026, 1, 2, 1, 4, 7, 678000, tzinfo=UTC)
    assert ledger["balance"] == -150
    assert [(e["kind"], e["account"], e["amount"], e["hand"]) for e in ledger["entries"]] == [
        ("buy_in", "balance", -400, None),
        ("top_up", "balance", -100, None),
        ("hand_result", "table", -150, hand.id),
        ("cash_out", "balance", 350, None),
    ]
    first = ledger["entries"][0]
    assert set(first) == {"id", "time", "kind", "table", "hand", "amount", "account", "by"}
    assert first["time"] == "2026-01-02T01:04:08.678Z" and first["table"] == table_id
    assert all(ISO.match(e["time"]) for e in ledger["entries"])
    ids = [e["id"] for e in ledger["entries"]]
    assert ids == sorted(ids)
    assert ledger["balance"] == sum(
        e["amount"] for e in ledger["entries"] if e["account"] == "balance"
    )


def test_table_ledger_csv(store: Store) -> None:
    host = store.create_guest("Host").player.id
    table, _ = store.create_table("T", {}, host)
    bob1, bob2 = (store.create_guest("Bob").player.id for _ in range(2))
    ann = store.create_guest("Ann").player.id
    for seat, player in enumerate((bob1, bob2, ann), start=1):
        store.sit(table.id, seat, player, 100)
    hand = store.start_hand(table.id, SETUP)
    store.finish_hand(hand.id, {}, {bob1: 58, bob2: -30, ann: -30}, rake=2)
    rows = list(csv.DictReader(io.StringIO(store.table_ledger_csv(table.id))))
    assert list(rows[0]) == ["entry", "time", "kind", "hand", "account", "player", "amount", "by"]
    assert [(r["kind"], r["account"], r["player"], r["amount"]) for r in rows] == [
        ("buy_in", "balance", f"Bob #{bob1}", "-100"),
        ("buy_in", "table", f"Bob #{bob1}", "100"),
        ("buy_in", "balance", f"Bob #{bob2}", "-100"),
        ("buy_in", "table", f"Bob #{bob2}", "100"),
        ("buy_in", "balance", "Ann", "-100"),
        ("buy_in", "table", "Ann", "100"),
        ("hand_result", "table", f"Bob #{bob1}", "58"),
        ("hand_result", "table", f"Bob #{bob2}", "-30"),
        ("hand_result", "table", "Ann", "-30"),
        ("hand_result", "house", "house", "2"),
    ]
    assert {r["hand"] for r in rows[6:]} == {hand.id} and all(ISO.match(r["time"]) for r in rows)
    assert sum(int(r["amount"]) for r in rows) == 0


def test_settle_up_at_a_table(store: Store) -> None:
    table_id, (a, b, c, d) = table_with_players(store, 1000, 1000, 1000, 1000)
    for results, rake in (
        ({a: 300, b: -200, c: -110, d: 0}, 10),
        ({a: -50, b: 90, c: -20, d: -25}, 5),
        ({a: 40, b: -40}, 0),
    ):
        hand = store.start_hand(table_id, SETUP)
        store.finish_hand(hand.id, {}, results, rake)
    # nets: P1 +290, P2 -150, P3 -130, P4 -25, house +15
    assert store.settle(table_id) == [  # the largest debtor pays the largest creditor
        Payment("P2", "P1", 150),
        Payment("P3", "P1", 130),
        Payment("P4", "house", 15),
        Payment("P4", "P1", 10),
    ]
    fresh, _ = table_with_players(store)
    assert store.settle(fresh) == []
    with pytest.raises(NotFound, match="no table 'nope'"):
        store.settle("nope")


@given(st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=12))
def test_settle_up_balances_with_fewer_payments_than_players(amounts: list[int]) -> None:
    nets = {f"p{i}": amount for i, amount in enumerate(amounts)}
    nets["house"] = -sum(amounts)
    payments = settle_up(nets)
    flows: defaultdict[str, int] = defaultdict(int)
    for payment in payments:
        assert payment.amount > 0 and nets[payment.payer] < 0 < nets[payment.payee]
        flows[payment.payer] -= payment.amount
        flows[payment.payee] += payment.amount
    assert {name: net for name, net in nets.items() if net} == dict(flows)
    assert len(payments) <= max(0, sum(1 for net in nets.values() if net) - 1)


def test_settle_up_refuses_unbalanced_nets() -> None:
    with pytest.raises(LedgerError, match="net results must sum to zero to settle"):
        settle_up({"a": 5, "b": -4})


def test_check_invariant_finds_broken_ledgers(store: Store) -> None:
    table_id, (ann,) = table_with_players(store, 100)
    store.check_invariant()
    with Session(store.engine) as session, session.begin():
        house = session.scalar(select(AccountRow.id).where(AccountRow.key == "house"))
        transfer = TransferRow(kind="hand_result", at=datetime.now(UTC), table_id=table_id)
        session.add(transfer)
        session.flush()
        session.add(EntryRow(transfer_id=transfer.id, account_id=house, amount=7))
        transfer_id = transfer.id
    with pytest.raises(
        InvariantBroken, match=rf"do not sum to zero \(id, sum\): \[\({transfer_id}, 7\)\]"
    ):
        store.check_invariant()
    with Session(store.engine) as session, session.begin():
        stack = session.scalar(
            select(AccountRow.id).where(AccountRow.key == f"table:{ann}:{table_id}")
        )
        for account, amount in ((house, -7), (stack, -150), (house, 150)):
            session.add(EntryRow(transfer_id=transfer_id, account_id=account, amount=amount))
    # the entries balance now, but the accounts' running totals were not kept with them
    with pytest.raises(
        InvariantBroken,
        match=re.escape(
            "accounts whose total is not the sum of their entries (account, total, sum): "
            f"[('house', 0, 150), ('table:{ann}:{table_id}', 100, -50)]"
        ),
    ):
        store.check_invariant()
    with Session(store.engine) as session, session.begin():
        for account, amount in ((house, 150), (stack, -150)):
            session.execute(
                update(AccountRow)
                .where(AccountRow.id == account)
                .values(chips=AccountRow.chips + amount)
            )
    with pytest.raises(
        InvariantBroken,
        match=rf"below zero \(account, chips\): \[\('table:{ann}:{table_id}', -50\)\]",
    ):
        store.check_invariant()


def test_random_walk_keeps_the_ledger_whole(store: Store) -> None:
    """A seeded walk of sits, top-ups, hands (finished, cancelled, refused) and leaves
    against a plain model of balances and stacks; the invariant holds at every step."""
    rng = random.Random(20261130)
    host = store.create_guest("Host").player.id
    tables = [store.create_table(f"T{i}", {"seats": 4}, host)[0].id for i in range(2)]
    players = [store.create_guest(f"G{i}").player.id for i in range(6)]
    balance = dict.fromkeys(players, 0)
    stacks: dict[str, dict[int, int]] = {t: {} for t in tables}  # seated players only
    seat_of: dict[str, dict[int, int]] = {t: {} for t in tables}
    house = 0
    for step in range(120):
        table_id = rng.choice(tables)
        seated = stacks[table_id]
        move = rng.random()
        if move < 0.25 and len(seated) < 4:
            player = rng.choice([p for p in players if p not in seated])
            seat = min(set(range(1, 5)) - set(seat_of[table_id].values()))
            buy_in = rng.randint(1, 400)
            store.sit(table_id, seat, player, buy_in)
            seated[player], seat_of[table_id][player] = buy_in, seat
            balance[player] -= buy_in
        elif move < 0.35 and seated:
            player = rng.choice(sorted(seated))
            extra = rng.randint(1, 100)
            store.top_up(table_id, player, extra)
            seated[player] += extra
            balance[player] -= extra
        elif move < 0.45 and seated:
            player = rng.choice(sorted(seated))
            cashed = store.leave(table_id, player)
            assert cashed == seated.pop(player)
            balance[player] += cashed
            del seat_of[table_id][player]
        elif len(seated) >= 2:
            hand = store.start_hand(table_id, {"step": step})
            dealt = sorted(seated)
            paid = {p: rng.randint(0, seated[p]) for p in dealt}
            store.append_action(hand.id, seat_of[table_id][dealt[0]], "bet", max(1, paid[dealt[0]]))
            if rng.random() < 0.2:
                store.cancel_hand(hand.id)
                continue
            pot = sum(paid.values())
            rake = rng.randint(0, pot // 10)
            winners = rng.sample(dealt, rng.randint(1, len(dealt)))
            won = dict.fromkeys(dealt, 0)
            for chip in range(pot - rake):
                won[winners[chip % len(winners)]] += 1
            nets = {p: won[p] - paid[p] for p in dealt}
            if rng.random() < 0.1:  # a wrong result is refused and changes nothing
                with pytest.raises(LedgerError):
                    store.finish_hand(hand.id, {}, {**nets, dealt[0]: nets[dealt[0]] + 1}, rake)
            store.finish_hand(hand.id, {"step": step}, nets, rake)
            for p in dealt:
                seated[p] += nets[p]
            house += rake
        totals = store.check_invariant()
        assert totals.house == house
        if step % 10 == 0:
            for t in tables:
                assert chips(store, t) == stacks[t]
            assert {p: store.balance(p) for p in players} == balance
    assert house > 0 and store.unfinished_hands() == []


def test_a_secret_never_begins_as_a_command_line_option() -> None:
    """An invite is typed after ``--invite``: one beginning with "-" (1 in 64 of
    token_urlsafe's) would be taken for an option."""
    from splitpot.store.players import new_secret

    secrets = [new_secret() for _ in range(2000)]
    assert not any(secret.startswith("-") for secret in secrets)
    assert len(set(secrets)) == 2000 and all(len(secret) == 43 for secret in secrets)
