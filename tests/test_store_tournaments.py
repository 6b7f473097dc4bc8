"""The store's tournaments (store/tournaments.py): entries paid and given back, the
director's state read and its decisions written (a whole tournament driven by
``room.director.decide``, its hands finished through the store), the players out at a
hand's end, the tournament's chips kept apart from the room's, its lease and its tables'
fenced calls, and the migration. On SQLite and PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text
from store_fixtures import SETUP, chips, table_with_players

from splitpot.room.director import Decision, Status, decide
from splitpot.room.tournament_settings import Kind, TournamentSettings
from splitpot.store import FencedOut, LedgerError, NotFound, Store, TransferKind
from splitpot.store.database import MIGRATIONS, current_revision, migrate, newest_revision
from splitpot.store.leases import TournamentFencedOut
from splitpot.store.tournaments import RESULTS_HEADER, TournamentError
from splitpot.store.values import LedgerTotals, TournamentResult

pytest_plugins = ["store_fixtures"]

START = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.moment = START

    def __call__(self) -> datetime:
        return self.moment


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def timed(make_store: Callable[..., Store], clock: Clock) -> Store:
    return make_store(clock=clock)


def sit_and_go(seats: int = 4, **values: Any) -> TournamentSettings:
    values = {"buy_in": 100, "fee": 10, "starting_stack": 1000} | values
    return TournamentSettings(name="Friday turbo", seats=seats, **values)


def scheduled(**values: Any) -> TournamentSettings:
    return TournamentSettings(
        name="Sunday major",
        kind=Kind.SCHEDULED,
        start_at=START + timedelta(hours=1),
        **({"seats": 4, "buy_in": 100, "fee": 10, "starting_stack": 1000} | values),
    )


def players(store: Store, *names: str) -> list[int]:
    return [store.create_guest(name).player.id for name in names]


def entered(store: Store, tid: int, *names: str) -> list[int]:
    ids = players(store, *names)
    for player in ids:
        store.register(tid, player)
    return ids


def checked(store: Store) -> LedgerTotals:
    """The ledger's invariant, and the room's chips apart from every tournament's: what
    the balances lost is with the house, in the prize pools, or on cash tables."""
    totals = store.check_invariant()
    assert totals.on_tables + totals.banks == cash_chips(store)
    return totals


def cash_chips(store: Store) -> int:
    with store.engine.connect() as connection:
        return int(
            connection.scalar(
                text(
                    "SELECT COALESCE(SUM(e.amount), 0) FROM entries e "
                    "JOIN accounts a ON a.id = e.account_id WHERE a.kind = 'table' AND "
                    "a.table_id NOT IN (SELECT table_id FROM tournament_tables)"
                )
            )
            or 0
        )


def step(store: Store, tid: int, now: datetime, draw: random.Random) -> Decision:
    """The director's turn: the state read, decided, written; the invariant after."""
    decision = decide(store.tournament_state(tid), now, draw.randrange)
    store.apply_decision(tid, decision)
    checked(store)
    return decision


def play(store: Store, table_id: str, results: dict[int, int]) -> str:
    """A hand at the table whose result is ``results``; its id."""
    hand = store.start_hand(table_id, SETUP)
    store.finish_hand(hand.id, {"hand": hand.id}, results)
    return hand.id


# Entries


