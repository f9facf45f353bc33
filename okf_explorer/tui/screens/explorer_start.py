"""How the explorer starts: the first page straight from the source, then the index.

A mixin of `MainScreen`. The start page (`--start NAME`, else `index`) is read from
the source at once, while the listing runs alongside; the index build starts only
once that page is on screen, so nothing competes with the first paint. A start name
that is not a slug waits for the index to be resolved (SPEC §3 rules).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Literal

from textual import work

from okf_explorer.core.brain import Brain
from okf_explorer.tui.commands import not_found_sentence
from okf_explorer.tui.history import History, View
from okf_explorer.tui.widgets.page_pane import PagePane
from okf_explorer.tui.widgets.status_bar import StatusBar


class ExplorerStart:
    """`start_up` and the workers behind it; the screen supplies `_show` and the index build."""

    brain: Brain
    start: str | None
    history: History
    pages: list[tuple[str, str]]
    index_ready: bool
    index_started: bool
    failed_at_start: bool
    pending_start: str | None

    if TYPE_CHECKING:

        def query_one(self, selector: object, expect_type: object = None) -> Any: ...
        def call_after_refresh(self, callback: Any) -> bool: ...
        def notify(self, message: str, **kwargs: Any) -> None: ...
        def open_page(self, slug: str) -> None: ...

        source_label: str
        workers: Any
        app: Any

        def begin_index(self, refresh: bool = False) -> None: ...
        async def _show(
            self, view: View, move: Literal["visit"], missing_ok: bool = False
        ) -> bool: ...

    def start_up(self) -> None:
        """Open the first page, list the source alongside, then build the index."""
        self.failed_at_start = False
        self.index_started = False
        self.query_one(StatusBar).set_indexing(0, 0)
        self._open_start()

    def _start_index(self) -> None:
        """Build the index once the first page is on screen, so it does not slow that paint."""
        if not self.index_started:
            self.index_started = True
            self.call_after_refresh(self.begin_index)

    @work(group="start", exclusive=True, exit_on_error=False)
    async def _open_start(self) -> None:
        """Read `--start` (or `index`) straight from the source while the listing runs.

        A start name that is not a slug (a title, a basename, another case) opens
        the default page now and is resolved once the index is ready (SPEC §3 rules,
        through `Brain.resolve_slug`), so resolving it never delays the first paint.
        """
        wanted = self.start or "index"
        listing = asyncio.ensure_future(asyncio.to_thread(self.brain.source.enumerate))
        listing.add_done_callback(lambda task: task.cancelled() or task.exception())
        try:
            found = await self._show(View(wanted), "visit", missing_ok=True)
            stubs = await listing
        finally:
            listing.cancel()
        if not self.index_ready:
            self.pages = [(s.slug, s.info.title if s.info else s.slug) for s in stubs]
        self.query_one(StatusBar).set_page_count(len(stubs))
        if found:
            return
        if self.start is not None:
            self.pending_start = self.start
        fallback = "index" if any(s.slug == "index" for s in stubs) else None
        fallback = fallback or (stubs[0].slug if stubs else None)
        if fallback is None:
            self.query_one(PagePane).show_failure("(empty)", "this brain has no pages")
            self._start_index()
            return
        await self._show(View(fallback), "visit")

    @work(group="resolve-start", exclusive=True, exit_on_error=False)
    async def _resolve_start(self, name: str) -> None:
        """The index is ready: open what `--start NAME` means, or say it means nothing."""
        slug = await asyncio.to_thread(self.brain.resolve_slug, name)
        if slug is None:
            close = await asyncio.to_thread(self.brain.suggest, name)
            self.notify(not_found_sentence(name, close), severity="warning", markup=False)
            return
        current = self.history.current
        if current is None or (not self.history.behind and current.slug != slug):
            self.open_page(slug)  # the user has not moved yet: take them there

    def _show_source_error(self, reason: str) -> None:
        """The source failed before anything was shown: a screen says why; `r` retries."""
        from okf_explorer.tui.screens.source_error import SourceErrorScreen  # rarely needed

        if self.failed_at_start:
            return
        self.failed_at_start = True
        self.workers.cancel_node(self)

        def retry(again: bool | None) -> None:
            if again:
                self.start_up()

        self.app.push_screen(SourceErrorScreen(self.source_label, reason), retry)
