"""Table leases and fencing (store/leases.py), on SQLite and PostgreSQL: two stores on
one database stand for two room processes; each has its own clock, moved by the test."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text
from store_fixtures import SETUP, StoreFactory, until_a_transaction_waits_on_a_lock

from splitpot.store import FencedOut, HandStatus, Store

TTL = 5.0  # seconds a lease lasts
DEADLINE = 30.0  # seconds a test waits for what it needs, however busy the machine


class Clock:
    """A process's clock, which the test moves on."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def two_processes(make_store: StoreFactory) -> tuple[Store, Store, Clock, str]:
    """Processes "a" and "b" on one database (b's clock is a's), and a table with two
    players seated, its first hand not yet dealt."""
    clock = Clock()
    a, b = make_store(clock=clock), make_store(clock=clock)
    host = a.create_guest("Host").player.id
    table, _ = a.create_table("Leased", {"seats": 6, "variant": "o8"}, host)
    for seat, name in ((1, "Ann"), (2, "Bob")):
        a.sit(table.id, seat, a.create_guest(name).player.id, 100)
    a.hold_leases("a")
    b.hold_leases("b")
    return a, b, clock, table.id


def test_one_process_holds_a_table_until_its_lease_lapses(make_store: StoreFactory) -> None:
    a, b, clock, table = two_processes(make_store)
    assert b.free_tables() == [table]
    assert a.claim_table(table, TTL)
    assert (a.holder and a.holder.fences) == {table: 1}
    assert not b.claim_table(table, TTL)  # a holds it
    assert b.free_tables() == []
    clock.wait(TTL - 1)
    assert a.renew_leases(TTL) == set()  # renewed: good for TTL more
    clock.wait(TTL - 1)
    assert not b.claim_table(table, TTL)
    clock.wait(2)  # a went quiet: its lease lapsed
    assert b.free_tables() == [table]
    assert b.claim_table(table, TTL)
    assert (b.holder and b.holder.fences) == {table: 2}  # the fencing number moved on
    assert a.renew_leases(TTL) == {table}  # a learns it lost the table
    assert (a.holder and a.holder.fences) == {}
    b.release_table(table)  # b stops: the table is free at once
    assert a.free_tables() == [table]
    assert a.claim_table(table, TTL)
    assert (a.holder and a.holder.fences) == {table: 3}
    restarted = make_store(clock=clock)  # a, killed and started again: the same name
    restarted.hold_leases("a")
    assert restarted.claim_table(table, TTL)  # at once, fencing out what is left of a
    assert (restarted.holder and restarted.holder.fences) == {table: 4}
    with pytest.raises(FencedOut, match="fencing number 4, not 3"):
        a.start_hand(table, SETUP)


def test_a_process_that_lost_its_table_can_never_write_for_it(make_store: StoreFactory) -> None:
    """The fencing number is checked in every write's transaction: a process whose lease
    was taken over (it was paused, say, and does not know yet) is refused, and nothing it
    tried is written; the new owner's writes go on."""
    a, b, clock, table = two_processes(make_store)
    assert a.claim_table(table, TTL)
    hand = a.start_hand(table, SETUP)
    a.append_actions([(hand.id, 1, "call", None, 1)])
    clock.wait(TTL + 1)  # a is paused past its lease; b takes the table over
    assert b.claim_table(table, TTL)
    refused = f"table {table} has been taken over \\(fencing number 2, not 1\\)"
    with pytest.raises(FencedOut, match=refused):
        a.append_actions([(hand.id, 2, "check", None, 2)])
    with pytest.raises(FencedOut, match=refused):
        a.append_action(hand.id, 2, "check", seq=2)
    with pytest.raises(FencedOut, match=refused):
        a.finish_hand(hand.id, {"won": "Ann"}, {})
    with pytest.raises(FencedOut, match=refused):
        a.cancel_hand(hand.id)
    players = {seat.player_id for seat in a.seats(table)}
    newcomer = a.create_guest("Cy").player.id  # not a table's write: still fine
    with pytest.raises(FencedOut, match=refused):
        a.sit(table, 3, newcomer, 100)
    with pytest.raises(FencedOut, match=refused):
        a.top_up(table, min(players), 10)
    with pytest.raises(FencedOut, match=refused):
        a.leave(table, min(players))
    with pytest.raises(FencedOut, match=refused):
        a.change_table(table, {"paused": True})
    with pytest.raises(FencedOut, match=refused):
        a.close_table(table)
    log = b.hand_log(hand.id)
    assert [(x.seq, x.kind) for x in log.actions] == [(1, "call")]  # nothing of a's since
    b.append_actions([(hand.id, 2, "check", None, 2)])  # the new owner resumes the hand
    assert [x.kind for x in b.hand_log(hand.id).actions] == ["call", "check"]
    assert b.hand(hand.id).status is HandStatus.PLAYING
    assert {seat.player_id for seat in b.seats(table)} == players
    b.check_invariant()