def test_an_entry_pays_the_buy_in_to_the_pool_and_the_fee_to_the_house(timed: Store) -> None:
    [host, ann, bob] = players(timed, "Host", "Ann", "Bob")
    made, code = timed.create_tournament(sit_and_go(), host)
    assert code is None and not made.private
    assert (made.status, made.entries, made.pool, made.name) == (
        "registering",
        0,
        0,
        "Friday turbo",
    )
    timed.register(made.id, ann)
    timed.register(made.id, bob)
    assert (timed.tournament(made.id).entries, timed.tournament(made.id).pool) == (2, 200)
    assert timed.balance(ann) == timed.balance(bob) == -110
    totals = checked(timed)
    assert (totals.pools, totals.house, totals.balances) == (200, 20, -220)
    entries = timed.ledger_for(ann)["entries"]
    assert [(e["kind"], e["amount"], e["account"]) for e in entries] == [("entry", -110, "balance")]
    timed.unregister(made.id, ann)
    assert timed.balance(ann) == 0
    assert [e["kind"] for e in timed.ledger_for(ann)["entries"]] == ["entry", "refund"]
    assert (timed.tournament(made.id).entries, timed.tournament(made.id).pool) == (1, 100)
    assert [e.player for e in timed.tournament_state(made.id).entrants] == [bob]
    assert (checked(timed).pools, checked(timed).house) == (100, 10)


def test_a_free_roll_moves_no_chips(timed: Store) -> None:
    [host, ann] = players(timed, "Host", "Ann")
    made, _ = timed.create_tournament(sit_and_go(buy_in=0, fee=0), host)
    timed.register(made.id, ann, bot=True)
    assert timed.ledger_for(ann)["entries"] == []
    assert timed.tournament_state(made.id).entrants[0].bot
    assert timed.is_entrant(made.id, ann) and not timed.is_entrant(made.id, host)


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("twice", "Ann is already in tournament Friday turbo"),
        ("full", "tournament Friday turbo is full: 2 entrants"),
        ("unregistered", "Cid is not in tournament Friday turbo"),
        ("running", "registration for tournament Friday turbo has closed"),
        ("unregister running", "tournament Friday turbo has started: entries are not given back"),
        ("finished", "tournament Friday turbo is cancelled: it takes no entries"),
        ("start alone", "tournament Friday turbo needs two entrants to start, not 1"),
        ("unknown", "there is no tournament 99"),
    ],
)
def test_entries_refused_say_why(timed: Store, case: str, message: str) -> None:
    [host, ann, bob, cid] = players(timed, "Host", "Ann", "Bob", "Cid")
    made, _ = timed.create_tournament(sit_and_go(seats=2), host)
    tid = made.id
    timed.register(tid, ann)
    if case in ("full", "running", "unregister running"):
        timed.register(tid, bob)
    if case in ("running", "unregister running"):
        step(timed, tid, START, random.Random(1))  # full: it starts
    if case == "finished":
        timed.apply_decision(tid, Decision(cancelled=True))

    def attempt() -> None:
        if case == "start alone":
            timed.start_now(tid)
        elif case == "twice":
            timed.register(tid, ann)
        elif case == "unregistered":
            timed.unregister(tid, cid)
        elif case == "unknown":
            timed.register(99, cid)
        elif case == "unregister running":
            timed.unregister(tid, ann)
        else:
            timed.register(tid, cid)

    before = timed.check_invariant()
    with pytest.raises((TournamentError, NotFound), match=message):
        attempt()
    assert timed.check_invariant() == before


def test_invites_clubs_and_the_lobby(timed: Store) -> None:
    [host] = players(timed, "Host")
    club, _ = timed.create_club("Friday club", "closed", host)
    made, code = timed.create_tournament(sit_and_go(), host, club.id, invite=True)
    assert made.private and made.club_id == club.id and code is not None
    assert timed.check_tournament_invite(made.id, code)
    assert not timed.check_tournament_invite(made.id, code + "x")
    other, _ = timed.create_tournament(sit_and_go(), host)
    timed.apply_decision(other.id, Decision(cancelled=True))
    assert [t.id for t in timed.list_tournaments()] == [made.id]
    assert [t.id for t in timed.list_tournaments(include_finished=True)] == [made.id, other.id]
    with pytest.raises(NotFound, match="there is no club 'nope'"):
        timed.create_tournament(sit_and_go(), host, "nope")


# A whole sit-and-go, hand by hand


