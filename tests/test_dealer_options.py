"""The dealer's words for the home game's modes (RULES.md 7), of real hands dealt by the
table from stacked decks: a bomb pot on a double board, a board run twice (or once), a
kill pot, a straddle and the rabbit hunt, in English, and in Japanese and Russian."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import pytest
from table_helpers import act

from splitpot.cards import Card, Deck, parse_cards
from splitpot.dealer import Scene, award_lines, dealer_lines, scenes
from splitpot.engine import deal_order
from splitpot.i18n import Language, Words, words
from splitpot.rules import FixedLimit, NoLimit, PotLimit, Variant
from splitpot.table import (
    DoubleBoard,
    Kill,
    Straddle,
    Table,
    TableConfig,
    TableEvent,
    seen_by,
)

NAMES = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dan"}
ENGLISH = words(None)
Played = tuple[Table, list[TableEvent]]


def seated(config: TableConfig, stacks: Mapping[int, int]) -> tuple[Table, list[TableEvent]]:
    table = Table(config)
    events: list[TableEvent] = []
    for seat, chips in stacks.items():
        events += table.sit(seat, NAMES[seat], chips)
    return table, events


def stacked(holes: list[str], button: int, rest: str) -> list[Card]:
    """A deck that deals these hole cards (by player, from the first left of player
    ``button``, a card a round) and then ``rest`` in order, burns included; the cards
    left over after it."""
    hands = [parse_cards(cards) for cards in holes]
    deck = [
        hands[player][round_]
        for round_ in range(len(hands[0]))
        for player in deal_order(len(hands), button)
    ]
    deck += parse_cards(rest)
    return deck + [card for card in Deck(0).cards if card not in deck]


def said(events: list[TableEvent], language: Words = ENGLISH) -> list[str]:
    """Every line the dealer says of ``events``, as a watcher hears them."""
    before, _ = scenes(events, Scene(Variant.O8, words=language))
    return [
        line
        for event, scene in zip(events, before, strict=True)
        for line in dealer_lines(seen_by(event, None), NAMES, scene)
    ]


# Ann (the button), Bob and Cy; each street to board 1, then to board 2, a burn before each
BOMB_DECK = stacked(
    ["QhJhQs8c", "2c5sAd8d", "TcTd6d6s"], 0, "3s AhKh7h 3c 9s9dTs 4s 4c 5d 6c 7s 3d 7d Ks"
)


def bomb_pot_on_two_boards() -> Played:
    """Hand 1 gives the button to Ann; the host calls a bomb pot of two big blinds for
    hand 2, dealt on two boards: the three check it down."""
    config = TableConfig(
        Variant.O8,
        PotLimit(1, 2),
        seats=4,
        min_buy_in=1,
        bomb_pot=2,
        double_board=DoubleBoard.BOMB_POTS,
        rabbit_hunt=True,
    )
    table, _ = seated(config, {0: 100, 1: 100, 2: 100})
    table.deal(Deck(1).cards, draw=parse_cards("As 2c 2d"))
    act(table, "fold", "fold")
    events = table.call_bomb_pot() + table.deal(BOMB_DECK)
    return table, events + act(table, *["check"] * 9)


def test_a_bomb_pot_on_two_boards() -> None:
    """RULES.md 7: no betting before the flop; each street is dealt to each board, each
    named; each hand is shown on both boards; each board's half of the pot of 12 is told
    on its own: Ann's flush and Bob's wheel split board 1, Cy's full house scoops board 2,
    where no low qualified."""
    table, events = bomb_pot_on_two_boards()
    lines = said(events)
    assert lines == [
        "The host calls a bomb pot for the next hand: 2 big blinds each",
        "Hand #2: Omaha Hi/Lo, eight or better, Pot Limit 1/2, button seat 1",
        "Ann puts in the bomb, 4",
        "Bob puts in the bomb, 4",
        "Cy puts in the bomb, 4",
        "Board 1 flop: Ah Kh 7h",
        "Board 2 flop: 9s 9d Ts",
        "Bob checks",
        "Cy checks",
        "Ann checks",
        "Board 1 turn: Ah Kh 7h 4c",
        "Board 2 turn: 9s 9d Ts 6c",
        "Bob checks",
        "Cy checks",
        "Ann checks",
        "Board 1 river: Ah Kh 7h 4c 3d",
        "Board 2 river: 9s 9d Ts 6c Ks",
        "Bob checks",
        "Cy checks",
        "Ann checks",
        "Bob shows 2c 5s Ad 8d, board 1: the wheel, 5,4,3,2,A, and a straight, Ace to Five; "
        "board 2: a pair of Nines",
        "Cy shows Tc Td 6d 6s, board 1: a pair of Tens; board 2: a full house, Tens full of Nines",
        "Ann shows Qh Jh Qs 8c, board 1: a flush, Ace high; board 2: a straight, Nine to King",
        "Board 1: Ann wins the high half of the pot, 3, with a flush, Ace high",
        "Board 1: Bob wins the low half of the pot, 3, with the wheel, 5,4,3,2,A",
        "Board 2: Cy wins the pot, 6, with a full house, Tens full of Nines",
        "Board 2: No low hand qualified for the pot",
    ]
    played = table.history[-1]
    assert played.hand.result is not None
    told = award_lines(played.hand.result.awards, played.names, has_low=True)
    assert told == lines[-4:]  # the hand history's words are the chat's


def test_a_bomb_pot_won_on_the_flop_is_told_whole_and_its_rabbit_on_both_boards() -> None:
    """A pot no one contests is won whole, not in parts (no board named); the rabbit of a
    hand on two boards shows each board's turn and river (RULES.md 7)."""
    table, _ = bomb_pot_on_two_boards()
    events = table.call_bomb_pot() + table.deal(BOMB_DECK)
    events += act(table, "bet 6", "fold", "fold") + table.rabbit_hunt(2)
    assert said(events)[-6:] == [
        "Cy folds",
        "Ann folds",
        "Uncalled bet of 6 returned to Bob",
        "Bob wins the pot, 12",
        "Rabbit hunt, never dealt, board 1: turn 4c, river 3d",
        "Rabbit hunt, never dealt, board 2: turn 6c, river Ks",
    ]


