"""Balancing and breaking tournament tables (RULES.md 8): who moves where, in named
situations, and the rules that hold for any seating (no player moves twice, nobody lost,
the tables balanced after)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from splitpot.tournament.balancing import (
    Move,
    MoveReason,
    Plan,
    TableState,
    hand_for_hand,
    plan,
)
from splitpot.tournament.errors import TournamentError

BALANCE = MoveReason.BALANCE
BREAK = MoveReason.BREAK


def table(
    number: int,
    occupied: Iterable[int],
    next_big_blind: int | None,
    *,
    between_hands: bool = True,
    seats: int = 9,
) -> TableState:
    """A table whose player in seat s is number * 100 + s (so a player id says where they sat)."""
    players = {seat: number * 100 + seat for seat in occupied}
    return TableState(number, seats, players, next_big_blind, between_hands)


def full(number: int, count: int, next_big_blind: int | None = 0, **options: bool) -> TableState:
    """A table with seats 0 to count - 1 taken."""
    return table(number, range(count), next_big_blind, **options)


class Draws:
    """The shell's draw, scripted: answers the given indexes in turn and records each n."""

    def __init__(self, *answers: int) -> None:
        self.answers = list(answers)
        self.asked: list[int] = []

    def __call__(self, count: int) -> int:
        self.asked.append(count)
        return self.answers.pop(0)


def no_draw(count: int) -> int:
    raise AssertionError(f"nothing should be drawn here (asked for {count})")


def seated(tables: Iterable[TableState], result: Plan) -> dict[int, tuple[int, int]]:
    """Player -> (table, seat) once the plan's moves are made."""
    where = {p: (t.number, s) for t in tables for s, p in t.players.items()}
    for move in result.moves:
        assert where[move.player] == (move.from_table, move.from_seat)
        where[move.player] = (move.to_table, move.to_seat)
    return where


def counts(tables: Iterable[TableState], result: Plan) -> dict[int, int]:
    found: dict[int, int] = {}
    for number, _ in seated(tables, result).values():
        found[number] = found.get(number, 0) + 1
    return found


# -- balancing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("receiver_big_blind", "to_seat"),
    [(4, 6), (0, 1), (7, 1), (6, 1), (1, 6)],
)
def test_a_9_7_pair_moves_the_givers_next_big_blind_after_the_receivers(
    receiver_big_blind: int, to_seat: int
) -> None:
    # Table 2 has seats 1 and 6 empty: the mover takes the first empty seat clockwise AFTER
    # the receiver's next big blind (wrapping round), so they post the big blind in turn.
    giver = full(1, 9, next_big_blind=4)
    receiver = table(2, [0, 2, 3, 4, 5, 7, 8], receiver_big_blind)
    result = plan([giver, receiver], no_draw)
    assert result == Plan((Move(104, 1, 4, 2, to_seat, BALANCE),), ())


def test_the_receivers_own_empty_next_big_blind_seat_is_taken_last() -> None:
    # Seats 3 and 7 are empty and the big blind is due to seat 3: the mover goes to the
    # first empty seat after it (7), seat 3 itself coming last, once round the table.
    result = plan([full(1, 9, 2), table(2, [0, 1, 2, 4, 5, 6, 8], 3)], no_draw)
    assert result.moves == (Move(102, 1, 2, 2, 7, BALANCE),)


def test_the_receiver_with_only_its_next_big_blind_seat_empty_gets_that_seat() -> None:
    giver = TableState(1, 10, {s: 100 + s for s in range(10)}, 5, True)
    receiver = table(2, [0, 1, 2, 3, 4, 5, 6, 8], 7)
    result = plan([giver, receiver], no_draw)
    # 10 on 10 seats and 8 on 9: one move, to seat 7, the only empty one.
    assert result.moves == (Move(105, 1, 5, 2, 7, BALANCE),)


