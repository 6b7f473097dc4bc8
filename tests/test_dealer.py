"""The dealer's words for each event of real hands dealt by the table (RULES.md 5,
'Reporting'), and the same sentences as the hand histories' chat."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest

from splitpot.cards import Card, Deck, parse_cards
from splitpot.dealer import (
    Scene,
    dealer_line,
    dealer_lines,
    money,
    pot_name,
    scenes,
)
from splitpot.engine import Action, PotAwarded, arrange_deck
from splitpot.history.report import award_lines
from splitpot.protocol import JsonObject, TableInfo
from splitpot.protocol.replay import finished_hand
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit, Variant
from splitpot.table import InHand, Table, TableConfig, TableEvent, TableHand, TableView, seen_by

O8_POT_LIMIT = TableConfig(Variant.O8, PotLimit(1, 2), seats=4, min_buy_in=1)
DRAW_LOW = parse_cards("2c 2d 2h 3c 3d 3h 4c 4d 4h 5c")


def seat_players(config: TableConfig, players: Mapping[int, tuple[str, int]]) -> Table:
    table = Table(config)
    for seat, (name, chips) in players.items():
        table.sit(seat, name, chips)
    return table


def deal_cards(table: Table, holes: Mapping[int, str], board: str, button: int) -> list[TableEvent]:
    """Deal the table's first hand with these hole cards (by seat) and board; the draw
    for the button gives it to seat ``button`` (RULES.md 4.1)."""
    seats = sorted(holes)
    lows = DRAW_LOW[: len(seats)]
    draw = [Card.parse("As") if s == button else low for s, low in zip(seats, lows, strict=True)]
    hole_cards = [parse_cards(holes[seat]) for seat in seats]
    hole_count = table.config.variant.hole_cards
    deck = arrange_deck(hole_cards, parse_cards(board), seats.index(button), hole_count)
    return table.deal(deck, draw=draw)


def act(table: Table, *actions: str) -> list[TableEvent]:
    """Each action by the seat to act; then a hand that cannot win mucks when offered."""
    events: list[TableEvent] = []
    for text in actions:
        events += table.act(seat_to_act(table), Action.parse(text))
    while table.hand is not None:
        events += table.act(seat_to_act(table), Action.muck())
    return events


def seat_to_act(table: Table) -> int:
    seat = table.seat_to_act
    assert seat is not None
    return seat


def told(
    events: list[TableEvent], names: Mapping[int, str], viewer: int | None, scene: Scene
) -> list[str | None]:
    """The dealer's line for each event as ``viewer`` sees it."""
    before, _ = scenes(events, scene)
    return [dealer_line(seen_by(e, viewer), names, s) for e, s in zip(events, before, strict=True)]


def said(events: list[TableEvent], names: Mapping[int, str], viewer: int | None) -> list[str]:
    """Every line the dealer says, as ``viewer`` hears them."""
    return [
        line
        for told_line in told(events, names, viewer, Scene(Variant.O8))
        if told_line
        for line in told_line.split("\n")
    ]


ANN_ALL_IN = {0: ("Ann", 1), 1: ("Bob", 100), 2: ("Cy", 100)}
ANN_ALL_IN_HOLES = {0: "KsKh9c9d", 1: "Ah3cJhJc", 2: "Ad3dTsTc"}
NAMES = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dan"}


def test_a_whole_hand_in_the_dealers_words() -> None:
    """Ann is all in with her small blind: every hand is turned up; a side pot of 2 and a
    main pot of 3, each split high/low with Bob and Cy tied for low (RULES.md 5)."""
    table = seat_players(O8_POT_LIMIT, ANN_ALL_IN)
    events = deal_cards(table, ANN_ALL_IN_HOLES, "2c6d7hKcQd", button=2)
    events += act(table, "call", "check", *["check"] * 6)
    assert said(events, NAMES, viewer=1) == [
        "Hand #1: Omaha Hi/Lo, eight or better, Pot Limit 1/2, button seat 3",
        "Draw for the button: Ann 2c, Bob 2d, Cy As",
        "Ann posts the small blind, 1 and is all in",
        "Bob posts the big blind, 2",
        "Dealt to Bob: Ah 3c Jh Jc",
        "Cy calls 2",
        "Bob checks",
        "Flop: 2c 6d 7h",
        "Bob checks",
        "Cy checks",
        "Turn: 2c 6d 7h Kc",
        "Bob checks",
        "Cy checks",
        "River: 2c 6d 7h Kc Qd",
        "Bob checks",
        "Cy checks",
        "Ann shows Ks Kh 9c 9d: three of a kind, Kings",
        "Bob shows Ah 3c Jh Jc: 7,6,3,2,A, and a pair of Jacks",
        "Cy shows Ad 3d Ts Tc: 7,6,3,2,A, and a pair of Tens",
        "Bob wins the high half of the side pot, 1, with a pair of Jacks",
        "Bob and Cy tie for the low half of the side pot, 1, with 7,6,3,2,A: Bob gets the odd chip",
        "Ann wins the high half of the main pot, 2, with three of a kind, Kings",
        "Bob and Cy tie for the low half of the main pot, 1, with 7,6,3,2,A: Bob gets the odd chip",
    ]


