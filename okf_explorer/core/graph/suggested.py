"""Suggested links (`okf-explorer analyze`): pairs of pages that probably should link
and do not, each with its reason and score. Two reasons:

- **a mention**: page A names page B (its title, file name or an alias, as
  `core.search.mentions` finds them: whole words, outside code and links) and
  neither links to the other. Only the most central pages are looked for (the `top`
  of `analyze`'s PageRank ranking, at most `MENTION_LOOKUPS`): a full-text lookup a
  page, so the analysis stays within its time at 100k pages, and a missing link to a
  central page is the one worth writing. Score: `MENTION_SCORE` plus the pair's
  shared-neighbour score. `from` is the page that mentions, `to` the page mentioned.
- **shared neighbours**: Adamic-Adar on the undirected projection: the sum of
  `1 / log(degree)` over the pages both are linked with (either way), for pairs
  with at least `MIN_SHARED` of them. A page linked with more than `HUB_DEGREE`
  pages says little about any two of them (its term is under 0.22) and would make
  the pairs quadratic in its degree, so it is not counted. `from` and `to` in slug
  order.

Reserved pages (`index`, `log`) are neither end of a suggestion: they link to
everything by design. Scores are rounded to 3 decimals; ties in `(from, to)` order.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from okf_explorer.core.graph.projection import Projection
from okf_explorer.core.index.model import LinkIndex

MIN_SHARED = 2
HUB_DEGREE = 100
MENTION_SCORE = 1.0
MENTION_LOOKUPS = 20
"""Central pages whose unlinked mentions are looked up at most (`--top 100` would
otherwise look up 100: 5.6 s instead of 1.8 s on a 6.6k-page vault)."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    frm: str
    to: str
    reason: str
    score: float

    def to_json(self) -> dict[str, Any]:
        return {"from": self.frm, "to": self.to, "reason": self.reason, "score": self.score}


def suggestions(
    index: LinkIndex,
    projection: Projection,
    leaders: Sequence[str],
    mentions: Callable[[str], Sequence[str]] | None,
    top: int,
) -> list[Suggestion]:
    """At most `top` suggestions, best first (module doc); `mentions(slug)` names the
    pages mentioning `slug` without linking to it (None: no mention is looked for)."""
    if top <= 0:
        return []
    pages = index.pages
    found: dict[tuple[str, str], Suggestion] = {}
    if mentions is not None:
        for slug in leaders[:MENTION_LOOKUPS]:
            if pages[slug].reserved:
                continue
            for other in mentions(slug):
                if other == slug or other not in pages or pages[other].reserved:
                    continue
                if projection.linked(other, slug):
                    continue
                score = round(MENTION_SCORE + adamic_adar(projection, other, slug), 3)
                reason = f"mentions {pages[slug].title}"
                found[(other, slug)] = Suggestion(other, slug, reason, score)
    mentioned = {frozenset(pair) for pair in found}
    for score, frm, to, shared in best_shared(index, projection, top + len(found)):
        if frozenset((frm, to)) not in mentioned:
            found[(frm, to)] = Suggestion(frm, to, f"{shared} shared neighbours", score)
    ranked = sorted(found.values(), key=lambda s: (-s.score, s.frm, s.to))
    return ranked[:top]


def adamic_adar(projection: Projection, a: str, b: str) -> float:
    """The pair's shared-neighbour score (hubs left out, as in the module doc)."""
    adjacency = projection.undirected
    shared = adjacency[a] & adjacency[b]
    return sum(_weight(len(adjacency[w])) for w in shared if len(adjacency[w]) <= HUB_DEGREE)


def _weight(degree: int) -> float:
    return 1.0 / math.log(degree)


def best_shared(
    index: LinkIndex, projection: Projection, keep: int
) -> list[tuple[float, str, str, int]]:
    """The `keep` unlinked pairs of highest Adamic-Adar score as `(score, from, to,
    shared)`, best first, ties in `(from, to)` order."""
    nodes = projection.nodes
    heap: list[tuple[float, int, int, int]] = []  # the best so far, worst on top
    for score, a, b, shared in _scored_pairs(index, projection):
        key = (score, -a, -b, shared)  # a smaller position ranks higher among equals
        if len(heap) < keep:
            heapq.heappush(heap, key)
        elif key > heap[0]:
            heapq.heapreplace(heap, key)
    ranked = sorted(heap, reverse=True)
    return [(score, nodes[-a], nodes[-b], shared) for score, a, b, shared in ranked]


def _scored_pairs(
    index: LinkIndex, projection: Projection
) -> Iterator[tuple[float, int, int, int]]:
    """`(score, position of from, position of to, shared)` of each candidate pair."""
    adjacency = projection.undirected
    position = {slug: i for i, slug in enumerate(projection.nodes)}
    pages = index.pages
    weight = {
        slug: _weight(len(near)) for slug, near in adjacency.items() if 1 < len(near) <= HUB_DEGREE
    }
    for a in projection.nodes:
        if pages[a].reserved:
            continue
        near = adjacency[a]
        scores: dict[str, float] = {}
        shared: dict[str, int] = {}
        for w in near:
            w_weight = weight.get(w)
            if w_weight is None:
                continue
            for b in adjacency[w]:
                if b > a and b not in near:
                    scores[b] = scores.get(b, 0.0) + w_weight
                    shared[b] = shared.get(b, 0) + 1
        for b, count in shared.items():
            if count >= MIN_SHARED and not pages[b].reserved:
                yield round(scores[b], 3), position[a], position[b], count


def suggestions_for(
    index: LinkIndex, projection: Projection, slug: str, top: int
) -> list[Suggestion]:
    """The pages `slug` probably should link to by shared neighbours (Adamic-Adar, the
    rules of the module doc), best first (ties in slug order), at most `top`: the
    explorer's Suggested section (its Mentions section shows the other reason)."""
    info = index.pages.get(slug)
    if info is None or info.reserved or top <= 0:
        return []
    adjacency = projection.undirected
    near = adjacency[slug]
    scores: dict[str, float] = {}
    shared: dict[str, int] = {}
    for w in near:
        degree = len(adjacency[w])
        if not 1 < degree <= HUB_DEGREE:
            continue
        weight = _weight(degree)
        for other in adjacency[w]:
            if other != slug and other not in near:
                scores[other] = scores.get(other, 0.0) + weight
                shared[other] = shared.get(other, 0) + 1
    found = [
        Suggestion(slug, other, f"{count} shared neighbours", round(scores[other], 3))
        for other, count in shared.items()
        if count >= MIN_SHARED and not index.pages[other].reserved
    ]
    found.sort(key=lambda s: (-s.score, s.to))
    return found[:top]
