"""`LightBody`: a long page's body (prepared by `fast_body`) as line-API pieces.

Prose pieces (`_Lines`) come wrapped from the prepare thread: a fixed height, and
`render_line` draws one visible line, so mounting or laying out a long body never
measures wrapped text on the event loop and a frame draws only the lines on
screen. A width change re-wraps them in a thread (after `REWRAP_DELAY`); until
then the old lines are shown, cut to the new width. A code block or table wider
than the pane is a `_Wide` box that scrolls sideways.
"""

from __future__ import annotations

import asyncio
import contextlib

from textual import events
from textual.containers import ScrollableContainer, Vertical
from textual.content import Content, _FormattedLine
from textual.message import Message
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget
from textual.widgets import Static

from okf_explorer.tui.markdown.fast_render import Piece, PreparedBody, Wrapped, wrap_piece

MOUNT_BATCH = 8
"""Pieces `LightBody` mounts per frame (most parts are one or two prose pieces; a
part with many wide tables or code blocks has one box each, and each box measures
its widest line when laid out)."""

FRAME_WAIT = 0.25
"""Seconds `LightBody` waits for a frame between batches (a hidden pane draws none)."""

REWRAP_DELAY = 0.05
"""Seconds a new width must hold before `LightBody` re-wraps its prose for it."""


class LightBody(Vertical):
    """A long body as line-API pieces; a click on a link posts `LinkClicked`.

    Prose pieces (`_Lines`) have the height of their wrapped lines and draw only
    the lines on screen. A code block or table wider than the pane is a box of its
    own that scrolls sideways (`shift` + wheel, or the arrow keys once clicked).
    """

    DEFAULT_CSS = """
    LightBody { height: auto; padding: 1 0; }
    LightBody > _Wide {
        height: auto; overflow-x: auto; overflow-y: hidden; margin: 0 0 1 0;
        scrollbar-size-horizontal: 1;
    }
    LightBody > _Wide > _Chunk { width: auto; text-wrap: nowrap; }
    """

    class LinkClicked(Message):
        def __init__(self, href: str) -> None:
            super().__init__()
            self.href = href

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._heading_at: list[tuple[int, int]] = []
        self._block_at: dict[str, tuple[int, int]] = {}

    async def show(self, body: PreparedBody | None) -> None:
        """Replace what is shown with `body`'s pieces (None: empty)."""
        await self.remove_children()
        self._heading_at, self._block_at = [], {}
        if body is not None:
            await self.append(body)

    async def append(self, body: PreparedBody) -> None:
        """Add `body`'s pieces after what is shown, `MOUNT_BATCH` a frame."""
        offset = len(self.children)
        self._heading_at.extend((piece + offset, row) for piece, row in body.heading_at)
        for name, piece, row in body.block_at:
            self._block_at.setdefault(name, (piece + offset, row))
        pieces = list(zip(body.chunks, body.wrapped or [None] * len(body.chunks), strict=True))
        for start in range(0, len(pieces), MOUNT_BATCH):
            if start:
                await self._next_frame()  # lay out what is mounted; let keys through
            batch = pieces[start : start + MOUNT_BATCH]
            await self.mount_all([_widget(piece, wrapped) for piece, wrapped in batch])
        self._check_width()

    async def _next_frame(self) -> None:
        drawn = asyncio.Event()
        self.call_after_refresh(drawn.set)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(drawn.wait(), FRAME_WAIT)

    def on_resize(self, event: events.Resize) -> None:
        self._check_width()

    def _check_width(self) -> None:
        """Re-wrap (in a thread) the prose pieces wrapped for another width, once the
        width has held for `REWRAP_DELAY` (a layout passes through passing widths)."""
        width = self._width
        if width and any(lines.wrapped.width != width for lines in self.query_children(_Lines)):
            self.run_worker(self._rewrap, group="rewrap", exclusive=True, exit_on_error=False)

    @property
    def _width(self) -> int:
        """The width the prose is drawn at: the body's, or (while the pane's scrollbar
        has appeared but the body is not laid out beside it yet) the pane's."""
        width = self.content_region.width
        if isinstance(self.parent, Widget) and self.parent.is_scrollable:
            width = min(width, self.parent.scrollable_content_region.width - self.gutter.width)
        return max(0, width)

    async def _rewrap(self) -> None:
        await asyncio.sleep(REWRAP_DELAY)
        width = self._width
        stale = [lines for lines in self.query_children(_Lines) if lines.wrapped.width != width]
        if not width or not stale:
            return
        wrapped = await asyncio.to_thread(
            lambda: [wrap_piece(lines.content, width) for lines in stale]
        )
        if self._width != width:
            return  # resized again meanwhile: that resize's worker wraps
        for lines, new in zip(stale, wrapped, strict=True):
            lines.wrapped = new

    def heading_y(self, index: int) -> int | None:
        """Where (lines from the body's top) the `index`-th heading shown is."""
        at = self._heading_at[index] if 0 <= index < len(self._heading_at) else None
        return self._y(at)

    def block_y(self, block_id: str) -> int | None:
        """Where (lines from the body's top) the block `^block_id` is."""
        return self._y(self._block_at.get(block_id))

    def _y(self, at: tuple[int, int] | None) -> int | None:
        if at is None or not 0 <= at[0] < len(self.children):
            return None
        piece, line = self.children[at[0]], at[1]
        if isinstance(piece, _Lines):
            starts = piece.wrapped.starts
            line = starts[min(line, len(starts) - 1)] if starts else 0
        return piece.virtual_region.y + line


