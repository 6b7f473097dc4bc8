"""The settle-up's cost (store/settle.py): the search over every subset of the players not
square, for 2 to 20 of them (20, the most it searches, is the worst case: 2**20
subsets whatever the nets), beside the greedy answer it replaces.

Run: ``.venv/bin/python benchmarks/settle.py``.
"""

from __future__ import annotations

import random
import time

from splitpot.store.settle import MOST_EXACT, greedy, settle_up


def table_nets(players: int, seed: int) -> dict[str, int]:
    """Nets of a home game: half the players pair off exactly (a small zero-sum group each),
    the rest win and lose random amounts; the house squares the sum."""
    shuffler = random.Random(seed)
    nets: dict[str, int] = {}
    for pair in range(players // 4):
        amount = shuffler.randint(1, 500)
        nets |= {f"w{pair}": amount, f"l{pair}": -amount}
    for other in range(players - len(nets) - 1):
        nets[f"p{other}"] = shuffler.randint(-500, 500) or 1
    nets["house"] = -sum(nets.values())
    return nets


def best_seconds(nets: dict[str, int], repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        settle_up(nets)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print(f"settle-up: the fewest payments, exact up to {MOST_EXACT} players not square")
    print(f"{'players':>7}  {'subsets':>9}  {'seconds':>8}  {'fewest':>6}  {'greedy':>6}")
    for players in (2, 4, 8, 12, 16, 18, 20):
        nets = table_nets(players, seed=players)
        fewest, plain = len(settle_up(nets)), len(greedy(nets))
        seconds = best_seconds(nets)
        print(f"{players:>7}  {2**players:>9,}  {seconds:>8.3f}  {fewest:>6}  {plain:>6}")


if __name__ == "__main__":
    main()