def test_two_moves_pass_the_givers_big_blind_on_and_keep_the_receivers() -> None:
    # 9 and 5: two players move. The second is the player after the first at the giver
    # (the big blind passed to them); the receiver's big blind stays at seat 2, so the
    # second goes to the next empty seat after the first.
    giver = full(1, 9, next_big_blind=7)
    receiver = table(2, [0, 1, 2, 5, 6], 2)
    result = plan([giver, receiver], no_draw)
    assert result.moves == (
        Move(107, 1, 7, 2, 3, BALANCE),
        Move(108, 1, 8, 2, 4, BALANCE),
    )


def test_the_givers_big_blind_passes_round_past_seat_nine() -> None:
    giver = table(1, [0, 2, 3, 5, 6, 7, 8], next_big_blind=8)  # 7 players
    receiver = table(2, [0, 1, 2], 0)  # 3 players
    result = plan([giver, receiver], no_draw)
    # 7/3: two moves; after seat 8 the big blind is due to seat 0 (seat 1 is empty).
    assert [(m.player, m.to_seat) for m in result.moves] == [(108, 3), (100, 4)]


def test_an_empty_next_big_blind_seat_at_the_giver_moves_the_next_player_clockwise() -> None:
    giver = table(1, [0, 1, 2, 5, 6, 7, 8, 3], next_big_blind=4)  # seat 4 emptied by a bust
    receiver = table(2, [0, 1, 2, 3, 4, 5], 5)
    result = plan([giver, receiver], no_draw)
    assert result.moves == (Move(105, 1, 5, 2, 6, BALANCE),)


def test_a_giver_whose_button_is_still_to_be_drawn_gives_its_first_seated_player() -> None:
    giver = table(1, [2, 3, 4, 5, 6, 7, 8, 0, 1], next_big_blind=None)
    result = plan([giver, full(2, 7, 3)], no_draw)
    assert result.moves == (Move(100, 1, 0, 2, 7, BALANCE),)
    giver = table(1, [2, 3, 4, 5, 6, 7, 8], next_big_blind=None)
    result = plan([giver, full(2, 5, 3)], no_draw)
    assert [m.player for m in result.moves] == [102]


def test_a_receiver_whose_button_is_still_to_be_drawn_gets_a_drawn_empty_seat() -> None:
    receiver = table(2, [0, 2, 4, 6, 8], next_big_blind=None)  # empty: 1, 3, 5, 7
    draws = Draws(2, 0)
    result = plan([full(1, 9, 0), receiver], draws)
    # 9/5: two moves; the first draws among 4 empty seats (index 2: seat 5), the second
    # among the 3 left (index 0: seat 1).
    assert draws.asked == [4, 3]
    assert result.moves == (
        Move(100, 1, 0, 2, 5, BALANCE),
        Move(101, 1, 1, 2, 1, BALANCE),
    )


def test_a_difference_of_one_moves_nobody() -> None:
    assert plan([full(1, 9), full(2, 8), full(3, 8)], no_draw) == Plan((), ())


def test_a_table_that_is_mid_hand_gives_nobody() -> None:
    busy = full(1, 9, 4, between_hands=False)
    assert plan([busy, full(2, 7, 0)], no_draw) == Plan((), ())


def test_a_table_between_hands_gives_while_one_as_big_is_mid_hand() -> None:
    busy = full(1, 9, 4, between_hands=False)
    result = plan([busy, full(2, 9, 6), full(3, 7, 0)], no_draw)
    assert result.moves == (Move(206, 2, 6, 3, 7, BALANCE),)


def test_a_table_that_is_mid_hand_still_receives() -> None:
    result = plan([full(1, 9, 4), full(2, 7, 0, between_hands=False)], no_draw)
    assert result.moves == (Move(104, 1, 4, 2, 7, BALANCE),)


