"""The table's corners (RULES.md 4 and 6): hands over before anyone acts, blinds owed
by players who were away or broke, short posts, mixed orbits and the button draw."""

import re

import pytest
from table_helpers import deal as deal_with
from table_helpers import deal_until_dealt, finish, posts, posts_of
from table_helpers import table_of as seat_players

from splitpot.bots import make_bot
from splitpot.cards import Deck, parse_cards
from splitpot.engine import Action
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit, Structure, Variant
from splitpot.simulation import simulate
from splitpot.table import Straddle, Table, TableConfig, TableError

LIMIT = TableConfig(Variant.O8, FixedLimit(2, 4), seats=6)
ACE_FIRST = parse_cards("As 2c 2d 2h 3c 3d 3h 4c 4d 4h")  # the first seated player wins


def table_of(names: dict[int, str], config: TableConfig = LIMIT, chips: int = 100) -> Table:
    return seat_players(names, config, chips)


def deal(table: Table, seed: int = 0) -> None:
    deal_with(table, seed, ACE_FIRST)


# ------------------------------------------------------------ a hand over at once


def test_a_heads_up_hand_over_before_anyone_acts_is_returned_and_settled() -> None:
    """Heads-up, the button's small blind is all in by posting and the big blind covers
    it: no one acts, the board is run out and the hand is settled like any other."""
    config = TableConfig(Variant.O8, PotLimit(5, 10), seats=2, min_buy_in=5, max_buy_in=1000)
    table = Table(config)
    table.sit(0, "Ann", 5)
    table.sit(1, "Bob", 400)
    table.deal(Deck(3).cards, draw=ACE_FIRST)  # Ann has the button
    started = table.latest
    assert started is not None and started.hand.is_over
    assert table.hand is None and table.history[-1] is started
    assert table.hands_played == 1
    assert started.hand.actions == []
    assert len(started.hand.board) == 5
    result = started.hand.result
    assert result is not None and result.showdown
    stacks = {started.names[i]: s for i, s in enumerate(result.stacks)}
    assert stacks["Ann"] + stacks["Bob"] == 405
    assert table.seats[0].stack == stacks["Ann"]  # type: ignore[union-attr]
    assert table.seats[1].stack == stacks["Bob"]  # type: ignore[union-attr]


def test_simulating_heads_up_runs_through_hands_over_at_once() -> None:
    """The issue's reproduction: `splitpot simulate --seats 2 --hands 3000 --seed 1`."""
    config = TableConfig(Variant.O8, PotLimit(1, 2), seats=2)
    bots = [make_bot("sensible", "A", 1), make_bot("random", "B", 2)]
    result = simulate(config, bots, 3000, seed=1)
    assert result.hands == 3000
    assert result.chips_after == result.chips_before


# ------------------------------------------------------------ the button draw


def test_the_button_is_drawn_with_cards_of_its_own() -> None:
    """RULES.md 4.1: the draw's cards are not the first cards of the hand's deck."""
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy"})
    deck = Deck(5).cards
    table.deal(deck, draw=parse_cards("2c Ah 3d"))
    assert table.button_seat == 1
    assert table.hand is not None
    assert table.hand.hand.deck == tuple(deck)  # dealt from the top, nothing drawn off it


def test_a_game_that_starts_needs_cards_for_the_draw() -> None:
    table = table_of({0: "Ann", 1: "Bob"})
    with pytest.raises(TableError, match="the button is drawn with cards of its own"):
        table.deal(Deck(1).cards)
    assert table.hand is None and table.button_seat is None
    with pytest.raises(TableError, match="the draw for the button needs 2 cards, not 1"):
        table.deal(Deck(1).cards, draw=parse_cards("As"))
    deal(table)
    finish(table)
    table.deal(Deck(2).cards)  # the game goes on: no draw is needed
    assert table.hand is not None


# ------------------------------------------------------------ blinds owed


def test_a_player_who_misses_only_the_small_blind_owes_it_dead() -> None:
    """RULES.md 6 and seed 000: every player posts both blinds once a round. Dee is the big
    blind, then sits out: the small blind passes her seat, and she owes it dead. Back on
    the button's seat, she waits until the button has passed (RULES.md 6, joining)."""
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"})
    start = Deck(0).cards
    table.deal(start, draw=parse_cards("2c As 2d 2h"))  # button Bob: blinds Cy, Dee
    assert posts(table) == [("Cy", "small blind", 1), ("Dee", "big blind", 2)]
    finish(table)
    table.sit_out(3)
    deal(table, 1)  # the small blind's place is Dee's seat: a dead small blind
    assert ("Ann", "big blind", 2) in posts(table)
    assert all(name != "Dee" for name, _, _ in posts(table))
    dee = table.seats[3]
    assert dee is not None and dee.missed_small and not dee.missed_big
    finish(table)
    table.sit_in(3, post_now=True)
    deal(table, 2)  # button Dee's seat, small blind Ann, big blind Bob: Dee waits
    assert table.button_seat == 3 and "Dee" not in table.hand.names  # type: ignore[union-attr]
    assert dee.missed_small and not dee.missed_big
    finish(table)
    deal(table, 3)  # the button has passed: button Ann, blinds Bob and Cy
    assert table.button_seat == 0
    assert posts_of(table, "Dee") == [("dead small blind", 1)]
    assert not dee.missed_small


