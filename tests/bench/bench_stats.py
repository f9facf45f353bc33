"""Benchmark: `core.graph.analysis.brain_stats` (what `okf-explorer stats` and the TUI's `s`
dialog compute) over a synthetic 100k-page index with power-law degrees.

Run: `.venv/bin/python tests/bench/bench_stats.py [pages] [seed]`. Not collected by
pytest. Prints the best of three runs (wall clock and process CPU time) of the
computation, the text rendering and the dialog's rows.
"""

from __future__ import annotations

import time

from bench_traverse import power_law_adjacency
from timing import numbers

from okf_explorer.cli.commands.graph import stats_text
from okf_explorer.core.graph.analysis import brain_stats
from okf_explorer.core.index.model import LinkIndex, ResolvedLink
from okf_explorer.core.pages import PageInfo
from okf_explorer.tui.dialogs.stats import stats_rows


def synthetic_index(pages: int, seed: int) -> LinkIndex:
    out, reverse = power_law_adjacency(pages, seed)
    infos = {slug: PageInfo(slug=slug, title=slug.rsplit("/", 1)[-1]) for slug in out}
    forward = {
        slug: tuple(ResolvedLink(to, to, "wiki", "exact") for to in targets)
        for slug, targets in out.items()
    }
    return LinkIndex(pages=infos, forward=forward, reverse=reverse, targets=out)


def best_of(runs: int, work) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu)


def main() -> None:
    pages, seed = numbers(__doc__, ("pages", 100_000), ("seed", 1))
    index = synthetic_index(pages, seed)
    stats = brain_stats(index)
    print(f"{pages} pages, {stats.links} links, {len(stats.orphans)} orphans")
    for name, work in [
        ("brain_stats", lambda: brain_stats(index)),
        ("stats_text", lambda: stats_text(stats)),
        ("stats_rows (dialog)", lambda: stats_rows(stats)),
    ]:
        wall, cpu = best_of(3, work)
        print(f"{name:22} {wall * 1000:8.1f} ms wall {cpu * 1000:8.1f} ms cpu")


if __name__ == "__main__":
    main()
