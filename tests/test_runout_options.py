"""The room's all-in run-out with two boards (RULES.md 7): the equity is told once each
street has reached every board, and worked out on both boards."""

from __future__ import annotations

from splitpot.cards import parse_cards
from splitpot.engine import BoardDealt, Street, TurnedFaceUp
from splitpot.evaluate import Variant
from splitpot.room.runout import equity, runout_parts
from splitpot.table import InHand, TableEvent


def board(street: Street, cards: str, index: int) -> TableEvent:
    return InHand(1, BoardDealt(street, tuple(parse_cards(cards)), index))


def test_a_double_board_tells_the_equity_after_each_street_of_the_second_board() -> None:
    up = InHand(1, TurnedFaceUp(0, tuple(parse_cards("AsAhKsKh"))))
    events = [
        up,
        board(Street.TURN, "2c", 0),
        board(Street.TURN, "3c", 1),
        board(Street.RIVER, "4c", 0),
        board(Street.RIVER, "5c", 1),
    ]
    parts = [len(part) for part, face_up in runout_parts(events) if face_up]
    assert parts == [1, 2, 2]  # after the hand turned up, after each street's second board


def test_the_equity_of_two_boards_is_each_boards_own_and_their_mean() -> None:
    aces, low = tuple(parse_cards("AsAhKsKh")), tuple(parse_cards("2d3d4hQc"))
    boards = (tuple(parse_cards("Ad7h8c9s")), tuple(parse_cards("5c6dTdJh")))
    result = equity(Variant.O8, {0: aces, 1: low}, boards)
    assert len(result.boards) == 2
    first = [player.equity for player in result.boards[0]]
    second = [player.equity for player in result.boards[1]]
    alone = equity(Variant.O8, {0: aces, 1: low}, boards[:1])
    assert first[0] != second[0]  # each board its own
    assert [p.equity for p in result.players] == [
        (a + b) / 2 for a, b in zip(first, second, strict=True)
    ]
    # the first board alone, but without the second board's cards in the deck
    assert abs(float(alone.players[0].equity) - float(first[0])) < 0.1
