"""Fast paths over Python's cyclic garbage collector (off under `OKF_EXPLORER_PLAIN=1`).

The index build and a deep traversal each make hundreds of thousands of small,
long-lived, acyclic objects (tuples, strings, `PageInfo`s). Every 700 new objects
the collector runs, and its older generations re-walk everything allocated so far,
so the work done by collections grows with what has been built: `gc_paused` turns
the collector off for such a build (refcounting still frees every acyclic object).
`freeze_survivors` moves what is alive into the permanent generation, so no later
full collection re-walks a finished index on the TUI's event loop.

Measured by `tests/bench/bench_fast_paths.py` against the same code with the collector
on, CPU time of the process (figures in `core.fast_paths.FAST_PATHS`): a depth-10
`both` walk over a 100k-page power-law index about 1.8x; a cold build 35 ms sooner at
10k pages and 1.7x at 50k (the cost of the collector grows with what is alive); with
the index alive a full collection takes 3.8 ms at 10k pages and 31 ms at 50k unfrozen,
under 0.01 ms frozen.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from okf_explorer.core import fast_paths


@contextmanager
def gc_paused(*, freeze: bool = False) -> Iterator[None]:
    """Run the block with the cyclic collector off, if fast paths are on.

    Only the caller that turned it off turns it back on, so nested or concurrent
    users (threads) never re-enable it under each other. `freeze`: what is alive
    when the block ends goes to the permanent generation first (`gc.freeze`), for a
    block that builds something long-lived (an index): else the first allocation
    after it starts a collection that walks all it built (30-40 ms at 10k pages).
    """
    paused = fast_paths.enabled() and gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            if freeze:
                gc.freeze()
            gc.enable()


def freeze_survivors() -> None:
    """Move every live object to the permanent generation (`gc.freeze`), if fast paths are on."""
    if fast_paths.enabled():
        gc.freeze()
