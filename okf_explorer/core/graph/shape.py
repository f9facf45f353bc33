"""The shape of the whole graph (`okf-explorer analyze`, the MCP `analyze` tool, the
TUI's `s` dialog): communities, central pages, bridges and suggested links.

Everything is computed on the index's *projection*: its existing pages, one edge
between two different pages however many links or relations join them (stated
ones only: implied inverse edges add nothing), direction dropped for communities
and bridges, kept for PageRank and in-degree. Dangling targets are not pages and
take no part.

- **communities**: Louvain with fast local moving (`core.graph.louvain`: networkx's
  levels and moves, Leiden's queue of pages to look at again; resolution 1, seed
  `SEED`, so the answer is the same run to run) on the undirected projection. They
  partition the pages (a page linked to nothing is a community of one). Each is
  labelled by its most central page (highest PageRank; ties: slug order) and numbered
  by size, largest first (ties: label).
- **central pages**: PageRank (`core.graph.pagerank`) side by side with in-degree
  (distinct other pages linking in), ranked by PageRank (ties: in-degree, slug).
- **bridges**: pages whose removal splits their component (articulation points)
  with `splits`, the sizes of the parts left, largest first; ranked by how many
  pages they cut off from the largest part, most first (ties: slug). **Bridge
  edges**: single edges whose removal splits a component, given in a direction
  some link has, ranked by the smaller side, most first. networkx answers which
  pages and edges these are but not what they split, so one depth-first pass over
  the projection (Hopcroft-Tarjan, iterative) finds both with the sizes;
  `tests/test_analyze.py` holds it to `nx.articulation_points` / `nx.bridges`.
- **suggested links**: `core.graph.suggested`.

`analyze(index, top)` lists at most `top` of each (communities of two pages or
more only); `Brain.communities()` gives the whole partition (for colouring a graph).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from okf_explorer.core.graph.louvain import louvain
from okf_explorer.core.graph.pagerank import pagerank
from okf_explorer.core.graph.projection import Projection, in_degrees, project
from okf_explorer.core.graph.suggested import Suggestion, suggestions
from okf_explorer.core.index.model import LinkIndex

SEED = 27
"""Louvain's seed: any fixed number makes communities stable run to run."""
TOP = 10
"""How many of each the analysis lists by default (`--top`)."""


@dataclass(frozen=True, slots=True)
class Community:
    id: int
    label: str
    """Its most central page."""
    pages: tuple[str, ...]
    """Slug order."""

    @property
    def size(self) -> int:
        return len(self.pages)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "size": self.size, "pages": list(self.pages)}


@dataclass(frozen=True, slots=True)
class Central:
    slug: str
    pagerank: float
    in_degree: int

    def to_json(self) -> dict[str, Any]:
        return {"slug": self.slug, "pagerank": round(self.pagerank, 6), "in_degree": self.in_degree}


@dataclass(frozen=True, slots=True)
class Bridge:
    slug: str
    splits: tuple[int, ...]
    """Sizes of the parts its component falls into without it, largest first."""

    @property
    def cut_off(self) -> int:
        """Pages it cuts off from the largest part."""
        return sum(self.splits) - self.splits[0]

    def to_json(self) -> dict[str, Any]:
        return {"slug": self.slug, "splits": list(self.splits)}


@dataclass(frozen=True, slots=True)
class BridgeEdge:
    frm: str
    to: str
    smaller: int
    """Pages on the smaller side once it is cut."""

    def to_json(self) -> dict[str, Any]:
        return {"from": self.frm, "to": self.to}


@dataclass(frozen=True, slots=True)
class GraphShape:
    """What `analyze` answers; every list already ranked and cut to `top`."""

    communities: tuple[Community, ...]
    central: tuple[Central, ...]
    bridges: tuple[Bridge, ...]
    bridge_edges: tuple[BridgeEdge, ...]
    suggested: tuple[Suggestion, ...]

    def to_json(self) -> dict[str, Any]:
        """The `analyze --json` object (SPEC §6)."""
        return {
            "communities": [c.to_json() for c in self.communities],
            "central": [c.to_json() for c in self.central],
            "bridges": [b.to_json() for b in self.bridges],
            "bridge_edges": [e.to_json() for e in self.bridge_edges],
            "suggested": [s.to_json() for s in self.suggested],
        }


# -- communities ------------------------------------------------------------------


def communities(projection: Projection, ranks: dict[str, float]) -> list[Community]:
    """Every community (the partition), numbered and labelled as the module doc says."""
    found = louvain(projection.nodes, projection.undirected, SEED)
    ranked = []
    for members in found:
        pages = tuple(sorted(members))
        label = min(pages, key=lambda slug: (-ranks[slug], slug))
        ranked.append((pages, label))
    ranked.sort(key=lambda item: (-len(item[0]), item[1]))
    return [Community(i, label, pages) for i, (pages, label) in enumerate(ranked, 1)]


# -- bridges ----------------------------------------------------------------------


