"""The table in a tournament (RULES.md 8): the absent are dealt in and post, a player
moved in posts nothing extra and is dealt in except between the button and the big blind,
and the next big blind is known between hands for the balancing of tables."""

from __future__ import annotations

from dataclasses import replace

from table_helpers import deal, finish, posts, posts_of, table_of

from splitpot.cards import Deck
from splitpot.engine import Action
from splitpot.rules import NoLimit, PotLimit, Variant
from splitpot.table import HandStarted, SatOut, StakesChanged, Table, TableConfig

CONFIG = TableConfig(Variant.O8, PotLimit(10, 20), seats=6, tournament=True)
CASH = replace(CONFIG, tournament=False)


def players(config: TableConfig = CONFIG) -> Table:
    return table_of({0: "Ann", 1: "Bob", 2: "Cat", 3: "Dan"}, config, chips=1500)


def big_blind_name(table: Table) -> str:
    return next(name for name, kind, _ in posts(table) if kind == "big blind")


def test_a_player_timed_out_is_dealt_in_the_next_hand_and_posts_the_big_blind_in_turn() -> None:
    table = players()
    deal(table, 1)
    seat = table.seat_to_act
    assert seat is not None
    events = table.time_out(seat)
    away = table.seats[seat]
    assert away is not None and away.sitting_out
    assert any(isinstance(e, SatOut) and e.timed_out for e in events)
    for number in range(2, 8):  # the blinds go round; the player away is dealt every hand
        finish(table)
        deal(table, number)
        assert table.hand is not None and away.name in table.hand.names
    assert any(big_blind_name_at(table, seed) == away.name for seed in range(8, 14))


def big_blind_name_at(table: Table, seed: int) -> str:
    finish(table)
    deal(table, seed)
    return big_blind_name(table)


def test_at_a_cash_table_the_same_player_is_not_dealt_in() -> None:
    table = players(CASH)
    deal(table, 1)
    seat = table.seat_to_act
    assert seat is not None
    table.time_out(seat)
    away = table.seats[seat]
    assert away is not None
    finish(table)
    deal(table, 2)
    assert table.hand is not None and away.name not in table.hand.names


def test_a_player_moved_in_after_the_next_big_blind_is_dealt_in_and_posts_nothing() -> None:
    table = players()
    deal(table, 1)
    finish(table)
    due = table.next_big_blind
    assert due is not None
    empty = next(s for s in range(due + 1, due + 6) if table.seats[s % 6] is None) % 6
    table.sit(empty, "Eve", 900, kept=True)
    deal(table, 2)
    assert table.hand is not None and "Eve" in table.hand.names
    assert big_blind_name(table) == table.seats[due].name  # type: ignore[union-attr]
    assert posts_of(table, "Eve") == []  # no live blind for a player moved in


def test_a_player_moved_in_between_the_button_and_the_small_blind_waits_for_the_button() -> None:
    table = table_of({0: "Ann", 2: "Bob", 4: "Cat"}, CONFIG, chips=1500)
    deal(table, 1)  # the button at 0, the blinds at 2 and 4: next hand 2, 4 and 0
    assert table.hand is not None and table.hand.button_seat == 0
    finish(table)
    assert table.next_big_blind == 0
    table.sit(3, "Eve", 900, kept=True)  # between next hand's button and small blind
    deal(table, 2)
    assert table.hand is not None
    assert table.hand.button_seat == 2 and "Eve" not in table.hand.names
    finish(table)
    deal(table, 3)  # the button has passed: Eve is dealt in, and posts nothing extra
    assert table.hand is not None and "Eve" in table.hand.names
    assert posts_of(table, "Eve") == []


def test_the_next_big_blind_is_the_big_blind_of_the_next_hand_as_players_bust() -> None:
    table = table_of({0: "Ann", 1: "Bob", 2: "Cat", 3: "Dan", 4: "Eve"}, CONFIG, chips=1500)
    deal(table, 1)
    for number in range(2, 14):
        finish(table)
        due = table.next_big_blind
        assert due is not None
        if number == 6:  # a player busts between hands: the tournament takes them out
            gone = next(s for s in range(6) if table.seats[s] is not None and s != due)
            table.seats[gone].stack = 0  # type: ignore[union-attr]
            table.leave(gone)
            due = table.next_big_blind
        named = table.seats[due]
        assert named is not None
        deal(table, number)
        assert big_blind_name(table) == named.name


def test_the_next_big_blind_is_unknown_before_the_first_hand() -> None:
    assert players().next_big_blind is None


def test_a_new_level_changes_the_blinds_from_the_next_hand() -> None:
    table = players()
    deal(table, 1)
    table.config = replace(CONFIG, betting=PotLimit(20, 40), ante=5)
    assert [name for name, kind, amount in posts(table) if kind == "big blind"]
    assert next(a for _, k, a in posts(table) if k == "big blind") == 20  # not this hand
    finish(table)
    table.deal(Deck(2).cards)
    assert table.hand is not None
    assert next(a for _, k, a in posts(table) if k == "big blind") == 40
    assert sorted(a for _, k, a in posts(table) if k == "ante") == [5, 5, 5, 5]


def test_the_level_change_is_told_as_a_change_of_stakes() -> None:
    table = players(replace(CONFIG, betting=NoLimit(10, 20)))
    deal(table, 1)
    finish(table)
    table.config = replace(table.config, betting=NoLimit(15, 30))
    events = table.deal(Deck(3).cards)
    changed = [e for e in events if isinstance(e, StakesChanged)]
    assert changed and changed[0].betting == NoLimit(15, 30)
    assert isinstance(events[1], HandStarted)


def test_a_player_away_checks_or_folds_and_keeps_the_chips_not_lost() -> None:
    table = players()
    deal(table, 4)
    seat = table.seat_to_act
    assert seat is not None
    before = table.chips()
    table.time_out(seat)
    while table.hand is not None:
        turn = table.seat_to_act
        assert turn is not None
        if turn == seat:
            table.time_out(seat)
        else:
            legal = table.hand.hand.legal_actions()
            table.act(
                turn,
                Action.muck() if legal.muck else Action.call() if legal.call else Action.check(),
            )
    assert table.chips() == before
