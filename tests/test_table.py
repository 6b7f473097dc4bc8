"""The table (RULES.md 6): seats, buy-ins, the button, blinds, sitting out, time-outs."""

import pytest
from table_helpers import deal, finish, posts
from table_helpers import table_of as seat_players

from splitpot.cards import Deck, parse_cards
from splitpot.engine import Posted, PostKind
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit, Structure, Variant
from splitpot.table import HISTORY_SIZE, PlayerLeft, Table, TableConfig, TableError

LIMIT = TableConfig(Variant.O8, FixedLimit(2, 4), seats=6)


def table_of(names: dict[int, str], config: TableConfig = LIMIT, chips: int = 100) -> Table:
    return seat_players(names, config, chips)


def test_first_button_goes_to_the_highest_card_suits_breaking_ties() -> None:
    """RULES.md 4.1: s > h > d > c."""
    table = table_of({0: "Ann", 2: "Bob", 4: "Cy"})
    assert table.draw_for_button(parse_cards("Kd Ks 2c")) == 2
    assert table.draw_for_button(parse_cards("Ah Kd As")) == 4
    table.deal(Deck(1).cards, draw=parse_cards("Kd Ks 2c"))
    assert table.button_seat == 2
    assert posts(table) == [("Cy", "small blind", 1), ("Ann", "big blind", 2)]


def test_the_button_moves_one_seat_clockwise_each_hand() -> None:
    table = table_of({0: "Ann", 2: "Bob", 4: "Cy", 5: "Dee"})
    buttons = []
    for seed in range(6):
        deal(table, seed)
        buttons.append(table.button_seat)
        finish(table)
    first = [0, 2, 4, 5].index(buttons[0])
    assert buttons == [[0, 2, 4, 5][(first + i) % 4] for i in range(6)]


def test_buy_ins_limit_ten_small_bets_pot_limit_40_to_100_big_blinds() -> None:
    """RULES.md 6: 3/6 limit: 30 minimum; pot and no limit 40 to 100 big blinds."""
    assert TableConfig(Variant.O8, FixedLimit(3, 6)).min_buy_in == 30
    assert TableConfig(Variant.O8, FixedLimit(10, 20)).min_buy_in == 100
    pot = TableConfig(Variant.O8, PotLimit(1, 2))
    assert (pot.min_buy_in, pot.max_buy_in) == (80, 200)
    assert TableConfig(Variant.O8, NoLimit(1, 2), min_buy_in=20, max_buy_in=500).min_buy_in == 20
    table = Table(pot)
    with pytest.raises(TableError, match="the minimum buy-in is 80, not 79"):
        table.sit(0, "Ann", 79)
    with pytest.raises(TableError, match="the maximum is 200"):
        table.sit(0, "Ann", 201)
    assert table.seats[0] is None  # nothing changed
    table.sit(0, "Ann", 80)
    with pytest.raises(TableError, match="seat 1 is taken"):
        table.sit(0, "Bob", 80)
    with pytest.raises(TableError, match="Ann is already seated"):
        table.sit(1, "Ann", 80)
    with pytest.raises(TableError, match="there is no seat 7"):
        table.sit(6, "Cy", 80)


def start_with_button_on_first_seat(table: Table, seed: int = 0) -> None:
    """Deal the first hand with a draw that the first seated player wins with the ace of
    spades."""
    table.deal(Deck(seed).cards, draw=parse_cards("As 2c 2d 2h 3c 3d 3h 4c 4d 4h"))


def test_a_new_player_waits_for_the_big_blind() -> None:
    """RULES.md 6, joining: Dee sits down and is dealt in when the big blind reaches her."""
    table = table_of({0: "Ann", 2: "Bob", 4: "Cy"})
    start_with_button_on_first_seat(table)  # button Ann, small blind Bob, big blind Cy
    assert posts(table) == [("Bob", "small blind", 1), ("Cy", "big blind", 2)]
    finish(table)
    table.sit(3, "Dee", 100)
    deal(table, 1)  # big blind Ann: Dee waits
    assert "Dee" not in table.hand.names  # type: ignore[union-attr]
    finish(table)
    deal(table, 2)  # big blind Bob
    assert "Dee" not in table.hand.names  # type: ignore[union-attr]
    finish(table)
    deal(table, 3)  # the big blind reaches Dee
    assert posts(table) == [("Bob", "small blind", 1), ("Dee", "big blind", 2)]


def test_a_new_player_posting_now_is_dealt_in_with_a_live_big_blind() -> None:
    """RULES.md 6: posts an amount equal to the big blind and is dealt in at once; in
    the small blind's place (between the button and the big blind) only after the button
    has passed."""
    table = table_of({0: "Ann", 2: "Bob", 4: "Cy"})
    start_with_button_on_first_seat(table)
    finish(table)
    table.sit(1, "Eve", 100, post_now=True)  # next hand: button Bob (2), big blind Ann (0)
    table.sit(3, "Fay", 100, post_now=True)  # seat 3 is between the button and the big blind
    deal(table, 1)
    assert table.button_seat == 2
    assert posts(table) == [
        ("Cy", "small blind", 1),
        ("Ann", "big blind", 2),
        ("Eve", "live post", 2),
    ]
    assert "Fay" not in table.hand.names  # type: ignore[union-attr]
    eve = table.hand.names.index("Eve")  # type: ignore[union-attr]
    assert table.hand.hand.bets[eve] == 2  # type: ignore[union-attr]
    finish(table)
    deal(table, 2)  # the button has passed Fay's seat: she posts and plays
    assert ("Fay", "live post", 2) in posts(table)


