"""`Brain`: the one engine facade the CLI, the TUI and the server use, the top of the core.

It owns a `PageSource`, the link index built from it, and the `Graph` that answers link
questions (`core.graph.backends`): the server's stored graph when the source has one
and `scan` is False (the "fast path"), else the index. Every method is synchronous and
safe to call from a worker thread: index builds run under a lock, and everything
derived from an index (adjacency, resolver, relations, networkx graph, path graphs,
weights) is kept beside it and rebuilt lazily after a refresh.

Choices where the SPEC is silent:

- `traverse` and `backlinks` use the server's graph when the source has one and
  `scan` is False; `forward_links`, `shortest_path`, paths, walks and the analyses
  always use the index (they need link kinds, rules, mention counts and dangling
  targets, which a server graph does not keep).
- An unknown root raises `PageNotFound`, never an empty answer: over the index
  the source is asked for the page (so a down source raises
  `SourceUnavailable`); if the source does have it, the index is stale and is
  refreshed once. Over a server graph the root is fetched once per index, since
  gbrain answers `[]` for unknown slugs.
- `traverse` and `forward_links` of an unreadable page raise `PageUnreadable`
  (its links are unknown); `backlinks` of it answer normally (other pages' links
  are known).
- If the server fails mid-walk with `SourceUnavailable` or `AuthError`, the walk
  raises that error rather than return a silently truncated slice.
- With a server graph and no index yet, the server's listing answers `pages` and
  names typed by a person, so listing never forces a full body scan.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from okf_explorer.core.errors import OkfError, PageNotFound, PageUnreadable
from okf_explorer.core.excluded import NONE_EXCLUDED, Excluded
from okf_explorer.core.graph import analysis
from okf_explorer.core.graph.analysis import TOP_HUBS, BrainStats, LookAlike, brain_stats
from okf_explorer.core.graph.backends import Graph, IndexBacked, ServerBacked, ServerListing
from okf_explorer.core.graph.best_paths import LinkWeights
from okf_explorer.core.graph.paths import (
    FoundPath,
    HopDetail,
    NoPath,
    PathGraphs,
    PathQuery,
    no_path_message,
    path_details,
)
from okf_explorer.core.graph.traverse import Direction, Edge, check_direction
from okf_explorer.core.index.build import build_index
from okf_explorer.core.index.model import LinkIndex, ResolvedLink
from okf_explorer.core.index.store import IndexCache
from okf_explorer.core.links import (
    ROOT,
    LinkKind,
    RawLink,
    Resolution,
    SlugResolver,
    looks_like_path,
    suggest,
)
from okf_explorer.core.links.look_alikes import differences, plain_form
from okf_explorer.core.pages import (
    COMMONMARK_BREAKS,
    LineBreaks,
    Markup,
    Page,
    PageInfo,
    has_tag,
)
from okf_explorer.core.port import (
    CancelCheck,
    Folder,
    HoldsBases,
    HoldsBlocks,
    PageMapper,
    PageSource,
    ProgressCallback,
    ServerLink,
    StatesExcluded,
    StatesHome,
    StatesLineBreaks,
    StatesMacros,
    StatesMarkup,
    StatesTasksFilter,
    WantedListing,
    WantedTarget,
)

if TYPE_CHECKING:  # imported where used: a `links` run needs none of them (~10 ms at start)
    import networkx as nx

    from okf_explorer.core.audit.page import PageAuditor, PageView
    from okf_explorer.core.bases import Base, BaseTable, FileFacts, View
    from okf_explorer.core.bases.dataview_query import DataviewQuery
    from okf_explorer.core.bases.dataview_tasks import Task
    from okf_explorer.core.graph.best_paths import WalkDirection, WalkRow
    from okf_explorer.core.graph.shape import Bridge, Community, GraphShape
    from okf_explorer.core.graph.suggested import Suggestion
    from okf_explorer.core.search.find_rank import Findable
    from okf_explorer.core.search.mentions import Mentions
    from okf_explorer.core.search.text_index import TextIndex
    from okf_explorer.core.search.text_search import TextSearch


MAX_BASE_PAGES = 50_000
"""Pages a base is run over at most (each page is read for its properties)."""
MENTIONS_KEPT = 64
"""Pages whose unlinked mentions are kept, for the index they were found in: going
back to a page (a hub a reader returns to) shows them at once (a 10k-page wiki of
GitHub threads looked up 450 bodies again, 0.3-0.4 s)."""


class Brain:
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
        progress: ProgressCallback | None = None,
    ) -> None:
        self.source = source
        self._scan = scan
        self._progress = progress
        """Heard by the index builds whose caller gives no progress of its own (the
        command line's note on a terminal)."""
        self._cache = _cache_for(cache_dir)
        self._lock = threading.Lock()  # short critical sections only
        self._build_lock = threading.RLock()  # held for a whole index build
        self._server_lock = threading.Lock()  # asking the source for its graph, once
        self._indexed_graph: IndexBacked | None = None
        self._served: ServerBacked | None = None
        self._server_known = False
        self._text: TextSearch | None = None
        self._auditor: tuple[LinkIndex, PageAuditor] | None = None
        self._definitions_of: tuple[LinkIndex, str, dict[str, str]] | None = None
        self._base_pages_of: dict[bool, tuple[LinkIndex, dict[str, FileFacts]]] = {}
        """Every page as a base reads it, and as a Dataview query does (True: inline
        fields too), for the index they were read with."""
        self._tasks_of: tuple[LinkIndex, dict[str, tuple[dict[str, Any], list[Task]]]] | None = None
        """The frontmatter and tasks of the pages a Dataview `TASK` query read, for the
        index they were read with."""
        self._mentions_of: tuple[LinkIndex, OrderedDict[str, Mentions]] | None = None
        self._findables_of: tuple[LinkIndex, Excluded, list[Findable]] | None = None
        self._private_of: tuple[LinkIndex, frozenset[str]] | None = None

    # -- the source ------------------------------------------------------------------

    @property
    def label(self) -> str:
        """What to call the brain: its source's label (never holds a token)."""
        return self.source.label

    @property
    def local_root(self) -> Path | None:
        """The folder the pages are files of (a `Folder` source), else None."""
        return self.source.local_root if isinstance(self.source, Folder) else None

    def page_file(self, slug: str) -> Path | None:
        """The file of page `slug` when the pages are files (a `Folder`), else None."""
        return self.source.page_file(slug) if isinstance(self.source, Folder) else None

    def line_breaks(self) -> LineBreaks:
        """How a single newline in a page's paragraph reads here (the explorer draws page
        bodies by it): as the source says (`StatesLineBreaks`), else CommonMark."""
        if isinstance(self.source, StatesLineBreaks):
            return self.source.line_breaks()
        return COMMONMARK_BREAKS

    def markup(self) -> Markup:
        """The dialect the pages are written in (the explorer draws them by it): as the
        source says (`StatesMarkup`), else Markdown."""
        return self.source.markup() if isinstance(self.source, StatesMarkup) else "markdown"

    def tasks_global_filter(self) -> str:
        """The text a checklist item holds to be a task to the Tasks plugin's queries
        (`StatesTasksFilter`: a vault's Tasks settings); "" (every item) from any other
        source. Blocking (reads the settings)."""
        if isinstance(self.source, StatesTasksFilter):
            return self.source.tasks_global_filter()
        return ""

    def macros(self) -> dict[str, str]:
        """The macros the pages may call, by name (`StatesMacros`: a Logseq graph's
        `:macros`); none from any other source."""
        return self.source.macros() if isinstance(self.source, StatesMacros) else {}

    def excluded(self) -> Excluded:
        """The pages the source's settings keep out of search (`StatesExcluded`: a vault's
        Obsidian "Excluded files", `core.excluded`); none for any other source."""
        return self.source.excluded() if isinstance(self.source, StatesExcluded) else NONE_EXCLUDED

    def link_text(self, slug: str) -> str:
        """The text the links of page `slug` are read from, for the sentence around a
        link: its body, with the links of a page written for Logseq or Dendron written
        as ours (`core.links.dialects`). Blocking; raises as `page` does."""
        content = self.page(slug).content
        markup = self.markup()
        if markup == "markdown":
            return content
        from okf_explorer.core.links.dialects import links_text

        return links_text(markup, content)

    def block_texts(self, ids: Collection[str]) -> dict[str, str]:
        """The text of each referenced block of `ids` the source holds (`HoldsBlocks`: a
        Logseq graph's `((id))`), by id in lower case; {} from any other source.
        Blocking (the first call reads every page)."""
        return self.source.block_texts(ids) if isinstance(self.source, HoldsBlocks) else {}

    def stated_start(self, slugs: Sequence[str]) -> analysis.StartChoice | None:
        """The page the source's own settings open first (`StatesHome`), among `slugs`;
        None when it states none: `analysis.choose_start` then chooses."""
        if isinstance(self.source, StatesHome) and (home := self.source.home_page(slugs)):
            return analysis.StartChoice(*home)
        return None

    def list_pages(self) -> list[tuple[str, str]]:
        """(slug, title) of every page, straight from the source's listing: never
        scans, so it answers before the index (a folder listing knows no titles yet:
        the slug stands in)."""
        return [(s.slug, s.info.title if s.info else s.slug) for s in self.source.enumerate()]

    def page(self, slug: str) -> Page:
        """One page fresh from the source, titled as the index titles it when the index is
        built (a heading many pages share names none of them:
        `core.index.build.name_shared_headings`). Raises PageNotFound etc."""
        return self.titled(self.source.get_page(slug))

    def titled(self, page: Page) -> Page:
        """`page` titled as the index titles it, when the index is built (never builds): a
        page read before the index was (the explorer's first) is titled again once it is."""
        index = self.index
        if page.heading_title is None or page.title_stated or index is None:
            return page
        info = index.pages.get(page.slug)
        if info is None or info.heading_title != page.heading_title or info.title == page.title:
            return page
        return replace(page, title=info.title)

    def indexed_title(self, slug: str) -> str | None:
        """The title the index holds for `slug`, without reading the page (None before
        the index is built, or for a page it does not hold): what rows naming pages show."""
        index = self.index
        info = index.pages.get(slug) if index is not None else None
        return info.title if info is not None else None

    def titled_page(self, slug: str) -> Page:
        """`page`, the index built first when the page's title comes from its heading (a
        few other pages may share that heading): what `get` answers with."""
        page = self.source.get_page(slug)
        if page.heading_title is not None and not page.title_stated:
            self.ensure_index()
        return self.titled(page)

    def close(self) -> None:
        """Close the source; the Brain must not be used afterwards."""
        with self._lock:  # what was derived and asked goes; the index stays readable
            if self._served is not None:
                self._served = self._served.fresh()
            if self._indexed_graph is not None:
                self._indexed_graph = IndexBacked(self._indexed_graph.index)
        if self._text is not None:
            self._text.close()
        self.source.close()

    # -- the index -------------------------------------------------------------------

    def ensure_index(
        self, progress: ProgressCallback | None = None, cancel: CancelCheck | None = None
    ) -> LinkIndex:
        """The index, built (from cache where valid) on first use."""
        return self._indexed(progress, cancel).index

    def refresh(
        self, progress: ProgressCallback | None = None, cancel: CancelCheck | None = None
    ) -> LinkIndex:
        """Re-list the source and rescan only changed pages.

        Also forgets what was derived from the old index (unless nothing changed: the
        index is then the same object, and what was derived from it stands), and the
        server graph's answers and listing. On failure (`SourceUnavailable`, `Cancelled`) the
        previous index stays in place. Readers are not blocked meanwhile: they keep
        using the previous index.
        """
        return self._refresh(progress, cancel).index

    @property
    def index(self) -> LinkIndex | None:
        """The index if built, else None (never builds)."""
        graph = self._indexed_graph
        return graph.index if graph is not None else None

    def text_index_path(self) -> Path | None:
        """Where the full-text index is kept: beside the link index's cache file, or
        None (in memory) when the disk cache is off."""
        store = IndexCache.from_environment() if self._cache is None else (self._cache or None)
        if store is None:
            return None
        return store.path_for(self.source.cache_key).with_suffix(".fts")

    def warm_resolver(self) -> None:
        """Build the resolver and its tables now (~0.2 s for 10k pages), e.g. in the
        thread that built the index, so the first links looked up later (a backlink's
        sentences, a followed link) do not pay for it."""
        self._resolver()[0].warm()

    def _indexed(
        self, progress: ProgressCallback | None = None, cancel: CancelCheck | None = None
    ) -> IndexBacked:
        """The index's graph, the index built on first use."""
        graph = self._indexed_graph
        if graph is not None:
            return graph
        with self._build_lock:
            graph = self._indexed_graph
            if graph is None:
                index = build_index(
                    self.source,
                    cache=self._cache,
                    progress=progress or self._progress,
                    cancel=cancel,
                )
                graph = self._install(index)
            return graph

    def _refresh(
        self, progress: ProgressCallback | None = None, cancel: CancelCheck | None = None
    ) -> IndexBacked:
        with self._build_lock:
            graph = self._indexed_graph
            index = build_index(
                self.source,
                previous=graph.index if graph is not None else None,
                cache=self._cache,
                progress=progress or self._progress,
                cancel=cancel,
            )
            return self._install(index)

    def _install(self, index: LinkIndex) -> IndexBacked:
        """A new index: its graph, and a server graph that has forgotten its answers
        (the same index: its graph stays, with what it derived)."""
        kept = self._indexed_graph
        graph = kept if kept is not None and kept.index is index else IndexBacked(index)
        with self._lock:
            self._indexed_graph = graph
            if self._served is not None:
                self._served = self._served.fresh()
        return graph

    def _indexed_root(self, slug: str, *, need_readable: bool) -> IndexBacked:
        """The index's graph, once `slug` is known to be a page of it (module doc)."""
        graph = self._indexed()
        info = graph.index.pages.get(slug)
        if info is None:
            self.source.get_page(slug)  # raises PageNotFound, SourceUnavailable, ...
            graph = self._refresh()
            info = graph.index.pages.get(slug)
            if info is None:
                raise PageNotFound(slug)
        if need_readable and not info.readable:
            reason = info.error or "it could not be read"
            raise PageUnreadable(slug, reason, info.error_kind or "unreadable")
        return graph

    # -- which graph answers ---------------------------------------------------------

    @property
    def answered_by(self) -> str:
        """Which graph answers link queries: `"index"` (body scan) or `"server"`."""
        try:
            return "server" if self._server() is not None else "index"
        except OkfError:
            return "index"

    def _server(self) -> ServerBacked | None:
        """The source's stored graph unless `scan` was asked for: asked once per Brain
        (a failure to ask is not remembered), made fresh by every new index."""
        if self._scan:
            return None
        if not self._server_known:
            with self._server_lock:
                if not self._server_known:
                    stored = self.source.server_graph()
                    if stored is not None:
                        self._served = ServerBacked(stored, self.source)
                    self._server_known = True
        return self._served

    def _answering(self, slug: str, *, need_readable: bool) -> Graph:
        """The graph that answers for `slug`, once `slug` is known to be a page of it."""
        served = self._server()
        if served is not None:
            served.check_root(slug)
            return served
        return self._indexed_root(slug, need_readable=need_readable)

    def _listing(self) -> ServerListing | None:
        """The server's listing while there is no index yet (with a server graph)."""
        if self._indexed_graph is not None:
            return None
        served = self._server()
        return served.listing if served is not None else None

    def _is_server_page(self, name: str) -> bool:
        """Before any index, with a server graph: whether `name` is itself a slug of the
        server, asked with one `get_page` (remembered as a root seen, so the walk that
        follows asks nothing again). False without a server graph or once indexed."""
        if self._indexed_graph is not None:
            return False
        served = self._server()
        if served is None:
            return False
        try:
            served.check_root(name)
        except PageNotFound:
            return False
        return True

    # -- pages and names -------------------------------------------------------------

    def pages(self, type: str | None = None, tag: str | None = None) -> list[PageInfo]:
        """Every page (filtered), slug order.

        With a server graph and no index yet, the server's listing answers when it
        carries titles and types, so listing never forces a full body scan (see
        `core.graph.backends` for tags, which gbrain's listing lacks).
        """
        listing = self._listing()
        infos = listing.pages(type, tag) if listing is not None else None
        if infos is not None:
            return infos
        return [
            info
            for info in self.ensure_index().pages.values()
            if (type is None or info.type == type) and (tag is None or has_tag(info.tags, tag))
        ]

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
        exact = not _path_like(name) and self._listing() is None
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
            refdef = self._definitions(index, from_slug).get(target)
        resolver, _ = self._resolver()
        return resolver.resolve(target, from_slug, kind, refdef)

    def look_alike(self, from_slug: str, link: ResolvedLink) -> str | None:
        """The page a dangling `link` written on `from_slug` would lead to if its target's
        look-alike characters (`core.links.look_alikes`: `‑` for `-`) were written plainly,
        or None. The link stays dangling, as in Obsidian: this only explains why."""
        plain = plain_form(link.target)
        if link.exists or plain is None:
            return None
        resolution = self.resolve_link(from_slug, plain, link.kind)
        return resolution.slug if resolution.exists else None

    # -- bases -----------------------------------------------------------------------

    def base_table(
        self, from_slug: str, name: str, view: str | None = None, *, written: str | None = None
    ) -> BaseTable:
        """What view `view` (else the first) of the Obsidian base `name` (or the base
        `written` in the page, a ```` ```base ```` block's YAML) shows on page `from_slug`
        (`core.bases`). Blocking: reads every page's properties, once an index (kept for
        the next base). `BaseError` says why it cannot be shown."""
        from okf_explorer.core.bases import BaseError, read_base

        if not isinstance(self.source, HoldsBases):
            raise BaseError("only a vault's folder holds bases")
        loaded = self.source.read_base(name) if written is None else self.source.parse_base(written)
        base = read_base(loaded)
        return self._run_base(base, base.view(view), from_slug, self._base_pages(False))

    def dataview_table(self, from_slug: str, query: DataviewQuery) -> BaseTable:
        """What a Dataview query written on page `from_slug` shows (`core.bases.dataview_query`):
        its base run over every page's fields, frontmatter and inline (`key:: value`).
        Blocking, as `base_table`; `BaseError` says why it cannot be shown."""
        from okf_explorer.core.bases import BaseError
        from okf_explorer.core.bases.dataview_query import as_groups, group_pages

        if not isinstance(self.source, HoldsBases):
            raise BaseError("only a vault's folder runs Dataview queries")
        pages, base, groups = self._base_pages(True), query.base, query.groups
        whole = groups is not None or query.tasks is not None  # what they are made of
        table = self._run_base(base, base.view(None), from_slug, pages, whole)
        if query.tasks is not None:
            tasks = query.tasks
            return self._run_base(tasks, tasks.view(None), from_slug, self._tasks(table, pages))
        if groups is None:
            return table
        grouped = group_pages(table, pages)
        return as_groups(self._run_base(groups, groups.view(None), from_slug, grouped))

    def _tasks(self, table: BaseTable, pages: Mapping[str, FileFacts]) -> Mapping[str, FileFacts]:
        """The tasks of the pages `table` keeps (every one: `_run_base`'s `whole`), each a
        row a base reads (`core.bases.dataview_tasks`), read from their text once an index;
        the pages found by slug too."""
        from okf_explorer.core.bases.dataview_query import OverPages
        from okf_explorer.core.bases.dataview_tasks import MAX_TASKS, task_rows

        index = self.ensure_index()
        if self._tasks_of is None or self._tasks_of[0] is not index:
            self._tasks_of = (index, {})
        known = self._tasks_of[1]
        missing = [slug for slug, _ in table.rows if slug not in known]
        if missing and isinstance(self.source, PageMapper):  # where the pages are read
            known.update(self.source.map_pages(missing, frontmatter_and_tasks))
        for slug in missing:
            if slug not in known:
                with contextlib.suppress(OkfError):
                    known[slug] = frontmatter_and_tasks(self.page(slug))
        rows: dict[str, FileFacts] = {}
        for slug, _ in table.rows:
            if slug not in known:
                continue  # unreadable: it holds no task we can show
            frontmatter, tasks = known[slug]
            for task in task_rows(pages[slug], frontmatter, tasks[: MAX_TASKS - len(rows)]):
                rows[f"{slug}\x00{len(rows)}"] = task
            if len(rows) >= MAX_TASKS:
                break
        return OverPages(rows, pages)

    def _run_base(
        self,
        base: Base,
        chosen: View,
        from_slug: str,
        pages: Mapping[str, FileFacts],
        whole: bool = False,
    ) -> BaseTable:
        """`chosen` run over `pages` for page `from_slug`: the rows a table shows
        (`MAX_ROWS`), or with `whole` every row (the pages a query's groups or tasks are
        made of)."""
        from okf_explorer.core.bases import MAX_ROWS, run_view

        resolved: dict[tuple[str, str | None], str | None] = {}

        def resolve(target: str, origin: str | None) -> str | None:
            key = (target, origin)
            if key not in resolved:
                resolution = self.resolve_link(origin or from_slug, target, "wiki")
                resolved[key] = resolution.slug if resolution.exists else None
            return resolved[key]

        rows = None if whole else MAX_ROWS
        return run_view(base, chosen, pages, pages.get(from_slug), resolve, rows=rows)

    def _base_pages(self, inline_fields: bool) -> dict[str, FileFacts]:
        """Every readable page as a base reads it (`FileFacts`), for the index built; with
        `inline_fields`, as a Dataview query does (its `key:: value` fields too)."""
        from okf_explorer.core.bases import BaseError, FileFacts

        index = self.ensure_index()
        cached = self._base_pages_of.get(inline_fields)
        if cached is not None and cached[0] is index:
            return cached[1]
        if len(index.pages) > MAX_BASE_PAGES:
            raise BaseError(f"a base over more than {MAX_BASE_PAGES:,} pages is not shown")
        root = self.local_root
        files_are_slugs = root is not None and self.markup() == "markdown"
        readable = [slug for slug, info in index.pages.items() if info.readable]
        read: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {}
        if isinstance(self.source, PageMapper):  # where the pages are read (a folder's workers)
            reader = page_fields_and_tags if inline_fields else page_properties
            read.update(self.source.map_pages(readable, reader))
        pages: dict[str, FileFacts] = {}
        for slug in readable:
            if slug not in read:
                try:
                    page = self.page(slug)
                    read[slug] = (
                        page_fields_and_tags(page) if inline_fields else page_properties(page)
                    )
                except OkfError:
                    continue
            properties, tags = read[slug]
            path, file = f"{slug}.md", None
            if files_are_slugs:  # a plain vault: the slug is the file's path (SPEC §2)
                file = f"{root}/{path}"
            elif root is not None and (found := self.page_file(slug)) is not None:
                with contextlib.suppress(ValueError):  # a Logseq or Dendron file name
                    path, file = found.relative_to(root).as_posix(), str(found)
            links = tuple(
                dict.fromkeys(link.to for link in index.forward.get(slug, ()) if link.exists)
            )
            pages[slug] = FileFacts(
                slug,
                path,
                properties,
                tags,
                links,
                tuple(dict.fromkeys(s for s in index.in_slugs(slug) if s != slug)),
                file,
            )
        self._base_pages_of[inline_fields] = (index, pages)
        return pages

    def _definitions(self, index: LinkIndex, slug: str) -> dict[str, str]:
        """Each raw target of `slug` that a reference definition on it resolves (the
        first), for the last page asked: a page's links are resolved one after the other
        (6,000 of them on a 1.5 MB index page, which read the page's links each time)."""
        cached = self._definitions_of
        if cached is not None and cached[0] is index and cached[1] == slug:
            return cached[2]
        found: dict[str, str] = {}
        for row in index.raw_links.get(slug, ()):
            raw = RawLink.from_row(row)
            if raw.refdef is not None:
                found.setdefault(raw.target, raw.refdef)
        self._definitions_of = (index, slug, found)
        return found

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Slugs of pages with names close to `name` (slugs, file names, titles,
        aliases), best first: what to offer when `name` resolves to nothing."""
        return suggest(name, self.pages(), limit)

    def findables(self) -> list[Findable]:
        """Every page as the page finder ranks it (`core.search.find_rank`): its title,
        aliases, how many pages link to it, whether the source's settings exclude it. The
        explorer's finder and `serve`'s `resolve_slugs` read the same rows. Made once per
        index (230 ms for a 35k-page wiki, which each `resolve_slugs` paid)."""
        from okf_explorer.core.search.find_rank import Findable

        index = self.ensure_index()
        reverse, excluded = index.reverse, self.excluded()
        made = self._findables_of
        if made is not None and made[0] is index and made[1] is excluded:
            return made[2]
        findables = [
            Findable(
                slug,
                info.title,
                info.aliases,
                len(set(reverse.get(slug, ()))),
                bool(excluded) and excluded(slug),
            )
            for slug, info in index.pages.items()
        ]
        self._findables_of = (index, excluded, findables)
        return findables

    def private_pages(self) -> frozenset[str]:
        """The pages whose frontmatter says `visibility: private` (`core.pages.is_private`):
        what `serve` keeps from its callers, as gbrain keeps them from remote callers.
        Made once per index."""
        index = self.ensure_index()
        made = self._private_of
        if made is None or made[0] is not index:
            private = frozenset(slug for slug, info in index.pages.items() if info.private)
            made = self._private_of = (index, private)
        return made[1]

    def resolve_roots(self, specs: Iterable[str]) -> list[str]:
        """Root specs of a walk → slugs, first appearance first, without repeats:
        `tag:T` every page with tag T, `type:T` every page of type T (slug order,
        `best_paths.root_pages`), anything else a name resolved like a wiki link on a
        root page (SPEC §3). `PageNotFound` for a name that matches nothing (with the
        closest names), or a tag or type no page has."""
        from okf_explorer.core.graph.best_paths import root_pages

        found: dict[str, None] = {}
        for spec in specs:
            spec = spec.strip()
            slugs = root_pages(spec, lambda: self.ensure_index().pages)
            if slugs is None:
                slug = self.resolve_slug(spec)
                if slug is None:
                    close = self.suggest(spec)
                    raise PageNotFound(spec, f"did you mean {' or '.join(close)}?" if close else "")
                slugs = [slug]
            found.update(dict.fromkeys(slugs))
        return list(found)

    def _resolver(self) -> tuple[SlugResolver, Mapping[str, object]]:
        """One resolver per corpus: the index's, or the server listing's before any scan."""
        listing = self._listing()
        found = listing.resolver() if listing is not None else None
        if found is not None:
            return found
        graph = self._indexed()
        return graph.resolver(), graph.index.pages

    # -- links -----------------------------------------------------------------------

    def forward_links(self, slug: str) -> list[ResolvedLink]:
        """The page's resolved links, first appearance first (dangling ones included)."""
        index = self._indexed_root(slug, need_readable=True).index
        return list(index.forward.get(slug, ()))

    def link_between(self, frm: str, to: str) -> ResolvedLink | None:
        """The resolved link on page `frm` that leads to `to` (rule, candidates), if any."""
        links = self.ensure_index().forward.get(frm, ())
        return next((link for link in links if link.to == to), None)

    def backlinks(self, slug: str) -> list[str]:
        """Pages linking to `slug`: one hop, de-duplicated, slug order (SPEC §4)."""
        return self._answering(slug, need_readable=False).backlinks(slug)

    def out_edges(self, slug: str) -> list[tuple[str, str]]:
        """`(node, rel)` of each edge leaving `slug`, one hop: its own links, the
        relations other pages state towards it from its side (gbrain's incoming
        fields), dangling targets included over the index."""
        return self._answering(slug, need_readable=True).out_edges(slug)

    def in_edges(self, slug: str) -> list[tuple[str, str]]:
        """`(page, rel)` of each edge into `slug`, one hop, slug order, once per relation."""
        return self._answering(slug, need_readable=False).in_edges(slug)

    def traverse(
        self,
        slug: str,
        depth: object = 1,
        direction: Direction = "out",
        rels: Collection[str] | None = None,
        implied: bool = False,
        unseen: Collection[str] = (),
    ) -> list[Edge]:
        """Breadth-first edges from `slug` (SPEC §4); see `graph.traverse_with`.

        Each edge carries its relation (`Edge.rel`); `rels`, when given, keeps
        the walk to edges of those relations; `implied` walks the implied inverse
        edges too (`core.graph.implied`), each marked `Edge.implied`. The walk never
        reaches or runs through a page of `unseen` (over the index, the graph without
        them, `LinkIndex.without`; a server keeps its own private pages, and an edge to
        or from one of `unseen` is left out of its answer).
        """
        direction = check_direction(direction)
        wanted = frozenset(rels) if rels is not None else None
        hidden = frozenset(unseen)
        graph = self._answering(slug, need_readable=True)
        if isinstance(graph, IndexBacked):
            return graph.without(hidden).traverse(slug, depth, direction, wanted, implied)
        edges = graph.traverse(slug, depth, direction, wanted, implied)
        return [edge for edge in edges if edge.frm not in hidden and edge.to not in hidden]

    def implied_edges(self, slug: str, side: Literal["out", "in"]) -> list[tuple[str, str]]:
        """`(page, rel)` of each implied inverse edge leaving (`out`) or entering (`in`)
        `slug`, in the graph that answers (`core.graph.implied`): never a backlink."""
        return self._answering(slug, need_readable=side == "out").implied_edges(slug, side)

    def known_degree(self, slug: str, side: Literal["out", "in"]) -> int | None:
        """How many pages `slug` links to (`out`) or is linked from (`in`) in the graph
        that answers (`answered_by`), when known without asking anything: over the
        index always once it is built; over a server graph once that page was asked."""
        graph: Graph | None = self._server() or self._indexed_graph
        return graph.known_degree(slug, side) if graph is not None else None

    def server_link(self, frm: str, to: str, rel: str) -> ServerLink | None:
        """What the server said of the edge `frm` → `to` of relation `rel` (its
        `link_source` and `context`), when a server graph answered for either end."""
        served = self._server()
        return served.server_link(frm, to, rel) if served is not None else None

    def page_view(self, slug: str, text: str | None = None) -> PageView | None:
        """The audit's view of `slug` (`core.audit.page`): the links its text states
        against the ones the server stores, or None when no server graph answers (or the
        source has no model of the importer that loaded its server, `ImportedServer`).
        Builds the index if needed; `text` is the page's body (fetched when None)."""
        from okf_explorer.core.audit.model import ImportedServer

        served = self._server()
        if served is None or not isinstance(self.source, ImportedServer):
            return None
        served.check_root(slug)
        stored = served.stored_links(slug)
        index = self.ensure_index()
        info = index.pages.get(slug)
        stated = index.forward.get(slug, ()) if info is not None and info.readable else ()
        if text is None:
            text = self.source.get_page(slug).content
        with self._lock:
            if self._auditor is None or self._auditor[0] is not index:
                from okf_explorer.core.audit.page import PageAuditor

                self._auditor = (index, PageAuditor(index.pages, self.source.importer()))
            auditor = self._auditor[1]
        return auditor.compare(slug, text, stated, stored)

    # -- the whole graph (always the index) ------------------------------------------

    def relations(self) -> list[str]:
        """Every relation of the index's graph, `links` first (see `LinkIndex.relations`);
        computed once per index."""
        return self._indexed().relations()

    def shortest_path(self, frm: str, to: str, direction: Direction = "out") -> list[str] | None:
        """Fewest-hop path `[frm, …, to]` over the index, or None (see `analysis`)."""
        return analysis.shortest_path(self.ensure_index(), frm, to, direction)

    def path_graphs(self) -> PathGraphs:
        """The index's graphs for `path` queries (`core.graph.paths`), kept until `refresh`."""
        return self._indexed().path_graphs()

    def explained_paths(self, query: PathQuery) -> list[tuple[FoundPath, tuple[HopDetail, ...]]]:
        """The paths of `query` (`core.graph.paths`), shortest first, each with what its
        hops are (`path_details`); `NoPath` when there is none. Blocking (builds the
        index and its path graph on first use, reads the pages the links are on)."""
        found = self.path_graphs().find(query)
        if not found:
            raise NoPath(no_path_message(query))
        resolver, _ = self._resolver()
        details = path_details(found, self.ensure_index().forward, self.link_text, resolver)
        return list(zip(found, details, strict=True))

    def graph(self) -> nx.MultiDiGraph:
        """The networkx graph of the index, built on first use and kept until `refresh`.

        Treat it as read-only: it is shared by every caller.
        """
        return self._indexed().networkx()

    def link_weights(self) -> LinkWeights:
        """The weights of the index's links (`core.graph.best_paths`), kept until `refresh`."""
        return self._indexed().weights()

    def walk(
        self,
        roots: Sequence[str],
        depth: object = 1,
        min_weight: float = 0.0,
        direction: WalkDirection = "out",
        rels: Collection[str] | None = None,
        implied: bool = False,
        unseen: Collection[str] = (),
    ) -> list[WalkRow]:
        """The best path to every page reachable from `roots` (slugs, see
        `resolve_roots`) over the index's link weights, along the relations `rels` only
        when given, and the implied inverse edges with `implied`, as if the pages
        `unseen` did not exist (`LinkIndex.without`: a link's weight is its share of
        the links its page has left) (`core.graph.best_paths.walk`: `ValueError` for a
        bad direction or weight, `PageNotFound` for a root that is not a page)."""
        from okf_explorer.core.graph.best_paths import walk

        graph = self._indexed().without(frozenset(unseen))
        inverses = graph.implied() if implied else None
        return walk(graph.weights(), roots, depth, min_weight, direction, rels, inverses)

    def orphans(self, include_reserved: bool = False, unseen: Collection[str] = ()) -> list[str]:
        """Pages no other page links to; reserved `index`/`log` pages only on request; as
        if the pages `unseen` did not exist (`LinkIndex.without`)."""
        index = self._indexed().without(frozenset(unseen)).index
        return analysis.orphans(index, include_reserved)

    def dead_ends(self, include_reserved: bool = False) -> list[str]:
        """Readable pages linking to no other existing page."""
        return analysis.dead_ends(self.ensure_index(), include_reserved)

    def dangling(self) -> dict[str, list[str]]:
        """Dangling node id → pages linking to it."""
        return analysis.dangling(self.ensure_index())

    def hubs(self, n: int = 10, by: str = "in") -> list[tuple[str, int]]:
        """The `n` most linked pages by `in`, `out` or `total` degree."""
        return analysis.hubs(self.ensure_index(), n, by)

    def stats(self, top: int = TOP_HUBS, unseen: Collection[str] = ()) -> BrainStats:
        """Counts, hubs (the `top` of each ranking), orphans, dead ends and dangling
        targets of the index (`core.graph.analysis.brain_stats`), and the dangling targets
        that look like a page's name (`look_alike`); as if the pages `unseen` did not
        exist, nor their links (`LinkIndex.without`: `serve`'s private pages)."""
        index = self._indexed().without(frozenset(unseen)).index
        stats = brain_stats(index, top)
        return replace(stats, look_alikes=tuple(self._look_alikes(index, stats.dangling)))

    def _look_alikes(
        self, index: LinkIndex, dangling: Iterable[tuple[str, Sequence[str]]]
    ) -> Iterator[LookAlike]:
        """Each missing target that names a page once its look-alike characters are
        written plainly, resolved from the first page linking to it."""
        for target, froms in dangling:
            if not froms or plain_form(target) is None:
                continue
            links = index.forward.get(froms[0], ())
            link = next((item for item in links if item.to == target and not item.exists), None)
            if link is not None and (page := self.look_alike(froms[0], link)) is not None:
                yield LookAlike(target, page, tuple(differences(link.target)))

    def wanted_pages(self) -> list[WantedTarget]:
        """Link targets that have no page yet, most-referenced first, with the pages
        that want them: the server's own list when the source keeps one
        (`WantedListing`: no body scan) and `scan` is False, else the index's dangling
        targets (`core.graph.analysis.wanted_targets`)."""
        if not self._scan and isinstance(self.source, WantedListing):
            listed = self.source.wanted_targets()
            if listed is not None:
                return listed
        return analysis.wanted_targets(self.ensure_index())

    def context_pack(
        self,
        slug: str,
        depth: int | None = None,
        budget: int | None = None,
        unseen: Collection[str] = (),
    ) -> dict[str, Any]:
        """What an agent reads before answering about page `slug`: its text, then its
        neighbours by hop, cut to `budget` characters (`core.graph.context_pack`, which
        gives the shape and the rules), as if the pages `unseen` did not exist
        (`LinkIndex.without`). Over the index, as paths and walks are; `PageNotFound`
        for a slug that is no page. Blocking (reads the page, and the pages whose
        linking sentences fit)."""
        from okf_explorer.core.graph.context_pack import clamp_budget, clamp_pack_depth
        from okf_explorer.core.graph.context_pack import context_pack as pack
        from okf_explorer.core.graph.paths import link_sentence

        index = self._indexed_root(slug, need_readable=False).without(frozenset(unseen)).index
        page = self.page(slug)
        resolver, _ = self._resolver()
        bodies: dict[str, str | None] = {}

        def sentence(on: str, link: ResolvedLink) -> str | None:
            return link_sentence(on, link, self.link_text, resolver, bodies)

        return pack(index, page, sentence, clamp_pack_depth(depth), clamp_budget(budget))

    def analyze(
        self, top: int = 10, *, mentions: bool = True, unseen: Collection[str] = ()
    ) -> GraphShape:
        """Communities, central pages, bridges and suggested links of the index, each
        list cut to `top` (`core.graph.shape.analyze`); the suggestions look up the
        unlinked mentions of the central pages (`unlinked_mentions`, which may build
        the full-text index) unless `mentions` is False. As if the pages `unseen` did
        not exist (`LinkIndex.without`). The communities are kept until `refresh`
        (`communities`), those without `unseen` for the last such set."""
        from okf_explorer.core.graph.shape import analyze

        hidden = frozenset(unseen)

        def mentioning(slug: str) -> list[str]:
            found = self.unlinked_mentions(slug).found
            return [mention.slug for mention in found if mention.slug not in hidden]

        graph = self._indexed().without(hidden)
        looked_up = mentioning if mentions else None
        return analyze(graph.index, top, looked_up, graph.projection(), graph.communities())

    def suggested_links(self, slug: str, top: int = 10) -> list[Suggestion]:
        """The pages `slug` probably should link to, by shared neighbours, best first
        (`core.graph.suggested.suggestions_for`; `[]` for a page the index lacks)."""
        from okf_explorer.core.graph.suggested import suggestions_for

        graph = self._indexed()
        return suggestions_for(graph.index, graph.projection(), slug, top)

    def bridges(self, top: int = 10) -> list[Bridge]:
        """The pages whose removal splits their part of the graph, ranked as `analyze`
        ranks them, at most `top` (`core.graph.shape.ranked_bridges`)."""
        from okf_explorer.core.graph.shape import ranked_bridges

        return ranked_bridges(self._indexed().projection())[: max(0, top)]

    def communities(self) -> list[Community]:
        """Every community of the index, largest first (`core.graph.shape`): they
        partition the pages; for colouring a graph by community. Kept until `refresh`."""
        return self._indexed().communities()

    # -- text ------------------------------------------------------------------------

    def text_search(self) -> TextSearch:
        """Full-text search and its index (`core.search.text_search`), made on first use."""
        with self._server_lock:
            if self._text is None:
                from okf_explorer.core.search.text_search import TextSearch

                self._text = TextSearch(
                    self.source,
                    self.ensure_index,
                    lambda tag: self.pages(tag=tag),
                    self.text_index_path(),
                    use_server=not self._scan,
                    excluded=self.excluded,
                    markup=self.markup,
                )
            return self._text

    def unlinked_mentions(self, slug: str, progress: ProgressCallback | None = None) -> Mentions:
        """Pages that mention `slug`'s page without linking to it, slug order
        (`core.search.mentions`; builds the index, and the text index when needed:
        `progress` hears of that fill as `TextIndex.sync` tells it). Kept for the
        index they were found in (`MENTIONS_KEPT` pages); the text index is synced
        with that index, so a new index finds them anew."""
        from okf_explorer.core.search.mentions import unlinked_mentions

        def text_index() -> TextIndex:
            return self.text_search().text_index(progress)

        index = self.ensure_index()
        with self._lock:
            if self._mentions_of is None or self._mentions_of[0] is not index:
                self._mentions_of = (index, OrderedDict())
            kept = self._mentions_of[1]
            found = kept.get(slug)
            if found is not None:
                kept.move_to_end(slug)
        if found is None:
            found = unlinked_mentions(index, text_index, slug)
            with self._lock:
                kept[slug] = found
                while len(kept) > MENTIONS_KEPT:
                    kept.popitem(last=False)
        excluded = self.excluded()
        return found.only(lambda other: not excluded(other)) if excluded else found


def page_properties(page: Page) -> tuple[dict[str, Any], tuple[str, ...]]:
    """What a base reads of a page's text: its properties and tags (picklable: run where
    the pages are read, `PageMapper`)."""
    return page.frontmatter, page.tags


def frontmatter_and_tasks(page: Page) -> tuple[dict[str, Any], list[Task]]:
    """What a Dataview `TASK` query reads of a page's text: its frontmatter and its tasks
    (`core.bases.dataview_tasks.page_tasks`; picklable, as `page_properties`)."""
    from okf_explorer.core.bases.dataview_tasks import page_tasks

    return page.frontmatter, page_tasks(page.content)


def page_fields_and_tags(page: Page) -> tuple[dict[str, Any], tuple[str, ...]]:
    """What a Dataview query reads of a page's text: its fields (frontmatter, then inline
    `key:: value`: `core.dataview.query_fields`) and tags (picklable, as
    `page_properties`)."""
    from okf_explorer.core.dataview import query_fields

    return query_fields(page.frontmatter, page.content), page.tags


def _cache_for(cache_dir: Path | str | Literal[False] | None) -> IndexCache | Literal[False] | None:
    """`None` → the default cache (env / platformdirs); `False` → none; a path → that folder."""
    if cache_dir is None or cache_dir is False:
        return cache_dir
    return IndexCache(Path(cache_dir))


def _path_like(name: str) -> bool:
    """Names the resolver reads as paths or with `.md` cut (never a plain exact slug)."""
    return name != name.strip() or looks_like_path(name)