def test_a_player_who_waits_for_the_big_blind_owes_nothing_more() -> None:
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"})
    table.deal(Deck(0).cards, draw=parse_cards("2c As 2d 2h"))  # button Bob
    finish(table)
    table.sit_out(3)
    deal(table, 1)
    finish(table)
    table.sit_in(3)  # waits for the big blind
    deal_until_dealt(table, "Dee", range(2, 6), ACE_FIRST)
    assert posts_of(table, "Dee") == [("big blind", 2)]
    finish(table)
    dee = table.seats[3]
    assert dee is not None and not (dee.missed_small or dee.missed_big or dee.dead_owed)


def test_a_broke_player_is_passed_by_the_blinds_like_one_sitting_out() -> None:
    """A player left seated with 0 chips is not dealt in; the big blind passing them is
    missed, and after adding chips they owe it (or wait for the big blind)."""
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"})
    deal(table)  # button Ann, blinds Bob and Cy
    finish(table)
    table.seats[3].stack = 0  # type: ignore[union-attr]  # Dee lost everything
    deal(table, 1)  # the big blind goes from Cy past Dee to Ann
    assert "Dee" not in table.hand.names  # type: ignore[union-attr]
    finish(table)
    dee = table.seats[3]
    assert dee is not None and dee.missed_big
    table.add_chips(3, 100)
    table.sit_in(3)
    deal(table, 2)  # Dee waits for the big blind: not dealt in with no post
    assert "Dee" not in table.hand.names  # type: ignore[union-attr]
    finish(table)
    table.sit_in(3, post_now=True)
    deal(table, 3)
    assert posts_of(table, "Dee") == [("live post", 2), ("dead small blind", 1)]


def test_a_short_returning_player_posts_the_live_blind_first_and_owes_the_rest() -> None:
    """RULES.md 6's order: the live big blind, then the dead small blind. What the stack
    cannot pay stays owed and is posted dead in the player's next hand (docs/rules.md)."""
    config = TableConfig(Variant.O8, NoLimit(5, 10), seats=4, min_buy_in=10, max_buy_in=1000)
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"}, config, chips=500)
    deal(table)  # button Ann, blinds Bob and Cy
    finish(table)
    table.sit_out(3)
    deal(table, 1)  # the big blind passes Dee
    finish(table)
    dee = table.seats[3]
    assert dee is not None and dee.missed_big
    dee.stack = 12  # she lost most of her chips elsewhere: 12 of the 15 owed
    table.sit_in(3, post_now=True)
    deal_until_dealt(table, "Dee", range(2, 8), ACE_FIRST)
    assert posts_of(table, "Dee") == [("live post", 10), ("dead small blind", 2)]
    assert dee.dead_owed == 3
    finish(table)
    dee.stack = max(dee.stack, 100)
    deal_until_dealt(table, "Dee", range(8, 14), ACE_FIRST)
    assert ("dead small blind", 3) in posts_of(table, "Dee")
    assert dee.dead_owed == 0


# ------------------------------------------------------------ joining (RULES.md 6)


def dealt(table: Table) -> tuple[str, ...]:
    assert table.hand is not None
    return table.hand.names


def test_a_new_player_in_the_seat_of_last_hands_small_blind_waits_for_the_button() -> None:
    """Bob, last hand's small blind, leaves; Eve takes his seat and posts to play now. The
    button moves to that seat: she waits until it has passed, then posts a live big blind."""
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"})
    deal(table)  # button Ann, blinds Bob and Cy
    finish(table)
    table.leave(1)
    table.sit(1, "Eve", 100, post_now=True)
    deal(table, 1)  # the button on Eve's seat, blinds Cy and Dee
    assert table.button_seat == 1 and "Eve" not in dealt(table)
    assert posts(table) == [("Cy", "small blind", 1), ("Dee", "big blind", 2)]
    finish(table)
    deal(table, 2)  # button Cy, blinds Dee and Ann: the button has passed Eve
    assert posts_of(table, "Eve") == [("live post", 2)]


