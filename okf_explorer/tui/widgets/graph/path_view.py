"""The path view: the k shortest paths between two pages, in the traversal panel's place.

`P` shows the paths from the page `M` marked (`path_from`) to the page on screen;
one row per hop, grouped by path (`core.graph.paths`); `enter` opens the hop's page;
`a` toggles avoid-hubs, `d` cycles the direction (out → in → any); `escape` (or
`P`) returns to the slice. The paths and their sentences are found in the view's
own worker (`core.graph.path_hops.explained_paths` reads pages); a newer question
replaces an older one.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError
from okf_explorer.core.graph.paths import (
    PATH_DIRECTIONS,
    Avoid,
    FoundPath,
    HopDetail,
    PathQuery,
)
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.failures import ReportsWorkers
from okf_explorer.tui.state.slice import page_cell, shorten_right
from okf_explorer.tui.widgets.graph.table_view import TableView, row_key

PATHS_LEGEND = "a avoid hubs · d direction · esc returns"
"""The view's subtitle."""
PATH_WIDTH, HOP_WIDTH, DIR_WIDTH = 4, 3, 3

Explained = list[tuple[FoundPath, tuple[HopDetail, ...]]]


def paths_title(query: PathQuery, found: int | None) -> str:
    """`paths A → B · 3 found · avoid hubs` (`finding…` while `found` is None)."""
    title = f"paths {printable(query.frm)} → {printable(query.to)}"
    title += " · finding…" if found is None else f" · {found} found"
    if query.direction != "out":
        title += f" · {query.direction}"
    if query.avoid.active:
        title += f" · avoid {printable(query.avoid.describe())}"
    return title


class PathView(ReportsWorkers, TableView):
    """A table of hops (path, hop, dir, from, to) with the selected hop's sentence."""

    PREFIX = "path"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "toggle_avoid", "Avoid hubs", id="path-avoid-hubs"),
        Binding("d", "cycle_direction", "Path direction", id="path-direction"),
        Binding("escape", "close", "Back to slice", id="path-close"),
    ]

    class Closed(Message):
        """`escape`: the slice should come back in the view's place."""

    class PageChosen(Message):
        """The user chose the page a hop leads to (`enter` or a click)."""

        def __init__(self, slug: str, exists: bool = True) -> None:
            super().__init__()
            self.slug = slug
            self.exists = exists

    def __init__(self, brain: Brain, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.brain = brain
        self.path_from: str | None = None
        """The page `M` marked: where the next paths start."""
        self.path_query: PathQuery | None = None
        """The question shown (`query` is the widget's DOM query); its avoid-hubs
        setting is kept for the next `P`."""
        self.paths: Explained = []
        self.rows: list[tuple[int, int]] = []
        """Per table row: (which path, which hop)."""

    def find_to(self, to: str) -> None:
        """The paths from the marked page to `to`, avoiding hubs if the last view did."""
        if self.path_from is not None:
            hubs = self.path_query is not None and self.path_query.avoid.hubs
            self.find(PathQuery(self.path_from, to, avoid=Avoid(hubs=hubs)))

    def find(self, query: PathQuery) -> None:
        """Find the paths of `query` in a thread and show them."""
        self.path_query, self.loaded, self.paths, self.rows = query, False, [], []
        self.border_title = Text(paths_title(query, None))
        self.border_subtitle = PATHS_LEGEND
        self.table.clear(columns=True)
        self.show_info(Text("finding paths…"))
        self._find(query)

    @work(group="paths", exclusive=True, exit_on_error=False)
    async def _find(self, query: PathQuery) -> None:
        try:
            found = await asyncio.to_thread(self.brain.explained_paths, query)
        except OkfError as error:  # no path, or a page gone meanwhile
            if query == self.path_query:
                self.border_title = Text(paths_title(query, 0))
                self.show_info(Text(f"✗ {printable(str(error))}"))
            return
        if query == self.path_query:
            self.show_paths(query, found)

    def show_paths(self, query: PathQuery, found: Explained) -> None:
        """Fill the table: one row per hop, the path's number on its first hop."""
        self.path_query, self.paths, self.loaded = query, found, True
        self.border_title = Text(paths_title(query, len(found)))
        self._lay_out()
        self._describe(0 if self.rows else None)

    def lay_out_again(self) -> None:
        self._lay_out()

    def _lay_out(self) -> None:
        found = self.paths
        table = self.table
        room = max(20, self.new_columns() - PATH_WIDTH - HOP_WIDTH - DIR_WIDTH - 2 * 5)
        side = room // 2
        table.add_column("path", width=PATH_WIDTH)
        table.add_column("hop", width=HOP_WIDTH)
        table.add_column("dir", width=DIR_WIDTH)
        table.add_column("from", width=side)
        table.add_column("to", width=room - side)
        self.rows = []
        for number, (path, _) in enumerate(found):
            for hop, step in enumerate(path.steps):
                mark = f"{path.number}{'*' if path.via_hub else ''}" if hop == 0 else ""
                arrow = "→" if step.direction == "out" else "←"
                cells = (
                    Text(mark, style="bold"),
                    str(hop + 1),
                    arrow,
                    page_cell(step.frm, self.brain.indexed_title(step.frm), side),
                    page_cell(step.to, self.brain.indexed_title(step.to), room - side),
                )
                table.add_row(*cells, key=row_key(len(self.rows), step.to))
                self.rows.append((number, hop))

    def _describe(self, row: int | None) -> None:
        """The selected hop: its path, relation and rule on the first line, its sentence
        on the second."""
        if row is None or row >= len(self.rows):
            self.show_info(Text("no paths"))
            return
        number, hop = self.rows[row]
        path, details = self.paths[number]
        step, detail = path.steps[hop], details[hop]
        hops = len(path.steps)
        line = f"path {path.number} · {hops} hop{'' if hops == 1 else 's'}"
        if path.via_hub:
            line += f" · via hub {', '.join(path.via_hub)}"
        line += f" · {step.rel} ({detail.rule or '-'}{', ambiguous' if detail.ambiguous else ''})"
        said = detail.context or (
            f"frontmatter: {step.rel}" if step.rel != "links" else "no sentence found"
        )
        width = max(10, self.table.row_width or 80)
        self.show_info(Text(printable(line) + "\n" + shorten_right(printable(said), width)))

    @property
    def selected_slug(self) -> str | None:
        row = self.table.cursor_row
        if not self.loaded or not 0 <= row < len(self.rows):
            return None
        number, hop = self.rows[row]
        return self.paths[number][0].steps[hop].to

    def action_toggle_avoid(self) -> None:
        if self.path_query is not None:
            avoid = self.path_query.avoid
            self.find(replace(self.path_query, avoid=replace(avoid, hubs=not avoid.hubs)))

    def action_cycle_direction(self) -> None:
        if self.path_query is not None:
            at = PATH_DIRECTIONS.index(self.path_query.direction)
            direction = PATH_DIRECTIONS[(at + 1) % len(PATH_DIRECTIONS)]
            self.find(replace(self.path_query, direction=direction))

    def action_close(self) -> None:
        self.post_message(self.Closed())

    def choose(self, slug: str) -> None:
        self.post_message(self.PageChosen(slug))
