"""Where the explorer's panes go: the page tree beside them (`f`), one pane zoomed (`z`).

Narrower than 100 columns the panes stack and the page gets the whole width
(`main.tcss`, through the screen's breakpoint classes); the tree then closes once
a page is chosen in it, to give the page its room back.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen
from textual.widget import Widget

from okf_explorer.tui.widgets.graph.graph_panel import GraphPanel
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.path_view import PathView
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.graph.walk_view import WalkView
from okf_explorer.tui.widgets.page.pane import PagePane
from okf_explorer.tui.widgets.page_tree import PageTree

TREE_OPEN = "tree-open"
"""The screen's class while the page tree shows."""


class PaneLayout:
    """Shows and hides the page tree, and zooms the pane that has the focus."""

    def __init__(
        self,
        screen: Screen[None],
        pages: Callable[[], list[tuple[str, str]]],
        current: Callable[[], str | None],
    ) -> None:
        self._screen, self._pages, self._current = screen, pages, current

    @property
    def tree_open(self) -> bool:
        return self._screen.has_class(TREE_OPEN)

    def toggle_tree(self) -> None:
        """Show the page tree (on the current page) and focus it, or hide it."""
        screen = self._screen
        tree = screen.query_one(PageTree)
        if self.tree_open:
            screen.remove_class(TREE_OPEN)
            if tree.has_focus:
                screen.query_one(PagePane).focus()
        else:
            screen.add_class(TREE_OPEN)
            tree.show(self._pages(), self._current())
            tree.focus()

    def page_chosen_in_tree(self) -> None:
        """A narrow screen gives the page its room back."""
        if self.tree_open and self._screen.has_class("-narrow"):
            self.toggle_tree()

    def pages_changed(self) -> None:
        """A new index: an open tree lists its pages (titles are known now)."""
        if self.tree_open:
            self._screen.query_one(PageTree).show(self._pages(), None)

    def toggle_graph(self) -> None:
        """Show or hide the local graph of the slice (`tui.widgets.graph.graph_panel`)."""
        panel = self._screen.query_one(GraphPanel)
        shown = panel.toggle()
        self._screen.set_class(shown, "-graph-shown")  # narrow: the graph takes the links' place
        if shown:
            panel.query_one("#graph-lines").focus()

    def zoom(self) -> None:
        """The focused pane fills the screen, or the panes come back (also `escape`)."""
        screen = self._screen
        if screen.maximized is not None:
            screen.minimize()
        elif (pane := pane_of(screen.focused)) is not None:
            screen.maximized = pane

    def focus_moved(self, widget: Widget) -> None:
        """`tab` while a pane is zoomed zooms the pane it moves to."""
        if self._screen.maximized is not None and (pane := pane_of(widget)) is not None:
            self._screen.maximized = pane


def pane_of(widget: Widget | None) -> Widget | None:
    """The pane holding `widget` (the traversal panel for its table; the path or walk
    view when one is shown in the traversal panel's place)."""
    for node in (widget, *(widget.ancestors if widget is not None else ())):
        if isinstance(node, PagePane | LinkTree | TraversalPanel | PageTree | PathView | WalkView):
            return node
    return None
