"""Benchmark: BFS depth 10 over a synthetic 100k-page index with power-law degrees.

Run: `/tmp/venv/bin/python tests/bench/bench_traverse.py [pages] [seed]`. Not collected by
pytest. Prints the build time, the edge count and the best of five walks per direction (wall
clock and process CPU time: on a shared machine the CPU time is the steadier figure).
"""

from __future__ import annotations

import random
import time

from timing import numbers

from okf_explorer.core.graph.traverse import traverse_with


def power_law_adjacency(pages: int, seed: int) -> tuple[dict[str, tuple[str, ...]], ...]:
    """Out-degrees from a Pareto law (mean ≈ 6, capped at 500); targets by preferential
    attachment, so a few hubs collect most links in, as in a real brain."""
    rng = random.Random(seed)
    slugs = [f"pages/p{i:06d}" for i in range(pages)]
    weights = [1.0 / (i + 1) ** 0.8 for i in range(pages)]
    out: dict[str, tuple[str, ...]] = {}
    pool = rng.choices(slugs, weights=weights, k=pages * 8)
    cursor = 0
    for slug in slugs:
        degree = min(500, int(rng.paretovariate(1.6) * 2.3))
        targets = dict.fromkeys(pool[cursor : cursor + degree])
        cursor = (cursor + degree) % (len(pool) - 600)
        targets.pop(slug, None)
        out[slug] = tuple(targets)
    incoming: dict[str, list[str]] = {slug: [] for slug in slugs}
    for slug, targets in out.items():
        for target in targets:
            incoming[target].append(slug)
    reverse = {slug: tuple(sorted(froms)) for slug, froms in incoming.items()}
    return out, reverse


def main() -> None:
    pages, seed = numbers(__doc__, ("pages", 100_000), ("seed", 7))
    started = time.perf_counter()
    out, reverse = power_law_adjacency(pages, seed)
    links = sum(map(len, out.values()))
    print(f"built {pages} pages, {links} links in {time.perf_counter() - started:.2f} s")
    out_get, in_get = out.get, reverse.get

    def out_n(slug: str) -> tuple[str, ...]:
        return out_get(slug, ())

    def in_n(slug: str) -> tuple[str, ...]:
        return in_get(slug, ())

    root = "pages/p000500"
    for direction in ("out", "in", "both"):
        wall = cpu = float("inf")
        for _ in range(5):
            started, started_cpu = time.perf_counter(), time.process_time()
            edges = traverse_with(root, 10, direction, out_n, in_n)
            wall = min(wall, time.perf_counter() - started)
            cpu = min(cpu, time.process_time() - started_cpu)
            del edges
        edges = traverse_with(root, 10, direction, out_n, in_n)
        print(
            f"depth 10 {direction:>4}: {len(edges)} edges, best of 5: "
            f"{wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU"
        )


if __name__ == "__main__":
    main()