def test_ties_go_to_the_lowest_numbered_giver_and_receiver() -> None:
    # 9, 9, 7, 7 (36 players on 4 x 9 seats: nothing breaks). Table 1 gives before table 2
    # (tied at 9) and table 3 receives before table 4 (tied at 7).
    tables = [full(4, 7, 0), full(2, 9, 3), full(3, 7, 0), full(1, 9, 5)]
    result = plan(tables, no_draw)
    assert result.moves == (
        Move(105, 1, 5, 3, 7, BALANCE),
        Move(203, 2, 3, 4, 7, BALANCE),
    )


def test_the_biggest_table_gives_first() -> None:
    # 8, 10, 6 (on ten seats): table 2 (10) gives before table 1 (8), both two above 6;
    # then 8, 9, 7: table 2 again (table 1 is one above 7), and 8, 8, 8.
    tables = [
        TableState(n, 10, {s: n * 100 + s for s in range(c)}, 0, True)
        for n, c in ((1, 8), (2, 10), (3, 6))
    ]
    result = plan(tables, no_draw)
    assert [(m.from_table, m.to_table) for m in result.moves] == [(2, 3), (2, 3)]
    assert counts(tables, result) == {1: 8, 2: 8, 3: 8}


def test_tables_with_no_players_are_ignored() -> None:
    # Table 2 broke earlier: it neither receives nor counts as the smallest, nor breaks.
    result = plan([full(1, 9, 0), table(2, [], None), full(3, 8, 0)], no_draw)
    assert result == Plan((), ())


def test_balancing_many_steps_moves_nobody_twice() -> None:
    # 9, 9, 1: 19 players do not fit on 18 seats, so nothing breaks; five moves balance.
    tables = [full(1, 9, 0), full(2, 9, 0), full(3, 1, 0)]
    result = plan(tables, no_draw)
    assert [(m.player, m.from_table, m.to_seat) for m in result.moves] == [
        (100, 1, 1),
        (200, 2, 2),
        (101, 1, 3),
        (201, 2, 4),
        (102, 1, 5),
    ]
    assert result.broken == ()
    assert counts(tables, result) == {1: 6, 2: 7, 3: 6}


# -- breaking ----------------------------------------------------------------------------


def test_the_fewest_player_table_breaks_into_the_smallest_tables() -> None:
    # 8, 6 and 3 on 9 seats: 17 players fit on 18 seats, so table 3 breaks. Its players in
    # seat order: seat 1 to table 2 (6, the fewest: 3 empty seats drawn among); seat 4 to
    # table 2 again (7); seat 8 when tables 1 and 2 both have 8: drawn among their one
    # empty seat each, ordered by table then seat.
    tables = [full(1, 8, 0), full(2, 6, 0), table(3, [1, 4, 8], 4)]
    draws = Draws(1, 0, 0)
    result = plan(tables, draws)
    assert draws.asked == [3, 2, 2]
    assert result == Plan(
        (
            Move(301, 3, 1, 2, 7, BREAK),
            Move(304, 3, 4, 2, 6, BREAK),
            Move(308, 3, 8, 1, 8, BREAK),
        ),
        (3,),
    )


def test_the_last_break_draw_can_land_on_the_higher_table() -> None:
    tables = [full(1, 8, 0), full(2, 6, 0), table(3, [1, 4, 8], 4)]
    result = plan(tables, Draws(0, 0, 1))
    assert result.moves[-1] == Move(308, 3, 8, 2, 8, BREAK)


def test_the_draw_is_asked_even_for_a_single_seat() -> None:
    # 9, 8, 1: 18 players fit exactly on two tables; table 3's player has one seat to go to.
    draws = Draws(0)
    result = plan([full(1, 9, 0), full(2, 8, 0), full(3, 1, 0)], draws)
    assert draws.asked == [1]
    assert result == Plan((Move(300, 3, 0, 2, 8, BREAK),), (3,))


