"""Scrolling the page pane to a heading or `^block` (`[[Page#Heading]]`, the `o` outline).

`AnchorScroller` finds the anchor in whichever widget shows the body (the engine's
`VaultBody`, or Textual's `Markdown` widget under `OKF_EXPLORER_PLAIN=1`) and scrolls
there again over the next frames, while widgets mounted just before reach their height.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.containers import VerticalScroll
from textual.timer import Timer
from textual.widget import Widget

from okf_explorer.tui.markdown import (
    Heading,
    VaultBody,
    VaultMarkdown,
    heading_key,
    is_block_anchor,
)

SCROLL_SETTLE = 0.5
"""Seconds over which a scroll to a heading or block is made again (`_settle_scroll`)."""


class AnchorScroller:
    """Scrolls `pane` (holding a `#page-body` and a `#page-markdown`) to anchors and headings."""

    def __init__(self, pane: VerticalScroll) -> None:
        self.pane = pane
        self.pending: tuple[str, str] | None = None
        """(slug, anchor) to scroll to once that page is shown (a followed link)."""
        self._settling: Timer | None = None

    def take_pending(self, slug: str) -> str | None:
        """The anchor expected on `slug`, if any; forgotten either way."""
        pending, self.pending = self.pending, None
        return pending[1] if pending is not None and pending[0] == slug else None

    @property
    def _drawn(self) -> bool:
        return not self.pane.has_class("plain")

    def to_anchor(self, anchor: str, headings: list[Heading]) -> bool:
        """Scroll the body to the heading (by its text, as Obsidian matches it) or the
        `^block` `anchor` names; False (nothing moves) when the page has none."""
        body = self.pane.query_one("#page-body", VaultBody)
        if is_block_anchor(anchor):
            if self._drawn:
                return self._scroll_drawn(partial(body.block_y, anchor[1:]))
            block = self.pane.query_one("#page-markdown", VaultMarkdown).block_for(anchor)
            return self._scroll_widget(block)
        key = heading_key(anchor)
        for index, (_, text) in enumerate(headings):
            if heading_key(text) == key:
                return self.to_heading(index)
        return False

    def to_heading(self, index: int) -> bool:
        """Scroll to the `index`-th heading of the body (the `o` outline's order)."""
        if self._drawn:
            body = self.pane.query_one("#page-body", VaultBody)
            return self._scroll_drawn(partial(body.heading_y, index))
        headers = list(self.pane.query_one("#page-markdown", VaultMarkdown).headers())
        return self._scroll_widget(headers[index] if 0 <= index < len(headers) else None)

    def _scroll_widget(self, widget: Widget | None) -> bool:
        """Scroll `widget` to the top (again over the next frames: see `_settle_scroll`)."""
        if widget is None:
            return False
        self._settle_scroll(lambda: self.pane.scroll_to_widget(widget, animate=False, top=True))
        return True

    def _scroll_drawn(self, locate: Callable[[], int | None]) -> bool:
        """Scroll to the row `locate` finds in the drawn body."""

        def scroll() -> None:
            y = locate()
            if y is not None:
                body_y = self.pane.query_one("#page-body", VaultBody).virtual_region.y
                self.pane.scroll_to(y=body_y + y, animate=False)

        if locate() is None:
            return False
        self._settle_scroll(scroll)
        return True

    def _settle_scroll(self, scroll: Callable[[], object]) -> None:
        """Run `scroll` now, after the next refresh, and every 50 ms for `SCROLL_SETTLE`
        seconds: blocks mounted just before (tables, embeds) take a few frames to reach
        their height, and a scroll made earlier stops short of its target."""
        if self._settling is not None:
            self._settling.stop()
        scroll()
        self.pane.call_after_refresh(scroll)
        self._settling = self.pane.set_interval(0.05, scroll, repeat=int(SCROLL_SETTLE / 0.05))
