"""A quick Monte Carlo estimate of a hand's share of the pot, for the bots.

Opponents' hands and the rest of the board are drawn at random from the unseen cards and
all hands are evaluated at once with the batch evaluator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from splitpot.cards import Card
from splitpot.evaluate import Variant, evaluate_batch


@dataclass(frozen=True, slots=True)
class Estimate:
    share: float  # expected fraction of the pot, ties split as the rules split them
    scoop: float  # how often the hand wins the whole pot alone


def estimate(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponents: int,
    variant: Variant,
    samples: int,
    rng: np.random.Generator,
    dead: Sequence[Card] = (),
) -> Estimate:
    """Share of the pot against ``opponents`` random hands, from ``samples`` deals;
    ``dead`` cards are seen but in no hand and not on ``board`` (another board's)."""
    size = variant.hole_cards
    known = [c.code for c in (*hole, *board, *dead)]
    unseen = np.setdiff1d(np.arange(52), np.array(known, dtype=np.int64))
    needed = opponents * size + 5 - len(board)
    order = np.argsort(rng.random((samples, len(unseen))), axis=1)[:, :needed]
    drawn = unseen[order]
    boards = np.empty((samples, 5), dtype=np.int64)
    boards[:, : len(board)] = [c.code for c in board]
    boards[:, len(board) :] = drawn[:, : 5 - len(board)]
    holes = np.empty((samples, opponents + 1, size), dtype=np.int64)
    holes[:, 0, :] = [c.code for c in hole]
    holes[:, 1:, :] = drawn[:, 5 - len(board) :].reshape(samples, opponents, size)
    players = opponents + 1
    high, low = evaluate_batch(holes.reshape(-1, size), np.repeat(boards, players, axis=0), variant)
    high, low = high.reshape(samples, players), low.reshape(samples, players)
    high_win = high == high.max(axis=1, keepdims=True)
    best_low = low.max(axis=1, keepdims=True)
    low_win = (low == best_low) & (best_low > 0)
    has_low = best_low[:, 0] > 0
    high_part = np.where(has_low, 0.5, 1.0)
    share = high_part * high_win[:, 0] / high_win.sum(axis=1)
    share += np.where(has_low, 0.5 * low_win[:, 0] / np.maximum(low_win.sum(axis=1), 1), 0.0)
    alone = high_win[:, 0] & (high_win.sum(axis=1) == 1)
    scoop = alone & (~has_low | (low_win[:, 0] & (low_win.sum(axis=1) == 1)))
    return Estimate(float(share.mean()), float(scoop.mean()))


def estimate_boards(
    hole: Sequence[Card],
    boards: Sequence[Sequence[Card]],
    opponents: int,
    variant: Variant,
    samples: int,
    rng: np.random.Generator,
) -> Estimate:
    """The share of a pot cut between ``boards`` (a double board, RULES.md 7): each
    board's estimate with the other boards' cards out of the deck, averaged (each board
    plays for its part of the pot; ``scoop``: a board's, on average)."""
    each = [
        estimate(
            hole, board, opponents, variant, samples, rng,
            [c for other in boards if other is not board for c in other if c not in board],
        )
        for board in boards
    ]  # fmt: skip
    return Estimate(sum(e.share for e in each) / len(each), sum(e.scoop for e in each) / len(each))
