"""Weighted walks: how strongly a page points at another, and the best single path
per page from several roots.

**The weight of a link**, in (0, 1], one rule computed from what the index already
keeps (no index change):

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

**The walk**, the seed's GraphStore semantics over a brain (issue 13 §2):

- the walk starts from **several roots at once**; each root is reached with
  weight 1.0 in 0 hops, and stays so even when another root links to it;
- it follows only edges whose weight (above) is **at least `min_weight`**, and, when
  relations are named (`rels`, seed 003), only edges of those relations. Two pages
  linked by several relations (a body link and `next:: [[x]]`) are joined by as many
  edges, each with its own weight; each hop of a path names the relation it took;
- for each page reached it keeps **only the best path**: the highest product
  of edge weights among every path of at most `max_hops` edges (1-10, clamped
  like every walk) from any root. Ties are broken deterministically: fewer
  hops first, then the path (its list of slugs, root first) in code-point
  order; between two parallel edges of equal weight, the first one in edge
  order (`LinkIndex.out_edges` / `in_edges`) is kept;
- directions: `out` follows links, `in` walks against them (the pages linking
  to a page), `both` follows either at every step (one walk over both).

The walk is a hop-bounded Bellman-Ford: round `h` extends the paths that
improved in round `h - 1` by one edge, so after round `h` every page holds its
best path of at most `h` edges (a best path's prefix is itself a best path of
its length, tie-breaks included, because weights are at most 1). A path's
weight is the left-to-right product of its edge weights, as floats.

Dangling targets are not pages and are never reached; unreadable pages are
reached (their own links are unknown, so they lead nowhere).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from okf_explorer.core.errors import PageNotFound
from okf_explorer.core.graph.traverse import LINKS, Edge, clamp_depth, edge_records
from okf_explorer.core.index.model import LinkIndex, ResolvedLink
from okf_explorer.core.pages import has_tag

if TYPE_CHECKING:
    from okf_explorer.core.graph.implied import Implied
    from okf_explorer.core.pages import PageInfo

# -- the weight of a link ----------------------------------------------------------

TYPED_WEIGHT = 1.0
"""The weight of a stated relation (anything but a body link)."""


class WeightedStep(NamedTuple):
    """One edge a walk may take from a node: where to, the relation, which way, its
    weight, and whether it is an implied inverse edge (`core.graph.implied`)."""

    to: str
    rel: str
    direction: str  # "out" | "in"
    weight: float
    implied: bool = False


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


# -- the walk ----------------------------------------------------------------------

WalkDirection = Literal["out", "in", "both"]
WALK_DIRECTIONS: tuple[WalkDirection, ...] = ("out", "in", "both")
TAG_PREFIX, TYPE_PREFIX = "tag:", "type:"
"""A root `tag:T` stands for every page with tag T; `type:T` every page of type T."""

Steps = Callable[[str], Iterable[WeightedStep]]
"""`steps(node)` → the edges a walk may take from `node` (`WeightedStep`s)."""


@dataclass(frozen=True, slots=True)
class WalkHop:
    """One edge of a best path: `frm` → `to` walked `direction`, with its weight.

    As in SPEC §5, for an `in` hop `frm` is the page walked from and `to` the
    page that links to it.
    """

    frm: str
    to: str
    rel: str
    direction: Literal["out", "in"]
    weight: float
    implied: bool = False


@dataclass(frozen=True, slots=True)
class WalkRow:
    """A page reached by a walk, with its best path (root first, the page last)."""

    slug: str
    weight: float
    path: tuple[str, ...]
    hops: tuple[WalkHop, ...]

    @property
    def root(self) -> str:
        return self.path[0]

    @property
    def hop_count(self) -> int:
        return len(self.hops)

    def edges(self) -> list[Edge]:
        """The path's edges, numbered by hop (1 = the edge leaving the root)."""
        edges = []
        for number, hop in enumerate(self.hops, 1):
            edge = Edge.typed(hop.frm, hop.to, number, hop.direction, hop.rel)
            if hop.implied:
                edge.implied = True
            edges.append(edge)
        return edges

    def to_json(self) -> dict[str, Any]:
        """`{slug, weight, hops, root, path, edges, weights}`: `edges` are SPEC §5
        records, `weights[i]` the weight of `edges[i]`."""
        return {
            "slug": self.slug,
            "weight": self.weight,
            "hops": self.hop_count,
            "root": self.root,
            "path": list(self.path),
            "edges": edge_records(self.edges()),
            "weights": [hop.weight for hop in self.hops],
        }


def weight_text(weight: float) -> str:
    """Three decimals; tiny products in scientific notation (so they never read 0.000)."""
    return f"{weight:.3f}" if weight >= 0.001 or weight == 0 else f"{weight:.1e}"


def path_text(row: WalkRow) -> str:
    """`a →(0.250) b ←(related_to 1.000) c`: the path, root first, each hop with its
    way (`→` along the link, `←` against it), its relation if stated (`, implied` after
    an implied inverse edge's), and its weight."""
    return " ".join([row.root, hops_text(row)]) if row.hops else row.root


def hops_text(row: WalkRow) -> str:
    """`→(0.250) b ←(related_to 1.000) c`: the path without its root (where every row
    would repeat the one root, the explorer's walk view shows only the hops)."""
    parts = []
    for hop in row.hops:
        arrow = "→" if hop.direction == "out" else "←"
        rel = "" if hop.rel == LINKS else f"{hop.rel}, implied " if hop.implied else f"{hop.rel} "
        parts.append(f"{arrow}({rel}{weight_text(hop.weight)}) {hop.to}")
    return " ".join(parts)


