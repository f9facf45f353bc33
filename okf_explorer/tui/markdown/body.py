"""`VaultBody`: a page body as the engine draws it, a visible row at a time.

A body is a few pieces (`Piece`, made by `prepare` off the event loop): runs of
blocks already drawn as rows (`DrawnRows`: a fixed height, `render_line` draws the one
row asked for, so neither mounting nor laying out a long body measures text on the
loop and a frame draws only the rows on screen), a fence too wide for the pane in a
box that scrolls sideways (`WideFence`, as Textual's fence scrolls), and page embeds
(`EmbedBlock`, filled in by the page pane). A width change redraws the rows in a
thread (after `REWRAP_DELAY`); until then the old rows are shown, cut to the new
width. A click on a foldable callout folds or unfolds it; a click on a link posts
`LinkClicked`.

Rows are drawn with public Textual API only: `Visual.to_strips` with a one-row
`Visual` (`RowVisual`) that gives each cell of text its offset in the body's text
(a mouse selection reads the text, not the bars and bullets around it), so Textual
applies the link style and the selection as it does for any widget.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.color import Color
from textual.containers import ScrollableContainer, Vertical
from textual.content import Content
from textual.css.styles import RulesMap
from textual.geometry import Region, Size
from textual.message import Message
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widget import Widget
from textual.widgets import Static

from okf_explorer.core.bases import is_base_name
from okf_explorer.core.pages import Markup
from okf_explorer.tui.drawn_lines import let_go_of_lines
from okf_explorer.tui.markdown.dialects import dialect_markdown
from okf_explorer.tui.markdown.draw import (
    BAR_PREFIX,
    STYLE_NAMES,
    STYLES_CSS,
    Block,
    Drawing,
    Embed,
    Fence,
    Quote,
    Row,
    blocks_of,
    draw,
    fence_rows,
    wrapped,
)
from okf_explorer.tui.markdown.links import (
    WRITTEN_QUERIES,
    anchor_of_href,
    linkify_body,
    target_of_href,
)
from okf_explorer.tui.markdown.parser import parse

MOUNT_BATCH = 8
"""Pieces `VaultBody` mounts per frame."""
FRAME_WAIT = 0.25
"""Seconds `VaultBody` waits for a frame between batches (a hidden pane draws none)."""
REWRAP_DELAY = 0.05
"""Seconds a new width must hold before `VaultBody` redraws its rows for it."""
EMBED_PREVIEW_LINES = 3
"""Rows of text of an embedded page shown while its embed is folded."""
EMBED_OPEN_LINES = 40
"""Rows of an embedded page shown once its embed is unfolded (the rest: follow it)."""
EMBED_CHARS = 20_000
"""Characters of an embedded section drawn at most (a whole big page embedded shows
its start; the link leads to the rest)."""
CURSOR_STYLE = Style(reverse=True, bold=True)
"""The `n` / `N` cursor on the text of a link or a callout's title (`DrawnRows.mark`)."""

FOUND_STYLE = Style(foreground=Color.parse("#1e1e1e"), background=Color.parse("#d19a66"))
"""The words of the search that opened the page (`DrawnRows.show_found`)."""

Mark = tuple[int, int, int]
"""(row, first character, end character) of a piece's rows the cursor is on."""
Spans = Callable[[str], Sequence[tuple[int, int]]]
"""Where (first and end characters) what is looked for is in a row's text."""


# ------------------------------------------------------------------- drawing rows

StyleGetter = Callable[[str | Style], Style]


