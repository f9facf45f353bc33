"""A table of one-line rows with a cursor on a whole row, drawn a line at a time.

The slice, path and walk views showed their rows in Textual's `DataTable`. It renders each
cell through Rich's console (padding, wrapping, a cache per cell), so a page opened drew
its traversal table's rows cell by cell: about a sixth of the time `enter` took on the
sample brain. Our rows are one line each and every cell is already cut to its column, so
this table only lays the cells side by side. A row's cells are made when the row is
first drawn (or asked for), so a slice of a thousand rows costs nothing until it is seen.

It looks as `DataTable` looked (a bold header, zebra stripes, the block cursor, the same
theme variables, the row under the mouse lit until a key moves the cursor) and keeps its
keys: `up` / `down`, `pageup` / `pagedown`, `home` / `end` (and with `ctrl`) and `enter`; a
click chooses a row. A cell longer than its column ends in `…`; the table never scrolls
sideways (views lay their columns out for `row_width`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

Cell = str | int | Text
"""A cell as shown: a `str` is plain text (never markup), a number its digits."""

PADDING = 1
"""Blank cells on each side of a cell, as `DataTable` pads them."""


class Column(NamedTuple):
    label: str
    width: int
    """The cells of text the column shows (its padding not counted)."""


class Row(NamedTuple):
    key: str
    cells: Sequence[Cell]


class _LineStyles(NamedTuple):
    """The styles of a table's lines, as its CSS and focus give them."""

    base: Style
    header: Style
    odd: Style
    even: Style
    cursor: Style
    cursor_colour: Style
    hover: Style


MakeRow = Callable[[int], Row]
"""`make(number)` → table row `number`, made when it is first drawn or asked for."""


