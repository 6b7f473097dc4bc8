"""PokerKit as an independent oracle for the ordering of high and low hands."""

import random
from itertools import pairwise

import pytest

from splitpot.cards import Card, format_cards
from splitpot.evaluate import best_high, best_low

pokerkit = pytest.importorskip("pokerkit")

DEALS = 10_000


def _pokerkit_low(hole: str, board: str) -> object | None:
    try:
        return pokerkit.OmahaEightOrBetterLowHand.from_game(hole, board)
    except ValueError:  # PokerKit's word for "no qualifying low"
        return None


def _assert_same_order(ours: list[int], theirs: list[object]) -> None:
    """Sorting by our strength must sort PokerKit's hands, with ties exactly where ours tie."""
    order = sorted(range(len(ours)), key=ours.__getitem__)
    for a, b in pairwise(order):
        if ours[a] == ours[b]:
            assert theirs[a] == theirs[b], (a, b)
        else:
            assert theirs[a] < theirs[b], (a, b)


@pytest.mark.parametrize("hole_size", [4, 5])
def test_high_and_low_order_agree_with_pokerkit(hole_size: int) -> None:
    rng = random.Random(2026 + hole_size)
    deals = DEALS if hole_size == 4 else DEALS // 5
    cards = [Card.from_code(code) for code in range(52)]
    highs: list[int] = []
    their_highs: list[object] = []
    lows: list[int] = []
    their_lows: list[object] = []
    for _ in range(deals):
        dealt = rng.sample(cards, hole_size + 5)
        hole, board = dealt[:hole_size], dealt[hole_size:]
        hole_text, board_text = format_cards(hole), format_cards(board)
        highs.append(best_high(hole, board).strength)
        their_highs.append(pokerkit.OmahaHoldemHand.from_game(hole_text, board_text))
        low = best_low(hole, board)
        their_low = _pokerkit_low(hole_text, board_text)
        assert (low is None) == (their_low is None), (hole_text, board_text)
        if low is not None:
            lows.append(low.strength)
            their_lows.append(their_low)
    _assert_same_order(highs, their_highs)
    _assert_same_order(lows, their_lows)
    assert len(lows) > deals // 4