def test_a_tie_for_fewest_breaks_the_highest_numbered_table() -> None:
    tables = [full(1, 4, 0), full(2, 4, 0), full(3, 8, 0)]
    result = plan(tables, Draws(0, 0, 0, 0))
    assert result.broken == (2,)
    assert {m.from_table for m in result.moves} == {2}
    # Table 1 (4) is the fewest until it has 8: all four go there.
    assert [m.to_table for m in result.moves] == [1, 1, 1, 1]


def test_players_that_do_not_fit_break_nothing() -> None:
    # 9, 9, 1 is 19 players on 18 seats: no break (balancing instead).
    result = plan([full(1, 9, 0), full(2, 9, 0), full(3, 1, 0)], no_draw)
    assert result.broken == ()
    assert all(m.reason is BALANCE for m in result.moves)


def test_a_table_that_is_mid_hand_does_not_break_yet() -> None:
    busy = full(3, 3, 0, between_hands=False)
    result = plan([full(1, 8, 0), full(2, 6, 0), busy], no_draw)
    assert result.broken == ()
    assert all(m.reason is BALANCE for m in result.moves)
    # Once between hands it breaks.
    later = full(3, 3, 0)
    assert plan([full(1, 8, 0), full(2, 6, 0), later], Draws(0, 0, 0)).broken == (3,)


def test_a_break_can_go_to_a_table_that_is_mid_hand() -> None:
    busy = full(2, 6, 0, between_hands=False)
    result = plan([full(1, 8, 0), busy, full(3, 2, 0)], Draws(0, 0))
    assert result.broken == (3,)
    assert [m.to_table for m in result.moves] == [2, 2]


def test_a_break_then_balancing_in_the_same_plan() -> None:
    # 9, 7, 6, 1: 23 players fit on 27 seats. Table 4 breaks into table 3 (6 -> 7); then 9,
    # 7, 7: table 1 gives its next big blind to table 2 (the lowest numbered of the 7s).
    tables = [full(1, 9, 2), full(2, 7, 3), full(3, 6, 0), full(4, 1, 0)]
    draws = Draws(2)
    result = plan(tables, draws)
    assert draws.asked == [3]
    assert result == Plan(
        (
            Move(400, 4, 0, 3, 8, BREAK),
            Move(102, 1, 2, 2, 7, BALANCE),
        ),
        (4,),
    )


def test_one_break_per_plan() -> None:
    # 2, 2, 2, 2 on 9 seats: three tables could go, one breaks now (table 4, the highest
    # of the tied): its two players to the fewest tables, drawn among 21 then 14 seats.
    tables = [full(n, 2, 0) for n in (1, 2, 3, 4)]
    draws = Draws(0, 0)
    result = plan(tables, draws)
    assert draws.asked == [21, 14]
    assert result.broken == (4,)
    breaks = [m for m in result.moves if m.reason is BREAK]
    assert [(m.player, m.to_table) for m in breaks] == [(400, 1), (401, 2)]
    assert [m for m in result.moves if m.reason is BALANCE] == []
    assert counts(tables, result) == {1: 3, 2: 3, 3: 2}


# -- checks ------------------------------------------------------------------------------


def test_a_bad_table_is_refused_naming_the_bad_part() -> None:
    with pytest.raises(TournamentError, match="seat 9 is not one of its seats 0 to 8"):
        table(1, [9], 0)
    with pytest.raises(TournamentError, match="2 to 10 seats, not 11"):
        TableState(1, 11, {}, None, True)
    with pytest.raises(TournamentError, match="next big blind's seat 6"):
        table(1, [0], 6, seats=6)
    with pytest.raises(TournamentError, match="number is 1 or more, not 0"):
        table(0, [0], 0)
    with pytest.raises(TournamentError, match="two of its seats"):
        TableState(1, 9, {0: 7, 1: 7}, 0, True)


def test_a_player_at_two_tables_or_a_table_twice_is_refused() -> None:
    with pytest.raises(TournamentError, match="player 7 sits at two tables"):
        plan([TableState(1, 9, {0: 7}, 0, True), TableState(2, 9, {3: 7}, 0, True)], no_draw)
    with pytest.raises(TournamentError, match="table 1 is given twice"):
        plan([full(1, 2, 0), table(1, [5], 5)], no_draw)


