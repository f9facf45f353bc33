"""Vault Markdown drawn as Textual's `Markdown` widget draws it: tokens → blocks → rows.

This is the engine's one drawing of a body. `blocks_of` reads the vault parser's
tokens into a tree of blocks (the shapes Textual's `Markdown` builds widgets for:
paragraphs, headings, quotes and callouts, lists, fences, tables, rules, embeds),
and `draw` lays blocks out `width` cells wide as screen rows: each block looks, cell
for cell and colour for colour, as Textual's block widget for it (its CSS margins
collapsed as Textual's vertical layout collapses them, a quote's bar and background,
a list's bullet column, a fence's padded box, a table's keylined grid sized by the
grid arithmetic Textual uses). `tests/tui/test_one_look.py` compares the screens.

Rows are `Content` whose styles are names (`.md-h1`, `.em`): the body widget that
draws them resolves the names with its theme (`STYLES_CSS`), so drawing needs no
widget and runs in a thread. Each row also says which line of the body's text it
shows and where (`Row.line`, `Row.x`), so a mouse selection copies the text, not
the bars and bullets around it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

from markdown_it.token import Token
from rich.cells import cell_len
from textual.content import Content
from textual.highlight import highlight
from textual.style import Style

from okf_explorer.core.math_text import TALL
from okf_explorer.tui.cells import RunCells
from okf_explorer.tui.markdown.cjk_wrap import cjk_cuts, has_wide_script
from okf_explorer.tui.markdown.diagrams import DRAWN_AS, OPEN_COLUMNS
from okf_explorer.tui.markdown.inline import (
    TONE_COLORS,
    WIDGET_STYLES,
    callout_title,
    callout_tone,
    inline_content,
)

BULLETS = ("• ", "▪ ", "‣ ", "⭑ ", "◦ ")
"""Unordered list bullets by depth, as Textual's `Markdown.BULLETS`."""
QUOTE_BAR = "▌"
"""The left edge of a quote, callout or embed (Textual's `outer` border)."""
EMBED_GLYPH = "↳"

STYLES_CSS = """
    & > .md-h1 { color: $markdown-h1-color; text-style: $markdown-h1-text-style; }
    & > .md-h2 { color: $markdown-h2-color; text-style: $markdown-h2-text-style; }
    & > .md-h3 { color: $markdown-h3-color; text-style: $markdown-h3-text-style; }
    & > .md-h4 { color: $markdown-h4-color; text-style: $markdown-h4-text-style; }
    & > .md-h5 { color: $markdown-h5-color; text-style: $markdown-h5-text-style; }
    & > .md-h6 { color: $markdown-h6-color; text-style: $markdown-h6-text-style; }
    & > .md-h1-box { background: $markdown-h1-background; }
    & > .md-h2-box { background: $markdown-h2-background; }
    & > .md-h3-box { background: $markdown-h3-background; }
    & > .md-h4-box { background: $markdown-h4-background; }
    & > .md-h5-box { background: $markdown-h5-background; }
    & > .md-h6-box { background: $markdown-h6-background; }
    & > .md-bullet { color: $text-primary; }
    &:light > .md-bullet { color: $text-secondary; }
    & > .md-quote-box { background: $boost; }
    & > .md-quote-bar { color: $text-primary 50%; }
    &:light > .md-quote-bar { color: $text-secondary; }
    & > .md-fence-box { background: black 10%; }
    &:light > .md-fence-box { background: white 30%; }
    & > .md-fence { color: rgb(210,210,210); }
    & > .md-table-box { }
    &:light > .md-table-box { background: white 30%; }
    & > .md-table-header { color: $primary; }
    & > .md-keyline { color: $foreground 20%; }
    & > .md-rule { color: $secondary; }
    & > .md-embed { color: $text-muted; }
    & > .md-embed-bar { color: $secondary; }
    &:ansi > .code_inline { background: ansi_default !important; }
    &:dark > .code_inline { background: $warning 10%; color: $text-warning 95%; }
    &:light > .code_inline { background: $error 5%; color: $text-error 95%; }
    & > .em { text-style: italic; }
    & > .strong { text-style: bold; }
    & > .s { text-style: strike; }
"""
"""The look of the style names rows use, as Textual's `Markdown` CSS sets it; a body
widget puts this under its own selector (`&`) and names `STYLE_NAMES` its component
classes. A `…-box` class is a block's background: rows name the boxes a cell is in
(`@md-quote-box md-fence-box`, see `box`), which the widget blends as it blends the
backgrounds of nested widgets."""
STYLE_NAMES: frozenset[str] = frozenset(
    {f"md-h{level}" for level in range(1, 7)}
    | {f"md-h{level}-box" for level in range(1, 7)}
    | {"md-bullet", "md-quote-box", "md-quote-bar", "md-fence-box", "md-fence", "md-rule"}
    | {"md-table-box", "md-table-header", "md-keyline", "md-embed", "md-embed-bar"}
    | set(WIDGET_STYLES)
)
BAR_PREFIX = "@bar"
"""A plain quote's bar (`@bar md-quote-box`): an `outer` border, drawn in the bar's
colour blended over the boxes outside the quote (the ones named after the prefix)."""