class RowTable(ScrollView, can_focus=True):
    """Columns of fixed widths over rows of one line; `cursor_row` is the row chosen."""

    DEFAULT_CSS = """
    RowTable {
        background: $surface;
        color: $foreground;
        overflow-x: hidden;
        &:focus {
            background-tint: $foreground 5%;
            & > .row-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .row-table--header { background-tint: $foreground 5%; }
        }
        &:dark > .row-table--even-row { background: $surface-darken-1 40%; }
        & > .row-table--header { text-style: bold; background: $panel; color: $foreground; }
        &:ansi > .row-table--header { background: ansi_bright_blue; color: ansi_default; }
        & > .row-table--even-row { background: $surface-lighten-1 50%; }
        & > .row-table--hover { background: $block-hover-background; }
        & > .row-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "row-table--header",
        "row-table--even-row",
        "row-table--cursor",
        "row-table--hover",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Select", show=False),
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home,ctrl+home", "first", "Top", show=False),
        Binding("end,ctrl+end", "last", "Bottom", show=False),
    ]

    class RowHighlighted(Message):
        """The cursor is on row `cursor_row` (moved there, or rows came under it)."""

        def __init__(self, table: RowTable, cursor_row: int) -> None:
            super().__init__()
            self.table = table
            self.cursor_row = cursor_row

        @property
        def control(self) -> RowTable:
            return self.table

    class RowSelected(Message):
        """Row `cursor_row` (key `key`) was chosen: `enter` or a click."""

        def __init__(self, table: RowTable, cursor_row: int, key: str) -> None:
            super().__init__()
            self.table = table
            self.cursor_row = cursor_row
            self.key = key

        @property
        def control(self) -> RowTable:
            return self.table

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.columns: list[Column] = []
        self._rows: list[Row | MakeRow] = []
        """Each row, or what makes it (a row not yet drawn nor asked for)."""
        self.cursor_row = 0
        self._hover: int | None = None
        """The row under the mouse, lit until a key moves the cursor (None: none)."""
        self._lines: dict[tuple[int, bool, bool, int], Strip] = {}
        """Drawn lines by (row, under the cursor, under the mouse, width); -1 is the
        header. Emptied whenever what they show or their styles change."""
        self._styles: _LineStyles | None = None

    # ------------------------------------------------------------------ contents

    @property
    def row_count(self) -> int:
        return len(self._rows)

    @property
    def row_width(self) -> int:
        """The cells a row may take: the table's width less its scroll bar's, kept free
        whether the bar shows or not (so rows coming or going never ask for the columns
        to be laid out again). Columns laid out wider are cut at the table's edge: it
        never scrolls sideways."""
        return max(0, self.size.width - self.styles.scrollbar_size_vertical)

    def clear(self, columns: bool = False) -> None:
        """No rows (and no columns, if asked); the cursor back on the first row."""
        self._rows = []
        if columns:
            self.columns = []
        self.cursor_row = 0
        self.scroll_to(0, 0, animate=False, immediate=True)
        self._changed()

    def add_column(self, label: str, width: int | None = None) -> None:
        """A column `width` cells wide (its label's width if not given)."""
        self.columns.append(Column(label, len(label) if width is None else max(0, width)))
        self._changed()

    def add_columns(self, *labels: str) -> None:
        for label in labels:
            self.add_column(label)

    def add_row(self, *cells: Cell, key: str) -> None:
        self._append([Row(key, cells)])

    def extend(self, rows: Sequence[Row]) -> None:
        """`rows` added at once (one new size and one refresh, not one a row)."""
        self._append(list(rows))

    def add_rows(self, count: int, make: MakeRow) -> None:
        """`count` rows more, row `n` made by `make(n)` when it is first drawn or asked."""
        self._append([make] * count)

    def row(self, number: int) -> Row:
        """Table row `number`, made now if it was not yet."""
        row = self._rows[number]
        if not isinstance(row, Row):
            row = self._rows[number] = row(number)
        return row

    def _append(self, rows: list[Row | MakeRow]) -> None:
        was_empty = not self._rows
        self._rows.extend(rows)
        self._changed(keep_lines=True)  # rows below the last change no line drawn
        if was_empty and self._rows:
            self.post_message(self.RowHighlighted(self, self.cursor_row))

    def _changed(self, keep_lines: bool = False) -> None:
        width = sum(column.width + 2 * PADDING for column in self.columns)
        self.virtual_size = Size(width, len(self._rows) + 1)
        if not keep_lines:
            self._lines.clear()
        self.refresh()

    # ------------------------------------------------------------------ the cursor

    def move_cursor(self, row: int, animate: bool = False) -> None:
        """The cursor on `row` (kept to the rows there are), scrolled into sight."""
        row = max(0, min(row, len(self._rows) - 1))
        moved = row != self.cursor_row
        self.cursor_row = row
        self._scroll_to_cursor(animate)
        if moved:
            self.refresh()  # lines are kept apart by whether the cursor is on them
            self.post_message(self.RowHighlighted(self, row))

    def _scroll_to_cursor(self, animate: bool) -> None:
        shown = self._rows_shown()
        top = round(self.scroll_y)
        if self.cursor_row < top:
            top = self.cursor_row
        elif self.cursor_row >= top + shown:
            top = self.cursor_row - shown + 1
        self.scroll_to(y=top, animate=animate, immediate=True)

    def _rows_shown(self) -> int:
        """The rows in sight under the header."""
        return max(1, self.scrollable_content_region.height - 1)

    def action_cursor_up(self) -> None:
        self._key_move(self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self._key_move(self.cursor_row + 1)

    def action_page_up(self) -> None:
        self._key_move(self.cursor_row - self._rows_shown())

    def action_page_down(self) -> None:
        self._key_move(self.cursor_row + self._rows_shown())

    def action_first(self) -> None:
        self._key_move(0)

    def action_last(self) -> None:
        self._key_move(len(self._rows) - 1)

    def _key_move(self, row: int) -> None:
        """A key moves the cursor: the row under the mouse is no longer lit."""
        self._set_hover(None)
        self.move_cursor(row)

    def action_select_cursor(self) -> None:
        if 0 <= self.cursor_row < len(self._rows):
            row = self.row(self.cursor_row)
            self.post_message(self.RowSelected(self, self.cursor_row, row.key))

    async def _on_click(self, event: events.Click) -> None:
        number = self._row_at(event)
        if number is not None:
            event.stop()
            self.move_cursor(number)
            self.action_select_cursor()

    def _on_mouse_move(self, event: events.MouseMove) -> None:
        self._set_hover(self._row_at(event))

    def _on_leave(self, event: events.Leave) -> None:
        self._set_hover(None)

    def _row_at(self, event: events.MouseEvent) -> int | None:
        """The row under the mouse (None: the header, or below the rows)."""
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return None
        number = round(self.scroll_y) + offset.y - 1
        return number if number < len(self._rows) else None

    def _set_hover(self, row: int | None) -> None:
        if row != self._hover:
            self._hover = row
            self.refresh()

    # ------------------------------------------------------------------ drawing

    def notify_style_update(self) -> None:
        """New styles (the focus came or went, another theme): lines are drawn again."""
        super().notify_style_update()
        self._lines.clear()
        self._styles = None

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        number = -1 if y == 0 else round(self.scroll_y) + y - 1
        styles = self._line_styles()
        if number >= len(self._rows):
            return Strip.blank(width, styles.base)
        key = (number, number == self.cursor_row, number == self._hover, width)
        line = self._lines.get(key)
        if line is None:
            line = self._lines[key] = self._draw(*key, styles)
        return line.crop(0, width)  # never scrolled sideways

    def _line_styles(self) -> _LineStyles:
        """The styles lines are drawn in, worked out once per change of styles (Textual
        works a widget's style out from its CSS on every call)."""
        if self._styles is None:
            base = self.rich_style
            cursor = self.get_component_rich_style("row-table--cursor")
            self._styles = _LineStyles(
                base=base,
                header=base + self.get_component_rich_style("row-table--header"),
                odd=base,
                even=base + self.get_component_rich_style("row-table--even-row"),
                cursor=cursor,
                cursor_colour=Style(color=cursor.color),
                hover=self.get_component_rich_style("row-table--hover"),
            )
        return self._styles

    def _draw(
        self, number: int, cursor: bool, hover: bool, width: int, styles: _LineStyles
    ) -> Strip:
        """Row `number` (-1: the header) laid out in its columns, styled, and its style
        carried on to at least `width` cells (as far as the pane shows)."""
        over: Style | None = None
        if number < 0:
            cells: Sequence[Cell] = [column.label for column in self.columns]
            style = styles.header
        else:
            cells = self.row(number).cells
            style = styles.even if number % 2 == 0 else styles.odd
            if hover:
                style += styles.hover
            if cursor:
                # The cursor's colour over a cell's own, as `DataTable` draws it; the
                # cell's attributes stay (a dim badge stays dim under the cursor).
                style, over = style + styles.cursor, styles.cursor_colour
        text = Text(no_wrap=True, overflow="crop")
        pad = " " * PADDING
        for column, cell in zip(self.columns, cells, strict=False):
            shown = cell.copy() if isinstance(cell, Text) else Text(str(cell))
            shown.truncate(column.width, overflow="ellipsis", pad=True)
            text.append(pad)
            text.append_text(shown)
            text.append(pad)
        text.pad_right(max(0, width - text.cell_len))
        segments = Segment.apply_style(text.render(self.app.console), style=style, post_style=over)
        return Strip(segments, text.cell_len)
