"""The traversal panel's backlinks view (`b`): which backlink each table row shows.

A `BacklinkTable` belongs to one `TraversalPanel`. It keeps the linking pages read
so far, lays their rows out for the table's width, adds rows as more pages are
read, and gives a row's whole sentence for the panel's info line. The panel keeps
the walk, the fill generation, the page each row opens and the row cap.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.tui.state.page_links import Backlink, BacklinkLayout, backlink_layout
from okf_explorer.tui.state.slice import Titles
from okf_explorer.tui.widgets.graph.table_view import row_key


class BacklinkTable:
    """The backlinks read for the panel's table, and where each of their lines sits in it."""

    def __init__(self, title_of: Titles) -> None:
        self.title_of = title_of
        self.backlinks: list[Backlink] = []
        """The linking pages read so far, in slice order."""
        self.rows: list[tuple[int, int]] = []
        """Per table row: (which backlink, which of its lines)."""
        self.layout: BacklinkLayout = backlink_layout([], 0, lambda _: None)
        """The table's columns (stacked or not), as last laid out."""

    def clear(self) -> None:
        """Forget what was read: a new slice (or a failure) replaces it."""
        self.backlinks, self.rows = [], []

    def lay_out(
        self,
        table: DataTable[str | int | Text],
        edges: Sequence[Edge],
        row_slugs: list[str],
        limit: int,
    ) -> None:
        """Columns for the table's (cleared) width from the first `limit` edges, then the
        rows of every backlink read so far, each row's page appended to `row_slugs`."""
        self.layout = backlink_layout(edges[:limit], table.size.width, self.title_of)
        for label, width in self.layout.columns:
            table.add_column(label, width=width)
        self.rows = []
        self._add(table, self.backlinks, row_slugs, limit)

    def extend(
        self,
        table: DataTable[str | int | Text],
        read: Sequence[Backlink],
        row_slugs: list[str],
        limit: int,
    ) -> bool:
        """Add the rows of pages just read, while the table has fewer than `limit` rows;
        whether they are the first pages read."""
        first = not self.backlinks
        self.backlinks.extend(read)
        self._add(table, read, row_slugs, limit)
        return first

    def sentence(self, row: int) -> str | None:
        """The whole sentence shown (cut) on table row `row`, if the row is a backlink's."""
        if row >= len(self.rows):
            return None
        number, line = self.rows[row]
        return self.layout.sentence(self.backlinks[number], line)

    def _add(
        self,
        table: DataTable[str | int | Text],
        read: Sequence[Backlink],
        row_slugs: list[str],
        limit: int,
    ) -> None:
        first = len(self.backlinks) - len(read)
        for number, backlink in enumerate(read, first):
            for line, cells in enumerate(self.layout.rows(backlink, self.title_of)):
                if len(row_slugs) >= limit:
                    return
                key = row_key(len(row_slugs), backlink.page)
                row_slugs.append(backlink.page)
                self.rows.append((number, line))
                table.add_row(*cells, key=key)
