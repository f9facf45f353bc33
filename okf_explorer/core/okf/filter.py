"""Keeping pages and walks to an OKF v0.2 status and a minimum trust tier (pure).

`list`, `links`, `export` (`--status S`, `--min-trust T`) and the TUI's filter (`f`)
share these semantics:

- A **page passes** when its status (absent ⇒ `stable`, OKF §5.4) is one of the
  statuses asked for, and its trust tier (§5.3; a page with no `verified` is
  `unverified`) is at least the one asked for, in the order
  unverified < machine-confirmed < human-reviewed. A status that is none of
  draft / stable / deprecated passes no `--status` filter. Without a filter every
  page passes.
- A **walk** (`links`, `export`, the traversal panel) keeps the edges it would have
  if it never entered a page that fails: an edge is kept when both its ends pass
  and its `from` page is reached from the root through kept edges within the
  depth. The **root always passes** (it is where the user stands). Hops are
  counted along kept edges, so every kept edge's hop is its `from` page's
  distance from the root plus one. A dangling target (not a page) has no status or
  trust: it never passes an active filter.
- Staleness is not a filter: a stale page shows its glyph (`⚠`) and is kept.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import itemgetter, ne

from okf_explorer.core.fast_paths import gc_paused
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.okf.meta import STATUSES, TRUST_ORDER, TrustTier
from okf_explorer.core.pages import PageInfo

_FROM, _TO, _HOP, _DIRECTION = (itemgetter(i) for i in range(4))
_ENDS = itemgetter(0, 1)


class FilterError(ValueError):
    """A status or trust tier that OKF v0.2 does not define (the message says which are)."""


@dataclass(frozen=True, slots=True)
class OkfFilter:
    """Which pages pass: `statuses` (empty: any) and `min_trust` (None: any tier)."""

    statuses: frozenset[str] = field(default_factory=frozenset)
    min_trust: TrustTier | None = None

    @property
    def active(self) -> bool:
        return bool(self.statuses) or self.min_trust not in (None, "unverified")

    def passes(self, info: PageInfo | None) -> bool:
        """Whether the page of `info` passes (None: not a page, a dangling target)."""
        if not self.active:
            return True
        if info is None:
            return False
        if self.statuses and (info.okf_status or "stable") not in self.statuses:
            return False
        if self.min_trust is not None:
            tier = info.okf_trust if info.okf_trust in TRUST_ORDER else "unverified"
            return TRUST_ORDER.index(tier) >= TRUST_ORDER.index(self.min_trust)  # type: ignore[arg-type]
        return True

    def describe(self) -> str:
        """`status stable,draft · trust ≥ human-reviewed`, or `` without a filter."""
        parts = []
        if self.statuses:
            parts.append("status " + ",".join(s for s in STATUSES if s in self.statuses))
        if self.min_trust not in (None, "unverified"):
            parts.append(f"trust ≥ {self.min_trust}")
        return " · ".join(parts)


NO_FILTER = OkfFilter()


def parse_statuses(values: Iterable[str] | None) -> frozenset[str]:
    """`--status` values (each a name or a comma list) → the set; `FilterError` on an
    unknown name."""
    found: set[str] = set()
    for value in values or ():
        for name in value.split(","):
            name = name.strip().lower()
            if not name:
                continue
            if name not in STATUSES:
                raise FilterError(f"unknown status {name!r} (one of {', '.join(STATUSES)})")
            found.add(name)
    return frozenset(found)


def parse_trust(value: str | None) -> TrustTier | None:
    """A `--min-trust` value → the tier; `FilterError` on an unknown one."""
    if value is None:
        return None
    name = value.strip().lower()
    for tier in TRUST_ORDER:
        if name == tier:
            return tier
    raise FilterError(f"unknown trust tier {name!r} (one of {', '.join(TRUST_ORDER)})")


def filter_pages(infos: Sequence[PageInfo], keep: OkfFilter) -> list[PageInfo]:
    """The pages of `infos` that pass, in their order."""
    if not keep.active:
        return list(infos)
    return [info for info in infos if keep.passes(info)]


def filter_walk(
    edges: Sequence[Edge],
    root: str,
    depth: int,
    keep: OkfFilter,
    info_of: Callable[[str], PageInfo | None] | Mapping[str, PageInfo],
) -> list[Edge]:
    """The edges of a walk from `root` that pass (see the module doc), in walk order
    within each hop; each pass (`out`, then `in`) is reached from the root on its own.

    Linear in the edges (a depth-10 walk of a million edges: see `tests/bench`); the
    edges are rebuilt only when a kept edge's hop changes.
    """
    if not keep.active:
        return list(edges)
    lookup = info_of.get if isinstance(info_of, Mapping) else info_of
    # Per-edge work runs in C (`map`, `compress`, set lookups): a filtered walk costs
    # about as much as the walk itself.
    with gc_paused():
        nodes = set(map(_FROM, edges))
        nodes.update(map(_TO, edges))
        failing = {node for node in nodes if not keep.passes(lookup(node))}
        failing.discard(root)
        kept = list(edges)
        if failing:
            kept = list(compress(kept, map(failing.isdisjoint, map(_ENDS, kept))))
        directions = list(map(_DIRECTION, kept))
        split = directions.index("in") if "in" in directions else len(kept)
        result: list[Edge] = []
        for own in (kept[:split], kept[split:]):
            result.extend(_reached(own, root, depth))
    return result


def _reached(edges: list[Edge], root: str, depth: int) -> list[Edge]:
    """`edges` (one pass) whose `from` is within `depth - 1` hops of `root` over them,
    each hop counted along them: walk order within a hop."""
    distance = _distances(edges, root, depth)
    inner = {node for node, hops in distance.items() if hops < depth}
    reached = list(compress(edges, map(inner.__contains__, map(_FROM, edges))))
    next_hop = {node: distance[node] + 1 for node in inner}
    wanted = list(map(next_hop.__getitem__, map(_FROM, reached)))
    if not any(map(ne, map(_HOP, reached), wanted)):
        return reached  # no hop changed: already in walk order
    order = sorted(range(len(reached)), key=wanted.__getitem__)  # stable: walk order per hop
    return [_with_hop(reached[at], wanted[at]) for at in order]


def _distances(edges: Sequence[Edge], root: str, depth: int) -> dict[str, int]:
    """Hops from `root` to each node over `edges` (breadth-first), up to `depth`."""
    neighbours: defaultdict[str, list[str]] = defaultdict(list)
    for frm, to in zip(map(_FROM, edges), map(_TO, edges), strict=True):
        neighbours[frm].append(to)
    distance = {root: 0}
    frontier = [root]
    for hop in range(1, depth + 1):
        fresh = []
        for node in frontier:
            for neighbour in neighbours.get(node, ()):
                if neighbour not in distance:
                    distance[neighbour] = hop
                    fresh.append(neighbour)
        if not fresh:
            break
        frontier = fresh
    return distance


def _with_hop(edge: Edge, hop: int) -> Edge:
    if edge.hop == hop:
        return edge
    moved = Edge.typed(edge.frm, edge.to, hop, edge.direction, edge.rel)
    moved.link_source, moved.context = edge.link_source, edge.context
    moved.implied = edge.implied
    return moved