def style_getter(widget: Widget, get_style: StyleGetter) -> StyleGetter:
    """`get_style` (a widget's: `.name` is a component class up its ancestors), each
    style looked up once (a getter serves one paint: styles do not change within it), that
    also reads the boxes a cell is in (`@md-quote-box md-fence-box`): their
    backgrounds blended as Textual blends nested widgets' (on `widget`, which has the
    body's component classes), and a quote's bar (`@bar …`), an `outer` border drawn
    in its colour blended over the boxes outside the quote."""

    looked_up: dict[str | Style, Style] = {}

    def get(style: str | Style) -> Style:
        if (found := looked_up.get(style)) is not None:
            return found
        if not isinstance(style, str) or not style.startswith("@"):
            found = get_style(style)
        elif style.startswith(BAR_PREFIX):
            names = style[1:].split()
            behind = _owner(widget).get_visual_style(*names[1:]).background
            bar = get_style(".md-quote-bar").foreground
            found = Style(foreground=bar if bar is None else behind + bar)
        else:
            names = style[1:].split()
            found = Style(background=_owner(widget).get_visual_style(*names).background)
        looked_up[style] = found
        return found

    return get


def _owner(widget: Widget) -> Widget:
    """The body widget whose component classes name the styles `widget`'s rows use."""
    for node in widget.ancestors_with_self:
        if isinstance(node, Widget) and STYLE_NAMES <= node.COMPONENT_CLASSES:
            return node
    return widget


LinkStyle = Callable[[Style], RichStyle]


def link_styler(widget: Widget) -> LinkStyle:
    """The style a link gets on a cell's background, as `Widget.link_style` computes
    it for a widget on that background (a link in a quote is coloured for the quote)."""
    styles = widget.styles
    cache: dict[object, RichStyle] = {}

    def link_style(cell: Style) -> RichStyle:
        background = cell.background or Color(0, 0, 0, 0)
        if (found := cache.get(background)) is not None:
            return found
        link_background = background + styles.link_background
        if styles.auto_link_color:
            color = link_background.get_contrast_text(styles.link_color.a)
        else:
            color = styles.link_color
        found = cache[background] = styles.link_style + RichStyle.from_color(
            (link_background + color).rich_color,
            link_background.rich_color if styles.link_background.a else None,
        )
        return found

    return link_style


def row_strip(
    row: Row, style: Style, options: RenderOptions, link_style: LinkStyle | None = None
) -> Strip:
    """`row` as a strip: its `lead` cells as drawn, each cell after them with its offset
    in the body's text (`row.line`, from `row.x`), the selection shown on it, and its
    padding (`row.fills`) in the background only."""
    content, lead = row.content, row.lead
    selection, selected = options.selection, options.selection_style
    links = link_style if link_style is not None else _no_link_style
    if row.line >= 0 and selection is not None and selected is not None:
        span = selection.get_span(row.line)
        if span is not None:
            end = len(content) if span[1] == -1 else lead + span[1] - row.x
            start = max(lead, lead + span[0] - row.x)
            if start < min(end, len(content)):
                content = content.stylize(selected, start, min(end, len(content)))
    cuts = sorted({cut for fill in row.fills for cut in fill} - {0, len(content)})
    fills = set(row.fills)
    segments: list[Segment] = []
    at, x = 0, row.x
    for piece in content.divide(cuts) if cuts else [content]:
        padding = (at, at + len(piece)) in fills
        base = style.background_style if padding else style
        line = -1 if padding else row.line
        for text, text_style in piece.render(base, end="", parse_style=options.get_style):
            if not text:
                continue
            segments += _offset(text, base + text_style, at, lead, x, line, links)
            x += max(0, at + len(text) - max(at, lead))
            at += len(text)
    return Strip(segments, content.cell_length)


def _offset(
    text: str, style: Style, at: int, lead: int, x: int, line: int, links: LinkStyle
) -> list[Segment]:
    """`text` (at `at` in its row) as segments: the cells before `lead` plain, the
    others with their offset from `x` in text line `line`; a link in its link style."""
    if line < 0 or at + len(text) <= lead:
        segments = [Segment(text, style.rich_style)]
    elif at < lead:
        head, tail = text[: lead - at], text[lead - at :]
        segments = [
            Segment(head, style.rich_style),
            Segment(tail, style.rich_style_with_offset(x, line)),
        ]
    else:
        segments = [Segment(text, style.rich_style_with_offset(x, line))]
    if style.meta and "@click" in style.meta:
        link = links(style)
        segments = [Segment(part, (rich or RichStyle()) + link) for part, rich, _ in segments]
    return segments