def test_a_sit_and_go_from_its_start_to_its_prizes(timed: Store, clock: Clock) -> None:
    [host, *ids] = players(timed, "Host", "Ann", "Bob", "Cid", "Dan")
    ann, bob, cid, dan = ids
    made, _ = timed.create_tournament(sit_and_go(seats=4), host)
    tid = made.id
    for player in ids:
        timed.register(tid, player)
    draw = random.Random(7)
    start = step(timed, tid, clock(), draw)
    assert start.start and start.tables == 1
    state = timed.tournament_state(tid)
    assert state.status is Status.RUNNING
    [table] = state.tables
    assert (table.number, table.ready, table.cleared, table.broken) == (1, 0, 0, False)
    assert sorted((e.player, e.chips, e.table) for e in state.entrants) == [
        (p, 1000, table.id) for p in ids
    ]
    record = timed.table(table.id)
    assert record.settings["tournament"] == tid and record.private
    place = timed.tournament_table(table.id)
    assert (place.tournament_id, place.number, place.bots) == (tid, 1, frozenset())
    assert record.name == "Friday turbo · table 1"
    assert (checked(timed).banks, checked(timed).on_tables) == (-4000, 4000)

    orders = timed.table_check(table.id, 1, 0)  # it waits to deal its first hand
    assert not orders.cleared and orders.status == "running" and len(orders.seats) == 4
    assert step(timed, tid, clock(), draw).cleared == (1,)
    assert timed.table_check(table.id, 1, 0).cleared
    # Ann and Bob go out in one hand with the same stack: they share third and fourth
    first = play(timed, table.id, {ann: -1000, bob: -1000, cid: 2000})
    assert {s.player_id for s in timed.seats(table.id)} == {cid, dan}
    out = {e.player: e for e in timed.tournament_state(tid).entrants}
    assert (out[ann].out_hand, out[ann].out_stack, out[ann].table) == (first, 1000, None)
    assert {out[ann].out_order, out[bob].out_order} == {1, 2}
    timed.finish_hand(first, {"hand": first}, {ann: -1000, bob: -1000, cid: 2000})  # again
    assert timed.tournament_state(tid).entrants == tuple(out.values())
    timed.table_check(table.id, 2, 1)
    decided = step(timed, tid, clock(), draw)
    assert sorted((f.player, f.place, f.shared, f.prize) for f in decided.finishes) == [
        (ann, 3, 2, 0),
        (bob, 3, 2, 0),
    ]
    assert decided.cleared == (1,)
    second = play(timed, table.id, {dan: -1000, cid: 1000})
    timed.table_check(table.id, 3, 0)
    last = step(timed, tid, clock(), draw)
    assert last.finished
    done = timed.tournament(tid)
    assert (done.status, done.finished_at, done.pool) == ("finished", clock(), 400)
    assert timed.tournament_results(tid) == [
        TournamentResult(1, 1, cid, "Cid", 260, None),
        TournamentResult(2, 1, dan, "Dan", 140, second),
        TournamentResult(3, 2, ann, "Ann", 0, first),
        TournamentResult(3, 2, bob, "Bob", 0, first),
    ]
    assert timed.tournament_results_csv(tid).splitlines() == [
        ",".join(RESULTS_HEADER),
        f"1,1,Cid,{cid},260,",
        f"2,1,Dan,{dan},140,{second}",
        f"3,2,Ann,{ann},0,{first}",
        f"3,2,Bob,{bob},0,{first}",
    ]
    # the prizes are room chips; the tournament's chips went back to its bank
    assert [timed.balance(p) for p in ids] == [-110, -110, 150, 30]
    totals = checked(timed)
    assert (totals.pools, totals.banks, totals.on_tables, totals.house) == (0, 0, 0, 40)
    assert timed.seats(table.id) == [] and timed.table(table.id).closed
    assert timed.table_check(table.id, 3, 0).broken
    kinds = [e["kind"] for e in timed.ledger_for(cid)["entries"]]
    assert kinds == ["entry", "prize"]  # no hand result in tournament chips
    assert timed.settle(table.id) == []
    assert timed.player_tables(cid) == []  # a player's figures are in room chips
    stats = {p.player_id: p for p in timed.table_stats(table.id).players}
    assert (stats[cid].hands, stats[cid].net, stats[cid].bought_in) == (2, 3000, 1000)
    assert timed.table_stats(table.id).rake == 0
    journal = timed.table_ledger_csv(table.id)
    assert ",chips,,bank,bank,-1000," in journal and ",chips,,bank,bank,4000," in journal
    assert timed.seated_at(table.id, clock()) == {"Ann": ann, "Bob": bob, "Cid": cid, "Dan": dan}
    assert timed.list_tables() == []  # its tables are private
    with pytest.raises(TournamentError, match="it decides nothing more"):
        timed.apply_decision(tid, Decision(cleared=(1,)))


