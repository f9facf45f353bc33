"""`IndexLoader`: how the explorer starts, and the life-cycle of the brain's index.

A non-visual widget: it owns the start-up sequence and every index build, runs
them in workers, and says what happened in messages (`Listed`, `IndexStarted`,
`IndexProgressed`, `IndexBuilt`, `IndexFailed`, `StartResolved`, `StartFailed`)
that the screen wires to its widgets. It never touches another widget.

Start-up: the start page (`--start NAME`, else `index`) is read at once by the
screen's `show` while the listing runs alongside; the index build starts only once
a page is on screen, so nothing competes with the first paint. Without `index`, the
listing chooses the start page (`core.graph.analysis`: a home page, a nested index, else
the page with most backlinks once the index is built); `StartChosen` says which rule
chose it. A start name that is not a slug opens the default page now and is resolved
once the index is ready (SPEC §3 rules, through `Brain.resolve_slug`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from textual import on, work
from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker, WorkerState, get_current_worker

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import Cancelled, PageNotFound
from okf_explorer.core.fast_paths import freeze_survivors, gc_paused
from okf_explorer.core.graph.analysis import StartChoice, choose_start
from okf_explorer.core.index.model import LinkIndex
from okf_explorer.core.links.grammar import LinkKind
from okf_explorer.core.search.find_rank import Findable
from okf_explorer.tui.state.navigator import View

ShowPage = Callable[[View, bool], Awaitable[bool]]
"""The screen's `show(view, missing_ok)`: load and show a page; False if `missing_ok`
and it does not exist. Raises what the source raised when nothing can be shown."""

Pages = list[tuple[str, str]]
"""(slug, title) of every page, slug order: what the page finder offers."""

PROGRESS_INTERVAL = 0.1
"""Seconds between two `IndexProgressed` messages (the last one always comes)."""


class IndexLoader(Widget):
    """Starts the explorer and keeps the index: `ready`, `running`, and the `pages` known."""

    DEFAULT_CSS = "IndexLoader { display: none; }"

    class Listed(Message):
        """The source's listing answered (before the index, if it is not built yet)."""

        def __init__(self, count: int) -> None:
            super().__init__()
            self.count = count

    class IndexStarted(Message):
        """An index build (or refresh) has started."""

    class IndexProgressed(Message):
        """Posted from the index thread at most every `PROGRESS_INTERVAL` seconds."""

        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done, self.total = done, total

    class IndexBuilt(Message):
        """The index is ready; `first` unless it replaced an earlier one; `unchanged`
        when a reload (`reload`, key `r`) found every page as it was."""

        def __init__(self, answered_by: str, count: int, first: bool, unchanged: bool) -> None:
            super().__init__()
            self.answered_by, self.count, self.first = answered_by, count, first
            self.unchanged = unchanged

    class IndexFailed(Message):
        """The build raised `error`; the previous index, if any, stays."""

        def __init__(self, error: BaseException) -> None:
            super().__init__()
            self.error = error

    class StartResolved(Message):
        """`--start NAME` (not a slug) resolved to `slug` once the index was ready."""

        def __init__(self, slug: str) -> None:
            super().__init__()
            self.slug = slug

    class StartChosen(Message):
        """No `--start`: the start page `choice.slug` was chosen by `choice.rule`."""

        def __init__(self, choice: StartChoice) -> None:
            super().__init__()
            self.choice = choice

    class StartFailed(Message):
        """Start-up raised `error` (the source went away before or while listing)."""

        def __init__(self, error: BaseException) -> None:
            super().__init__()
            self.error = error

    def __init__(self, brain: Brain, *, start: str | None, show: ShowPage) -> None:
        super().__init__()
        self.brain = brain
        self.start = start
        self._show = show
        self.pages: Pages = []
        self.ready = False
        """An index is built (a refresh keeps it ready)."""
        self.running = False
        """A build is running (`ctrl+x` cancels it)."""
        self._build_wanted = True
        """The build is still to start once a page is on screen."""
        self._build_scheduled = False
        """The build is queued to start after the next paint."""
        self._pending_start: str | None = None
        self._choose_when_indexed = False
        """The start page was a stand-in: the index's backlink counts choose again."""
        self._findables: tuple[object, list[Findable]] = (None, [])
        self._refresh_again = False
        """Pages changed while a build ran: refresh once it ends."""
        self._reloaded_from: LinkIndex | None = None
        """The index `reload` refreshes (to say when nothing changed)."""

    @property
    def coming(self) -> bool:
        """An index is on its way: a build runs, or start-up will start one (so the panes
        say `waiting for the index…`, never `no index`)."""
        return self.running or self._build_scheduled or (self._build_wanted and not self.ready)

    # ------------------------------------------------------------------ start-up

    def begin(self) -> None:
        """Open the first page, list the source alongside, then build the index."""
        self._build_wanted = True
        self._open_start()

    @work(group="start", exclusive=True, exit_on_error=False)
    async def _open_start(self) -> None:
        wanted = self.start or "index"
        listing = asyncio.ensure_future(asyncio.to_thread(self.brain.list_pages))
        listing.add_done_callback(lambda task: task.cancelled() or task.exception())
        try:
            found = await self._show(View(wanted), True)
            if found:
                self._build_after_paint()
            pages = await listing
        finally:
            listing.cancel()
        if not self.ready:
            self.pages = pages
        self.post_message(self.Listed(len(pages)))
        if found:
            if self.start is None and (choice := self._found_start(wanted)) is not None:
                self.post_message(self.StartChosen(choice))
            return
        if self.start is not None:
            self._pending_start = self.start
        slugs = [slug for slug, _ in pages]
        choice = self.brain.stated_start(slugs) or choose_start(self._start_candidates(slugs))
        if choice is not None:
            await self._show(View(choice.slug), False)
            if self.start is None:
                self.post_message(self.StartChosen(choice))
                self._choose_when_indexed = not choice.final
        self._build_after_paint()

    def _found_start(self, slug: str) -> StartChoice | None:
        """Why `slug`, found before the listing, is where the explorer opens: the home
        page the source states (a SilverBullet space's index), else the first page."""
        return self.brain.stated_start([slug]) or choose_start([slug])

    def _build_after_paint(self) -> None:
        """Build the index once the first page is on screen, so it does not slow that paint."""
        if self._build_wanted:
            self._build_wanted = False
            self._build_scheduled = True
            self.call_after_refresh(self.build)

    @work(group="resolve-start", exclusive=True, exit_on_error=False)
    async def _resolve_start(self, name: str) -> None:
        """The index is ready: say what `--start NAME` means, or that it means nothing."""
        slug = await asyncio.to_thread(self.brain.resolve_slug, name)
        if slug is not None:
            self.post_message(self.StartResolved(slug))
            return
        close = await asyncio.to_thread(self.brain.suggest, name)
        self.notify(not_found_sentence(name, close), severity="warning", markup=False)

    @work(group="resolve-start", exclusive=True, exit_on_error=False)
    async def _choose_start_again(self) -> None:
        """The index is ready: the page with most backlinks may replace the stand-in (the
        first page, or a home page that turns out to link nowhere inside)."""
        index = self.brain.index
        if index is None:
            return

        def backlinks(slug: str) -> int:
            return len(set(index.reverse.get(slug, ())))

        def links_out(slug: str) -> int:
            return len({node for node in index.out_slugs(slug) if index.exists(node)} - {slug})

        candidates = self._start_candidates(list(index.pages))
        choice = await asyncio.to_thread(choose_start, candidates, backlinks, links_out)
        if choice is not None and choice.final:
            self.post_message(self.StartResolved(choice.slug))
            self.post_message(self.StartChosen(choice))

    def _start_candidates(self, slugs: list[str]) -> list[str]:
        """The pages the start is chosen among: those the vault's settings do not exclude
        (Obsidian makes them "less noticeable"; a 35k-page wiki's excluded raw sources hold
        its pages most linked to), or all when it excludes every one."""
        excluded = self.brain.excluded()
        if not excluded:
            return slugs
        return [slug for slug in slugs if not excluded(slug)] or slugs

    def stop(self) -> None:
        """Cancel start-up and any build (the source failed before anything was shown)."""
        self.running = self._build_wanted = self._build_scheduled = False
        self.workers.cancel_node(self)

    # ------------------------------------------------------------------ the index

    def build(self, refresh: bool = False) -> None:
        """Start (or restart) the index build."""
        self.running, self._build_scheduled = True, False
        self.post_message(self.IndexStarted())
        self._build(refresh)

    def reload(self) -> None:
        """`r`: refresh the index (build it if there is none); `IndexBuilt.unchanged`
        then says whether any page changed."""
        self._reloaded_from = self.brain.index if self.ready else None
        self.build(refresh=self.ready)

    def refresh_soon(self) -> None:
        """Pages changed on disk: refresh now, or once the running build ends (a stream
        of saves then costs one refresh after another, never a refresh restarted forever)."""
        if self.running:
            self._refresh_again = True
        else:
            self.build(refresh=self.ready)

    def cancel(self) -> bool:
        """Stop the running build (it checks `is_cancelled`); False if none was running.

        What was indexed before stays.
        """
        if not self.running:
            return False
        self.running = self._refresh_again = False
        self.workers.cancel_group(self, "index")
        return True

    @work(thread=True, group="index", exclusive=True, exit_on_error=False)
    def _build(self, refresh: bool) -> Pages:
        """Build (or refresh) the index off the event loop; cancellable via the worker."""
        worker = get_current_worker()
        last = 0.0

        def progress(done: int, total: int) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= PROGRESS_INTERVAL or done == total:
                last = now
                self.post_message(self.IndexProgressed(done, total))

        build = self.brain.refresh if refresh else self.brain.ensure_index
        index = build(progress, lambda: worker.is_cancelled)
        self.brain.warm_resolver()  # here, not on the first `b` or followed link
        self.findables()  # here too, not on the first `/` (85 ms at 14k pages)
        # The index is ~10 long-lived, acyclic objects per link, built with the cyclic
        # GC paused: the first full pass after it would hold the GIL for 50-100 ms and
        # stall the event loop. Frozen, the GC skips them (refcounting still frees an
        # old index after a reload).
        freeze_survivors()
        return [(slug, info.title or slug) for slug, info in index.pages.items()]

    @on(IndexProgressed)
    def _progressed(self, message: IndexProgressed) -> None:
        if not self.running or self.ready:
            message.stop()  # a refresh keeps saying "listing pages…"; a stale tick says nothing

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A build or the start-up finished: update the state, then say so."""
        worker = event.worker
        if event.state == WorkerState.SUCCESS and worker.group == "index":
            first = not self.ready
            self.ready, self.running = True, False
            self.pages = worker.result or []
            if first and self._pending_start is not None:
                self._resolve_start(self._pending_start)
                self._pending_start = None
            if first and self._choose_when_indexed:
                self._choose_start_again()
                self._choose_when_indexed = False
            before, self._reloaded_from = self._reloaded_from, None
            after = self.brain.index
            unchanged = before is not None and after is not None and before.pages == after.pages
            built = self.IndexBuilt(self.brain.answered_by, len(self.pages), first, unchanged)
            self.post_message(built)
            if self._refresh_again:
                self._refresh_again = False
                self.build(refresh=True)
        elif event.state == WorkerState.ERROR and not isinstance(worker.error, Cancelled):
            assert worker.error is not None
            if worker.group == "index":
                self.running = self._refresh_again = False
                self.post_message(self.IndexFailed(worker.error))
            else:
                self.post_message(self.StartFailed(worker.error))

    # ------------------------------------------------------------------ what the index knows

    def relations(self) -> list[str]:
        """The relations of the index's graph (none before it is ready)."""
        return self.brain.relations() if self.ready else []

    def resolve_link(
        self, from_slug: str | None, target: str, kind: LinkKind = "wiki"
    ) -> tuple[str, bool] | None:
        """(slug or dangling node, exists) a body link on page `from_slug` leads to.

        Once the index is built, the core resolver answers (`Brain.resolve_link`:
        the SPEC §3 rules, the page's reference definitions included). Before
        that only a target that is itself a listed slug is known.
        """
        if from_slug is not None and self.brain.index is not None:
            resolution = self.brain.resolve_link(from_slug, target, kind)
            return resolution.node, resolution.exists
        known = {page for page, _ in self.pages}
        for candidate in (target, target.removesuffix(".md").lstrip("/")):
            if candidate in known:
                return candidate, True
        return None

    def findables(self) -> list[Findable]:
        """Every page with its title, aliases and backlink count for the finder, once
        per index (the listing's slugs before there is one). Blocking: run in a thread."""
        index = self.brain.index
        if index is None:
            return [Findable(slug, title) for slug, title in self.pages]
        known, findables = self._findables
        if known is not index:
            with gc_paused(freeze=True):  # long-lived and acyclic, as the index is
                findables = self.brain.findables()
            self._findables = (index, findables)
        return findables

    def exact_hit(self, name: str) -> str | None:
        """What `name` resolves to once the index is built (never builds it)."""
        if self.brain.index is None or not name.strip():
            return None
        return self.brain.resolve_slug(name)


def not_found_sentence(name: str, suggestions: list[str]) -> str:
    """`no page NAME`, suggesting close pages (`Brain.suggest`, as the CLI does)."""
    detail = f"did you mean {' or '.join(suggestions)}?" if suggestions else ""
    return str(PageNotFound(name, detail))
