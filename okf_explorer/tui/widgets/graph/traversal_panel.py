"""The traversal panel: the edges of the current slice, and where a row sits in it.

The panel walks its own slices (`walk`) and saves them (`export`): `e` pressed
while a slice is walked saves that slice as soon as it is shown, into the export
folder (asked for when that lies inside the brain), or under `okf-explorer web` as
a browser download. Both run in the panel's own workers (`ReportsWorkers`).

Its backlinks view (`b`) shows in the same table: `BacklinkTable` keeps the linking
pages read so far, lays their rows out for the table's width, adds rows as more
pages are read, and gives a row's whole sentence for the info line; the panel keeps
the walk, the fill generation, the page each row opens and the row cap.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from rich.text import Text
from textual import work
from textual.message import Message

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError, PageNotFound, PageUnreadable
from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.okf.filter import NO_FILTER, OkfFilter, filter_walk
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.dialogs.export import ask_export_folder, inside
from okf_explorer.tui.failures import ReportsWorkers
from okf_explorer.tui.marks import BACKLINKS_LEGEND, SLICE_LEGEND, row_badge
from okf_explorer.tui.state import page_links as back
from okf_explorer.tui.state.navigator import View
from okf_explorer.tui.state.saving import export_slice, slice_file
from okf_explorer.tui.state.slice import (
    DIR_WIDTH,
    FIXED_COLUMNS,
    HOP_WIDTH,
    Titles,
    column_widths,
    display_order,
    empty_slice_hint,
    group_starts,
    path_line,
    slice_row,
    slice_shared_starts,
    slice_title,
    slice_widths,
    summarise,
)
from okf_explorer.tui.widgets.graph.table_view import TableView, row_key
from okf_explorer.tui.widgets.row_table import Row, RowTable

__all__ = ["FIXED_COLUMNS", "ROW_LIMIT", "TraversalPanel", "column_widths"]

ROW_LIMIT = 1000
"""Rows shown at most: a depth-10 slice of a big brain has tens of thousands of
edges, and a table that long is slow to fill and useless to scroll. The export
(`e`) always writes the whole slice."""

FIRST_SCREEN = 12
"""Linking pages read before the first rows show (`b`), at least: a screenful (the
table's height) if more, so the first paint waits for a few page reads only; the
rest follow `BACKLINK_CHUNK` at a time."""
BACKLINK_CHUNK = 100
"""Linking pages read per frame after the first screenful (each may give a few rows)."""


class TraversalPanel(ReportsWorkers, TableView):
    """A table of (hop, direction, from, to) with a summary line under it."""

    DEFAULT_CSS = "TraversalPanel { display: block; }"
    PREFIX = "traversal"
    COLUMNS = ("hop", "dir", "from", "to")

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
        self.view: View | None = None
        self.edges: list[Edge] = []
        self.failed = False
        """Whether the panel shows why its slice could not be walked."""
        self.export_wanted: View | None = None
        """The slice `e` asked for while it was being walked: saved once it is shown."""
        self.export_dir = export_dir
        """Where `e` saves (kept once the user picks another folder)."""
        self.last_export: Path | None = None
        self.last_download: str | None = None
        """Under `okf-explorer web`: the name of the last export offered as a download."""
        self.row_slugs: list[str] = []
        """The page each table row opens, in table order."""
        self._row_edges: list[int] = []
        """Per row of a slice: its position in `edges` (rows are shown by hop)."""
        self.backlink_table = BacklinkTable(self.title_of)
        """`b`: the backlinks read, and which of their lines each row shows."""
        self.filled_once = False
        self.okf_filter = NO_FILTER
        """`F`: only edges between pages that pass (see `core.okf.filter`)."""

    def exists(self, slug: str) -> bool:
        """Whether `slug` is a page (dangling targets are not; all are before the index)."""
        index = self.brain.index
        return index is None or slug in index.pages

    def walk(self, view: View) -> None:
        """Walk the slice for `view` and show it (a newer walk replaces an older one)."""
        self.show_pending(view, "walking…")
        self._walk(view)

    @work(group="slice", exclusive=True, exit_on_error=False)
    async def _walk(self, view: View) -> None:
        start: back.BacklinkStart | None = None
        try:
            if view.backlinks:
                size = max(FIRST_SCREEN, self.table.size.height)
                start = await asyncio.to_thread(
                    back.start_backlinks, self.brain, view.slug, view.rels, size
                )
                edges = start.edges
            else:
                edges = await asyncio.to_thread(self.walked, view, self.okf_filter)
        except OkfError as error:
            self.show_failure(view, str(error))
            if self.export_wanted == view:
                self.export_wanted = None  # `e` waited for this slice: it will not come
            if isinstance(error, (PageNotFound, PageUnreadable)):
                return
            raise
        if start is not None:
            self.show_backlinks(view, edges)
            self._more_backlinks(start.first)
        else:
            self.show_edges(view, edges)
        if self.export_wanted == view:
            self.export_wanted = None
            self.save(view, self.edges)
        if start is not None:
            await self._read_backlinks(self._fill, view, start)

    def walked(self, view: View, keep: OkfFilter) -> list[Edge]:
        """The slice of `view`, kept to `keep` (`core.okf.filter`). Blocking: run in a thread."""
        edges = self.brain.traverse(
            view.slug, view.depth, view.direction, view.rels, implied=view.implied
        )
        index = self.brain.index
        if keep.active and index is not None:
            edges = filter_walk(edges, view.slug, view.depth, keep, index.pages)
        return edges

    def export(self, view: View) -> None:
        """`e`: save the slice for `view` now if it is shown, else as soon as it is."""
        if self.loaded and self.view == view:
            self.save(view, self.edges)
        elif self.failed and self.view == view:
            self.notify("this slice could not be walked; r retries", title="export")
        else:
            self.export_wanted = view

    def save(self, view: View, edges: list[Edge]) -> None:
        """Save the slice into the export folder, asking for another one when that lies
        inside the brain (the export may not change it)."""
        root = self.brain.local_root
        if root is not None and inside(self.export_dir, root):
            ask_export_folder(self, self.export_dir, root, partial(self._save_in, view, edges))
            return
        self._write_export(view, list(edges))

    def _save_in(self, view: View, edges: list[Edge], folder: Path) -> None:
        self.export_dir = folder  # kept: a later `e` saves there without asking
        self.save(view, edges)

    @work(group="export", exclusive=True, exit_on_error=False)
    async def _write_export(self, view: View, edges: list[Edge]) -> None:
        if self.app.is_web:  # the browser downloads it: nothing lands on the server
            name, data = await asyncio.to_thread(slice_file, edges, view)
            self.app.deliver_binary(data, save_filename=name, mime_type="application/json")
            self.last_download = name
            self.notify(f"download {name}", title="export", markup=False)
            return
        root = self.brain.local_root
        path = await asyncio.to_thread(export_slice, edges, view, self.export_dir, root)
        self.last_export = path
        self.notify(f"saved {path}", title="export", markup=False)

    def show_pending(self, view: View, reason: str) -> None:
        """The settings changed; the slice is on its way (or cannot come yet)."""
        self.view, self.loaded, self.failed = view, False, False
        self.border_title = Text(slice_title(view))
        self.show_info(printable(reason))

    def show_failure(self, view: View, reason: str) -> None:
        """The slice for `view` could not be walked: empty the table so the title fits it."""
        self.view, self.edges, self.loaded, self.failed = view, [], False, True
        self.border_title = Text(slice_title(view))
        self.stop_fill()
        self.row_slugs, self._row_edges = [], []
        self.backlink_table.clear()
        self.table.clear()
        self.show_info(f"✗ {printable(reason)} · r retries")

    def title_of(self, slug: str) -> str | None:
        return self.brain.indexed_title(slug)

    # ------------------------------------------------------------------ a slice

    def show_edges(self, view: View, edges: Sequence[Edge]) -> None:
        """Fill the table with a fresh slice (at most `ROW_LIMIT` rows, by hop); the same
        slice again (a reload that changed nothing here) keeps the table and its cursor."""
        if view == self.view and list(edges) == self.edges and self.filled_once:
            self.loaded, self.failed = True, False
            self._describe(self.table.cursor_row if self.edges else None)
            return
        self.filled_once = True
        self.view, self.edges, self.loaded, self.failed = view, list(edges), True, False
        self.border_title = Text(slice_title(view))
        self.border_subtitle = SLICE_LEGEND
        self._row_edges = display_order(self.edges, view.direction, ROW_LIMIT)
        self.backlink_table.clear()
        self._lay_out_slice()

    def _lay_out_slice(self) -> None:
        """(Re)build the columns for the table's width, then add the rows."""
        edges, rows = self.edges, self._row_edges
        width = self.new_columns()
        table = self.table
        # Explicit widths: auto-sized columns settle on idle and could lag a refill.
        table.add_column("hop", width=HOP_WIDTH)
        table.add_column("dir", width=DIR_WIDTH)
        titles = self.title_of
        from_width, to_width = slice_widths(edges, rows, width, titles, self.badge)
        table.add_column("from", width=from_width)
        table.add_column("to", width=to_width)
        self.row_slugs = [edges[at].to for at in rows]
        starts = group_starts(edges, rows)
        cells = partial(
            slice_row,
            from_width=from_width,
            to_width=to_width,
            title=titles,
            badge=self.badge,
            shared=slice_shared_starts(edges, rows, titles),
        )
        self.fill(  # each row's cells made as it is added, frame by frame on a long slice
            list(zip(rows, starts, strict=True)),
            lambda number, row: (self.row_slugs[number], cells(edges[row[0]], shows_from=row[1])),
        )
        self._describe(0 if self.edges else None)
        self.post_message(self.SliceShown(self.view, self.edges))

    # ------------------------------------------------------------------ backlinks (`b`)

    def show_backlinks(self, view: View, edges: Sequence[Edge]) -> None:
        """Show the depth-1 `in` slice as backlinks: columns now, sentences as read."""
        self.view, self.edges, self.loaded, self.failed = view, list(edges), True, False
        self.border_title = Text(slice_title(view))
        self.border_subtitle = BACKLINKS_LEGEND
        self._row_edges = []
        self.backlink_table.clear()
        self.stop_fill()
        self._lay_out_backlinks()

    def _lay_out_backlinks(self) -> None:
        width = self.new_columns()
        self.row_slugs = []
        self.backlink_table.lay_out(self.table, width, self.edges, self.row_slugs, ROW_LIMIT)
        self._describe(0 if self.row_slugs else None)

    async def _read_backlinks(self, fill: int, view: View, start: back.BacklinkStart) -> None:
        """Read the rest of the linking pages (as many as rows remain) in one trip to a
        thread, then add their rows `BACKLINK_CHUNK` pages a frame: reading while the
        loop adds rows would make the two fight over the GIL on every frame."""
        rest = start.pages[len(start.first) : len(start.first) + ROW_LIMIT - len(self.row_slugs)]
        read = await asyncio.to_thread(
            back.read_backlinks, self.brain, view.slug, rest, start.by_page
        )
        for at in range(0, len(read), BACKLINK_CHUNK):
            await self._next_frame()
            if fill != self._fill or len(self.row_slugs) >= ROW_LIMIT:
                break
            self._more_backlinks(read[at : at + BACKLINK_CHUNK])
        if fill == self._fill:
            self._complete = True
            self._describe(self.table.cursor_row if self.row_slugs else None)

    def _more_backlinks(self, read: Sequence[back.Backlink]) -> None:
        if self.backlink_table.extend(self.table, read, self.row_slugs, ROW_LIMIT):
            self._describe(0 if self.row_slugs else None)

    async def _next_frame(self) -> None:
        drawn = asyncio.Event()
        self.call_after_refresh(drawn.set)
        await drawn.wait()

    # ------------------------------------------------------------------ both

    def lay_out_again(self) -> None:
        if self.view is not None and self.view.backlinks:
            self._lay_out_backlinks()
        else:
            self._lay_out_slice()

    def badge(self, slug: str) -> Text:
        """The page's OKF glyphs (`marks.row_badge`), shown before its name."""
        index = self.brain.index
        info = index.pages.get(slug) if index is not None else None
        return row_badge(info)

    @property
    def filled(self) -> bool:
        """Whether every row of the slice (up to `ROW_LIMIT`) is in the table."""
        return self.loaded and self._complete

    def _describe(self, row: int | None) -> None:
        """Slice size on the first line; on the second, the selected row's path from
        the root (a slice) or its whole sentence (backlinks)."""
        view = self.view
        if view is None:
            return
        if view.backlinks:
            line = back.backlinks_info(self.edges, len(self.row_slugs) >= ROW_LIMIT, ROW_LIMIT)
            sentence = self.backlink_table.sentence(row) if row is not None else None
            if sentence is not None:
                line += "\n" + sentence
        else:
            line = str(summarise(view.slug, self.edges, self.exists))
            if self.okf_filter.active:
                line += f" · filter {self.okf_filter.describe()}"
            if len(self.edges) > ROW_LIMIT:
                line += f" · first {ROW_LIMIT} shown, by hop"
            if row is not None and row < len(self._row_edges):
                line += "\n" + path_line(view, self.edges, self._row_edges[row])
            elif not self.edges and self.loaded:
                line += "\n" + empty_slice_hint(view, self.okf_filter.active)
        self.show_info(line)

    @property
    def selected_slug(self) -> str | None:
        row = self.table.cursor_row
        if not self.loaded or row >= len(self.row_slugs) or row < 0:
            return None
        return self.row_slugs[row]

    def choose(self, slug: str) -> None:
        self.post_message(self.PageChosen(slug, self.exists(slug)))


class BacklinkTable:
    """The backlinks read for the panel's table, and where each of their lines sits in it."""

    def __init__(self, title_of: Titles) -> None:
        self.title_of = title_of
        self.backlinks: list[back.Backlink] = []
        """The linking pages read so far, in slice order."""
        self.rows: list[tuple[int, int]] = []
        """Per table row: (which backlink, which of its lines)."""
        self.layout: back.BacklinkLayout = back.backlink_layout([], 0, lambda _: None)
        """The table's columns (stacked or not), as last laid out."""

    def clear(self) -> None:
        """Forget what was read: a new slice (or a failure) replaces it."""
        self.backlinks, self.rows = [], []

    def lay_out(
        self,
        table: RowTable,
        width: int,
        edges: Sequence[Edge],
        row_slugs: list[str],
        limit: int,
    ) -> None:
        """Columns for the (cleared) table's row `width` from the first `limit` edges,
        then the rows of every backlink read so far, each row's page appended to
        `row_slugs`."""
        self.layout = back.backlink_layout(edges[:limit], width, self.title_of)
        for label, width in self.layout.columns:
            table.add_column(label, width=width)
        self.rows = []
        self._add(table, self.backlinks, row_slugs, limit)

    def extend(
        self,
        table: RowTable,
        read: Sequence[back.Backlink],
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
        table: RowTable,
        read: Sequence[back.Backlink],
        row_slugs: list[str],
        limit: int,
    ) -> None:
        first = len(self.backlinks) - len(read)
        rows: list[Row] = []
        for number, backlink in enumerate(read, first):
            if len(row_slugs) >= limit:
                break
            for line, cells in enumerate(self.layout.rows(backlink, self.title_of)):
                if len(row_slugs) >= limit:
                    break
                rows.append(Row(row_key(len(row_slugs), backlink.page), cells))
                row_slugs.append(backlink.page)
                self.rows.append((number, line))
        table.extend(rows)
