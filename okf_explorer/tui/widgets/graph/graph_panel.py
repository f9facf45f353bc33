"""The local graph panel (`g`): the current slice drawn as text (`tui.widgets.graph.drawing`).

Hidden until `g`; while shown it follows the traversal panel (every new slice,
so depth and direction changes too) and draws in its own worker. One line per page:
the root in reverse video, missing (dangling) pages in red with `✗`; `enter`
on a page's line opens it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.tui.failures import ReportsWorkers
from okf_explorer.tui.state.navigator import View
from okf_explorer.tui.state.slice import slice_title
from okf_explorer.tui.widgets.graph.drawing import SliceDrawing, draw_slice, fit_line


class GraphPanel(ReportsWorkers, Vertical):
    """The drawing of the slice, one selectable line per page."""

    DEFAULT_CSS = """
    GraphPanel { border: round $primary; height: 1fr; display: none; }
    GraphPanel.shown { display: block; }
    GraphPanel:focus-within { border: round $accent; }
    GraphPanel > OptionList, GraphPanel > OptionList:focus {
        height: 1fr; border: none; padding: 0; text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    class PageChosen(Message):
        """`enter` on a page's line."""

        def __init__(self, slug: str, exists: bool = True) -> None:
            super().__init__()
            self.slug = slug
            self.exists = exists

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: View | None = None
        self.drawing: SliceDrawing | None = None
        self._edges: list[Edge] = []
        self._exists = lambda slug: True

    def compose(self) -> ComposeResult:
        yield OptionList(id="graph-lines")

    @property
    def shown(self) -> bool:
        return self.has_class("shown")

    def toggle(self) -> bool:
        """Show or hide the panel; returns whether it is shown now."""
        self.toggle_class("shown")
        if self.shown and self.view is not None:
            self._draw()
        return self.shown

    def follow(self, view: View, edges: Sequence[Edge], exists) -> None:  # type: ignore[no-untyped-def]
        """A new slice is on screen: redraw it if the panel is shown."""
        self.view, self._edges, self._exists = view, list(edges), exists
        if self.shown:
            self._draw()

    def _draw(self) -> None:
        assert self.view is not None
        self._drawn(self.view, self._edges, self._exists)

    @work(group="graph", exclusive=True, exit_on_error=False)
    async def _drawn(self, view: View, edges: list[Edge], exists) -> None:  # type: ignore[no-untyped-def]
        drawing = await asyncio.to_thread(draw_slice, view.slug, edges, exists)
        if view != self.view:
            return
        self.drawing = drawing
        self.border_title = Text("graph · " + slice_title(view))
        more = []
        if drawing.more_pages:
            more.append(f"+{drawing.more_pages} more pages")
        if drawing.more_edges:
            more.append(f"+{drawing.more_edges} more edges")
        self.border_subtitle = Text(" · ".join(more))
        self._show_lines()

    def _show_lines(self) -> None:
        """The drawing's lines, each cut to the list's width so page names keep their
        file name (`fit_line`); drawn again when the panel is resized."""
        if self.drawing is None:
            return
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        width = options.scrollable_content_region.width
        options.clear_options()
        lines = self.drawing.lines
        options.add_options([_option(i, line, width) for i, line in enumerate(lines)])
        if lines:
            options.highlighted = highlighted if highlighted is not None else 0

    def on_resize(self) -> None:
        self._show_lines()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.drawing is None or event.option_id is None:
            return
        line = self.drawing.lines[int(event.option_id)]
        if line.slug is not None:
            self.post_message(self.PageChosen(line.slug, line.exists))


def _option(i: int, line, width: int) -> Option:  # type: ignore[no-untyped-def]
    shown = fit_line(line.text, width) if width > 0 else line.text
    text = Text(shown, no_wrap=True, overflow="ellipsis")
    if line.slug is None:
        text.stylize("dim")
    elif line.root:
        text.stylize("bold reverse", len(shown) - len(shown.lstrip("╙─ ")))
    elif not line.exists:
        text.stylize("red")
    return Option(text, id=str(i), disabled=line.slug is None)
