"""Benchmark: `path` (k = 3) on a generated 10k-page bundle (`gen_bundle`), warm index.

Run: `.venv/bin/python tests/bench/bench_path.py [pages] [seed]`. Not collected by
pytest. Measures, against issue 13's target (≤ 100 ms with the index warm):

- once per index: building the path graph (`PathGraphs.base`) and the hubs;
- per query, over 30 seeded random pairs of pages that are joined (median and
  worst, each the best of three runs): the paths alone (`PathGraphs.find`), and
  the whole answer of `okf-explorer path` (`explained_paths`: rules and sentences,
  the pages read), plain and with `--avoid hubs`, `--direction any`;
- the baseline measured in the same run over the same pairs: one breadth-first
  search of the same index (`Brain.shortest_path`), and networkx's own
  `shortest_path` on the same graph; the ratio path / baseline is printed.

- a new process's first answer on a warm disk cache (graph built, links decoded).

Exits 1 when the whole answer's worst case misses 100 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx
from gen_bundle import generate
from timing import best, numbers

from okf_explorer.core.brain import Brain
from okf_explorer.core.graph.paths import Avoid, PathQuery
from okf_explorer.sources.folder.bundle import BundleSource

TARGET_MS = 100.0
PAIRS = 30


def pairs_of(brain: Brain, seed: int) -> list[tuple[str, str]]:
    """Seeded random pairs of pages with a path between them (out, every edge allowed)."""
    rng = random.Random(seed)
    slugs = list(brain.ensure_index().pages)
    graph = brain.path_graphs().base()
    found: list[tuple[str, str]] = []
    while len(found) < PAIRS:
        a, b = rng.sample(slugs, 2)
        if nx.has_path(graph, a, b):
            found.append((a, b))
    return found


def timed(label: str, pairs: list[tuple[str, str]], ask) -> float:  # type: ignore[no-untyped-def]
    times = [best(3, lambda a=a, b=b: ask(a, b)) * 1000 for a, b in pairs]
    median, worst = statistics.median(times), max(times)
    print(f"{label:<42} median {median:6.1f} ms   worst {worst:6.1f} ms")
    return worst


def warm_start(root: Path, cache: Path, pair: tuple[str, str]) -> str:
    """A new process's first `path` on a brain whose index is in the disk cache: the
    index loaded, the path graph built, the links decoded (lazy on a warm start)."""
    Brain(BundleSource(root), cache_dir=cache).ensure_index()  # fills the cache
    brain = Brain(BundleSource(root), cache_dir=cache)
    started = time.perf_counter()
    brain.ensure_index()
    loaded = time.perf_counter()
    brain.explained_paths(PathQuery(*pair))
    done = time.perf_counter()
    brain.close()
    return (
        f"warm start from the disk cache: index {(loaded - started) * 1000:.0f} ms, then the "
        f"first path answer {(done - loaded) * 1000:.0f} ms (graph built, links decoded)"
    )


def main() -> int:
    pages, seed = numbers(__doc__, ("pages", 10_000), ("seed", 1))
    with tempfile.TemporaryDirectory() as work:
        root = Path(work) / "bundle"
        generate(root, pages, seed)
        brain = Brain(BundleSource(root), cache_dir=False)
        started = time.perf_counter()
        index = brain.ensure_index()
        print(f"{len(index.pages)} pages indexed in {time.perf_counter() - started:.2f} s")
        started = time.perf_counter()
        graphs = brain.path_graphs()
        graph = graphs.base()
        built = time.perf_counter() - started
        started = time.perf_counter()
        hubs = graphs.hubs()
        print(
            f"path graph: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges, "
            f"built once in {built * 1000:.0f} ms; {len(hubs)} hubs in "
            f"{(time.perf_counter() - started) * 1000:.0f} ms"
        )
        pairs = pairs_of(brain, seed)
        started = time.perf_counter()
        brain.explained_paths(PathQuery(*pairs[0]))  # first answer: links decoded, resolver
        first = (time.perf_counter() - started) * 1000
        print(f"first whole answer (warms the rest): {first:.0f} ms")
        base_bfs = timed("baseline: one BFS (Brain.shortest_path)", pairs, brain.shortest_path)
        timed("baseline: networkx shortest_path", pairs, lambda a, b: nx.shortest_path(graph, a, b))
        found = timed("paths k=3 (find)", pairs, lambda a, b: graphs.find(PathQuery(a, b)))
        whole = timed(
            "paths k=3 with rules and sentences", pairs,
            lambda a, b: brain.explained_paths(PathQuery(a, b)),
        )  # fmt: skip
        avoid = Avoid(hubs=True)
        timed(
            "paths k=3 --avoid hubs (find)", pairs,
            lambda a, b: graphs.find(PathQuery(a, b, avoid=avoid)),
        )  # fmt: skip
        timed(
            "paths k=3 --direction any (find)", pairs,
            lambda a, b: graphs.find(PathQuery(a, b, direction="any")),
        )  # fmt: skip
        print(
            f"ratio (worst) find / BFS: {found / base_bfs:.1f}x; "
            f"whole answer / BFS: {whole / base_bfs:.1f}x"
        )
        brain.close()
        print(warm_start(root, Path(work) / "cache", pairs[0]))
    if whole > TARGET_MS:
        print(f"MISSED: worst whole answer {whole:.1f} ms > {TARGET_MS:.0f} ms")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
