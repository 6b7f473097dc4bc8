"""The tournament's director (RULES.md 8), pure: the start's drawn seats over as few
tables as hold the field, places and prizes for the players out, hand for hand, the
clearance of the tables waiting between hands, balancing, the winner."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from splitpot.room.director import (
    Decision,
    Entrant,
    Status,
    TournamentState,
    TournamentTable,
    decide,
)
from splitpot.room.tournament_settings import Kind, TournamentSettings
from splitpot.tournament.balancing import MoveReason

NOW = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)


def draw(seed: int = 1) -> Any:
    return random.Random(seed).randrange


def sit_and_go(**fields: Any) -> TournamentSettings:
    return TournamentSettings(name="Friday", **fields)


def registering(
    settings: TournamentSettings, players: int, start_at: datetime | None = None
) -> TournamentState:
    entrants = tuple(Entrant(p, f"P{p}") for p in range(1, players + 1))
    return TournamentState(1, settings, Status.REGISTERING, start_at, entrants, entries=players)


def test_a_sit_and_go_waits_for_its_seats_then_starts_with_drawn_seats() -> None:
    settings = sit_and_go(seats=6)
    assert decide(registering(settings, 5), NOW, draw()) == Decision()
    started = decide(registering(settings, 6), NOW, draw())
    assert started.start and started.tables == 1
    assert sorted(s.player for s in started.seated) == [1, 2, 3, 4, 5, 6]
    assert len({s.seat for s in started.seated}) == 6
    other = decide(registering(settings, 6), NOW, draw(2))
    assert [s.seat for s in other.seated] != [s.seat for s in started.seated]


def test_the_host_starts_a_sit_and_go_with_two_at_least() -> None:
    settings = sit_and_go(seats=6)
    assert decide(registering(settings, 3, start_at=NOW), NOW, draw()).start
    assert decide(registering(settings, 1, start_at=NOW), NOW, draw()).cancelled


def test_a_scheduled_field_is_spread_over_as_few_tables_as_hold_it_as_evenly_as_can_be() -> None:
    settings = TournamentSettings(
        name="Sunday", kind=Kind.SCHEDULED, seats=9, start_at=NOW + timedelta(minutes=5)
    )
    state = registering(settings, 30, start_at=settings.start_at)
    assert decide(state, NOW, draw()) == Decision()  # not yet
    started = decide(state, NOW + timedelta(minutes=5), draw())
    assert started.start and started.tables == 4
    assert sorted(Counter(s.table for s in started.seated).values()) == [7, 7, 8, 8]
    seats = Counter((s.table, s.seat) for s in started.seated)
    assert max(seats.values()) == 1


def running(
    settings: TournamentSettings,
    entrants: list[Entrant],
    tables: list[TournamentTable],
    **fields: Any,
) -> TournamentState:
    return TournamentState(
        1,
        settings,
        Status.RUNNING,
        NOW,
        tuple(entrants),
        tuple(tables),
        entries=fields.pop("entries", len(entrants)),
        pool=fields.pop("pool", 100 * len(entrants)),
        **fields,
    )


def test_players_out_in_one_hand_are_placed_by_their_starting_stacks_and_paid() -> None:
    settings = sit_and_go(seats=6, buy_in=100)
    table = TournamentTable("t1", 1, ready=5, cleared=4, next_big_blind=0)
    entrants = [
        Entrant(1, "A", "t1", 0, 4000),
        Entrant(2, "B", "t1", 1, 2000),
        Entrant(3, "C", "t1", 2, 3000),
        Entrant(4, "D", out_hand="t1-5", out_stack=900, out_order=1),
        Entrant(5, "E", out_hand="t1-5", out_stack=300, out_order=2),
        Entrant(6, "F", out_hand="t1-2", out_stack=1500, out_order=0, place=6),
    ]
    decision = decide(running(settings, entrants, [table]), NOW, draw())
    assert [(f.player, f.place, f.prize) for f in decision.finishes] == [(4, 4, 0), (5, 5, 0)]
    assert decision.cleared == (1,)
    assert not decision.finished


def test_the_last_player_in_wins_and_the_prizes_go_by_the_payout_table() -> None:
    settings = sit_and_go(seats=6, buy_in=100)  # six entrants: 65/35
    table = TournamentTable("t1", 1, ready=9, cleared=8, next_big_blind=0)
    entrants = [
        Entrant(1, "A", "t1", 0, 9000),
        Entrant(2, "B", out_hand="t1-9", out_stack=2500, out_order=5),
        *[Entrant(p, f"P{p}", place=p, out_hand="x", out_order=p) for p in range(3, 7)],
    ]
    decision = decide(running(settings, entrants, [table]), NOW, draw())
    assert decision.finished and decision.broken == (1,)
    assert [(f.player, f.place, f.prize) for f in decision.finishes] == [(2, 2, 210), (1, 1, 390)]


def test_equal_stacks_out_in_one_hand_share_the_places_and_their_prizes() -> None:
    settings = sit_and_go(seats=6, buy_in=100)
    table = TournamentTable("t1", 1, ready=9, cleared=8, next_big_blind=0)
    entrants = [
        Entrant(1, "A", "t1", 0, 9000),
        Entrant(2, "B", out_hand="t1-9", out_stack=1000, out_order=5),
        Entrant(3, "C", out_hand="t1-9", out_stack=1000, out_order=6),
        *[Entrant(p, f"P{p}", place=p, out_hand="x", out_order=p) for p in range(4, 7)],
    ]
    decision = decide(running(settings, entrants, [table]), NOW, draw())
    second = [(f.player, f.place, f.shared, f.prize) for f in decision.finishes if f.place == 2]
    assert second == [(2, 2, 2, 105), (3, 2, 2, 105)]  # 35% of 600 split


def nine_tables(
    counts: list[int], waiting: list[bool]
) -> tuple[list[Entrant], list[TournamentTable]]:
    entrants, tables, player = [], [], 1
    for number, (count, waits) in enumerate(zip(counts, waiting, strict=True), start=1):
        table_id = f"t{number}"
        tables.append(
            TournamentTable(table_id, number, ready=3, cleared=2 if waits else 3, next_big_blind=0)
        )
        for seat in range(count):
            entrants.append(Entrant(player, f"P{player}", table_id, seat, 1000))
            player += 1
    return entrants, tables


def test_a_table_two_above_another_gives_its_next_big_blind_when_it_waits() -> None:
    settings = TournamentSettings(name="Sunday", kind=Kind.SCHEDULED, seats=9, start_at=NOW)
    entrants, tables = nine_tables([9, 7, 8], [True, False, False])
    decision = decide(running(settings, entrants, tables, entries=40), NOW, draw())
    assert [
        (m.player, m.from_table, m.from_seat, m.to_table, m.reason) for m in decision.moves
    ] == [(1, 1, 0, 2, MoveReason.BALANCE)]
    assert decision.cleared == (1,)


def test_hand_for_hand_at_the_bubble_clears_no_table_until_every_table_waits() -> None:
    settings = TournamentSettings(
        name="Sunday", kind=Kind.SCHEDULED, seats=9, start_at=NOW, buy_in=10
    )
    entrants, tables = nine_tables([8, 8], [True, False])  # 16 left of 100: 15 paid
    state = running(settings, entrants, tables, entries=100, pool=1000)
    decision = decide(state, NOW, draw())
    assert decision.hand_for_hand and decision.cleared == ()
    entrants, tables = nine_tables([8, 8], [True, True])
    decision = decide(running(settings, entrants, tables, entries=100, pool=1000), NOW, draw())
    assert decision.hand_for_hand and decision.cleared == (1, 2)


def test_hand_for_hand_the_players_out_at_two_tables_are_out_in_one_hand() -> None:
    settings = TournamentSettings(
        name="Sunday", kind=Kind.SCHEDULED, seats=9, start_at=NOW, buy_in=10
    )
    entrants, tables = nine_tables([7, 7], [True, False])
    entrants += [
        Entrant(90, "Big", out_hand="t1-40", out_stack=5000, out_order=1),
        Entrant(91, "Small", out_hand="t2-38", out_stack=100, out_order=0),
    ]
    state = running(settings, entrants, tables, entries=100, pool=1000, hand_for_hand=True)
    assert decide(state, NOW, draw()).finishes == ()  # table 2 has not played the round
    entrants, tables = nine_tables([7, 7], [True, True])
    entrants += [
        Entrant(90, "Big", out_hand="t1-40", out_stack=5000, out_order=1),
        Entrant(91, "Small", out_hand="t2-38", out_stack=100, out_order=0),
    ]
    state = running(settings, entrants, tables, entries=100, pool=1000, hand_for_hand=True)
    placed = {f.player: f.place for f in decide(state, NOW, draw()).finishes}
    assert placed == {90: 15, 91: 16}  # by their stacks, not the order they were heard of


def test_a_table_left_with_one_player_counts_as_between_hands_and_is_emptied_and_broken() -> None:
    """Hand for hand, a table that cannot deal (one player left) does not hold the round
    up: the players out are placed; balancing moves its last player and it breaks."""
    settings = TournamentSettings(
        name="Sunday", kind=Kind.SCHEDULED, seats=9, start_at=NOW, buy_in=10
    )
    entrants, tables = nine_tables([8, 1], [True, False])
    tables[1] = TournamentTable("t2", 2, ready=7, cleared=7, next_big_blind=0)
    entrants += [Entrant(90, "Out", out_hand="t2-6", out_stack=800, out_order=1)]
    state = running(settings, entrants, tables, entries=100, pool=1000, hand_for_hand=True)
    decision = decide(state, NOW, draw())
    assert [f.player for f in decision.finishes] == [90]
    assert [(m.player, m.from_table, m.to_table) for m in decision.moves] == [(9, 2, 1)]
    assert decision.broken == (2,)