def _widget(piece: Piece, wrapped: Wrapped | None) -> Widget:
    if piece.wide:
        lines = piece.content.plain.count("\n") + 1
        return _Wide(_Chunk(piece.content).set_styles(f"height: {lines};"))
    return _Lines(piece.content, wrapped or wrap_piece(piece.content, 80))


class _Lines(Widget):
    """Prose of a long body, wrapped off the loop: as high as its lines, drawn a line
    at a time; its links run `link(href)` here (the action's namespace)."""

    def __init__(self, content: Content, wrapped: Wrapped) -> None:
        super().__init__()
        self.content = content
        self._wrapped = wrapped
        self.styles.height = len(wrapped.lines)

    @property
    def wrapped(self) -> Wrapped:
        return self._wrapped

    @wrapped.setter
    def wrapped(self, wrapped: Wrapped) -> None:
        self._wrapped = wrapped
        self.styles.height = len(wrapped.lines)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        lines = self._wrapped.lines
        style = self.visual_style
        width = self.content_region.width
        if not 0 <= y < len(lines):
            return Strip.blank(width, style.rich_style)
        line = lines[y]
        content = line.content
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(line.y)) is not None:
            start, end = span[0] - line.x, span[1] - line.x if span[1] != -1 else len(content)
            if max(0, start) < min(len(content), end):
                selected = Style.from_styles(self.screen.get_component_styles("screen--selection"))
                content = content.stylize(selected, max(0, start), min(len(content), end))
        formatted = _FormattedLine(self._get_style, content, width, line.x, line.y)
        strip = Strip(*formatted.to_strip(style))
        if self.auto_links and not self.screen._selecting:
            strip = strip._apply_link_style(self.link_style)
        return strip.crop(0, width)

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        return selection.extract(self.content.plain), "\n"

    def action_link(self, href: str) -> None:
        self.post_message(LightBody.LinkClicked(href))


class _Chunk(Static):
    """A wide block's text; its links run `link(href)` here (the action's namespace)."""

    def action_link(self, href: str) -> None:
        self.post_message(LightBody.LinkClicked(href))


class _Wide(ScrollableContainer, can_focus=False):
    """A code block or table wider than the pane: scrolls sideways, never cut."""