def test_hands_of_two_tournaments_and_a_cash_table_finish_in_one_batch(
    timed: Store, clock: Clock
) -> None:
    """One transaction ends hands of two tournaments and of a cash table, given in no
    order of theirs: each tournament's row locked before any account, the busted out,
    the cash stacks moved, each hand's answer in its place."""
    [host] = players(timed, "Host")
    draw = random.Random(11)
    tables, entrants = [], []
    for names in (("Ann", "Bob", "Cid", "Dan"), ("Eve", "Fay", "Gus", "Hal")):
        tid = timed.create_tournament(sit_and_go(seats=4), host)[0].id
        entrants.append(entered(timed, tid, *names))
        step(timed, tid, clock(), draw)
        [table] = timed.tournament_state(tid).tables
        timed.table_check(table.id, 1, 0)
        step(timed, tid, clock(), draw)
        tables.append((tid, table.id))
    cash, (ivy, jon) = table_with_players(timed, 300, 200)
    (first, first_table), (second, second_table) = tables
    ann, bob, _, _ = entrants[0]
    eve, fay, _, _ = entrants[1]
    hands = [timed.start_hand(table_id, SETUP).id for table_id in (first_table, second_table, cash)]
    ends = [
        (hands[2], {"n": "cash"}, {ivy: 50, jon: -50}, 0),
        (hands[1], {"n": "second"}, {eve: 100, fay: -100}, 0),
        (hands[0], {"n": "first"}, {ann: 1000, bob: -1000}, 0),  # Bob is out
    ]
    finished = timed.finish_hands(ends)
    assert [(hand.id, hand.record) for hand in finished] == [(e[0], e[1]) for e in ends]
    out = {e.player: e for e in timed.tournament_state(first).entrants}
    assert out[bob].out_hand == hands[0] and out[ann].out_hand is None
    assert {e.player: e.chips for e in timed.tournament_state(second).entrants}[eve] == 1100
    assert chips(timed, cash) == {ivy: 350, jon: 150}
    checked(timed)


def test_the_chips_of_a_tournament_table_never_become_the_rooms(timed: Store) -> None:
    [host, ann, bob] = players(timed, "Host", "Ann", "Bob")
    made, _ = timed.create_tournament(sit_and_go(seats=2), host)
    entered_ids = [ann, bob]
    for player in entered_ids:
        timed.register(made.id, player)
    step(timed, made.id, START, random.Random(3))
    [table] = timed.tournament_state(made.id).tables
    before = timed.check_invariant()
    with pytest.raises(LedgerError, match="is a tournament's: a cash_out would mix its chips"):
        timed.leave(table.id, ann)
    with pytest.raises(LedgerError, match="is a tournament's: a top_up would mix"):
        timed.top_up(table.id, ann, 50)
    with pytest.raises(LedgerError, match="is a tournament's: a stack_edit would mix"):
        timed.edit_stack(table.id, ann, 50, host)
    assert timed.check_invariant() == before


# A scheduled tournament over several tables: breaking, balancing, late entries


