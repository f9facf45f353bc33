"""The one `Graph` protocol, and its two backends: the index a scan built, or a server's
stored graph.

A `Brain` asks every link question about one page (backlinks, edges, walks, what is
known of a degree, what the server said of a link) of one `Graph`, chosen once: the
server's stored graph (`ServerBacked`, gbrain's `get_links` / `get_backlinks`) when the
source has one and `--scan` was not asked for, else the index (`IndexBacked`). The
choice is made on first use, not when the brain is made (asking a server which graph
tools it lists is a round trip, which opening a brain must not wait for), and made
again only when the index is rebuilt (a new `IndexBacked`, and a fresh
`ServerBacked` that has forgotten its answers). Making sure the page asked about exists
is the brain's part (an unknown root raises `PageNotFound` for both), so a `Graph`
answers for a page already known to be one.

`IndexBacked` also keeps what is derived from its index on first use, dropped with it:
adjacency, the resolver, the relations, the networkx graph, the path graphs and the
link weights.

`ServerBacked` walks the server's graph one round trip a page, memoised, and fails as
a whole when the server goes away mid-walk. With it comes the server's page listing
(`ServerListing`), which answers `Brain.pages` and name lookups before any scan: a body
scan is only needed for link kinds and dangling targets; listing pages and resolving
typed names need no more than the server's `list_pages` rows. Choices where the SPEC
is silent:

- The listing is used only when every row gave a title (a `PageInfo`); otherwise
  the caller falls back to the index.
- gbrain's rows carry no tags, so such infos have `tags_known` False (shown as
  unknown, never as "no tags"). A `tag` filter over them asks the server's own
  `list_pages` `tag` filter (a `TagListing` source's `slugs_with_tag`, paged), which
  is exact and costs a call per 100 matches instead of a body scan; a source without
  that capability makes the caller fall back to the index. The matching pages keep
  `tags_known` False: the server said they carry that tag, not which others.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

from okf_explorer.core.errors import AuthError, OkfError, SourceUnavailable
from okf_explorer.core.graph.analysis import build_graph
from okf_explorer.core.graph.best_paths import LinkWeights
from okf_explorer.core.graph.implied import Implied
from okf_explorer.core.graph.paths import PathGraphs
from okf_explorer.core.graph.traverse import (
    LINKS,
    Direction,
    Edge,
    Neighbours,
    Relations,
    relation_filter,
    traverse_with,
)
from okf_explorer.core.links import SlugResolver
from okf_explorer.core.pages import PageInfo, has_tag
from okf_explorer.core.port import PageSource, ServerGraph, ServerLink, TagListing, relation_of

if TYPE_CHECKING:
    import networkx as nx

    from okf_explorer.core.graph.projection import Projection
    from okf_explorer.core.graph.shape import Community
    from okf_explorer.core.index.model import LinkIndex

Side = Literal["out", "in"]


class Graph(Protocol):
    """What answers a brain's link questions about a page known to exist."""

    name: str
    """`index` or `server` (what `Brain.answered_by` says)."""

    def backlinks(self, slug: str) -> list[str]:
        """Pages linking to `slug`: one hop, de-duplicated, slug order (SPEC §4)."""
        ...

    def out_edges(self, slug: str) -> list[tuple[str, str]]:
        """`(node, rel)` of each edge leaving `slug`, one hop."""
        ...

    def in_edges(self, slug: str) -> list[tuple[str, str]]:
        """`(page, rel)` of each edge into `slug`, one hop, slug order, once per relation."""
        ...

    def traverse(
        self,
        slug: str,
        depth: object,
        direction: Direction,
        rels: frozenset[str] | None,
        implied: bool = False,
    ) -> list[Edge]:
        """Breadth-first edges from `slug` (SPEC §4, `traverse_with`), kept to the
        relations `rels` when given; with `implied`, the implied inverse edges too
        (`core.graph.implied`), marked."""
        ...

    def implied_edges(self, slug: str, side: Side) -> list[tuple[str, str]]:
        """`(page, rel)` of each implied inverse edge leaving (`out`) or entering (`in`)
        `slug` (`core.graph.implied`)."""
        ...

    def known_degree(self, slug: str, side: Side) -> int | None:
        """How many pages `slug` links to (`out`) or is linked from (`in`), when known
        without asking anything (else None)."""
        ...

    def server_link(self, frm: str, to: str, rel: str) -> ServerLink | None:
        """What a server said of the edge `frm` → `to` of relation `rel`, if it said it."""
        ...


