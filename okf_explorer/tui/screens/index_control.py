"""The explorer's index keys and status line: `r` reloads, `ctrl+x` cancels, `E` edits,
live reload follows the folder; `IndexLoader`'s messages reach the status line here."""

from __future__ import annotations

from collections.abc import Callable

from textual.message import Message
from textual.screen import Screen

from okf_explorer.core.brain import Brain
from okf_explorer.core.index_model import LinkIndex
from okf_explorer.tui.history import View
from okf_explorer.tui.index_loader import IndexLoader
from okf_explorer.tui.live_reload import FolderWatcher, edit_page
from okf_explorer.tui.navigator import Navigator
from okf_explorer.tui.server_view import ServerComparison
from okf_explorer.tui.widgets.page_pane import PagePane
from okf_explorer.tui.widgets.status_bar import StatusBar


class IndexControl:
    """Builds, refreshes and cancels the index for the screen, and says how it went."""

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
    ) -> None:
        self._screen, self._brain, self._loader, self._nav = screen, brain, loader, nav
        self._watcher, self._watch_files, self._comparison = watcher, watch_files, comparison
        self._changed = changed
        self._reloaded_from: LinkIndex | None = None
        """The index `r` refreshes (to say when nothing changed)."""
        self._start_slug: str | None = None

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