def test_a_scheduled_tournament_over_three_tables(timed: Store, clock: Clock) -> None:
    [host] = players(timed, "Host")
    made, _ = timed.create_tournament(scheduled(late_levels=2), host)
    tid = made.id
    names = [f"P{n}" for n in range(10)]
    ids = entered(timed, tid, *names)
    draw = random.Random(2026)
    assert not step(timed, tid, clock(), draw).changes  # not yet its start
    clock.moment = START + timedelta(hours=1)
    start = step(timed, tid, clock(), draw)
    assert start.start and start.tables == 3
    [late] = players(timed, "Late")
    with pytest.raises(TournamentError, match="registration for tournament Sunday major has"):
        timed.register(tid, late, late_open=False)
    timed.register(tid, late, late_open=True)  # a late entrant is seated by the director
    assert timed.tournament(tid).entries == 11 and timed.tournament(tid).pool == 1100
    rng = random.Random(5)
    played: dict[str, int] = {}
    moved = 0
    for _ in range(400):
        state = timed.tournament_state(tid)
        if state.status is Status.FINISHED:
            break
        for table in state.tables:
            if table.broken:
                continue
            orders = timed.table_check(table.id, played.get(table.id, 0) + 1, None)
            seats = sorted(orders.seats, key=lambda s: s.seat)
            if orders.cleared and len(seats) >= 2:
                loser, winner = rng.sample(seats, 2)
                lost = min(loser.chips, winner.chips) if rng.random() < 0.7 else 0
                lost = lost or loser.chips // 3
                play(timed, table.id, {loser.player_id: -lost, winner.player_id: lost})
                played[table.id] = played.get(table.id, 0) + 1
                timed.table_check(table.id, played[table.id] + 1, seats[0].seat - 1)
        clock.moment += timedelta(seconds=5)
        chips = {e.player: e.chips for e in timed.tournament_state(tid).entrants}
        assert sum(chips.values()) == -timed.check_invariant().banks
        decided = step(timed, tid, clock(), draw)
        for move in decided.moves:
            after = timed.tournament_state(tid)
            assert next(e for e in after.entrants if e.player == move.player).table == (
                after.table_numbered(move.to_table).id
            )
            moved += 1
        now_chips = {e.player: e.chips for e in timed.tournament_state(tid).entrants}
        for move in decided.moves:  # a move keeps the player's chips
            assert now_chips[move.player] == chips[move.player]
    state = timed.tournament_state(tid)
    assert state.status is Status.FINISHED
    assert moved > 0 and sum(t.broken for t in state.tables) == 3
    placed = timed.tournament_results(tid)
    assert sorted(r.player_id for r in placed) == sorted([*ids, late])
    assert sum(r.prize for r in placed) == 1100
    assert next(r.place for r in placed) == 1
    totals = checked(timed)
    assert (totals.pools, totals.banks, totals.on_tables) == (0, 0, 0)
    assert sum(timed.balance(p) for p in [*ids, late]) == -110 * 11 + 1100


def test_a_scheduled_start_with_one_entrant_is_called_off(timed: Store, clock: Clock) -> None:
    [host, ann] = players(timed, "Host", "Ann")
    made, _ = timed.create_tournament(scheduled(), host)
    timed.register(made.id, ann)
    clock.moment = START + timedelta(hours=2)
    assert step(timed, made.id, clock(), random.Random(1)).cancelled
    called = timed.tournament(made.id)
    assert (called.status, called.entries, called.pool) == ("cancelled", 0, 0)
    assert timed.balance(ann) == 0
    assert checked(timed).pools == 0 and checked(timed).house == 0


def test_a_stale_start_is_refused_whole(timed: Store) -> None:
    [host, *ids] = players(timed, "Host", "Ann", "Bob", "Cid")
    made, _ = timed.create_tournament(scheduled(), host)
    for player in ids[:2]:
        timed.register(made.id, player)
    decision = decide(timed.tournament_state(made.id), START + timedelta(hours=1), lambda n: 0)
    timed.register(made.id, ids[2])  # in between: the decision no longer fits
    with pytest.raises(TournamentError, match="entrants changed since the decision"):
        timed.apply_decision(made.id, decision)
    assert timed.tournament(made.id).status == "registering"
    assert timed.list_tables(include_private=True) == []


