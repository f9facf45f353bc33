"""The index half of `Brain`: building and refreshing the link index, what is
derived from it, and `_index_root` (the index, once a walk's root is known to be in it).

Index builds run under a lock; everything derived from one index (adjacency,
resolver, relations, networkx graph) is kept beside it and rebuilt lazily after
a refresh. The whole-graph analyses (`analysis`, `stats`) always use the index.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from okf_explorer.core.errors import PageNotFound, PageUnreadable
from okf_explorer.core.graph import analysis
from okf_explorer.core.graph.analysis import BrainStats, brain_stats
from okf_explorer.core.graph.paths import PathGraphs
from okf_explorer.core.graph.traverse import Direction
from okf_explorer.core.index.build import build_index
from okf_explorer.core.index.model import LinkIndex
from okf_explorer.core.index.store import IndexCache
from okf_explorer.core.index.weights import LinkWeights
from okf_explorer.core.links import SlugResolver
from okf_explorer.core.port import CancelCheck, PageSource, ProgressCallback

if TYPE_CHECKING:
    import networkx as nx


class _Derived:
    """What is computed from one index, dropped together when the index changes."""

    __slots__ = ("graph", "index", "out_adj", "path_graphs", "relations", "resolver", "weights")

    def __init__(self, index: LinkIndex) -> None:
        self.index = index
        # The index keeps the targets ready-made; a hand-built one may not.
        self.out_adj: dict[str, tuple[str, ...]] = index.targets or {
            slug: tuple(link.to for link in links) for slug, links in index.forward.items()
        }
        self.resolver: SlugResolver | None = None
        self.graph: nx.MultiDiGraph | None = None
        self.relations: list[str] | None = None
        self.path_graphs: PathGraphs | None = None
        self.weights: LinkWeights | None = None


def _cache_for(cache_dir: Path | str | Literal[False] | None) -> IndexCache | Literal[False] | None:
    """`None` → the default cache (env / platformdirs); `False` → none; a path → that folder."""
    if cache_dir is None or cache_dir is False:
        return cache_dir
    return IndexCache(Path(cache_dir))


class IndexedBrain:
    """A source and the link index built from it (the base of `Brain`).

    `cache_dir=None` uses the user cache directory; `False` disables the disk
    cache; a path uses that folder.
    """

    def __init__(
        self, source: PageSource, *, cache_dir: Path | Literal[False] | None = None
    ) -> None:
        self.source = source
        self._cache = _cache_for(cache_dir)
        self._lock = threading.Lock()  # short critical sections only
        self._build_lock = threading.RLock()  # held for a whole index build
        self._index: LinkIndex | None = None
        self._derived: _Derived | None = None

    source: PageSource

    # -- building the index -----------------------------------------------------------

    def ensure_index(
        self, progress: ProgressCallback | None = None, cancel: CancelCheck | None = None
    ) -> LinkIndex:
        """The index, built (from cache where valid) on first use."""
        index = self._index
        if index is not None:
            return index
        with self._build_lock:
            if self._index is None:
                self._install(
                    build_index(self.source, cache=self._cache, progress=progress, cancel=cancel)
                )
            return self._index  # type: ignore[return-value]

    def refresh(
        self, progress: ProgressCallback | None = None, cancel: CancelCheck | None = None
    ) -> LinkIndex:
        """Re-list the source and rescan only changed pages.

        Also forgets what was derived from the old index (in `Brain`: the
        server-graph answers and listing). On failure
        (`SourceUnavailable`, `Cancelled`) the previous index stays in place.
        Readers are not blocked meanwhile: they keep using the previous index.
        """
        with self._build_lock:
            index = build_index(
                self.source,
                previous=self._index,
                cache=self._cache,
                progress=progress,
                cancel=cancel,
            )
            self._install(index)
            return index

    def _index_root(self, slug: str, *, need_readable: bool) -> LinkIndex:
        """The index, once `slug` is known to be a page of it (see `core.brain`'s doc)."""
        index = self.ensure_index()
        info = index.pages.get(slug)
        if info is None:
            self.source.get_page(slug)  # raises PageNotFound, SourceUnavailable, ...
            index = self.refresh()
            info = index.pages.get(slug)
            if info is None:
                raise PageNotFound(slug)
        if need_readable and not info.readable:
            reason = info.error or "it could not be read"
            raise PageUnreadable(slug, reason, info.error_kind or "unreadable")
        return index

    def _install(self, index: LinkIndex) -> None:
        derived = _Derived(index)
        with self._lock:
            self._derived = derived
            self._index = index
            self._forget_index_answers()

    def _forget_index_answers(self) -> None:
        """Drop what a subclass derived from the previous index (called under `_lock`)."""

    def _derived_for(self, index: LinkIndex) -> _Derived:
        """The derived state of exactly this index (a concurrent refresh may have
        installed a newer one: then this caller gets a private copy)."""
        derived = self._derived
        if derived is not None and derived.index is index:
            return derived
        return _Derived(index)

    def text_index_path(self) -> Path | None:
        """Where the full-text index is kept: beside the link index's cache file, or
        None (in memory) when the disk cache is off."""
        store = IndexCache.from_environment() if self._cache is None else (self._cache or None)
        if store is None:
            return None
        return store.path_for(self.source.cache_key).with_suffix(".fts")

    @property
    def index(self) -> LinkIndex | None:
        """The index if built, else None (never builds)."""
        return self._index

    # -- the whole graph ---------------------------------------------------------------

    def relations(self) -> list[str]:
        """Every relation of the index's graph, `links` first (see `LinkIndex.relations`);
        computed once per index."""
        derived = self._derived_for(self.ensure_index())
        if derived.relations is None:
            derived.relations = derived.index.relations()
        return list(derived.relations)

    def shortest_path(self, frm: str, to: str, direction: Direction = "out") -> list[str] | None:
        """Fewest-hop path `[frm, …, to]` over the index, or None (see `analysis`)."""
        return analysis.shortest_path(self.ensure_index(), frm, to, direction)

    def path_graphs(self) -> PathGraphs:
        """The index's graphs for `path` queries (`core.graph.paths`), kept until `refresh`."""
        derived = self._derived_for(self.ensure_index())
        if derived.path_graphs is None:
            derived.path_graphs = PathGraphs(derived.index)
        return derived.path_graphs

    def graph(self) -> nx.MultiDiGraph:
        """The networkx graph of the index, built on first use and kept until `refresh`.

        Treat it as read-only: it is shared by every caller.
        """
        index = self.ensure_index()
        derived = self._derived_for(index)
        graph = derived.graph
        if graph is None:
            graph = derived.graph = analysis.build_graph(index)
        return graph

    def link_weights(self) -> LinkWeights:
        """The weights of the index's links (`core.index.weights`), kept until `refresh`."""
        derived = self._derived_for(self.ensure_index())
        if derived.weights is None:
            derived.weights = LinkWeights(derived.index)
        return derived.weights

    def orphans(self, include_reserved: bool = False) -> list[str]:
        """Pages no other page links to; reserved `index`/`log` pages only on request."""
        return analysis.orphans(self.ensure_index(), include_reserved)

    def dead_ends(self, include_reserved: bool = False) -> list[str]:
        """Readable pages linking to no other existing page."""
        return analysis.dead_ends(self.ensure_index(), include_reserved)

    def dangling(self) -> dict[str, list[str]]:
        """Dangling node id → pages linking to it."""
        return analysis.dangling(self.ensure_index())

    def hubs(self, n: int = 10, by: str = "in") -> list[tuple[str, int]]:
        """The `n` most linked pages by `in`, `out` or `total` degree."""
        return analysis.hubs(self.ensure_index(), n, by)

    def stats(self) -> BrainStats:
        """Counts, hubs, orphans, dead ends and dangling targets of the index
        (`core.graph.analysis`)."""
        return brain_stats(self.ensure_index())