def box(boxes: Sequence[str]) -> str:
    """The style name of a cell inside `boxes` (outermost first): their background."""
    return "@" + " ".join(boxes)


# ------------------------------------------------------------------------- blocks


@dataclass(eq=False, slots=True, kw_only=True)
class Paragraph:
    """A paragraph (a callout's title is one too: `callout` holds its kind and fold,
    and its quote draws the title with the callout's glyph)."""

    content: Content = field(default_factory=Content)
    block_id: str | None = None
    callout: tuple[str, str] | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class Header:
    level: int
    content: Content = field(default_factory=Content)
    block_id: str | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class Rule:
    block_id: str | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class Fence:
    code: str
    language: str = ""
    block_id: str | None = None
    wrap: bool = False
    """Always drawn in rows, its long lines wrapped in the box, even at the top of a body
    where a wider fence gets a box of its own that scrolls sideways (a `$$` formula's
    TeX; `prepare`). Any fence drawn in rows wraps its long lines (`fence_rows`)."""
    grid: bool = False
    """Its lines stand side by side (a `$$` matrix drawn between tall brackets, a
    diagram): wrapped, they are cut all at the same columns (`grid_parts`), never one line
    at a time."""
    open_columns: frozenset[int] = frozenset()
    """A grid's columns best cut at (a diagram's, between its boxes)."""

    @property
    def lines(self) -> list[Content]:
        """The code, highlighted as `MarkdownFence` highlights it, a line each."""
        return highlight(self.code, language=self.language or None).split("\n", allow_blank=True)

    @property
    def natural_width(self) -> int:
        """Cells the fence needs for its code not to be cut (its padding included)."""
        return max((cell_len(line) for line in self.code.expandtabs(8).split("\n")), default=0) + 4


@dataclass(eq=False, slots=True, kw_only=True)
class Cell:
    content: Content = field(default_factory=Content)


@dataclass(eq=False, slots=True, kw_only=True)
class Table:
    headers: list[Content] = field(default_factory=list)
    rows: list[list[Content]] = field(default_factory=list)
    block_id: str | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class Quote:
    """A quote; a callout when `kind` is set (`fold`: `-` folded, `+` open, `` fixed)."""

    children: list[Block] = field(default_factory=list)
    kind: str = ""
    fold: str = ""
    block_id: str | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class Item:
    """A list item; `number` is an ordered item's number as written (`` unordered)."""

    children: list[Block] = field(default_factory=list)
    number: str = ""
    block_id: str | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class ListBlock:
    items: list[Item] = field(default_factory=list)
    ordered: bool = False
    block_id: str | None = None


@dataclass(eq=False, slots=True, kw_only=True)
class Embed:
    """`![[page#section]]` alone on a line (the body widget shows the page's text)."""

    href: str
    label: str
    block_id: str | None = None
    written: str | None = None
    """An Obsidian base written in the page (a ```` ```base ```` block's YAML)."""


Block = Paragraph | Header | Rule | Fence | Table | Quote | ListBlock | Embed
Container = Paragraph | Header | Cell | Quote | Item | ListBlock | Table


