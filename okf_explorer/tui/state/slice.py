"""Facts about a traversal slice that the panel shows without asking the source.

A slice is the edge list of one `traverse` call; the walk itself records how each
page was first reached, so the path from the root to any page in it can be read
back from the edges alone (a shortest path, since the walk is breadth-first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.state.navigator import View


@dataclass(frozen=True, slots=True)
class SliceSummary:
    """Node and edge counts of a slice; the root counts as a page even when alone.

    `pages` counts only pages that exist: dangling targets are `missing`, so a
    57-page brain never reads "60 pages".
    """

    pages: int
    edges: int
    missing: int = 0

    def __str__(self) -> str:
        page_word = "page" if self.pages == 1 else "pages"
        edge_word = "edge" if self.edges == 1 else "edges"
        missing = f" · {self.missing} missing" if self.missing else ""
        return f"{self.pages} {page_word}{missing} · {self.edges} {edge_word}"


def summarise(
    root: str, edges: Sequence[Edge], exists: Callable[[str], bool] | None = None
) -> SliceSummary:
    """Count the slice's pages; targets for which `exists` is False count as missing."""
    nodes = {root}
    for edge in edges:
        nodes.add(edge.to)
    missing = 0 if exists is None else sum(1 for node in nodes if not exists(node))
    return SliceSummary(pages=len(nodes) - missing, edges=len(edges), missing=missing)


def path_to(root: str, edges: Sequence[Edge], row: int, undirected: bool = False) -> list[str]:
    """The walk from `root` to the `to` page of edge number `row`.

    Each page's parent is the `frm` of the first edge of the same direction
    that reached it (of any direction for an `undirected` walk), so the path
    has one page per hop.
    """
    target = edges[row]
    parent: dict[str, str] = {}
    for edge in edges:
        same_way = undirected or edge.direction == target.direction
        if same_way and edge.to not in parent and edge.to != root:
            parent[edge.to] = edge.frm
    path = [target.to]
    node = target.to
    while node != root and node in parent and len(path) <= len(edges) + 1:
        node = parent[node]
        path.append(node)
    if path[-1] != root:
        path.append(root)
    path.reverse()
    return path


def format_path(path: Sequence[str], direction: str) -> str:
    """`index → tables → tables/orders`; `in` walks read with `←` (who links to whom),
    `neighbourhood` ones with `—` (linked either way)."""
    arrow = {"in": " ← ", "neighbourhood": " — "}.get(direction, " → ")
    return arrow.join(path)


def path_line(view: View, edges: Sequence[Edge], row: int) -> str:
    """The walk from `view`'s root to edge `row`'s page, as the info line shows it."""
    undirected = view.direction == "neighbourhood"
    path = [printable(node) for node in path_to(view.slug, edges, row, undirected=undirected)]
    return format_path(path, view.direction if undirected else edges[row].direction)


def slice_title(view: View) -> str:
    """`ROOT · depth N · DIRECTION` (SPEC §8), the root's controls shown as escapes, then
    `· rel R` while a relation filter is on; `ROOT · backlinks` for `b`."""
    if view.backlinks:
        title = f"{printable(view.slug)} · backlinks"
    else:
        title = f"{printable(view.slug)} · depth {view.depth} · {view.direction}"
    return title if view.rel is None else f"{title} · rel {printable(view.rel)}"
