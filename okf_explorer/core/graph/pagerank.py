"""PageRank over the index's arrays: a fast path for networkx's own.

`nx.pagerank` needs scipy (networkx 3 dropped its pure-Python default), which
okf-explorer does not depend on: numpy and scipy are ~60 MB of wheels for one
analysis. networkx still ships the pure-Python power iteration
(`pagerank_alg._pagerank_python`), which answers the same on the same graph; the
plain path (`OKF_EXPLORER_PLAIN=1`) runs that one on a `DiGraph`.

The fast path is the same power iteration over integer ids and flat lists (no
`DiGraph`, no dict of dicts): damping `ALPHA`, uniform teleport, a dangling page's
rank spread evenly over every page, stopped once the L1 change falls under
`N * TOL` or after `MAX_ITER` rounds, as networkx does. Figures (same run,
`tests/bench/bench_analyze.py`): see `core.fast_paths.FAST_PATHS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from okf_explorer.core import fast_paths

ALPHA = 0.85
TOL = 1.0e-6
MAX_ITER = 100


def pagerank(nodes: Sequence[str], out: Mapping[str, Sequence[str]]) -> dict[str, float]:
    """PageRank of every node of `nodes` over the directed edges `out` (node → distinct
    other nodes of `nodes`); the ranks sum to 1."""
    if not nodes:
        return {}
    if not fast_paths.enabled():
        return _library(nodes, out)
    return _arrays(nodes, out)


def _library(nodes: Sequence[str], out: Mapping[str, Sequence[str]]) -> dict[str, float]:
    import networkx as nx
    from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((frm, to) for frm in nodes for to in out.get(frm, ()))
    ranks: dict[str, float] = _pagerank_python(graph, alpha=ALPHA, tol=TOL, max_iter=MAX_ITER)
    return ranks


def _arrays(nodes: Sequence[str], out: Mapping[str, Sequence[str]]) -> dict[str, float]:
    n = len(nodes)
    ids = {node: i for i, node in enumerate(nodes)}
    targets = [[ids[to] for to in out.get(node, ())] for node in nodes]
    dangling = [i for i, row in enumerate(targets) if not row]
    rank = [1.0 / n] * n
    for _ in range(MAX_ITER):
        previous = rank
        spread = ALPHA * sum(previous[i] for i in dangling) / n + (1.0 - ALPHA) / n
        rank = [spread] * n
        for i, row in enumerate(targets):
            if row:
                share = ALPHA * previous[i] / len(row)
                for j in row:
                    rank[j] += share
        if sum(abs(a - b) for a, b in zip(rank, previous, strict=True)) < n * TOL:
            break
    return {node: rank[i] for i, node in enumerate(nodes)}
