"""Benchmark: `--status` / `--min-trust` over a deep walk (`core.okf.filter.filter_walk`).

Run: `.venv/bin/python tests/bench/bench_okf_filter.py [pages] [seed]`. Not collected by
pytest. Walks depth 10 `both` over the power-law index of `bench_traverse` (100k pages by
default), marks every fifth page a draft, then filters the walk to `stable` (many hops
change) and to every status (nothing changes). Prints wall and process CPU seconds, best of
three: on a shared machine the CPU time is the steadier figure.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_traverse import power_law_adjacency
from timing import numbers

from okf_explorer.core.graph.traverse import traverse_with
from okf_explorer.core.okf.filter import OkfFilter, filter_walk
from okf_explorer.core.pages import PageInfo


def best_of(runs: int, work):  # type: ignore[no-untyped-def]
    best = (float("inf"), float("inf"))
    result = None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        best = min(best, (time.perf_counter() - wall, time.process_time() - cpu))
    return best, result


def main() -> None:
    pages, seed = numbers(__doc__, ("pages", 100_000), ("seed", 7))
    out, back = power_law_adjacency(pages, seed)[:2]
    empty: tuple[str, ...] = ()
    root = next(iter(out))
    (walk_wall, walk_cpu), edges = best_of(
        3, lambda: traverse_with(root, 10, "both", lambda n: out.get(n, empty),
                                 lambda n: back.get(n, empty))
    )  # fmt: skip
    infos = {
        slug: PageInfo(slug, slug, okf_status="draft" if i % 5 == 0 else None)
        for i, slug in enumerate(out)
    }
    print(f"{pages} pages, {len(edges)} edges: walk {walk_wall:.2f} s ({walk_cpu:.2f} s CPU)")
    for label, statuses in (
        ("stable", {"stable"}),
        ("every status", {"draft", "stable", "deprecated"}),
    ):
        keep = OkfFilter(frozenset(statuses))
        (wall, cpu), kept = best_of(3, lambda: filter_walk(edges, root, 10, keep, infos))  # noqa: B023
        print(f"  filter {label}: {wall:.2f} s ({cpu:.2f} s CPU), {len(kept)} edges kept")


if __name__ == "__main__":
    main()
