"""How long `splitpot serve` takes from its start to its first answer (`/api/health`),
against a target of 3 s: with numba's cache of the kernels warm (every start after the
first), and cold (a cache folder of its own, empty: a fresh clone whose make did not
compile them; the kernels compile at their first use, a bot's first decision or the first
showdown, which is why make compiles them ahead), on a new SQLite database and on one
already migrated. The load average is printed with the figures: a busy machine is slower.

Run: ``.venv/bin/python benchmarks/startup.py [--runs 5] [--cold]``.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

TARGET = 3.0  # seconds


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def first_answer(database: Path, env: dict[str, str], limit: float = 600.0) -> float:
    """Seconds from starting `splitpot serve` to its first answer of /api/health."""
    port = free_port()
    command = [sys.executable, "-m", "splitpot.cli", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{database}", "--bots", "5"]
    started = time.monotonic()
    room = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        while time.monotonic() - started < limit:
            if room.poll() is not None:
                raise SystemExit(f"splitpot serve exited {room.returncode} before answering")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).is_success:
                    return time.monotonic() - started
            except httpx.HTTPError:
                pass
            time.sleep(0.01)
        raise SystemExit(f"no answer within {limit:.0f} s")
    finally:
        room.terminate()
        room.wait(60)


def row(name: str, times: list[float]) -> str:
    median = statistics.median(times)
    verdict = "met" if median <= TARGET else "missed"
    spread = f"{min(times):.2f}-{max(times):.2f}"
    return f"{name:<34} {len(times):>4} {median:>8.2f} {spread:>11} {TARGET:>7.1f}  {verdict}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="starts measured in each case")
    parser.add_argument("--cold", action="store_true", help="also start with a cold cache")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
    print(f"{'case':<34} {'runs':>4} {'median s':>8} {'spread s':>11} {'target':>7}")
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        env = dict(os.environ)
        fresh = [first_answer(base / f"new-{n}.sqlite3", env) for n in range(args.runs)]
        print(row("warm cache, new database", fresh))
        kept = base / "kept.sqlite3"
        again = [first_answer(kept, env) for _ in range(args.runs)]
        print(row("warm cache, migrated database", again))
        if args.cold:
            cold = []
            for n in range(min(args.runs, 2)):
                cache = base / f"numba-{n}"
                cache.mkdir()
                cold_env = env | {"NUMBA_CACHE_DIR": str(cache)}
                cold.append(first_answer(base / f"cold-{n}.sqlite3", cold_env))
            print(row("cold cache (compiles the kernels)", cold))


if __name__ == "__main__":
    main()
