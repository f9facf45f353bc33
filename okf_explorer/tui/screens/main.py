"""The explorer: page, link tree and traversal panes over one `Brain`.

The screen owns the keys (SPEC §8: `explorer_bindings`) and wires messages to their
owners; it owns no life-cycle. `IndexLoader` starts the explorer and keeps the index,
`Navigator` keeps the history and shows views in the panes, the panes load their
own content. Workers run on this screen: its `Worker.StateChanged` reports failures.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.command import Provider
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Header, Tree
from textual.worker import Worker, WorkerState

from okf_explorer.core.brain import Brain
from okf_explorer.core.search.find_rank import Findable
from okf_explorer.core.search.text_index import SearchHit
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.commands import PageFinder
from okf_explorer.tui.screens.explorer_bindings import EXPLORER_BINDINGS, KeyRules, next_pane
from okf_explorer.tui.screens.explorer_dialogs import ExplorerDialogs
from okf_explorer.tui.screens.index_control import IndexControl, SourceFailed
from okf_explorer.tui.screens.pane_layout import PaneLayout
from okf_explorer.tui.screens.path_keys import PathKeys
from okf_explorer.tui.screens.trail_control import TrailControl
from okf_explorer.tui.screens.walk_keys import WalkKeys
from okf_explorer.tui.state.history import View
from okf_explorer.tui.state.index_loader import IndexLoader
from okf_explorer.tui.state.live_reload import FolderWatcher
from okf_explorer.tui.state.navigator import Navigator
from okf_explorer.tui.state.server_view import ServerComparison, badge
from okf_explorer.tui.text_finder import PrefixedTextFinder, TextJump
from okf_explorer.tui.widgets.footer import PinnedFooter
from okf_explorer.tui.widgets.graph.graph_panel import GraphPanel
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.path_view import PathView
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.graph.walk_view import WalkView
from okf_explorer.tui.widgets.legend import WHY_NOT
from okf_explorer.tui.widgets.page.pane import PagePane
from okf_explorer.tui.widgets.page_tree import PageTree
from okf_explorer.tui.widgets.status_bar import StatusBar


class MainScreen(Screen[None]):
    """The three panes, the status line and every key of SPEC §8."""

    CSS_PATH = "main.tcss"
    COMMANDS: ClassVar[set[type[Provider]]] = {PageFinder, PrefixedTextFinder}
    BINDINGS: ClassVar[list[BindingType]] = EXPLORER_BINDINGS
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide")]
    """Narrower than 100 columns the panes stack (main.tcss)."""
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-short"), (30, "-tall")]
    """Fewer than 30 rows: no title bar."""
    ALLOW_IN_MAXIMIZED_VIEW = "PinnedFooter, StatusBar"
    AUTO_FOCUS = "#page-pane"

    SourceFailed = SourceFailed
    """The brain could not be opened (`IndexControl.report`); the app says why."""

    def __init__(
        self,
        brain: Brain,
        *,
        start: str | None,
        export_dir: Path,
        source_label: str,
        watch_files: bool = False,
        comparison: ServerComparison | None = None,
    ) -> None:
        super().__init__()
        self.brain, self.export_dir, self.source_label = brain, export_dir, source_label
        self.watch_files = watch_files
        self.comparison = comparison
        self.loader = IndexLoader(brain, start=start, show=self._show_start)
        self.nav = Navigator(self, self.loader, changed=self.sync_bindings)
        self.history = self.nav.history
        self.keys = KeyRules(self.nav, self.loader, partial(self.query_one, PagePane))
        self.text_jump = TextJump()
        self.watcher = FolderWatcher()
        self.layout_keys = PaneLayout(self, lambda: self.loader.pages, self._current_slug)
        self.index_control = IndexControl(
            self,
            brain,
            self.loader,
            self.nav,
            self.watcher,
            watch_files=watch_files,
            comparison=comparison,
            changed=self.sync_bindings,
            pages_changed=self.layout_keys.pages_changed,
        )
        self.dialogs = ExplorerDialogs(self, brain, self.nav, self.loader)
        self.path_keys = PathKeys(self, self._current_slug)
        self.walk_keys = WalkKeys(self, lambda: self.nav.current)
        self.trails = TrailControl(self, brain, self.nav, self.loader, export_dir)

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="◆")
        with Horizontal(id="panes"):
            yield PageTree(id="page-tree")
            yield PagePane(self.brain, id="page-pane")
            with Vertical(id="graph-column"):
                yield LinkTree(self.brain, id="link-tree")
                yield TraversalPanel(self.brain, export_dir=self.export_dir, id="traversal")
                yield PathView(self.brain, id="paths")
                yield WalkView(self.brain, id="walk")
                yield GraphPanel(id="graph")
        yield StatusBar(id="status")
        yield PinnedFooter()
        yield self.loader
        yield self.watcher

    def on_mount(self) -> None:
        self.title = "okf-explorer"
        folder = self.brain.local_root if self.source_label == self.brain.label else None
        self.query_one(StatusBar).set_source(self.source_label, folder)
        self.query_one(StatusBar).set_indexing(0, 0)
        tree = self.query_one(LinkTree)
        tree.border_title = "links"
        tree.comparison = self.comparison
        self.query_one("#page-pane").border_title = "page"
        self.loader.begin()

    @on(IndexLoader.Listed)
    @on(IndexLoader.IndexStarted)
    @on(IndexLoader.IndexProgressed)
    @on(IndexLoader.IndexBuilt)
    @on(IndexLoader.IndexFailed)
    @on(IndexLoader.StartFailed)
    @on(IndexLoader.StartResolved)
    @on(IndexLoader.StartChosen)
    def _loader_said(self, message: Message) -> None:
        self.index_control.loader_said(message)

    @on(PagePane.Opened)
    def _opened(self, message: PagePane.Opened) -> None:
        self.nav.opened(message.view, message.move)
        self.index_control.opened(message.view)
        self.sub_title = printable(message.view.slug)
        self.sync_bindings()

    @on(PagePane.BodyShown)
    @on(Tree.NodeHighlighted)
    @on(DataTable.RowHighlighted)
    def _applicable_changed(self) -> None:
        self.sync_bindings()  # `m`/`l` follow the body; `enter` applies on a page row/node

    @on(PagePane.BodyShown)
    def _body_shown(self) -> None:
        pane = self.query_one(PagePane)
        self.call_after_refresh(lambda: self.text_jump.body_shown(pane.slug, pane))

    @on(TraversalPanel.SliceShown)
    def _slice_shown(self, message: TraversalPanel.SliceShown) -> None:
        exists = self.query_one(TraversalPanel).exists
        self.query_one(GraphPanel).follow(message.view, message.edges, exists)

    @on(LinkTree.ViewShown)
    def _view_shown(self, message: LinkTree.ViewShown) -> None:
        """The server's view of a page is in the tree: its header says `server −N/+M`."""
        self.query_one(PagePane).show_badge(message.slug, badge(message.view))

    @on(LinkTree.PageChosen)
    @on(TraversalPanel.PageChosen)
    @on(GraphPanel.PageChosen)
    @on(PageTree.PageChosen)
    @on(PathView.PageChosen)
    def _page_chosen(
        self,
        message: LinkTree.PageChosen
        | TraversalPanel.PageChosen
        | GraphPanel.PageChosen
        | PageTree.PageChosen
        | PathView.PageChosen,
    ) -> None:
        if isinstance(message, LinkTree.PageChosen):
            self.nav.choose_linked(message.slug, message.exists)
        else:
            self.nav.choose(message.slug, message.exists)
        if isinstance(message, PageTree.PageChosen):
            self.layout_keys.page_chosen_in_tree()

    @on(PagePane.LinkFollowed)
    def _link_followed(self, message: PagePane.LinkFollowed) -> None:
        self.nav.follow(message.target, message.url, message.kind, message.anchor)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place the panes' worker failures become notifications; a finished
        worker may change what applies, so the footer follows."""
        if event.state in (WorkerState.SUCCESS, WorkerState.ERROR):
            self.sync_bindings()
        if event.state == WorkerState.ERROR:
            self.index_control.report(event.worker.error, event.worker.group)

    async def _show_start(self, view: View, missing_ok: bool) -> bool:
        return await self.query_one(PagePane).open(view, "visit", missing_ok)

    def _current_slug(self) -> str | None:
        return current.slug if (current := self.nav.current) is not None else None

    def open_page(self, slug: str) -> None:
        """Open `slug` keeping the current depth and direction (also used by the finder)."""
        self.nav.go(self.nav.open(slug), "visit", how="finder")

    def catalogue(self) -> list[tuple[str, str]]:
        """The pages the finder offers (`PageCatalogue`)."""
        return self.loader.pages

    def exact_hit(self, name: str) -> str | None:
        return self.loader.exact_hit(name)

    def findables(self) -> list[Findable]:
        return self.loader.findables()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out what does not apply now (SPEC §8 keys only; see `KeyRules`)."""
        return self.keys.applies(action)

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here says why (`-` at depth 1, `m` on a short page)."""
        action = self.keys.action_of(event.key)
        if action in WHY_NOT and not self.keys.applies(action):
            self.notify(WHY_NOT[action], title=event.key, timeout=2)

    def sync_bindings(self) -> None:
        """Refresh the footer, only when what applies has changed."""
        if self.keys.changed():
            self.refresh_bindings()

    def action_open_selected(self) -> None:
        if (slug := self.nav.selected()) is not None:
            self.nav.choose(slug)

    def action_back(self) -> None:
        self.nav.go(self.nav.back(), "moved")

    def action_forward(self) -> None:
        self.nav.go(self.nav.forward(), "moved")

    def action_deeper(self) -> None:
        self.nav.change(self.nav.deeper())

    def action_shallower(self) -> None:
        self.nav.change(self.nav.shallower())

    def action_cycle_direction(self) -> None:
        self.nav.change(self.nav.next_direction())

    def action_backlinks(self) -> None:
        self.nav.change(self.nav.backlinks())

    def action_cycle_relation(self) -> None:
        if (view := self.nav.next_relation(self.loader.relations())) is not None:
            self.nav.change(view)
            text = f"relation: {view.rel or 'all'}"
            self.notify(text, title="traversal", markup=False, timeout=2)

    def action_export(self) -> None:
        if (current := self.nav.current) is not None:
            self.query_one(TraversalPanel).export(current)

    def action_page_links(self) -> None:
        self.dialogs.page_links()

    def action_okf_filter(self) -> None:
        self.dialogs.okf_filter()

    def action_outline(self) -> None:
        self.dialogs.outline()

    def action_more_of_page(self) -> None:
        self.query_one(PagePane).want_more()

    def action_toggle_properties(self) -> None:
        """Long frontmatter values in full, or folded again."""
        self.query_one(PagePane).toggle_properties()

    def action_find(self) -> None:
        self.app.action_command_palette()

    def action_search_text(self) -> None:
        self.dialogs.search_text()

    def search_text(self, query: str, limit: int) -> list[SearchHit]:
        """Blocking (the text finder calls it in a thread): `TextSearchHost`."""
        return self.brain.text_search().search(query, limit)

    def open_hit(self, slug: str, words: list[str]) -> None:
        """Open a search hit's page, scrolled to the hit once it is drawn."""
        self.text_jump.want(slug, words)
        self.open_page(slug)

    def action_mark_path_from(self) -> None:
        self.path_keys.mark_from()

    def action_paths(self) -> None:
        if self.walk_keys.active:  # one view in the traversal panel's place at a time
            self.walk_keys.leave()
        self.path_keys.toggle()

    def action_walk(self, key: str = "toggle") -> None:
        if key == "toggle" and self.path_keys.shown:
            self.path_keys.close()
        self.walk_keys.press(key)

    def action_toggle_graph(self) -> None:
        self.layout_keys.toggle_graph()

    def action_stats(self) -> None:
        self.dialogs.stats(self.open_page)

    def action_reload(self) -> None:
        self.index_control.reload()

    def action_cancel_index(self) -> None:
        self.index_control.cancel()

    def action_next_pane(self, step: int = 1) -> None:
        # `set_focus` moves the focus now; `focus()` would wait for the next idle, so
        # two quick presses would both start from the same pane and move one.
        self.set_focus(self.query_one(next_pane(self.focused, step)))

    def action_toggle_tree(self) -> None:
        self.layout_keys.toggle_tree()

    def action_zoom(self) -> None:
        self.layout_keys.zoom()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.layout_keys.focus_moved(event.widget)
        self.walk_keys.focus_moved(event.widget)

    @on(FolderWatcher.FilesChanged)
    def _files_changed(self) -> None:
        """A page was saved elsewhere: refresh the index (only changed files are read);
        the page on screen reloads where it was scrolled to."""
        self.loader.refresh_soon()

    @on(FolderWatcher.WatchFailed)
    def _watch_failed(self, message: FolderWatcher.WatchFailed) -> None:
        self.index_control.watch_failed(message)

    def action_edit(self) -> None:
        self.index_control.edit(self._current_slug())

    def action_trail(self) -> None:
        self.trails.show()

    def action_save_page(self) -> None:
        self.trails.save_slice()

    def action_help(self) -> None:
        self.dialogs.help(self.BINDINGS)
