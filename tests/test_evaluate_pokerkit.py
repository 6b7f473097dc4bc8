"""PokerKit as an independent oracle for the ordering of high and low hands.

PokerKit ranks each five-card hand; an Omaha hand's best is the greatest of its two hole
cards and three board cards, every way. PokerKit's rank of five cards depends only on
their ranks and, for the high, on whether they make a flush, so each such pattern is
ranked by PokerKit once and reused (as a number: PokerKit's lookup index, which it
documents as reversed for low hands): PokerKit runs a few thousand times rather than a
hundred times a hand. One deal in ten is also checked against PokerKit's own Omaha hands
(``from_game``), so the two-plus-three rule is PokerKit's as well.
"""

import random
from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations, pairwise
from typing import Any

import pytest

from splitpot.cards import Card, format_cards
from splitpot.evaluate import best_high, best_low

pokerkit = pytest.importorskip("pokerkit")

DEALS = 10_000
FROM_GAME_EVERY = 10  # deals between checks against PokerKit's own Omaha hands


def _rank(make: Callable[..., Any], *cards: str) -> int | None:
    """PokerKit's hand ``make(*cards)`` as a number, greater for a stronger hand; None
    where PokerKit says no hand qualifies."""
    try:
        hand = make(*cards)
    except ValueError:  # PokerKit's word for "no qualifying low"
        return None
    index: int = hand.entry.index
    return -index if hand.low else index


def _once_per_pattern(
    pattern: Callable[[Sequence[Card]], tuple[object, ...]], rank: Callable[[str], int | None]
) -> Callable[[Sequence[Card]], int | None]:
    """``rank`` of five cards, asked of PokerKit once per ``pattern`` of the cards."""
    known: dict[tuple[object, ...], int | None] = {}

    def of(five: Sequence[Card]) -> int | None:
        key = pattern(five)
        if key not in known:
            known[key] = rank(format_cards(five))
        return known[key]

    return of


_high5 = _once_per_pattern(
    lambda five: (*sorted(c.rank for c in five), len({c.suit for c in five}) == 1),
    partial(_rank, pokerkit.OmahaHoldemHand),
)
_low5 = _once_per_pattern(
    lambda five: tuple(sorted(c.rank for c in five)),
    partial(_rank, pokerkit.OmahaEightOrBetterLowHand),
)


def _their_best(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int | None, int | None]:
    """PokerKit's best high and low (None: no low) of two hole and three board cards."""
    fives = [(*two, *three) for two in combinations(hole, 2) for three in combinations(board, 3)]
    highs = [_high5(five) for five in fives]
    lows = [low for five in fives if (low := _low5(five)) is not None]
    return max(h for h in highs if h is not None), max(lows, default=None)


def _assert_same_order(ours: list[int], theirs: list[int]) -> None:
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
    their_highs: list[int] = []
    lows: list[int] = []
    their_lows: list[int] = []
    for number in range(deals):
        dealt = rng.sample(cards, hole_size + 5)
        hole, board = dealt[:hole_size], dealt[hole_size:]
        their_high, their_low = _their_best(hole, board)
        assert their_high is not None
        highs.append(best_high(hole, board).strength)
        their_highs.append(their_high)
        low = best_low(hole, board)
        assert (low is None) == (their_low is None), (hole, board)
        if low is not None and their_low is not None:
            lows.append(low.strength)
            their_lows.append(their_low)
        if number % FROM_GAME_EVERY == 0:
            texts = format_cards(hole), format_cards(board)
            assert their_high == _rank(pokerkit.OmahaHoldemHand.from_game, *texts)
            assert their_low == _rank(pokerkit.OmahaEightOrBetterLowHand.from_game, *texts)
    _assert_same_order(highs, their_highs)
    _assert_same_order(lows, their_lows)
    assert len(lows) > deals // 4
