"""Equity speed: exact heads-up preflop and three-way flop spots, and Monte Carlo.

Run: ``.venv/bin/python benchmarks/equity.py``. The Rust-backed ``poker-equity`` package,
where installed (``pip install poker-equity``, the ``bench`` extra), is measured on the
same spots in the same run. splitpot's first call compiles its kernels (numba caches the
result on disk); that time is reported apart and excluded from the figures.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numba

from splitpot.equity import calculate

HEADS_UP = ["AsKs2d3d", "QhQcJhTc"]
THREE_WAY = ["AsKs2d3d", "QhQcJhTc", "JsTs9h8h"]
FLOP = "7c8c9d"


def seconds(run: Callable[[], object], repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    start = time.perf_counter()
    calculate(HEADS_UP, board=FLOP)
    calculate(HEADS_UP, method="monte-carlo", samples=1000, seed=1)
    calculate(HEADS_UP)
    print(f"first calls (compiling or loading the kernels): {time.perf_counter() - start:.2f} s")
    rows: list[tuple[str, str, float | None, float | None]] = []
    try:
        import poker_equity as peer
    except ImportError:
        peer = None
    cores = numba.get_num_threads()

    ours = seconds(lambda: calculate(HEADS_UP))
    theirs = seconds(lambda: peer.exact_from_text("omaha_hi_lo", HEADS_UP), 2) if peer else None
    rows.append(("heads-up preflop exact, 1,086,008 boards", "s", ours, theirs))
    numba.set_num_threads(1)
    rows.append(("  the same on one core", "s", seconds(lambda: calculate(HEADS_UP)), None))
    numba.set_num_threads(cores)

    ours = seconds(lambda: calculate(THREE_WAY, board=FLOP), 50)
    theirs = (
        seconds(lambda: peer.exact_from_text("omaha_hi_lo", THREE_WAY, board=FLOP), 50)
        if peer
        else None
    )
    rows.append(("three-way flop exact, 666 boards", "s", ours, theirs))

    samples = 2_000_000
    for players, label in (
        (HEADS_UP, "heads-up, known hands"),
        (["AsKs2d3d", "*", "*", "*", "*", "*"], "6 players, 5 random"),
    ):
        rates = {}
        for threads in (1, cores):
            numba.set_num_threads(threads)
            took = seconds(
                lambda p=players: calculate(p, method="monte-carlo", samples=samples, seed=1), 2
            )
            rates[threads] = len(players) * samples / took
        numba.set_num_threads(cores)
        theirs = None
        if peer:
            took = seconds(
                lambda p=players: peer.chunk_from_text(
                    "omaha_hi_lo",
                    [h.replace("*", "****") for h in p],
                    samples=samples // 4,
                    threads=1,
                ),
                1,
            )
            theirs = len(players) * (samples // 4) / took
        rows.append((f"Monte Carlo {label}, one core", "player-hands/s", rates[1], theirs))
        rows.append((f"Monte Carlo {label}, {cores} cores", "player-hands/s", rates[cores], None))

    width = max(len(r[0]) for r in rows)
    print(f"{'spot':<{width}}  {'splitpot':>14}  {'poker-equity':>14}  {'ratio':>7}")
    for name, unit, mine, other in rows:
        if mine is None or other is None:
            ratio = "-"
        else:
            ratio = f"{other / mine:.1f}x" if unit == "s" else f"{mine / other:.1f}x"
        print(f"{name:<{width}}  {_show(mine, unit):>14}  {_show(other, unit):>14}  {ratio:>7}")


def _show(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    return f"{value * 1000:.2f} ms" if unit == "s" else f"{value / 1e6:.2f} M/s"


if __name__ == "__main__":
    main()
