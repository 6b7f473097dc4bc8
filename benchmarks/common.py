"""What the benchmark scripts share: timing and the printed table."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_rate(run: Callable[[], object], items: int, repeats: int = 3) -> float:
    """Items per second of the fastest of ``repeats`` runs."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return items / best


def print_table(title: str, unit: str, rows: list[tuple[str, float]], peer: float | None) -> None:
    """One row per measurement, with the ratio to the peer measured in the same run."""
    width = max(len(name) for name, _ in rows)
    print(title)
    print(f"{'':<{width}}  {unit:>14}  {'x PokerKit':>10}")
    for name, value in rows:
        ratio = f"{value / peer:,.1f}" if peer else "-"
        print(f"{name:<{width}}  {value:>14,.0f}  {ratio:>10}")
