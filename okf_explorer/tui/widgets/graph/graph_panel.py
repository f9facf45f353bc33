"""The local graph panel (`g`): the current slice drawn as text, one line per page,
arrows from the edge records.

Hidden until `g`; while shown it follows the traversal panel (every new slice,
so depth and direction changes too) and draws in its own worker. One line per page:
the root in reverse video, missing (dangling) pages in red with `✗`; `enter`
on a page's line opens it.

Drawn by networkx's `generate_network_text` (networkx is already a dependency).
Chosen after measuring the candidates on a 40-node, 80-edge slice on the shared
2-core machine:

- `graphtty` 0.1.8 (boxes and routed lines, pure Python): 2-10 ms, but edges
  that share a corridor merge into one line, so which page links to which can
  no longer be read off the drawing (nor checked by a test), and a drawing has
  no notion of "the node under the cursor" for `enter`.
- `netext` 0.5.0 (Textual-native): 49 ms for 10 nodes, 261 ms for 25, 3.5 s for
  40: far over the 100 ms budget even in a worker.
- networkx `generate_network_text`: under 1 ms (7 ms cold), each page on its own
  line (so `enter` on a line opens that page), every edge exact: a tree edge is
  `parent ─╼ child`, any other edge is listed on its target as `╾ source`
  (an edge to a page already drawn also leaves a `─╼ ...` line under its source).

Arrows follow the edge records (SPEC §5): `from ─╼ to`, so in an `in` walk the
arrow runs from the page walked from to the page linking to it, as the
traversal panel lists it. At most `NODE_CAP` pages are drawn, the first ones the
walk reached (the root first); edges between drawn pages are all drawn, and the
rest are counted in `more_pages` / `more_edges`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter

import networkx as nx
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from okf_explorer.core.graph.traverse import Edge
from okf_explorer.core.text_safety import printable
from okf_explorer.tui.failures import ReportsWorkers
from okf_explorer.tui.state.navigator import View
from okf_explorer.tui.state.slice import shorten_left, slice_title

NODE_CAP = 40
MIN_NAME = 8
"""A line with less room than this for its page name is left for the list to cut."""
MISSING_MARK = "✗ "
BACK_MARK = " ╾ "
_FROM_TO = itemgetter(0, 1)  # an `Edge` is a (frm, to, hop, direction) tuple
_GLYPHS = ("╙── ", "╟── ", "├─╼ ", "└─╼ ", "│   ", "    ", "╎   ")


@dataclass(frozen=True, slots=True)
class DrawnLine:
    """One line of the drawing: `slug` is the page it shows (None for a `...` line)."""

    text: str
    slug: str | None = None
    root: bool = False
    exists: bool = True


@dataclass(frozen=True, slots=True)
class SliceDrawing:
    lines: tuple[DrawnLine, ...]
    edges: frozenset[tuple[str, str]]
    """The (from, to) pairs drawn: every distinct edge record between drawn pages."""
    more_pages: int = 0
    more_edges: int = 0


def draw_slice(
    root: str,
    edges: Sequence[Edge],
    exists: Callable[[str], bool],
    cap: int = NODE_CAP,
) -> SliceDrawing:
    """The drawing of the slice walked from `root` (blocking: call it in a worker)."""
    pairs = dict.fromkeys(map(_FROM_TO, edges))  # C loops: a 40k-edge slice in ~10 ms
    order: dict[str, None] = {root: None}
    for frm, to in pairs:
        order[frm] = order[to] = None
    kept = list(order)[: max(1, cap)]
    kept_set = set(kept)
    drawn = [pair for pair in pairs if pair[0] in kept_set and pair[1] in kept_set]
    graph = nx.DiGraph()
    labels: dict[str, str] = {}
    for slug in kept:
        label = printable(slug) if exists(slug) else MISSING_MARK + printable(slug)
        while label in labels:  # two names shown alike: keep lines tellable apart
            label += "·"
        labels[label] = slug
        graph.add_node(slug, label=label)
    graph.add_edges_from(drawn)
    lines = tuple(
        _line(text, labels, root, exists)
        for text in nx.generate_network_text(graph, sources=[root], with_labels=True)
    )
    return SliceDrawing(lines, frozenset(drawn), len(order) - len(kept), len(pairs) - len(drawn))


def _line(text: str, labels: dict[str, str], root: str, exists: Callable[[str], bool]) -> DrawnLine:
    label = line_label(text)
    slug = labels.get(label) if label is not None else None
    if slug is None:
        return DrawnLine(text)
    return DrawnLine(text, slug, slug == root, exists(slug))


def line_label(text: str) -> str | None:
    """The page label a drawn line shows, or None for a `...` line."""
    rest = text
    while True:
        for glyph in _GLYPHS:
            if rest.startswith(glyph):
                rest = rest[len(glyph) :]
                break
        else:
            break
    label = rest.split(BACK_MARK, 1)[0].strip()
    return None if label in ("", "...") else label


def fit_line(text: str, width: int) -> str:
    """A drawn line cut to `width` cells so its page's file name stays: the sources after
    `╾` go first (`…` marks them), then the name is cut from the left (`…/Create a vault`),
    as in the link tree and the traversal rows."""
    label = line_label(text)
    if len(text) <= width or label is None:
        return text
    start = text.index(label, len(text) - len(text.lstrip("╙╟├└│╎─╼ ")))
    prefix, after = text[:start], text[start + len(label) :]
    room = width - len(prefix) - (1 if after else 0)
    if room < MIN_NAME:
        return text
    mark = MISSING_MARK if label.startswith(MISSING_MARK) else ""
    name = label[len(mark) :]
    if len(label) > room:
        name = shorten_left(name, room - len(mark))
    return prefix + mark + name + ("…" if after else "")


def back_sources(text: str) -> list[str]:
    """The labels a line lists after `╾` (the sources of its other incoming edges)."""
    if BACK_MARK not in text:
        return []
    return [name.strip() for name in text.split(BACK_MARK, 1)[1].split(", ")]


# ------------------------------------------------------------------ the panel


class GraphPanel(ReportsWorkers, Vertical):
    """The drawing of the slice, one selectable line per page."""

    DEFAULT_CSS = """
    GraphPanel { border: round $primary; height: 1fr; display: none; }
    GraphPanel.shown { display: block; }
    GraphPanel:focus-within { border: round $accent; }
    GraphPanel > OptionList, GraphPanel > OptionList:focus {
        height: 1fr; border: none; padding: 0; text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    class PageChosen(Message):
        """`enter` on a page's line."""

        def __init__(self, slug: str, exists: bool = True) -> None:
            super().__init__()
            self.slug = slug
            self.exists = exists

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: View | None = None
        self.drawing: SliceDrawing | None = None
        self._edges: list[Edge] = []
        self._exists = lambda slug: True

    def compose(self) -> ComposeResult:
        yield OptionList(id="graph-lines")

    @property
    def shown(self) -> bool:
        return self.has_class("shown")

    def toggle(self) -> bool:
        """Show or hide the panel; returns whether it is shown now."""
        self.toggle_class("shown")
        if self.shown and self.view is not None:
            self._draw()
        return self.shown

    def follow(self, view: View, edges: Sequence[Edge], exists) -> None:  # type: ignore[no-untyped-def]
        """A new slice is on screen: redraw it if the panel is shown."""
        self.view, self._edges, self._exists = view, list(edges), exists
        if self.shown:
            self._draw()

    def _draw(self) -> None:
        assert self.view is not None
        self._drawn(self.view, self._edges, self._exists)

    @work(group="graph", exclusive=True, exit_on_error=False)
    async def _drawn(self, view: View, edges: list[Edge], exists) -> None:  # type: ignore[no-untyped-def]
        drawing = await asyncio.to_thread(draw_slice, view.slug, edges, exists)
        if view != self.view:
            return
        self.drawing = drawing
        self.border_title = Text("graph · " + slice_title(view))
        more = []
        if drawing.more_pages:
            more.append(f"+{drawing.more_pages} more pages")
        if drawing.more_edges:
            more.append(f"+{drawing.more_edges} more edges")
        self.border_subtitle = Text(" · ".join(more))
        self._show_lines()

    def _show_lines(self) -> None:
        """The drawing's lines, each cut to the list's width so page names keep their
        file name (`fit_line`); drawn again when the panel is resized."""
        if self.drawing is None:
            return
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        width = options.scrollable_content_region.width
        options.clear_options()
        lines = self.drawing.lines
        options.add_options([_option(i, line, width) for i, line in enumerate(lines)])
        if lines:
            options.highlighted = highlighted if highlighted is not None else 0

    def on_resize(self) -> None:
        self._show_lines()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.drawing is None or event.option_id is None:
            return
        line = self.drawing.lines[int(event.option_id)]
        if line.slug is not None:
            self.post_message(self.PageChosen(line.slug, line.exists))


def _option(i: int, line, width: int) -> Option:  # type: ignore[no-untyped-def]
    shown = fit_line(line.text, width) if width > 0 else line.text
    text = Text(shown, no_wrap=True, overflow="ellipsis")
    if line.slug is None:
        text.stylize("dim")
    elif line.root:
        text.stylize("bold reverse", len(shown) - len(shown.lstrip("╙─ ")))
    elif not line.exists:
        text.stylize("red")
    return Option(text, id=str(i), disabled=line.slug is None)
