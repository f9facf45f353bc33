"""Implied inverse edges: what a stated relation says of the other page (issue 27 §2).

`Ann works_at:: [[Acme]]` says as much about Acme: Acme `employs` Ann. Where a relation
has a known inverse (`INVERSES`), the inverse edge is **implied**: there to walk when a
person asks for it (`--implied`, the explorer's `i`), always marked as such, never
stated: it is not exported unless asked, never counted as a backlink or a link of
`stats`, and never joins the analyses.

The table, our own, gathered from the vocabularies vaults and brains use:

- gbrain's schema packs declare verbs with inverses (`link_types[].inverse` in
  `gbrain-base-v2` and the company pack `gbrain-bravura`, 0.46.x): `works_at`/`employs`,
  `founded`/`founded_by`, `invested_in`/`investor_of`, `advises`/`advised_by`,
  `attended`/`attended_by`, `authored`/`authored_by`, `for_customer`/`has_case`,
  `affects_product`/`affected_by`, `caused_by`/`causes`, `resolved_by`/`resolves`,
  `escalated_to`/`handled_by`, `member_of`/`has_member`, `owns`/`owned_by`,
  `documents`/`documented_by`; `partner_of` and `relates_to` are their own inverses;
- Breadcrumbs' hierarchy: `up`/`down` and `next`/`prev`; `same` is its own inverse.

An edge `A —r→ B` implies `B —inverse(r)→ A` when B is a page (a dangling target
implies nothing), B is not A, and B does not already state that edge. What a page
implies is worked out from the stated edges around it (`Graph.out_edges` /
`in_edges`), so the same rule holds over the index and over a server's graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from okf_explorer.core.graph.traverse import Edge, Neighbours, Relations

_PAIRS: tuple[tuple[str, str], ...] = (
    # gbrain schema packs (gbrain-base-v2, gbrain-bravura)
    ("works_at", "employs"),
    ("founded", "founded_by"),
    ("invested_in", "investor_of"),
    ("advises", "advised_by"),
    ("attended", "attended_by"),
    ("authored", "authored_by"),
    ("for_customer", "has_case"),
    ("affects_product", "affected_by"),
    ("caused_by", "causes"),
    ("resolved_by", "resolves"),
    ("escalated_to", "handled_by"),
    ("member_of", "has_member"),
    ("owns", "owned_by"),
    ("documents", "documented_by"),
    ("partner_of", "partner_of"),
    ("relates_to", "relates_to"),
    # Breadcrumbs
    ("up", "down"),
    ("next", "prev"),
    ("same", "same"),
)

INVERSES: dict[str, str] = {
    **{rel: inverse for rel, inverse in _PAIRS},
    **{inverse: rel for rel, inverse in _PAIRS},
}
"""relation → its inverse, both ways (a symmetric relation maps to itself)."""

Side = Literal["out", "in"]
Pairs = Callable[[str], Sequence[tuple[str, str]]]
"""`edges(node)` → `(page, rel)` of a node's stated edges on one side."""


def inverse_of(rel: str) -> str | None:
    """The inverse of `rel`, or None when none is known."""
    return INVERSES.get(rel)


class Implied:
    """The implied edges around pages, from the stated ones (`out_edges(node)`,
    `in_edges(node)`: a `Graph`'s); `exists(node)` tells pages from dangling targets.
    Answers are remembered per node (one `Implied` per graph)."""

    def __init__(self, out_edges: Pairs, in_edges: Pairs, exists: Callable[[str], bool]) -> None:
        self._stated = {"out": out_edges, "in": in_edges}
        self._exists = exists
        self._known: dict[tuple[str, Side], tuple[tuple[str, str], ...]] = {}

    def edges(self, node: str, side: Side) -> tuple[tuple[str, str], ...]:
        """`(page, rel)` of each edge implied on `side` of `node`: leaving it (`out`), the
        inverses of the edges into it; entering it (`in`), of the edges out of it."""
        key = (node, side)
        found = self._known.get(key)
        if found is None:
            other: Side = "in" if side == "out" else "out"
            stated = set(self._stated[side](node))
            pairs: dict[tuple[str, str], None] = {}
            for page, rel in self._stated[other](node):
                inverse = INVERSES.get(rel)
                if inverse is None or page == node or (page, inverse) in stated:
                    continue
                if side == "in" and not self._exists(page):
                    continue  # a missing page implies nothing
                pairs[page, inverse] = None
            found = self._known[key] = tuple(pairs)
        return found

    def walkers(
        self,
        side: Side,
        neighbours: Neighbours,
        relations: Relations | None,
        wanted: frozenset[str] | None,
    ) -> tuple[Neighbours, Relations]:
        """`neighbours` and `relations` (a walk's functions for `side`, stated edges
        only) with the implied edges of that side after the stated ones, kept to the
        `wanted` relations when given."""

        def implied(node: str) -> tuple[tuple[str, str], ...]:
            pairs = self.edges(node, side)
            return pairs if wanted is None else tuple(p for p in pairs if p[1] in wanted)

        def more_neighbours(node: str) -> Sequence[str]:
            stated = neighbours(node)
            extra = implied(node)
            return [*stated, *(page for page, _ in extra)] if extra else stated

        def more_relations(node: str) -> Sequence[str] | None:
            extra = implied(node)
            named = relations(node) if relations is not None else None
            if not extra:
                return named
            stated = named if named is not None else ["links"] * len(neighbours(node))
            return [*stated, *(rel for _, rel in extra)]

        return more_neighbours, more_relations

    def mark(self, edges: Sequence[Edge]) -> None:
        """Mark the implied ones among a walk's `edges` (`Edge.implied`)."""
        for edge in edges:
            if edge.rel in INVERSES and (edge.to, edge.rel) in self.edges(edge.frm, edge.direction):
                edge.implied = True
