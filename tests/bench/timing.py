"""Timing helpers the benchmark scripts share."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best(runs: int, work: Callable[[], Any]) -> float:
    """The fastest of `runs` calls of `work`, in wall seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)