@pytest.mark.parametrize("seat", [1, 2])
def test_heads_up_a_new_player_between_the_button_and_the_big_blind_waits(seat: int) -> None:
    """Heads-up, Ann's button posts the small blind and Bob (seat 4) the big blind; Eve
    sits down between them, posting to play now. The next hand stays heads-up (the big
    blind comes round to Ann), then the big blind reaches Eve."""
    table = table_of({0: "Ann", 3: "Bob"})
    deal(table)
    assert posts(table) == [("Ann", "small blind", 1), ("Bob", "big blind", 2)]
    finish(table)
    table.sit(seat, "Eve", 100, post_now=True)
    deal(table, 1)
    assert dealt(table) == ("Ann", "Bob") and table.button_seat == 3
    assert posts(table) == [("Bob", "small blind", 1), ("Ann", "big blind", 2)]
    finish(table)
    deal(table, 2)
    assert posts(table) == [("Ann", "small blind", 1), ("Eve", "big blind", 2)]


def test_heads_up_a_returning_player_between_the_button_and_the_big_blind_waits() -> None:
    """Cy sits out and misses the big blind while Ann and Bob play heads-up; back between
    the button and the big blind, she waits until the button has passed her seat."""
    table = table_of({0: "Ann", 1: "Cy", 3: "Bob"})
    deal(table)  # button Ann, blinds Cy and Bob
    finish(table)
    table.sit_out(1)
    for seed in (1, 2):
        deal(table, seed)
        finish(table)
    cy = table.seats[1]
    assert cy is not None and cy.missed_big
    table.sit_in(1, post_now=True)
    deal(table, 3)  # button and small blind Bob, big blind Ann: Cy waits
    assert dealt(table) == ("Ann", "Bob") and table.button_seat == 3
    finish(table)
    deal(table, 4)
    assert posts_of(table, "Cy") == [("big blind", 2)]


def test_when_the_blinds_come_round_to_the_button_the_players_between_them_wait() -> None:
    """Ann's button sits out, so the big blind comes round to Bob, last hand's small blind:
    the hand is heads-up, and Eve, who sat down between the blinds, waits for the button
    to pass."""
    table = table_of({0: "Ann", 1: "Bob", 3: "Cy"})
    deal(table)  # button Ann, blinds Bob and Cy
    finish(table)
    table.sit_out(0)
    table.sit(2, "Eve", 100, post_now=True)
    deal(table, 1)
    assert dealt(table) == ("Bob", "Cy") and table.button_seat == 3
    finish(table)
    deal(table, 2)
    assert posts_of(table, "Eve") == [("big blind", 2)]


def test_a_new_player_behind_a_dead_button_posts_and_plays_at_once() -> None:
    """Ann (the button) and Bob (the small blind) leave; Eve takes Ann's seat. The button
    is dead on Bob's empty seat, past Eve's: she posts a live big blind, plays at once, and
    acts last after the flop, as the player right of a dead button does."""
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"})
    deal(table)  # button Ann, blinds Bob and Cy
    finish(table)
    table.leave(0)
    table.leave(1)
    table.sit(0, "Eve", 100, post_now=True)
    deal(table, 1)
    assert table.button_seat == 1 and table.seats[1] is None
    assert posts(table) == [
        ("Cy", "small blind", 1),
        ("Dee", "big blind", 2),
        ("Eve", "live post", 2),
    ]
    hand = table.hand.hand  # type: ignore[union-attr]
    assert dealt(table)[hand.button] == "Eve"


# ------------------------------------------------------------ mixed orbits


def test_a_mixed_game_turns_when_the_button_has_gone_round_as_players_leave() -> None:
    """RULES.md 3: an orbit is the button going round the table. Five players start the
    limit round; two leave after the first hand, and the button is back at seat 1 after
    three hands, not five: the structure turns there."""
    config = TableConfig(
        Variant.O8,
        Mixed(FixedLimit(4, 8), PotLimit(1, 2)),
        seats=6,
        min_buy_in=100,
        max_buy_in=200,
    )
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee", 4: "Eve"}, config)
    structures = []
    for seed in range(8):
        deal(table, seed)
        assert table.hand is not None
        structures.append(table.hand.hand.config.structure)
        finish(table)
        if seed == 0:
            table.leave(3)
            table.leave(4)
    assert [h.button_seat for h in table.history] == [0, 1, 2, 0, 1, 2, 0, 1]
    L, P = Structure.FIXED_LIMIT, Structure.POT_LIMIT
    assert structures == [L, L, L, P, P, P, L, L]


def test_a_mixed_game_with_a_period_turns_every_period_hands() -> None:
    config = TableConfig(
        Variant.O8,
        Mixed(FixedLimit(4, 8), PotLimit(1, 2), period=2),
        seats=3,
        min_buy_in=100,
        max_buy_in=200,
    )
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy"}, config)
    structures = []
    for seed in range(6):
        deal(table, seed)
        structures.append(table.hand.hand.config.structure)  # type: ignore[union-attr]
        finish(table)
    L, P = Structure.FIXED_LIMIT, Structure.POT_LIMIT
    assert structures == [L, L, P, P, L, L]


