"""Paths between two pages (issue 13 §1): the k shortest simple paths over the index.

`PathGraphs` holds the networkx graphs of one index, built once and kept beside
it (`Brain.path_graphs`): the plain link graph (one `DiGraph` edge per pair of
pages, with every relation that joins them), the variants a query asks for (a
relation filter, the undirected graph of `any`), and the hubs. `PathGraphs.find`
asks networkx's `shortest_simple_paths` (Yen's algorithm) for the paths; `path_details` says
what each hop is (below), and `Brain.explained_paths` asks for both.

Choices where the issue is silent:

- Only pages are nodes: a dangling target is never on a path; self-links are
  no edges. A and B are never removed by `--avoid`.
- `direction`: `out` follows links forward, `in` follows them backwards (each
  hop from a page to a page linking to it, SPEC §5's `in` records), `any`
  ignores which way a link points (a hop is `out` when the link runs that way,
  else `in`).
- A hub is a page whose in-degree (distinct other pages linking to it) is in
  the top `HUB_SHARE` of pages (ties included) and at least `HUB_MIN_IN_DEGREE`;
  every `index` page (OKF's folder index) is a hub too. A path is flagged
  `via_hub` with the hubs it passes through (A and B are not counted).
- `max_hops` bounds what is listed: paths come shortest first, so the listing
  stops at the first path longer than it (this also bounds Yen's work).

What each hop of a path says: the link's resolution rule and the sentence around
it. A hop `frm → to` is a link written on one of its two pages: on `frm` when it
runs that way (an `out` hop), on `to` for an `in` hop; a relation stated from
the other side (gbrain's incoming fields) is written on the page it points to.
The index keeps the rule of every link (`ResolvedLink`); the sentence is cut
from the writing page's body by the core grammar's spans (`core.links.spans`),
matching the link's target as written, else (another spelling of the same
link) by the one resolver. Reading a page is blocking: call this in a worker.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice, pairwise
from typing import TYPE_CHECKING, Literal

from okf_explorer.core.errors import OkfError, PageNotFound
from okf_explorer.core.graph.traverse import LINKS, Edge, edge_records

if TYPE_CHECKING:
    import networkx as nx

    from okf_explorer.core.index.model import LinkIndex, ResolvedLink
    from okf_explorer.core.links.grammar import LinkKind
    from okf_explorer.core.links.resolution import SlugResolver

PathDirection = Literal["out", "in", "any"]
PATH_DIRECTIONS: tuple[PathDirection, ...] = ("out", "in", "any")
DEFAULT_K = 3
K_CAP = 20
"""At most this many paths per query (Yen's work grows with k)."""
DEFAULT_MAX_HOPS = 10
MAX_HOPS_CAP = 50
HUB_SHARE = 0.01
"""Hubs are in the top 1 % of pages by in-degree ..."""
HUB_MIN_IN_DEGREE = 10
"""... and have at least 10 distinct pages linking to them (a small brain has none)."""


class NoPath(OkfError):
    """No path joins the two pages within the query's limits (a one-line sentence)."""


@dataclass(frozen=True, slots=True)
class Avoid:
    """What a path may not pass through: hubs, OKF reserved pages, named pages, and
    `unsaid` pages, which no description names (those `serve` keeps from its caller)."""

    hubs: bool = False
    reserved: bool = False
    pages: frozenset[str] = frozenset()
    unsaid: frozenset[str] = frozenset()

    @property
    def active(self) -> bool:
        return self.hubs or self.reserved or bool(self.pages)

    def describe(self) -> str:
        """`hubs, reserved, a/b` (empty when nothing is avoided)."""
        words = [w for w, on in (("hubs", self.hubs), ("reserved", self.reserved)) if on]
        return ", ".join([*words, *sorted(self.pages)])


@dataclass(frozen=True, slots=True)
class PathQuery:
    """One question: paths from `frm` to `to` (slugs of pages)."""

    frm: str
    to: str
    k: int = DEFAULT_K
    direction: PathDirection = "out"
    rels: frozenset[str] | None = None
    avoid: Avoid = field(default_factory=Avoid)
    max_hops: int = DEFAULT_MAX_HOPS

    def describe(self) -> str:
        """The limits in words: `direction out · avoid hubs · rel links · ≤ 10 hops`."""
        parts = [f"direction {self.direction}"]
        if self.avoid.active:
            parts.append(f"avoid {self.avoid.describe()}")
        if self.rels is not None:
            parts.append(f"rel {', '.join(sorted(self.rels))}")
        parts.append(f"≤ {self.max_hops} hops")
        return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class Step:
    """One hop as walked: `frm` → `to` along relation `rel`; `direction` `in` when
    the link runs `to` → `frm` (SPEC §5)."""

    frm: str
    to: str
    rel: str
    direction: Literal["out", "in"]


@dataclass(frozen=True, slots=True)
class FoundPath:
    """One path: its number (1 = shortest), its steps, the hubs it passes through."""

    number: int
    steps: tuple[Step, ...]
    via_hub: tuple[str, ...] = ()

    @property
    def pages(self) -> list[str]:
        return [self.steps[0].frm, *(step.to for step in self.steps)] if self.steps else []

    def edges(self) -> list[Edge]:
        """The path as SPEC §5 edges, `hop` = position along the path (1 first)."""
        return [
            Edge.typed(step.frm, step.to, hop, step.direction, step.rel)
            for hop, step in enumerate(self.steps, 1)
        ]


class PathGraphs:
    """The networkx graphs of one index (built on first use, then kept) and its hubs.

    Read-only once built; safe to share between threads (a race builds a
    variant twice, with the same result).
    """

    def __init__(self, index: LinkIndex) -> None:
        self.index = index
        self._base: nx.DiGraph | None = None
        self._variants: dict[tuple[str, frozenset[str] | None], nx.Graph] = {}
        self._hubs: frozenset[str] | None = None

    def base(self) -> nx.DiGraph:
        """Pages as nodes; an edge per linked pair with `rels`: every relation joining
        them, in link order (the walk tables: incoming relations already turned)."""
        if self._base is None:
            import networkx as nx  # lazy: networkx costs ~0.5 s of a CLI start

            index, pages = self.index, self.index.pages
            graph = nx.DiGraph()
            graph.add_nodes_from(pages)
            rels_of: dict[tuple[str, str], list[str]] = {}
            for slug in pages:
                for node, rel in index.out_edges(slug):
                    if node != slug and node in pages:
                        rels_of.setdefault((slug, node), []).append(rel)
            graph.add_edges_from((a, b, {"rels": tuple(r)}) for (a, b), r in rels_of.items())
            self._base = graph
        return self._base

    def for_query(self, direction: PathDirection, rels: frozenset[str] | None) -> nx.Graph:
        """The graph `direction` walks, kept to edges of `rels` when given."""
        key = (direction, rels)
        found = self._variants.get(key)
        if found is not None:
            return found
        graph: nx.Graph = self.base()
        if rels is not None:
            graph = _kept_to(graph, rels)
        if direction == "in":
            graph = graph.reverse(copy=False)
        elif direction == "any":
            graph = graph.to_undirected(as_view=False)
        self._variants[key] = graph
        return graph

    def hubs(self) -> frozenset[str]:
        """The hubs of the index (module docstring)."""
        if self._hubs is None:
            index = self.index
            degree = {slug: len(set(index.in_slugs(slug)) - {slug}) for slug in index.pages}
            ranked = sorted(degree.values(), reverse=True)
            top = max(1, math.ceil(len(ranked) * HUB_SHARE)) if ranked else 0
            cutoff = max(HUB_MIN_IN_DEGREE, ranked[top - 1]) if top else math.inf
            hubs = {slug for slug, d in degree.items() if d >= cutoff}
            hubs |= {slug for slug in index.pages if slug.rsplit("/", 1)[-1] == "index"}
            self._hubs = frozenset(hubs)
        return self._hubs

    def avoided(self, query: PathQuery) -> set[str]:
        """The pages `query.avoid` removes (never its two ends)."""
        gone = set(query.avoid.pages | query.avoid.unsaid)
        if query.avoid.hubs:
            gone |= self.hubs()
        if query.avoid.reserved:
            pages = self.index.pages
            gone |= {slug for slug, info in pages.items() if info.reserved}
        gone.discard(query.frm)
        gone.discard(query.to)
        return gone

    def find(self, query: PathQuery) -> list[FoundPath]:
        """The paths of `query`, shortest first (`[]` when there is none)."""
        import networkx as nx

        for end in (query.frm, query.to):
            if end not in self.index.pages:
                raise PageNotFound(end)
        graph = self.for_query(query.direction, query.rels)
        gone = self.avoided(query)
        if gone:
            graph = nx.restricted_view(graph, gone, [])
        found: list[FoundPath] = []
        if query.frm == query.to:
            return found
        paths = nx.shortest_simple_paths(graph, query.frm, query.to)
        hubs = self.hubs()
        try:
            for number, nodes in enumerate(islice(paths, query.k), 1):
                if len(nodes) - 1 > query.max_hops:
                    break
                via = tuple(node for node in nodes[1:-1] if node in hubs)
                found.append(FoundPath(number, self._steps(nodes, query), via))
        except nx.NetworkXNoPath:
            pass
        return found

    def _steps(self, nodes: list[str], query: PathQuery) -> tuple[Step, ...]:
        """Each hop's relation (the first the query allows) and which way its link runs."""
        walked = self.for_query("out", query.rels)  # the links as the query keeps them
        steps = []
        for frm, to in pairwise(nodes):
            if query.direction == "out" or (query.direction == "any" and walked.has_edge(frm, to)):
                rels, direction = walked[frm][to]["rels"], "out"
            else:
                rels, direction = walked[to][frm]["rels"], "in"
            steps.append(Step(frm, to, rels[0] if rels else LINKS, direction))  # type: ignore[arg-type]
        return tuple(steps)


def _kept_to(graph: nx.DiGraph, rels: frozenset[str]) -> nx.DiGraph:
    """A copy of `graph` with only edges of relations in `rels`."""
    import networkx as nx

    kept = nx.DiGraph()
    kept.add_nodes_from(graph)
    kept.add_edges_from(
        (a, b, {"rels": tuple(r for r in data["rels"] if r in rels)})
        for a, b, data in graph.edges(data=True)
        if any(r in rels for r in data["rels"])
    )
    return kept


def avoid_of(words: Iterable[str], slug_of: Callable[[str], str]) -> Avoid:
    """`--avoid` words (`hubs`, `reserved`, or a page name, `slug_of` resolves it)."""
    hubs = reserved = False
    pages: set[str] = set()
    for word in words:
        if word == "hubs":
            hubs = True
        elif word == "reserved":
            reserved = True
        else:
            pages.add(slug_of(word))
    return Avoid(hubs, reserved, frozenset(pages))


def no_path_message(query: PathQuery) -> str:
    """`no path from A to B (within direction out · ≤ 10 hops)`."""
    if query.frm == query.to:
        return f"no path from {query.frm} to itself (give two different pages)"
    return f"no path from {query.frm} to {query.to} (within {query.describe()})"


@dataclass(frozen=True, slots=True)
class HopDetail:
    """Why a hop exists: the page the link is written on, the target as written,
    the SPEC §3 rule that resolved it (None when no page states it: a server's
    stored link), whether several pages matched, and the sentence around it
    (None for a frontmatter relation, or when none is found)."""

    written_on: str
    written: str | None = None
    rule: str | None = None
    ambiguous: bool = False
    context: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "written_on": self.written_on,
            "written": self.written,
            "rule": self.rule,
            "ambiguous": self.ambiguous,
            "context": self.context,
        }