RUN_IT = TableConfig(Variant.O8, PotLimit(1, 2), seats=4, min_buy_in=1, run_it_twice=True)
# Ann (the button) and Bob; the flop, then each run's turn and river with their burns
RUN_IT_DECK = stacked(["As2sKdKc", "Ah3hQdQc"], 0, "2d Kh7c4d 2h 5c 3c Jd 3d 6h 4h 5h")


def all_in_on_the_flop() -> Played:
    """Ann is all in for 10 on the flop, Bob calls: the two are asked to run it twice."""
    table, events = seated(RUN_IT, {0: 10, 1: 100})
    events += table.deal(RUN_IT_DECK, draw=parse_cards("As 2c"))
    return table, events + act(table, "call", "check", "bet 4", "raise 8", "call")


def run_twice() -> Played:
    table, events = all_in_on_the_flop()
    return table, events + table.answer_run_it(0, True) + table.answer_run_it(1, True)


def test_a_board_run_twice() -> None:
    """RULES.md 7: both agree; each run's streets are named, the second run continuing
    from the next card; each hand is shown on both runs; the pot of 20 is cut in two:
    Ann's kings and low scoop the first run's 10, Bob's flush and Ann's low split the
    second's."""
    table, events = run_twice()
    lines = said(events)
    assert lines[lines.index("Bob calls 4") + 1 :] == [
        "Bob turns up Ah 3h Qd Qc",
        "Ann turns up As 2s Kd Kc",
        "All in: run it twice? Ann and Bob decide",
        "Ann agrees to run it twice",
        "Bob agrees to run it twice",
        "The board is run twice",
        "First run, turn: Kh 7c 4d 5c",
        "First run, river: Kh 7c 4d 5c Jd",
        "Second run, turn: Kh 7c 4d 6h",
        "Second run, river: Kh 7c 4d 6h 5h",
        "Bob shows Ah 3h Qd Qc, first run: 7,5,4,3,A, and a pair of Queens; "
        "second run: 6,5,4,3,A, and a flush, Ace high",
        "Ann shows As 2s Kd Kc, first run: 7,5,4,2,A, and three of a kind, Kings; "
        "second run: 6,5,4,2,A, and three of a kind, Kings",
        "First run: Ann scoops the pot, 10, with 7,5,4,2,A, and three of a kind, Kings",
        "Second run: Bob wins the high half of the pot, 5, with a flush, Ace high",
        "Second run: Ann wins the low half of the pot, 5, with 6,5,4,2,A",
    ]
    played = table.history[-1]
    assert played.hand.result is not None
    told = award_lines(played.hand.result.awards, played.names, has_low=True, runs=2)
    assert told == lines[-3:]  # the hand history's words are the chat's