def blocks_of(tokens: Sequence[Token]) -> list[Block]:
    """The vault parser's tokens as a tree of blocks, as Textual's `Markdown` nests its
    block widgets (a table keeps its header cells and its rows of cells)."""
    top: list[Block] = []
    stack: list[Container] = []

    def add(block: Block) -> None:
        parent = stack[-1] if stack else None
        if isinstance(parent, Quote | Item):
            parent.children.append(block)
        elif isinstance(parent, ListBlock) and isinstance(block, Item):
            parent.items.append(block)
        elif parent is None:
            top.append(block)

    for token in tokens:
        kind, meta = token.type, token.meta
        block_id = str(meta["block_id"]) if meta.get("block_id") else None
        if kind == "heading_open":
            stack.append(Header(level=int(token.tag[1:]), block_id=block_id))
        elif kind == "paragraph_open":
            title = meta.get("callout_title")
            callout = (str(title), str(meta.get("callout_fold", ""))) if title else None
            stack.append(Paragraph(block_id=block_id, callout=callout))
        elif kind == "blockquote_open":
            fold = str(meta.get("fold", ""))
            stack.append(Quote(kind=str(meta.get("callout", "")), fold=fold, block_id=block_id))
        elif kind in ("bullet_list_open", "ordered_list_open"):
            stack.append(ListBlock(ordered=kind == "ordered_list_open", block_id=block_id))
        elif kind == "list_item_open":
            stack.append(Item(number=token.info, block_id=block_id))
        elif kind == "table_open":
            stack.append(Table(block_id=block_id))
        elif kind == "tr_open" and stack and isinstance(stack[-1], Table) and stack[-1].headers:
            stack[-1].rows.append([])  # a row of the body (the header's cells are `headers`)
        elif kind in ("th_open", "td_open"):
            stack.append(Cell())
        elif kind in ("th_close", "td_close"):
            _add_cell(stack, kind == "th_close")
        elif kind in _CLOSES and stack:
            add(stack.pop())  # type: ignore[arg-type]
        elif kind == "inline" and stack:
            _inline(stack[-1], token)
        elif kind in ("fence", "code_block"):
            code, drawn_as = token.content.rstrip(), meta.get(DRAWN_AS)
            grid, wrap = drawn_as == "grid", drawn_as == "rows"
            open_columns = frozenset(meta.get(OPEN_COLUMNS, ()))
            add(
                Fence(
                    code=code,
                    language=token.info,
                    block_id=block_id,
                    wrap=wrap,
                    grid=grid,
                    open_columns=open_columns,
                )
            )
        elif kind == "hr":
            add(Rule(block_id=block_id))
        elif kind == "vault_embed":
            href, label = str(meta.get("href", "")), str(meta.get("label", ""))
            written = meta.get("written")
            written = written if isinstance(written, str) else None
            add(Embed(href=href, label=label or href, block_id=block_id, written=written))
    return top


_CLOSES = frozenset(
    {"heading_close", "paragraph_close", "blockquote_close", "bullet_list_close"}
    | {"ordered_list_close", "list_item_close", "table_close"}
)
"""The tokens that end a block `blocks_of` keeps (a cell ends at `th_close`/`td_close`)."""


def _add_cell(stack: list[Container], header: bool) -> None:
    cell = stack.pop() if stack else None
    table = stack[-1] if stack else None
    if not isinstance(cell, Cell) or not isinstance(table, Table):
        return
    if header:
        table.headers.append(cell.content)
    elif table.rows:
        table.rows[-1].append(cell.content)


def _inline(block: Container, token: Token) -> None:
    if not isinstance(block, Paragraph | Header | Cell):
        return
    block.content = inline_content(token, WIDGET_STYLES)


# --------------------------------------------------------------------------- rows


@dataclass(slots=True)
class Row:
    """One screen row: `content` (bars, bullets and padding included), the body text
    line it shows (`line`, -1: none) and the offset in it of its cell `lead`; the
    cells in `fills` are padding, drawn in a background only (as a widget pads)."""

    content: Content
    line: int = -1
    x: int = 0
    lead: int = 0
    fills: tuple[tuple[int, int], ...] = ()
    heading: bool = False
    """Whether the row is the first of a heading."""
    anchors: tuple[str, ...] = ()
    """The block ids (`^id`) of the blocks starting on it."""
    margin: bool = False
    """Whether the row is a margin between blocks (a quote draws its own there)."""
    tips: tuple[tuple[int, int, str], ...] = ()
    """(first cell, end cell, text) of each table cell on the row: its tooltip."""

    def shifted(self, head: Content, head_fills: tuple[tuple[int, int], ...] = ()) -> None:
        """Put `head` before the row (its `head_fills` padding)."""
        size = len(head)
        self.fills = (*head_fills, *((start + size, end + size) for start, end in self.fills))
        self.tips = tuple((start + size, end + size, text) for start, end, text in self.tips)
        self.content = head + self.content
        self.lead += size

    def padded(self, width: int) -> None:
        """Pad the row to `width` cells (padding)."""
        gap = width - self.content.cell_length
        if gap > 0:
            end = len(self.content)
            self.content += Content(" " * gap)
            self.fills = (*self.fills, (end, end + gap))