def test_a_watcher_hears_no_hole_cards_and_a_tie_is_told_at_its_first_award() -> None:
    table = seat_players(O8_POT_LIMIT, ANN_ALL_IN)
    events = deal_cards(table, ANN_ALL_IN_HOLES, "2c6d7hKcQd", button=2)
    events += act(table, "call", "check", *["check"] * 6)
    lines = told(events, NAMES, None, Scene(Variant.O8))
    assert not any(line and line.startswith("Dealt to") for line in lines)
    awards = [
        (event.event.player, line)
        for event, line in zip(events, lines, strict=True)
        if isinstance(event, InHand) and isinstance(event.event, PotAwarded)
    ]
    assert [(seat, line is not None) for seat, line in awards] == [
        (1, True),  # Bob: the side pot's high half
        (1, True),  # Bob and Cy tie for its low half: told once...
        (2, False),  # ...not again at Cy's award
        (0, True),
        (1, True),
        (2, False),
    ]


def test_uncalled_bet_fold_win_and_raises() -> None:
    table = seat_players(O8_POT_LIMIT, {0: ("Ann", 100), 1: ("Bob", 100)})
    events = deal_cards(table, {0: "KsKh9c9d", 1: "Ah3cJhJc"}, "2c6d7hKcQd", button=0)
    events += act(table, "raise 6", "call", "bet 12", "raise 48", "fold")
    assert said(events, NAMES, viewer=None)[4:] == [
        "Ann raises to 6",
        "Bob calls 4",
        "Flop: 2c 6d 7h",
        "Bob bets 12",
        "Ann raises to 48",
        "Bob folds",
        "Uncalled bet of 36 returned to Ann",
        "Ann wins the pot, 36",
    ]


def test_a_scoop_with_the_wheel_and_a_straight() -> None:
    table = seat_players(O8_POT_LIMIT, {0: ("Ann", 100), 1: ("Bob", 100)})
    events = deal_cards(table, {0: "Ac2c9h9d", 1: "KhKcQhJh"}, "3d4h5sKsQs", button=0)
    events += act(table, "call", "check", *["check"] * 6)
    assert said(events, NAMES, viewer=None)[-2:] == [
        "Ann shows Ac 2c 9h 9d: the wheel, 5,4,3,2,A, and a straight, Ace to Five",
        "Ann scoops the pot, 4, with the wheel, 5,4,3,2,A, and a straight, Ace to Five",
    ]


def test_tied_high_with_no_low_is_one_award_of_two_lines() -> None:
    table = seat_players(O8_POT_LIMIT, {0: ("Ann", 100), 1: ("Cy", 100)})
    events = deal_cards(table, {0: "AcKc9h9d", 1: "AdKd9s9c"}, "3d4hJsKsQs", button=0)
    events += act(table, "call", "check", *["check"] * 6)
    names = {0: "Ann", 1: "Cy"}
    award_text = [
        line
        for event, line in zip(events, told(events, names, None, Scene(Variant.O8)), strict=True)
        if isinstance(event, InHand) and isinstance(event.event, PotAwarded)
    ]
    assert award_text == [
        "Cy and Ann split the pot, 2 each, with a pair of Kings\nNo low hand qualified for the pot",
        None,
    ]


def test_the_game_without_a_qualifier_says_no_low_only_without_five_different_ranks() -> None:
    """RULES.md 2: o-hilo-noq has no qualifier, so no low "qualifies" or fails to; a pot
    has no low half only when no hand makes five different ranks (a board of Kings and
    Queens). Eight or better says the low did not qualify."""
    config = TableConfig(Variant.HILO_NO_QUALIFIER, PotLimit(1, 2), seats=4, min_buy_in=1)
    table = seat_players(config, {0: ("Ann", 100), 1: ("Bob", 100)})
    events = deal_cards(table, {0: "Ac2c9h9d", 1: "7h7c6h6c"}, "KdKhKsQdQh", button=0)
    events += act(table, "call", "check", *["check"] * 6)
    lines = said(events, NAMES, viewer=None)
    assert lines[-2:] == [
        "Ann wins the pot, 4, with a full house, Kings full of Nines",
        "No low for the pot: no hand makes five different ranks",
    ]
    assert not [line for line in lines if "qualified" in line]
    result = table.history[-1].hand.result
    assert result is not None
    assert award_lines(result, ["Ann", "Bob"], low_qualifier=None)[-1] == lines[-1]
    assert award_lines(result, ["Ann", "Bob"])[-1] == "No low hand qualified for the pot"


