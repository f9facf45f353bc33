"""A Markdown table as one widget: what Textual's table widgets draw, without a widget a cell.

Textual's `MarkdownTable` mounts a grid container (`MarkdownTableContent`) holding a
`Static` per cell, about 1 ms each on a page's first screen (a 3×3 table: 11
widgets). `VaultTable` draws the same thing itself (`GridTable`): the columns sized
by Textual's own grid arithmetic (`resolve`: each column as wide as its widest cell,
then grown or shrunk in proportion to fill the width, never under its longest word),
each row as tall as its tallest wrapped cell, the keylines drawn with Textual's own
`Canvas`, headers in the header colour at the bottom of their row, cells cut with an
ellipsis as the library's cells are. Links in cells stay clickable and a cell's text
is its tooltip. Off under `OKF_EXPLORER_PLAIN=1`. Equivalence with the library path
is tested (`tests/tui/test_first_draw.py`); the gain is in `docs/performance.md`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import events
from textual._resolve import resolve
from textual.app import ComposeResult, RenderResult
from textual.canvas import Canvas, Rectangle
from textual.color import Color
from textual.content import Content
from textual.css.scalar import Scalar
from textual.css.styles import RulesMap
from textual.geometry import Offset, Size
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widgets._markdown import MarkdownTable

from okf_explorer.core import fast_paths
from okf_explorer.tui.markdown.fast_list import own_components_only

HEADER = "vault-table--header"
KEYLINE = "vault-table--keyline"
CELL_RULES: RulesMap = {"text_overflow": "ellipsis"}
"""What Textual's table cells set that changes how their text wraps."""


@dataclass(frozen=True)
class Layout:
    """Where the cells go for one width: (offset, width) per column, (offset, height)
    per row, inside a frame of one keyline."""

    columns: list[tuple[int, int]]
    rows: list[tuple[int, int]]
    height: int