def run_once() -> Played:
    table, events = all_in_on_the_flop()
    return table, events + table.answer_run_it(1, False)


def test_a_board_run_once_when_one_player_declines() -> None:
    _, events = run_once()
    assert said(events)[-8:-3] == [
        "All in: run it twice? Ann and Bob decide",
        "Bob declines to run it twice",
        "The board is run once",
        "Turn: Kh 7c 4d 5c",
        "River: Kh 7c 4d 5c Jd",
    ]


def kill_pot() -> Played:
    """Bob scoops a pot of 10, at least the table's kill size of 6: hand 2 is a half kill
    pot, Bob posting 1.5 big blinds and the bets 3/6 (RULES.md 7)."""
    config = TableConfig(
        Variant.O8, FixedLimit(2, 4), seats=4, min_buy_in=1, kill=Kill(full=False, size=6)
    )
    table, events = seated(config, {0: 100, 1: 100, 2: 100})
    events += table.deal(Deck(3).cards, draw=parse_cards("As 2c 2d"))
    events += act(table, "raise 4", "call", "fold", "bet 2", "fold")
    return table, events + table.deal(Deck(4).cards)


def test_a_kill_pot() -> None:
    _, events = kill_pot()
    assert said(events)[-7:] == [
        "Uncalled bet of 2 returned to Bob",
        "Bob wins the pot, 10",
        "Bob scooped the pot: the next hand is a kill pot; Bob posts the kill blind of 3",
        "Hand #2: Omaha Hi/Lo, eight or better, Fixed Limit 3/6, button seat 2",
        "Cy posts the small blind, 1",
        "Ann posts the big blind, 2",
        "Bob posts the kill blind, 3",
    ]


def straddle_and_rabbit() -> Played:
    """Dan, left of the big blind, straddles the next hand; everyone folds to him, and
    Bob hunts the rabbit: the flop, the turn and the river that never came."""
    config = TableConfig(
        Variant.O8, NoLimit(1, 2), seats=4, min_buy_in=1, straddle=True, rabbit_hunt=True
    )
    table, events = seated(config, {0: 100, 1: 100, 2: 100, 3: 100})
    events += table.choose_straddle(3, Straddle.NEXT) + table.choose_straddle(1, Straddle.ALWAYS)
    holes = ["AsKsQsJs", "2c3c4c5c", "6d7d8d9d", "TdJdQdKd"]  # Ann, Bob, Cy, Dan
    deck = stacked(holes, 0, "2s 3d4d5d 2h Kh 3h 2d")
    events += table.deal(deck, draw=parse_cards("As 2c 2d 3c"))
    events += act(table, "fold", "fold", "fold") + table.rabbit_hunt(1)
    return table, events + table.choose_straddle(1, Straddle.OFF)


def test_a_straddle_and_a_rabbit_hunt() -> None:
    _, events = straddle_and_rabbit()
    assert said(events)[4:] == [
        "Dan will straddle the next time in the straddle seat",
        "Bob will straddle every time in the straddle seat",
        "Hand #1: Omaha Hi/Lo, eight or better, No Limit 1/2, button seat 1",
        "Draw for the button: Ann As, Bob 2c, Cy 2d, Dan 3c",
        "Bob posts the small blind, 1",
        "Cy posts the big blind, 2",
        "Dan posts the straddle, 4",
        "Ann folds",
        "Bob folds",
        "Cy folds",
        "Uncalled bet of 2 returned to Dan",
        "Dan wins the pot, 5",
        "Rabbit hunt, never dealt: flop 3d 4d 5d, turn Kh, river 2d",
        "Bob stops straddling",
    ]


ENGLISH_WORD = re.compile(r"[a-z]{3,}")  # no name, card or number has one


@pytest.mark.parametrize("lang", [Language.JAPANESE, Language.RUSSIAN])
@pytest.mark.parametrize(
    "scene",
    [bomb_pot_on_two_boards, run_twice, run_once, kill_pot, straddle_and_rabbit],
)
def test_every_line_in_japanese_and_russian(lang: Language, scene: Callable[[], Played]) -> None:
    """Each English line has its line in the language, with no English left in it."""
    _, events = scene()
    english = said(events)
    translated = said(events, words(lang))
    assert len(translated) == len(english)
    for source, line in zip(english, translated, strict=True):
        assert line != source
        assert not ENGLISH_WORD.search(line), (source, line)
