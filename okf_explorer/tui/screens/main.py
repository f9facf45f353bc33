"""The explorer: page, link tree and traversal panes over one `Brain`.

Every source call runs in a worker (`asyncio.to_thread` for page loads and
traversals, a thread worker for the index build), so the event loop never waits
on disk or network. The start page is read first and the index build starts
once it is on screen (so the two do not compete for the first paint); the link
tree and the traversal panel fill in when the index is ready, so a traversal
never races the index build for the same source. Keys work meanwhile: changing
depth or direction updates the title at once and the slice when it can.

Navigation is committed to the history once the page load has answered. A page
that cannot be loaded (the source went away) becomes the current entry anyway, its
pane saying why (`Could not load SLUG: reason · r retries`), so the title, the panes
and `back` all agree; a slice that cannot be walked empties the traversal panel.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import ClassVar, Literal

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.command import Provider
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Tree
from textual.worker import Worker, WorkerState, get_current_worker

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import (
    AuthError,
    Cancelled,
    OkfError,
    PageNotFound,
    PageUnreadable,
    SourceUnavailable,
)
from okf_explorer.core.fast_gc import freeze_survivors
from okf_explorer.core.link_grammar import LinkKind
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.commands import PageFinder
from okf_explorer.tui.history import History, View
from okf_explorer.tui.screens.explorer_keys import EXPLORER_BINDINGS, ExplorerKeys
from okf_explorer.tui.screens.explorer_start import ExplorerStart
from okf_explorer.tui.settings import EXPORT_DIR_ENV
from okf_explorer.tui.widgets.link_tree import LinkTree, incoming_links, outgoing_links
from okf_explorer.tui.widgets.page_pane import PagePane
from okf_explorer.tui.widgets.status_bar import StatusBar
from okf_explorer.tui.widgets.traversal_panel import TraversalPanel

FATAL_AT_START = (SourceUnavailable, AuthError)
Move = Literal["visit", "moved"]
"""`visit` adds a history entry once the page loads; `moved`: back/forward already moved it."""
SPINNER_DELAY = 0.15
"""Seconds a page load may take before the page pane shows a loading spinner."""


class MainScreen(ExplorerStart, ExplorerKeys, Screen[None]):
    """The three panes, the status line and every key of SPEC §8."""

    CSS_PATH = "main.tcss"
    COMMANDS: ClassVar[set[type[Provider]]] = {PageFinder}
    BINDINGS: ClassVar[list[BindingType]] = EXPLORER_BINDINGS

    class IndexProgressed(Message):
        """Posted from the index thread, at most ~10 times a second."""

        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done, self.total = done, total

    class IndexBuilt(Message):
        """Posted from the index thread once the index is ready."""

        def __init__(self, answered_by: str, pages: list[tuple[str, str]]) -> None:
            super().__init__()
            self.answered_by, self.pages = answered_by, pages

    def __init__(
        self, brain: Brain, *, start: str | None, export_dir: Path, source_label: str
    ) -> None:
        super().__init__()
        self.brain = brain
        self.start = start
        self.export_dir = export_dir
        self.source_label = source_label
        self.history = History()
        self.pages: list[tuple[str, str]] = []
        self.index_ready = False
        self.loaded_once = False
        self.failed_at_start = False
        self.index_started = False
        self.indexing = False
        """An index build is running (`ctrl+x` cancels it)."""
        self.last_export: Path | None = None
        self.pending_start: str | None = None
        self._spinner_for: object | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="◆")
        with Horizontal(id="panes"):
            yield PagePane(id="page-pane")
            with Vertical(id="graph-column"):
                yield LinkTree(self.brain, id="link-tree")
                yield TraversalPanel(id="traversal")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "okf-explorer"
        self.query_one(StatusBar).set_source(self.source_label)
        self.query_one("#link-tree").border_title = "links"
        self.query_one("#page-pane").border_title = "page"
        self.query_one(TraversalPanel).exists = self._exists
        self.start_up()

    # ------------------------------------------------------------------ start and index

    @work(thread=True, group="index", exclusive=True, exit_on_error=False)
    def _build_index(self, refresh: bool = False) -> None:
        """Build (or refresh) the index off the event loop; cancellable via the worker."""
        worker = get_current_worker()
        last = 0.0

        def progress(done: int, total: int) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= 0.1 or done == total:
                last = now
                self.post_message(self.IndexProgressed(done, total))

        build = self.brain.refresh if refresh else self.brain.ensure_index
        index = build(progress, lambda: worker.is_cancelled)
        # The index is ~10 long-lived, acyclic objects per link, built with the cyclic
        # GC paused: the first full pass after it would hold the GIL for 50-100 ms and
        # stall the event loop. Frozen, the GC skips them (refcounting still frees an
        # old index after a reload).
        freeze_survivors()
        pages = [(slug, info.title or slug) for slug, info in index.pages.items()]
        if not worker.is_cancelled:
            self.post_message(self.IndexBuilt(self.brain.answered_by, pages))

    def begin_index(self, refresh: bool = False) -> None:
        """Start (or restart) the index build; `listing pages…` shows until counts come."""
        self.indexing = True
        self.query_one(StatusBar).set_indexing(0, 0)
        self._build_index(refresh)
        self.sync_bindings()

    def cancel_index(self) -> None:
        """Stop the running build (it checks `is_cancelled`); what was indexed before stays."""
        if not self.indexing:
            return
        self.indexing = False
        self.workers.cancel_group(self, "index")
        self.query_one(StatusBar).set_cancelled(previous=self.index_ready)
        if not self.index_ready and (current := self.history.current) is not None:
            self._refresh_graph(current)  # the panes stop promising an index
        self.sync_bindings()

    @on(IndexProgressed)
    def _index_progressed(self, message: IndexProgressed) -> None:
        if self.indexing and not self.index_ready:
            self.query_one(StatusBar).set_indexing(message.done, message.total)

    @on(IndexBuilt)
    def _index_built(self, message: IndexBuilt) -> None:
        first = not self.index_ready
        self.index_ready = True
        self.indexing = False
        self.pages = message.pages
        status = self.query_one(StatusBar)
        status.set_page_count(len(message.pages))
        status.set_indexed(message.answered_by)
        if first and self.pending_start is not None:
            self._resolve_start(self.pending_start)
            self.pending_start = None
        current = self.history.current
        if current is not None:
            if first:
                self._refresh_graph(current)
            else:
                self.navigate(current, "reload")

    # ------------------------------------------------------------------ navigation

    def navigate(self, view: View, move: Move | Literal["reload"]) -> None:
        """Load `view`'s page, then commit `move` to the history and refresh the panes."""
        self._load_page(view, move)

    @work(group="page", exclusive=True, exit_on_error=False)
    async def _load_page(self, view: View, move: Move | Literal["reload"]) -> None:
        await self._show(view, move)

    async def _show(
        self, view: View, move: Move | Literal["reload"], missing_ok: bool = False
    ) -> bool:
        """Load and show `view`'s page; False (and nothing changed) if `missing_ok` and absent."""
        pane = self.query_one(PagePane)
        # The spinner only for a slow source: on a local page it would just flicker,
        # and mounting then pruning it costs a frame.
        token = object()
        self._spinner_for = token if move != "reload" else None
        spinner = self.set_timer(SPINNER_DELAY, lambda: self._spin(token))
        try:
            page = await asyncio.to_thread(self.brain.page, view.slug)
        except PageNotFound as error:
            if missing_ok:
                return False
            self._commit(view, move)
            pane.show_failure(view.slug, str(error))
        except PageUnreadable as error:
            self._commit(view, move)
            pane.show_failure(view.slug, str(error))
        except OkfError as error:
            if not self.loaded_once and isinstance(error, FATAL_AT_START):
                raise  # nothing on screen yet: the source error screen says why
            # The page is the current entry (back returns to where the user was); the
            # pane says why it is empty, and `r` loads it again.
            self._commit(view, move)
            pane.show_failure(view.slug, f"Could not load {view.slug}: {error} · r retries")
            self.notify(str(error), title="source", severity="error", markup=False)
        else:
            self._commit(view, move)
            await pane.show_page(page)
            self.sync_bindings()  # `m` and `l` depend on the body
        finally:
            spinner.stop()
            if self._spinner_for is token:
                self._spinner_for = None
            pane.loading = False
        self._start_index()
        return True

    def _spin(self, token: object) -> None:
        """The page load `token` is still running (a stopped timer may still fire)."""
        if self._spinner_for is token:
            self.query_one(PagePane).loading = True

    def _commit(self, view: View, move: Move | Literal["reload"]) -> None:
        if move == "visit":
            self.history.visit(view)
        self.loaded_once = True
        self.sub_title = printable(view.slug)
        self._refresh_graph(view)
        self.sync_bindings()

    def open_page(self, slug: str) -> None:
        """Open `slug` keeping the current depth and direction (also used by the finder)."""
        current = self.history.current
        view = (
            View(slug)
            if current is None
            else View(slug, current.depth, current.direction, current.rel)
        )
        self.navigate(view, "visit")

    def change_view(self, view: View) -> None:
        """Same page, new traversal settings: no reload, no new history entry."""
        self.history.update(view)
        self._refresh_graph(view, links=False)
        self.sync_bindings()

    # ------------------------------------------------------------------ graph panes

    def _refresh_graph(self, view: View, links: bool = True) -> None:
        panel = self.query_one(TraversalPanel)
        tree = self.query_one(LinkTree)
        if not self.index_ready:
            why = "waiting for the index…" if self.indexing else "no index · r builds it"
            panel.show_pending(view, why)
            if links:
                tree.show_pending(view.slug, why)
            return
        panel.show_pending(view, "walking…")
        self._load_slice(view)
        if links:
            self._load_links(view.slug)

    @work(group="slice", exclusive=True, exit_on_error=False)
    async def _load_slice(self, view: View) -> None:
        panel = self.query_one(TraversalPanel)
        try:
            edges = await asyncio.to_thread(
                self.brain.traverse, view.slug, view.depth, view.direction, view.rels
            )
        except OkfError as error:
            panel.show_failure(view, str(error))
            if self.export_wanted == view:
                self.export_wanted = None  # `e` waited for this slice: it will not come
            if isinstance(error, (PageNotFound, PageUnreadable)):
                return
            raise
        panel.show_edges(view, edges)
        self.export_when_shown(view, list(edges))
        self.sync_bindings()

    @work(group="links", exclusive=True, exit_on_error=False)
    async def _load_links(self, slug: str) -> None:
        tree = self.query_one(LinkTree)
        try:
            try:
                outgoing = await asyncio.to_thread(outgoing_links, self.brain, slug)
            except PageUnreadable:
                outgoing = []  # its links are unknown; who links to it still is
            incoming = await asyncio.to_thread(incoming_links, self.brain, slug)
        except OkfError as error:
            tree.show_pending(slug, str(error))
            if isinstance(error, (PageNotFound, PageUnreadable)):
                return
            raise
        tree.show_links(slug, outgoing, incoming)

    @on(Tree.NodeHighlighted)
    @on(DataTable.RowHighlighted)
    def _cursor_moved(self) -> None:
        self.sync_bindings()  # `enter` applies on a page row/node, not on a heading

    @on(LinkTree.PageChosen)
    def _tree_chose(self, message: LinkTree.PageChosen) -> None:
        self._choose(message.slug, message.exists)

    @on(TraversalPanel.PageChosen)
    def _row_chose(self, message: TraversalPanel.PageChosen) -> None:
        self._choose(message.slug, self._exists(message.slug))

    @on(PagePane.LinkFollowed)
    def _link_followed(self, message: PagePane.LinkFollowed) -> None:
        if message.target is None:
            self.app.open_url(message.url or "")
            return
        self._follow(message.target, message.kind)

    def _follow(self, target: str, kind: LinkKind = "wiki") -> None:
        """Resolve a body link of the current page with the core resolver."""
        found = self.resolve_target(target, kind)
        if found is not None:
            self._choose(*found)
        elif not self.index_ready:
            self.notify(
                f"still indexing: cannot resolve {target} yet", severity="warning", markup=False
            )
        else:
            self.notify(f"no such page: {target}", severity="warning", markup=False)

    def _choose(self, slug: str, exists: bool) -> None:
        if exists:
            self.open_page(slug)
        else:
            self.notify(f"no such page: {slug}", severity="warning", markup=False)

    def _exists(self, slug: str) -> bool:
        index = self.brain.index
        return index is None or slug in index.pages

    # ------------------------------------------------------------------ failures

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place worker failures become notifications (or the error screen)."""
        if event.state != WorkerState.ERROR:
            return
        error = event.worker.error
        if isinstance(error, Cancelled):
            return
        reason = str(error) if isinstance(error, OkfError) else f"unexpected error: {error!r}"
        if event.worker.group == "index":
            self.indexing = False
            self.query_one(StatusBar).set_failed(reason)
            self.sync_bindings()
        if event.worker.group == "export":
            self.notify(
                f"{reason} (set {EXPORT_DIR_ENV} to export elsewhere)",
                title="export",
                severity="error",
                markup=False,
            )
            return
        if isinstance(error, FATAL_AT_START) and not self.loaded_once:
            self._show_source_error(reason)
            return
        self.notify(
            reason,
            title="source" if isinstance(error, OkfError) else "bug",
            severity="error",
            markup=False,
        )