class IndexBacked:
    """The graph of one built index, and what is derived from it on first use.

    Immutable once made (the derived parts are caches: two threads may build one
    twice, with the same result), so a caller holding it keeps a consistent view while
    a refresh installs a newer one.
    """

    name = "index"

    def __init__(self, index: LinkIndex) -> None:
        self.index = index
        # The index keeps the targets ready-made; a hand-built one may not.
        self.out_adj: dict[str, tuple[str, ...]] = index.targets or {
            slug: tuple(link.to for link in links) for slug, links in index.forward.items()
        }
        self._resolver: SlugResolver | None = None
        self._networkx: nx.MultiDiGraph | None = None
        self._relations: list[str] | None = None
        self._path_graphs: PathGraphs | None = None
        self._weights: LinkWeights | None = None
        self._implied: Implied | None = None
        self._communities: list[Community] | None = None
        self._projection: Projection | None = None
        self._without: tuple[frozenset[str], IndexBacked] | None = None

    def backlinks(self, slug: str) -> list[str]:
        froms = self.index.reverse.get(slug, ())
        return list(dict.fromkeys(froms)) if slug in self.index.in_rels else list(froms)

    def out_edges(self, slug: str) -> list[tuple[str, str]]:
        return self.index.out_edges(slug)

    def in_edges(self, slug: str) -> list[tuple[str, str]]:
        return self.index.in_edges(slug)

    def traverse(
        self,
        slug: str,
        depth: object,
        direction: Direction,
        rels: frozenset[str] | None,
        implied: bool = False,
    ) -> list[Edge]:
        index, out_adj = self.index, self.out_adj
        out_n: Neighbours
        in_n: Neighbours
        out_r: Relations | None
        in_r: Relations | None
        if rels is not None:
            out_n, out_r = relation_filter(out_adj, index.out_rels, rels)
            in_n, in_r = relation_filter(index.reverse, index.in_rels, rels)
        else:
            reverse = index.reverse
            empty: tuple[str, ...] = ()

            def out_n(node: str) -> Sequence[str]:
                return out_adj.get(node, empty)

            def in_n(node: str) -> Sequence[str]:
                return reverse.get(node, empty)

            out_r = index.out_rels.get if index.out_rels else None
            in_r = index.in_rels.get if index.in_rels else None
        if not implied:
            return traverse_with(slug, depth, direction, out_n, in_n, out_r, in_r)
        inverses = self.implied()
        out_n, out_r = inverses.walkers("out", out_n, out_r, rels)
        in_n, in_r = inverses.walkers("in", in_n, in_r, rels)
        edges = traverse_with(slug, depth, direction, out_n, in_n, out_r, in_r)
        inverses.mark(edges)
        return edges

    def implied_edges(self, slug: str, side: Side) -> list[tuple[str, str]]:
        return list(self.implied().edges(slug, side))

    def known_degree(self, slug: str, side: Side) -> int | None:
        index = self.index
        return len(index.out_slugs(slug)) if side == "out" else len(index.in_slugs(slug))

    def server_link(self, frm: str, to: str, rel: str) -> ServerLink | None:
        return None

    # -- derived from the index, on first use ----------------------------------------

    def resolver(self) -> SlugResolver:
        """The index's resolver (`LinkIndex.resolver`)."""
        if self._resolver is None:
            self._resolver = self.index.resolver()
        return self._resolver

    def relations(self) -> list[str]:
        """Every relation of the index's graph, `links` first (`LinkIndex.relations`)."""
        if self._relations is None:
            self._relations = self.index.relations()
        return list(self._relations)

    def networkx(self) -> nx.MultiDiGraph:
        """The index as a networkx graph (`analysis.build_graph`); shared, read-only."""
        if self._networkx is None:
            self._networkx = build_graph(self.index)
        return self._networkx

    def path_graphs(self) -> PathGraphs:
        """The index's graphs for `path` queries (`core.graph.paths`)."""
        if self._path_graphs is None:
            self._path_graphs = PathGraphs(self.index)
        return self._path_graphs

    def weights(self) -> LinkWeights:
        """The weights of the index's links (`core.graph.best_paths`)."""
        if self._weights is None:
            self._weights = LinkWeights(self.index)
        return self._weights

    def projection(self) -> Projection:
        """The pages and the links between them, for the whole-graph analyses
        (`core.graph.projection`)."""
        if self._projection is None:
            from okf_explorer.core.graph.projection import project

            self._projection = project(self.index)
        return self._projection

    def communities(self) -> list[Community]:
        """Every community of the index (`core.graph.shape.partition`)."""
        if self._communities is None:
            from okf_explorer.core.graph.shape import partition

            self._communities = partition(self.index, self.projection())
        return self._communities

    def without(self, unseen: frozenset[str]) -> IndexBacked:
        """This graph as a reader who may not see the pages `unseen` finds it
        (`LinkIndex.without`); the one made for the last such set is kept, with what is
        derived from it (its communities are partitioned once)."""
        if not unseen:
            return self
        made = self._without
        if made is None or made[0] != unseen:
            made = (unseen, IndexBacked(self.index.without(unseen)))
            self._without = made
        return made[1]

    def implied(self) -> Implied:
        """The implied inverse edges of the index's graph (`core.graph.implied`)."""
        if self._implied is None:
            index = self.index
            self._implied = Implied(index.out_edges, index.in_edges, index.exists)
        return self._implied


