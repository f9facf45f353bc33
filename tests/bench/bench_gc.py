"""The `fast_gc` fast paths against the same code with the cyclic collector on.

Run: `.venv/bin/python tests/bench/bench_gc.py [--pages 10000] [--walk-pages 100000] [--rounds 3]`

- `build cold` / `build warm`: `build_index` of a `gen_bundle` bundle with an empty
  disk cache and with a filled one (a fresh `LinkIndex` each time), `gc_paused` on
  (fast) and off (`OKF_EXPLORER_PLAIN=1`);
- `walk`: `traverse_with` depth 10 `both` over `bench_traverse`'s power-law index;
- `full gc pass`: one `gc.collect()` with a built index alive, frozen by
  `freeze_survivors` (fast) or not (plain): the pause the TUI's event loop would
  take at the next full collection.

Fast and plain runs alternate; each figure is the best of `--rounds` (CPU time of this
process, which excludes the scan workers; wall time for the gc pass). Not collected by
pytest; never asserts timings.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_traverse import power_law_adjacency
from gen_bundle import GENERATOR_VERSION, generate

from okf_explorer.core import fast_paths
from okf_explorer.core.fast_gc import freeze_survivors
from okf_explorer.core.graph.traverse import traverse_with
from okf_explorer.core.index.build import build_index
from okf_explorer.core.index.store import IndexCache
from okf_explorer.sources.folder.bundle import BundleSource


def plain(on: bool) -> None:
    """Turn the fast paths off (`on`) or back on."""
    if on:
        os.environ[fast_paths.PLAIN_ENV] = "1"
    else:
        os.environ.pop(fast_paths.PLAIN_ENV, None)


def best_pair(run: Callable[[], float], rounds: int) -> tuple[float, float]:
    """(fast, plain) best-of-`rounds` of `run`'s own measure, alternating the two."""
    fast = slow = float("inf")
    for _ in range(rounds):
        for is_plain in (False, True):
            plain(is_plain)
            gc.collect()
            took = run()
            if is_plain:
                slow = min(slow, took)
            else:
                fast = min(fast, took)
    plain(False)
    return fast, slow


def cpu_of(action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


def report(name: str, fast: float, slow: float) -> None:
    saved = 1 - fast / slow
    print(
        f"{name:14} fast {fast * 1000:8.1f} ms  plain {slow * 1000:8.1f} ms  "
        f"saves {saved:5.1%} of its path"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--walk-pages", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "okf-bench")
    args = parser.parse_args()

    root = args.workdir / f"bundle-{args.pages}-1-v{GENERATOR_VERSION}"
    if not (root / ".generated").exists():
        generate(root, args.pages, 1)
        (root / ".generated").write_text("ok")
    source = BundleSource(root)
    with tempfile.TemporaryDirectory() as empty:
        report(
            "build cold",
            *best_pair(lambda: cpu_of(lambda: build_index(source, cache=False)), args.rounds),
        )
        cache = IndexCache(empty)
        build_index(source, cache=cache)
        report(
            "build warm",
            *best_pair(lambda: cpu_of(lambda: build_index(source, cache=cache)), args.rounds),
        )

    out, reverse = power_law_adjacency(args.walk_pages, 7)
    out_get, in_get = out.get, reverse.get

    def walk() -> object:
        return traverse_with(
            "pages/p000500", 10, "both", lambda s: out_get(s, ()), lambda s: in_get(s, ())
        )

    report("walk", *best_pair(lambda: cpu_of(walk), args.rounds))
    del out, reverse

    index = build_index(source, cache=False)  # alive from here on, as in the TUI

    def full_pass() -> float:
        gc.unfreeze()
        gc.collect()
        freeze_survivors()
        start = time.perf_counter()
        gc.collect()
        return time.perf_counter() - start

    report("full gc pass", *best_pair(full_pass, args.rounds))
    gc.unfreeze()
    print(f"({len(index.pages)} pages in the index; walk over {args.walk_pages} pages)")


if __name__ == "__main__":
    main()
