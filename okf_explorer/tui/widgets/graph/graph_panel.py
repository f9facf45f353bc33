"""The local graph panel (`g`): the current slice drawn as a graph, the root in the
middle, pages that link in to its left and pages it links to on its right.

Hidden until `g`; while shown it follows the traversal panel (every new slice, so
depth and direction changes too) and lays the drawing out in its own worker, again
when the panel is resized. The layout is `graph_layout` (columns by hop, links between
neighbouring columns in box-drawing lines, at most `NODE_CAP` pages, `+N more` per
column). The canvas is a `ScrollView` drawn line by line: a drawing wider or taller
than the panel scrolls, and the cursor's page is kept in view.

Keys on the canvas: the arrows move between pages (`up`/`down` in a column,
`left`/`right` to the nearest page linked with this one in the next column, else the
nearest by row), `enter` opens the page. The selected page's own lines are
highlighted, and the border's subtitle names it, its community and its links that are
not drawn. Pages are coloured by community (`tui.state.communities`), worked out once
per index in the panel's own worker: ahead of the first `g` for an index of up to
`COLOUR_AHEAD_PAGES` pages (`colour_ahead`), else at the first drawing, which may then
come uncoloured, then again.

Chosen against a Sugiyama layout library (grandalf 0.8) on the same slices: see
docs/performance.md ("The local graph").
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Sequence
from typing import ClassVar, TypeVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.failures import ReportsWorkers
from okf_explorer.tui.state.communities import CommunityColours
from okf_explorer.tui.state.navigator import View
from okf_explorer.tui.state.slice import empty_slice_hint, slice_title
from okf_explorer.tui.widgets.graph.graph_layout import (
    NODE_CAP,
    GraphLayout,
    Node,
    Titles,
    lay_out,
)

_T = TypeVar("_T")

__all__ = ["NODE_CAP", "GraphCanvas", "GraphPanel"]

CURSOR = Style(reverse=True, bold=True)
ROOT = Style(bold=True, underline=True)
MISSING = Style(color="red")
LIT = Style(color="yellow", bold=True)
"""The selected page's own lines."""
MORE = Style(dim=True, italic=True)
BORDER = Size(2, 2)
"""The cells the panel's border takes around the canvas."""
DRAW_AT_ONCE = 2_000
"""Links in a slice up to which it is laid out at once (a few ms: 5,120 links take
3 ms, docs/performance.md); a bigger slice is laid out in a worker."""
GRAPH_LEGEND = "← links in · links out → · ► points at the linked page"
COLOUR_AHEAD_PAGES = 10_000
"""An index of up to this many pages is coloured `COLOUR_AHEAD_AFTER` seconds after it is
built, before any `g` (0.14 s of work at 6.5k pages): the first `g` on obsidian-hub then
draws once, coloured (85 ms instead of 254 ms, docs/performance.md). A bigger index waits
for the first `g`: seconds of work that a reader who never opens the graph would pay."""
COLOUR_AHEAD_AFTER = 0.5
"""Seconds after an index is built before its colours are worked out ahead: the first
page and the slice are drawn first."""


