"""A table of rows with an info line under it: the traversal panel, and the views
shown in its place (the path view `P`, the walk view `w`): one frame, one look, one
way to its table, one way a row says which page it opens."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from okf_explorer.tui.widgets.row_table import Cell, Row, RowTable

Item = TypeVar("Item")
RowOf = Callable[[int, Item], tuple[str, Sequence[Cell]]]
"""`row(number, item)` → the page table row `number` opens, and its cells."""


def row_key(row: int, slug: str) -> str:
    """The key of table row number `row`, which opens `slug`. The key carries the page,
    so `enter` still opens the row the user chose when the table is refilled before
    the selection is handled."""
    return f"{row}\t{slug}"


class TableView(Vertical):
    """`#PREFIX-table` (rows, the cursor a whole row) over `#PREFIX-info` (two lines).

    A view fills the table (`fill`, keys from `row_key`), says what the highlighted
    row holds (`_describe`) and posts its own `PageChosen` when a row is chosen
    (`choose`)."""

    DEFAULT_CSS = """
    TableView { display: none; height: 1fr; border: round $primary; border-title-color: $text; }
    TableView:focus-within { border: round $accent; }
    TableView > RowTable { height: 1fr; }
    TableView > .table-view-info { height: 2; color: $text-muted; padding: 0 1; }
    """

    PREFIX: ClassVar[str] = "table-view"
    """The ids of the table and the info line: `PREFIX-table`, `PREFIX-info`."""
    COLUMNS: ClassVar[tuple[str, ...]] = ()
    """Column labels added when the table is made (none: the subclass adds its own)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._fill = 0
        """Counts the table's fills: a new fill (or `stop_fill`) stops an older one."""
        self._complete = False
        """Every row of the current fill is in the table."""
        self.loaded = False
        """Whether the view shows what it was asked for (its columns are laid out)."""
        self._laid_out_for = 0
        """The row width (`RowTable.row_width`) the columns were last laid out for."""

    def compose(self) -> ComposeResult:
        table = RowTable(id=f"{self.PREFIX}-table")
        table.add_columns(*self.COLUMNS)
        yield table
        yield Static(id=f"{self.PREFIX}-info", classes="table-view-info")

    @property
    def table(self) -> RowTable:
        return self.query_one(f"#{self.PREFIX}-table", RowTable)

    def show_info(self, text: str | Text) -> None:
        """Say `text` on the info line under the table (no new layout); a `str` is shown
        as it is, never read as markup."""
        line = Text(text) if isinstance(text, str) else text
        self.query_one(f"#{self.PREFIX}-info", Static).update(line, layout=False)

    def stop_fill(self) -> int:
        """Add no more rows of the current fill; returns the new fill's number."""
        self._fill += 1
        self._complete = False
        return self._fill

    def fill(self, items: Sequence[Item], row: RowOf[Item]) -> None:
        """A row per item, each made by `row` when the table first draws it (or is asked
        for it): a long slice costs only the rows in sight."""
        self.stop_fill()

        def make(number: int) -> Row:
            slug, cells = row(number, items[number])
            return Row(row_key(number, slug), cells)

        self.table.add_rows(len(items), make)
        self._complete = True

    def on_resize(self) -> None:
        """Rows may take another width (the view was shown, or the terminal changed):
        the columns are laid out again for it, the cursor kept."""
        table = self.table
        width = table.row_width
        if not self.loaded or width <= 0 or width == self._laid_out_for:
            return
        row = table.cursor_row
        self.lay_out_again()
        if row < table.row_count:
            table.move_cursor(row=row, animate=False)

    def lay_out_again(self) -> None:
        """New columns (`new_columns`), and the rows shown in them again."""

    def new_columns(self) -> int:
        """The table emptied, its columns too, for columns laid out anew; returns the row
        width they are for (`RowTable.row_width`, noted for `on_resize`)."""
        table = self.table
        table.clear(columns=True)
        self._laid_out_for = table.row_width
        return self._laid_out_for

    def _describe(self, row: int | None) -> None:
        """Say on the info line what table row `row` holds (None: no row); called as the
        cursor moves."""

    def choose(self, slug: str) -> None:
        """The user chose the row that opens `slug` (`enter` or a click): the view posts
        its `PageChosen`."""

    @on(RowTable.RowHighlighted)
    def _highlighted(self, event: RowTable.RowHighlighted) -> None:
        self._describe(event.cursor_row)

    @on(RowTable.RowSelected)
    def _selected(self, event: RowTable.RowSelected) -> None:
        event.stop()
        self.choose(event.key.split("\t", 1)[1])
