"""A fast path for long page bodies: a light Markdown renderer (off under `OKF_EXPLORER_PLAIN=1`).

Textual's `Markdown` widget mounts a widget per block (a 200-item list is ~600
widgets), so a long page costs hundreds of milliseconds to mount and every later
screen relayout (a status tick, the link tree filling in) pays for it again. Above
`LIGHT_BLOCKS` blocks the page pane renders the body to one `Content` (`LightBody`):
headings, lists, quotes, code, tables and rules keep their shape, code is highlighted
and table columns aligned (a block wider than the pane scrolls sideways:
`fast_render`), inline emphasis and code keep their style, vault Markdown reads as in
the `Markdown` widget (same parser and inline converter), and links stay clickable
(same `link(href)` action as the `Markdown` widget, reported as `LinkClicked`). What
it gives up: folding callouts (they show open) and embed previews (an embed is a
link line).

The prose is wrapped in the same thread (`wrap_piece`, Textual's own wrapper) and
shown by line-API widgets (`_Lines`: a fixed height, and `render_line` draws one
visible line), so neither mounting nor laying out a long body measures wrapped
text on the event loop, and a frame draws only the lines on screen. A width change
re-wraps in a thread; until then the old lines are shown, cut to the new width.

`prepare_body` is pure (no widget), so the page pane runs it in a thread. A huge
body (a 10 MB page) is rendered `RENDER_CHARS` at a time, cut at a paragraph break:
the first part at once, each next part on request (`m`), each rendered off the event
loop and appended as new chunks, so nothing O(page size) ever runs on the loop.
A cut inside a fenced code block shows the rest of that block as prose.

Measured by `tests/bench/bench_body.py` against the `Markdown` widget (fast paths
off), headless at 120×40, two runs on a shared machine: showing a 200-item index page
takes 0.17-0.23 s instead of 2.0-2.5 s (saves 91-92 %), a 50 KB handbook 0.24-0.45 s
instead of 5.1-5.7 s (92-95 %), the first 200 KB of a 1 MB page 0.6-1.0 s instead of
45-51 s (98-99 %); a later relayout with the index or handbook shown costs 25-30 ms
instead of 93-196 ms (71-86 %). A property test checks that it
shows the headings, links, code lines and table cells the `Markdown` widget shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it.token import Token
from textual import events
from textual.containers import ScrollableContainer, Vertical
from textual.content import Content, Span, _FormattedLine
from textual.message import Message
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget
from textual.widgets import Static

from okf_explorer.core import fast_paths
from okf_explorer.core.fast_gc import gc_paused
from okf_explorer.core.okf_meta import Source
from okf_explorer.tui.body_links import LINK_SCHEME, linkify_body
from okf_explorer.tui.vault_markdown import is_page_embed, parse
from okf_explorer.tui.widgets.fast_render import Piece, Wrapped, render_tokens, wrap_piece

LIGHT_BLOCKS = 120
"""Blocks (paragraphs, list items, headings, code blocks, table rows...) above which
a body is drawn by `LightBody`: below it the `Markdown` widget mounts in well under
100 ms on a loaded machine."""

RENDER_CHARS = 200_000
"""Characters of a body rendered at a time: above this the page pane shows the first
part and offers the next (`m`)."""

LIGHT_CHARS = 50_000
"""Bodies longer than this always use `LightBody`: the `Markdown` widget's cost grows
with text length too (one giant paragraph or code block)."""

MOUNT_BATCH = 8
"""Pieces `LightBody` mounts per frame (most parts are one or two prose pieces; a
part with many wide tables or code blocks has one box each, and each box measures
its widest line when laid out)."""

FRAME_WAIT = 0.25
"""Seconds `LightBody` waits for a frame between batches (a hidden pane draws none)."""

REWRAP_DELAY = 0.05
"""Seconds a new width must hold before `LightBody` re-wraps its prose for it."""

Heading = tuple[int, str]
"""(level, text) of a heading, in the order of the body."""


@dataclass(frozen=True, slots=True)
class PreparedBody:
    """A body (or the part `start:end` of it) ready to show.

    `light` (all of it as one `Content`) and `chunks` (the pieces `LightBody`
    mounts, with `wrapped`: each prose piece wrapped, None for a wide box) are set
    when the part is drawn by `LightBody`, with where its headings and block ids
    are (`heading_at`, `block_at`: piece, line of the piece); `links` are the
    part's hrefs in order of appearance, `headings` its headings.
    """

    markdown: str
    light: Content | None
    blocks: int
    end: int = 0
    total: int = 0
    links: tuple[tuple[str, str], ...] = ()
    chunks: tuple[Piece, ...] = ()
    headings: tuple[Heading, ...] = ()
    heading_at: tuple[tuple[int, int], ...] = ()
    block_at: tuple[tuple[str, int, int], ...] = ()
    wrapped: tuple[Wrapped | None, ...] = ()

    @property
    def truncated(self) -> bool:
        return self.end < self.total


def prepare_body(
    text: str,
    start: int = 0,
    limit: int = RENDER_CHARS,
    sources: Sequence[Source] = (),
    width: int = 80,
) -> PreparedBody:
    """Linkify and parse `text[start:]` up to about `limit` characters (cut at a break).

    `[^id]` references to the page's OKF `sources` (by `id`) get a footnote with the
    source's title and resource. The part is rendered to pieces (for a pane `width`
    columns wide, prose wrapped to it) when it has more than `LIGHT_BLOCKS` blocks,
    when the whole body is longer than `LIGHT_CHARS`, or when it is not the first
    part (it is appended to a light body); never under `OKF_EXPLORER_PLAIN=1` (then
    the `Markdown` widget shows every part).

    The cyclic collector is paused meanwhile (`gc_paused`): parsing a 200 KB part
    makes ~10^6 short-lived tokens, enough to start full collections that walk every
    object alive while holding the interpreter lock (100-240 ms event-loop stalls).
    """
    with gc_paused():
        return _prepare_body(text, start, limit, sources, width)


def _prepare_body(
    text: str, start: int, limit: int, sources: Sequence[Source], width: int
) -> PreparedBody:
    end = cut_point(text, start, limit)
    markdown = linkify_body(text[start:end]) + source_notes(text[start:end], sources)
    tokens = parse(markdown)
    blocks = sum(1 for token in tokens if token.nesting == 1 or token.type in _LEAVES)
    long = blocks > LIGHT_BLOCKS or len(text) > LIGHT_CHARS or start > 0
    links = _hrefs(tokens)
    if not (long and fast_paths.enabled()):
        headings = tuple(_headings(tokens))
        return PreparedBody(markdown, None, blocks, end, len(text), links, (), headings)
    rendered = render_tokens(tokens, width)
    pieces = rendered.pieces
    return PreparedBody(
        markdown,
        Content("\n").join(piece.content for piece in rendered.pieces),
        blocks,
        end,
        len(text),
        links,
        tuple(rendered.pieces),
        tuple((level, title) for level, title, _, _ in rendered.headings),
        tuple((piece, row) for _, _, piece, row in rendered.headings),
        tuple((name, piece, row) for name, (piece, row) in rendered.blocks.items()),
        tuple(None if piece.wide else wrap_piece(piece.content, width) for piece in pieces),
    )


def source_notes(text: str, sources: Sequence[Source]) -> str:
    """Footnote definitions for the `[^id]` references of `text` that name a source
    (`sources[].id`) and are not defined in it: `title — resource` (a concept path
    is a link to the page; a URL stays a URL)."""
    if "[^" not in text:
        return ""
    notes: list[str] = []
    for source in sources:
        if not source.id or f"[^{source.id}]" not in text:
            continue
        if re.search(rf"^\[\^{re.escape(source.id)}\]:", text, re.MULTILINE):
            continue
        parts = [f"**{_escape(source.title)}**"] if source.title else []
        if source.kind == "url":
            parts.append(f"<{source.resource}>")
        elif source.kind == "path":
            parts.append(f"[{_escape(source.resource)}](<{LINK_SCHEME}{source.resource}>)")
        elif source.resource:
            parts.append(_escape(source.resource))
        notes.append(f"[^{source.id}]: " + " — ".join(parts or [_escape(source.id)]))
    return "\n\n" + "\n\n".join(notes) + "\n" if notes else ""


def _escape(text: str) -> str:
    return re.sub(r"([\\\[\]*_`<>|])", r"\\\1", text.replace("\n", " "))


def cut_point(text: str, start: int, limit: int) -> int:
    """Where a part that starts at `start` ends: a paragraph break, else a line break."""
    wanted = start + limit
    if wanted >= len(text):
        return len(text)
    for mark in ("\n\n", "\n"):
        position = text.rfind(mark, start, wanted)
        if position > start + limit // 2:
            return position + len(mark)
    return wanted


def _hrefs(tokens: Sequence[Token]) -> tuple[tuple[str, str], ...]:
    """(label, href) of every link (and page embed) in order of appearance."""
    found: list[tuple[str, str]] = []
    for token in tokens:
        if token.type == "vault_embed":
            found.append((f"↳ {token.meta.get('label', '')}", str(token.meta.get("href", ""))))
        label: list[str] | None = None
        href = ""
        for child in token.children or ():
            if child.type == "link_open":
                label, href = [], str(child.attrs.get("href", ""))
            elif child.type == "link_close" and label is not None:
                found.append(("".join(label).strip(), href))
                label = None
            elif label is not None and child.type in ("text", "code_inline"):
                label.append(child.content)
            elif is_page_embed(child):
                found.append((f"↳ {child.content}", str(child.attrs.get("src", ""))))
    return tuple(found)


def _headings(tokens: Sequence[Token]) -> list[Heading]:
    found: list[Heading] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and index + 1 < len(tokens):
            words = [
                child.content
                for child in tokens[index + 1].children or ()
                if child.type in ("text", "code_inline", "vault_tag")
            ]
            found.append((int(token.tag[1:]), re.sub(r"\s+", " ", "".join(words)).strip()))
    return found


_LEAVES = ("fence", "code_block", "hr", "html_block", "vault_embed")


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
            self.run_worker(self._rewrap, group="rewrap", exclusive=True)

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


def more_line(shown: int, total: int, part: int = RENDER_CHARS) -> Content:
    """`⚠ showing the first 195 KB of 9.6 MB · m shows the next 200 KB` (clickable).

    Sizes count characters of the page source (about bytes for most pages); `part`
    is how much the next `m` draws at most.
    """
    step = min(part, total - shown)
    head = f"⚠ showing the first {_size(shown)} of {_size(total)} · "
    action = f"m shows the next {_size(step)}"
    click = Style.from_meta({"@click": "screen.more_of_page"})
    return Content(head + action, [Span(len(head), len(head) + len(action), click)])


def _size(chars: int) -> str:
    if chars >= 1_000_000:
        return f"{chars / 1_000_000:.1f} MB"
    return f"{max(1, round(chars / 1000))} KB"
