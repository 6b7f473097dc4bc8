"""A player's hand right now: the best high and low on the board so far, and whether a
low can still be made with the cards to come (the hand helper under a player's cards)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from splitpot.cards import Card, CardError, CardsLike, ensure_distinct, to_cards
from splitpot.evaluate.hands import HighHand, LowHand, best_high, best_low
from splitpot.evaluate.ranking import low_value
from splitpot.evaluate.variants import Variant

BOARD = 5  # cards on a full board
LOW_CARDS = 5  # a low is five different ranks: two from the hand and three from the board


@dataclass(frozen=True)
class HandHelp:
    """``high`` and ``low`` are the best on the board so far (None before the flop, or
    with no qualifying low); ``low_possible``: a low is made or can still be made."""

    variant: Variant
    high: HighHand | None
    low: LowHand | None
    low_possible: bool


def hand_help(variant: Variant | str, hole: CardsLike, board: CardsLike) -> HandHelp:
    """The helper for ``hole`` on ``board`` (0, 3, 4 or 5 cards) in ``variant``."""
    variant = Variant.parse(variant)
    hole_cards, board_cards = to_cards(hole, distinct=False), to_cards(board, distinct=False)
    if len(hole_cards) != variant.hole_cards:
        raise CardError(
            f"a hand of {variant.short_name} has {variant.hole_cards} cards, not {len(hole_cards)}"
        )
    if len(board_cards) not in (0, 3, 4, 5):
        raise CardError(f"a board has 0, 3, 4 or 5 cards, not {len(board_cards)}")
    ensure_distinct(hole_cards + board_cards)
    if not board_cards:
        return HandHelp(variant, None, None, _low_possible(variant, hole_cards, board_cards))
    high = best_high(hole_cards, board_cards)
    low = best_low(hole_cards, board_cards, variant.low_qualifier) if variant.has_low else None
    possible = low is not None or _low_possible(variant, hole_cards, board_cards)
    return HandHelp(variant, high, low, possible)


def _low_possible(variant: Variant, hole: tuple[Card, ...], board: tuple[Card, ...]) -> bool:
    """Whether two different low ranks of the hand and three of the board, those on the
    board so far and those to come, can still make a qualifying low (RULES.md 1)."""
    if not variant.has_low:
        return False
    limit = variant.low_qualifier or 13
    on_board = {v for c in board if (v := low_value(c.rank)) <= limit}
    in_hand = sorted({v for c in hole if (v := low_value(c.rank)) <= limit})
    to_come = BOARD - len(board)
    return any(
        len(on_board - set(pair)) + to_come >= LOW_CARDS - 2 for pair in combinations(in_hand, 2)
    )
