"""Where the explorer is and where each key takes it: the history and the current view.

Non-visual and synchronous: every transition returns the `View` to show next, or
None when the key does not apply now (so `check_action` asks the same methods).
`back`/`forward` move the history at once, so a burst of presses walks that many
entries even while pages are still loading; a new page joins the history only
when the page pane says the source answered (`commit`).
"""

from __future__ import annotations

from dataclasses import replace

from okf_explorer.core.graph import DEPTH_CAP, Direction
from okf_explorer.tui.history import History, View
from okf_explorer.tui.widgets.page_pane import Move

NEXT_DIRECTION: dict[Direction, Direction] = {"out": "in", "in": "both", "both": "out"}
"""`d` cycles the traversal direction in this order."""


class Navigator:
    """The history of views and the transitions between them."""

    def __init__(self) -> None:
        self.history = History()

    @property
    def current(self) -> View | None:
        return self.history.current

    def commit(self, view: View, move: Move) -> None:
        """The page of `view` has answered: a visit becomes the current entry."""
        if move == "visit":
            self.history.visit(view)

    def update(self, view: View) -> None:
        """Same page, new traversal settings: no new history entry."""
        self.history.update(view)

    def open(self, slug: str) -> View:
        """`slug` seen with the current depth, direction and relation filter."""
        current = self.current
        return View(slug) if current is None else replace(current, slug=slug)

    def back(self) -> View | None:
        return self.history.back()

    def forward(self) -> View | None:
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
        return self.current.with_direction("in") if self.current else None

    def next_relation(self, relations: list[str]) -> View | None:
        """Every relation → each relation of the graph in turn → every one; None when
        there is nothing to cycle through."""
        current = self.current
        if current is None or (current.rel is None and len(relations) <= 1):
            return None
        cycle: list[str | None] = [None, *relations]
        position = cycle.index(current.rel) if current.rel in cycle else 0
        return current.with_rel(cycle[(position + 1) % len(cycle)])