def test_missed_blinds_post_3_at_2_4_with_1_dead() -> None:
    """RULES.md 6: 2/4, post 3, of which 2 is live and 1 dead."""
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"})
    start_with_button_on_first_seat(table)  # button Ann, blinds Bob and Cy
    finish(table)
    table.sit_out(3)
    deal(table, 1)  # the big blind passes Dee's seat to Ann: Dee misses her blinds
    assert table.seats[3].missed_big  # type: ignore[union-attr]
    finish(table)
    table.sit_in(3, post_now=True)
    deal(table, 2)  # button Cy (2), big blind Bob (1): Dee's seat is between them
    assert "Dee" not in table.hand.names  # type: ignore[union-attr]
    finish(table)
    deal(table, 3)  # button Ann: Dee posts 3, 2 live and 1 dead
    dee_posts = [(kind, amount) for name, kind, amount in posts(table) if name == "Dee"]
    assert dee_posts == [("live post", 2), ("dead small blind", 1)]
    dee = table.hand.names.index("Dee")  # type: ignore[union-attr]
    hand = table.hand.hand  # type: ignore[union-attr]
    assert hand.bets[dee] == 2 and hand.starting_stacks[dee] - hand.stacks[dee] == 3
    assert not table.seats[3].missed_big  # type: ignore[union-attr]


def test_heads_up_when_a_player_busts_the_button_posts_the_small_blind() -> None:
    """RULES.md 4.1; no one pays the big blind twice in a row."""
    table = table_of({0: "Ann", 2: "Bob", 4: "Cy"})
    start_with_button_on_first_seat(table)
    finish(table)
    table.leave(4)  # Cy is gone (broke)
    big_blinds = []
    for seed in range(1, 7):
        deal(table, seed)
        assert table.hand is not None and len(table.hand.seats) == 2
        hand = table.hand.hand
        kinds = {table.hand.names[e.player]: e.kind for e in hand.events if isinstance(e, Posted)}
        assert kinds[table.hand.names[hand.button]] is PostKind.SMALL_BLIND
        big_blinds.append(next(n for n, k in kinds.items() if k is PostKind.BIG_BLIND))
        finish(table)
    assert big_blinds == ["Ann", "Bob", "Ann", "Bob", "Ann", "Bob"]


def test_the_button_passes_an_empty_seat_as_a_dead_button() -> None:
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"})
    start_with_button_on_first_seat(table)  # button Ann, small blind Bob, big blind Cy
    finish(table)
    table.leave(1)  # Bob's seat would have the button next
    deal(table, 1)
    assert table.button_seat == 1 and table.seats[1] is None
    assert posts(table) == [("Cy", "small blind", 1), ("Dee", "big blind", 2)]
    hand = table.hand.hand  # type: ignore[union-attr]
    assert table.hand.names[hand.button] == "Ann"  # type: ignore[union-attr]
    assert table.hand.names[hand.to_act] == "Ann"  # type: ignore[union-attr]


def test_ten_players() -> None:
    names = {seat: f"P{seat}" for seat in range(10)}
    table = table_of(names, TableConfig(Variant.O8, FixedLimit(2, 4), seats=10))
    for seed in range(12):
        deal(table, seed)
        assert table.hand is not None and len(table.hand.seats) == 10
        finish(table)
    assert table.chips() == 1000


def test_mixed_game_turns_structure_every_orbit() -> None:
    config = TableConfig(
        Variant.O8, Mixed(FixedLimit(4, 8), PotLimit(1, 2)), seats=3, min_buy_in=100, max_buy_in=200
    )
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy"}, config)
    structures = []
    for seed in range(7):
        deal(table, seed)
        assert table.hand is not None
        structures.append(table.hand.hand.config.structure)
        finish(table)
    L, P = Structure.FIXED_LIMIT, Structure.POT_LIMIT
    assert structures == [L, L, L, P, P, P, L]


def test_time_out_checks_if_possible_else_folds_then_sits_out() -> None:
    """RULES.md 6."""
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy"})
    deal(table)
    seat = table.seat_to_act
    assert seat is not None
    table.time_out(seat)
    assert table.seats[seat].sitting_out  # type: ignore[union-attr]
    assert table.history or table.hand is not None
    with pytest.raises(TableError, match="is not to act"):
        other = next(s for s in range(3) if s != table.seat_to_act)
        table.time_out(other)


def test_leaving_and_adding_chips_wait_for_the_end_of_the_hand() -> None:
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy"})
    deal(table)
    with pytest.raises(TableError, match="is in the hand: leave when it is over"):
        table.leave(0)
    with pytest.raises(TableError, match="no chips may be added during a hand"):
        table.add_chips(0, 10)
    with pytest.raises(TableError, match="a hand is already being played"):
        deal(table, 1)
    finish(table)
    (left,) = table.leave(0)
    assert isinstance(left, PlayerLeft) and left.stack > 0


def test_history_keeps_the_last_50_hands() -> None:
    table = table_of({0: "Ann", 1: "Bob"})
    for seed in range(HISTORY_SIZE + 5):
        deal(table, seed)
        finish(table)
    assert len(table.history) == HISTORY_SIZE
    assert table.history[0].number == 6 and table.history[-1].number == HISTORY_SIZE + 5


def test_a_table_needs_two_players_sitting_in() -> None:
    table = table_of({0: "Ann"})
    with pytest.raises(TableError, match="at least two players"):
        deal(table)
    with pytest.raises(TableError, match="a table has 2 to 10 seats, not 11"):
        TableConfig(Variant.O8, FixedLimit(2, 4), seats=11)