def best_paths(
    roots: Iterable[str], steps: Steps, max_hops: object = 1, min_weight: float = 0.0
) -> list[WalkRow]:
    """The best path to every node reachable from `roots` (see the module doc), sorted
    by weight (highest first), then hops, then slug. Roots are rows too (weight 1.0,
    no hops). Pure: `steps` is the graph."""
    hops_cap = clamp_depth(max_hops)
    root_set = set(roots)
    best: dict[str, tuple[float, tuple[str, ...], tuple[WalkHop, ...]]] = {
        root: (1.0, (root,), ()) for root in sorted(root_set)
    }
    frontier = list(best.items())
    for _ in range(hops_cap):
        improved: dict[str, tuple[float, tuple[str, ...], tuple[WalkHop, ...]]] = {}
        for node, (weight, path, hops) in frontier:
            for step in steps(node):
                to = step.to
                if step.weight < min_weight or to in root_set:
                    continue
                candidate = weight * step.weight
                current = improved.get(to) or best.get(to)
                if current is not None:
                    held, held_path, _ = current
                    if candidate < held:
                        continue
                    if candidate == held:
                        length = len(path) + 1
                        if length > len(held_path):
                            continue
                        if length == len(held_path) and (*path, to) >= held_path:
                            continue
                hop = WalkHop(node, to, step.rel, step.direction, step.weight, step.implied)  # type: ignore[arg-type]
                improved[to] = (candidate, (*path, to), (*hops, hop))
        if not improved:
            break
        best.update(improved)
        frontier = sorted(improved.items())
    rows = [WalkRow(node, weight, path, hops) for node, (weight, path, hops) in best.items()]
    rows.sort(key=lambda row: (-row.weight, len(row.hops), row.slug))
    return rows


def index_steps(
    weights: LinkWeights,
    direction: WalkDirection,
    rels: Collection[str] | None = None,
    implied: Implied | None = None,
) -> Steps:
    """The edges of `direction` over an index's weighted links, of the relations `rels`
    only when given, with the `implied` inverse edges when given (each weighs what the
    stated edge it mirrors weighs: a relation, 1)."""
    out_steps, in_steps = weights.out_steps, weights.in_steps
    if implied is not None:
        out_steps = _with_implied(out_steps, implied, "out")
        in_steps = _with_implied(in_steps, implied, "in")
    if direction == "out":
        found = out_steps
    elif direction == "in":
        found = in_steps
    else:

        def found(node: str) -> Sequence[WeightedStep]:
            return [*out_steps(node), *in_steps(node)]

    if rels is None:
        return found
    wanted = frozenset(rels)
    return lambda node: [step for step in found(node) if step.rel in wanted]


def _with_implied(
    steps: Callable[[str], Sequence[WeightedStep]], implied: Implied, side: Literal["out", "in"]
) -> Callable[[str], Sequence[WeightedStep]]:
    def more(node: str) -> Sequence[WeightedStep]:
        extra = implied.edges(node, side)
        stated = steps(node)
        if not extra:
            return stated
        return [*stated, *(WeightedStep(p, rel, side, TYPED_WEIGHT, True) for p, rel in extra)]

    return more


def walk(
    weights: LinkWeights,
    roots: Sequence[str],
    depth: object = 1,
    min_weight: float = 0.0,
    direction: WalkDirection = "out",
    rels: Collection[str] | None = None,
    implied: Implied | None = None,
) -> list[WalkRow]:
    """`best_paths` from `roots` (slugs, see `root_pages`) over an index's link weights
    (`Brain.walk` gives its own: the weights need mention counts, which only the index
    keeps), along edges of the relations `rels` only when given, and the `implied`
    inverse edges when given. Raises `ValueError` for a direction not in
    `WALK_DIRECTIONS` or a weight outside 0..1, `PageNotFound` for a root that is not
    a page."""
    if direction not in WALK_DIRECTIONS:
        raise ValueError(f"direction must be one of {', '.join(WALK_DIRECTIONS)}")
    check_min_weight(min_weight)
    for root in roots:
        if root not in weights.index.pages:
            raise PageNotFound(root)
    return best_paths(roots, index_steps(weights, direction, rels, implied), depth, min_weight)


def check_min_weight(value: float) -> float:
    """`value` when it lies in 0..1, else `ValueError` with the sentence to show."""
    if not 0.0 <= value <= 1.0:  # NaN fails too
        raise ValueError(f"the minimum weight must be a number from 0 to 1, not {value!r}")
    return value


def root_pages(spec: str, pages: Callable[[], Mapping[str, PageInfo]]) -> list[str] | None:
    """The slugs a root spec `tag:T` (every page with tag T) or `type:T` (every page of
    type T) stands for, slug order; `PageNotFound` when no page has it. None for any
    other spec: a name, resolved like a wiki link on a root page (`Brain.resolve_roots`).
    `pages()` is asked only for a `tag:` or `type:` spec (an index's pages: a server
    listing may not know tags)."""
    for prefix, field in ((TAG_PREFIX, "tag"), (TYPE_PREFIX, "type")):
        if spec.startswith(prefix):
            value = spec[len(prefix) :].strip()
            found = [
                info.slug
                for info in pages().values()
                if (has_tag(info.tags, value) if field == "tag" else info.type == value)
            ]
            if not found:
                raise PageNotFound(spec, f"no page has {field} {value!r}")
            return found
    return None