class GraphCanvas(ScrollView, can_focus=True):
    """The drawing, one page under the cursor; posts `PageChosen` on `enter`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(0, -1)", "Up", show=False, id="graph-up"),
        Binding("down", "move(0, 1)", "Down", show=False, id="graph-down"),
        Binding("left", "move(-1, 0)", "Left", show=False, id="graph-left"),
        Binding("right", "move(1, 0)", "Right", show=False, id="graph-right"),
        Binding("enter", "open", "Open", show=False, id="graph-open"),
    ]

    DEFAULT_CSS = """
    GraphCanvas { height: 1fr; scrollbar-size: 1 1; scrollbar-gutter: stable; }
    """

    class PageChosen(Message):
        """`enter` on a page."""

        def __init__(self, slug: str, exists: bool = True) -> None:
            super().__init__()
            self.slug = slug
            self.exists = exists

    class CursorMoved(Message):
        """The cursor is on another page."""

    class Resized(Message):
        """The canvas has a new size: the drawing may need another layout."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawing: GraphLayout | None = None
        self.cursor: Node | None = None

    def show(self, layout: GraphLayout) -> None:
        """Draw `layout`, the cursor on the page it was on (else the root)."""
        self.drawing = layout
        slug = self.cursor.slug if self.cursor is not None else None
        found = layout.node(slug) if slug is not None else None
        self.cursor = found or next((node for node in layout.nodes if node.root), None)
        self.virtual_size = Size(layout.width, layout.height)
        self.refresh()
        self.call_after_refresh(self._reveal)
        self.post_message(self.CursorMoved())

    def on_resize(self) -> None:
        self.post_message(self.Resized())

    def _reveal(self) -> None:
        if self.cursor is not None:
            node = self.cursor
            region = Region(node.x, node.row, len(node.label) + 2, 1)
            self.scroll_to_region(region, animate=False, immediate=True)

    def action_move(self, dx: int, dy: int) -> None:
        """The next page up or down its column, or the nearest in the next column."""
        if self.drawing is None or self.cursor is None:
            return
        here = self.cursor
        if dy:
            column = [n for n in self.drawing.nodes if n.column == here.column]
            at = column.index(here) + dy
            target = column[at] if 0 <= at < len(column) else None
        else:
            column = [n for n in self.drawing.nodes if n.column == here.column + dx]
            linked = [
                n
                for n in column
                if (here.slug, n.slug) in self.drawing.links
                or (n.slug, here.slug) in self.drawing.links
            ]
            target = min(linked or column, key=lambda n: abs(n.row - here.row), default=None)
        if target is not None:
            self.cursor = target
            self.refresh()
            self._reveal()
            self.post_message(self.CursorMoved())

    def action_open(self) -> None:
        if self.cursor is not None:
            self.post_message(self.PageChosen(self.cursor.slug, self.cursor.exists))

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        layout = self.drawing
        width = self.scrollable_content_region.width
        line = y + scroll_y
        if layout is None or not 0 <= line < layout.height:
            return Strip.blank(width, self.rich_style)
        strip = Strip(self._segments(layout, line), layout.width)
        return strip.crop(scroll_x, scroll_x + width).extend_cell_length(width, self.rich_style)

    def _segments(self, layout: GraphLayout, line: int) -> list[Segment]:
        """Row `line` of the canvas as styled runs: labels by kind, the cursor's lines lit."""
        base = self.rich_style
        styles: dict[int, Style] = {}
        cursor = self.cursor
        if cursor is not None:
            for x, y in layout.link_cells.get(cursor.slug, ()):
                if y == line:
                    styles[x] = LIT
        for node in layout.nodes:
            if node.row != line:
                continue
            style = Style(color=node.colour) if node.colour else Style()
            if node.root:
                style += ROOT
            if not node.exists:
                style += MISSING
            if cursor is not None and node.slug == cursor.slug:
                style += CURSOR
            for x in range(node.x + 1, node.x + 1 + Text(node.label).cell_len):
                styles[x] = style
        for x, row, text in layout.more_at.values():
            if row == line:
                styles.update(dict.fromkeys(range(x, x + len(text)), MORE))
        segments: list[Segment] = []
        text, current = "", None
        for x, slot in enumerate(layout.rows[line]):
            style = styles.get(x)
            if style is not current and text:
                segments.append(Segment(text, base + current if current else base))
                text = ""
            current = style
            text += slot
        if text:
            segments.append(Segment(text, base + current if current else base))
        return segments


