"""Catching the room's event loop in a stall (``benchmarks/room.py --stalls MS``).

A heartbeat on the room's loop marks the time every few milliseconds; a thread of its own
looks every 2 ms, and while the loop is late by MS or more it samples where the loop's
thread is (and where the room's other threads are, as one of them may hold the GIL). When
the stall ends, one line says how long it was, when (seconds since the process began to
watch), where the samples were, and the
collector's passes during it; at the end, the collector's passes of the whole run. The
room's own code is not changed: the heartbeat is started by wrapping uvicorn's
``Server.serve`` in the benchmark's room process.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn

VARIABLE = "SPLITPOT_BENCH_STALLS"  # milliseconds, for the room processes room.py starts
MARK = "stall: "  # how each stall's line begins in the room's log
BEAT = 0.005  # seconds between heartbeats
LOOK = 0.002  # seconds between the watcher's looks
PROJECT = str(Path(__file__).resolve().parents[1] / "src" / "splitpot")


def watch(threshold: float) -> None:
    """Watch the loop of the uvicorn server this process will run for stalls of at least
    ``threshold`` seconds; print each to stderr as it ends."""
    beat = [float("inf")]  # no stall before the loop's first beat (the start's own work)
    passes: list[tuple[float, float, int]] = []  # the collector's: start, seconds, generation
    started: dict[int, float] = {}
    everything: dict[int, list[float]] = {0: [], 1: [], 2: []}  # each pass's seconds
    original = uvicorn.Server.serve

    async def serve(self: uvicorn.Server, sockets: Any = None) -> None:
        asyncio.get_running_loop().create_task(_heartbeat(beat))
        await original(self, sockets)

    def collected(phase: str, info: dict[str, Any]) -> None:
        now = time.monotonic()
        if phase == "start":
            started[info["generation"]] = now
        else:
            begun = started.pop(info["generation"], now)
            passes.append((begun, now - begun, info["generation"]))
            del passes[:-200]
            everything[info["generation"]].append(now - begun)

    uvicorn.Server.serve = serve  # type: ignore[method-assign]
    gc.callbacks.append(collected)
    atexit.register(_collector_summary, everything)
    loop_thread = threading.get_ident()
    watcher = threading.Thread(
        target=_watcher, args=(beat, passes, threshold, loop_thread), daemon=True
    )
    watcher.start()


async def _heartbeat(beat: list[float]) -> None:
    while True:
        beat[0] = time.monotonic()
        await asyncio.sleep(BEAT)


def _watcher(
    beat: list[float], passes: list[tuple[float, float, int]], threshold: float, loop: int
) -> None:
    samples: Counter[str] = Counter()
    others: Counter[str] = Counter()
    began = longest = 0.0
    first = time.monotonic()  # the stalls' times are counted from here
    while True:
        time.sleep(LOOK)
        now = time.monotonic()
        late = now - beat[0] - BEAT
        if late >= threshold:
            if not samples:
                began = beat[0] + BEAT
            longest = max(longest, late)
            frames = sys._current_frames()
            samples[_where(frames.get(loop))] += 1
            for ident, frame in frames.items():
                if ident not in (loop, threading.get_ident()) and _ours(frame):
                    others[_where(frame)] += 1
            continue
        if samples:
            collector = [
                f"gen{generation} {1000 * seconds:.0f} ms"
                for start, seconds, generation in passes
                if start + seconds >= began and seconds >= 0.005
            ]
            print(
                f"{MARK}{1000 * longest:.0f} ms at {began - first:.0f} s; "
                f"loop thread: {_top(samples)}; "
                f"other threads: {_top(others) or 'idle'}; collector: "
                f"{', '.join(collector) or 'none over 5 ms'}",
                file=sys.stderr,
                flush=True,
            )
            samples, others, longest = Counter(), Counter(), 0.0


def _collector_summary(everything: dict[int, list[float]]) -> None:
    """The collector's passes over the whole run, by generation."""
    said = [
        f"gen{generation} {len(times)} passes (longest {1000 * max(times, default=0):.0f} ms, "
        f"{sum(times):.1f} s in all)"
        for generation, times in everything.items()
    ]
    print(f"{MARK}collector over the run: {'; '.join(said)}", file=sys.stderr, flush=True)


def _ours(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith(PROJECT):
            return True
        frame = frame.f_back
    return False


def _where(frame: FrameType | None) -> str:
    """The innermost frame, and the innermost three of the project's below it."""
    if frame is None:
        return "?"
    inner = _short(frame)
    ours = []
    while frame is not None and len(ours) < 3:
        if frame.f_code.co_filename.startswith(PROJECT):
            ours.append(_short(frame))
        frame = frame.f_back
    return " < ".join([inner, *[f for f in ours if f != inner]])


def _short(frame: FrameType) -> str:
    name = frame.f_code.co_filename
    name = name.removeprefix(PROJECT + "/") if name.startswith(PROJECT) else Path(name).name
    return f"{name}:{frame.f_lineno} {frame.f_code.co_name}"


def _top(counted: Counter[str]) -> str:
    total = sum(counted.values())
    return " | ".join(f"{100 * n // total}% {where}" for where, n in counted.most_common(3))