class ServerBacked:
    """A server's stored graph, its answers memoised (one round trip a page) until the
    brain's index is rebuilt (`fresh`), and the server's listing before any index."""

    name = "server"

    def __init__(self, graph: ServerGraph, source: PageSource) -> None:
        self.graph = graph
        self._source = source
        self.links_out = _TypedMemo(graph.links_out)
        self.links_in = _TypedMemo(graph.links_in)
        self.listing = ServerListing(source)
        self._roots_seen: set[str] = set()
        self._implied = Implied(self.out_edges, self.in_edges, _any_page)

    def fresh(self) -> ServerBacked:
        """The same server graph with nothing asked yet (after a refresh)."""
        return ServerBacked(self.graph, self._source)

    def check_root(self, slug: str) -> None:
        """Fetch an unseen root once: a server answers `[]` for slugs it does not have
        (raises `PageNotFound`, `SourceUnavailable`, ...)."""
        if slug not in self._roots_seen:
            self._source.get_page(slug)
            self._roots_seen.add(slug)

    def backlinks(self, slug: str) -> list[str]:
        return sorted(self.links_in(slug))

    def out_edges(self, slug: str) -> list[tuple[str, str]]:
        return list(self.links_out.pairs(slug))

    def in_edges(self, slug: str) -> list[tuple[str, str]]:
        return sorted(self.links_in.pairs(slug), key=lambda pair: pair[0])

    def known_degree(self, slug: str, side: Side) -> int | None:
        return (self.links_out if side == "out" else self.links_in).known_count(slug)

    def server_link(self, frm: str, to: str, rel: str) -> ServerLink | None:
        return self.links_out.detail(frm, to, rel) or self.links_in.detail(to, frm, rel)

    def implied_edges(self, slug: str, side: Side) -> list[tuple[str, str]]:
        return list(self._implied.edges(slug, side))

    def stored_links(self, slug: str) -> list[str]:
        """The server's links out of `slug`, one per (slug, relation) (the page audit)."""
        return self.links_out.links(slug)

    def traverse(
        self,
        slug: str,
        depth: object,
        direction: Direction,
        rels: frozenset[str] | None,
        implied: bool = False,
    ) -> list[Edge]:
        """`traverse_with` over the memos, failing fast when the whole source fails.

        Edges carry the server's relations, and its `link_source` and `context`;
        `rels` keeps the walk to those relations; `implied` adds the implied inverse
        edges (a server lists only pages, so every page it names may imply one).
        `traverse_with` skips errors below the root; a `SourceUnavailable` or
        `AuthError` there is remembered, re-raised at once for every later page
        (no timeout per page), and raised after the walk: a server that went
        away mid-walk must not look like a smaller graph.
        """
        failures: list[OkfError] = []

        def guarded(ask: Callable[[str], _T]) -> Callable[[str], _T]:
            def neighbours(node: str) -> _T:
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
        out_n, in_n = guarded(out_n), guarded(in_n)
        inverses = None
        if implied:
            inverses = Implied(guarded(self.out_edges), guarded(self.in_edges), _any_page)
            out_n, out_r = inverses.walkers("out", out_n, out_r, rels)
            in_n, in_r = inverses.walkers("in", in_n, in_r, rels)
        edges = traverse_with(slug, depth, direction, out_n, in_n, out_r, in_r)
        if failures:
            raise failures[0]
        if inverses is not None:
            inverses.mark(edges)
        for edge in edges:
            (self.links_out if edge.direction == "out" else self.links_in).keep_details(edge)
        return edges