# ------------------------------------------------------------ bad settings


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: TableConfig(Variant.BIGO, PotLimit(1, 2), seats=9),
            "bigo deals 5 hole cards: a table has 2 to 8 seats",
        ),
        (
            lambda: TableConfig(Variant.O8, PotLimit(1, 2), seats=11),
            "a table has 2 to 10 seats, not 11",
        ),
        (
            lambda: TableConfig(Variant.O8, PotLimit(1, 2), min_buy_in=200, max_buy_in=100),
            "the minimum buy-in 200 is above the maximum 100",
        ),
        (
            lambda: TableConfig(Variant.O8, PotLimit(1, 2), min_buy_in=-5),
            "min_buy_in must be a whole number of chips, not -5",
        ),
        (
            lambda: TableConfig(Variant.O8, PotLimit(1, 2), ante=-1),
            "ante must be a whole number of chips, not -1",
        ),
        (
            lambda: TableConfig(Variant.O8, "pot-limit"),  # type: ignore[arg-type]
            "betting must be FixedLimit, PotLimit, NoLimit or Mixed",
        ),
        (
            lambda: TableConfig("o8", PotLimit(1, 2)),  # type: ignore[arg-type]
            "variant must be a Variant",
        ),
    ],
)
def test_bad_table_settings_are_refused_naming_the_setting(make, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TableError, match=message) as caught:
        make()
    assert isinstance(caught.value, ValueError)


def test_a_fractional_or_zero_buy_in_and_an_empty_name_are_refused() -> None:
    table = Table(TableConfig(Variant.O8, PotLimit(1, 2)))
    whole = re.escape("a buy-in is a whole number of chips, not 100.5")
    with pytest.raises(TableError, match=whole):
        table.sit(0, "Ann", 100.5)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="the minimum buy-in is 80, not 0"):
        table.sit(0, "Ann", 0)
    with pytest.raises(TableError, match="a player needs a name, not ' '"):
        table.sit(0, " ", 100)
    assert table.seats == [None] * 6


def test_only_the_seat_to_act_may_act_and_a_refusal_changes_nothing() -> None:
    table = table_of({0: "Ann", 1: "Bob", 2: "Cy"})
    deal(table)
    seat = table.seat_to_act
    assert seat is not None
    other = next(s for s in (0, 1, 2) if s != seat)
    before = table.view(None)
    with pytest.raises(TableError, match=f"seat {other + 1} is not to act"):
        table.act(other, Action.fold())
    assert table.view(None) == before and table.seat_to_act == seat


def test_chips_kept_by_a_record_seat_a_player_outside_the_buy_in_range() -> None:
    """A restarted room seats players with the chips its ledger kept, won or lost beyond
    the table's buy-in range (or under new stakes); they are still whole chips."""
    table = Table(TableConfig(Variant.O8, PotLimit(1, 2)))  # buy-ins 80 to 200
    table.sit(0, "Ann", 950, kept=True)
    table.sit(1, "Bob", 12, kept=True)
    assert [s.stack for s in table.seats if s is not None] == [950, 12]
    with pytest.raises(TableError, match="the maximum is 200"):
        table.sit(2, "Cy", 950)
    with pytest.raises(TableError, match=r"chips kept must be a whole number of chips, not -1"):
        table.sit(2, "Cy", -1, kept=True)
    assert table.seats[2] is None


def test_a_seat_that_is_not_a_number_and_a_rake_that_is_not_a_rake_are_refused() -> None:
    table = table_of({0: "Ann", 1: "Bob"})
    deal(table)
    with pytest.raises(TableError, match="a seat is a whole number, not '1'"):
        table.act("1", Action.fold())  # type: ignore[arg-type]
    with pytest.raises(TableError, match="a seat is a whole number, not None"):
        table.time_out(None)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="rake must be a Rake or None, not 5"):
        TableConfig(Variant.O8, FixedLimit(2, 4), rake=5)  # type: ignore[arg-type]


def test_a_straddle_or_an_answer_of_the_wrong_kind_is_refused_by_name() -> None:
    table = Table(TableConfig(Variant.O8, NoLimit(1, 2), straddle=True))
    table.sit(0, "Ann", 100)
    with pytest.raises(TableError, match="a straddle is off, next or always, not 'yes'"):
        table.choose_straddle(0, "yes")  # type: ignore[arg-type]
    assert table.seats[0] is not None and table.seats[0].straddle == Straddle.OFF.value
    with pytest.raises(TableError, match="the answer to run it twice is yes or no, not 1"):
        table.answer_run_it(0, 1)  # type: ignore[arg-type]