def path_details(
    paths: list[FoundPath],
    forward: Mapping[str, Sequence[ResolvedLink]],
    text_of: Callable[[str], str],
    resolver: SlugResolver,
) -> list[tuple[HopDetail, ...]]:
    """The details of every hop of `paths` (each page read at most once): the links come
    from the index's `forward`, the sentences from the text `text_of(slug)` reads a
    page's links from (`Brain.link_text`), a link written another way is recognised by
    `resolver`. Blocking (reads pages)."""
    bodies: dict[str, str | None] = {}
    return [
        tuple(_detail(step, forward, text_of, resolver, bodies) for step in path.steps)
        for path in paths
    ]


def _detail(
    step: Step,
    forward: Mapping[str, Sequence[ResolvedLink]],
    text_of: Callable[[str], str],
    resolver: SlugResolver,
    bodies: dict[str, str | None],
) -> HopDetail:
    linker, linked = (step.frm, step.to) if step.direction == "out" else (step.to, step.frm)
    link = _stated(forward, linker, linked, step.rel)
    if link is None:
        return HopDetail(written_on=linker)
    on = linked if link.incoming else linker
    written = link.written
    detail = HopDetail(on, written, link.rule, link.ambiguous)
    if link.rel != LINKS:
        return detail
    sentence = link_sentence(on, link, text_of, resolver, bodies)
    return HopDetail(on, written, link.rule, link.ambiguous, sentence)


