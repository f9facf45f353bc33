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

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.command import Provider
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Tree
from textual.worker import Worker, WorkerState

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import Cancelled
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.body_links import anchor_of_href, kind_of_href, target_of_href
from okf_explorer.tui.commands import PageFinder
from okf_explorer.tui.failures import notice, reason
from okf_explorer.tui.history import View
from okf_explorer.tui.index_loader import IndexLoader
from okf_explorer.tui.navigator import Navigator
from okf_explorer.tui.screens.explorer_bindings import EXPLORER_BINDINGS, KeyRules, next_pane
from okf_explorer.tui.widgets.link_tree import LinkTree
from okf_explorer.tui.widgets.page_pane import FATAL_AT_START, PagePane
from okf_explorer.tui.widgets.status_bar import StatusBar
from okf_explorer.tui.widgets.traversal_panel import TraversalPanel


class MainScreen(Screen[None]):
    """The three panes, the status line and every key of SPEC §8."""

    CSS_PATH = "main.tcss"
    COMMANDS: ClassVar[set[type[Provider]]] = {PageFinder}
    BINDINGS: ClassVar[list[BindingType]] = EXPLORER_BINDINGS

    class SourceFailed(Message):
        """The brain could not be opened (nothing was shown); the app says why."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    def __init__(
        self, brain: Brain, *, start: str | None, export_dir: Path, source_label: str
    ) -> None:
        super().__init__()
        self.brain, self.export_dir, self.source_label = brain, export_dir, source_label
        self.loader = IndexLoader(brain, start=start, show=self._show_start)
        self.nav = Navigator(self, self.loader, changed=self.sync_bindings)
        self.history = self.nav.history
        self.keys = KeyRules(self.nav, self.loader, partial(self.query_one, PagePane))

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="◆")
        with Horizontal(id="panes"):
            yield PagePane(self.brain, id="page-pane")
            with Vertical(id="graph-column"):
                yield LinkTree(self.brain, id="link-tree")
                yield TraversalPanel(self.brain, export_dir=self.export_dir, id="traversal")
        yield StatusBar(id="status")
        yield Footer()
        yield self.loader

    def on_mount(self) -> None:
        self.title = "okf-explorer"
        self.query_one(StatusBar).set_source(self.source_label)
        self.query_one(StatusBar).set_indexing(0, 0)
        self.query_one("#link-tree").border_title = "links"
        self.query_one("#page-pane").border_title = "page"
        self.loader.begin()

    @on(IndexLoader.Listed)
    @on(IndexLoader.IndexStarted)
    @on(IndexLoader.IndexProgressed)
    @on(IndexLoader.IndexBuilt)
    @on(IndexLoader.IndexFailed)
    def _index_changed(self, message: Message) -> None:
        self.query_one(StatusBar).follow(message)
        if not isinstance(message, IndexLoader.IndexProgressed):
            self.sync_bindings()  # a build started or ended: `r`, `s`, `e`, `ctrl+x` follow

    @on(IndexLoader.Listed)
    def _listed(self, message: IndexLoader.Listed) -> None:
        self.nav.listed(message.count)

    @on(IndexLoader.IndexBuilt)
    def _index_built(self, message: IndexLoader.IndexBuilt) -> None:
        self.nav.index_built(message.first)

    @on(IndexLoader.IndexFailed)
    @on(IndexLoader.StartFailed)
    def _loader_failed(self, message: IndexLoader.IndexFailed | IndexLoader.StartFailed) -> None:
        self._report(message.error)

    @on(IndexLoader.StartResolved)
    def _start_resolved(self, message: IndexLoader.StartResolved) -> None:
        self.nav.start_resolved(message.slug)

    @on(PagePane.Opened)
    def _opened(self, message: PagePane.Opened) -> None:
        self.nav.opened(message.view, message.move)
        self.sub_title = printable(message.view.slug)
        self.sync_bindings()

    @on(PagePane.BodyShown)
    @on(Tree.NodeHighlighted)
    @on(DataTable.RowHighlighted)
    def _applicable_changed(self) -> None:
        self.sync_bindings()  # `m`/`l` follow the body; `enter` applies on a page row/node

    @on(LinkTree.PageChosen)
    @on(TraversalPanel.PageChosen)
    def _page_chosen(self, message: LinkTree.PageChosen | TraversalPanel.PageChosen) -> None:
        if isinstance(message, LinkTree.PageChosen) and (anchor := self._anchor_to(message.slug)):
            self.query_one(PagePane).expect_anchor(message.slug, anchor)
        self.nav.choose(message.slug, message.exists)

    def _anchor_to(self, slug: str) -> str | None:
        """The heading or block the current page's body first links into on `slug`
        (`[[Page#Heading]]`): a link-tree choice opens the page there too."""
        for _, href in self.query_one(PagePane).links:
            anchor, target = anchor_of_href(href), target_of_href(href)
            found = self.nav.resolve(target, kind_of_href(href)) if anchor and target else None
            if found is not None and found[0] == slug:
                return anchor
        return None

    @on(PagePane.LinkFollowed)
    def _link_followed(self, message: PagePane.LinkFollowed) -> None:
        if message.anchor and message.target is not None:
            found = self.nav.resolve(message.target, message.kind)
            if found is not None:  # `[[Page#Heading]]`: opened scrolled there
                self.query_one(PagePane).expect_anchor(found[0], message.anchor)
        self.nav.follow(message.target, message.url, message.kind)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place the panes' worker failures become notifications; a finished
        worker may change what applies, so the footer follows."""
        if event.state in (WorkerState.SUCCESS, WorkerState.ERROR):
            self.sync_bindings()
        if event.state == WorkerState.ERROR:
            self._report(event.worker.error, event.worker.group)

    def _report(self, error: BaseException | None, group: str = "") -> None:
        pane = self.query_one(PagePane)
        if isinstance(error, FATAL_AT_START) and group != "export" and not pane.opened_once:
            self.workers.cancel_node(self)
            self.loader.stop()
            self.post_message(self.SourceFailed(reason(error)))
        elif not isinstance(error, Cancelled):
            title, text = notice(error, group)
            self.notify(text, title=title, severity="error", markup=False)

    async def _show_start(self, view: View, missing_ok: bool) -> bool:
        return await self.query_one(PagePane).open(view, "visit", missing_ok)

    def open_page(self, slug: str) -> None:
        """Open `slug` keeping the current depth and direction (also used by the finder)."""
        self.nav.go(self.nav.open(slug), "visit")

    def catalogue(self) -> list[tuple[str, str]]:
        """The pages the finder offers (`PageCatalogue`)."""
        return self.loader.pages

    def exact_hit(self, name: str) -> str | None:
        return self.loader.exact_hit(name)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out what does not apply now (SPEC §8 keys only; see `KeyRules`)."""
        return self.keys.applies(action)

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
        """List the body's links (in order of appearance) in a dialog; `enter` follows one."""
        from okf_explorer.tui.screens.links_dialog import LinksDialog, body_links

        pane = self.query_one(PagePane)
        if pane.links and pane.slug is not None:
            dialog = LinksDialog(pane.slug, body_links(pane.links, self.nav.resolve))
            self.app.push_screen(dialog, lambda chosen: chosen and pane.follow(chosen.href))

    def action_outline(self) -> None:
        """The page's headings; `enter` scrolls to one."""
        from okf_explorer.tui.screens.outline_dialog import OutlineDialog

        pane = self.query_one(PagePane)
        if pane.headings and pane.slug is not None:
            dialog = OutlineDialog(pane.slug, pane.headings)
            self.app.push_screen(dialog, lambda at: at is None or pane.scroll_to_heading(at))

    def action_more_of_page(self) -> None:
        self.query_one(PagePane).want_more()

    def action_toggle_properties(self) -> None:
        """Long frontmatter values in full, or folded again."""
        self.query_one(PagePane).toggle_properties()

    def action_find(self) -> None:
        self.app.action_command_palette()

    def action_stats(self) -> None:
        """Counts, hubs, orphans, dead ends and dangling targets; `enter` opens a page."""
        from okf_explorer.tui.screens.stats_dialog import StatsDialog

        self.app.push_screen(StatsDialog(self.brain), lambda slug: slug and self.open_page(slug))

    def action_reload(self) -> None:
        """Refresh the index; a page that failed to load is loaded again too."""
        if self.query_one(PagePane).error is not None:
            self.nav.go(self.nav.current, "reload")
        self.loader.build(refresh=self.loader.ready)

    def action_cancel_index(self) -> None:
        if self.loader.cancel():
            self.query_one(StatusBar).set_cancelled(previous=self.loader.ready)
            if not self.loader.ready and (current := self.nav.current) is not None:
                self.nav.show_graph(current)  # the panes stop promising an index
            self.sync_bindings()

    def action_next_pane(self, step: int = 1) -> None:
        self.query_one(next_pane(self.focused, step)).focus()

    def action_help(self) -> None:
        from okf_explorer.tui.screens.help import HelpDialog  # not needed for the first paint

        self.app.push_screen(HelpDialog(self.BINDINGS))
