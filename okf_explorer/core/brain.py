"""`Brain`: the one engine facade the CLI, the TUI and the server use.

It owns a `PageSource`, the link index built from it, and the choice between
the local index and a server's stored graph (the "fast path"). Every method is
synchronous and safe to call from a worker thread.

INTERFACE STUB: filled in by the graph-engine work; signatures are the contract.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import networkx as nx

from okf_explorer.core.graph import Direction, Edge
from okf_explorer.core.index import LinkIndex, ResolvedLink
from okf_explorer.core.pages import Page, PageInfo
from okf_explorer.sources.base import CancelCheck, PageSource, ProgressCallback


class Brain:
    """A source plus its graph.

    `scan=True` forces body scanning even when the source offers a stored graph
    (`--scan`). `cache_dir=None` uses the user cache directory; `False`
    disables the disk cache.
    """

    def __init__(
        self,
        source: PageSource,
        *,
        scan: bool = False,
        cache_dir: Path | None | bool = None,
    ) -> None:
        raise NotImplementedError

    source: PageSource

    @property
    def answered_by(self) -> str:
        """Which graph answers link queries: `"index"` (body scan) or `"server"`."""
        raise NotImplementedError

    def ensure_index(
        self, progress: ProgressCallback | None = None, cancel: CancelCheck | None = None
    ) -> LinkIndex:
        """The index, built (from cache where valid) on first use."""
        raise NotImplementedError

    def refresh(
        self, progress: ProgressCallback | None = None, cancel: CancelCheck | None = None
    ) -> LinkIndex:
        """Re-list the source and rescan only changed pages."""
        raise NotImplementedError

    @property
    def index(self) -> LinkIndex | None:
        """The index if built, else None (never builds)."""
        raise NotImplementedError

    def pages(self, type: str | None = None, tag: str | None = None) -> list[PageInfo]:
        """Every page (filtered), slug order."""
        raise NotImplementedError

    def page(self, slug: str) -> Page:
        """One page fresh from the source. Raises PageNotFound etc."""
        raise NotImplementedError

    def resolve_slug(self, name: str) -> str | None:
        """A user-typed name → slug (exact, then the SPEC §3 wiki rules)."""
        raise NotImplementedError

    def forward_links(self, slug: str) -> list[ResolvedLink]:
        raise NotImplementedError

    def backlinks(self, slug: str) -> list[str]:
        raise NotImplementedError

    def traverse(self, slug: str, depth: object = 1, direction: Direction = "out") -> list[Edge]:
        raise NotImplementedError

    def shortest_path(self, frm: str, to: str, direction: Direction = "out") -> list[str] | None:
        raise NotImplementedError

    def graph(self) -> nx.MultiDiGraph:
        raise NotImplementedError

    def orphans(self) -> list[str]:
        raise NotImplementedError

    def dead_ends(self) -> list[str]:
        raise NotImplementedError

    def dangling(self) -> dict[str, list[str]]:
        """Dangling node id → pages linking to it."""
        raise NotImplementedError

    def hubs(self, n: int = 10, by: str = "in") -> list[tuple[str, int]]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


ProgressFn = Callable[[int, int], None]