def test_a_process_writes_only_for_the_tables_it_holds(make_store: StoreFactory) -> None:
    a, b, _, table = two_processes(make_store)
    with pytest.raises(FencedOut, match=f"this process does not run table {table}"):
        a.start_hand(table, SETUP)
    assert a.claim_table(table, TTL)
    a.start_hand(table, SETUP)
    with pytest.raises(FencedOut, match=f"this process does not run table {table}"):
        b.cancel_hand(f"{table}-1")


def test_many_leases_renew_in_batches_and_only_the_lost_are_named(
    make_store: StoreFactory,
) -> None:
    """One process's 450 tables (two of renew's batches): after they lapse, another
    process takes three (one in each batch, and the last); renewing names exactly those
    three, and every other lease is renewed (no one else may take it)."""
    clock = Clock()
    a, b = make_store(clock=clock), make_store(clock=clock)
    host = a.create_guest("Host").player.id
    tables = [
        a.create_table(f"T{n}", {"seats": 6, "variant": "o8"}, host)[0].id for n in range(450)
    ]
    a.hold_leases("a")
    b.hold_leases("b")
    assert all(a.claim_table(table, TTL) for table in tables)
    clock.wait(TTL + 1)  # a's leases lapse before it renews them
    renewed_in_order = sorted(tables)  # renew's batches follow the tables' order
    taken = {renewed_in_order[0], renewed_in_order[400], renewed_in_order[-1]}
    assert all(b.claim_table(table, TTL) for table in taken)
    assert a.renew_leases(TTL) == taken
    assert a.holder is not None and set(a.holder.fences) == set(tables) - taken
    renewed = renewed_in_order[1:400:37]  # none of the three taken
    assert not any(b.claim_table(table, TTL) for table in renewed)
    assert a.renew_leases(TTL) == set()


def test_leases_renew_in_the_tables_order_as_every_write_checks_its_fences(
    make_store: StoreFactory,
) -> None:
    """A write's fence check reads its tables' leases under a shared lock in the tables'
    order; renewing locks them in the same order, never one past a lease it waits on, so
    the action log's connection and the rest (PostgreSQL: two at once) cannot deadlock."""
    a = make_store()
    if a.engine.dialect.name != "postgresql":
        pytest.skip("row locks: SQLite has one writer at a time")
    host = a.create_guest("Host").player.id
    first, second = sorted(
        a.create_table(f"T{n}", {"seats": 6, "variant": "o8"}, host)[0].id for n in range(2)
    )
    a.hold_leases("a")
    assert a.claim_table(second, TTL) and a.claim_table(first, TTL)  # stored second first
    renewed: list[set[str]] = []
    renewing = threading.Thread(target=lambda: renewed.append(a.renew_leases(TTL)))
    checking = text("SELECT fence FROM leases WHERE table_id = :table FOR SHARE")
    with a.engine.connect() as writer, a.engine.connect() as watcher:
        writer.execute(checking, {"table": first})  # a write's fence check, under way
        renewing.start()
        until_a_transaction_waits_on_a_lock(watcher, DEADLINE)  # the renewal, on the first
        with a.engine.connect() as other:  # another write's check takes the second at once
            other.execute(text(f"{checking.text} NOWAIT"), {"table": second})
        writer.rollback()
    renewing.join(DEADLINE)
    assert renewed == [set()]