class GraphPanel(ReportsWorkers, Vertical):
    """The local graph of the slice on screen (`g`)."""

    DEFAULT_CSS = """
    GraphPanel { border: round $primary; height: 1fr; display: none; }
    GraphPanel.shown { display: block; }
    GraphPanel:focus-within { border: round $accent; }
    """

    PageChosen = GraphCanvas.PageChosen

    def __init__(
        self,
        *,
        id: str | None = None,
        communities: Callable[[], CommunityColours | None] | None = None,
    ) -> None:
        super().__init__(id=id)
        self.view: View | None = None
        self.drawing: GraphLayout | None = None
        """What is drawn (None before the first drawing)."""
        self.communities = communities
        """Works out the pages' community colours (blocking; None until it can);
        None: no colours."""
        self.colours: CommunityColours | None = None
        """The colours once worked out (None before, or without `communities`)."""
        self._edges: list[Edge] = []
        self._filtered = False
        self._exists: Callable[[str], bool] = lambda slug: True
        self._titles: Titles = lambda slug: None
        self._drawn_for: tuple[int, int] = (0, 0)
        self._colouring = False
        """The colours are being worked out (by `_colour`)."""

    def compose(self) -> ComposeResult:
        yield GraphCanvas(id="graph-canvas")

    @property
    def canvas(self) -> GraphCanvas:
        return self.query_one(GraphCanvas)

    @property
    def shown(self) -> bool:
        return self.has_class("shown")

    def toggle(self, slot: Size | None = None) -> bool:
        """Show or hide the panel; returns whether it is shown now. `slot`: the size the
        panel will take (the traversal panel's, whose place it takes), so the drawing
        is in the frame that shows the panel; else it is drawn once the panel has its
        size (one frame later)."""
        self.toggle_class("shown")
        if self.shown and self.view is not None:
            if slot is not None:
                self._draw(self._room(Size(slot.width - BORDER.width, slot.height - BORDER.height)))
            else:
                self.call_after_refresh(self._draw)
        return self.shown

    def follow(
        self,
        view: View,
        edges: Sequence[Edge],
        exists: Callable[[str], bool],
        titles: Titles | None = None,
        filtered: bool = False,
    ) -> None:
        """A new slice is on screen: draw it if the panel is shown (`filtered`: an OKF
        filter chose its edges)."""
        self.view, self._edges, self._exists = view, list(edges), exists
        self._filtered = filtered
        self._titles = titles or (lambda slug: None)
        if self.shown:
            self._draw()

    def forget_colours(self) -> None:
        """The index was rebuilt: the communities are worked out again at the next drawing
        (not from a run still at work on the old index)."""
        self.workers.cancel_group(self, "graph-colours")
        self.colours, self._colouring = None, False

    def _draw(self, size: Size | None = None) -> None:
        """Lay the slice out for the canvas's size (or `size`, the one it will have):
        at once for a slice of up to `DRAW_AT_ONCE` links, else in a worker."""
        if self.view is None:
            return
        if size is None:
            size = self._room()
        self._drawn_for = (size.width, size.height)
        width, height = max(20, size.width), max(3, size.height)
        layout = None
        if len(self._edges) <= DRAW_AT_ONCE:
            self.workers.cancel_group(self, "graph")  # an older drawing must not land after
            with contextlib.suppress(Exception):  # a fault: the worker's run reports it
                layout = self._lay_out(self.view, self._edges, width, height)
        if layout is not None:
            self._show(self.view, layout)
        else:
            self._drawn(self.view, self._edges, width, height)
        if self.colours is None and self.communities is not None and not self._colouring:
            self._colour()

    def colour_ahead(self, pages: int) -> None:
        """An index of `pages` pages is built: work its colours out soon, unasked, when it
        is small enough (`COLOUR_AHEAD_PAGES`)."""
        if self.communities is not None and pages <= COLOUR_AHEAD_PAGES:
            self.set_timer(COLOUR_AHEAD_AFTER, self._colour_if_missing)

    def _colour_if_missing(self) -> None:
        if self.colours is None and not self._colouring:
            self._colour()

    @work(group="graph-colours", exclusive=True, exit_on_error=False)
    async def _colour(self) -> None:
        assert self.communities is not None
        self._colouring = True
        try:
            colours = await in_daemon_thread(self.communities)
        finally:
            self._colouring = False
        if colours is None:
            return  # no index yet: asked again at the next drawing
        self.colours = colours
        if colours.colours and self.view is not None and self.shown:
            self._draw()

    def _lay_out(self, view: View, edges: list[Edge], width: int, height: int) -> GraphLayout:
        return lay_out(
            view.slug,
            edges,
            self._exists,
            width=width,
            height=height,
            title=self._titles,
            colour_of=self.colours.colour_of if self.colours else None,
        )

    @work(group="graph", exclusive=True, exit_on_error=False)
    async def _drawn(self, view: View, edges: list[Edge], width: int, height: int) -> None:
        layout = await asyncio.to_thread(self._lay_out, view, edges, width, height)
        self._show(view, layout)

    def _show(self, view: View, layout: GraphLayout) -> None:
        if view != self.view:
            return
        self.drawing = layout
        self.border_title = Text("graph · " + slice_title(view))
        self.canvas.show(layout)

    def _room(self, canvas: Size | None = None) -> Size:
        """What a drawing is laid out for: the canvas (or the `canvas` size it will have)
        less its vertical scrollbar's gutter, kept whether the scrollbar shows or not
        (`scrollbar-gutter: stable`), and its whole height (a drawing wider than the canvas
        scrolls sideways, its scrollbar over the last row). Never what the scrollbars leave
        at the time: the drawing's own scrollbars then decided its next layout, which came
        out one cell apart depending on whether a redraw (the colours coming in) landed
        before or after them."""
        width, height = canvas if canvas is not None else self.canvas.outer_size
        return Size(width - self.canvas.styles.scrollbar_size_vertical, height)

    def on_graph_canvas_resized(self, message: GraphCanvas.Resized) -> None:
        message.stop()
        room = self._room()
        if self.shown and (room.width, room.height) != self._drawn_for:
            self._draw()

    def on_graph_canvas_cursor_moved(self, message: GraphCanvas.CursorMoved) -> None:
        message.stop()
        self.border_subtitle = self.describe()

    def describe(self) -> Text:
        """The subtitle: the selected page, its community (named by its most central
        page's title: `group of Recommended Extensions`, not a long slug), its links not
        drawn, the pages left out."""
        layout, node = self.drawing, self.canvas.cursor
        if layout is None or node is None:
            return Text(GRAPH_LEGEND)
        parts = [printable(node.slug)]
        if not self._edges and self.view is not None:  # the root alone: say why
            return Text(" · ".join([*parts, empty_slice_hint(self.view, self._filtered)]))
        if self.colours is not None and (label := self.colours.label_of(node.slug)):
            parts.append(f"group of {printable(self._titles(label) or label)}")
        if hidden := layout.undrawn.get(node.slug):
            others = [target if source == node.slug else source for source, target in hidden]
            parts.append(f"{len(others)} not drawn: " + ", ".join(map(printable, others[:3])))
        if layout.more_pages:
            parts.append(f"+{layout.more_pages} more pages")
        return Text(" · ".join(parts))


async def in_daemon_thread(work: Callable[[], _T]) -> _T:
    """`work()` in a daemon thread of its own, awaited. Not the loop's executor, which
    quitting waits for: colouring writes nothing, and a quit (`tui.fast_quit`) must not
    wait for the communities of a big brain (seconds at 100k pages)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[_T] = loop.create_future()

    def settle(outcome: Callable[[], None]) -> None:
        if not done.done():
            outcome()

    def run() -> None:
        try:
            result = work()
        except BaseException as error:  # handed to the awaiting worker, which reports it
            failed = error
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits
                loop.call_soon_threadsafe(settle, lambda: done.set_exception(failed))
        else:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, lambda: done.set_result(result))

    threading.Thread(target=run, name="graph-colours", daemon=True).start()
    return await done
