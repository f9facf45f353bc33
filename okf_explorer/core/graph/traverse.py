"""The graph engine (SPEC §4): depth clamping, breadth-first traversal and edges.

`traverse_with` is the pure BFS over two neighbour functions, so the same walk
runs over the local index or a server's stored graph. `Edge` is the one record of an
edge every walk, path and trail gives; `edge_records` is its SPEC §5 shape, what every
export and every `--json` answer holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain, filterfalse, repeat
from typing import Any, Literal, NamedTuple

from okf_explorer.core.errors import OkfError
from okf_explorer.core.fast_paths import gc_paused

Direction = Literal["out", "in", "both", "neighbourhood"]
DIRECTIONS: tuple[Direction, ...] = ("out", "in", "both")
"""SPEC §4's directions (what gbrain-shaped tools accept)."""
WALK_DIRECTIONS: tuple[Direction, ...] = (*DIRECTIONS, "neighbourhood")
"""Every direction a walk takes: `neighbourhood` ignores which way a link points."""
DEPTH_CAP = 10

LINKS = "links"
"""The relation of a link in a page's body (SPEC §5 `rel`)."""

Neighbours = Callable[[str], Sequence[str]]
"""`neighbours(node)` → adjacent nodes (de-duplicated); `()` for a leaf or dangling node.

May raise an `OkfError` (a page that cannot be read); see `traverse_with`.
"""

Relations = Callable[[str], Sequence[str] | None]
"""`relations(node)` → the relation of each of `neighbours(node)`, aligned with it;
None when they are all `links`."""


class _EdgeFields(NamedTuple):
    frm: str
    to: str
    hop: int
    direction: Literal["out", "in"]


class Edge(_EdgeFields):
    """One edge of a traversal: `(frm, to, hop, direction)`, and its relation `rel`.

    For `in` edges `frm` is the page walked from and `to` the page linking to it.
    `rel` (`links` unless set) is an attribute beside the tuple, so an `Edge` is
    still SPEC §4's 4-tuple and compares equal to one; build a typed edge with
    `Edge.typed`. A walk over a server's stored graph also keeps what the
    server said of the link: `link_source` and `context` (None otherwise).
    `implied` marks an edge no page states, the inverse of one that is stated
    (`core.graph.implied`): walked only when asked for, and so marked everywhere.
    """

    rel: str = LINKS
    link_source: str | None = None
    context: str | None = None
    implied: bool = False

    @classmethod
    def typed(
        cls, frm: str, to: str, hop: int, direction: Literal["out", "in"], rel: str = LINKS
    ) -> Edge:
        edge = cls(frm, to, hop, direction)
        if rel != LINKS:
            edge.rel = rel
        return edge

    def __repr__(self) -> str:
        base = super().__repr__()
        return base if self.rel == LINKS else f"{base[:-1]}, rel={self.rel!r})"


def edge_records(edges: Iterable[Edge]) -> list[dict[str, Any]]:
    """SPEC §5 records, in traversal order, with exactly these keys in this order; an
    implied edge (walked only when asked for) adds `"implied": true` last."""
    records = []
    for edge in edges:
        record = {
            "type": "edge",
            "hemisphere": "knowledge",
            "from": edge.frm,
            "to": edge.to,
            "rel": edge.rel,
            "direction": edge.direction,
            "hop": edge.hop,
        }
        if edge.implied:
            record["implied"] = True
        records.append(record)
    return records


def relation_filter(
    adjacency: Mapping[str, Sequence[str]],
    relations: Mapping[str, Sequence[str]],
    wanted: frozenset[str],
) -> tuple[Neighbours, Relations]:
    """Neighbour and relation functions over `adjacency` that keep only edges whose
    relation is in `wanted` (`relations[node]` aligned with `adjacency[node]`;
    absent means all `links`)."""

    def kept(node: str) -> list[tuple[str, str]]:
        nodes = adjacency.get(node, ())
        named = relations.get(node) or (LINKS,) * len(nodes)
        return [(n, rel) for n, rel in zip(nodes, named, strict=True) if rel in wanted]

    def neighbours(node: str) -> Sequence[str]:
        return [n for n, _ in kept(node)]

    def named(node: str) -> Sequence[str] | None:
        return [rel for _, rel in kept(node)]

    return neighbours, named


def clamp_depth(value: object) -> int:
    """An int in [1, DEPTH_CAP]; anything that is not an int (bools included) → 1."""
    if isinstance(value, bool) or not isinstance(value, int):
        return 1
    return max(1, min(DEPTH_CAP, value))


def check_direction(direction: object) -> Direction:
    """`direction` itself when it is one of `WALK_DIRECTIONS`; else `ValueError`."""
    if direction not in WALK_DIRECTIONS:
        choices = ", ".join(WALK_DIRECTIONS)
        raise ValueError(f"direction must be one of {choices}, not {direction!r}")
    return direction  # type: ignore[return-value]