def cut_points(projection: Projection) -> tuple[list[Bridge], list[BridgeEdge]]:
    """Articulation pages with what they split, and bridge edges with their smaller
    side, in no order (one iterative depth-first pass a component)."""
    adjacency = projection.undirected
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    size: dict[str, int] = {}
    bridges: list[Bridge] = []
    edges: list[BridgeEdge] = []
    for root in projection.nodes:
        if root in order:
            continue
        parts: dict[str, list[int]] = {}  # page → sizes of the subtrees it cuts off
        first = len(edges)
        component = _dfs(root, adjacency, order, low, size, parts, edges, projection)
        for slug, cut in parts.items():
            if slug == root:
                if len(cut) < 2:
                    continue
                pieces = cut
            else:
                pieces = [*cut, component - 1 - sum(cut)]
            bridges.append(Bridge(slug, tuple(sorted(pieces, reverse=True))))
        edges[first:] = [_sized(edge, component) for edge in edges[first:]]
    return bridges, edges


def _sized(edge: BridgeEdge, component: int) -> BridgeEdge:
    below = -edge.smaller - 1
    return BridgeEdge(edge.frm, edge.to, min(below, component - below))


def _dfs(
    root: str,
    adjacency: dict[str, set[str]],
    order: dict[str, int],
    low: dict[str, int],
    size: dict[str, int],
    parts: dict[str, list[int]],
    edges: list[BridgeEdge],
    projection: Projection,
) -> int:
    """One component's pass; returns its size. Bridge edges found here are stored
    with `smaller = -(subtree size) - 1` until the component's size is known."""
    counter = len(order)
    order[root] = low[root] = counter
    size[root] = 1
    stack: list[tuple[str, str | None, list[str]]] = [(root, None, sorted(adjacency[root]))]
    while stack:
        node, parent, pending = stack[-1]
        if pending:
            other = pending.pop()
            if other == parent:
                continue
            if other in order:
                low[node] = min(low[node], order[other])
                continue
            counter += 1
            order[other] = low[other] = counter
            size[other] = 1
            stack.append((other, node, sorted(adjacency[other])))
            continue
        stack.pop()
        if parent is None:
            continue
        size[parent] += size[node]
        low[parent] = min(low[parent], low[node])
        if low[node] >= order[parent]:
            parts.setdefault(parent, []).append(size[node])
        if low[node] > order[parent]:
            frm, to = (parent, node) if projection.linked_out(parent, node) else (node, parent)
            edges.append(BridgeEdge(frm, to, -size[node] - 1))
    return size[root]


def ranked_bridges(projection: Projection) -> list[Bridge]:
    """Every bridge page, ranked as `analyze` ranks them (the TUI's `s` dialog lists
    them without the rest of the analysis)."""
    bridges, _ = cut_points(projection)
    return sorted(bridges, key=_bridge_rank)


def _bridge_rank(bridge: Bridge) -> tuple[int, str]:
    return -bridge.cut_off, bridge.slug


def splits_text(sizes: tuple[int, ...]) -> str:
    """`12 + 3 + 1`, a run of equal sizes written once with its count: `6502 + 68×1`."""
    runs: list[list[int]] = []
    for size in sizes:
        if runs and runs[-1][0] == size:
            runs[-1][1] += 1
        else:
            runs.append([size, 1])
    return " + ".join(str(size) if count == 1 else f"{count}×{size}" for size, count in runs)


# -- the whole analysis -----------------------------------------------------------


def analyze(
    index: LinkIndex,
    top: int = TOP,
    mentions: Callable[[str], Sequence[str]] | None = None,
    projection: Projection | None = None,
    partitioned: Sequence[Community] | None = None,
) -> GraphShape:
    """The analysis of the module doc, each list cut to `top`; `mentions(slug)` names
    the pages that mention `slug` without linking to it (see `core.graph.suggested`);
    `projection` and `partitioned` (its communities, `partition`) when already made."""
    top = max(0, top)
    projection = projection or project(index)
    ranks = pagerank(projection.nodes, projection.out)
    degrees = in_degrees(projection)
    if partitioned is None:
        partitioned = communities(projection, ranks)
    found = [c for c in partitioned if c.size > 1][:top]
    central = sorted(projection.nodes, key=lambda slug: (-ranks[slug], -degrees[slug], slug))
    bridges, edges = cut_points(projection)
    bridges.sort(key=_bridge_rank)
    edges.sort(key=lambda edge: (-edge.smaller, edge.frm, edge.to))
    leaders = central[:top]
    return GraphShape(
        communities=tuple(found),
        central=tuple(Central(slug, ranks[slug], degrees[slug]) for slug in leaders),
        bridges=tuple(bridges[:top]),
        bridge_edges=tuple(edges[:top]),
        suggested=tuple(suggestions(index, projection, leaders, mentions, top)),
    )


def partition(index: LinkIndex, projection: Projection | None = None) -> list[Community]:
    """Every community of `index` (`Brain.communities`); `projection` is its projection
    when already made."""
    projection = projection or project(index)
    return communities(projection, pagerank(projection.nodes, projection.out))
