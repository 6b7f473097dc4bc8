"""Evaluator speed: Omaha Hi/Lo hands (high and low both) per second, one thread.

Run: ``.venv/bin/python benchmarks/evaluate.py [--batch N] [--scalar N] [--peer N]``.
PokerKit, where installed, is measured on the same kind of deals in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import random

import numpy as np
from common import best_rate, print_table

from splitpot.cards import Card, format_cards
from splitpot.evaluate import best_high, best_low, evaluate_batch


def random_deals(count: int, hole_size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, : hole_size + 5].astype(np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=2_000_000, help="hands for the batch API")
    parser.add_argument("--scalar", type=int, default=30_000, help="hands for the scalar API")
    parser.add_argument("--peer", type=int, default=1_000, help="hands for PokerKit")
    args = parser.parse_args()

    rows: list[tuple[str, float]] = []
    for variant, size in (("o8", 4), ("bigo", 5)):
        deals = random_deals(args.batch, size, seed=1)
        holes, boards = np.ascontiguousarray(deals[:, :size]), np.ascontiguousarray(deals[:, size:])
        evaluate_batch(holes[:8], boards[:8], variant)  # compile and build tables first
        rate = best_rate(lambda: evaluate_batch(holes, boards, variant), args.batch)  # noqa: B023
        rows.append((f"splitpot evaluate_batch ({variant}, high + low)", rate))

    rng = random.Random(2)
    cards = [Card.from_code(code) for code in range(52)]
    scalar_deals = [rng.sample(cards, 9) for _ in range(args.scalar)]
    pairs = [(tuple(d[:4]), tuple(d[4:])) for d in scalar_deals]
    best_high(*pairs[0]), best_low(*pairs[0])

    def scalar() -> None:
        for hole, board in pairs:
            best_high(hole, board)
            best_low(hole, board)

    scalar_rate = best_rate(scalar, args.scalar)
    rows.append(("splitpot best_high + best_low (o8)", scalar_rate))

    peer_rate = None
    try:
        import pokerkit
    except ImportError:
        pokerkit = None
    if pokerkit is not None:
        texts = [(format_cards(h), format_cards(b)) for h, b in pairs[: args.peer]]

        def peer() -> None:
            for hole, board in texts:
                pokerkit.OmahaHoldemHand.from_game(hole, board)
                with contextlib.suppress(ValueError):
                    pokerkit.OmahaEightOrBetterLowHand.from_game(hole, board)

        peer_rate = best_rate(peer, len(texts), repeats=1)
        rows.append(("PokerKit OmahaHoldemHand + OmahaEightOrBetterLowHand", peer_rate))

    print_table("Omaha Hi/Lo hands evaluated, high and low, one thread", "hands/s", rows, peer_rate)


if __name__ == "__main__":
    main()
