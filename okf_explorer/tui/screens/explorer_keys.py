"""The keys of the explorer (SPEC §8): bindings, what each does, and when it applies.

A mixin of `MainScreen`, kept apart so the screen module stays about loading and
showing; the actions only change the view or ask the screen to navigate.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.binding import Binding, BindingType

from okf_explorer.core.brain import Brain
from okf_explorer.core.graph import DEPTH_CAP, Direction, Edge
from okf_explorer.core.link_grammar import LinkKind
from okf_explorer.tui.history import History, View
from okf_explorer.tui.widgets.link_tree import LinkTree
from okf_explorer.tui.widgets.page_pane import PagePane
from okf_explorer.tui.widgets.traversal_panel import TraversalPanel

NEXT_DIRECTION: dict[Direction, Direction] = {"out": "in", "in": "both", "both": "out"}
PANES = ("#page-pane", "#link-tree", "#traversal-table")

EXPLORER_BINDINGS: list[BindingType] = [
    Binding("enter", "open_selected", "Open", id="open"),
    Binding("backspace", "back", "Back", id="back"),
    Binding("alt+left", "back", "Back", show=False, id="back-alt"),
    Binding("alt+right", "forward", "Forward", id="forward"),
    Binding("plus", "deeper", "Depth+", key_display="+", id="deeper"),
    Binding("minus", "shallower", "Depth-", key_display="-", id="shallower"),
    Binding("d", "cycle_direction", "Direction", id="direction"),
    Binding("b", "backlinks", "Backlinks", id="backlinks"),
    Binding("t", "cycle_relation", "Relation", show=False, id="relation"),
    Binding("e", "export", "Export", id="export"),
    Binding("l", "page_links", "Links", id="page-links"),
    Binding("m", "more_of_page", "More of page", id="more-of-page"),
    Binding("slash", "find", "Find", key_display="/", id="find"),
    Binding("ctrl+p", "find", "Find", show=False, id="find-alt"),
    Binding("s", "stats", "Stats", id="stats"),
    Binding("r", "reload", "Reload", id="reload"),
    Binding("ctrl+x", "cancel_index", "Cancel indexing", id="cancel-index"),
    Binding("tab", "next_pane", "Next pane", show=False, id="next-pane"),
    Binding("shift+tab", "previous_pane", "Previous pane", show=False, id="previous-pane"),
    Binding("question_mark", "help", "Help", key_display="?", id="help"),
    Binding("q", "app.quit", "Quit", id="quit"),
]


class ExplorerKeys:
    """Actions behind `EXPLORER_BINDINGS`, and `check_action` to grey out what does not apply."""

    brain: Brain
    history: History
    export_dir: Path
    pages: list[tuple[str, str]]
    index_ready: bool
    indexing: bool
    last_export: Path | None
    export_wanted: View | None = None
    more_wanted: int = 0
    """`m` presses not yet drawn (each draws the next part of a long page)."""
    _footer_state: tuple[bool | None, ...] = ()

    if TYPE_CHECKING:
        from textual.app import App
        from textual.widget import Widget

        app: App[None]
        focused: Widget | None

        def query_one(self, selector: object, expect_type: object = None) -> Any: ...
        def navigate(self, view: View, move: str) -> None: ...
        def change_view(self, view: View) -> None: ...
        def _choose(self, slug: str, exists: bool) -> None: ...
        def _exists(self, slug: str) -> bool: ...
        def begin_index(self, refresh: bool = False) -> None: ...
        def open_page(self, slug: str) -> None: ...
        def cancel_index(self) -> None: ...
        def notify(self, message: str, **kwargs: Any) -> None: ...
        def refresh_bindings(self) -> None: ...

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out what does not apply now (SPEC §8 keys only)."""
        current = self.history.current
        if action == "back":
            return self.history.can_go_back
        if action == "forward":
            return self.history.can_go_forward
        if action == "cycle_relation":
            return current is not None and (current.rel is not None or len(self.relations()) > 1)
        if action in ("deeper", "shallower", "cycle_direction", "backlinks"):
            if current is None:
                return False
            if action == "deeper":
                return current.depth < DEPTH_CAP
            if action == "shallower":
                return current.depth > 1
            return True
        if action == "export":
            # Stays lit while a new slice is walked (a press then waits for it), so the
            # footer does not blink on every depth or direction key.
            return current is not None and self.index_ready
        if action == "page_links":
            return bool(self.query_one(PagePane).links)
        if action == "more_of_page":
            return self.query_one(PagePane).truncated  # shown only on a truncated page
        if action == "stats":
            return self.index_ready  # computed from the index, never forcing a build
        if action == "cancel_index":
            return self.indexing  # shown only while a build runs
        if action == "open_selected":
            return self._selected_slug() is not None
        return True

    def sync_bindings(self) -> None:
        """Refresh the footer only when what applies has changed.

        Textual's footer re-mounts every key on each refresh (~50 ms on a loaded
        machine): refreshing after every page load or slice made the loop stall and
        the footer flicker. The keys themselves never move (greyed, not hidden).
        """
        state = tuple(
            self.check_action(binding.action, ())
            for binding in EXPLORER_BINDINGS
            if isinstance(binding, Binding)
        )
        if state != self._footer_state:
            self._footer_state = state
            self.refresh_bindings()

    def _selected_slug(self) -> str | None:
        focused = self.focused
        if isinstance(focused, LinkTree):
            return focused.selected_slug
        if focused is not None and focused.id == "traversal-table":
            return self.query_one(TraversalPanel).selected_slug
        return None

    def action_open_selected(self) -> None:
        slug = self._selected_slug()
        if slug is not None:
            self._choose(slug, self._exists(slug))

    def action_back(self) -> None:
        # The history moves at the key press, so a burst of presses walks back that
        # many entries even while the pages are still loading.
        if (view := self.history.back()) is not None:
            self.navigate(view, "moved")

    def action_forward(self) -> None:
        if (view := self.history.forward()) is not None:
            self.navigate(view, "moved")

    def action_deeper(self) -> None:
        if (current := self.history.current) is not None:
            self.change_view(current.with_depth(current.depth + 1))

    def action_shallower(self) -> None:
        if (current := self.history.current) is not None:
            self.change_view(current.with_depth(current.depth - 1))

    def action_cycle_direction(self) -> None:
        if (current := self.history.current) is not None:
            self.change_view(current.with_direction(NEXT_DIRECTION[current.direction]))

    def relations(self) -> list[str]:
        """The relations of the index's graph (none before it is ready)."""
        return self.brain.relations() if self.index_ready else []

    def action_cycle_relation(self) -> None:
        """Relation filter: every relation → each relation of the graph in turn → every one."""
        if (current := self.history.current) is None:
            return
        cycle: list[str | None] = [None, *self.relations()]
        position = cycle.index(current.rel) if current.rel in cycle else 0
        rel = cycle[(position + 1) % len(cycle)]
        self.change_view(current.with_rel(rel))
        self.notify(f"relation: {rel or 'all'}", title="traversal", markup=False, timeout=2)

    def action_backlinks(self) -> None:
        if (current := self.history.current) is not None:
            self.change_view(current.with_direction("in"))

    def action_export(self) -> None:
        panel = self.query_one(TraversalPanel)
        current = self.history.current
        if panel.loaded and panel.view is not None and panel.view == current:
            self._export(panel.view, list(panel.edges))
        elif panel.failed and panel.view == current:
            self.notify("this slice could not be walked; r retries", title="export")
        elif current is not None:
            self.export_wanted = current  # saved as soon as this slice is on screen

    def export_when_shown(self, view: View, edges: list[Edge]) -> None:
        """A slice reached the panel: save it if `e` was pressed while it was walked."""
        if self.export_wanted == view:
            self.export_wanted = None
            self._export(view, edges)

    @work(group="export", exclusive=True, exit_on_error=False)
    async def _export(self, view: View, edges: list[Edge]) -> None:
        from okf_explorer.tui.slice_export import export_slice  # not needed for the first paint

        bundle_root = self.brain.local_root
        path = await asyncio.to_thread(export_slice, edges, view, self.export_dir, bundle_root)
        self.last_export = path
        self.notify(f"saved {path}", title="export", markup=False)

    def action_find(self) -> None:
        self.app.action_command_palette()

    def action_reload(self) -> None:
        """Refresh the index; a page that failed to load is loaded again too."""
        current = self.history.current
        if current is not None and self.query_one(PagePane).error is not None:
            self.navigate(current, "reload")
        self.begin_index(refresh=self.index_ready)

    def action_page_links(self) -> None:
        """List the body's links (in order of appearance) in a dialog; `enter` follows one."""
        from okf_explorer.tui.body_links import kind_of_href, target_of_href
        from okf_explorer.tui.screens.links_dialog import BodyLink, LinksDialog

        pane = self.query_one(PagePane)
        if not pane.links or pane.slug is None:
            return
        links = []
        for label, href in dict.fromkeys(pane.links):  # each link once, where it first appears
            target = target_of_href(href)
            kind = kind_of_href(href)
            found = self.resolve_target(target, kind) if target is not None else None
            slug, exists = found if found is not None else (None, target is None)
            links.append(BodyLink(label, href, target, slug, exists))

        def follow(chosen: BodyLink | None) -> None:
            if chosen is not None:
                kind = kind_of_href(chosen.href)
                pane.post_message(PagePane.LinkFollowed(chosen.target, chosen.href, kind))

        self.app.push_screen(LinksDialog(pane.slug, links), follow)

    def action_stats(self) -> None:
        """Counts, hubs, orphans, dead ends and dangling targets; `enter` opens a page."""
        from okf_explorer.tui.screens.stats_dialog import StatsDialog

        def open_chosen(slug: str | None) -> None:
            if slug is not None:
                self.open_page(slug)

        self.app.push_screen(StatsDialog(self.brain), open_chosen)

    def action_more_of_page(self) -> None:
        # Presses made while a part is being drawn are counted, not dropped.
        self.more_wanted += 1
        if self.more_wanted == 1:
            self._grow_page()

    @work(group="grow", exit_on_error=False)
    async def _grow_page(self) -> None:
        pane = self.query_one(PagePane)
        try:
            while self.more_wanted > 0 and await pane.show_more():
                self.more_wanted -= 1
        finally:
            self.more_wanted = 0
            self.sync_bindings()

    def action_cancel_index(self) -> None:
        self.cancel_index()

    def action_next_pane(self) -> None:
        self._cycle_pane(1)

    def action_previous_pane(self) -> None:
        self._cycle_pane(-1)

    def _cycle_pane(self, step: int) -> None:
        focused = self.focused
        ids = [pane.lstrip("#") for pane in PANES]
        position = ids.index(focused.id) if focused is not None and focused.id in ids else -step
        self.query_one(PANES[(position + step) % len(PANES)]).focus()

    def action_help(self) -> None:
        from okf_explorer.tui.screens.help import HelpDialog  # not needed for the first paint

        self.app.push_screen(HelpDialog(self.BINDINGS))

    def resolve_target(self, target: str, kind: LinkKind = "wiki") -> tuple[str, bool] | None:
        """(slug or dangling node, exists) a body link of the current page leads to.

        Once the index is built, the core resolver answers (`Brain.resolve_link`:
        the SPEC §3 rules, the page's reference definitions included). Before
        that only a target that is itself a listed slug is known.
        """
        current = self.history.current
        slug = current.slug if current is not None else None
        if slug is not None and self.brain.index is not None:
            resolution = self.brain.resolve_link(slug, target, kind)
            return resolution.node, resolution.exists
        known = {page for page, _ in self.pages}
        for candidate in (target, target.removesuffix(".md").lstrip("/")):
            if candidate in known:
                return candidate, True
        return None

    def catalogue(self) -> list[tuple[str, str]]:
        return self.pages

    def exact_hit(self, name: str) -> str | None:
        """What `name` resolves to once the index is built (never builds it)."""
        if self.brain.index is None or not name.strip():
            return None
        return self.brain.resolve_slug(name)