# Leases and fences


def test_the_directors_writes_are_fenced_by_the_tournaments_lease(
    make_store: Callable[..., Store], clock: Clock
) -> None:
    first, second = make_store(clock=clock), make_store(clock=clock)
    [host, ann, bob] = players(first, "Host", "Ann", "Bob")
    made, _ = first.create_tournament(sit_and_go(seats=2), host)
    first.hold_leases("first")
    second.hold_leases("second")
    with pytest.raises(TournamentFencedOut, match="does not run tournament"):
        first.apply_decision(made.id, Decision())
    assert first.free_tournaments() == [made.id]
    assert first.claim_tournament(made.id, 10)
    assert not second.claim_tournament(made.id, 10)
    assert first.free_tournaments() == []
    for player in (ann, bob):
        first.register(made.id, player)
    clock.moment += timedelta(seconds=11)  # the first lapses: the second takes over
    assert first.free_tournaments() == [made.id]
    assert second.claim_tournament(made.id, 10)
    assert first.renew_tournament_leases(10) == {made.id}
    assert made.id not in first.holder.tournaments  # type: ignore[union-attr]
    first.holder.tournaments[made.id] = 1  # type: ignore[union-attr]  # as it held before
    decision = decide(first.tournament_state(made.id), clock(), lambda n: 0)
    with pytest.raises(FencedOut, match="has been taken over"):
        first.apply_decision(made.id, decision)
    assert first.tournament(made.id).status == "registering"
    assert second.apply_decision(made.id, decision)  # the table it opened
    assert second.renew_tournament_leases(10) == set()
    second.release_tournament(made.id)
    assert second.free_tournaments() == [made.id]  # running, and no one runs it now


def test_a_tables_check_is_fenced_by_the_tables_lease(
    make_store: Callable[..., Store], clock: Clock
) -> None:
    director = make_store(clock=clock)
    [host, ann, bob] = players(director, "Host", "Ann", "Bob")
    made, _ = director.create_tournament(sit_and_go(seats=2), host)
    for player in (ann, bob):
        director.register(made.id, player)
    [table_id] = director.apply_decision(
        made.id, decide(director.tournament_state(made.id), clock(), lambda n: 0)
    )
    runner = make_store(clock=clock)
    runner.hold_leases("runner")
    with pytest.raises(FencedOut, match=f"does not run table {table_id}"):
        runner.table_check(table_id, 1, 0)
    assert runner.claim_table(table_id, 10)
    assert runner.table_check(table_id, 1, 0).number == 1
    with pytest.raises(TournamentError, match="waited to deal hand 1, not 0"):
        runner.table_check(table_id, 0, 0)
    with pytest.raises(TournamentError, match="has no seat 2 for the big blind"):
        runner.table_check(table_id, 1, 2)
    cash, _ = director.create_table("Cash", {"seats": 6}, host)
    runner.claim_table(cash.id, 10)
    with pytest.raises(NotFound, match="is no tournament's"):
        runner.table_check(cash.id, 1, 0)
    with pytest.raises(NotFound, match="is no tournament's"):
        runner.tournament_table(cash.id)


# The migration


def test_the_migration_applies_to_a_database_with_records(store: Store) -> None:
    host = store.create_guest("Host").player.id
    table, _ = store.create_table("Cash", {"seats": 6}, host)
    store.sit(table.id, 1, host, 500)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0007")
    assert current_revision(store.engine) == "0007"
    migrate(store.engine)
    assert current_revision(store.engine) == newest_revision()
    assert store.seats(table.id)[0].chips == 500
    assert store.ledger_for(host)["entries"][0]["kind"] == TransferKind.BUY_IN.value
    made, _ = store.create_tournament(sit_and_go(), host)
    store.register(made.id, host)
    assert store.check_invariant().pools == 100
