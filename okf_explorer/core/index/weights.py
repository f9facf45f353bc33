"""The weight of a link: how strongly a page points at another, in (0, 1].

One rule, computed from what the index already keeps (no index change):

- a **typed relation** (`rel` other than `links`: `derived_from`, a gbrain
  frontmatter relation, a server's `link_type`) weighs **1.0**: the brain states
  it on purpose;
- a **body link** weighs the **share of the linking page's link mentions that go
  to that target**: `mentions of the target / mentions of every body link of the
  page` (dangling ones included: a reader clicking at random may pick one). A
  page that links once to one page gives it 1.0; a page naming `a` three times
  among ten link mentions gives `a` 0.3; a list of 50 links gives each 0.02.

Mentions are counted after resolution (`ResolvedLink.count`: `[[Orders]]` and
`[o](orders.md)` on one page are two mentions of `orders`). A link weighs the
same whichever way a walk follows it: an `in` step from `b` to `a` (a links to
`b`) weighs what `a`'s link to `b` weighs. Along a path the weights multiply:
the product is the chance that a reader who, on every page, follows one of its
link mentions at random (a stated relation for sure) takes exactly that path.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from okf_explorer.core.index.model import LinkIndex, ResolvedLink
from okf_explorer.core.links.typed import LINKS

TYPED_WEIGHT = 1.0
"""The weight of a stated relation (anything but a body link)."""


class WeightedStep(NamedTuple):
    """One edge a walk may take from a node: where to, the relation, which way, its weight."""

    to: str
    rel: str
    direction: str  # "out" | "in"
    weight: float


def body_shares(links: Iterable[ResolvedLink]) -> dict[str, float]:
    """node → its share of the page's body-link mentions (`mentions / all mentions`)."""
    counts: dict[str, int] = {}
    for link in links:
        if link.rel == LINKS:
            counts[link.to] = counts.get(link.to, 0) + link.count
    total = sum(counts.values())
    return {node: count / total for node, count in counts.items()} if total else {}


class LinkWeights:
    """The weights of one index's links, worked out per page on first use and kept.

    Safe to share between threads: two threads may work out one page's shares at
    once and store the same answer.
    """

    def __init__(self, index: LinkIndex) -> None:
        self.index = index
        self._shares: dict[str, dict[str, float]] = {}
        self._out: dict[str, tuple[WeightedStep, ...]] = {}
        self._in: dict[str, tuple[WeightedStep, ...]] = {}

    def shares(self, slug: str) -> dict[str, float]:
        """node → weight of `slug`'s body link to it (`body_shares` of its links)."""
        found = self._shares.get(slug)
        if found is None:
            found = self._shares[slug] = body_shares(self.index.forward.get(slug, ()))
        return found

    def weight(self, frm: str, to: str, rel: str = LINKS) -> float:
        """The weight of the link page `frm` states to `to` with relation `rel`
        (0.0 for a body link `frm` does not have)."""
        if rel != LINKS:
            return TYPED_WEIGHT
        return self.shares(frm).get(to, 0.0)

    def out_steps(self, slug: str) -> tuple[WeightedStep, ...]:
        """Every edge an `out` walk follows from `slug` to an existing page, edge order."""
        found = self._out.get(slug)
        if found is None:
            index, steps = self.index, []
            for node, rel in index.out_edges(slug):
                if node != slug and index.exists(node):
                    steps.append(WeightedStep(node, rel, "out", self.weight(slug, node, rel)))
            found = self._out[slug] = tuple(steps)
        return found

    def in_steps(self, slug: str) -> tuple[WeightedStep, ...]:
        """Every edge an `in` walk follows from `slug` (pages linking to it), slug order."""
        found = self._in.get(slug)
        if found is None:
            steps = [
                WeightedStep(page, rel, "in", self.weight(page, slug, rel))
                for page, rel in self.index.in_edges(slug)
                if page != slug
            ]
            found = self._in[slug] = tuple(steps)
        return found
