"""The traversal panel: the edges of the current slice, and where a row sits in it.

The panel walks its own slices (`walk`) and saves them (`export`): `e` pressed
while a slice is walked saves that slice as soon as it is shown. Its workers run
on the screen, whose one `Worker.StateChanged` handler reports their failures.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError, PageNotFound, PageUnreadable
from okf_explorer.core.graph import Edge
from okf_explorer.core.okf_filter import NO_FILTER, OkfFilter, filter_walk
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.history import View
from okf_explorer.tui.okf_glyphs import row_badge
from okf_explorer.tui.slice import format_path, path_to, summarise

ROW_LIMIT = 1000
"""Rows shown at most: a depth-10 slice of a big brain has tens of thousands of
edges, and a table that long is slow to fill and useless to scroll. The export
(`e`) always writes the whole slice."""

FILL_CHUNK = 100
"""Rows added per frame: the table measures new rows in one go on its next idle
(~0.3 ms a row on a loaded machine), so 1,000 rows at once would stall the loop."""


FIXED_COLUMNS = 3 + 4 + 4 * 2 + 2
"""`hop` and `dir`, one cell of padding on each side of all four columns, a scrollbar."""


def column_widths(from_width: int, to_width: int, table_width: int) -> tuple[int, int]:
    """Widths of `from` and `to` that fit the table when both cannot be shown whole.

    `to` is the page each row leads to, so it keeps its width first; `from` gives
    way down to half the room (a long root slug is in the title anyway).
    """
    room = table_width - FIXED_COLUMNS
    if table_width <= 0 or from_width + to_width <= room:
        return from_width, to_width
    fitted = max(4, min(from_width, room - to_width), min(from_width, room // 2))
    return fitted, max(2, min(to_width, room - fitted))


def slice_title(view: View) -> str:
    """`ROOT · depth N · DIRECTION` (SPEC §8), the root's controls shown as escapes, then
    `· rel R` while a relation filter is on."""
    title = f"{printable(view.slug)} · depth {view.depth} · {view.direction}"
    return title if view.rel is None else f"{title} · rel {printable(view.rel)}"


def cell(name: str) -> str:
    """A page name as a table cell: controls escaped, and `[` not read as markup."""
    return escape(printable(name))


class TraversalPanel(Vertical):
    """A table of (hop, direction, from, to) with a summary line under it."""

    DEFAULT_CSS = """
    TraversalPanel { border: round $primary; border-title-color: $text; }
    TraversalPanel:focus-within { border: round $accent; }
    TraversalPanel > DataTable { height: 1fr; }
    TraversalPanel > #traversal-info {
        height: 2; color: $text-muted; padding: 0 1;
    }
    """

    class PageChosen(Message):
        """The user chose the `to` page of a row (`enter` or a click); `exists`: it is
        a page, not a dangling target."""

        def __init__(self, slug: str, exists: bool = True) -> None:
            super().__init__()
            self.slug = slug
            self.exists = exists

    class SliceShown(Message):
        """A new slice is on screen (what the graph panel draws)."""

        def __init__(self, view: View, edges: list[Edge]) -> None:
            super().__init__()
            self.view = view
            self.edges = edges

    def __init__(self, brain: Brain, *, export_dir: Path, id: str | None = None) -> None:
        super().__init__(id=id)
        self.brain = brain
        self.export_dir = export_dir
        self.view: View | None = None
        self.edges: list[Edge] = []
        self.loaded = False
        self.failed = False
        """Whether the panel shows why its slice could not be walked."""
        self.export_wanted: View | None = None
        """The slice `e` asked for while it was being walked: saved once it is shown."""
        self.last_export: Path | None = None
        self.last_download: str | None = None
        """Under `okf-explorer web`: the name of the last export offered as a download."""
        self._fill = 0  # generation of the current fill: a new slice stops an old one
        self.okf_filter = NO_FILTER
        """`f`: only edges between pages that pass (see `core.okf_filter`)."""

    def compose(self) -> ComposeResult:
        table: DataTable[str | int | Text] = DataTable(
            id="traversal-table", cursor_type="row", zebra_stripes=True
        )
        table.add_columns("hop", "dir", "from", "to")
        yield table
        yield Static(id="traversal-info")

    @property
    def table(self) -> DataTable[str | int | Text]:
        return self.query_one("#traversal-table", DataTable)

    def exists(self, slug: str) -> bool:
        """Whether `slug` is a page (dangling targets are not; all are before the index)."""
        index = self.brain.index
        return index is None or slug in index.pages

    def walk(self, view: View) -> None:
        """Walk the slice for `view` and show it (a newer walk replaces an older one)."""
        self.show_pending(view, "walking…")
        walk = partial(self._walk, view)
        self.screen.run_worker(walk, group="slice", exclusive=True, exit_on_error=False)

    async def _walk(self, view: View) -> None:
        try:
            edges = await asyncio.to_thread(self.walked, view, self.okf_filter)
        except OkfError as error:
            self.show_failure(view, str(error))
            if self.export_wanted == view:
                self.export_wanted = None  # `e` waited for this slice: it will not come
            if isinstance(error, (PageNotFound, PageUnreadable)):
                return
            raise
        self.show_edges(view, edges)
        if self.export_wanted == view:
            self.export_wanted = None
            self._save(view, self.edges)

    def walked(self, view: View, keep: OkfFilter) -> list[Edge]:
        """The slice of `view`, kept to `keep` (`core.okf_filter`). Blocking: run in a thread."""
        edges = self.brain.traverse(view.slug, view.depth, view.direction, view.rels)
        index = self.brain.index
        if keep.active and index is not None:
            edges = filter_walk(edges, view.slug, view.depth, keep, index.pages)
        return edges

    def export(self, view: View) -> None:
        """`e`: save the slice for `view` now if it is shown, else as soon as it is."""
        if self.loaded and self.view == view:
            self._save(view, self.edges)
        elif self.failed and self.view == view:
            self.notify("this slice could not be walked; r retries", title="export")
        else:
            self.export_wanted = view

    def _save(self, view: View, edges: list[Edge]) -> None:
        write = partial(self._write, view, list(edges))
        self.screen.run_worker(write, group="export", exclusive=True, exit_on_error=False)

    async def _write(self, view: View, edges: list[Edge]) -> None:
        from okf_explorer.tui.slice_export import export_slice  # not needed for the first paint

        if self.app.is_web:  # the browser downloads it: nothing lands on the server
            self._offer_download(view, edges)
            return
        root = self.brain.local_root
        path = await asyncio.to_thread(export_slice, edges, view, self.export_dir, root)
        self.last_export = path
        self.notify(f"saved {path}", title="export", markup=False)

    def _offer_download(self, view: View, edges: list[Edge]) -> None:
        from okf_explorer.tui.slice_export import slice_file

        name, text = slice_file(edges, view)
        self.app.deliver_text(io.StringIO(text), save_filename=name, mime_type="application/json")
        self.last_download = name
        self.notify(f"download {name}", title="export", markup=False)

    def show_pending(self, view: View, reason: str) -> None:
        """The settings changed; the slice is on its way (or cannot come yet)."""
        self.view, self.loaded, self.failed = view, False, False
        self.border_title = Text(slice_title(view))
        self.query_one("#traversal-info", Static).update(Text(printable(reason)), layout=False)

    def show_failure(self, view: View, reason: str) -> None:
        """The slice for `view` could not be walked: empty the table so the title fits it."""
        self.view, self.edges, self.loaded, self.failed = view, [], False, True
        self.border_title = Text(slice_title(view))
        self._fill += 1
        self.table.clear()
        info = Text(f"✗ {printable(reason)} · r retries")
        self.query_one("#traversal-info", Static).update(info, layout=False)

    def show_edges(self, view: View, edges: Sequence[Edge]) -> None:
        """Fill the table with a fresh slice (at most `ROW_LIMIT` rows)."""
        self.view, self.edges, self.loaded, self.failed = view, list(edges), True, False
        self.border_title = Text(slice_title(view))
        shown = self.edges[:ROW_LIMIT]
        table = self.table
        table.clear(columns=True)
        # Explicit widths: auto-sized columns settle on idle and could lag a refill.
        table.add_column("hop", width=3)
        table.add_column("dir", width=4)
        from_width, to_width = column_widths(
            max([4, *(len(printable(edge.frm)) for edge in shown)]),
            max([2, *(self.to_cell(edge.to).cell_len for edge in shown)]),
            table.size.width,
        )
        table.add_column("from", width=from_width)
        table.add_column("to", width=to_width)
        self._fill += 1
        self._add_rows(self._fill, shown, 0)
        self._describe(0 if self.edges else None)
        self.post_message(self.SliceShown(view, self.edges))

    def _add_rows(self, fill: int, shown: list[Edge], start: int) -> None:
        """Add the next `FILL_CHUNK` rows, and the rest after the next refresh."""
        if fill != self._fill:
            return
        end = start + FILL_CHUNK
        table = self.table
        for index, edge in enumerate(shown[start:end], start):
            # The key carries the row's page, so `enter` still opens the row the user
            # chose when the slice is replaced before the selection is handled.
            cells = (edge.hop, edge.direction, cell(edge.frm), self.to_cell(edge.to))
            table.add_row(*cells, key=f"{index}\t{edge.to}")
        if end < len(shown):
            self.call_after_refresh(self._add_rows, fill, shown, end)

    def to_cell(self, slug: str) -> Text:
        """The `to` cell: the page's OKF glyphs (`okf_glyphs.row_badge`), then its name."""
        index = self.brain.index
        info = index.pages.get(slug) if index is not None else None
        return row_badge(info) + Text(printable(slug))

    @property
    def filled(self) -> bool:
        """Whether every row of the slice (up to `ROW_LIMIT`) is in the table."""
        return self.loaded and self.table.row_count == min(len(self.edges), ROW_LIMIT)

    def _describe(self, row: int | None) -> None:
        """Slice size on the first line; the selected row's path from the root on the second."""
        if self.view is None:
            return
        line = str(summarise(self.view.slug, self.edges, self.exists))
        if self.okf_filter.active:
            line += f" · filter {self.okf_filter.describe()}"
        if len(self.edges) > ROW_LIMIT:
            line += f" · first {ROW_LIMIT} shown"
        if row is not None and row < len(self.edges):
            path = [printable(node) for node in path_to(self.view.slug, self.edges, row)]
            line += "\n" + format_path(path, self.edges[row].direction)
        self.query_one("#traversal-info", Static).update(Text(line), layout=False)

    @property
    def selected_slug(self) -> str | None:
        row = self.table.cursor_row
        if not self.loaded or not self.edges or row >= min(len(self.edges), ROW_LIMIT):
            return None
        return self.edges[row].to

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._describe(event.cursor_row)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        key = event.row_key.value
        if key:
            slug = key.split("\t", 1)[1]
            self.post_message(self.PageChosen(slug, self.exists(slug)))
