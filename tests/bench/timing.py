"""Timing helpers the benchmark scripts share."""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol


class Timers(Protocol):
    def set_interval(self, interval: float, callback: Callable[[], None]) -> Any: ...


def best(runs: int, work: Callable[[], Any]) -> float:
    """The fastest of `runs` calls of `work`, in wall seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def machine_speed(runs: int = 3) -> float:
    """Seconds a fixed piece of pure Python work takes here, best of `runs`: the same
    code's figures differ by up to 2x from one day to another on a shared machine (the
    sample brain's worst key measured 87 ms one day, 163 ms the next, same commit), so a
    run printed with this can be set beside another."""

    def work() -> None:
        total = 0
        for number in range(2_000_000):
            total += number % 7
        sorted(str(number * 7919 % 100_003) for number in range(200_000))

    return best(runs, work)


async def wait_until(check: Callable[[], bool], timeout: float = 120.0) -> None:
    """Until `check()` holds (polled every 2 ms), else `TimeoutError` after `timeout` s."""
    deadline = time.perf_counter() + timeout
    while not check():
        if time.perf_counter() > deadline:
            raise TimeoutError("the app did not get there")
        await asyncio.sleep(0.002)


async def idle_lateness(seconds: float = 3.0) -> float:
    """The worst lateness of a 10 ms sleep loop doing nothing else: the machine's noise
    floor for the stall measures (other processes' share of the CPU)."""
    worst, expected = 0.0, time.perf_counter() + 0.01
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        await asyncio.sleep(0.01)
        now = time.perf_counter()
        worst, expected = max(worst, now - expected), now + 0.01
    return worst


class LoopLateness:
    """How late a 10 ms timer on `node`'s loop fires while the app works: the longest
    stall a key press would wait through. `start()`, the work, then `stop()` returns
    the worst lateness in seconds."""

    def __init__(self, node: Timers) -> None:
        self._node = node
        self._late: list[float] = []
        self._expected = 0.0
        self._timer: Any = None

    def start(self) -> None:
        self._late, self._expected = [], time.perf_counter() + 0.01
        self._timer = self._node.set_interval(0.01, self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self._late.append(max(0.0, now - self._expected))
        self._expected = now + 0.01

    def stop(self) -> float:
        self._timer.stop()
        return max(self._late, default=0.0)


def numbers(doc: str | None, *named: tuple[str, int]) -> list[int]:
    """The script's optional whole-number arguments (`named`: each name and default),
    from the command line, with `--help` from the script's docstring `doc`: a word that is
    no number exits 2 with one line, not a traceback."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    for name, default in named:
        parser.add_argument(name, type=int, nargs="?", default=default, help=f"default {default}")
    found = vars(parser.parse_args())
    return [found[name] for name, _ in named]
