"""The walk view: the traversal panel's walk mode (`w`), best paths from several roots.

One row per page reached (`core.graph.best_paths`): weight, hops, page, and the path
from its root with each hop's weight (by its pages' file names alone when too long for its
column: `short_path`). It shows in the traversal panel's place while
the mode is on (the screen's `w` starts it from the page on screen, `start`); its
own keys change the walk: `[` / `]` lower / raise the minimum weight, `+` / `-` the
depth, `d` the direction, `t` the relation it follows (every one, then each of the
graph's in turn; it starts with the screen's `t` choice), `a` adds roots, `escape`
leaves (`Left`). The walk runs in the view's own worker; a newer walk replaces an
older one.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError
from okf_explorer.core.graph.best_paths import (
    WALK_DIRECTIONS,
    WalkDirection,
    WalkRow,
    hops_text,
    path_text,
    weight_text,
)
from okf_explorer.core.graph.traverse import LINKS, clamp_depth
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.dialogs.walk_roots import WalkRootsDialog
from okf_explorer.tui.failures import ReportsWorkers
from okf_explorer.tui.state.navigator import View
from okf_explorer.tui.state.slice import FOLDER_NOTE_NAMES, page_cell
from okf_explorer.tui.widgets.graph.table_view import TableView

ROOT_CELL = "(root)"
"""The path cell of a root's own row."""
WALK_ROW_LIMIT = 1000
"""Rows shown at most (the best first): like the traversal panel's `ROW_LIMIT`."""
COLUMNS = ("weight", "hops", "page", "path")
WEIGHT_WIDTH, HOPS_WIDTH = 7, 4
WEIGHT_STEP = 0.1
"""What `[` / `]` take from / add to the minimum weight."""
WALK_LEGEND = "[ ] weight · + - depth · d dir · t rel · a roots · esc leaves"


def short_path(row: WalkRow, *, with_root: bool) -> str:
    """`row`'s path for a narrow column: each page by its file name, each hop by its way
    and its relation if stated (`→ admission ←(part_of) cohort`), the weights left to the
    weight column and the info line. At 80 columns the whole hops (`→(0.017)
    wiki/admission`) were cut to `→(0.017) wi…` on every row."""
    parts = [_file_name(row.root)] if with_root else []
    for hop in row.hops:
        way = "→" if hop.direction == "out" else "←"
        if hop.rel != LINKS:
            way += f"({printable(hop.rel)})"
        parts.append(f"{way} {_file_name(hop.to)}")
    return " ".join(parts)


def _file_name(slug: str) -> str:
    """`slug`'s file name, with its folder when it is the folder's own note (`tables/index`,
    not `index`: `slice.FOLDER_NOTE_NAMES`)."""
    parts = printable(slug).rsplit("/", 2)
    if len(parts) > 1 and parts[-1].casefold() in FOLDER_NOTE_NAMES:
        return "/".join(parts[-2:])
    return parts[-1]


@dataclass(frozen=True, slots=True)
class WalkSettings:
    """What a walk is asked: its roots (slugs), depth, minimum weight and direction."""

    roots: tuple[str, ...]
    depth: int = 1
    min_weight: float = 0.0
    direction: WalkDirection = "out"
    rel: str | None = None
    """The one relation followed, or None for every one."""
    implied: bool = False
    """Whether implied inverse edges are followed too (the screen's `i`)."""
    more: tuple[str, ...] = field(default=(), compare=False)
    """Root specs still to resolve (`slug`, `tag:T`, `type:T`) before walking."""

    def with_weight_step(self, steps: int) -> WalkSettings:
        weight = round(min(1.0, max(0.0, self.min_weight + steps * WEIGHT_STEP)), 2)
        return replace(self, min_weight=weight)

    def with_depth(self, depth: int) -> WalkSettings:
        return replace(self, depth=clamp_depth(depth))

    def next_direction(self) -> WalkSettings:
        at = WALK_DIRECTIONS.index(self.direction)
        return replace(self, direction=WALK_DIRECTIONS[(at + 1) % len(WALK_DIRECTIONS)])

    def next_relation(self, relations: list[str]) -> WalkSettings:
        """Every relation → each of `relations` in turn → every one."""
        cycle: list[str | None] = [None, *relations]
        at = cycle.index(self.rel) if self.rel in cycle else 0
        return replace(self, rel=cycle[(at + 1) % len(cycle)])

    @property
    def rels(self) -> list[str] | None:
        """The relation filter as `Brain.walk` takes it (None: every relation)."""
        return None if self.rel is None else [self.rel]

    def title(self) -> str:
        """`walk · 3 roots · depth 3 · out · weight ≥ 0.30` (one root by its slug), then
        `· rel R` while one relation is followed."""
        roots = self.roots[0] if len(self.roots) == 1 else f"{len(self.roots)} roots"
        title = (
            f"walk · {printable(roots)} · depth {self.depth} · {self.direction}"
            f" · weight ≥ {self.min_weight:.2f}"
        )
        if self.rel is not None:
            title = f"{title} · rel {printable(self.rel)}"
        return f"{title} · implied" if self.implied else title


