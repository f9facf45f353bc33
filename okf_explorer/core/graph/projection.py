"""The projection every whole-graph analysis works on (`core.graph.shape`): the
index's existing pages, one edge between two different pages however many links or
relations join them (stated ones only), kept both directed and undirected.
"""

from __future__ import annotations

from dataclasses import dataclass

from okf_explorer.core.index.model import LinkIndex

Adjacency = dict[str, set[str]]


@dataclass(frozen=True, slots=True)
class Projection:
    """The index's pages and the distinct links between two different pages."""

    nodes: tuple[str, ...]
    """Slug order."""
    out: dict[str, tuple[str, ...]]
    """Directed: page → distinct other pages it links to (or states a relation to)."""
    undirected: Adjacency

    def linked(self, a: str, b: str) -> bool:
        """Whether a link joins `a` and `b`, either way."""
        return b in self.undirected[a]

    def linked_out(self, a: str, b: str) -> bool:
        """Whether `a` links to `b`."""
        return b in self.out[a]


def project(index: LinkIndex) -> Projection:
    """The projection described in the module doc."""
    pages = index.pages
    nodes = tuple(pages)
    out: dict[str, tuple[str, ...]] = {}
    undirected: Adjacency = {slug: set() for slug in nodes}
    for slug in nodes:
        targets = tuple(dict.fromkeys(t for t in index.out_slugs(slug) if t != slug and t in pages))
        out[slug] = targets
        mine = undirected[slug]
        for to in targets:
            mine.add(to)
            undirected[to].add(slug)
    return Projection(nodes, out, undirected)


def in_degrees(projection: Projection) -> dict[str, int]:
    counts = dict.fromkeys(projection.nodes, 0)
    for targets in projection.out.values():
        for to in targets:
            counts[to] += 1
    return counts