@dataclass(slots=True)
class Drawing:
    """Blocks drawn at one width: the rows, the text lines they show, where each
    heading and block id is (a row), and each foldable callout's rows."""

    rows: list[Row] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    headings: list[int] = field(default_factory=list)
    anchors: dict[str, int] = field(default_factory=dict)
    folds: list[tuple[int, int, int]] = field(default_factory=list)
    """(first row, end row, index of the callout among the top-level blocks)."""
    spans: list[tuple[int, int]] = field(default_factory=list)
    """(first row, end row) of each top-level block."""

    def text(self) -> Content:
        """What the rows show, a line each (what a text search finds where)."""
        return Content("\n").join(row.content for row in self.rows)


@dataclass(frozen=True, slots=True)
class _Where:
    """Where a block is drawn: at the top of the body (a paragraph's margin, a
    callout that folds), inside a list (a nested list has no margin), the boxes it is
    in (their backgrounds), and how deep in unordered lists (the bullet)."""

    top: bool = True
    in_list: bool = False
    boxes: tuple[str, ...] = ()
    bullets: int = 0

    def inside(self, **changes: object) -> _Where:
        values: dict[str, object] = {
            "in_list": self.in_list,
            "boxes": self.boxes,
            "bullets": self.bullets,
        }
        values.update(changes)
        return _Where(top=False, **values)  # type: ignore[arg-type]


def margins(block: Block, where: _Where = _Where()) -> tuple[int, int]:
    """Rows above and below `block`, as Textual's `Markdown` CSS sets them."""
    if isinstance(block, Paragraph):
        return (0, 1) if where.top else (0, 0)
    if isinstance(block, Header):
        return (2, 1) if block.level <= 2 else (1, 1)
    if isinstance(block, Quote | Fence):
        return (1, 1)
    if isinstance(block, ListBlock):
        return (0, 0) if where.in_list else (0, 1)
    return (0, 1)  # rules, tables, embeds


def draw(
    blocks: Sequence[Block],
    width: int,
    folded: Collection[int] | None = None,
    *,
    outer: bool = True,
) -> Drawing:
    """`blocks` (top-level ones) drawn `width` cells wide; the callouts whose index is
    in `folded` folded (None: as they start, `starts_folded`). `outer`: with the first
    block's margin above and the last one's below (a body piece leaves them to its
    widget's margins)."""
    if folded is None:
        folded = starts_folded(blocks)
    drawing = Drawing()
    drawing.rows = _Pen(drawing).stack(blocks, max(1, width), _Where(), folded, outer)
    for number, row in enumerate(drawing.rows):
        if row.heading:
            drawing.headings.append(number)
        for anchor in row.anchors:
            drawing.anchors.setdefault(anchor, number)
    return drawing


def starts_folded(blocks: Sequence[Block]) -> set[int]:
    """The callouts among `blocks` that start folded (`> [!tip]- Title`)."""
    return {n for n, block in enumerate(blocks) if isinstance(block, Quote) and block.fold == "-"}


