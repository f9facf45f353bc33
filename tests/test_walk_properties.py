"""Property tests of the weighted best-path walk (`core.graph.best_paths.best_paths`)
on small random weighted graphs, against a brute-force enumerator of every path within `max_hops`.

Weights are dyadic fractions with small numerators, so every product of up to ten of
them is exact in floating point: ties are real ties, and the comparison is exact.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okf_explorer.core.graph.best_paths import WeightedStep, best_paths

pytestmark = pytest.mark.plain

NODES = [f"p{i}" for i in range(6)]
WEIGHTS = [1.0, 0.75, 0.5, 0.375, 0.25, 0.125]
RELS = ["links", "related_to"]

steps_of = st.tuples(
    st.sampled_from(NODES), st.sampled_from(RELS), st.sampled_from(["out", "in"]),
    st.sampled_from(WEIGHTS),
)  # fmt: skip
graphs = st.dictionaries(
    keys=st.sampled_from(NODES),
    values=st.lists(steps_of, max_size=5).map(lambda rows: tuple(WeightedStep(*r) for r in rows)),
    max_size=6,
)
roots_of = st.lists(st.sampled_from(NODES), min_size=1, max_size=3)
hops_of = st.integers(min_value=1, max_value=4)
thresholds = st.sampled_from([0.0, 0.2, 0.3, 0.5, 0.8, 1.0])


def brute_force(
    graph: dict[str, tuple[WeightedStep, ...]], roots: list[str], hops: int, minimum: float
) -> dict[str, tuple[float, int, tuple[str, ...]]]:
    """node → (weight, hops, path) of its best path: every walk of at most `hops` edges
    of weight ≥ `minimum` from every root, the best by the documented order."""
    best: dict[str, tuple[float, int, tuple[str, ...]]] = {}

    def consider(path: tuple[str, ...], weight: float) -> None:
        node = path[-1]
        if node in roots and len(path) > 1:
            return  # roots keep weight 1 and hop 0
        key = (-weight, len(path) - 1, path)
        held = best.get(node)
        if held is None or key < (-held[0], held[1], held[2]):
            best[node] = (weight, len(path) - 1, path)

    def extend(path: tuple[str, ...], weight: float) -> None:
        consider(path, weight)
        if len(path) - 1 == hops:
            return
        for step in graph.get(path[-1], ()):
            if step.weight >= minimum:
                extend((*path, step.to), weight * step.weight)

    for root in roots:
        extend((root,), 1.0)
    return best


def steps(graph: dict[str, tuple[WeightedStep, ...]]):
    return lambda node: graph.get(node, ())


@settings(max_examples=300, deadline=None)
@given(graphs, roots_of, hops_of, thresholds)
def test_the_best_path_is_the_maximum_product_path(graph, roots, hops, minimum) -> None:
    """Every node gets exactly the brute-force best: weight, hops and path."""
    rows = best_paths(roots, steps(graph), hops, minimum)
    expected = brute_force(graph, roots, hops, minimum)
    assert {row.slug: (row.weight, row.hop_count, row.path) for row in rows} == expected


@settings(max_examples=200, deadline=None)
@given(graphs, roots_of, hops_of, thresholds)
def test_paths_are_real_edges_above_the_threshold(graph, roots, hops, minimum) -> None:
    """Each hop is an edge of the graph of weight ≥ the threshold; a path's weight is the
    product of its hops; no path repeats a page or is longer than `max_hops`."""
    for row in best_paths(roots, steps(graph), hops, minimum):
        assert row.path[0] in roots and row.path[-1] == row.slug
        assert len(row.hops) == len(row.path) - 1 <= hops
        assert len(set(row.path)) == len(row.path)
        product = 1.0
        for hop, frm, to in zip(row.hops, row.path, row.path[1:], strict=False):
            assert (hop.frm, hop.to) == (frm, to)
            assert hop.weight >= minimum
            assert WeightedStep(to, hop.rel, hop.direction, hop.weight) in graph[frm]
            product *= hop.weight
        assert row.weight == product


@settings(max_examples=200, deadline=None)
@given(graphs, roots_of, hops_of, thresholds)
def test_roots_keep_weight_one_and_rows_are_sorted(graph, roots, hops, minimum) -> None:
    rows = best_paths(roots, steps(graph), hops, minimum)
    by_slug = {row.slug: row for row in rows}
    for root in roots:
        assert by_slug[root].weight == 1.0 and by_slug[root].path == (root,)
    keys = [(-row.weight, row.hop_count, row.slug) for row in rows]
    assert keys == sorted(keys)


def test_a_better_longer_path_wins_and_ties_go_to_fewer_hops_then_code_points() -> None:
    graph = {
        "r": (WeightedStep("x", "links", "out", 0.25), WeightedStep("a", "links", "out", 1.0)),
        "a": (WeightedStep("x", "links", "out", 0.5), WeightedStep("y", "links", "out", 0.5)),
        "s": (WeightedStep("y", "links", "out", 0.5), WeightedStep("r", "links", "out", 1.0)),
    }
    rows = {row.slug: row for row in best_paths(["s", "r"], steps(graph), 2)}
    assert rows["x"].path == ("r", "a", "x") and rows["x"].weight == 0.5
    assert rows["y"].path == ("s", "y")  # 0.5 in 1 hop beats r → a → y (0.5 in 2)
    assert rows["r"].path == ("r",) and rows["r"].weight == 1.0  # a root stays a root
    tie = {"b": (WeightedStep("t", "links", "out", 0.5),), "a": graph["a"][:1]}
    rows = {row.slug: row for row in best_paths(["b", "a"], steps(tie), 1)}
    assert rows["t"].path == ("b", "t") and rows["x"].path == ("a", "x")
    same = {"a": (WeightedStep("t", "links", "out", 0.5),), "b": tie["b"]}
    assert {row.slug: row.path for row in best_paths(["b", "a"], steps(same), 1)}["t"] == (
        "a",
        "t",
    )
