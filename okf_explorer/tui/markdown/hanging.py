"""Wrapping with a hanging indent: a wrapped line's continuation lines start under its
text, not at the margin.

A line's hang is what it starts with: quote bars (`▌ `, the light renderer's), spaces,
and a list marker (`• `, `- `, `3. `), the marker blanked on the continuation lines. So
`  • Cost Allocation Standard — → policies/margin-standard.md` wraps as

    `  • Cost Allocation Standard — →`
    `    policies/margin-standard.md`

Used by the light renderer (`tui.markdown.fast_render.wrap_piece`) and the page header
(`HangingContent`). Textual's own wrapper (`Content._wrap_and_format`) wraps the text
after the hang; the hang is then put back before each screen line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from textual.content import Content, _FormattedLine
from textual.css.types import TextAlign, TextOverflow
from textual.selection import Selection
from textual.style import Style

QUOTE_BAR = "▌ "
"""How the light renderer marks a line of a quote (`tui.markdown.fast_render`)."""
StyleGetter = Callable[[str | Style], Style]
_HANG = re.compile(rf"((?:{QUOTE_BAR})*)( *)(• |- |\d+\. +)?")


def hang_of(plain: str) -> str:
    """What a continuation line of `plain` starts with (see the module doc)."""
    bars, spaces, marker = _HANG.match(plain).groups()  # type: ignore[union-attr]
    return bars + spaces + " " * len(marker or "")


def wrap_hanging(
    line: Content, width: int, y: int, get_style: StyleGetter = Style.parse
) -> list[_FormattedLine]:
    """One line (no newline) wrapped `width` cells wide with its hang. `x` is where each
    screen line's text starts in the line, less the hang it repeats, so a selection
    maps as in Textual's wrapper. A hang of half the width or more is not repeated.
    (Textual's own wrapper is called as `Content`'s: `line` may be a `HangingContent`.)"""
    hang = hang_of(line.plain)
    if not hang or 2 * len(hang) > width:
        wrapped = Content._wrap_and_format(line, width, get_style=get_style)
        for formatted in wrapped:
            formatted.y = y
        return wrapped
    heads = [line[: len(hang)], Content(hang)]
    parts = Content._wrap_and_format(line[len(hang) :], width - len(hang), get_style=get_style)
    lines = [
        _FormattedLine(get_style, heads[n > 0] + part.content, width, part.x, y)
        for n, part in enumerate(parts)
    ]
    lines[-1].line_end = True
    return lines


class HangingContent(Content):
    """`Content` whose lines wrap with a hanging indent (the page header's sources,
    lists and nested values); anything but plain left-aligned wrapping is Textual's."""

    @classmethod
    def of(cls, content: Content) -> HangingContent:
        return cls(content.plain, list(content.spans), content.cell_length)

    def get_height(self, rules: object, width: int) -> int:
        return len(self._wrap_and_format(width))

    def _wrap_and_format(
        self,
        width: int,
        align: TextAlign = "left",
        overflow: TextOverflow = "fold",
        no_wrap: bool = False,
        line_pad: int = 0,
        tab_size: int = 8,
        selection: Selection | None = None,
        selection_style: Style | None = None,
        post_style: Style | None = None,
        get_style: StyleGetter = Style.parse,
    ) -> list[_FormattedLine]:
        if no_wrap or line_pad or align not in ("left", "start"):
            return super()._wrap_and_format(
                width, align, overflow, no_wrap, line_pad, tab_size,
                selection, selection_style, post_style, get_style,
            )  # fmt: skip
        lines: list[_FormattedLine] = []
        for y, line in enumerate(self.split(allow_blank=True)):
            if post_style is not None:
                line = line.stylize(post_style)
            span = selection.get_span(y) if selection is not None else None
            if selection_style is not None and span is not None:
                end = len(line.plain) if span[1] == -1 else span[1]
                line = line.stylize(selection_style, span[0], end)
            lines += wrap_hanging(line.expand_tabs(tab_size), max(1, width), y, get_style)
        return lines