def _no_link_style(style: Style) -> RichStyle:
    return RichStyle()


class RowPaint:
    """What the rows of one paint of a widget share: the styles they look up and their
    links' styles, each found once per paint rather than once per row."""

    def __init__(self, widget: Widget) -> None:
        self.widget = widget
        self.links = link_styler(widget)
        self._getter: StyleGetter | None = None

    def getter(self, get_style: StyleGetter) -> StyleGetter:
        """`style_getter` on `get_style` (the widget's, as `Visual.to_strips` passes it)."""
        if self._getter is None:
            self._getter = style_getter(self.widget, get_style)
        return self._getter


class RowVisual(Visual):
    """One drawn row, as `Visual.to_strips` renders a visual for a widget."""

    def __init__(self, row: Row, paint: RowPaint) -> None:
        self.row = row
        self.paint = paint

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        options = _with_getter(options, self.paint.getter(options.get_style))
        return [row_strip(self.row, style, options, self.paint.links).crop(0, width)]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.row.content.cell_length

    def get_height(self, rules: RulesMap, width: int) -> int:
        return 1


def _with_getter(options: RenderOptions, get_style: StyleGetter) -> RenderOptions:
    return RenderOptions(
        get_style, options.rules, options.selection, options.selection_style, options.post_style
    )


class RowsVisual(Visual):
    """Rows drawn for whatever width the widget has (`draw_rows`), cached per width."""

    def __init__(self, draw_rows: Callable[[int], list[Row]], widget: Widget) -> None:
        self.draw_rows = draw_rows
        self.widget = widget
        self._drawn: tuple[int, list[Row]] | None = None

    def rows(self, width: int) -> list[Row]:
        if self._drawn is None or self._drawn[0] != width:
            self._drawn = (width, self.draw_rows(width))
        return self._drawn[1]

    @property
    def plain(self) -> str:
        """The rows' text (at the width drawn last)."""
        rows = self._drawn[1] if self._drawn is not None else self.draw_rows(80)
        return "\n".join(row.content.plain.rstrip() for row in rows)

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        options = _with_getter(options, style_getter(self.widget, options.get_style))
        rows = self.rows(width)[:height] if height is not None else self.rows(width)
        links = link_styler(self.widget)
        return [row_strip(row, style, options, links).crop(0, width) for row in rows]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self.rows(width))


# -------------------------------------------------------------------------- pieces


@dataclass(eq=False, slots=True)
class Piece:
    """A part of a body one widget shows: a run of blocks drawn as rows (`drawing`, at
    `width`), or one embed, or one fence wider than the pane (`wide`); `margin` is the
    rows above and below it (collapsed with its neighbours', as between blocks)."""

    blocks: list[Block]
    margin: tuple[int, int]
    width: int = 0
    drawing: Drawing | None = None
    wide: bool = False
    folded: set[int] = field(default_factory=set)
    before: tuple[int, frozenset[int], Drawing] | None = None
    """The drawing shown before the last width change: its width, its folds, itself (a
    zoom undone draws nothing again)."""

    @property
    def embed(self) -> Embed | None:
        block = self.blocks[0] if self.blocks else None
        return block if isinstance(block, Embed) else None

    def drawn_before(self, width: int) -> Drawing | None:
        """The drawing shown before the last width change, when it was `width` wide and
        its callouts are folded as they are now."""
        if self.before is None:
            return None
        was, folded, drawing = self.before
        return drawing if was == width and folded == self.folded else None


