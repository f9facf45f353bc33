"""Where the explorer is, where each key takes it, and showing a view in the panes.

Non-visual and synchronous. Every transition returns the `View` to show next, or
None when the key does not apply now (so `KeyRules` asks the same methods).
`back`/`forward` move the history at once, so a burst of presses walks that many
entries even while pages are still loading; a new page joins the history only
when the page pane says the source answered (`opened`), a page that failed to
load included, so the title, the panes and `back` all agree. Page loads run as
workers on the screen, whose one `Worker.StateChanged` handler reports failures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from textual.screen import Screen

from okf_explorer.core.graph.trail import How, Trail, TrailMove
from okf_explorer.core.graph.traverse import DEPTH_CAP, Direction
from okf_explorer.core.links.grammar import LinkKind
from okf_explorer.core.okf.filter import OkfFilter
from okf_explorer.tui.markdown.links import anchor_into
from okf_explorer.tui.state.history import History, View
from okf_explorer.tui.state.index_loader import IndexLoader
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import Move, PagePane

NEXT_DIRECTION: dict[Direction, Direction] = {
    "out": "in",
    "in": "both",
    "both": "neighbourhood",
    "neighbourhood": "out",
}
"""`d` cycles the traversal direction in this order."""


class Navigator:
    """The history of views, the transitions between them, and showing one."""

    def __init__(
        self, screen: Screen[None], loader: IndexLoader, changed: Callable[[], None]
    ) -> None:
        self.history = History()
        self._screen, self._loader, self._changed = screen, loader, changed
        self._before_backlinks: View | None = None
        """The settings `b` left, restored by `b` again."""
        self.trail = Trail()
        """Every page opened, with how (`T`; `core.graph.trail`)."""
        self._how: How = "visit"

    @property
    def current(self) -> View | None:
        return self.history.current

    def open(self, slug: str) -> View:
        """`slug` seen with the current depth, direction and relation filter."""
        current = self.current
        return View(slug) if current is None else replace(current, slug=slug)

    def back(self) -> View | None:
        self._how = "back"
        return self.history.back()

    def forward(self) -> View | None:
        self._how = "forward"
        return self.history.forward()

    def deeper(self) -> View | None:
        current = self.current
        if current is None or current.depth >= DEPTH_CAP:
            return None
        return current.with_depth(current.depth + 1)

    def shallower(self) -> View | None:
        current = self.current
        return current.with_depth(current.depth - 1) if current and current.depth > 1 else None

    def next_direction(self) -> View | None:
        current = self.current
        return current.with_direction(NEXT_DIRECTION[current.direction]) if current else None

    def backlinks(self) -> View | None:
        """`b`: the page's direct backlinks with their sentences; `b` again restores
        the depth and direction it left (on the page shown now)."""
        current = self.current
        if current is None:
            return None
        if current.backlinks:
            previous = self._before_backlinks or View(current.slug)
            return replace(previous, slug=current.slug, backlinks=False)
        self._before_backlinks = current
        return View(current.slug, 1, "in", current.rel, backlinks=True)

    def next_relation(self, relations: list[str]) -> View | None:
        """Every relation → each relation of the graph in turn → every one; None when
        there is nothing to cycle through."""
        current = self.current
        if current is None or (current.rel is None and len(relations) <= 1):
            return None
        cycle: list[str | None] = [None, *relations]
        position = cycle.index(current.rel) if current.rel in cycle else 0
        return current.with_rel(cycle[(position + 1) % len(cycle)])

    # ------------------------------------------------------------------ showing

    def go(self, view: View | None, move: Move, how: How | None = None) -> None:
        """Load `view`'s page; the history takes `move` once the source has answered;
        the trail records `how` (default: a visit, or the back/forward just asked)."""
        if how is not None or move == "visit":
            self._how = how or "visit"
        if view is not None:
            opening = partial(self._screen.query_one(PagePane).open, view, move)
            self._screen.run_worker(opening, group="page", exclusive=True, exit_on_error=False)

    def opened(self, view: View, move: Move) -> None:
        """The source answered for `view`: a visit joins the history; the graph follows."""
        if move == "visit":
            self.history.visit(view)
        if move != "reload":
            moves = self.trail.moves
            frm = moves[-1].to if moves else None
            self.trail.record(TrailMove(frm, view.slug, self._how if frm else "start"))
        self._how = "visit"
        self.show_graph(view)

    def listed(self, count: int) -> None:
        """An empty brain says so where the page would be."""
        if not count and self.current is None:
            self._screen.query_one(PagePane).show_failure("(empty)", "this brain has no pages")

    def index_started(self) -> None:
        """A build started with no index yet: panes that said `no index` now wait."""
        if not self._loader.ready and (current := self.current) is not None:
            self.show_graph(current)

    def index_built(self, first: bool) -> None:
        """A first index shows the graph; a refreshed one reloads the page too."""
        if (current := self.current) is not None:
            self.show_graph(current) if first else self.go(current, "reload")

    def start_resolved(self, slug: str) -> None:
        """The start name resolved to `slug`: go there if the user has not moved yet."""
        current = self.current
        if current is None or (not self.history.behind and current.slug != slug):
            self.go(self.open(slug), "visit")

    def change(self, view: View | None) -> None:
        """Same page, new traversal settings: no reload, no new history entry."""
        if view is not None:
            self.history.update(view)
            self.show_graph(view, links=False)
            self._changed()

    def show_graph(self, view: View, links: bool = True) -> None:
        """Walk `view` in the traversal panel (and list its links), or say why not yet."""
        panel, tree = self._screen.query_one(TraversalPanel), self._screen.query_one(LinkTree)
        if not self._loader.ready:
            why = "waiting for the index…" if self._loader.coming else "no index · r builds it"
            panel.show_pending(view, why)
            if links:
                tree.show_pending(view.slug, why)
        else:
            panel.walk(view)
            if links:
                tree.load(view.slug)

    @property
    def okf_filter(self) -> OkfFilter:
        return self._screen.query_one(TraversalPanel).okf_filter

    def filter_graph(self, keep: OkfFilter) -> None:
        """`F`: keep the link tree and the slice to pages that pass `keep` (`core.okf.filter`);
        the traversal panel's summary line names the filter while one is on."""
        self._screen.query_one(TraversalPanel).okf_filter = keep
        self._screen.query_one(LinkTree).okf_filter = keep
        if (current := self.current) is not None:
            self.show_graph(current)

    def choose(self, slug: str, exists: bool | None = None) -> None:
        """Open a chosen page, or say it does not exist (`exists` None: ask the slice)."""
        if exists is None:
            exists = self._screen.query_one(TraversalPanel).exists(slug)
        if exists:
            self.go(self.open(slug), "visit")
        else:
            self._warn(f"no such page: {slug}")

    def selected(self) -> str | None:
        """The page under the cursor of the focused link tree or traversal table."""
        focused = self._screen.focused
        if isinstance(focused, LinkTree):
            return focused.selected_slug
        if focused is not None and focused.id == "traversal-table":
            return self._screen.query_one(TraversalPanel).selected_slug
        return None

    def resolve(self, target: str, kind: LinkKind = "wiki") -> tuple[str, bool] | None:
        """(slug or dangling node, exists) a body link of the current page leads to."""
        current = self.current
        return self._loader.resolve_link(current.slug if current else None, target, kind)

    def choose_linked(self, slug: str, exists: bool) -> None:
        """A page chosen in the link tree: opened where the current page's body links
        into it (`[[Page#Heading]]`), else at the top."""
        pane = self._screen.query_one(PagePane)
        if anchor := anchor_into(pane.links, self.resolve, slug):
            pane.expect_anchor(slug, anchor)
        self.choose(slug, exists)

    def follow(
        self, target: str | None, url: str | None, kind: LinkKind, anchor: str | None = None
    ) -> None:
        """Follow a body link: an external URL opens outside, a page opens here (scrolled
        to `anchor`, a heading or `^block`, when the link names one)."""
        if target is None:
            # Not a page: handed to the system's browser, which may not be there (ssh).
            self._screen.notify(
                f"{url} is not a page here: asked your browser to open it", markup=False, timeout=4
            )
            self._screen.app.open_url(url or "")
        elif (found := self.resolve(target, kind)) is not None:
            if anchor:
                self._screen.query_one(PagePane).expect_anchor(found[0], anchor)
            self.choose(*found)
        elif not self._loader.ready:
            self._warn(f"still indexing: cannot resolve {target} yet")
        else:
            self._warn(f"no such page: {target}")

    def _warn(self, text: str) -> None:
        self._screen.notify(text, severity="warning", markup=False)