def _stated(
    forward: Mapping[str, Sequence[ResolvedLink]], linker: str, linked: str, rel: str
) -> ResolvedLink | None:
    """The resolved link behind the edge `linker` → `linked` of relation `rel`."""
    for link in forward.get(linker, ()):
        if link.to == linked and link.rel == rel and not link.incoming:
            return link
    for link in forward.get(linked, ()):
        if link.to == linker and link.rel == rel and link.incoming:
            return link
    return None


def link_sentence(
    on: str,
    link: ResolvedLink,
    text_of: Callable[[str], str],
    resolver: SlugResolver,
    bodies: dict[str, str | None],
) -> str | None:
    """The sentence around `link` on page `on`, as the page renders it (the first
    link written as `link.target`, else the first that leads where it does), in the
    text `text_of(on)` gives (`Brain.link_text`); None when the page cannot be read or
    shows no such link. `bodies` keeps each page read once (None for one that could
    not be read)."""
    if on not in bodies:
        try:
            bodies[on] = text_of(on)
        except OkfError:
            bodies[on] = None
    text = bodies[on]
    if text is None:
        return None
    from okf_explorer.core.links.spans import link_contexts  # lazy: ~5 ms of every start

    found = link_contexts(text, lambda target, kind: target == link.target)
    if not found:

        def leads_here(target: str, kind: LinkKind) -> bool:
            return resolver.resolve(target, on, kind).node == link.to

        found = link_contexts(text, leads_here)
    return found[0].text if found else None


def path_record(path: FoundPath, details: tuple[HopDetail, ...]) -> dict[str, object]:
    """One path as `path --json` prints it: `{path, via_hub, edges, hops}`, where
    `edges` are SPEC §5 records (`hop` = position along the path) and `hops[i]`
    explains `edges[i]`."""
    return {
        "path": path.number,
        "via_hub": list(path.via_hub),
        "edges": edge_records(path.edges()),
        "hops": [detail.to_json() for detail in details],
    }