class _Pen:
    """Draws blocks into rows, collecting the text lines they show in `drawing`."""

    def __init__(self, drawing: Drawing) -> None:
        self.drawing = drawing

    def stack(
        self,
        blocks: Sequence[Block],
        width: int,
        where: _Where,
        folded: Collection[int] = (),
        outer: bool = True,
    ) -> list[Row]:
        """Blocks one under the other, their margins collapsed (the larger of two)."""
        rows: list[Row] = []
        gap: int | None = None
        for index, block in enumerate(blocks):
            above, below = margins(block, where)
            if gap is not None:
                rows += _blank(max(gap, above))
            elif outer:
                rows += _blank(above)
            start = len(rows)
            drawn = self.block(block, width, where, where.top and index in folded)
            _anchor(block.block_id, drawn)
            rows += drawn
            if where.top:
                self.drawing.spans.append((start, len(rows)))
            if where.top and isinstance(block, Quote) and block.fold:
                self.drawing.folds.append((start, len(rows), index))
            gap = below
        if gap and outer:
            rows += _blank(gap)
        return rows

    def block(self, block: Block, width: int, where: _Where, folded: bool = False) -> list[Row]:
        if isinstance(block, Paragraph):
            return self.text(block.content, width)
        if isinstance(block, Header):
            return self.heading(block, width, where)
        if isinstance(block, Quote):
            # a callout inside another block shows as it starts: Textual's folds on a click
            return self.quote(block, width, where, folded if where.top else block.fold == "-")
        if isinstance(block, ListBlock):
            return self.list(block, width, where)
        if isinstance(block, Fence):
            return fence_rows(block, width, where.boxes)
        if isinstance(block, Table):
            return self.table(block, width, where)
        if isinstance(block, Embed):
            return self.embed(block, width, where)
        return rule_rows(width)

    # -- text

    def line(self, text: str) -> int:
        self.drawing.lines.append(text)
        return len(self.drawing.lines) - 1

    def text(self, content: Content, width: int, style: str = "") -> list[Row]:
        """A paragraph's lines, each wrapped `width` wide (Textual's own wrapping)."""
        rows: list[Row] = []
        for line in content.split("\n", allow_blank=True):
            line = line.expand_tabs(8)
            if style:
                line = line.stylize_before(style)
            number = self.line(line.plain)
            for part, x in wrapped(line, width):
                rows.append(Row(part, number, x))
        return rows

    def heading(self, block: Header, width: int, where: _Where) -> list[Row]:
        """A heading in its level's style on its background; an H1 centred as a block
        (its padding in its style, as Textual aligns it)."""
        style = f".md-h{block.level}"
        rows = self.text(block.content, width, style)
        rows = rows or [Row(Content(""))]
        rows[0].heading = True
        inside = box((*where.boxes, f"md-h{block.level}-box"))
        if block.level == 1:
            pad = max(0, (width - max(row.content.cell_length for row in rows)) // 2)
            for row in rows:
                row.shifted(_aligning(pad, style))
                row.content += _aligning(width - row.content.cell_length, style)
        for row in rows:
            if block.level != 3:
                row.padded(width)
                row.content = row.content.stylize_before(inside)
            else:
                text = len(row.content)
                row.content = row.content.stylize_before(inside, 0, text)
        return rows

    # -- containers

    def quote(self, block: Quote, width: int, where: _Where, folded: bool) -> list[Row]:
        """Rows with a bar, a cell of padding each side, on the quote's background; a
        callout's bar in its tone; folded, its title only."""
        boxes = (*where.boxes, "md-quote-box")
        inner = where.inside(boxes=boxes)
        children = list(block.children[:1] if folded else block.children)
        title = children[0] if children else None
        if isinstance(title, Paragraph) and title.callout is not None:
            kind, fold = title.callout
            content = callout_title(kind, title.content, fold, folded)
            children[0] = Paragraph(content=content, block_id=title.block_id)
        rows = self.stack(children, max(1, width - 3), inner)
        while rows and rows[-1].margin:  # no blank under its last block (a list, a code box)
            rows.pop()
        for row in rows:
            if row.margin:  # between its blocks a quote shows itself: its text's style
                row.content = Content(" " * max(1, width - 3))
        if block.kind:
            bar = TONE_COLORS[callout_tone(block.kind)]
        else:
            bar = f"{BAR_PREFIX} {' '.join(where.boxes)}".rstrip()
        for row in rows:
            row.shifted(Content.assemble((QUOTE_BAR, bar), " "), ((1, 2),))
            row.padded(width)
            row.content = row.content.stylize_before(box(boxes))
        return rows

    def list(self, block: ListBlock, width: int, where: _Where) -> list[Row]:
        """Each item's blocks beside its bullet (a column as wide as the bullet, in the
        bullet's style down the item's rows), as Textual's list widgets lay them out; the
        first block without its margin above (as `VaultMarkdown`'s CSS has it), so the
        bullet is on its first row: a heading item (`- ## Basics`, how Logseq writes a
        heading) reads as one line, as a browser and Logseq show it, not a bullet over a
        blank row."""
        rows: list[Row] = []
        for symbol, item in bullets(block, where.bullets):
            size = cell_len(symbol)
            deeper = where.bullets + (0 if block.ordered else 1)
            inner = where.inside(in_list=True, bullets=deeper)
            drawn = self.stack(item.children, max(1, width - size), inner)
            while drawn and drawn[0].margin:  # the bullet sits beside its first block
                del drawn[0]
            _anchor(item.block_id, drawn)
            for number, row in enumerate(drawn):
                head = symbol if number == 0 else " " * size
                row.shifted(Content.styled(head, ".md-bullet"))
            rows += drawn
        return rows

    def table(self, block: Table, width: int, where: _Where) -> list[Row]:
        rows = table_rows(block, width)
        inside = box((*where.boxes, "md-table-box"))
        for row in rows:
            row.line = self.line(row.content.plain)
            row.content = row.content.stylize_before(inside)
        return rows

    def embed(self, block: Embed, width: int, where: _Where) -> list[Row]:
        """An embed drawn in a body's text (inside a list or quote, or in an embed's
        preview): its name, in the embed's box."""
        head = Content.assemble((f"{EMBED_GLYPH} ", "bold"), (block.label, "bold underline"))
        rows = self.text(head.stylize_before(".md-embed"), max(1, width - 3))
        for row in rows:
            row.shifted(Content.assemble((QUOTE_BAR, ".md-embed-bar"), " "), ((1, 2),))
            row.padded(width)
        return rows


def _aligning(cells: int, style: str) -> Content:
    """The spaces that centre a line, as Textual aligns one (its style, `reverse` off)."""
    return Content.styled(" " * max(0, cells), style).stylize(Style(reverse=False))


def _anchor(block_id: str | None, rows: list[Row]) -> None:
    """Name the first of `rows` by a block id (`[[Page#^id]]` scrolls there)."""
    if block_id is not None and rows:
        rows[0].anchors = (*rows[0].anchors, block_id)


def bullets(block: ListBlock, depth: int) -> list[tuple[str, Item]]:
    """(bullet, item) per item, as Textual's list widgets mark and number them."""
    if not block.ordered:
        return [(BULLETS[depth % len(BULLETS)], item) for item in block.items]
    first = block.items[0].number if block.items else ""
    start = int(first) if first.isdigit() else 1
    numbers = range(start, start + len(block.items))
    size = max((len(f"{number}. ") for number in numbers), default=0)
    return [
        (f"{number}. ".rjust(size + 1), item)
        for number, item in zip(numbers, block.items, strict=True)
    ]


def fence_rows(block: Fence, width: int, boxes: Sequence[str] = ()) -> list[Row]:
    """A fenced block as `MarkdownFence` draws it: a padded box (a row above and below,
    two cells each side) on the fence's background, a line longer than the box wrapped
    inside it. A fence wider than the body at its top scrolls sideways in a box of its own
    (`prepare`); one drawn here in a quote, a callout or a list cannot, and its code cut
    at the box's edge was lost to the reader (`# buscar` → `# busc`). A grid's lines are
    cut together (`grid_parts`), each part of the grid under the one before, a row apart."""
    inside = box((*boxes, "md-fence-box"))
    lines = [line.expand_tabs(8).stylize_before(".md-fence") for line in block.lines]
    if block.grid:
        body = grid_parts(lines, width - 4, block.open_columns)
    else:
        body = [part for line in lines for part, _ in wrapped(line, width - 4)]
    rows = [Row(part) for part in (Content(""), *body, Content(""))]
    for row in rows[1:-1]:
        row.shifted(Content("  "), ((0, 2),))
        if row.content.cell_length > width:
            row.content = row.content.truncate(width)
    for row in rows:
        row.padded(width)
        row.content = row.content.stylize_before(inside)
    return rows


def grid_parts(
    lines: Sequence[Content], width: int, open_columns: Collection[int] = ()
) -> list[Content]:
    """The lines of a grid (`Fence.grid`) at most `width` cells wide: all cut at the same
    columns, the first part of every line, a blank line, then the next part of every
    line, as a wide array is printed. A cut falls where every line has a space (between
    two matrices) where one does within `width`, else at one of `open_columns` (a
    diagram's, between its boxes); else at `width`."""
    width = max(1, width)
    grid = _Grid([line.plain for line in lines], open_columns)
    parts: list[Content] = []
    start = 0
    while start < grid.width:
        end = grid.width if grid.width - start <= width else grid.cut(start, width)
        if parts:
            parts.append(Content(""))
        for number, line in enumerate(lines):
            parts.append(line[grid.char(number, start) : grid.char(number, end)].rstrip())
        start = end
        while start < grid.width and grid.blank_at(start):
            start += 1  # the next part starts at its first character, not a gap
    return parts or [Content("")] * len(lines)


CLOSING = frozenset(TALL[")"] + TALL["]"] + "⎫⎭")
"""The pieces of a tall closing bracket (`core.math_text.TALL`; not a brace's middle, which
is an opening one's too): a grid is best cut after one."""


class _Grid:
    """Where each line of a grid's text has its characters, by cell."""

    def __init__(self, plains: Sequence[str], open_columns: Collection[int] = ()) -> None:
        self.plains = plains
        self.open_columns = open_columns
        self.starts: list[list[int]] = []
        """The cell each character of a line starts at, then the line's cells."""
        for plain in plains:
            starts, at, run = [], 0, RunCells()  # cells as Rich counts them (`tui.cells`)
            for character in plain:
                starts.append(at)
                at += run.add(character)
            self.starts.append([*starts, at])
        self.width = max((starts[-1] for starts in self.starts), default=0)

    def char(self, number: int, cell: int) -> int:
        """The first character of line `number` at or after `cell` (past its end: its length)."""
        starts = self.starts[number]
        return bisect_left(starts, cell, hi=len(starts) - 1)

    def blank_at(self, cell: int) -> bool:
        """Every line has a space at `cell`, or has ended."""
        return all(
            (at := self.char(number, cell)) >= len(plain) or plain[at] == " "
            for number, plain in enumerate(self.plains)
        )

    def cut(self, start: int, width: int) -> int:
        """Where a part starting at `start` ends: the last blank column within `width`
        right after a matrix's closing bracket, else after a gap of two blank columns
        (between a matrix's columns), else the last blank column (not `start` itself),
        else the last of `open_columns` (a diagram's: only its links cross them), else
        `start + width`."""
        ends = range(start + width, start, -1)
        blank = [end for end in ends if self.blank_at(end)]
        closed = [end for end in blank if self.closes_at(end - 1)]
        gaps = [end - 1 for end in blank if end - 1 > start and self.blank_at(end - 1)]
        opened = [end for end in ends if end in self.open_columns]
        return (closed or gaps or blank or opened or [start + width])[0]

    def closes_at(self, cell: int) -> bool:
        """A line has a tall closing bracket's piece at `cell`."""
        return any(
            (at := self.char(number, cell)) < len(plain) and plain[at] in CLOSING
            for number, plain in enumerate(self.plains)
        )


def rule_rows(width: int) -> list[Row]:
    """A rule as `MarkdownHorizontalRule` draws it: a row of padding, then the line."""
    return [Row(Content("")), Row(Content.styled("─" * width, ".md-rule"))]


def _blank(count: int) -> list[Row]:
    return [Row(Content(""), margin=True) for _ in range(count)]


def wrapped(line: Content, width: int) -> list[tuple[Content, int]]:
    """`line` (no newline) wrapped `width` cells wide as Textual wraps a `Static`'s
    text, with the offset in `line` each screen row starts at; a line of Chinese or
    Japanese also between its characters, as a browser wraps it (`cjk_wrap`)."""
    plain = line.plain
    if has_wide_script(plain):
        cuts = cjk_cuts(plain, width)
        parts = line.divide(cuts) if cuts else [line]
        return [(part.rstrip(), at) for part, at in zip(parts, [0, *cuts], strict=True)]
    rows = line.wrap(max(1, width))
    at, found = 0, []
    for number, row in enumerate(rows):
        if number:
            while at < len(plain) and plain[at] == " ":
                at += 1  # the spaces a wrap ends a row with are not drawn
        found.append((row, at))
        at += len(row.plain)
    return found


# -------------------------------------------------------------------------- tables

CELL_RULES = {"text_overflow": "fold"}
"""What a table cell sets that changes how its text wraps: a word longer than its column
folds onto the cell's next row (Textual's cells cut it with an ellipsis, and its text was
a mouse's tooltip only; `plain.py`'s CSS makes the `Markdown` widget agree)."""


def table_rows(block: Table, width: int) -> list[Row]:
    """A table as Textual's `MarkdownTable` grid draws it `width` cells wide: columns
    sized to their cells then grown or shrunk in proportion to fill the width (never
    under a column's longest word), cells wrapped with a cell of padding each side (a
    word longer than its column folded, `CELL_RULES`), headers at the bottom of their
    row, thin keylines round every cell. Each row says which cells are padding
    (`Row.fills`) and which cell shows which text (`Row.tips`: a cell's tooltip, as
    Textual's cells have)."""
    columns = max(len(block.headers), 1)
    grid = [row[:columns] for row in [list(block.headers), *block.rows] if row]
    if not grid:
        return []
    sizes = column_widths(grid, columns, width)
    lines = [Row(_keyline("┌", "┬", "┐", sizes))]
    for number, row in enumerate(grid):
        cells = [_cell_lines(cell, size - 2) for cell, size in zip(row, sizes, strict=False)]
        height = max((len(drawn) for drawn in cells), default=0)
        for y in range(height):
            parts = [Content.styled("│", ".md-keyline")]
            fills: list[tuple[int, int]] = []
            tips: list[tuple[int, int, str]] = []
            at = 1
            for column, size in enumerate(sizes):
                drawn = cells[column] if column < len(cells) else []
                pad = height - len(drawn) if number == 0 else 0  # headers sit at the bottom
                text = drawn[y - pad] if 0 <= y - pad < len(drawn) else Content("")
                if size > 0:
                    below = number > 0 and y >= len(drawn)  # under a cell's text: its own rows
                    cell, cell_fills = _cell(text, size, number == 0, number == 0 or below)
                    parts.append(cell)
                    fills += [(at + start, at + end) for start, end in cell_fills]
                    if column < len(row):
                        tips.append((at, at + len(cell), row[column].plain))
                    at += len(cell)
                parts.append(Content.styled("│", ".md-keyline"))
                at += 1
            lines.append(Row(Content("").join(parts), fills=tuple(fills), tips=tuple(tips)))
        last = number == len(grid) - 1
        closing = _keyline("└", "┴", "┘", sizes) if last else _keyline("├", "┼", "┤", sizes)
        lines.append(Row(closing))
    return lines


def _cell(
    text: Content, size: int, header: bool, aligned: bool
) -> tuple[Content, list[tuple[int, int]]]:
    """A cell `size` wide: a cell of padding each side of its text, and which of its
    cells are padding (drawn in a background only). A header's text area is all in
    its style (`aligned`): Textual aligns a header to the bottom, padding its lines in
    its style, as it pads a cell taller than its text."""
    gap = max(0, size - 2 - text.cell_length)
    inner = text + Content(" " * gap)
    if header:
        inner = inner.stylize_before(".md-table-header")
    cell = Content(" ") + inner + Content(" " * min(1, size - 1))
    end = 1 + len(text)
    fills = [(0, 1), (len(cell) - 1, len(cell))] if aligned else [(0, 1), (end, len(cell))]
    return cell, [(start, stop) for start, stop in fills if start < stop]


def _levelled(widths: list[Fraction], total: int) -> list[Fraction]:
    """`widths` cut down to the one level at which they add up to `total` (those under
    it unchanged): the widest columns give up room first."""
    left, rest = Fraction(total), len(widths)
    for width in sorted(widths):
        if width * rest >= left:  # this one and the wider share what is left alike
            level = left / rest
            return [min(width, level) for width in widths]
        left -= width
        rest -= 1
    return widths  # they fit as they are


def _keyline(left: str, middle: str, right: str, sizes: list[int]) -> Content:
    return Content.styled(left + middle.join("─" * size for size in sizes) + right, ".md-keyline")


def _cell_lines(cell: Content, width: int) -> list[Content]:
    if width <= 0:
        return []
    return [line for line in cell.wrap(width, overflow=CELL_RULES["text_overflow"])]


def column_widths(grid: list[list[Content]], columns: int, width: int) -> list[int]:
    """Each column's width (padding included, keylines not): Textual's grid with
    `auto` columns, `expand` and `shrink`, each column as wide as its widest cell,
    then the spare room shared (or the excess taken) in proportion, a column never
    under its longest word (`minimums`)."""
    optimal, minimum = [0] * columns, [1] * columns
    for row in grid:
        for column, cell in enumerate(row):
            optimal[column] = max(optimal[column], cell.get_optimal_width(CELL_RULES, 0) + 2)
            minimum[column] = max(minimum[column], cell.get_minimal_width(CELL_RULES) + 2)
    total = max(0, width - 2 - (columns - 1))  # the frame, and a keyline between columns
    return _share(optimal, total, minimum)


def _share(widths: list[int], total: int, minimums: list[int]) -> list[int]:
    """`widths` grown or shrunk to `total` in proportion (fractions, as Textual resolves
    grid columns), each shrunk column kept at its minimum where it can be. Where the
    minimums do not fit, the widest columns are narrowed to a level and the others keep
    their longest words (`_levelled`; Textual shrinks every column in proportion, and a
    column of short words folded them all: `Val` over `ue`)."""
    fractions = [Fraction(width) for width in widths]
    used = sum(fractions)
    if 0 < used < total:
        fractions = [width + width / used * (total - used) for width in fractions]
    excess = sum(fractions) - total
    if excess > 0:
        used = sum(fractions)
        floors = map(Fraction, minimums)
        for index, (minimum, width) in enumerate(zip(floors, fractions, strict=True)):
            removed = max(width / used, Fraction(1)) * excess
            fractions[index] = max(minimum, width - removed)
            used = used - width + fractions[index]
            excess = used - total
            if excess <= 0:
                break
        if sum(fractions) > total:  # the longest words do not fit: fold theirs first
            fractions = _levelled(fractions, total)
    offsets, at = [0], Fraction(0)
    for width in fractions:
        at += width
        offsets.append(int(at.__floor__()))
    return [end - start for start, end in pairwise(offsets)]
