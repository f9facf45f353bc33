"""`M` and `P`: mark the page paths start from, then show the paths to the current page.

The paths show in the traversal panel's place (`tui.widgets.graph.path_view`); `P` again or
`escape` brings the slice back. `MainScreen` owns one `PathKeys` and its two
`action_*` methods call it.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from okf_explorer.core.graph.paths import Avoid, PathQuery
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.widgets.graph.path_view import PathView
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.status_bar import StatusBar


class PathKeys:
    """Remembers the marked page and swaps the path view and the traversal panel."""

    def __init__(self, screen: Screen[None], current: Callable[[], str | None]) -> None:
        self._screen, self._current = screen, current
        self.path_from: str | None = None
        self.avoid_hubs = False
        """What the last path view asked, kept for the next `P`."""

    @property
    def shown(self) -> bool:
        return bool(self._screen.query_one(PathView).display)

    def mark_from(self) -> None:
        """`M`: the current page is where the next paths start."""
        slug = self._current()
        if slug is None:
            return
        self.path_from = slug
        self._screen.query_one(StatusBar).set_path_from(slug)  # the status line says so

    def toggle(self) -> None:
        """`P`: the paths from the marked page to this one, or the slice back."""
        if self.shown:
            self.close()
            return
        to = self._current()
        if self.path_from is None or to is None:
            self._screen.notify("press M on the page paths start from", title="paths", timeout=3)
            return
        if to == self.path_from:
            text = f"from: {printable(to)} · open another page, then P"
            self._screen.notify(text, title="paths", markup=False, timeout=3)
            return
        view = self._screen.query_one(PathView)
        self._screen.query_one(TraversalPanel).display = False
        view.display = True
        view.find(PathQuery(self.path_from, to, avoid=Avoid(hubs=self.avoid_hubs)))
        view.table.focus()

    def close(self) -> None:
        """Hide the paths; the slice comes back with the focus."""
        view = self._screen.query_one(PathView)
        if view.path_query is not None:
            self.avoid_hubs = view.path_query.avoid.hubs
        view.display = False
        panel = self._screen.query_one(TraversalPanel)
        panel.display = True
        panel.table.focus()