class WalkView(ReportsWorkers, TableView):
    """A table of (weight, hops, page, path) with a summary line under it."""

    PREFIX = "walk"
    COLUMNS = COLUMNS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "weight(-1)", "Weight-", key_display="[", id="walk-lower"),
        Binding("right_square_bracket", "weight(1)", "Weight+", key_display="]", id="walk-raise"),
        Binding("plus", "depth(1)", "Depth+", key_display="+", id="walk-deeper"),
        Binding("minus", "depth(-1)", "Depth-", key_display="-", id="walk-shallower"),
        Binding("d", "next_direction", "Direction", id="walk-direction"),
        Binding("t", "next_relation", "Relation", id="walk-relation"),
        Binding("a", "add_roots", "Add roots", id="walk-add-roots"),
        Binding("escape", "leave", "Leave walk", id="walk-leave"),
    ]

    class PageChosen(Message):
        """The user chose a row's page (`enter` or a click)."""

        def __init__(self, slug: str, exists: bool = True) -> None:
            super().__init__()
            self.slug = slug
            self.exists = exists

    class Left(Message):
        """`escape`: the walk mode ends; the slice should come back in the view's place."""

    def __init__(self, brain: Brain, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.brain = brain
        self.settings: WalkSettings | None = None
        """What the table shows."""
        self.asked: WalkSettings | None = None
        """What was last asked for (shown, or being walked); the keys change this."""
        self.rows: list[WalkRow] = []
        self._generation = 0  # of the walk asked for: a newer one wins
        self._page_width = 12  # of the `page` column, set with the columns
        self._short_paths = False  # whether the `path` column tells paths by `short_path`

    def start(self, view: View) -> None:
        """Walk from `view`'s page, at its depth, along its relation (`t`; all if none),
        implied inverse edges too while `i` is on."""
        direction = view.direction if view.direction in ("out", "in", "both") else "both"
        settings = WalkSettings(
            (view.slug,),
            view.depth,
            0.0,
            direction,
            view.rel,
            view.implied,  # type: ignore[arg-type]
        )
        self.walk(settings)

    def walk(self, settings: WalkSettings) -> None:
        """Walk `settings` in a thread (resolving its `more` roots first) and show it."""
        self._generation += 1
        self.asked, self.loaded = settings, False
        self.border_title = Text(settings.title())
        self.border_subtitle = WALK_LEGEND
        self.show_info("walking…")
        self._run(settings, self._generation)

    @work(group="walk", exclusive=True, exit_on_error=False)
    async def _run(self, settings: WalkSettings, generation: int) -> None:
        try:
            done = await asyncio.to_thread(self._walked, settings)
        except OkfError as error:
            if generation == self._generation:
                self._failed(str(error))
            return
        if generation == self._generation:
            self.show(*done)

    # ------------------------------------------------------------------ the mode's keys

    def action_weight(self, steps: int) -> None:
        if self.asked is not None:
            self._walk_again(self.asked.with_weight_step(steps))

    def action_depth(self, steps: int) -> None:
        if self.asked is not None:
            self._walk_again(self.asked.with_depth(self.asked.depth + steps))

    def action_next_direction(self) -> None:
        if self.asked is not None:
            self._walk_again(self.asked.next_direction())

    def action_next_relation(self) -> None:
        if self.asked is not None and self.brain.index is not None:
            self._walk_again(self.asked.next_relation(self.brain.relations()))

    def action_add_roots(self) -> None:
        """Ask for more roots (`slug`, `tag:T`, `type:T`), then walk from all of them."""
        asked = self.asked
        if asked is None:
            return

        def chosen(specs: list[str] | None) -> None:
            if specs:
                self.walk(replace(asked, more=tuple(specs)))

        self.app.push_screen(WalkRootsDialog(), chosen)

    def action_leave(self) -> None:
        self.post_message(self.Left())

    def _walk_again(self, settings: WalkSettings) -> None:
        if settings != self.asked:
            self.walk(settings)

    def _walked(self, settings: WalkSettings) -> tuple[WalkSettings, list[WalkRow]]:
        """Blocking: resolve the new roots, then walk (the index is built if needed)."""
        if settings.more:
            added = self.brain.resolve_roots(settings.more)
            roots = tuple(dict.fromkeys((*settings.roots, *added)))
            settings = replace(settings, roots=roots, more=())
        rows = self.brain.walk(
            settings.roots,
            settings.depth,
            settings.min_weight,
            settings.direction,
            settings.rels,
            settings.implied,
        )
        return settings, rows

    def _failed(self, reason: str) -> None:
        """A root matched nothing, or the source failed: say so, keep what was shown."""
        self.notify(reason, title="walk", severity="warning", markup=False)
        if self.settings is not None:
            self.show(self.settings, self.rows)
        else:
            self.loaded = True
            self.show_info(f"✗ {reason}")

    def show(self, settings: WalkSettings, rows: list[WalkRow]) -> None:
        """Fill the table with the best `WALK_ROW_LIMIT` rows of a walk."""
        self.settings, self.asked, self.rows, self.loaded = settings, settings, rows, True
        self.border_title = Text(settings.title())
        self._lay_out(rows[:WALK_ROW_LIMIT])
        self.fill(rows[:WALK_ROW_LIMIT], self._row)
        self._describe(0 if rows else None)

    def lay_out_again(self) -> None:
        self._lay_out(self.rows[:WALK_ROW_LIMIT])
        self.fill(self.rows[:WALK_ROW_LIMIT], self._row)

    def _lay_out(self, rows: list[WalkRow]) -> None:
        """Fresh columns: `page` as wide as its longest slug, up to 2/5 of the room;
        `path` takes the rest (cells longer than their column are cut)."""
        width = self.new_columns()
        table = self.table
        room = max(20, (width or 60) - WEIGHT_WIDTH - HOPS_WIDTH - 2 * len(COLUMNS))
        longest = max([4, *(len(printable(row.slug)) for row in rows)])
        page = min(longest, max(12, room * 2 // 5))
        table.add_column(COLUMNS[0], width=WEIGHT_WIDTH)
        table.add_column(COLUMNS[1], width=HOPS_WIDTH)
        table.add_column(COLUMNS[2], width=page)
        self._page_width = page
        path = max(8, room - page - 1)
        self._short_paths = any(row.hops and cell_len(self._whole_path(row)) > path for row in rows)
        table.add_column(COLUMNS[3], width=path)

    def _row(self, number: int, row: WalkRow) -> tuple[str, tuple[str, ...]]:
        """A walk row's page and cells (made as the table is filled)."""
        return row.slug, (
            weight_text(row.weight),
            str(row.hop_count),
            page_cell(row.slug, None, self._page_width).plain,  # the file name stays
            self._path_cell(row),
        )

    def _path_cell(self, row: WalkRow) -> str:
        """The hops only when the walk has one root (every row would start with it);
        from several roots, the root first; a root's own row says so. When a path is too
        long for the column, every row's is told by its pages' file names (`short_path`)."""
        if not row.hops:
            return ROOT_CELL
        if self._short_paths:
            return short_path(row, with_root=not self._one_root)
        return self._whole_path(row)

    def _whole_path(self, row: WalkRow) -> str:
        return printable(hops_text(row) if self._one_root else path_text(row))

    @property
    def _one_root(self) -> bool:
        return self.settings is not None and len(self.settings.roots) == 1

    def _describe(self, at: int | None) -> None:
        settings = self.settings
        if settings is None:
            return
        count = len(self.rows)
        roots = len(settings.roots)
        line = (
            f"{count} page{'' if count == 1 else 's'} from {roots} root{'' if roots == 1 else 's'}"
            " · best path each, heaviest first"
        )
        if count > WALK_ROW_LIMIT:
            line += f" · best {WALK_ROW_LIMIT} shown"
        if at is not None and at < min(count, WALK_ROW_LIMIT):
            line += "\n" + printable(path_text(self.rows[at]))
        self.show_info(line)

    @property
    def selected_slug(self) -> str | None:
        row = self.table.cursor_row
        if not self.loaded or not 0 <= row < min(len(self.rows), WALK_ROW_LIMIT):
            return None
        return self.rows[row].slug

    def choose(self, slug: str) -> None:
        self.post_message(self.PageChosen(slug))
