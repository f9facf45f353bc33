"""The breadth-first walk of SPEC §4 (`traverse_with`) and depth clamping."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from okf_explorer.core.errors import PageUnreadable, SourceUnavailable
from okf_explorer.core.graph.traverse import DEPTH_CAP, Edge, clamp_depth, traverse_with

pytestmark = pytest.mark.plain

Adjacency = Mapping[str, Sequence[str]]


def reverse_of(out: Adjacency) -> dict[str, tuple[str, ...]]:
    """Who links to whom, linking pages in slug order (as the index keeps it)."""
    back: dict[str, list[str]] = {}
    for frm, targets in out.items():
        for to in targets:
            back.setdefault(to, []).append(frm)
    return {node: tuple(sorted(set(froms))) for node, froms in back.items()}


def walk(out: Adjacency, root: str, depth: object = 1, direction: str = "out") -> list[Edge]:
    back = reverse_of(out)
    return traverse_with(
        root, depth, direction, lambda s: out.get(s, ()), lambda s: back.get(s, ())
    )


def tuples(edges: list[Edge]) -> list[tuple[str, str, int, str]]:
    return [tuple(edge) for edge in edges]


def test_cycle_yields_the_edge_back_to_a_visited_node() -> None:
    edges = walk({"a": ("b",), "b": ("a",)}, "a", depth=3)
    assert tuples(edges) == [("a", "b", 1, "out"), ("b", "a", 2, "out")]


def test_edges_are_edge_named_tuples() -> None:
    edge = walk({"a": ("b",)}, "a")[0]
    assert isinstance(edge, Edge)
    assert (edge.frm, edge.to, edge.hop, edge.direction) == ("a", "b", 1, "out")


def test_breadth_first_order_and_hops() -> None:
    out = {"a": ("b", "c"), "b": ("d",), "c": ("d", "e"), "d": ("f",)}
    assert tuples(walk(out, "a", depth=3)) == [
        ("a", "b", 1, "out"),
        ("a", "c", 1, "out"),
        ("b", "d", 2, "out"),
        ("c", "d", 2, "out"),
        ("c", "e", 2, "out"),
        ("d", "f", 3, "out"),
    ]


def test_depth_limits_the_walk() -> None:
    out = {"a": ("b",), "b": ("c",), "c": ("d",)}
    assert [e.to for e in walk(out, "a", depth=2)] == ["b", "c"]


def test_in_follows_the_reverse_index_and_records_the_walk() -> None:
    out = {"x": ("a",), "y": ("a",), "z": ("x",)}
    assert tuples(walk(out, "a", depth=2, direction="in")) == [
        ("a", "x", 1, "in"),
        ("a", "y", 1, "in"),
        ("x", "z", 2, "in"),
    ]


def test_both_is_the_whole_out_pass_then_the_whole_in_pass() -> None:
    out = {"a": ("b",), "b": ("c",), "x": ("a",), "y": ("x",)}
    edges = tuples(walk(out, "a", depth=2, direction="both"))
    assert edges == [
        ("a", "b", 1, "out"),
        ("b", "c", 2, "out"),
        ("a", "x", 1, "in"),
        ("x", "y", 2, "in"),
    ]


def test_each_pass_has_its_own_visited_set() -> None:
    # b is visited by the out pass; the in pass must still reach and expand it.
    out = {"a": ("b",), "b": ("a",), "c": ("b",)}
    edges = tuples(walk(out, "a", depth=2, direction="both"))
    assert edges == [
        ("a", "b", 1, "out"),
        ("b", "a", 2, "out"),
        ("a", "b", 1, "in"),
        ("b", "a", 2, "in"),
        ("b", "c", 2, "in"),
    ]


def test_a_visited_node_is_never_expanded_again() -> None:
    calls: list[str] = []
    out = {"a": ("b", "c"), "b": ("c", "a"), "c": ("b", "a")}

    def links_out(slug: str) -> Sequence[str]:
        calls.append(slug)
        return out.get(slug, ())

    edges = traverse_with("a", 10, "out", links_out, lambda s: ())
    assert sorted(calls) == ["a", "b", "c"]
    assert len(edges) == 6  # every neighbour of every expanded node still yields an edge


def test_walk_stops_early_when_the_frontier_is_empty() -> None:
    calls: list[str] = []
    out = {"a": ("b",)}

    def links_out(slug: str) -> Sequence[str]:
        calls.append(slug)
        return out.get(slug, ())

    edges = traverse_with("a", 10, "out", links_out, lambda s: ())
    assert tuples(edges) == [("a", "b", 1, "out")]
    assert calls == ["a", "b"]  # b expanded once (no links), then nothing left to walk


def test_self_link_yields_an_edge_and_no_expansion() -> None:
    assert tuples(walk({"a": ("a", "b")}, "a", depth=3)) == [
        ("a", "a", 1, "out"),
        ("a", "b", 1, "out"),
    ]


def test_root_with_no_links_gives_no_edges() -> None:
    assert walk({}, "lonely", depth=5, direction="both") == []


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, 1),
        (-3, 1),
        ("abc", 1),
        (9999, DEPTH_CAP),
        (True, 1),
        (False, 1),
        (None, 1),
        (2.5, 1),
        ("3", 1),
        (1, 1),
        (7, 7),
        (DEPTH_CAP, DEPTH_CAP),
    ],
)
def test_clamp_depth(value: object, expected: int) -> None:
    assert clamp_depth(value) == expected


@pytest.mark.parametrize("depth", [0, -3, "abc", True, None])
def test_walk_clamps_odd_depths_to_one_hop(depth: object) -> None:
    out = {"a": ("b",), "b": ("c",)}
    assert tuples(walk(out, "a", depth=depth)) == [("a", "b", 1, "out")]


def test_walk_clamps_huge_depths_to_the_cap() -> None:
    chain = {f"p{i}": (f"p{i + 1}",) for i in range(30)}
    edges = walk(chain, "p0", depth=9999)
    assert len(edges) == DEPTH_CAP
    assert edges[-1].hop == DEPTH_CAP


def test_unknown_direction_is_refused() -> None:
    with pytest.raises(ValueError, match="direction"):
        walk({"a": ("b",)}, "a", direction="sideways")


@pytest.mark.parametrize("direction", ["out", "in", "both", "neighbourhood"])
def test_an_error_for_the_root_propagates(direction: str) -> None:
    def down(slug: str) -> Sequence[str]:
        raise SourceUnavailable("server is unreachable")

    with pytest.raises(SourceUnavailable):
        traverse_with("a", 3, direction, down, down)


def test_in_pass_root_error_propagates_after_the_out_pass() -> None:
    def down(slug: str) -> Sequence[str]:
        raise SourceUnavailable("server is unreachable")

    with pytest.raises(SourceUnavailable):
        traverse_with("a", 3, "both", lambda s: ("b",), down)


def test_an_error_for_a_deeper_page_is_skipped() -> None:
    out = {"a": ("bad", "c"), "c": ("d",), "bad": ("never",)}

    def links_out(slug: str) -> Sequence[str]:
        if slug == "bad":
            raise PageUnreadable("bad", "not valid UTF-8")
        return out.get(slug, ())

    edges = traverse_with("a", 3, "out", links_out, lambda s: ())
    assert tuples(edges) == [("a", "bad", 1, "out"), ("a", "c", 1, "out"), ("c", "d", 2, "out")]


def test_non_okf_errors_are_bugs_and_propagate() -> None:
    def broken(slug: str) -> Sequence[str]:
        if slug == "b":
            raise KeyError(slug)
        return ("b",)

    with pytest.raises(KeyError):
        traverse_with("a", 3, "out", broken, lambda s: ())


def test_dangling_targets_are_leaves() -> None:
    out = {"a": ("ghost", "b"), "b": ("ghost",)}
    asked: list[str] = []

    def links_out(slug: str) -> Sequence[str]:
        asked.append(slug)
        return out.get(slug, ())  # a dangling node has no links: never raises

    edges = traverse_with("a", 5, "out", links_out, lambda s: ())
    assert tuples(edges) == [
        ("a", "ghost", 1, "out"),
        ("a", "b", 1, "out"),
        ("b", "ghost", 2, "out"),
    ]
    assert asked.count("ghost") <= 1


def test_several_failing_pages_in_one_hop_are_each_asked_once_and_skipped() -> None:
    out = {"r": ("x1", "ok1", "x2", "x3", "ok2", "x4"), "ok1": ("d1",), "ok2": ("d2",)}
    asked: list[str] = []

    def links_out(slug: str) -> Sequence[str]:
        asked.append(slug)
        if slug.startswith("x"):
            raise PageUnreadable(slug, "not valid UTF-8")
        return out.get(slug, ())

    edges = traverse_with("r", 3, "out", links_out, lambda s: ())
    assert tuples(edges)[6:] == [("ok1", "d1", 2, "out"), ("ok2", "d2", 2, "out")]
    assert asked == ["r", "x1", "ok1", "x2", "x3", "ok2", "x4", "d1", "d2"]


def test_neighbourhood_follows_links_either_way_hop_by_hop_with_one_visited_set() -> None:
    # a → b ← c → d: from b, a and c are one hop away (b's own link out, c's link in),
    # d two hops (c links to it); `both` would never reach d from b.
    out = {"a": ("b",), "b": (), "c": ("b", "d")}
    edges = walk(out, "b", depth=3, direction="neighbourhood")
    assert tuples(edges) == [
        ("b", "a", 1, "in"),
        ("b", "c", 1, "in"),
        ("a", "b", 2, "out"),
        ("c", "b", 2, "out"),
        ("c", "d", 2, "out"),
        ("d", "c", 3, "in"),
    ]
    assert "d" not in {edge.to for edge in walk(out, "b", depth=3, direction="both")}


def test_neighbourhood_expands_a_page_reached_both_ways_once() -> None:
    out = {"r": ("x",), "x": ("r", "y")}
    edges = walk(out, "r", depth=2, direction="neighbourhood")
    assert tuples(edges) == [
        ("r", "x", 1, "out"),
        ("r", "x", 1, "in"),
        ("x", "r", 2, "out"),
        ("x", "y", 2, "out"),
        ("x", "r", 2, "in"),
    ]
