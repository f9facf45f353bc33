"""Louvain communities of the undirected projection: networkx's, or a fast path that
answers exactly as networkx does.

networkx's `louvain_communities` spends its time in dict-of-dict views and in
building a `Graph` per level. The fast path is the same algorithm step for step
(networkx 3.x `louvain_partitions`: the seeded shuffle of the nodes each level, the
order neighbours and communities are weighed in, the modularity gain and its ties,
the threshold between levels, the aggregated graph's edge order), on integer ids and
plain lists of dicts. Same nodes, edges and seed → the same partition;
`tests/test_analyze.py` holds the two to it on random graphs, and the plain path
(`OKF_EXPLORER_PLAIN=1`) runs networkx's. Figures: `core.fast_paths.FAST_PATHS`.

Node order matters to both: nodes are taken in sorted order and each one's
neighbours in sorted order (the order a `Graph` built as `_library` builds it keeps).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence, Set

from okf_explorer.core import fast_paths

THRESHOLD = 0.0000001
"""networkx's default: a level that gains less modularity than this ends the run."""


def louvain(nodes: Sequence[str], neighbours: Mapping[str, Set[str]], seed: int) -> list[set[str]]:
    """The communities of the undirected graph `neighbours` (node → other nodes; no
    self-loops) over `nodes`, as networkx's `louvain_communities(G, seed=seed)` finds
    them on that graph, in no particular order."""
    ordered = sorted(nodes)
    if not fast_paths.enabled():
        return _library(ordered, neighbours, seed)
    return _arrays(ordered, neighbours, seed)


def _library(nodes: list[str], neighbours: Mapping[str, Set[str]], seed: int) -> list[set[str]]:
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(
        (node, other) for node in nodes for other in sorted(neighbours[node]) if node < other
    )
    found: list[set[str]] = nx.community.louvain_communities(graph, seed=seed)
    return found


Adjacency = list[dict[int, int]]
"""Node id → {neighbour id: edge weight}, in networkx's insertion order."""


def _arrays(nodes: list[str], neighbours: Mapping[str, Set[str]], seed: int) -> list[set[str]]:
    position = {node: i for i, node in enumerate(nodes)}
    adjacency: Adjacency = [
        dict.fromkeys(sorted(position[other] for other in neighbours[node]), 1) for node in nodes
    ]
    if not any(adjacency):
        return [{node} for node in nodes]
    rng = random.Random(seed)
    members: list[set[int]] = [{i} for i in range(len(nodes))]
    m = sum(_degrees(adjacency)) / 2
    mod = _modularity(adjacency, [{i} for i in range(len(nodes))])
    partition, inner, _ = _one_level(adjacency, m, [{i} for i in range(len(nodes))], members, rng)
    improvement = True  # networkx keeps the first level even when nothing moved
    while improvement:
        best = [set(community) for community in partition]
        new_mod = _modularity(adjacency, inner)
        if new_mod - mod <= THRESHOLD:
            break
        mod = new_mod
        adjacency, members = _aggregate(adjacency, inner, members)
        partition, inner, improvement = _one_level(adjacency, m, partition, members, rng)
    return [{nodes[i] for i in community} for community in best]


def _degrees(adjacency: Adjacency) -> list[int]:
    """Weighted degrees, a self-loop counted twice (as networkx counts it)."""
    return [sum(near.values()) + near.get(u, 0) for u, near in enumerate(adjacency)]


def _modularity(adjacency: Adjacency, communities: list[set[int]]) -> float:
    degrees = _degrees(adjacency)
    deg_sum = sum(degrees)
    m = deg_sum / 2
    norm = 1 / deg_sum**2

    def contribution(community: set[int]) -> float:
        inside = sum(
            weight
            for u in community
            for v, weight in adjacency[u].items()
            if v in community and (v > u or v == u)
        )
        degree_sum = sum(degrees[u] for u in community)
        return inside / m - degree_sum * degree_sum * norm

    return sum(map(contribution, communities))


def _one_level(
    adjacency: Adjacency,
    m: float,
    partition: list[set[int]],
    members: list[set[int]],
    rng: random.Random,
) -> tuple[list[set[int]], list[set[int]], bool]:
    count = len(adjacency)
    node2com = list(range(count))
    inner = [{u} for u in range(count)]
    degrees = _degrees(adjacency)
    totals = list(degrees)
    nbrs = [{v: w for v, w in near.items() if v != u} for u, near in enumerate(adjacency)]
    order = list(range(count))
    rng.shuffle(order)
    twice_m2 = 2 * m**2
    moves = 1
    improvement = False
    while moves > 0:
        moves = 0
        for u in order:
            best_mod: float = 0
            best_com = node2com[u]
            weights: dict[int, float] = {}
            get = weights.get
            for nbr, wt in nbrs[u].items():
                com = node2com[nbr]
                weights[com] = get(com, 0.0) + wt
            degree = degrees[u]
            totals[best_com] -= degree
            own = get(best_com)
            if own is None:  # networkx's defaultdict adds it, last, on this lookup
                own = weights[best_com] = 0.0
            # the same float operations in the same order as networkx (resolution 1)
            remove_cost = -own / m + (totals[best_com] * degree) / twice_m2
            for nbr_com, wt in weights.items():
                gain = remove_cost + wt / m - (totals[nbr_com] * degree) / twice_m2
                if gain > best_mod:
                    best_mod = gain
                    best_com = nbr_com
            totals[best_com] += degree
            if best_com != node2com[u]:
                moved = members[u]
                partition[node2com[u]].difference_update(moved)
                inner[node2com[u]].remove(u)
                partition[best_com].update(moved)
                inner[best_com].add(u)
                improvement = True
                moves += 1
                node2com[u] = best_com
    return [p for p in partition if p], [p for p in inner if p], improvement


def _aggregate(
    adjacency: Adjacency, inner: list[set[int]], members: list[set[int]]
) -> tuple[Adjacency, list[set[int]]]:
    """One node a community, edge weights summed, in networkx's `_gen_graph` order."""
    node2com: dict[int, int] = {}
    merged: list[set[int]] = []
    for i, part in enumerate(inner):
        nodes: set[int] = set()
        for node in part:
            node2com[node] = i
            nodes.update(members[node])
        merged.append(nodes)
    graph: Adjacency = [{} for _ in inner]
    seen: set[int] = set()
    for u, near in enumerate(adjacency):
        for v, weight in near.items():
            if v not in seen:
                a, b = node2com[u], node2com[v]
                total = weight + graph[a].get(b, 0)
                graph[a][b] = total
                graph[b][a] = total
        seen.add(u)
    return graph, merged
