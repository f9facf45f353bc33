"""Property tests of the SPEC §4 walk over random small graphs, against a plain
reference BFS written here from the SPEC text."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.graph.traverse import Edge, clamp_depth, traverse_with

pytestmark = pytest.mark.plain

NODES = [f"p{i}" for i in range(8)] + ["ghost"]

graphs = st.dictionaries(
    keys=st.sampled_from(NODES[:-1]),
    values=st.lists(st.sampled_from(NODES), unique=True, max_size=5).map(tuple),
    max_size=8,
)
depths = st.one_of(st.integers(min_value=-2, max_value=14), st.sampled_from(["x", None, True]))
directions = st.sampled_from(["out", "in", "both"])


def reverse_of(out: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    back: dict[str, set[str]] = {}
    for frm, targets in out.items():
        for to in targets:
            back.setdefault(to, set()).add(frm)
    return {node: tuple(sorted(froms)) for node, froms in back.items()}


def reference_pass(
    root: str, depth: int, label: str, neighbours: dict[str, tuple[str, ...]]
) -> list[tuple[str, str, int, str]]:
    """The SPEC sentence by sentence, with no attempt at speed."""
    edges = []
    visited = [root]
    frontier = [root]
    hop = 1
    while hop <= depth and frontier:
        following = []
        for node in frontier:
            for other in neighbours.get(node, ()):
                edges.append((node, other, hop, label))
                if other not in visited:
                    visited.append(other)
                    following.append(other)
        frontier = following
        hop += 1
    return edges


def run(out: dict[str, tuple[str, ...]], root: str, depth: object, direction: str) -> list[Edge]:
    back = reverse_of(out)
    return traverse_with(
        root, depth, direction, lambda s: out.get(s, ()), lambda s: back.get(s, ())
    )


@settings(max_examples=200, deadline=None)
@given(graphs, st.sampled_from(NODES[:-1]), depths, directions)
def test_matches_the_reference_bfs(out, root, depth, direction) -> None:
    expected = []
    if direction in ("out", "both"):
        expected += reference_pass(root, clamp_depth(depth), "out", out)
    if direction in ("in", "both"):
        expected += reference_pass(root, clamp_depth(depth), "in", reverse_of(out))
    assert [tuple(e) for e in run(out, root, depth, direction)] == expected


@settings(max_examples=200, deadline=None)
@given(graphs, st.sampled_from(NODES[:-1]), depths, directions)
def test_invariants(out, root, depth, direction) -> None:
    edges = run(out, root, depth, direction)
    limit = clamp_depth(depth)
    back = reverse_of(out)
    passes = {
        "out": [e for e in edges if e.direction == "out"],
        "in": [e for e in edges if e.direction == "in"],
    }
    if direction != "both":
        assert not passes["in" if direction == "out" else "out"]
    else:  # the whole out pass comes first
        labels = [e.direction for e in edges]
        assert labels == sorted(labels, key=lambda d: d != "out")
    for pass_edges in passes.values():
        hops = [e.hop for e in pass_edges]
        assert hops == sorted(hops)  # non-decreasing within a pass
        assert all(1 <= h <= limit for h in hops)
        expanded: dict[str, int] = {}
        for edge in pass_edges:
            if edge.direction == "out":
                assert edge.to in out.get(edge.frm, ())  # a real link
            else:
                assert edge.frm in out.get(edge.to, ())  # a real link, reversed
                assert edge.to in back.get(edge.frm, ())
            expanded.setdefault(edge.frm, edge.hop)
            # every edge from a node comes from its single expansion at one hop
            assert expanded[edge.frm] == edge.hop
        if pass_edges:
            assert pass_edges[0].frm == root
        # an expanded node other than the root was reached one hop earlier
        reached = {e.to: e.hop for e in reversed(pass_edges)}
        for node, hop in expanded.items():
            if node != root:
                assert reached[node] == hop - 1


@settings(max_examples=100, deadline=None)
@given(graphs, st.sampled_from(NODES[:-1]))
def test_each_node_expanded_at_most_once_per_pass(out, root) -> None:
    calls: list[str] = []
    back = reverse_of(out)

    def counted(table: dict[str, tuple[str, ...]]):
        def neighbours(slug: str) -> Sequence[str]:
            calls.append(slug)
            return table.get(slug, ())

        return neighbours

    traverse_with(root, 10, "out", counted(out), counted(back))
    assert len(calls) == len(set(calls))
    calls.clear()
    traverse_with(root, 10, "in", counted(out), counted(back))
    assert len(calls) == len(set(calls))
