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
from textual.widgets import DataTable, Static

FILL_CHUNK = 200
"""Rows added per frame. Each frame of a fill measures the new rows (~0.1-0.3 ms a row)
and draws the table again, so a slice of up to this many rows is added in one frame: `+`
/ `-` on the sample brain's 175-row slice took 193 / 121 ms over three frames (the rows in
sight, then 100 a frame), 117 / 82 ms in one. A bigger slice adds the rows in sight first
(seen before the others are measured), then this many a frame, so the loop is never held
long: on a 6.6k-page bundle's 1,000-row slice `+` 1,000 → 709 ms, its longest stall about
as before (115-180 ms against 74-164, mostly the walk itself)."""

Item = TypeVar("Item")
RowOf = Callable[[int, Item], tuple[str, Sequence[object]]]
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
    TableView > DataTable { height: 1fr; }
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

    def compose(self) -> ComposeResult:
        table: DataTable[str | Text] = DataTable(
            id=f"{self.PREFIX}-table", cursor_type="row", zebra_stripes=True
        )
        table.add_columns(*self.COLUMNS)
        yield table
        yield Static(id=f"{self.PREFIX}-info", classes="table-view-info")

    @property
    def table(self) -> DataTable[str | Text]:
        return self.query_one(f"#{self.PREFIX}-table", DataTable)

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
        """Add a row per item, `FILL_CHUNK` a frame, the rest after each refresh; `row`
        makes each row when it is added, so a long fill costs nothing up front."""
        self._add_rows(self.stop_fill(), items, row, 0)

    def _add_rows(self, fill: int, items: Sequence[Item], row: RowOf[Item], start: int) -> None:
        if fill != self._fill:
            return
        # A long fill's first frame adds the rows in sight: they show before the others
        # are measured.
        if start == 0 and len(items) > FILL_CHUNK:
            end = max(1, self.table.size.height)
        else:
            end = start + FILL_CHUNK
        table = self.table
        for number, item in enumerate(items[start:end], start):
            slug, cells = row(number, item)
            table.add_row(*cells, key=row_key(number, slug))
        if end < len(items):
            self.call_after_refresh(self._add_rows, fill, items, row, end)
        else:
            self._complete = True

    def _describe(self, row: int | None) -> None:
        """Say on the info line what table row `row` holds (None: no row); called as the
        cursor moves."""

    def choose(self, slug: str) -> None:
        """The user chose the row that opens `slug` (`enter` or a click): the view posts
        its `PageChosen`."""

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._describe(event.cursor_row)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        key = event.row_key.value
        if key:
            self.choose(key.split("\t", 1)[1])
