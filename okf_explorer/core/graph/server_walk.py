"""Walking a server's stored link graph (the `Brain` fast path): one round trip a page,
memoised, and failing as a whole when the server goes away mid-walk."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from okf_explorer.core.errors import AuthError, OkfError, SourceUnavailable
from okf_explorer.core.graph.traverse import (
    LINKS,
    Direction,
    Edge,
    Neighbours,
    Relations,
    traverse_with,
)
from okf_explorer.core.port import ServerGraph, ServerLink, relation_of


class _TypedMemo:
    """A server graph's answers for one direction: per page, the `(slug, rel)` pairs in
    first-seen order without repeats. Errors are not remembered (a page can be asked
    again later); two threads may at worst ask for the same page once each."""

    def __init__(self, ask: Callable[[str], Sequence[str]]) -> None:
        self._ask = ask
        self._known: dict[str, tuple[tuple[str, str], ...]] = {}
        self._links: dict[tuple[str, str, str], ServerLink] = {}

    def pairs(self, node: str) -> tuple[tuple[str, str], ...]:
        found = self._known.get(node)
        if found is None:
            answers = self._ask(node)
            for slug in answers:
                if isinstance(slug, ServerLink):
                    self._links.setdefault((node, str(slug), slug.rel), slug)
            found = tuple(dict.fromkeys((str(slug), relation_of(slug)) for slug in answers))
            self._known[node] = found
        return found

    def links(self, node: str) -> list[str]:
        """The server's answers for `node`, one per (slug, relation): `ServerLink`s
        when the server said more than the slug."""
        return [
            self._links.get((node, slug, rel)) or ServerLink(slug, rel)
            for slug, rel in self.pairs(node)
        ]

    def detail(self, node: str, other: str, rel: str) -> ServerLink | None:
        """The server's answer for the edge between `node` and `other`, if asked."""
        return self._links.get((node, other, rel))

    def known_count(self, node: str) -> int | None:
        """How many pages are at the other end, if `node` was asked already (else None)."""
        found = self._known.get(node)
        return None if found is None else len(dict.fromkeys(slug for slug, _ in found))

    def keep_details(self, edge: Edge) -> None:
        """Copy the server's `link_source` and `context` of `edge`'s link onto it."""
        link = self._links.get((edge.frm, edge.to, edge.rel))
        if link is not None:
            edge.link_source, edge.context = link.link_source, link.context

    def __call__(self, node: str) -> tuple[str, ...]:
        """The pages at the other end, de-duplicated (what backlinks show)."""
        return tuple(dict.fromkeys(slug for slug, _ in self.pairs(node)))

    def walker(self, wanted: frozenset[str] | None) -> tuple[Neighbours, Relations]:
        """Neighbour and relation functions, kept to the `wanted` relations if given."""

        def kept(node: str) -> Sequence[tuple[str, str]]:
            pairs = self.pairs(node)
            return pairs if wanted is None else [p for p in pairs if p[1] in wanted]

        def neighbours(node: str) -> Sequence[str]:
            return [slug for slug, _ in kept(node)]

        def relations(node: str) -> Sequence[str] | None:
            rels = [rel for _, rel in kept(node)]
            return rels if any(rel != LINKS for rel in rels) else None

        return neighbours, relations


class ServerWalk:
    """The server graph's answers, memoised until `refresh` (one round trip a page)."""

    def __init__(self, graph: ServerGraph) -> None:
        self.links_out = _TypedMemo(graph.links_out)
        self.links_in = _TypedMemo(graph.links_in)

    def walk(
        self,
        slug: str,
        depth: object,
        direction: Direction,
        rels: frozenset[str] | None = None,
    ) -> list[Edge]:
        """`traverse_with` over the memos, failing fast when the whole source fails.

        Edges carry the server's relations, and its `link_source` and `context`;
        `rels` keeps the walk to those relations.
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

        out_n, out_r = self.links_out.walker(rels)
        in_n, in_r = self.links_in.walker(rels)
        edges = traverse_with(slug, depth, direction, guarded(out_n), guarded(in_n), out_r, in_r)
        if failures:
            raise failures[0]
        for edge in edges:
            (self.links_out if edge.direction == "out" else self.links_in).keep_details(edge)
        return edges
