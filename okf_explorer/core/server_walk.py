"""Walking a server's stored link graph (the `Brain` fast path): one round trip a page,
memoised, and failing as a whole when the server goes away mid-walk."""

from __future__ import annotations

from collections.abc import Sequence

from okf_explorer.core.errors import AuthError, OkfError, SourceUnavailable
from okf_explorer.core.graph import Direction, Edge, NeighbourMemo, Neighbours, traverse_with
from okf_explorer.core.port import ServerGraph


class ServerWalk:
    """The server graph's answers, memoised until `refresh` (one round trip a page)."""

    def __init__(self, graph: ServerGraph) -> None:
        self.links_out = NeighbourMemo(graph.links_out)
        self.links_in = NeighbourMemo(graph.links_in)

    def walk(self, slug: str, depth: object, direction: Direction) -> list[Edge]:
        """`traverse_with` over the memos, failing fast when the whole source fails.

        `traverse_with` skips errors below the root; a `SourceUnavailable` or
        `AuthError` there is remembered, re-raised at once for every later page
        (no timeout per page), and raised after the walk: a server that went
        away mid-walk must not look like a smaller graph.
        """
        failures: list[OkfError] = []

        def guarded(ask: Neighbours) -> Neighbours:
            def neighbours(node: str) -> Sequence[str]:
                if failures:
                    raise failures[0]
                try:
                    return ask(node)
                except (SourceUnavailable, AuthError) as error:
                    failures.append(error)
                    raise

            return neighbours

        edges = traverse_with(
            slug, depth, direction, guarded(self.links_out), guarded(self.links_in)
        )
        if failures:
            raise failures[0]
        return edges