class DrawnRows(Widget):
    """Rows of a body drawn off the loop: as high as its rows, drawn a row at a time;
    its links run `link(href)` here (the action's namespace)."""

    DEFAULT_CSS = "DrawnRows { width: 1fr; height: auto; }"

    class Redrawn(Message):
        """Rows the cursor was on were drawn again (a fold, a new width): mark it again."""

    def __init__(self, piece: Piece) -> None:
        super().__init__()
        self.auto_links = False  # links are styled for the background they are on
        self.piece = piece
        self.marks: tuple[Mark, ...] = ()
        """Where the `n` / `N` cursor is on these rows (none: elsewhere)."""
        self.found: tuple[Mark, ...] = ()
        """Where the words of the search that opened the page are on these rows."""
        self._finding: Spans | None = None
        self._paint: RowPaint | None = None
        """What the rows being painted share (`render_lines`), while they are."""

    @property
    def drawing(self) -> Drawing:
        return self.piece.drawing or Drawing()

    def redrawn(self, drawing: Drawing, width: int) -> None:
        """Show `drawing` (the piece drawn `width` wide)."""
        self._show(drawing, width)
        self.refresh(layout=True)

    def _show(self, drawing: Drawing, width: int) -> None:
        piece = self.piece
        if width != piece.width and piece.drawing is not None:
            piece.before = (piece.width, frozenset(piece.folded), piece.drawing)
        piece.drawing, piece.width = drawing, width
        if self.marks:  # the rows moved: the cursor marks them again (`BodyCursor`)
            self.marks = ()
            self.post_message(self.Redrawn())
        if self._finding is not None:
            self.found = self._found(self._finding)

    def mark(self, marks: Sequence[Mark]) -> None:
        """Show the cursor on `marks` (none: take it off)."""
        if tuple(marks) != self.marks:
            self.marks = tuple(marks)
            self.refresh()

    def show_found(self, spans: Spans | None) -> None:
        """Show in `FOUND_STYLE` what `spans` finds in each row (None: nothing), on
        these rows as they are drawn now and after."""
        self._finding = spans
        found = self._found(spans) if spans is not None else ()
        if found != self.found:
            self.found = found
            self.refresh()

    def _found(self, spans: Spans) -> tuple[Mark, ...]:
        return tuple(
            (y, start, end)
            for y, row in enumerate(self.drawing.rows)
            for start, end in spans(row.content.plain)
        )

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many rows as the drawing, asked as the layout gives the rows `width`: a
        drawing kept for that width (a zoom undone, `Piece.drawn_before`) is shown again
        now, so the layout that changed the width draws it, not a layout after it."""
        piece = self.piece
        if width != piece.width and (kept := piece.drawn_before(width)) is not None:
            self._show(kept, width)
        return len(self.drawing.rows)

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in `crop`, their styles looked up once for them all (`RowPaint`)."""
        self._paint = RowPaint(self)
        try:
            return super().render_lines(crop)
        finally:
            self._paint = None

    def render_line(self, y: int) -> Strip:
        rows = self.drawing.rows
        width = self.content_region.width
        if not 0 <= y < len(rows):
            return Strip.blank(width, self.visual_style.rich_style)
        row = rows[y]
        for marks, style in ((self.found, FOUND_STYLE), (self.marks, CURSOR_STYLE)):
            for mark_row, start, end in marks:
                if mark_row == y:
                    row = replace(row, content=row.content.stylize(style, start, end))
        paint = self._paint or RowPaint(self)
        strips = Visual.to_strips(self, RowVisual(row, paint), width, 1, self.visual_style)
        return strips[0] if strips else Strip.blank(width, self.visual_style.rich_style)

    def render(self) -> Content:
        """What the rows show (the text finder searches it; drawing is `render_line`'s)."""
        return self.drawing.text()

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        return selection.extract("\n".join(self.drawing.lines)), "\n"

    def on_click(self, event: events.Click) -> None:
        """A click on a foldable callout folds or unfolds it (as `CalloutQuote`)."""
        for first, end, index in self.drawing.folds:
            if first <= event.y < end:
                event.stop()
                self.toggle(index)
                return

    def toggle(self, index: int) -> None:
        """Fold or unfold the callout that is block `index` of the piece."""
        piece = self.piece
        piece.folded ^= {index}
        self.redrawn(draw(piece.blocks, piece.width, piece.folded, outer=False), piece.width)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Over a table cell, its text is the tooltip (as Textual's table cells have)."""
        rows = self.drawing.rows
        row = rows[event.y] if 0 <= event.y < len(rows) else None
        tip = None
        if row is not None:
            tip = next((text for start, end, text in row.tips if start <= event.x < end), None)
        if (tip or None) != self.tooltip:
            self.tooltip = tip or None

    async def action_link(self, href: str) -> None:
        self.post_message(VaultBody.LinkClicked(href))


@dataclass(frozen=True)
class Callout:
    """A callout of a `VaultBody` (the `index`-th block of a piece `DrawnRows` shows)."""

    lines: DrawnRows
    index: int

    @property
    def quote(self) -> Quote:
        block = self.lines.piece.blocks[self.index]
        assert isinstance(block, Quote)
        return block

    @property
    def kind(self) -> str:
        return self.quote.kind

    @property
    def fold(self) -> str:
        return self.quote.fold

    @property
    def folded(self) -> bool:
        return self.index in self.lines.piece.folded

    @property
    def text(self) -> str:
        """What the callout shows (its title only, folded)."""
        drawing = self.lines.drawing
        first, end = drawing.spans[self.index]
        rows = drawing.rows[first:end]
        return "\n".join(row.content.plain[2:].rstrip() for row in rows)  # after its bar

    def toggle(self) -> None:
        """Fold or unfold it (a foldable one)."""
        if self.fold:
            self.lines.toggle(self.index)


class _Wide(ScrollableContainer, can_focus=False):
    """A fence wider than the pane: it scrolls sideways, never cut (as `MarkdownFence`),
    its scrollbar showing that it does."""

    def on_resize(self, event: events.Resize) -> None:
        for fence in self.query_children(WideFence):
            fence.fit()


class WideFence(DrawnRows):
    """A wide fence's rows, as wide as its code; by keyboard (`cursor.BodyCursor`) they
    scroll sideways (`slide`), or wrap inside the box (`toggle_wrap`) and back."""

    def __init__(self, piece: Piece) -> None:
        super().__init__(piece)
        self.wrapped = False
        self.styles.width = self.fence.natural_width

    @property
    def fence(self) -> Fence:
        fence = self.piece.blocks[0]
        assert isinstance(fence, Fence)
        return fence

    @property
    def top(self) -> int:
        """Rows from the body's top to its first row (its box's place)."""
        return self.parent.virtual_region.y if isinstance(self.parent, Widget) else 0

    def slide(self, step: int) -> None:
        """Scroll the box sideways half its width, right (`step` 1) or left (-1)."""
        box = self.parent
        if isinstance(box, _Wide):
            cells = max(8, box.content_region.width // 2)
            box.scroll_relative(x=step * cells, animate=False, immediate=True)

    def toggle_wrap(self) -> None:
        """Wrap its long lines inside the box, or let them run on to scroll again."""
        self.wrapped = not self.wrapped
        if isinstance(self.parent, _Wide):
            self.parent.scroll_to(x=0, animate=False, immediate=True)
        self.fit()

    def fit(self) -> None:
        """Draw its rows for the box: wrapped to the box's width, else as wide as the code."""
        box = self.parent
        width = self.fence.natural_width
        if self.wrapped and isinstance(box, _Wide) and box.content_region.width:
            width = box.content_region.width
        if width != self.piece.width:
            self.styles.width = width
            self.redrawn(Drawing(rows=fence_rows(self.fence, width)), width)


# -------------------------------------------------------------------------- embeds


class EmbedView:
    """`![[page#section]]` alone on a line: the page's name, then a few rows of it
    drawn as a body (filled in by the page pane: `Wanted`); a click unfolds more, or
    folds it again; a click on the name follows the link.

    A mixin for the body's `EmbedBlock` and the plain `Markdown` widget's block."""

    href: str
    label: str
    text: str | None
    note: str
    open: bool
    breaks: bool = False
    """Whether a single newline of the embedded text is a line break (the brain's rule)."""
    markup: Markup = "markdown"
    """The dialect the text is written in (`dialects.dialect_markdown`)."""
    _section: list[Block] | None

    class Wanted(Message):
        """An embed is on screen and waits for its page (`target`, section `anchor`)."""

        def __init__(self, block: EmbedView) -> None:
            super().__init__()
            self.block = block

    def setup(self, href: str, label: str, written: object = None) -> None:
        self.auto_links = False  # links are styled for the background they are on
        self.href = href
        self.written = written if isinstance(written, str) else None
        """A base or a Dataview query written in the page: its text (`draw.Embed.written`)."""
        self.is_base = is_base_name(target_of_href(href) or "") or href in WRITTEN_QUERIES
        """Whether it shows an Obsidian base or a Dataview query: rows of pages, shown whole
        (`links.embedded_text`)."""
        self.label = label or href
        self.text = None
        self.note = "loading…"
        self.open = False
        self._section = None
        self.marks: tuple[Mark, ...] = ()
        """Where the `n` / `N` cursor is on a link of its rows (a base's table)."""
        self._visual: RowsVisual | None = None

    @property
    def target(self) -> str | None:
        return target_of_href(self.href)

    @property
    def anchor(self) -> str | None:
        return anchor_of_href(self.href)

    def fill(self, text: str | None, note: str = "") -> None:
        """The embedded text (or None, and `note` says why there is none)."""
        self.text, self.note, self._section = text, note, None
        self.show()

    def show(self) -> None:
        self._visual = RowsVisual(self.preview_rows, self)  # type: ignore[arg-type]
        self.update(self._visual)  # type: ignore[attr-defined]

    def shown_rows(self) -> list[Row]:
        """The rows shown, at the width shown (the same list until they change)."""
        width = self.content_region.width  # type: ignore[attr-defined]
        return self._visual.rows(width) if self._visual is not None else []

    def mark(self, marks: Sequence[Mark]) -> None:
        """Show the cursor on `marks` of its rows (none: take it off)."""
        if tuple(marks) != self.marks:
            self.marks = tuple(marks)
            self.show()

    async def action_link(self, href: str) -> None:
        """A click on a link of its rows (a base's table) follows it."""
        self.post_message(VaultBody.LinkClicked(href))  # type: ignore[attr-defined]

    def preview_rows(self, width: int) -> list[Row]:
        """The name, the embedded text's first lines (folded: its lines of text only),
        and what a click does, `width` wide."""
        head = Content.assemble(("↳ ", "bold"), (self.label, "bold underline"))
        rows = [Row(part, 0, x) for part, x in wrapped(head, width)]
        lines = self._body_lines(width)
        limit = EMBED_OPEN_LINES if self.open else EMBED_PREVIEW_LINES
        if self.is_base:  # a base's table is what its page shows: whole (`MAX_ROWS`)
            limit = len(lines)
        if self.text is None:
            hint = self.note
        elif len(lines) > limit:
            hint = (
                "▸ enter or click to unfold" if not self.open else "… follow the link for the rest"
            )
        else:
            hint = "▾ enter or click to fold" if self.open and not self.is_base else ""
        rows += [row for line in lines[:limit] for row in line]
        if hint:
            rows += [Row(part) for part, _ in wrapped(Content.styled(hint, "italic"), width)]
        for mark_row, start, end in self.marks:
            if 0 <= mark_row < len(rows):
                row = rows[mark_row]
                rows[mark_row] = replace(row, content=row.content.stylize(CURSOR_STYLE, start, end))
        return rows

    def _body_lines(self, width: int) -> list[list[Row]]:
        """The embedded text's rows, by the line of text each shows (a blank row: a
        line of its own; folded, none)."""
        if not self.text:
            return []
        if self._section is None:
            cut = self.text[:EMBED_CHARS]
            if len(self.text) > EMBED_CHARS:  # at a line break, so no block is cut in half
                cut = cut[: max(cut.rfind("\n"), 0) or len(cut)]
            cut = dialect_markdown(cut, self.markup)
            self._section = blocks_of(parse(linkify_body(cut), self.breaks))
        lines: list[list[Row]] = []
        for row in draw(self._section, width, outer=False).rows:
            if not self.open and not self.is_base and not row.content.plain.strip():
                continue
            if lines and row.line >= 0 and lines[-1][-1].line == row.line:
                lines[-1].append(row)
            else:
                lines.append([row])
        return lines

    def on_mount(self) -> None:
        self.show()
        # asked for once the page is drawn: reading it must not delay the first screen
        self.call_after_refresh(self.post_message, self.Wanted(self))  # type: ignore[attr-defined]

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if event.y == 0 and self.written is None:  # the name line follows the link
            self.follow_embed()
        elif not self.is_base:  # a base's rows hold links (`action_link`): nothing folds
            self.toggle()

    def toggle(self) -> None:
        """Unfold more of the embedded text, or fold it again (a click, `enter`)."""
        self.open = not self.open
        self.show()

    def follow_embed(self) -> None:
        raise NotImplementedError


EMBED_CSS = """
{name} {{
    border-left: outer $secondary; padding: 0 1; margin: 0 0 1 0; color: $text-muted;
    width: 1fr; height: auto;
}}
{name}.-cursor {{ border-left: thick $accent; background: $accent 20%; }}
"""
"""An embed's box (`{name}`: the widget class; `-cursor`: the `n` / `N` cursor is on it)."""


class EmbedBlock(EmbedView, Static):
    """An embed in a `VaultBody`."""

    DEFAULT_CSS = EMBED_CSS.format(name="EmbedBlock")

    def __init__(self, embed: Embed, margin: tuple[int, int]) -> None:
        super().__init__()
        self.setup(embed.href, embed.label, embed.written)
        self.styles.margin = (margin[0], 0, margin[1], 0)

    def follow_embed(self) -> None:
        self.post_message(VaultBody.LinkClicked(self.href))


# ---------------------------------------------------------------------------- body


class VaultBody(Vertical):
    """A page body drawn by the engine: pieces of rows, wide fences, embeds."""

    COMPONENT_CLASSES: ClassVar[set[str]] = set(STYLE_NAMES)
    DEFAULT_CSS = f"""
    VaultBody {{
        height: auto; padding: 0 2 0 2; color: $foreground;
        {STYLES_CSS}
    }}
    VaultBody > _Wide {{
        height: auto; overflow-x: auto; overflow-y: hidden;
        scrollbar-size-horizontal: 1; scrollbar-size-vertical: 0; background: black 10%;
    }}
    VaultBody:light > _Wide {{ background: white 30%; }}
    VaultBody > _Wide > WideFence {{ height: auto; }}
    """

    class LinkClicked(Message):
        def __init__(self, href: str) -> None:
            super().__init__()
            self.href = href

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pieces: list[Piece] = []
        self._resize_is_final = False

    def resize_is_final(self) -> None:
        """The next width change is one step (a pane zoomed by a key), not a terminal
        being dragged through widths: redraw for it without waiting `REWRAP_DELAY`."""
        self._resize_is_final = True

    async def show(self, pieces: Sequence[Piece] | None) -> None:
        """Replace what is shown with `pieces` (None: empty)."""
        for child in self.children:
            child.display = False  # not drawn again before it goes (empties its lines too)
            let_go_of_lines(child)  # textual#6665 (`tui.drawn_lines`)
        await self.remove_children()
        self.pieces = []
        if pieces:
            await self.append(pieces)

    async def append(self, pieces: Sequence[Piece]) -> None:
        """Add `pieces` after what is shown, `MOUNT_BATCH` a frame."""
        for start in range(0, len(pieces), MOUNT_BATCH):
            if start:
                await self._next_frame()  # lay out what is mounted; let keys through
            batch = pieces[start : start + MOUNT_BATCH]
            self.pieces += batch
            await self.mount_all([_widget(piece) for piece in batch])
        self._check_width()

    async def _next_frame(self) -> None:
        drawn = asyncio.Event()
        self.call_after_refresh(drawn.set)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(drawn.wait(), FRAME_WAIT)

    def on_resize(self, event: events.Resize) -> None:
        self._check_width()

    def _check_width(self) -> None:
        """Redraw (in a thread) the pieces drawn for another width, once the width has
        held for `REWRAP_DELAY` (a layout passes through passing widths). A piece drawn
        for this width just before (a zoom undone) already shows that drawing: the
        layout that gave the width asked for it (`DrawnRows.get_content_height`)."""
        width = self.content_region.width
        if not width:
            return
        if any(lines.piece.width != width for lines in self._prose()):
            self.run_worker(self._rewrap, group="rewrap", exclusive=True, exit_on_error=False)

    def _prose(self) -> list[DrawnRows]:
        return [child for child in self.children if type(child) is DrawnRows]

    async def _rewrap(self) -> None:
        if not self._resize_is_final:
            await asyncio.sleep(REWRAP_DELAY)
        self._resize_is_final = False
        width = self.content_region.width
        stale = [lines for lines in self._prose() if lines.piece.width != width]
        if not width or not stale:
            return
        folds = [frozenset(lines.piece.folded) for lines in stale]
        drawings = await asyncio.to_thread(
            lambda: [
                draw(lines.piece.blocks, width, folded, outer=False)
                for lines, folded in zip(stale, folds, strict=True)
            ]
        )
        if self.content_region.width != width:
            return  # resized again meanwhile: that resize's worker redraws
        for lines, folded, drawing in zip(stale, folds, drawings, strict=True):
            if lines.piece.folded != folded:  # a callout folded or opened meanwhile
                drawing = draw(lines.piece.blocks, width, lines.piece.folded, outer=False)
            lines.redrawn(drawing, width)

    def drawings(self) -> list[tuple[Widget, Drawing]]:
        """Each piece of drawn rows shown, with its widget (where on screen it is)."""
        return [(lines, lines.drawing) for lines in self._prose()]

    def readable(self) -> list[DrawnRows | EmbedBlock]:
        """The pieces a reader goes through (drawn rows, wide fences, embeds), in order:
        what the `n` / `N` cursor moves over (`cursor.BodyCursor`)."""
        found: list[DrawnRows | EmbedBlock] = []
        for child in self.children:
            if isinstance(child, _Wide):
                found += child.query_children(WideFence)
            elif isinstance(child, DrawnRows | EmbedBlock):
                found.append(child)
        return found

    def show_found(self, spans: Spans | None) -> None:
        """Show in `FOUND_STYLE` what `spans` finds in the rows of its prose and wide
        fences (None: nothing): the words of the search that opened the page."""
        for lines in self.readable():
            if isinstance(lines, DrawnRows):
                lines.show_found(spans)

    def callouts(self) -> list[Callout]:
        """The callouts at the top of the body (a quote with a `[!type]`), in order."""
        found = []
        for lines in self._prose():
            for index, block in enumerate(lines.piece.blocks):
                if isinstance(block, Quote) and block.kind:
                    found.append(Callout(lines, index))
        return found

    def heading_y(self, index: int) -> int | None:
        """Where (rows from the body's top) the `index`-th heading shown is."""
        for lines in self._prose():
            rows = lines.drawing.headings
            if index < len(rows):
                return self._y(lines, rows[index])
            index -= len(rows)
        return None

    def block_y(self, block_id: str) -> int | None:
        """Where (rows from the body's top) the block `^block_id` is."""
        for lines in self._prose():
            row = lines.drawing.anchors.get(block_id)
            if row is not None:
                return self._y(lines, row)
        return None

    def _y(self, lines: DrawnRows, row: int) -> int:
        return lines.virtual_region.y + row


def _widget(piece: Piece) -> Widget:
    embed = piece.embed
    if embed is not None:
        return EmbedBlock(embed, piece.margin)
    if piece.wide and isinstance(fence := piece.blocks[0], Fence):
        rows = fence_rows(fence, fence.natural_width)
        box = _Wide(WideFence(Piece([fence], (0, 0), fence.natural_width, Drawing(rows=rows))))
        box.styles.margin = (piece.margin[0], 0, piece.margin[1], 0)
        return box
    lines = DrawnRows(piece)
    lines.styles.margin = (piece.margin[0], 0, piece.margin[1], 0)
    return lines