def _any_page(node: str) -> bool:
    """A server's graph names pages only (it keeps no dangling targets)."""
    return True


_T = TypeVar("_T")


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


class ServerListing:
    """The source's listing, fetched once (a `Brain` drops it on `refresh`)."""

    def __init__(self, source: PageSource) -> None:
        self._source = source
        self._lock = threading.Lock()
        self._infos: list[PageInfo] | None = None
        self._usable = True
        self._resolver: SlugResolver | None = None
        self._tagged: dict[str, frozenset[str]] = {}

    def infos(self) -> list[PageInfo] | None:
        """Every page's info in slug order, or None when the listing lacks some."""
        with self._lock:
            if self._infos is None and self._usable:
                stubs = self._source.enumerate()
                if any(stub.info is None for stub in stubs):
                    self._usable = False
                else:
                    self._infos = [stub.info for stub in stubs]  # type: ignore[misc]
            return self._infos

    def pages(self, type: str | None, tag: str | None) -> list[PageInfo] | None:
        """The filtered listing, or None when the index must answer instead."""
        infos = self.infos()
        if infos is None:
            return None
        if tag is not None and not all(info.tags_known for info in infos):
            tagged = self._tagged_slugs(tag)
            if tagged is None:
                return None
            infos = [info for info in infos if info.slug in tagged]
            tag = None
        return [
            info
            for info in infos
            if (type is None or info.type == type) and (tag is None or has_tag(info.tags, tag))
        ]

    def _tagged_slugs(self, tag: str) -> frozenset[str] | None:
        if not isinstance(self._source, TagListing):
            return None
        found = self._tagged.get(tag)
        if found is None:
            found = self._tagged[tag] = frozenset(self._source.slugs_with_tag(tag))
        return found

    def resolver(self) -> tuple[SlugResolver, Mapping[str, PageInfo]] | None:
        """A resolver over the listing (titles included), or None without a listing."""
        infos = self.infos()
        if infos is None:
            return None
        resolver = self._resolver
        if resolver is None:
            resolver = self._resolver = SlugResolver.for_pages(infos)
        return resolver, {info.slug: info for info in infos}
