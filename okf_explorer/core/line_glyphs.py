"""Box-drawing lines by the ways they leave a cell: what the local graph (`g`) and a drawn
flowchart (`core.flowchart`) draw their links with. A cell's ways are `UP`, `DOWN`,
`LEFT` and `RIGHT` or-ed; where lines meet, the cell takes the glyph of every way they go
(`├`, `┼`)."""

from __future__ import annotations

__all__ = ["DOWN", "GLYPHS", "LEFT", "RIGHT", "UP"]

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
