"""Invariants of the evaluator, checked against a plain five-card evaluator."""

from itertools import combinations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from splitpot.cards import Card
from splitpot.evaluate import (
    NO_LOW,
    Variant,
    best_high,
    best_low,
    evaluate_batch,
    high_strength,
    low_strength,
)

ALL_CARDS = [Card.from_code(code) for code in range(52)]


@st.composite
def deals(
    draw: st.DrawFn, hole_sizes: tuple[int, ...] = (4, 5), board_sizes: tuple[int, ...] = (3, 4, 5)
) -> tuple[list[Card], list[Card]]:
    hole_size = draw(st.sampled_from(hole_sizes))
    board_size = draw(st.sampled_from(board_sizes))
    cards = draw(st.permutations(ALL_CARDS))
    return cards[:hole_size], cards[hole_size : hole_size + board_size]


def _combinations(hole: list[Card], board: list[Card]) -> list[tuple[Card, ...]]:
    return [pair + triple for pair in combinations(hole, 2) for triple in combinations(board, 3)]


def _plain_high(cards: tuple[Card, ...]) -> int:
    return high_strength([c.rank for c in cards], len({c.suit for c in cards}) == 1)


@given(deals())
def test_exactly_two_hole_and_three_board_cards(deal: tuple[list[Card], list[Card]]) -> None:
    hole, board = deal
    for hand in (best_high(hole, board), best_low(hole, board, qualifier=None)):
        if hand is None:
            continue
        assert len(hand.cards) == 5
        assert set(hand.hole_cards) <= set(hole) and len(set(hand.hole_cards)) == 2
        assert set(hand.board_cards) <= set(board) and len(set(hand.board_cards)) == 3


@given(deals())
def test_best_high_is_the_best_of_every_combination(deal: tuple[list[Card], list[Card]]) -> None:
    hole, board = deal
    combos = _combinations(hole, board)
    assert len(combos) in (6, 10, 24, 40, 60, 100)
    high = best_high(hole, board)
    assert high.strength == max(_plain_high(combo) for combo in combos)
    assert high.strength == _plain_high(high.cards)


@given(deals(), st.sampled_from([8, None]))
def test_best_low_is_the_best_of_every_combination(
    deal: tuple[list[Card], list[Card]], qualifier: int | None
) -> None:
    hole, board = deal
    best = max(
        low_strength([c.rank for c in combo], qualifier) for combo in _combinations(hole, board)
    )
    low = best_low(hole, board, qualifier)
    if best == NO_LOW:
        assert low is None
    else:
        assert low is not None and low.strength == best
        assert low_strength([c.rank for c in low.cards], qualifier) == best


@given(
    st.sampled_from(list(Variant)), st.lists(st.permutations(range(52)), min_size=1, max_size=30)
)
def test_the_batch_api_agrees_with_the_scalar_api(
    variant: Variant, shuffles: list[list[int]]
) -> None:
    size = variant.hole_cards
    deals_ = np.array([shuffle[: size + 5] for shuffle in shuffles])
    high, low = evaluate_batch(deals_[:, :size], deals_[:, size:], variant)
    for row, (h, lo) in enumerate(zip(high, low, strict=True)):
        hole = [Card.from_code(int(c)) for c in deals_[row, :size]]
        board = [Card.from_code(int(c)) for c in deals_[row, size:]]
        assert h == best_high(hole, board).strength
        expected = best_low(hole, board, variant.low_qualifier) if variant.has_low else None
        assert lo == (expected.strength if expected else NO_LOW)


def test_batch_checks_its_input() -> None:
    import pytest

    holes = np.array([[0, 1, 2, 3]])
    with pytest.raises(ValueError, match=r"holes must have shape \(N, 5\) for bigo"):
        evaluate_batch(holes, np.array([[4, 5, 6, 7, 8]]), "bigo")
    with pytest.raises(ValueError, match=r"boards must have shape \(1, 5\)"):
        evaluate_batch(holes, np.array([[4, 5, 6, 7]]), "o8")
    with pytest.raises(ValueError, match=r"row 1 holds a card code outside 0..51"):
        evaluate_batch(np.array([[0, 1, 2, 3], [0, 1, 2, 52]]), np.array([[4, 5, 6, 7, 8]] * 2))
    high, low = evaluate_batch(np.zeros((0, 4), dtype=int), np.zeros((0, 5), dtype=int))
    assert high.shape == low.shape == (0,)