def test_quartered_low_half_with_an_odd_chip_in_money() -> None:
    """Pot 26: Ann's kings take 13; Bob and Cy quarter the low half of 13, 7 and 6, Bob
    first left of Ann's button; a chip is a cent."""
    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=4)
    table = seat_players(config, {seat: (name, 100) for seat, name in NAMES.items()})
    holes = dict(enumerate(["KsKh9c9d", "Ah3cJhJc", "Ad3dTsTc", "8c8d5h5s"]))
    events = deal_cards(table, holes, "2c6d7hKcQd", button=0)
    events += act(table, "call", "call", "call", "raise 8", "fold", "call", "call", *["check"] * 9)
    lines = told(events, NAMES, None, Scene(Variant.O8, unit="0.01", currency="$"))
    assert [line for line in lines if line and " half " in line] == [
        "Ann wins the high half of the pot, $0.13, with three of a kind, Kings",
        "Bob and Cy split the low half of the pot, $0.13, with 7,6,3,2,A: "
        "Bob $0.07 (the odd chip), Cy $0.06",
    ]


def test_table_events_in_words() -> None:
    """Ann (the button, heads-up the small blind) times out and folds to Bob's big blind;
    players come and go; the mixed game turns to pot limit after one hand."""
    config = TableConfig(Variant.OMAHA, Mixed(FixedLimit(2, 4), PotLimit(1, 2), period=1))
    table = Table(config)
    events = table.sit(0, "Ann", 40) + table.sit(3, "Bob", 40, post_now=True)
    events += table.deal(Deck(1).cards, draw=parse_cards("As 2c"))
    events += table.time_out(seat_to_act(table))
    lines = said(events, {0: "Ann", 3: "Bob"}, viewer=None)
    events = table.sit_in(0) + table.sit_in(3, post_now=True)
    events += table.add_chips(3, 10) + table.leave(0) + table.sit(0, "Cy", 40)
    events += table.sit(1, "Dan", 40) + table.sit_out(1)
    events += table.deal(Deck(2).cards, draw=parse_cards("2c As"))
    lines += said(events, {0: "Cy", 1: "Dan", 3: "Bob"}, viewer=None)
    assert lines[:6] == [
        "Ann sits down in seat 1 with 40",
        "Bob sits down in seat 4 with 40 and posts to play now",
        "Hand #1: Omaha, Fixed Limit 2/4, button seat 1",
        "Draw for the button: Ann As, Bob 2c",
        "Ann posts the small blind, 1",
        "Bob posts the big blind, 2",
    ]
    after = lines[lines.index("Ann folds") :]
    assert after[:14] == [
        "Ann folds",
        "Uncalled bet of 1 returned to Bob",
        "Bob wins the pot, 2",
        "Ann is out of time and sits out",
        "Ann is back",
        "Bob is back and posts to play now",
        "Bob adds 10 and has 51",
        "Ann leaves the table with 39",
        "Cy sits down in seat 1 with 40",
        "Dan sits down in seat 2 with 40",
        "Dan sits out",
        "The game turns to Pot Limit 1/2",
        "Hand #2: Omaha, Pot Limit 1/2, button seat 4",
        "Draw for the button: Cy 2c, Bob As",
    ]


def test_a_live_big_blind_to_come_in_is_told_as_the_big_blind() -> None:
    """RULES.md 6: Dan sits down and posts an amount equal to the big blind to play at
    once: the dealer says he posts the big blind (a live post, not "the live post")."""
    config = TableConfig(Variant.O8, PotLimit(1, 2), seats=6, min_buy_in=1)
    table = seat_players(config, {0: ("Ann", 100), 2: ("Bob", 100), 4: ("Cy", 100)})
    table.deal(Deck(1).cards, draw=parse_cards("As 2c 2d"))  # button Ann
    act(table, "fold", "fold")
    table.sit(1, "Dan", 100, post_now=True)
    events = table.deal(Deck(2).cards)  # button Bob, blinds Cy and Ann
    names = {0: "Ann", 1: "Dan", 2: "Bob", 4: "Cy"}
    assert said(events, names, viewer=None)[1:4] == [
        "Cy posts the small blind, 1",
        "Ann posts the big blind, 2",
        "Dan posts the big blind, 2",
    ]


