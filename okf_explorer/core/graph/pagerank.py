"""PageRank over the index's arrays (`analyze`'s central pages).

networkx's public `nx.pagerank` needs scipy (networkx 3 dropped its pure-Python
default), which okf-explorer does not depend on: numpy and scipy are 52 MB of wheels
(215 MB installed, 261 ms to import) for one analysis, and at 100k pages `nx.pagerank`
took 1,014 ms CPU against this module's 437 ms, the same ranks to 1e-15
(`tests/bench/bench_analyze.py`). Its pure-Python power iteration is private API, so
this module is the implementation, not a fast path beside a library one.

The power iteration networkx documents, over integer ids and flat lists: damping
`ALPHA`, uniform teleport, a dangling page's rank spread evenly over every page,
stopped once the L1 change falls under `N * TOL` or after `MAX_ITER` rounds. The tests
check the PageRank equation itself holds for the ranks it returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

ALPHA = 0.85
TOL = 1.0e-6
MAX_ITER = 100


def pagerank(nodes: Sequence[str], out: Mapping[str, Sequence[str]]) -> dict[str, float]:
    """PageRank of every node of `nodes` over the directed edges `out` (node → distinct
    other nodes of `nodes`); the ranks sum to 1."""
    if not nodes:
        return {}
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