class GridTable(Visual):
    """Header and rows of cells in keylined columns, as Textual's table grid lays them out."""

    def __init__(self, cells: list[Content], columns: int, keyline: Color) -> None:
        self.cells = cells
        """The headers, then every row's cells, in order (the grid fills rows from them)."""
        self.column_count = max(1, columns)
        self.keyline = keyline
        self._layout: tuple[int, Layout] | None = None

    @property
    def plain(self) -> str:
        """The cells' text, a line a row (what a text search finds in it)."""
        count = self.column_count
        rows = (self.cells[n : n + count] for n in range(0, len(self.cells), count))
        return "\n".join(" ".join(cell.plain for cell in row) for row in rows)

    def layout(self, width: int) -> Layout:
        if self._layout is not None and self._layout[0] == width:
            return self._layout[1]
        if not self.cells:
            return Layout([], [], 0)
        count = self.column_count
        grid = [self.cells[n : n + count] for n in range(0, len(self.cells), count)]
        inner = Size(max(0, width - 2), 0)
        widths, minimums = [0] * count, [1] * count
        for row in grid:
            for column, cell in enumerate(row):
                widths[column] = max(widths[column], cell.get_optimal_width(CELL_RULES, 0) + 2)
                minimums[column] = max(minimums[column], cell.get_minimal_width(CELL_RULES) + 2)
        scalars = [Scalar.from_number(value) for value in widths]
        columns = resolve(
            scalars, inner.width, 1, inner, inner, expand=True, shrink=True, minimums=minimums
        )
        heights = [
            max(
                (cell.get_height(CELL_RULES, columns[n][1] - 2) if columns[n][1] > 2 else 0)
                for n, cell in enumerate(row)
            )
            for row in grid
        ]
        rows, y = [], 0
        for height in heights:
            rows.append((y, height))
            y += height + 1
        layout = Layout(columns, rows, max(0, y - 1) + 2)
        self._layout = (width, layout)
        return layout

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.layout(width).height

    def cell_at(self, width: int, x: int, y: int) -> Content | None:
        """The cell drawn at (`x`, `y`) of a table `width` wide, if any."""
        layout = self.layout(width)
        for row, (top, height) in enumerate(layout.rows):
            for column, (left, cell_width) in enumerate(layout.columns):
                index = row * self.column_count + column
                inside = left < x <= left + cell_width and top < y <= top + height
                if inside and index < len(self.cells):
                    return self.cells[index]
        return None

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        layout = self.layout(width)
        boxes = []
        count = self.column_count
        for index in range(len(self.cells)):
            left, cell_width = layout.columns[index % count]
            top, row_height = layout.rows[index // count]
            boxes.append(Rectangle(Offset(left, top), cell_width + 2, row_height + 2, self.keyline))
        canvas = Canvas(width, layout.height).render(boxes, style.rich_style)
        lines: list[Strip] = list(canvas._strips)
        header = style + options.get_style(f".{HEADER}")
        for index, cell in enumerate(self.cells):
            left, cell_width = layout.columns[index % count]
            top, row_height = layout.rows[index // count]
            is_header = index < count
            drawn = _cell_lines(
                cell, cell_width, row_height, header if is_header else style, options, is_header
            )
            for offset, strip in enumerate(drawn):
                y = top + 1 + offset
                line = lines[y]
                lines[y] = Strip.join(
                    [line.crop(0, left + 1), strip, line.crop(left + 1 + cell_width, width)]
                )
        return lines[:height] if height is not None else lines


def _cell_lines(
    cell: Content, width: int, height: int, style: Style, options: RenderOptions, bottom: bool
) -> list[Strip]:
    """A cell's lines `width` wide (a cell's padding of one on each side), `height`
    of them, its text at the top (or the `bottom`, as a header's)."""
    inner = width - 2
    formatted = (
        cell._wrap_and_format(inner, overflow="ellipsis", get_style=options.get_style, tab_size=8)
        if inner > 0
        else []
    )
    rich = style.rich_style
    texts = [Strip(*line.to_strip(style)) for line in formatted][:height]
    blank = Strip.blank(inner, rich) if inner > 0 else Strip([])
    padding = [blank] * (height - len(texts))
    body = [*padding, *texts] if bottom else [*texts, *padding]
    side = Strip.blank(1, rich)
    return [
        Strip.join([side, text.extend_cell_length(inner, rich), side]).crop(0, width)
        for text in body
    ]


@own_components_only
class VaultTable(MarkdownTable):
    """A table drawn by one widget (`GridTable`), as `MarkdownTable` draws it."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {HEADER, KEYLINE}
    DEFAULT_CSS = f"""
    VaultTable {{
        & > .{HEADER} {{ color: $primary; }}
        & > .{KEYLINE} {{ color: $foreground 20%; }}
    }}
    """

    _cells: list[Content] | None = None

    @property
    def cells(self) -> list[Content]:
        """The headers, then every row's cells (read from the blocks once)."""
        if self._cells is None:
            self._headers, self._rows = self._get_headers_and_rows()
            self._cells = [*self._headers, *(cell for row in self._rows for cell in row)]
        return self._cells

    _fast: bool | None = None

    @property
    def fast(self) -> bool:
        """Whether this table draws itself (fast paths on when it was first asked)."""
        if self._fast is None:
            self._fast = fast_paths.enabled()
        return self._fast

    def compose(self) -> ComposeResult:
        if not self.fast:
            return super().compose()
        self.cells  # noqa: B018 -- read before the blocks are let go
        self._blocks.clear()
        return iter(())

    def render(self) -> RenderResult:
        if not self.fast:
            return super().render()
        keyline = self.background_colors[0] + self.get_component_styles(KEYLINE).color
        return GridTable(self.cells, len(self._headers), keyline)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        table = self._render()
        cell = None
        if isinstance(table, GridTable):
            cell = table.cell_at(self.content_size.width, event.x, event.y)
        tooltip = cell.plain if cell is not None and cell.plain else None
        if tooltip != self.tooltip:  # as the library's cells, each with its own tooltip
            self.tooltip = tooltip