def test_an_award_needs_the_scene_of_its_hand() -> None:
    table = seat_players(O8_POT_LIMIT, {0: ("Ann", 100), 1: ("Bob", 100)})
    events = deal_cards(table, {0: "KsKh9c9d", 1: "Ah3cJhJc"}, "2c6d7hKcQd", button=0)
    events += act(table, "fold")
    award = next(e for e in events if isinstance(e, InHand) and isinstance(e.event, PotAwarded))
    with pytest.raises(ValueError, match="not among the scene's awards"):
        dealer_lines(award, NAMES, Scene(Variant.O8))
    assert dealer_lines(award.event, ["Ann", "Bob"], scenes(events, Scene(Variant.O8))[0][-2]) == [
        "Bob wins the pot, 2"
    ]


def test_money_and_pot_names() -> None:
    assert money(263750, "0.01", "$") == "$2637.50"
    assert money(1500, "0.01", "$") == "$15"
    assert money(12) == "12"
    assert [pot_name(i, 1) for i in range(1)] == ["the pot"]
    assert [pot_name(i, 2) for i in range(2)] == ["the main pot", "the side pot"]
    assert [pot_name(i, 3) for i in range(3)] == ["the main pot", "side pot 1", "side pot 2"]


# ------------------------------------------------------------ the last-hands window

HANDS_JS = Path(__file__).resolve().parent.parent / "src" / "splitpot" / "web" / "js" / "hands.js"
LAST_LINE = f"""
import {{ readFileSync }} from "node:fs";
import {{ replaySteps }} from {json.dumps(HANDS_JS.as_uri())};
const answers = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(answers.map((answer) => replaySteps(answer).at(-1).text)));
"""


def window_events(
    table: Table, start: TableView, events: list[TableEvent]
) -> tuple[TableHand, JsonObject]:
    """The table's last hand, and the hand as the room's hand API gives it to a watcher
    as events (server/hands.py, ``format=events``), from the table as it stood before it."""
    played = table.history[-1]
    players = {seat: f"p{seat}" for seat, sitter in enumerate(table.seats) if sitter}
    info = TableInfo("t1", "Window", table.config)
    return played, finished_hand(start, played, events, info=info, players=players)


def play_window(
    table: Table, holes: Mapping[int, str], board: str, button: int, *actions: str
) -> tuple[TableHand, JsonObject]:
    start = table.view(None)
    events = deal_cards(table, holes, board, button=button)
    return window_events(table, start, events + act(table, *actions))


@pytest.mark.skipif(shutil.which("node") is None, reason="no node to run the page's JavaScript")
def test_the_last_hands_window_names_the_pot_and_half_as_the_dealer_does() -> None:
    """The window's last step (hands.js) tells each award as the dealer does (RULES.md 5,
    'Reporting'): the pot and the half, a scoop with both hands, ties and odd chips."""
    played: list[tuple[TableHand, JsonObject]] = []
    table = seat_players(O8_POT_LIMIT, ANN_ALL_IN)  # a side pot; ties for low
    checks = ["call", "check", *["check"] * 6]
    played.append(play_window(table, ANN_ALL_IN_HOLES, "2c6d7hKcQd", 2, *checks))
    table = seat_players(O8_POT_LIMIT, {0: ("Ann", 100), 1: ("Bob", 100)})  # a scoop
    played.append(play_window(table, {0: "Ac2c9h9d", 1: "KhKcQhJh"}, "3d4h5sKsQs", 0, *checks))
    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=4)  # a quartered low half
    table = seat_players(config, {seat: (name, 100) for seat, name in NAMES.items()})
    holes = dict(enumerate(["KsKh9c9d", "Ah3cJhJc", "Ad3dTsTc", "8c8d5h5s"]))
    actions = ["call", "call", "call", "raise 8", "fold", "call", "call", *["check"] * 9]
    played.append(play_window(table, holes, "2c6d7hKcQd", 0, *actions))
    node = subprocess.run(
        [str(shutil.which("node")), "--input-type=module", "-e", LAST_LINE],
        input=json.dumps([answer for _, answer in played]),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    dealer_says = [
        "\n".join(award_lines(hand.hand.result, hand.names))  # type: ignore[arg-type]
        for hand, _ in played
    ]
    assert json.loads(node.stdout) == dealer_says
    assert dealer_says[1] == (
        "Ann scoops the pot, 4, with the wheel, 5,4,3,2,A, and a straight, Ace to Five"
    )
