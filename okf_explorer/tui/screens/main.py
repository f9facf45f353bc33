"""The explorer: a page, its links and the slice around it, over one `Brain`.

This screen composes the panes, binds every key of SPEC §8 and wires messages:
messages go up (a pane says what happened: `PagePane.Opened`, `LinkTree.PageChosen`,
`IndexLoader.IndexBuilt`, …) and state comes down (the screen tells each pane what
to show). The state itself lives in `tui.state`: `Navigator` (the history, the
trail, where each key leads), `IndexLoader` (start-up and the index), `FolderWatcher`
(live reload) and `Saver` (trail exports, pages saved). Each pane loads its own
content in its own workers, the path and walk views keep their own keys; every
worker that ends reaches `_worker_ended`, the one place failures become notifications.

Read top to bottom: composing; what the index loader says; what the panes say;
which keys apply; the actions, by family (pages and history, the slice, dialogs,
paths and walks, layout, the index, the trail and saving); the finders' hooks.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import CommandPalette, Provider
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header, Tree
from textual.worker import WorkerState

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import Cancelled
from okf_explorer.core.graph.trail import How, TrailStep
from okf_explorer.core.links.grammar import LinkKind
from okf_explorer.core.okf.filter import OkfFilter
from okf_explorer.core.search.find_rank import Findable
from okf_explorer.core.search.text_index import SearchHit
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.browser import open_outside
from okf_explorer.tui.collector_at_rest import REST, CollectorAtRest
from okf_explorer.tui.dialogs.export import ask_export_folder, inside
from okf_explorer.tui.failures import ReportsWorkers, notice, reason
from okf_explorer.tui.finder import (
    TEXT_PROMPT,
    FillNotice,
    PageFinder,
    PrefixedTextFinder,
    RecentSearches,
    TextFinder,
    TextJump,
    TextReading,
)
from okf_explorer.tui.markdown.links import anchor_into
from okf_explorer.tui.state.communities import community_colours
from okf_explorer.tui.state.index_loader import IndexLoader
from okf_explorer.tui.state.live_reload import FolderWatcher, edit_page
from okf_explorer.tui.state.navigator import History, Move, Navigator, View
from okf_explorer.tui.state.page_links import links_elsewhere
from okf_explorer.tui.state.saving import SavePlan, Saver, save_notice
from okf_explorer.tui.state.server_view import ServerComparison, badge, server_note
from okf_explorer.tui.widgets.footer import PinnedFooter, pin_footer
from okf_explorer.tui.widgets.graph.graph_panel import GraphPanel
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.path_view import PathView
from okf_explorer.tui.widgets.graph.table_view import TableView
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.graph.walk_view import WalkView
from okf_explorer.tui.widgets.page.pane import FATAL_AT_START, PagePane
from okf_explorer.tui.widgets.page_tree import PageTree
from okf_explorer.tui.widgets.row_table import RowTable
from okf_explorer.tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from okf_explorer.core.audit.page import PageView

TREE_OPEN = "-open"
"""On the page tree while it is open (`f`): it moves onto the screen."""
GRAPH_SHOWN = "-graph-shown"
"""On the slice's place while the local graph shows there (`g`); narrow, on the link tree
and the page pane too."""
CONTAINERS = ("page-tree", "page-pane", "graph-column", "link-tree", "slice-place")
"""The ids of the containers the page tree and the zoom show and hide (`_arrange`)."""

SEARCH_WARM_REST = REST
"""Seconds the person reads (no key, no mouse, no work under way) before the word
embeddings a text search ranks with are loaded (`_warm_search_at_rest`): the rest the
collector waits for, so they are there for a `ctrl+f` pressed as soon as the page shows."""

WHY_NOT: dict[str, str] = {
    "shallower": "already at depth 1",
    "deeper": "already at the deepest (10)",
    "more_of_page": "the whole page is shown",
}
"""What a key says when pressed where it does nothing (by action)."""


class MainScreen(ReportsWorkers, Screen[None]):
    """The three panes, the status line and every key of SPEC §8."""

    CSS_PATH: ClassVar[list[str]] = ["main.tcss", "../dialogs/help.tcss", "../dialogs/stats.tcss"]
    """The large dialogs' stylesheets are read with the screen's: a dialog whose own
    `CSS_PATH` is new to the app makes Textual read every stylesheet again as it first
    opens (`?` the first time: about 130 -> 75 ms of CPU, median of 12 fresh starts)."""
    COMMANDS: ClassVar[set[type[Provider]]] = {PageFinder, PrefixedTextFinder}
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide")]
    """Narrower than 100 columns the panes stack (main.tcss)."""
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-short"), (30, "-tall")]
    """Fewer than 30 rows: no title bar."""
    AUTO_FOCUS = "#page-pane"
    sub_title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)
    """The page's slug, after the app's name in the title bar. Textual's own repaints the
    whole screen at each change (every page opened); the title bar updates itself."""
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """The focused widget. Textual's own repaints the whole screen at each change (`tab`);
    the panes whose focus changed restyle themselves (`:focus`, `:focus-within`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Footer order: keys that apply on every page first, keys that come and go (`⌫ Back`
        # after the first page, `- Depth-` past depth 1, `m` on a long page) after them. A
        # key that stops applying is hidden, so one that came first pushed the rest along
        # and, at 80 columns, `l Links` off the footer right after a page was opened.
        # `enter` is not shown at all: it applied only while a row was highlighted.
        Binding("enter", "open_selected", "Open", show=False, id="open"),
        Binding("d", "cycle_direction", "Direction", id="direction"),
        Binding("b", "backlinks", "Backlinks", id="backlinks"),
        Binding("l", "page_links", "Links", id="page-links"),
        Binding("n", "page_cursor(1)", "Next link", id="next-link"),
        Binding("N", "page_cursor(-1)", "Previous link", show=False, id="previous-link"),
        Binding("plus", "deeper", "Depth+", key_display="+", id="deeper"),
        # The finder's keys open it as they arrive (priority), so the letters typed in the
        # same burst reach it (`tui.dialogs.finder`), not the pane that held the focus.
        Binding("slash", "find", "Find", key_display="/", priority=True, id="find"),
        Binding("ctrl+p", "find", "Find", show=False, priority=True, id="find-alt"),
        Binding("ctrl+f", "search_text", "Search", priority=True, id="search-text"),
        Binding("g", "toggle_graph", "Graph", id="graph"),
        Binding("w", "walk", "Walk", show=False, id="walk"),
        Binding("f", "toggle_tree", "Pages", id="page-tree"),
        Binding("F", "okf_filter", "Filter", show=False, id="okf-filter"),
        Binding("e", "export", "Export", id="export"),
        Binding("s", "stats", "Stats", id="stats"),
        Binding("r", "reload", "Reload", id="reload"),
        Binding("minus", "shallower", "Depth-", key_display="-", id="shallower"),
        Binding("backspace", "back", "Back", id="back"),
        Binding("alt+left", "back", "Back", show=False, id="back-alt"),
        Binding("alt+right", "forward", "Forward", id="forward"),
        Binding("t", "cycle_relation", "Relation", show=False, id="relation"),
        Binding("i", "toggle_implied", "Implied edges", show=False, id="implied"),
        Binding("m", "more_of_page", "More of page", id="more-of-page"),
        Binding("o", "outline", "Outline", id="outline"),
        Binding("p", "toggle_properties", "All properties", show=False, id="properties"),
        Binding("L", "line_breaks", "Line breaks or flowing text", show=False, id="line-breaks"),
        Binding("z", "zoom", "Zoom pane", show=False, id="zoom"),
        Binding("escape", "unzoom", "Panes back (after z)", show=False, priority=True),
        Binding("M", "mark_path_from", "Mark path start", show=False, id="mark-path-from"),
        Binding("P", "paths", "Paths", show=False, id="paths"),
        Binding("E", "edit", "Edit in $EDITOR", show=False, id="edit"),
        Binding("T", "trail", "Trail", show=False, id="trail"),
        Binding("S", "save_page", "Save slice as a page", show=False, id="save-page"),
        Binding("ctrl+x", "cancel_index", "Cancel indexing", id="cancel-index"),
        Binding("tab", "next_pane", "Next pane", show=False, id="next-pane"),
        Binding("shift+tab", "next_pane(-1)", "Previous pane", show=False, id="previous-pane"),
        Binding("question_mark", "help", "Help", key_display="?", id="help"),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    class SourceFailed(Message):
        """The brain could not be opened (nothing was shown); the app says why."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

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
        self.nav = Navigator()
        self.loader = IndexLoader(brain, start=start, show=self._show_start)
        self.watcher = FolderWatcher()
        self.saver = Saver(brain, export_dir)
        self.text_jump = TextJump()
        self.searches = RecentSearches()
        self._footer_state: tuple[bool, ...] = ()
        """What applied when the footer was last refreshed (`sync_bindings`)."""
        self.tree_open = False
        """Whether the page tree shows (`f`)."""
        self.zoomed: Widget | None = None
        """The pane that fills the screen (`z`), if one does."""

    @property
    def history(self) -> History:
        return self.nav.history

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="◆")
        with Horizontal(id="panes"):
            yield PageTree(id="page-tree")
            yield PagePane(self.brain, id="page-pane")
            with Vertical(id="graph-column"):
                yield LinkTree(self.brain, id="link-tree")
                with Vertical(id="slice-place"):  # one of these at a time
                    yield TraversalPanel(self.brain, export_dir=self.export_dir, id="traversal")
                    yield PathView(self.brain, id="paths")
                    yield WalkView(self.brain, id="walk")
                    communities = partial(community_colours, self.brain)
                    yield GraphPanel(id="graph", communities=communities)
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
        self.query_one(PagePane).border_title = "page"
        pin_footer(self)
        self.loader.begin()

    async def _show_start(self, view: View, missing_ok: bool) -> bool:
        """How the loader shows the start page (`IndexLoader.ShowPage`)."""
        return await self.query_one(PagePane).open(view, "visit", missing_ok)

    # ------------------------------------------------------------------ the index loader

    @on(IndexLoader.Listed)
    def _listed(self, message: IndexLoader.Listed) -> None:
        self.query_one(StatusBar).set_page_count(message.count)
        self.sync_bindings()
        if not message.count and self.nav.current is None:  # an empty brain says so
            self.query_one(PagePane).show_failure("(empty)", "this brain has no pages")

    @on(IndexLoader.IndexStarted)
    def _index_started(self) -> None:
        self.query_one(StatusBar).set_indexing(0, 0)
        self.sync_bindings()  # `r`, `s`, `e`, `ctrl+x` follow
        if not self.loader.ready and (current := self.nav.current) is not None:
            self.show_graph(current)  # panes that said `no index` now wait for it

    @on(IndexLoader.IndexProgressed)
    def _index_progressed(self, message: IndexLoader.IndexProgressed) -> None:
        self.query_one(StatusBar).set_indexing(message.done, message.total)

    @on(IndexLoader.IndexBuilt)
    def _index_built(self, message: IndexLoader.IndexBuilt) -> None:
        """A first index shows the graph and heads the page with the title it gives; a
        refreshed one reloads the page too (where it was scrolled to) unless nothing
        changed (and no server's graph answers); embeds that waited for it look again;
        live reload starts."""
        status = self.query_one(StatusBar)
        status.set_page_count(message.count)
        status.set_indexed(message.answered_by)
        if self.comparison is not None:
            status.set_indexed(self.comparison.describe(message.answered_by))
        self.sync_bindings()
        if (start := status.start_slug) is not None:
            self._hint_if_start_links_nowhere(start)
        graph = self.query_one(GraphPanel)
        if not (message.first or message.unchanged):
            graph.forget_colours()  # communities of the new index
        if not message.unchanged:
            graph.colour_ahead(message.count)
        if message.first:
            self.query_one(PagePane).title_again()
        if (current := self.nav.current) is not None:
            if message.first:
                self.show_graph(current)
            elif not message.unchanged or message.answered_by == "server":
                self.go(current, "reload")  # a server's graph may answer anew
        if message.unchanged:
            self.notify("nothing changed since the last index", title="r", timeout=2)
        self.query_one(PagePane).embeds_again()
        if message.first and self.watch_files and (root := self.brain.local_root) is not None:
            self.watcher.start(root)  # live reload (MCP sources have no folder to watch)
        if message.first:
            self.set_timer(SEARCH_WARM_REST, self._warm_search_at_rest)
        if self.tree_open:  # titles are known now
            self.query_one(PageTree).show(self.loader.pages, None, self._dotted_names)

    @on(IndexLoader.IndexFailed)
    def _index_failed(self, message: IndexLoader.IndexFailed) -> None:
        self.query_one(StatusBar).set_failed(reason(message.error))
        self.sync_bindings()
        self._report(message.error)

    @on(IndexLoader.StartFailed)
    def _start_failed(self, message: IndexLoader.StartFailed) -> None:
        self._report(message.error)

    @on(IndexLoader.StartResolved)
    def _start_resolved(self, message: IndexLoader.StartResolved) -> None:
        if (view := self.nav.start_resolved(message.slug)) is not None:
            self.go(view, "start")

    @on(IndexLoader.StartChosen)
    def _start_chosen(self, message: IndexLoader.StartChosen) -> None:
        self.query_one(StatusBar).set_start(message.choice.rule, message.choice.slug)

    @on(FolderWatcher.FilesChanged)
    def _files_changed(self) -> None:
        """A page was saved elsewhere: refresh the index (only changed files are read);
        the page on screen reloads where it was scrolled to."""
        self.loader.refresh_soon()

    @on(FolderWatcher.WatchFailed)
    def _watch_failed(self, message: FolderWatcher.WatchFailed) -> None:
        text = f"live reload is off ({message.reason}); r reloads"
        self.notify(text, title="watch", severity="warning", markup=False)

    # ------------------------------------------------------------------ what the panes say

    @on(PagePane.Opened)
    def _opened(self, message: PagePane.Opened) -> None:
        """The source answered: the page is the current one; the graph follows it."""
        self.nav.opened(message.view, message.move)
        self.show_graph(message.view)
        self.query_one(StatusBar).page_opened(message.view.slug)
        self.sub_title = printable(message.view.slug)
        self.sync_bindings()

    @on(PagePane.BodyShown)
    @on(Tree.NodeHighlighted)
    @on(RowTable.RowHighlighted)
    def _applicable_changed(self) -> None:
        self.sync_bindings()  # `m`/`l` follow the body; `enter` applies on a page row/node

    @on(PagePane.BodyShown)
    def _body_shown(self) -> None:
        pane = self.query_one(PagePane)
        self.call_after_refresh(lambda: self.text_jump.body_shown(pane.slug, pane))

    @work(thread=True, group="browser", exit_on_error=False)
    def _open_outside(self, url: str) -> None:
        """Not a page: handed to a browser outside the terminal, off the loop (a
        terminal browser would draw over the explorer: `tui.browser`)."""
        said = open_outside(self.app, url)
        self.app.call_from_thread(self.notify, said, markup=False, timeout=4)

    @on(PagePane.TagFollowed)
    def _tag_followed(self, message: PagePane.TagFollowed) -> None:
        """A tag followed on the page: the pages so tagged, in the finder (`search tag:x`)."""
        self.action_search_text(f"tag:{message.tag}")

    @on(PagePane.LinkFollowed)
    def _link_followed(self, message: PagePane.LinkFollowed) -> None:
        """A body link: an external URL opens outside, a page opens here (scrolled to
        the heading or `^block` the link names)."""
        if message.target is None:
            self._open_outside(message.url or "")
        elif (found := self.resolve(message.target, message.kind)) is not None:
            if message.anchor:
                self.query_one(PagePane).expect_anchor(found[0], message.anchor)
            self.choose(*found)
        elif not self.loader.ready:
            self._warn(f"still indexing: cannot resolve {message.target} yet")
        else:
            self._warn(f"no such page: {message.target}")

    @on(LinkTree.PageChosen)
    def _linked_page_chosen(self, message: LinkTree.PageChosen) -> None:
        """Opened where the current page's body links into it (`[[Page#Heading]]`)."""
        pane = self.query_one(PagePane)
        if anchor := anchor_into(pane.links, self.resolve, message.slug):
            pane.expect_anchor(message.slug, anchor)
        self.choose(message.slug, message.exists)

    @on(TraversalPanel.PageChosen)
    @on(PathView.PageChosen)
    @on(WalkView.PageChosen)
    @on(GraphPanel.PageChosen)
    def _page_chosen(
        self,
        message: TraversalPanel.PageChosen
        | PathView.PageChosen
        | WalkView.PageChosen
        | GraphPanel.PageChosen,
    ) -> None:
        self.choose(message.slug, message.exists)

    @on(PageTree.PageChosen)
    def _tree_page_chosen(self, message: PageTree.PageChosen) -> None:
        self.choose(message.slug, message.exists)
        if self.tree_open and self.has_class("-narrow"):
            self.action_toggle_tree()  # a narrow screen gives the page its room back

    @on(TraversalPanel.SliceShown)
    def _slice_shown(self, message: TraversalPanel.SliceShown) -> None:
        panel = self.query_one(TraversalPanel)
        filtered = panel.okf_filter.active
        graph = self.query_one(GraphPanel)
        graph.follow(message.view, message.edges, panel.exists, panel.title_of, filtered)

    @on(LinkTree.ViewShown)
    def _view_shown(self, message: LinkTree.ViewShown) -> None:
        """The server's view of a page is in the tree: its header says `server −N/+M`."""
        self.query_one(PagePane).show_badge(message.slug, badge(message.view))

    @on(PathView.Closed)
    def _paths_closed(self) -> None:
        self._show_slice(focus=True)

    @on(WalkView.Left)
    def _walk_left(self) -> None:
        self._show_slice(focus=True)

    @on(ReportsWorkers.WorkerEnded)
    def _worker_ended(self, message: ReportsWorkers.WorkerEnded) -> None:
        """The one place the workers' failures become notifications; a finished worker
        may change what applies, so the footer follows."""
        self.sync_bindings()
        worker = message.worker
        if worker.state == WorkerState.ERROR:
            self._report(worker.error, worker.group)

    def _report(self, error: BaseException | None, group: str = "") -> None:
        """Before any page was shown, a source that cannot be opened ends the explorer
        (`SourceFailed`); otherwise a notification says what happened."""
        pane = self.query_one(PagePane)
        if isinstance(error, FATAL_AT_START) and group != "export" and not pane.opened_once:
            self.workers.cancel_node(pane)
            self.loader.stop()
            self.post_message(self.SourceFailed(reason(error)))
        elif not isinstance(error, Cancelled):
            title, text = notice(error, group)
            self.notify(text, title=title, severity="error", markup=False)

    def _warn(self, text: str) -> None:
        self.notify(text, severity="warning", markup=False)

    # ------------------------------------------------------------------ which keys apply

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide what does not apply now (SPEC §8 keys only): a key without a rule applies."""
        nav, loader = self.nav, self.loader
        match action:
            case "back":
                return nav.history.can_go_back
            case "forward":
                return nav.history.can_go_forward
            case "deeper":
                return nav.deeper() is not None
            case "shallower":
                return nav.shallower() is not None
            case "cycle_direction" | "backlinks" | "toggle_implied":
                return nav.current is not None
            case "cycle_relation":
                return nav.next_relation(loader.relations()) is not None
            case "export" | "save_page":
                # `export` stays lit while a new slice is walked (a press then waits for
                # it), so the footer does not blink on every depth or direction key.
                return nav.current is not None and loader.ready
            case "page_links":
                return bool(self.query_one(PagePane).links)
            case "more_of_page":  # not while the rest of the first part is on its way
                pane = self.query_one(PagePane)
                return pane.truncated and not pane.filling
            case "toggle_properties":
                return self.query_one(PagePane).header_folded
            case "outline":
                return bool(self.query_one(PagePane).headings)
            case "stats":
                return loader.ready  # computed from the index, never forcing a build
            case "unzoom":  # else `escape` goes on to the focused pane
                return self.zoomed is not None
            case "cancel_index":
                return loader.running  # shown only while a build runs
            case "open_selected":
                return self.selected() is not None
            case "trail":
                return bool(nav.trail.moves)
        return True

    def sync_bindings(self) -> None:
        """Refresh the footer, only when what applies has changed: each refresh makes
        Textual work out the bindings of the whole focus chain again and publish them."""
        keys = [binding for binding in self.BINDINGS if isinstance(binding, Binding)]
        state = tuple(bool(self.check_action(binding.action, ())) for binding in keys)
        if state != self._footer_state:
            self._footer_state = state
            self.refresh_bindings()

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here says why (`-` at depth 1, `m` on a short page)."""
        for binding in self.BINDINGS:
            if isinstance(binding, Binding) and event.key in binding.key.split(","):
                if binding.action in WHY_NOT and not self.check_action(binding.action, ()):
                    self.notify(WHY_NOT[binding.action], title=event.key, timeout=2)
                return

    # ------------------------------------------------------------------ pages and history

    def go(self, view: View | None, move: Move, how: How | None = None) -> None:
        """Load `view`'s page; the history takes `move` once the source has answered;
        the trail records `how` (default: a visit, or the back/forward just asked)."""
        self.nav.going(move, how)
        if view is not None:
            self.query_one(PagePane).load(view, move)

    def choose(self, slug: str, exists: bool | None = None) -> None:
        """Open a chosen page, or say it does not exist (`exists` None: ask the slice)."""
        if exists is None:
            exists = self.query_one(TraversalPanel).exists(slug)
        if exists:
            self.go(self.nav.open(slug), "visit")
        else:
            self._warn(f"no such page: {slug}")

    def open_page(self, slug: str) -> None:
        """Open `slug` keeping the current depth and direction (also used by the finder)."""
        self.go(self.nav.open(slug), "visit", how="finder")

    def resolve(self, target: str, kind: LinkKind = "wiki") -> tuple[str, bool] | None:
        """(slug or dangling node, exists) a body link of the current page leads to."""
        return self.loader.resolve_link(self._current_slug(), target, kind)

    def selected(self) -> str | None:
        """The page under the cursor of the focused link tree or traversal table."""
        focused = self.focused
        if isinstance(focused, LinkTree):
            return focused.selected_slug
        if focused is not None and focused.id == "traversal-table":
            return self.query_one(TraversalPanel).selected_slug
        return None

    def _current_slug(self) -> str | None:
        return current.slug if (current := self.nav.current) is not None else None

    def action_open_selected(self) -> None:
        if (slug := self.selected()) is not None:
            self.choose(slug)

    def action_back(self) -> None:
        self.go(self.nav.back(), "moved")

    def action_forward(self) -> None:
        self.go(self.nav.forward(), "moved")

    def action_more_of_page(self) -> None:
        self.query_one(PagePane).want_more()

    def action_toggle_properties(self) -> None:
        """Long frontmatter values in full, or folded again."""
        self.query_one(PagePane).toggle_properties()

    def action_line_breaks(self) -> None:
        """`L`: single newlines read the other way (breaks or spaces) for the session, or
        by the brain's rule again; the page is drawn again where the reader was."""
        rule = self.query_one(PagePane).toggle_line_breaks()
        self.notify(rule.why, title="line breaks", timeout=3)
        self.go(self.nav.current, "reload")

    # ------------------------------------------------------------------ the slice

    def show_graph(self, view: View, links: bool = True) -> None:
        """Walk `view` in the traversal panel (and list its links), or say why not yet."""
        panel, tree = self.query_one(TraversalPanel), self.query_one(LinkTree)
        if not self.loader.ready:
            why = "waiting for the index…" if self.loader.coming else "no index · r builds it"
            panel.show_pending(view, why)
            if links:
                tree.show_pending(view.slug, why)
        else:
            panel.walk(view)
            if links:
                tree.load(view.slug)

    def change(self, view: View | None) -> None:
        """Same page, new traversal settings: no reload, no new history entry."""
        if view is not None:
            self.nav.change(view)
            self.show_graph(view, links=False)
            self.sync_bindings()
            self._tree_off_the_links()

    def _tree_off_the_links(self) -> None:
        """A key changed what the link column shows: the page tree, over it, closes."""
        if self.tree_open:
            self.action_toggle_tree()

    def action_deeper(self) -> None:
        self.change(self.nav.deeper())

    def action_shallower(self) -> None:
        self.change(self.nav.shallower())

    def action_cycle_direction(self) -> None:
        self.change(self.nav.next_direction())

    def action_backlinks(self) -> None:
        self.change(self.nav.backlinks())

    def action_cycle_relation(self) -> None:
        if (view := self.nav.next_relation(self.loader.relations())) is not None:
            self.change(view)
            text = f"relation: {view.rel or 'all'}"
            self.notify(text, title="traversal", markup=False, timeout=2)

    def action_toggle_implied(self) -> None:
        """`i`: walk and list the implied inverse edges too (`core.graph.implied`), or not."""
        if (view := self.nav.toggled_implied()) is not None:
            self.query_one(LinkTree).implied = view.implied
            self.nav.change(view)
            self.show_graph(view)
            self.sync_bindings()
            self._tree_off_the_links()
            text = f"implied edges: {'shown' if view.implied else 'hidden'}"
            self.notify(text, title="traversal", markup=False, timeout=2)

    def action_export(self) -> None:
        if (current := self.nav.current) is not None:
            self.query_one(TraversalPanel).export(current)

    def _filter_graph(self, keep: OkfFilter) -> None:
        """`F`: keep the link tree and the slice to pages that pass `keep` (`core.okf.filter`);
        the traversal panel's summary line names the filter while one is on."""
        self.query_one(TraversalPanel).okf_filter = keep
        self.query_one(LinkTree).okf_filter = keep
        if (current := self.nav.current) is not None:
            self.show_graph(current)

    # ------------------------------------------------------------------ dialogs
    # Each dialog module is imported when its key is first pressed (not for the first paint).

    def action_page_links(self) -> None:
        """The page's links (in order of appearance: `dialogs.links.page_links`, the whole
        of a long page); `enter` follows one. Where the server's graph answers, each says
        what the server holds of it. Listed in a thread (a 1.5 MB page has 6,000)."""
        pane = self.query_one(PagePane)
        if not pane.links or pane.slug is None or pane.page is None:
            return
        tree = self.query_one(LinkTree)
        view = tree.view if tree.view is not None and tree.view.slug == pane.slug else None
        # once the tree loaded this page the brain knows which graph answers (no call)
        loaded = tree.slug == pane.slug and self.loader.ready
        ask_server = view is not None or (loaded and self.brain.answered_by == "server")
        self._page_links(pane, list(pane.links), pane.end, ask_server, view)

    @work(group="start-links", exclusive=True, exit_on_error=False)
    async def _hint_if_start_links_nowhere(self, start: str) -> None:
        """The status line's hint for a start page linking nowhere (`f`, `/`): asking
        may take a server's round trip, so not on the screen's loop."""
        if not await asyncio.to_thread(links_elsewhere, self.brain, start):
            self.query_one(StatusBar).start_links_nowhere(start)

    @work(group="page-links", exclusive=True, exit_on_error=False)
    async def _page_links(
        self,
        pane: PagePane,
        drawn: list[tuple[str, str]],
        end: int,
        ask_server: bool,
        view: PageView | None,
    ) -> None:
        from okf_explorer.tui.dialogs.links import BodyLink, LinksDialog, page_links

        page, slug = pane.page, pane.slug
        if page is None or slug is None:
            return

        def listed() -> list[BodyLink]:
            links = page_links(drawn, page.content, end, self.resolve)
            if not ask_server:
                return links
            return [
                replace(link, server=server_note(self.brain, slug, link.slug, view))
                if link.slug is not None and link.exists
                else link
                for link in links
            ]

        links = await asyncio.to_thread(listed)
        if pane.page is page:  # still the page the key was pressed on
            dialog = LinksDialog(slug, links)
            self.app.push_screen(dialog, lambda chosen: chosen and pane.follow(chosen.href))

    def action_page_cursor(self, step: int) -> None:
        """`n` / `N` from another pane: the page pane takes the focus and moves its
        cursor (the pane's own keys while it has the focus)."""
        self.query_one(PagePane).action_cursor(step)

    def action_okf_filter(self) -> None:
        """Keep the link tree and the traversal panel to OKF statuses and a trust tier."""
        from okf_explorer.tui.dialogs.filter import FilterDialog

        keep = self.query_one(TraversalPanel).okf_filter
        self.app.push_screen(FilterDialog(keep, self._filter_graph))

    def action_outline(self) -> None:
        """The page's headings; `enter` scrolls to one."""
        from okf_explorer.tui.dialogs.outline import OutlineDialog

        pane = self.query_one(PagePane)
        if pane.headings and pane.slug is not None:
            dialog = OutlineDialog(pane.slug, pane.headings)
            self.app.push_screen(dialog, lambda at: at is None or pane.scroll_to_heading(at))

    def action_find(self) -> None:
        self.app.action_command_palette()

    def action_search_text(self, query: str = "") -> None:
        """The finder in text mode: full-text search with snippets (`tui.finder`), `query`
        typed in it; the text index is filled as it opens, not when the first query is
        typed."""
        from okf_explorer.tui.dialogs.finder import FinderDialog

        if not CommandPalette.is_open(self.app):
            finder = FinderDialog(
                providers=[TextFinder],
                placeholder=TEXT_PROMPT,
                query=query,
                watched=self.text_reading,
            )
            self.app.push_screen(finder)
            if self.loader.ready:  # the bodies read while the query is typed
                self.run_worker(
                    partial(self.brain.text_search().prepare, FillNotice(self)),
                    thread=True,
                    group="text-index",
                    exclusive=True,
                    exit_on_error=False,
                )

    def action_stats(self) -> None:
        """Counts, hubs, orphans, dead ends and dangling targets; `enter` opens a page."""
        from okf_explorer.tui.dialogs.stats import StatsDialog

        self.app.push_screen(StatsDialog(self.brain), lambda slug: slug and self.open_page(slug))

    def action_help(self) -> None:
        from okf_explorer.tui.dialogs.help import HelpDialog

        reading = f"line breaks: {self.query_one(PagePane).line_breaks.why}"
        self.app.push_screen(HelpDialog(self.BINDINGS, reading))

    # ------------------------------------------------------------------ paths and walks
    # The path view (`P`) and the walk view (`w`) show in the traversal panel's place, one
    # at a time; the panel keeps its slice and comes back when they close.

    def action_mark_path_from(self) -> None:
        """`M`: the current page is where the next paths start (the status line says so)."""
        if (slug := self._current_slug()) is not None:
            self.query_one(PathView).path_from = slug
            self.query_one(StatusBar).set_path_from(slug)

    def action_paths(self) -> None:
        """`P`: the paths from the marked page to this one, or the slice back."""
        paths, walk = self.query_one(PathView), self.query_one(WalkView)
        if walk.display:
            self._show_slice(focus=walk.has_focus_within)
        if paths.display:
            self._show_slice(focus=True)
            return
        to = self._current_slug()
        if paths.path_from is None or to is None:
            self.notify("press M on the page paths start from", title="paths", timeout=3)
        elif to == paths.path_from:
            text = f"from: {printable(to)} · open another page, then P"
            self.notify(text, title="paths", markup=False, timeout=3)
        else:
            self._show_in_slice_place(paths)
            paths.find_to(to)

    def action_walk(self) -> None:
        """`w`: walk from the current page (best paths by link weight), or leave the walk."""
        paths, walk = self.query_one(PathView), self.query_one(WalkView)
        if paths.display:
            self._show_slice(focus=True)
        if walk.display:
            self._show_slice(focus=walk.has_focus_within)
        elif (current := self.nav.current) is None:
            self.notify("open a page first", title="walk", timeout=2)
        else:
            self._show_in_slice_place(walk)
            walk.start(current)

    def _show_in_slice_place(self, view: TableView) -> None:
        """`view` (the path or walk view) in the traversal panel's place, with the focus."""
        self.query_one(TraversalPanel).display = False
        view.display = True
        view.table.focus()

    def _show_slice(self, focus: bool) -> None:
        """The traversal panel back in its place (with its slice), and the focus if asked."""
        self.query_one(PathView).display = self.query_one(WalkView).display = False
        panel = self.query_one(TraversalPanel)
        panel.display = True
        if focus:
            panel.table.focus()

    # ------------------------------------------------------------------ layout

    # The page tree (`f`) and the zoom (`z`) show and hide the panes' containers from the
    # screen's state (`tree_open`, `zoomed`), in `_arrange` only. Not a class on the screen,
    # nor Textual's `maximize` (which sets one): the screen's classes changed, Textual styles
    # every widget again and draws each anew, 50-100 ms of these keys. The page tree lies
    # over the link column (narrow: over everything) on a layer of its own, and waits just
    # off the screen's right edge while closed: nothing under it changes size, so nothing
    # is drawn again but the tree (each pane resized was drawn twice, 30-50 ms of `f`).

    def action_toggle_tree(self) -> None:
        """`f`: show the page tree (on the current page) and focus it, or hide it."""
        tree = self.query_one(PageTree)
        self.tree_open = not self.tree_open
        if self.zoomed is tree:  # closed while zoomed: the panes come back
            self._zoom(None)
        self._arrange()
        if self.tree_open:
            tree.show(self.loader.pages, self._current_slug(), self._dotted_names)
            tree.focus()
        elif tree.has_focus:
            self.query_one(PagePane).focus()

    @property
    def _dotted_names(self) -> bool:
        """Whether a page's name is its place in a hierarchy (a Dendron workspace's):
        the page tree nests by it."""
        return self.brain.markup() == "dendron"

    def _arrange(self) -> None:
        """Show and hide the containers: a zoom hides the title bar and the containers
        beside the zoomed pane and beside each holding it (`_beside`); the open page tree
        covers the link column, and on a narrow screen the page too (what it covers is
        not drawn and takes no focus)."""
        tree, page = self.query_one(PageTree), self.query_one(PagePane)
        column = self.query_one("#graph-column")
        hidden = self._beside(self.zoomed) if self.zoomed is not None else []
        covered = []
        if self.tree_open and self.zoomed is None:
            covered = [page, column] if self.has_class("-narrow") else [column]
        for widget in (self.query_one(Header), *(self.query_one(f"#{n}") for n in CONTAINERS)):
            if any(widget is gone for gone in hidden):
                widget.display = False
            elif widget.styles.has_rule("display"):
                widget.styles.clear_rule("display")  # the stylesheet's
                widget.refresh(layout=True)  # a rule cleared lays nothing out by itself
            widget.visible = not any(widget is under for under in covered)
        tree.set_class(self.tree_open, TREE_OPEN)
        tree.can_focus = self.tree_open
        # half the width (the tree's over it), but all of it while it holds the zoomed pane
        column.styles.width = "1fr" if self.zoomed is not None else None
        # the zoomed page tree fills the screen: inline styles, not a class (which would
        # style the tree and each of its rows again)
        tree.styles.width = tree.styles.height = "1fr" if self.zoomed is tree else None
        # The graph takes the slice table's place; narrow, the links' too, and the page
        # gives it height. Classes on those widgets only, and only where they apply.
        graph = self.query_one(GraphPanel).shown
        narrow = graph and self.has_class("-narrow")
        self.query_one("#slice-place").set_class(graph, GRAPH_SHOWN)
        for widget in (self.query_one(LinkTree), page):
            widget.set_class(narrow, GRAPH_SHOWN)

    def on_resize(self) -> None:
        self.call_after_refresh(self._arrange)  # once the width's class is set

    def action_toggle_graph(self) -> None:
        """`g`: show or hide the local graph of the slice (`widgets.graph.graph_panel`)."""
        panel = self.query_one(GraphPanel)
        traversal = self.query_one(TraversalPanel)
        in_its_place = traversal.display and self.has_class("-wide")
        shown = panel.toggle(traversal.outer_size if in_its_place else None)
        if not shown and self.zoomed is panel:  # hidden while zoomed: the panes come back
            self._zoom(None)
        self._arrange()
        if shown:
            panel.canvas.focus()

    def action_zoom(self) -> None:
        """`z`: the focused pane fills the screen, or the panes come back (also `escape`)."""
        if self.zoomed is not None:
            self._zoom(None)
        elif (pane := pane_of(self.focused)) is not None:
            self._zoom(pane)

    def action_unzoom(self) -> None:
        self._zoom(None)

    def _zoom(self, pane: Widget | None) -> None:
        """`pane` fills the screen (None: the panes come back as they were): only it is
        drawn again (see `_arrange`)."""
        self.query_one(PagePane).resize_is_final()
        self.zoomed = pane
        self._arrange()

    def _beside(self, pane: Widget) -> list[Widget]:
        """What a zoom of `pane` hides: the title bar, and the `CONTAINERS` beside `pane` or
        beside one of the containers holding it."""
        hidden: list[Widget] = [self.query_one(Header)]
        node: Widget = pane
        while isinstance(parent := node.parent, Widget):
            hidden += [w for w in parent.children if w is not node and w.id in CONTAINERS]
            node = parent
        return hidden

    def action_next_pane(self, step: int = 1) -> None:
        """`tab` / `shift+tab`: the page, the page tree while open, the link tree, and the
        table in the slice's place (the traversal panel's, or the path or walk view's
        shown there); not what the page tree covers."""
        views = (self.query_one(PathView), self.query_one(WalkView))
        table = next((view.table for view in views if view.display), None)
        panes = [
            self.query_one(PagePane),
            self.query_one(PageTree),
            self.query_one(LinkTree),
            table or self.query_one(TraversalPanel).table,
        ]
        panes = [pane for pane in panes if pane.focusable and not _covered(pane)]
        if not panes:
            return
        here = next((at for at, pane in enumerate(panes) if pane is self.focused), -step)
        # `set_focus` moves the focus now; `focus()` would wait for the next idle, so
        # two quick presses would both start from the same pane and move one.
        self.set_focus(panes[(here + step) % len(panes)])

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """`tab` while a pane is zoomed zooms the pane it moves to; a pane under the page
        tree taking the focus (`b`, `w`, `P`, a click elsewhere) closes the tree."""
        if self.tree_open and _covered(event.widget):
            self.action_toggle_tree()
        pane = pane_of(event.widget)
        if self.zoomed is not None and pane is not None and pane is not self.zoomed:
            self._zoom(pane)

    # ------------------------------------------------------------------ the index

    def action_reload(self) -> None:
        """`r`: refresh the index; a page that failed to load is loaded again too. When
        nothing changed, a notification says so once the refresh is done."""
        if self.query_one(PagePane).error is not None:
            self.go(self.nav.current, "reload")
        if self.comparison is not None:
            self.comparison.forget()
        self.loader.reload()

    def action_cancel_index(self) -> None:
        if self.loader.cancel():
            self.query_one(StatusBar).set_cancelled(previous=self.loader.ready)
            if not self.loader.ready and (current := self.nav.current) is not None:
                self.show_graph(current)  # the panes stop promising an index
            self.sync_bindings()

    def action_edit(self) -> None:
        """`E`: the page's file in `$EDITOR` (the app steps aside); re-indexed on return."""
        if edit_page(self.app, self.brain, self._current_slug()):
            self.action_reload()

    # ------------------------------------------------------------------ the trail and saving
    # `T` lists the pages visited: `enter` opens one, `x` exports the trail as JSON (never
    # into the bundle; downloaded under `web`), `S` saves it as a page. `S` here saves
    # the slice on screen. A save is previewed first (`SaveDialog`), written in a worker
    # (`tui.state.saving`), and its outcome said in a notification, never a broken screen.

    def _trail_steps(self) -> list[TrailStep]:
        """The trail's steps, each visit resolved as a link once the index is there."""
        return self.nav.trail.steps(self.brain.link_between if self.loader.ready else None)

    def action_trail(self) -> None:
        from okf_explorer.tui.dialogs.trail import TrailChoice, TrailDialog

        def chosen(choice: TrailChoice | None) -> None:
            if choice is None:
                return
            what, slug = choice
            if what == "open":
                self.go(self.nav.open(slug), "visit", how="jump")
            elif what == "export":
                self._export_trail(self.saver.export_dir)
            else:
                self._preview(self.saver.trail_plan(self._trail_steps()))

        self.app.push_screen(TrailDialog(self._trail_steps()), chosen)

    def _export_trail(self, folder: Path) -> None:
        """Write the trail's JSON into `folder` (another is asked for inside the bundle)."""
        name, text = self.saver.trail_export(self._trail_steps())
        if self.app.is_web:  # the browser downloads it: nothing lands on the server
            self.app.deliver_text(
                io.StringIO(text), save_filename=name, mime_type="application/json"
            )
            return
        root = self.brain.local_root
        if root is not None and inside(folder, root):
            ask_export_folder(self, folder, root, self._export_trail_in)
        else:
            self._write_trail(folder / name, text)

    def _export_trail_in(self, folder: Path) -> None:
        self.saver.export_dir = folder  # kept: a later `x` exports there without asking
        self._export_trail(folder)

    @work(group="export", exit_on_error=False)
    async def _write_trail(self, path: Path, text: str) -> None:
        try:
            await asyncio.to_thread(self.saver.write_trail, path, text)
        except OSError as error:
            why = (error.strerror or str(error)).lower()
            self.notify(f"cannot write {path}: {why}", title="trail", severity="error")
            return
        self.notify(f"saved {path}", title="trail export", markup=False)

    def action_save_page(self) -> None:
        """`S`: preview the slice on screen as a page."""
        panel, view = self.query_one(TraversalPanel), self.nav.current
        if view is None or panel.view != view or not panel.loaded:
            self.notify("the slice is not shown yet", title="save", timeout=3)
            return
        self._preview(self.saver.slice_plan(view, panel.edges))

    def _preview(self, plan: SavePlan) -> None:
        """The page exactly as it would be written, and its name, to confirm or change."""
        from okf_explorer.tui.dialogs.save import SaveDialog

        dialog = SaveDialog(plan.what, plan.text, plan.default, self.brain.label, self.saver.check)
        self.app.push_screen(dialog, partial(self._confirmed, plan))

    def _confirmed(self, plan: SavePlan, slug: str | None) -> None:
        if slug is None:
            self.notify("not saved", title="save", timeout=2)
        else:
            self._save(plan, slug)

    @work(group="save", exit_on_error=False)
    async def _save(self, plan: SavePlan, slug: str) -> None:
        """Write through the brain's writer in a thread; say the outcome, never raise."""
        try:
            result = await asyncio.to_thread(self.saver.save, plan, slug)
        except Exception as error:  # a writer is new code on a live screen: tell, go on
            detail = " ".join(str(error).split()) or type(error).__name__
            self.notify(detail, title="not saved", severity="error", markup=False)
            return
        title, text, severity = save_notice(result)
        self.notify(text, title=title, severity=severity, markup=False)
        if result.outcome.saved:
            self.loader.refresh_soon()  # the saved page joins the index

    # ------------------------------------------------------------------ the finders' hooks

    def catalogue(self) -> list[tuple[str, str]]:
        """The pages the finder offers (`PageCatalogue`)."""
        return self.loader.pages

    def exact_hit(self, name: str) -> str | None:
        return self.loader.exact_hit(name)

    def findables(self) -> list[Findable]:
        return self.loader.findables()

    def recent_pages(self) -> list[str]:
        """The trail's pages, oldest first: the finder lists them before hubs (`RecentPages`)."""
        return self.nav.trail.pages

    def search_text(self, query: str, limit: int) -> list[SearchHit]:
        """Blocking (the text finder calls it in a thread): `TextSearchHost`."""
        return self.brain.text_search().search(query, limit)

    def text_reading(self) -> tuple[int, int] | None:
        """`TextSearchHost`: how far the text index's first fill is."""
        return self.brain.text_search().reading

    def open_hit(self, slug: str, words: list[str], query: str) -> None:
        """Open a search hit's page, scrolled to the hit once it is drawn; `query` goes
        first among the recent searches."""
        self.searches.add(query)
        self.text_jump.want(slug, words)
        if words:
            self.query_one(PagePane).expect_place(slug)
        self.open_page(slug)

    def _warm_search_at_rest(self) -> None:
        """Load the word embeddings in a thread once the person has read for
        `SEARCH_WARM_REST` seconds, so the first `ctrl+f` waits for nothing: loading them
        as it opened took it 0.2 s (issue 24's bench). Once a session, about 0.1 s of a
        thread (0.05 s of it holding the interpreter: a key pressed then waits that long)
        and 47 MB; nothing when a server's search answers or the embeddings are off."""
        app = self.app
        if isinstance(app, CollectorAtRest) and not app.resting(SEARCH_WARM_REST):
            self.set_timer(SEARCH_WARM_REST, self._warm_search_at_rest)
            return
        self.run_worker(
            self.brain.text_search().prepare_meaning,
            thread=True,
            group="embeddings",
            exit_on_error=False,
        )

    def on_text_reading(self, message: TextReading) -> None:
        """A long text index fill (`ctrl+f`'s, the mentions'): the status line says how far."""
        self.query_one(StatusBar).set_reading(message.done, message.total)

    def recent_searches(self) -> list[str]:
        """`TextSearchHost`: `ctrl+f` lists them before anything is typed."""
        return self.searches.queries


def pane_of(widget: Widget | None) -> Widget | None:
    """The pane holding `widget` (the traversal panel for its table; the path or walk
    view when one is shown in the traversal panel's place)."""
    for node in (widget, *(widget.ancestors if widget is not None else ())):
        if isinstance(
            node, PagePane | LinkTree | TraversalPanel | PageTree | PathView | WalkView | GraphPanel
        ):
            return node
    return None


def _covered(widget: Widget) -> bool:
    """Whether `widget` or a container holding it is covered by the page tree (hidden:
    Textual's own focus chain skips it, but not `focusable`)."""
    return any(not node.visible for node in widget.ancestors_with_self if isinstance(node, Widget))
