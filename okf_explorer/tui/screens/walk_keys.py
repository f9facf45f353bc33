"""The walk mode's keys (issue 13 §2): `w` walks from the current page, and in the walk
view `[` / `]` lower / raise the minimum weight, `+` / `-` change the depth, `d` the
direction, `a` adds roots, `escape` (or `w`) leaves.

`MainScreen.action_walk(key)` hands every key here. While the mode is on, the walk
view (`tui.widgets.graph.walk_view`) takes the traversal panel's place and the focus; the
panel keeps its slice, shown again on leaving.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen
from textual.widget import Widget

from okf_explorer.tui.state.history import View
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.graph.walk_view import WalkSettings, WalkView

WEIGHT_KEYS = {"raise": 1, "lower": -1}
DEPTH_KEYS = {"deeper": 1, "shallower": -1}


class WalkKeys:
    """Turns the walk mode on and off and applies its keys to the walk view."""

    def __init__(self, screen: Screen[None], current: Callable[[], View | None]) -> None:
        self._screen, self._current = screen, current

    @property
    def view(self) -> WalkView:
        return self._screen.query_one(WalkView)

    @property
    def active(self) -> bool:
        return bool(self.view.display)

    def press(self, key: str) -> None:
        """One key of the mode: `toggle` (w), `leave`, `raise`, `lower`, `deeper`,
        `shallower`, `direction` or `add`."""
        if key == "toggle":
            self.leave() if self.active else self.start()
            return
        settings = self.view.asked
        if not self.active or settings is None:
            return
        if key == "leave":
            self.leave()
        elif key in WEIGHT_KEYS:
            self._walk(settings.with_weight_step(WEIGHT_KEYS[key]))
        elif key in DEPTH_KEYS:
            self._walk(settings.with_depth(settings.depth + DEPTH_KEYS[key]))
        elif key == "direction":
            self._walk(settings.next_direction())
        elif key == "add":
            self._ask_roots(settings)

    def start(self) -> None:
        """Walk from the current page, at its depth, every link followed."""
        current = self._current()
        if current is None:
            self._screen.notify("open a page first", title="walk", timeout=2)
            return
        direction = current.direction if current.direction in ("out", "in", "both") else "both"
        settings = WalkSettings((current.slug,), current.depth, 0.0, direction)  # type: ignore[arg-type]
        view = self.view
        self._screen.query_one(TraversalPanel).display = False
        view.display = True
        view.table.focus()
        view.walk(settings)

    def leave(self) -> None:
        """The traversal panel comes back (with its slice), and the focus with it."""
        view = self.view
        had_focus = view.has_focus_within
        view.display = False
        panel = self._screen.query_one(TraversalPanel)
        panel.display = True
        if had_focus:
            panel.table.focus()

    def focus_moved(self, widget: Widget) -> None:
        """`tab` onto the hidden traversal table lands on the walk table instead."""
        if self.active and widget.id == "traversal-table":
            self.view.table.focus()

    def _walk(self, settings: WalkSettings) -> None:
        if settings != self.view.asked:
            self.view.walk(settings)

    def _ask_roots(self, settings: WalkSettings) -> None:
        from dataclasses import replace

        from okf_explorer.tui.dialogs.walk_roots import WalkRootsDialog

        def chosen(specs: list[str] | None) -> None:
            if specs:
                self.view.walk(replace(settings, more=tuple(specs)))

        self._screen.app.push_screen(WalkRootsDialog(), chosen)
