"""What a diagram is drawn on and as: cells of box-drawing lines and text, written out as
lines (`Drawing`).

A line's cell keeps the ways its lines leave it (`UP`, `DOWN`, `LEFT`, `RIGHT` or-ed);
where lines meet, the cell takes the glyph of every way they go (`├`, `┼`). Text and
boxes are characters put on cells, over any line. A wide character (CJK) takes two
cells, as a terminal draws it. The local graph (`g`) draws its links with the same
glyphs (`GLYPHS`)."""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ARROWS",
    "DOWN",
    "GLYPHS",
    "LEFT",
    "RIGHT",
    "ROUND",
    "SQUARE",
    "UP",
    "Cells",
    "Drawing",
    "NotDrawn",
    "cells",
]

UP, DOWN, LEFT, RIGHT = 1, 2, 4, 8
GLYPHS = {
    LEFT: "─", RIGHT: "─", LEFT | RIGHT: "─",
    UP: "│", DOWN: "│", UP | DOWN: "│",
    DOWN | RIGHT: "╭", DOWN | LEFT: "╮", UP | RIGHT: "╰", UP | LEFT: "╯",
    UP | DOWN | RIGHT: "├", UP | DOWN | LEFT: "┤",
    LEFT | RIGHT | DOWN: "┬", LEFT | RIGHT | UP: "┴",
    UP | DOWN | LEFT | RIGHT: "┼",
}  # fmt: skip
"""The glyph of a cell by the ways its lines leave it (corners rounded)."""
DOTTED = {LEFT: "┄", RIGHT: "┄", LEFT | RIGHT: "┄", UP: "┆", DOWN: "┆", UP | DOWN: "┆"}
"""A dotted line's glyph where it runs straight (a turn or a meeting is drawn whole)."""
ARROWS = {DOWN: "▼", UP: "▲", RIGHT: "►", LEFT: "◄"}
"""An arrowhead by the way it points."""
SQUARE, ROUND = "┌┐└┘", "╭╮╰╯"
"""A box's corners: top left, top right, bottom left, bottom right."""


class NotDrawn(Exception):
    """The source is not a diagram drawn whole (it stays as written)."""


@dataclass(frozen=True, slots=True)
class Drawing:
    """A diagram drawn: its `lines`; the columns no box or text stands on
    (`open_columns`: where a drawing too wide for its room is best cut); what it says
    beside the drawing, a line each (`notes`: a flowchart's groups)."""

    lines: tuple[str, ...]
    open_columns: frozenset[int]
    notes: tuple[str, ...] = ()


def cells(text: str) -> int:
    """The cells `text` takes on a terminal."""
    return sum(_width(char) for char in text)


def _width(char: str) -> int:
    if unicodedata.combining(char) or char in "\u200b\u200d\ufe0f":
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


class Cells:
    """The cells a diagram is drawn on, by (column, row)."""

    def __init__(self) -> None:
        self.ways: dict[tuple[int, int], int] = {}
        self.dotted: set[tuple[int, int]] = set()
        self.chars: dict[tuple[int, int], str] = {}
        self.taken: set[int] = set()
        """The columns boxes and texts stand on."""

    def line(self, points: list[tuple[int, int]], dotted: bool = False) -> None:
        """A line through `points` (column, row), each leg straight."""
        ways = self.ways
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            steps = max(abs(x1 - x0), abs(y1 - y0))
            dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
            onward, back = way_of(dx, dy), way_of(-dx, -dy)
            for step in range(steps + 1) if steps else ():
                xy = (x0 + dx * step, y0 + dy * step)
                way = onward if step == 0 else back if step == steps else onward | back
                ways[xy] = ways.get(xy, 0) | way
                if dotted:
                    self.dotted.add(xy)

    def put(self, x: int, y: int, char: str) -> None:
        """One character (a box's border, an arrowhead) on a cell, over any line."""
        self.chars[(x, y)] = char

    def text(self, x: int, y: int, text: str, take: bool = True) -> None:
        """`text` from (`x`, `y`) on, its columns taken unless `take` is False (a
        drawing may be cut through it)."""
        if take:
            self.taken.update(range(x, x + cells(text)))
        for char in text:
            self.chars[(x, y)] = char
            if _width(char) == 2:
                self.chars[(x + 1, y)] = ""
            x += _width(char)

    def box(
        self,
        left: int,
        top: int,
        size: tuple[int, int],
        corners: str = SQUARE,
        lines: Sequence[str] = (),
    ) -> None:
        """A box `size` (width, height) cells from (`left`, `top`): its border
        (`corners`: top left, top right, bottom left, bottom right), its inside blank but
        for `lines`, each centred on a row of its own from the first; its columns taken."""
        width, height = size
        for row in range(height):
            for column in range(width):
                edge_row, edge_column = row in (0, height - 1), column in (0, width - 1)
                if edge_row and edge_column:
                    char = corners[(row > 0) * 2 + (column > 0)]
                else:
                    char = "─" if edge_row else "│" if edge_column else " "
                self.chars[(left + column, top + row)] = char
        self.taken.update(range(left, left + width))
        for number, line in enumerate(lines):
            self.text(left + 2 + (width - 4 - cells(line)) // 2, top + 1 + number, line)

    def drawing(self, most_cells: int, notes: tuple[str, ...] = ()) -> Drawing:
        """The cells as lines (each without its trailing blanks), from the leftmost cell
        used; NotDrawn when they would take more than `most_cells`."""
        used = set(self.chars) | set(self.ways)
        if not used:
            raise NotDrawn
        least = min(0, min(x for x, _ in used))  # a note may stand left of the first line
        width = max(x for x, _ in used) + 1 - least
        height = max(y for _, y in used) + 1
        if width * height > most_cells:
            raise NotDrawn
        rows = []
        for y in range(height):
            row = []
            for x in range(least, least + width):
                if (x, y) in self.chars:
                    row.append(self.chars[(x, y)])
                elif (x, y) in self.ways:
                    ways = self.ways[(x, y)]
                    dotted = (x, y) in self.dotted and ways in DOTTED
                    row.append(DOTTED[ways] if dotted else GLYPHS[ways])
                else:
                    row.append(" ")
            rows.append("".join(row).rstrip())
        open_columns = frozenset(range(width)) - {x - least for x in self.taken}
        return Drawing(tuple(rows), open_columns, notes)


def way_of(dx: int, dy: int) -> int:
    """The way a step of (`dx`, `dy`) goes on the screen."""
    if dy:
        return DOWN if dy > 0 else UP
    return RIGHT if dx > 0 else LEFT
