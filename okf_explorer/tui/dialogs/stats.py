"""`s`: the brain's stats (what `okf-explorer stats` prints) in a help-style dialog.

The counts on two lines, then one list: hubs by links in and out (top 10, with
their degree), orphans, dead ends, and dangling targets each followed by the pages
linking to them, and the dangling targets that look like a page's name (`≈ TARGET →
PAGE  (U+2011 NON-BREAKING HYPHEN for "-")`, `enter` opens the page; no heading when
there are none); then, once computed (a second worker), the communities (labelled by
their most central page) and the bridge pages with what they split, as `okf-explorer
analyze` finds them (`ANALYSIS_ROWS` of each). Only those two are asked for: the
communities are kept by the brain once found, the bridges are one pass over the graph,
and the rest of the analysis (central pages, suggested links), not shown here, took
three quarters of its time on a 6.5k-page vault (54 ms of 72, communities found).

`enter` on a page opens it; headings and missing targets are not selectable. `escape`
(or `s`, `q`) closes. The numbers are computed in a worker from the index the explorer
already built (the key is greyed until it is ready), so the dialog opens at once and
says `computing…` meanwhile. Each section lists at most `SECTION_ROWS` rows, then says
how many more there are (the CLI lists all).

A page's line is cut to the width it is drawn at (`CutLine`): its slug from the left,
whole folders first, so the file name stays (`…/windows-commands/command-line-syntax-
key`); a wrapped slug left its count alone on a line. A page whose title says more than
its file name shows it after the slug, dim, where the line has room for a few of its
letters (an LLM-written bundle's hubs read `term-agent-skills`, `tool-3x-ui`, …).

The list is given its lines already cut, as text, and cuts them again when its width
changes: measuring lines that Textual has to ask Rich to draw was half of the key's
250 ms on a 6.5k-page vault (258 lines).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import islice
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import OkfError
from okf_explorer.core.graph.analysis import BrainStats
from okf_explorer.core.graph.shape import Bridge, Community, splits_text
from okf_explorer.core.pages import title_says_more
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.state.slice import MIN_TITLE, TITLE_GAP, shorten_left, shorten_right

SECTION_ROWS = 100
"""Rows a section lists in the dialog before `… N more` (a big brain has thousands)."""

ANALYSIS_ROWS = 20
"""Communities and bridges the dialog lists (`okf-explorer analyze --top N` lists more)."""

HINT = "enter opens a page · escape closes · okf-explorer stats and analyze print the same"


@dataclass(frozen=True, slots=True)
class CutLine:
    """A list line: a dim `prefix`, a page's `label` cut from the left to the width the
    line is drawn at, then `tail`, or when that does not fit, `tail` on the lines below,
    indented under the label."""

    prefix: Text
    label: str
    style: str = ""
    tail: Text = field(default_factory=Text)
    title: str = ""
    """The page's title, after a label drawn whole, cut at its end (left out where fewer
    than `MIN_TITLE` of its cells fit)."""

    def __str__(self) -> str:
        return f"{self.prefix.plain}{self.label}{self.tail.plain}"

    def cut(self, width: int) -> Text:
        """The line as drawn `width` cells wide (the tail's lines below end in `\\n`)."""
        room = max(1, width - self.prefix.cell_len)
        line = self.prefix.copy()
        line.append(shorten_left(self.label, room), style=self.style)
        left = width - line.cell_len - self.tail.cell_len - TITLE_GAP
        if self.title and cell_len(self.label) <= room and left >= MIN_TITLE:
            line.append(" " * TITLE_GAP + shorten_right(self.title, left), style="dim")
        if line.cell_len + self.tail.cell_len <= width:
            return line + self.tail
        # The tail goes below, under the label, however many lines it takes.
        indent = self.prefix.cell_len + TAIL_INDENT
        blank = len(self.tail.plain) - len(self.tail.plain.lstrip())
        below = self.tail[blank:].wrap(_wrapping(), max(1, width - indent))
        for wrapped in below:
            line.append("\n" + " " * indent)
            line.append_text(wrapped)
        return line

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.cut(options.max_width)


TAIL_INDENT = 2
"""How much further than its label a line's tail starts when it goes below."""


@cache
def _wrapping() -> Console:
    """The console `Text.wrap` asks for its defaults (nothing is printed on it)."""
    return Console(width=80, color_system=None, legacy_windows=False)


Titles = Callable[[str], str | None]
"""A page's title by its slug (None: not known)."""
Row = tuple[Text | CutLine, str | None]
"""What one list line shows, and the page `enter` opens there (None: not selectable)."""


def counts_text(stats: BrainStats) -> str:
    """The counts as two lines: the pages, then the links."""
    counts = [f"{label} {value}" for label, value in stats.counts()]
    return " · ".join(counts[:4]) + "\n" + " · ".join(counts[4:])


def stats_rows(
    stats: BrainStats, limit: int = SECTION_ROWS, title: Titles | None = None
) -> list[Row]:
    """Every line of the list, section by section, in the CLI's order; each heading
    says how many entries its section has (a dangling target's linkers are its lines).
    Only the lines shown are built: a big brain has tens of thousands of orphans.
    `title(slug)`: the page's title, shown where it says more than the file name."""
    sections: list[tuple[str, int, int, Iterator[Line]]] = []
    rankings = (("hubs by links in", stats.hubs_in), ("hubs by links out", stats.hubs_out))
    for heading, hubs in rankings:
        width = max((len(str(degree)) for _, degree in hubs), default=0)
        lines = ((f"  {degree:>{width}}  ", slug, slug) for slug, degree in hubs)
        sections.append((heading, len(hubs), len(hubs), lines))
    for heading, slugs in (("orphans", stats.orphans), ("dead ends", stats.dead_ends)):
        sections.append((heading, len(slugs), len(slugs), (("  ", slug, slug) for slug in slugs)))
    dangling_lines = sum(1 + len(froms) for _, froms in stats.dangling)
    sections.append(
        ("dangling targets", len(stats.dangling), dangling_lines, _dangling_lines(stats))
    )
    if looks := len(stats.look_alikes):  # rare: no heading for none
        heading = "dangling targets that look like pages"
        sections.append((heading, looks, looks, _look_alikes(stats)))
    shown: list[Row] = []
    for heading, count, total, lines in sections:
        shown.append((Text(f"{heading} ({count})", style="bold"), None))
        shown += [_row(*line, title=title) for line in islice(lines, limit)]
        if total > limit:
            shown.append((Text(f"  … {total - limit} more lines", style="dim italic"), None))
    return shown


@dataclass(frozen=True, slots=True)
class Shape:
    """What the dialog shows of the analysis: the largest communities (of two pages or
    more) and the bridges, `ANALYSIS_ROWS` of each."""

    communities: tuple[Community, ...]
    bridges: tuple[Bridge, ...]

    @classmethod
    def of(cls, brain: Brain) -> Shape:
        grouped = (c for c in brain.communities() if c.size > 1)
        return cls(tuple(islice(grouped, ANALYSIS_ROWS)), tuple(brain.bridges(ANALYSIS_ROWS)))


def shape_rows(shape: Shape) -> list[Row]:
    """The analysis's two sections: communities (`  ID  SIZE  LABEL`, `enter` opens the
    label page) and bridges (`  SLUG  splits A + B`)."""
    rows: list[Row] = [(Text(f"communities ({len(shape.communities)})", style="bold"), None)]
    width = max((len(str(c.size)) for c in shape.communities), default=0)
    for community in shape.communities:
        rows.append(
            _row(
                f"  {community.id:>2}  {community.size:>{width}}  ",
                community.label,
                community.label,
            )
        )
    rows.append((Text(f"bridges ({len(shape.bridges)})", style="bold"), None))
    for bridge in shape.bridges:
        line, slug = _row("  ", bridge.slug, bridge.slug)
        tail = Text(f"  splits {splits_text(bridge.splits)}", style="dim")
        rows.append((CutLine(line.prefix, line.label, line.style, tail), slug))
    return rows


Line = tuple[str, str, str | None] | tuple[str, str, str | None, str]
"""(dim prefix, text, the page `enter` opens there or None[, a dim tail])."""


def _dangling_lines(stats: BrainStats) -> Iterator[Line]:
    for target, froms in stats.dangling:
        yield "  ✗ ", target, None
        for slug in froms:
            yield "      ← ", slug, slug


def _look_alikes(stats: BrainStats) -> Iterator[Line]:
    """`≈ TARGET → SLUG  (differences)`: `enter` opens the page it looks like."""
    for like in stats.look_alikes:
        writes = f"  ({', '.join(like.writes)})"
        yield f"  ≈ {printable(like.target)} → ", like.page, like.page, writes


def _row(
    prefix: str, label: str, slug: str | None, tail: str = "", *, title: Titles | None = None
) -> tuple[CutLine, str | None]:
    if slug is None:  # a missing target
        return CutLine(Text(prefix, style="red"), printable(label), "dim"), slug
    named = title(slug) if title is not None and not tail else None
    shown = printable(named) if named and title_says_more(slug, named) else ""
    line = CutLine(Text(prefix, style="dim"), printable(label), tail=Text(tail, "dim"), title=shown)
    return line, slug


class StatsDialog(ModalScreen[str | None]):
    """Dismisses with the slug chosen (`enter`), or None (`escape`)."""

    CSS_PATH = "stats.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,s,q", "dismiss", "Close", id="close-stats"),
    ]

    def __init__(self, brain: Brain) -> None:
        super().__init__()
        self.brain = brain
        self.stats: BrainStats | None = None
        self.shape: Shape | None = None
        """The communities and bridges, once computed (`show_shape`)."""
        self.rows: list[Row] = []
        """What the list shows, line by line, before it is cut to `cut_at` cells."""
        self.cut_at = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="stats-box"):
            yield Static("Stats", id="stats-title")
            yield Static("computing…", id="stats-counts", markup=False)
            yield OptionList(id="stats-list")
            yield Static(HINT, id="stats-hint", markup=False)

    @property
    def slugs(self) -> list[str | None]:
        """The page each list line opens, by option index (None: not selectable)."""
        return [slug for _, slug in self.rows]

    def on_mount(self) -> None:
        self._compute()

    @work(group="stats", exclusive=True, exit_on_error=False)
    async def _compute(self) -> None:
        self.show(await asyncio.to_thread(self.brain.stats))
        self._analyze()

    @work(group="analysis", exclusive=True, exit_on_error=False)
    async def _analyze(self) -> None:
        self.show_shape(await asyncio.to_thread(Shape.of, self.brain))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failure is said in the dialog, where the numbers would have been."""
        if event.state == WorkerState.ERROR:
            error = event.worker.error
            reason = str(error) if isinstance(error, OkfError) else f"unexpected error: {error!r}"
            self.query_one("#stats-counts", Static).update(f"could not compute the stats: {reason}")

    def show(self, stats: BrainStats) -> None:
        """Fill the dialog with `stats`; the first page listed is highlighted."""
        self.stats = stats
        self.rows = stats_rows(stats, title=self.brain.indexed_title)
        self.query_one("#stats-counts", Static).update(counts_text(stats))
        options = self.query_one(OptionList)
        options.clear_options()
        self.cut_at = self._line_width()
        options.add_options(self._options(self.rows))
        first = next((i for i, slug in enumerate(self.slugs) if slug is not None), None)
        options.highlighted = first
        options.focus()

    def show_shape(self, shape: Shape) -> None:
        """Add the communities and bridges below the stats (the cursor stays put)."""
        self.shape = shape
        rows = shape_rows(shape)
        self.rows += rows
        self.query_one(OptionList).add_options(self._options(rows))

    def on_resize(self) -> None:
        """The lines are cut again for the list's new width (after its layout)."""
        self.call_after_refresh(self._cut_again)

    def _cut_again(self) -> None:
        width = self._line_width()
        if not self.rows or width == self.cut_at:
            return
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        self.cut_at = width
        options.clear_options()
        options.add_options(self._options(self.rows))
        options.highlighted = highlighted

    def _line_width(self) -> int:
        """The cells a line of the list has: its content less the room of a scroll bar
        (kept whether one shows or not, so that one showing cuts nothing again)."""
        options = self.query_one(OptionList)
        padding = options.get_component_styles("option-list--option").padding.width
        scroll_bar = options.styles.scrollbar_size_vertical
        return max(1, options.content_region.width - scroll_bar - padding)

    def _options(self, rows: list[Row]) -> list[Option]:
        width = self.cut_at
        return [
            Option(line.cut(width) if isinstance(line, CutLine) else line, disabled=slug is None)
            for line, slug in rows
        ]

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.rows) and (slug := self.rows[event.option_index][1]):
            self.dismiss(slug)
