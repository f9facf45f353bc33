"""The explorer's index keys and status line: `r` reloads, `ctrl+x` cancels, `E` edits,
live reload follows the folder; `IndexLoader`'s messages reach the status line here."""

from __future__ import annotations

from collections.abc import Callable

from textual.message import Message
from textual.screen import Screen

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import Cancelled
from okf_explorer.core.index.model import LinkIndex
from okf_explorer.tui.failures import notice, reason
from okf_explorer.tui.state.history import View
from okf_explorer.tui.state.index_loader import IndexLoader
from okf_explorer.tui.state.live_reload import FolderWatcher, edit_page
from okf_explorer.tui.state.navigator import Navigator
from okf_explorer.tui.state.server_view import ServerComparison
from okf_explorer.tui.widgets.page.pane import FATAL_AT_START, PagePane
from okf_explorer.tui.widgets.status_bar import StatusBar


class SourceFailed(Message):
    """The brain could not be opened (nothing was shown); the app says why."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


LOADER_MESSAGES = (
    IndexLoader.Listed,
    IndexLoader.IndexStarted,
    IndexLoader.IndexProgressed,
    IndexLoader.IndexBuilt,
    IndexLoader.IndexFailed,
    IndexLoader.StartFailed,
    IndexLoader.StartResolved,
    IndexLoader.StartChosen,
)
"""What the `IndexLoader` tells the screen; `IndexControl.loader_said` takes each."""


class IndexControl:
    """Builds, refreshes and cancels the index for the screen, says how it went, and
    turns the workers' failures into notifications (or, before anything was shown,
    into `SourceFailed`)."""

    def __init__(
        self,
        screen: Screen[None],
        brain: Brain,
        loader: IndexLoader,
        nav: Navigator,
        watcher: FolderWatcher,
        *,
        watch_files: bool,
        comparison: ServerComparison | None,
        changed: Callable[[], None],
        pages_changed: Callable[[], None],
    ) -> None:
        self._screen, self._brain, self._loader, self._nav = screen, brain, loader, nav
        self._watcher, self._watch_files, self._comparison = watcher, watch_files, comparison
        self._changed, self._pages_changed = changed, pages_changed
        self._reloaded_from: LinkIndex | None = None
        """The index `r` refreshes (to say when nothing changed)."""
        self._start_slug: str | None = None

    def loader_said(self, message: Message) -> None:
        """One of `LOADER_MESSAGES`: the status line, the navigator and the panes follow."""
        if not isinstance(message, LOADER_MESSAGES[-3:]):  # the index itself changed
            self.index_changed(message)
        if isinstance(message, IndexLoader.Listed):
            self._nav.listed(message.count)
        elif isinstance(message, IndexLoader.IndexStarted):
            self._nav.index_started()
        elif isinstance(message, IndexLoader.IndexBuilt):
            self._nav.index_built(message.first)
            self.index_built(message)
            self._pages_changed()
        elif isinstance(message, IndexLoader.IndexFailed | IndexLoader.StartFailed):
            self.report(message.error)
        elif isinstance(message, IndexLoader.StartResolved):
            self._nav.start_resolved(message.slug)
        elif isinstance(message, IndexLoader.StartChosen):
            self.start_chosen(message)

    def report(self, error: BaseException | None, group: str = "") -> None:
        """A worker failed: before any page was shown, a source that cannot be opened
        ends the explorer (`SourceFailed`); otherwise a notification says what happened."""
        screen = self._screen
        pane = screen.query_one(PagePane)
        if isinstance(error, FATAL_AT_START) and group != "export" and not pane.opened_once:
            screen.workers.cancel_node(screen)
            self._loader.stop()
            screen.post_message(SourceFailed(reason(error)))
        elif not isinstance(error, Cancelled):
            title, text = notice(error, group)
            screen.notify(text, title=title, severity="error", markup=False)

    def index_changed(self, message: Message) -> None:
        status = self._screen.query_one(StatusBar)
        status.follow(message)
        if isinstance(message, IndexLoader.IndexBuilt) and self._comparison is not None:
            status.set_indexed(self._comparison.describe(message.answered_by))
        if not isinstance(message, IndexLoader.IndexProgressed):
            self._changed()  # a build started or ended: `r`, `s`, `e`, `ctrl+x` follow

    def index_built(self, message: IndexLoader.IndexBuilt) -> None:
        before, self._reloaded_from = self._reloaded_from, None
        after = self._brain.index
        if before is not None and after is not None and before.pages == after.pages:
            self._screen.notify("nothing changed since the last index", title="r", timeout=2)
        self._screen.query_one(PagePane).embeds_again()  # embeds that waited for the index
        if message.first and self._watch_files and (root := self._brain.local_root) is not None:
            self._watcher.start(root)  # live reload (MCP sources have no folder to watch)

    def start_chosen(self, message: IndexLoader.StartChosen) -> None:
        self._start_slug = message.choice.slug
        self._screen.query_one(StatusBar).set_start(message.choice.rule)

    def opened(self, view: View) -> None:
        if self._start_slug is not None and view.slug != self._start_slug:
            self._start_slug = None  # the user moved on: the status line forgets the rule
            self._screen.query_one(StatusBar).set_start(None)

    def reload(self) -> None:
        """Refresh the index; a page that failed to load is loaded again too. When
        nothing changed, a notification says so once the refresh is done."""
        self._reloaded_from = self._brain.index if self._loader.ready else None
        if self._screen.query_one(PagePane).error is not None:
            self._nav.go(self._nav.current, "reload")
        if self._comparison is not None:
            self._comparison.forget()
        self._loader.build(refresh=self._loader.ready)

    def cancel(self) -> None:
        if self._loader.cancel():
            self._screen.query_one(StatusBar).set_cancelled(previous=self._loader.ready)
            if not self._loader.ready and (current := self._nav.current) is not None:
                self._nav.show_graph(current)  # the panes stop promising an index
            self._changed()

    def watch_failed(self, message: FolderWatcher.WatchFailed) -> None:
        text = f"live reload is off ({message.reason}); r reloads"
        self._screen.notify(text, title="watch", severity="warning", markup=False)

    def edit(self, slug: str | None) -> None:
        """`E`: the page's file in `$EDITOR` (the app steps aside); re-indexed on return."""
        if edit_page(self._screen.app, self._brain, slug):
            self.reload()