def traverse_with(
    root: str,
    depth: object,
    direction: Direction,
    out_neighbours: Neighbours,
    in_neighbours: Neighbours,
    out_relations: Relations | None = None,
    in_relations: Relations | None = None,
) -> list[Edge]:
    """Breadth-first edges from `root` (SPEC §4), in traversal order.

    With `out_relations` / `in_relations`, each edge's `rel` is set from them
    (a node reached by two relations is listed twice by the neighbour function
    and yields two edges); without, every edge is `links`.

    `both` is the whole `out` pass followed by the whole `in` pass. Each pass has
    its own visited set starting at the root. Every neighbour of every frontier
    node yields an edge, visited or not (a→b→a gives `(a,b,1)` then `(b,a,2)`);
    a visited node is never expanded again; a pass stops once its frontier is
    empty. An `OkfError` from the neighbour function propagates for the root (a
    down server must not look like an empty graph) and is skipped for deeper
    nodes, which then count as leaves.

    `neighbourhood` is one pass with one visited set that follows links either
    way, hop by hop: each frontier node yields its `out` edges, then its `in`
    edges (each labelled so, SPEC §5), and the next frontier is every new page
    either reached.
    """
    hops = clamp_depth(depth)
    direction = check_direction(direction)
    edges: list[Edge] = []
    # Edges hold only str and int, so they can never form a cycle; yet every one
    # is a tracked object, and the cyclic collector re-walking half a million of
    # them slows a deep walk down (see `fast_paths.gc_paused`): pause it meanwhile.
    with gc_paused():
        if direction == "neighbourhood":
            sides = ((out_neighbours, out_relations), (in_neighbours, in_relations))
            _undirected_pass(root, hops, sides, edges)
            return edges
        if direction in ("out", "both"):
            _bfs_pass(root, hops, "out", out_neighbours, edges, out_relations)
        if direction in ("in", "both"):
            _bfs_pass(root, hops, "in", in_neighbours, edges, in_relations)
    return edges


def _bfs_pass(
    root: str,
    hops: int,
    label: Literal["out", "in"],
    neighbours: Neighbours,
    edges: list[Edge],
    relations: Relations | None = None,
) -> None:
    """One direction of the walk, appending to `edges` (typed by `relations`, if given).

    Hot path (depth 10 over 100k pages, ~1M edges): no per-edge bytecode and
    little per-node bytecode. Each hop asks for every frontier node's
    neighbours through `map` (see `_neighbours_of`), then builds all its edges
    at once by `map` over the C `tuple.__new__`. The next frontier is every
    node reached in this hop that was not visited, in order of first appearance:
    the visited test runs first (`filterfalse` over a set), so the
    de-duplicating `dict.fromkeys` only sees new nodes (most edges of a deep
    walk lead back to visited ones).
    """
    make = tuple.__new__
    extend = edges.extend
    visited = {root}
    frontier: list[str] = [root]
    for hop in range(1, hops + 1):
        # The root's errors propagate; deeper nodes that fail count as leaves.
        found = [neighbours(root)] if hop == 1 else _neighbours_of(frontier, neighbours)
        froms = chain.from_iterable(map(repeat, frontier, map(len, found)))
        tos = chain.from_iterable(found)
        start = len(edges)
        extend(map(make, repeat(Edge), zip(froms, tos, repeat(hop), repeat(label))))
        if relations is not None:
            _name_relations(edges, start, frontier, found, relations)
        fresh = filterfalse(visited.__contains__, chain.from_iterable(found))
        frontier = list(dict.fromkeys(fresh))
        if not frontier:
            return
        visited.update(frontier)


def _undirected_pass(
    root: str,
    hops: int,
    sides: tuple[tuple[Neighbours, Relations | None], tuple[Neighbours, Relations | None]],
    edges: list[Edge],
) -> None:
    """The `neighbourhood` walk: per hop, each frontier node's out then in edges."""
    make = tuple.__new__
    labels: tuple[Literal["out", "in"], Literal["out", "in"]] = ("out", "in")
    visited = {root}
    frontier: list[str] = [root]
    for hop in range(1, hops + 1):
        found = [
            [neighbours(root)] if hop == 1 else _neighbours_of(frontier, neighbours)
            for neighbours, _ in sides
        ]
        for position, node in enumerate(frontier):
            for (_, relations), label, side in zip(sides, labels, found, strict=True):
                reached = side[position]
                start = len(edges)
                edges.extend(make(Edge, (node, to, hop, label)) for to in reached)
                if relations is not None:
                    _name_relations(edges, start, [node], [reached], relations)
        reached_now = chain.from_iterable(
            chain(outs, ins) for outs, ins in zip(found[0], found[1], strict=True)
        )
        frontier = list(dict.fromkeys(filterfalse(visited.__contains__, reached_now)))
        if not frontier:
            return
        visited.update(frontier)


def _name_relations(
    edges: list[Edge],
    start: int,
    frontier: list[str],
    found: list[Sequence[str]],
    relations: Relations,
) -> None:
    """Set `rel` on the edges one hop added from `start` on (`found[i]` are the
    neighbours of `frontier[i]`, in the order the edges were made)."""
    at = start
    for node, neighbours in zip(frontier, found, strict=True):
        named = relations(node) if neighbours else None
        if named:
            for offset, rel in enumerate(named):
                if rel != LINKS:
                    edges[at + offset].rel = rel
        at += len(neighbours)


def _neighbours_of(frontier: list[str], neighbours: Neighbours) -> list[Sequence[str]]:
    """`neighbours(node)` of each node, in order; `()` for a node whose call raised an
    `OkfError` (a leaf, per `traverse_with`). Each node is asked exactly once:
    `list.extend` keeps what `map` produced before an error, and the iterator
    resumes after the failed node."""
    found: list[Sequence[str]] = []
    pending = iter(frontier)
    while True:
        try:
            found.extend(map(neighbours, pending))
        except OkfError:
            found.append(())
            continue
        return found
