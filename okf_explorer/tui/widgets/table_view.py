"""A table of rows with an info line under it, shown in the traversal panel's place
(the path view `P`, the walk view `w`): one frame, one look, one way to its table."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static


class TableView(Vertical):
    """`#PREFIX-table` (rows, the cursor a whole row) over `#PREFIX-info` (two lines)."""

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
