"""`Brain`: the one engine facade the CLI, the TUI and the server use.

It owns a `PageSource`, the link index built from it, and the choice between
the local index and a server's stored graph (the "fast path"). Every method is
synchronous and safe to call from a worker thread: index builds run under a
lock, and everything derived from an index (adjacency, resolver, networkx
graph) is rebuilt lazily after a refresh (that index half is `core.brain_index`).

Choices where the SPEC is silent:

- `traverse` and `backlinks` use the server's graph when the source has one and
  `scan` is False; `forward_links`, `shortest_path` and the analyses always use
  the index (they need link kinds, rules and dangling targets, which a server
  graph does not keep).
- An unknown root raises `PageNotFound`, never an empty answer: over the index
  the source is asked for the page (so a down source raises
  `SourceUnavailable`); if the source does have it, the index is stale and is
  refreshed once. Over a server graph the root is fetched once per Brain, since
  gbrain answers `[]` for unknown slugs.
- `traverse` and `forward_links` of an unreadable page raise `PageUnreadable`
  (its links are unknown); `backlinks` of it answer normally (other pages' links
  are known).
- If the server fails mid-walk with `SourceUnavailable` or `AuthError`, the walk
  raises that error rather than return a silently truncated slice.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from okf_explorer.core.brain_index import IndexedBrain
from okf_explorer.core.errors import (
    OkfError,
    PageNotFound,
)
from okf_explorer.core.graph.listing import ServerListing
from okf_explorer.core.graph.server_walk import ServerWalk
from okf_explorer.core.graph.traverse import (
    Direction,
    Edge,
    check_direction,
    relation_filter,
    traverse_with,
)
from okf_explorer.core.index.model import LinkIndex, ResolvedLink
from okf_explorer.core.links import (
    ROOT,
    LinkKind,
    RawLink,
    Resolution,
    SlugResolver,
    looks_like_path,
    suggest,
)
from okf_explorer.core.pages import Page, PageInfo
from okf_explorer.core.port import LocalFolder, PageFiles, PageSource, ServerGraph, ServerLink

if TYPE_CHECKING:  # imported where used: a `links` run needs neither (~10 ms at start)
    from okf_explorer.core.audit.page import PageAuditor, PageView
    from okf_explorer.core.search.text_search import TextSearch


class Brain(IndexedBrain):
    """A source plus its graph.

    `scan=True` forces body scanning even when the source offers a stored graph
    (`--scan`). `cache_dir=None` uses the user cache directory; `False`
    disables the disk cache; a path uses that folder.
    """

    def __init__(
        self,
        source: PageSource,
        *,
        scan: bool = False,
        cache_dir: Path | Literal[False] | None = None,
    ) -> None:
        super().__init__(source, cache_dir=cache_dir)
        self._scan = scan
        self._server_lock = threading.Lock()  # asking the source for its graph, once
        self._server: ServerGraph | None = None
        self._server_known = False
        self._walk: ServerWalk | None = None
        self._roots_seen: set[str] = set()
        self._listing: ServerListing | None = None
        self._text: TextSearch | None = None
        self._auditor: tuple[LinkIndex, PageAuditor] | None = None

    @property
    def label(self) -> str:
        """What to call the brain: its source's label (never holds a token)."""
        return self.source.label

    @property
    def local_root(self) -> Path | None:
        """The folder the pages are files of (a `LocalFolder` source), else None."""
        return self.source.local_root if isinstance(self.source, LocalFolder) else None

    def page_file(self, slug: str) -> Path | None:
        """The file of page `slug` when the pages are files (`PageFiles`), else None."""
        return self.source.page_file(slug) if isinstance(self.source, PageFiles) else None

    # -- which graph answers ---------------------------------------------------------

    @property
    def answered_by(self) -> str:
        """Which graph answers link queries: `"index"` (body scan) or `"server"`."""
        try:
            return "server" if self._server_graph() is not None else "index"
        except OkfError:
            return "index"

    def _server_graph(self) -> ServerGraph | None:
        """The source's stored graph unless `scan` was asked for; asked once per Brain."""
        if self._scan:
            return None
        if not self._server_known:
            with self._server_lock:
                if not self._server_known:
                    self._server = self.source.server_graph()
                    self._server_known = True
        return self._server

    def _server_walk(self) -> ServerWalk | None:
        graph = self._server_graph()
        if graph is None:
            return None
        with self._lock:
            if self._walk is None:
                self._walk = ServerWalk(graph)
            return self._walk

    def _forget_index_answers(self) -> None:
        """A new index: forget the server walk, the roots seen and the listing."""
        self._walk = None
        self._roots_seen = set()
        self._listing = None

    def text_search(self) -> TextSearch:
        """Full-text search and its index (`core.search.text_search`), made on first use."""
        with self._server_lock:
            if self._text is None:
                from okf_explorer.core.search.text_search import TextSearch

                self._text = TextSearch(self, self.text_index_path(), use_server=not self._scan)
            return self._text

    # -- pages -----------------------------------------------------------------------

    def pages(self, type: str | None = None, tag: str | None = None) -> list[PageInfo]:
        """Every page (filtered), slug order.

        With a server graph and no index yet, the server's listing answers when it
        carries titles and types, so listing never forces a full body scan (see
        `listing` for tags, which gbrain's listing lacks).
        """
        listing = self._server_listing()
        infos = listing.pages(type, tag) if listing is not None else None
        if infos is not None:
            return infos
        return [
            info
            for info in self.ensure_index().pages.values()
            if (type is None or info.type == type) and (tag is None or tag in info.tags)
        ]

    def _server_listing(self) -> ServerListing | None:
        """The server's listing (kept until `refresh`) while there is no index yet."""
        if self._index is not None or self._server_graph() is None:
            return None
        with self._lock:
            if self._listing is None:
                self._listing = ServerListing(self.source)
            return self._listing

    def list_pages(self) -> list[tuple[str, str]]:
        """(slug, title) of every page, straight from the source's listing: never
        scans, so it answers before the index (a folder listing knows no titles yet:
        the slug stands in)."""
        return [(s.slug, s.info.title if s.info else s.slug) for s in self.source.enumerate()]

    def page(self, slug: str) -> Page:
        """One page fresh from the source. Raises PageNotFound etc."""
        return self.source.get_page(slug)

    def resolve_slug(self, name: str) -> str | None:
        """A name typed by a person → slug, or None (see `resolve_name`)."""
        resolution = self.resolve_name(name)
        return resolution.slug if resolution is not None else None

    def resolve_name(self, name: str) -> Resolution | None:
        """A name typed by a person, resolved as a wiki target on a root page (SPEC §3):
        the rule that matched and any candidates, or None for a blank name or no match.

        Paths (`/tables/orders.md`, `./x.md`, `tables/`) resolve from the bundle root.
        """
        if not name.strip():
            return None
        if not _path_like(name) and self._is_server_page(name):
            return Resolution(name, "exact")  # one `get_page`, no listing of the brain
        exact = not _path_like(name) and self._server_listing() is None
        if exact and name in self.ensure_index().pages:  # no resolver tables needed
            return Resolution(name, "exact")
        resolver, _ = self._resolver()
        resolution = resolver.resolve(name, ROOT, "wiki")
        return resolution if resolution.exists else None

    def resolve_link(
        self, from_slug: str, target: str, kind: LinkKind = "wiki", *, definitions: bool = True
    ) -> Resolution:
        """What a link written on page `from_slug` leads to, as the index resolves it
        (a reference definition on that page included, unless `definitions` is False:
        looking them up reads every page's raw links once). Builds the index if needed."""
        index = self.ensure_index()
        refdef = None
        if kind != "markdown" and definitions:
            for row in index.raw_links.get(from_slug, ()):
                raw = RawLink.from_row(row)
                if raw.target == target and raw.refdef is not None:
                    refdef = raw.refdef
                    break
        resolver, _ = self._resolver()
        return resolver.resolve(target, from_slug, kind, refdef)

    def warm_resolver(self) -> None:
        """Build the resolver and its tables now (~0.2 s for 10k pages), e.g. in the
        thread that built the index, so the first links looked up later (a backlink's
        sentences, a followed link) do not pay for it."""
        self._resolver()[0].warm()

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Slugs of pages with names close to `name` (slugs, file names, titles,
        aliases), best first: what to offer when `name` resolves to nothing."""
        return suggest(name, self.pages(), limit)

    def _resolver(self) -> tuple[SlugResolver, Mapping[str, object]]:
        """One resolver per corpus: the index's, or the server listing's before any scan."""
        listing = self._server_listing()
        found = listing.resolver() if listing is not None else None
        if found is not None:
            return found
        index = self.ensure_index()
        derived = self._derived_for(index)
        if derived.resolver is None:
            derived.resolver = index.resolver()
        return derived.resolver, index.pages

    # -- links -----------------------------------------------------------------------

    def forward_links(self, slug: str) -> list[ResolvedLink]:
        """The page's resolved links, first appearance first (dangling ones included)."""
        index = self._index_root(slug, need_readable=True)
        return list(index.forward.get(slug, ()))

    def link_between(self, frm: str, to: str) -> ResolvedLink | None:
        """The resolved link on page `frm` that leads to `to` (rule, candidates), if any."""
        links = self.ensure_index().forward.get(frm, ())
        return next((link for link in links if link.to == to), None)

    def backlinks(self, slug: str) -> list[str]:
        """Pages linking to `slug`: one hop, de-duplicated, slug order (SPEC §4)."""
        walk = self._server_walk()
        if walk is not None:
            self._server_root(slug)
            return sorted(walk.links_in(slug))
        index = self._index_root(slug, need_readable=False)
        froms = index.reverse.get(slug, ())
        return list(dict.fromkeys(froms)) if slug in index.in_rels else list(froms)

    def out_edges(self, slug: str) -> list[tuple[str, str]]:
        """`(node, rel)` of each edge leaving `slug`, one hop: its own links, the
        relations other pages state towards it from its side (gbrain's incoming
        fields), dangling targets included over the index."""
        walk = self._server_walk()
        if walk is not None:
            self._server_root(slug)
            return list(walk.links_out.pairs(slug))
        return self._index_root(slug, need_readable=True).out_edges(slug)

    def in_edges(self, slug: str) -> list[tuple[str, str]]:
        """`(page, rel)` of each edge into `slug`, one hop, slug order, once per relation."""
        walk = self._server_walk()
        if walk is not None:
            self._server_root(slug)
            return sorted(walk.links_in.pairs(slug), key=lambda pair: pair[0])
        return self._index_root(slug, need_readable=False).in_edges(slug)

    def known_degree(self, slug: str, side: Literal["out", "in"]) -> int | None:
        """How many pages `slug` links to (`out`) or is linked from (`in`) in the graph
        that answers (`answered_by`), when known without asking anything: over the
        index always once it is built; over a server graph once that page was asked."""
        walk = self._server_walk()
        if walk is not None:
            return (walk.links_out if side == "out" else walk.links_in).known_count(slug)
        index = self._index
        if index is None:
            return None
        return len(index.out_slugs(slug)) if side == "out" else len(index.in_slugs(slug))

    def server_link(self, frm: str, to: str, rel: str) -> ServerLink | None:
        """What the server said of the edge `frm` → `to` of relation `rel` (its
        `link_source` and `context`), when a server graph answered for either end."""
        walk = self._server_walk()
        if walk is None:
            return None
        return walk.links_out.detail(frm, to, rel) or walk.links_in.detail(to, frm, rel)

    def page_view(self, slug: str, text: str | None = None) -> PageView | None:
        """The audit's view of `slug` (`core.audit.page`): the links its text states
        against the ones the server stores, or None when no server graph answers.
        Builds the index if needed; `text` is the page's body (fetched when None)."""
        walk = self._server_walk()
        if walk is None:
            return None
        self._server_root(slug)
        stored = walk.links_out.links(slug)
        index = self.ensure_index()
        info = index.pages.get(slug)
        stated = index.forward.get(slug, ()) if info is not None and info.readable else ()
        if text is None:
            text = self.source.get_page(slug).content
        with self._lock:
            if self._auditor is None or self._auditor[0] is not index:
                from okf_explorer.core.audit.page import PageAuditor

                self._auditor = (index, PageAuditor(index.pages))
            auditor = self._auditor[1]
        return auditor.compare(slug, text, stated, stored)

    def traverse(
        self,
        slug: str,
        depth: object = 1,
        direction: Direction = "out",
        rels: Collection[str] | None = None,
    ) -> list[Edge]:
        """Breadth-first edges from `slug` (SPEC §4); see `graph.traverse_with`.

        Each edge carries its relation (`Edge.rel`); `rels`, when given, keeps
        the walk to edges of those relations.
        """
        direction = check_direction(direction)
        wanted = frozenset(rels) if rels is not None else None
        walk = self._server_walk()
        if walk is not None:
            self._server_root(slug)
            return walk.walk(slug, depth, direction, wanted)
        index = self._index_root(slug, need_readable=True)
        out_adj = self._derived_for(index).out_adj
        if wanted is not None:
            out_n, out_r = relation_filter(out_adj, index.out_rels, wanted)
            in_n, in_r = relation_filter(index.reverse, index.in_rels, wanted)
            return traverse_with(slug, depth, direction, out_n, in_n, out_r, in_r)
        reverse = index.reverse
        empty: tuple[str, ...] = ()

        def links_out(node: str) -> Sequence[str]:
            return out_adj.get(node, empty)

        def links_in(node: str) -> Sequence[str]:
            return reverse.get(node, empty)

        out_rels = index.out_rels.get if index.out_rels else None
        in_rels = index.in_rels.get if index.in_rels else None
        return traverse_with(slug, depth, direction, links_out, links_in, out_rels, in_rels)

    def _is_server_page(self, name: str) -> bool:
        """Before any index, with a server graph: whether `name` is itself a slug of the
        server, asked with one `get_page` (remembered as a root seen, so the walk that
        follows asks nothing again). False without a server graph or once indexed."""
        if self._index is not None or self._server_graph() is None:
            return False
        try:
            self._server_root(name)
        except PageNotFound:
            return False
        return True

    def _server_root(self, slug: str) -> None:
        """Fetch an unseen root once: a server answers `[]` for slugs it does not have."""
        if slug not in self._roots_seen:
            self.source.get_page(slug)
            self._roots_seen.add(slug)

    def close(self) -> None:
        """Close the source; the Brain must not be used afterwards."""
        with self._lock:
            self._walk = None
            self._derived = None
            self._listing = None
        if self._text is not None:
            self._text.close()
        self.source.close()


def _path_like(name: str) -> bool:
    """Names the resolver reads as paths or with `.md` cut (never a plain exact slug)."""
    return name != name.strip() or looks_like_path(name)
