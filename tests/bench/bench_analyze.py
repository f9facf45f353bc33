"""Benchmark: `okf-explorer analyze` (issue 27) and its parts, library vs fast path.

    .venv/bin/python tests/bench/bench_analyze.py                   # 10k pages
    .venv/bin/python tests/bench/bench_analyze.py --sizes 100000    # takes minutes
    .venv/bin/python tests/bench/bench_analyze.py --parts-only      # no bundle, no CLI
    .venv/bin/python tests/bench/bench_analyze.py --command-only    # the CLI only

Two measurements per size N:

- **parts**, in this process, on a synthetic power-law index (`bench_stats`): the
  projection, PageRank (the fast path vs networkx's pure-Python power iteration),
  communities (`core.graph.louvain` vs `nx.community.louvain_communities`, same seed,
  and the modularity of each), the cut points (our one depth-first pass
  vs `nx.articulation_points` plus `nx.bridges`, which find the same pages and edges
  without what they split) and the suggestions; best of `--repeat`, wall and CPU.
- **command**, on the generated bundle (`gen_bundle.generate(N, 1)`, kept under
  `--workdir`): `okf-explorer stats` first builds the index cache; then `okf-explorer
  analyze --json` in a fresh process, twice: the first run also builds the
  full-text index its mention lookups use, the second finds it on disk ("cold on a
  built index"). Wall and CPU time and the child's peak RSS (on a loaded machine the
  CPU time is the steadier figure).

Not collected by pytest; never asserts timings.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_stats import synthetic_index
from gen_bundle import generate

from okf_explorer.core import fast_paths
from okf_explorer.core.graph import louvain as louvain_module
from okf_explorer.core.graph import pagerank as pagerank_module
from okf_explorer.core.graph.projection import project
from okf_explorer.core.graph.shape import SEED, cut_points
from okf_explorer.core.graph.suggested import suggestions

CLI = Path(sys.executable).with_name("okf-explorer")


def best(repeat: int, work: Callable[[], Any]) -> tuple[float, float, Any]:
    wall = cpu = float("inf")
    result = None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = work()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu, result


def row(name: str, wall: float, cpu: float) -> None:
    print(f"  {name:34} {wall * 1000:9.0f} ms wall {cpu * 1000:9.0f} ms cpu", flush=True)


def parts(n: int, repeat: int, library: bool) -> None:
    import networkx as nx

    index = synthetic_index(n, 1)
    print(f"parts, {n} pages (synthetic power-law index)", flush=True)
    wall, cpu, projection = best(repeat, lambda: project(index))
    row("projection", wall, cpu)
    nodes, out, near = projection.nodes, projection.out, projection.undirected
    wall, cpu, ranks = best(repeat, lambda: pagerank_module.pagerank(nodes, out))
    row("pagerank (ours)", wall, cpu)
    if library and importlib.util.find_spec("scipy") is not None:  # nx.pagerank needs it
        digraph = nx.DiGraph()
        digraph.add_nodes_from(nodes)
        digraph.add_edges_from((frm, to) for frm in nodes for to in out.get(frm, ()))
        wall, cpu, _ = best(repeat, lambda: nx.pagerank(digraph, alpha=pagerank_module.ALPHA))
        row("pagerank networkx (scipy)", wall, cpu)
    ordered = sorted(nodes)
    wall, cpu, fast = best(repeat, lambda: louvain_module.louvain(ordered, near, SEED))
    row(f"communities ({len(fast)})", wall, cpu)
    if library:
        graph = nx.Graph()
        graph.add_nodes_from(ordered)
        graph.add_edges_from((a, b) for a in ordered for b in sorted(near[a]) if a < b)
        wall, cpu, plain = best(1, lambda: nx.community.louvain_communities(graph, seed=SEED))
        row(f"networkx louvain ({len(plain)})", wall, cpu)
        ours = nx.community.modularity(graph, fast)
        theirs = nx.community.modularity(graph, plain)
        print(f"  modularity: ours {ours:.4f}, networkx's {theirs:.4f}", flush=True)
    wall, cpu, (bridges, edges) = best(repeat, lambda: cut_points(projection))
    row(f"cut points ({len(bridges)} pages, {len(edges)} edges)", wall, cpu)
    if library:

        def networkx_cuts() -> tuple[list[str], list[tuple[str, str]]]:
            graph = nx.Graph()
            graph.add_nodes_from(nodes)
            graph.add_edges_from((a, b) for a in nodes for b in near[a] if a < b)
            return list(nx.articulation_points(graph)), list(nx.bridges(graph))

        wall, cpu, _ = best(repeat, networkx_cuts)
        row("nx articulation_points + bridges", wall, cpu)
    leaders = sorted(nodes, key=lambda slug: -ranks[slug])[:10]
    wall, cpu, _ = best(repeat, lambda: suggestions(index, projection, leaders, None, 10))
    row("suggestions (shared neighbours)", wall, cpu)


def command(workdir: Path, n: int) -> None:
    root = workdir / f"bundle-{n}"
    if not (root / "hub.md").exists():
        generate(root, n, 1)
    env = dict(os.environ, OKF_EXPLORER_CACHE=str(workdir / f"cache-{n}"))
    subprocess.run(
        [str(CLI), "stats", "--source", str(root)], env=env, check=True, capture_output=True
    )
    print(f"command, {n} pages (gen_bundle, index cache built)", flush=True)
    for run in ("first (builds the text index)", "again (cold on a built index)"):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [str(CLI), "analyze", "--json", "--source", str(root)], env=env, capture_output=True
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        rss = after.ru_maxrss / 1024
        status = "ok" if done.returncode == 0 else done.stderr.decode()[-200:]
        print(
            f"  analyze {run:32} {wall:7.2f} s wall {cpu:7.2f} s cpu  peak RSS {rss:6.0f} MB  "
            f"{status}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/okf-bench-analyze"))
    parser.add_argument("--parts-only", action="store_true")
    parser.add_argument("--command-only", action="store_true")
    parser.add_argument("--no-library", action="store_true", help="skip networkx's runs")
    args = parser.parse_args()
    assert fast_paths.enabled(), "run without OKF_EXPLORER_PLAIN"
    for n in args.sizes:
        if not args.command_only:
            parts(n, args.repeat, not args.no_library)
        if not args.parts_only:
            command(args.workdir, n)


if __name__ == "__main__":
    main()