def test_a_draw_out_of_range_is_refused() -> None:
    with pytest.raises(TournamentError, match="the draw gave 3, not an index below 3"):
        plan([full(1, 8, 0), full(2, 6, 0), full(3, 3, 0)], Draws(3))


# -- any seating -------------------------------------------------------------------------


@st.composite
def seatings(draw: st.DrawFn) -> list[TableState]:
    seats = draw(st.integers(6, 10))
    how_many = draw(st.integers(1, 6))
    tables = []
    for number in range(1, how_many + 1):
        occupied = draw(st.sets(st.integers(0, seats - 1), max_size=seats))
        big_blind = draw(st.none() | st.integers(0, seats - 1))
        between = draw(st.booleans())
        players = {seat: number * 100 + seat for seat in occupied}
        tables.append(TableState(number, seats, players, big_blind, between))
    return tables


@settings(max_examples=300, deadline=None)
@given(seatings(), st.integers(0, 2**32))
def test_any_seating_plans_legal_moves_and_leaves_the_tables_balanced(
    tables: list[TableState], seed: int
) -> None:
    chance = random.Random(seed)
    result = plan(tables, chance.randrange)
    movers = [m.player for m in result.moves]
    assert len(movers) == len(set(movers)), "a player moved twice"
    where = seated(tables, result)  # each move starts where the player sat
    assert len(set(where.values())) == len(where), "two players in one seat"
    seats = {t.number: t.seats for t in tables}
    assert all(0 <= seat < seats[number] for number, seat in where.values())
    assert len(result.broken) <= 1
    broken = set(result.broken)
    after = counts(tables, result)
    assert not broken & after.keys(), "a broken table keeps a player"
    before = {t.number: t for t in tables if t.players}
    for move in result.moves:
        assert before[move.from_table].between_hands  # only a table between hands gives
        assert move.to_table not in broken
        assert (move.reason is BREAK) == (move.from_table in broken)
    # Balanced: no table between hands is two above the smallest (when none is full).
    smallest = min(after.values(), default=0)
    if all(after[n] < seats[n] for n in after):
        assert all(after[n] < smallest + 2 for n in after if before[n].between_hands)


# -- hand for hand -----------------------------------------------------------------------


def test_hand_for_hand_at_the_money_bubble() -> None:
    # 27 paid, 28 left on three tables: the next one out gets nothing.
    assert hand_for_hand(players_left=28, paid=27, tables=3, seats=9)
    assert not hand_for_hand(players_left=29, paid=27, tables=4, seats=9)
    assert not hand_for_hand(players_left=27, paid=27, tables=3, seats=9)


def test_hand_for_hand_before_the_final_table() -> None:
    # Ten left on two nine-seat tables: the next elimination makes the final table.
    assert hand_for_hand(players_left=10, paid=3, tables=2, seats=9)
    assert not hand_for_hand(players_left=11, paid=3, tables=2, seats=9)
    assert hand_for_hand(players_left=7, paid=3, tables=2, seats=6)
    assert not hand_for_hand(players_left=10, paid=3, tables=3, seats=9)


def test_no_hand_for_hand_on_a_single_table() -> None:
    assert not hand_for_hand(players_left=4, paid=3, tables=1, seats=9)
    assert not hand_for_hand(players_left=10, paid=3, tables=1, seats=9)


def test_hand_for_hand_refuses_nonsense() -> None:
    with pytest.raises(TournamentError, match="tables: 0 is not a whole number of 1 or more"):
        hand_for_hand(players_left=10, paid=3, tables=0, seats=9)
    with pytest.raises(TournamentError, match="seats: 1 is not"):
        hand_for_hand(players_left=10, paid=3, tables=2, seats=1)
