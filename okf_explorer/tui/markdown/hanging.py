"""Text whose lines wrap with a hanging indent: `HangingContent`.

A wrapped line's continuation rows start under its text, not at the margin: a page
header's source or list value under its bullet, the `?` help's action under its own
column. Wrapping is Textual's own (`Content.wrap`, through `draw.wrapped`), but for a
word longer than a whole row (`filled_rows`); the rows are drawn as the engine draws a
body's (`body.row_strip`).
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import RenderOptions

from okf_explorer.tui.markdown.body import row_strip
from okf_explorer.tui.markdown.draw import Row, wrapped

_HANG = re.compile(r"( *)(• |- |\d+\. +)?")
_WORD = re.compile(r"(\S+)(\s*)")
_WORDLIKE = re.compile(r"\w")


def hang_of(plain: str) -> str:
    """What a continuation row of `plain` starts with: its indent, and a list marker
    (`• `, `- `, `3. `) blanked."""
    spaces, marker = _HANG.match(plain).groups()  # type: ignore[union-attr]
    return spaces + " " * len(marker or "")


def filled_rows(line: Content, width: int) -> list[tuple[Content, int]]:
    """`line` (no newline) wrapped `width` cells wide, with the offset in it each row
    starts at: as Textual wraps (`draw.wrapped`), but for a word longer than a whole row
    that would leave the row before it bare, marks only. Such a word starts on that row
    and fills it (a header's `• → kb:install-planning-for-a-minrole-server-deployment-…`,
    seen at 80 columns on an LLM-written wiki, took a row for its `→` alone); after a
    label (`• Export spec — https://…`) it still starts a row of its own."""
    rows = wrapped(line, width)
    if all(_WORDLIKE.search(row.plain) for row, _ in rows[:-1]):
        return rows
    plain = line.plain
    cuts: list[int] = []
    row_start = at = len(plain) - len(plain.lstrip())
    used = cell_len(plain[:at])
    for found in _WORD.finditer(plain, at):
        word, start = found.group(1), found.start()
        size = cell_len(word)
        beyond = used + size > width and start > row_start
        if beyond and (size <= width or used >= width or _WORDLIKE.search(plain, row_start, start)):
            cuts.append(start)  # a new row, as Textual wraps
            row_start, used = start, 0
        if used + size <= width:
            used += cell_len(found.group())
            continue
        for offset, char in enumerate(word):  # fill the row, then whole rows
            cells = cell_len(char)
            if used + cells > width:
                cuts.append(start + offset)
                row_start, used = start + offset, 0
            used += cells
        used += cell_len(found.group(2))
    starts = [0, *cuts]
    return [(row.rstrip(), x) for row, x in zip(line.divide(cuts), starts, strict=True)]


class HangingContent(Content):
    """`Content` whose lines wrap with a hanging indent: a wrapped line's continuation
    rows start under its text, not at the margin, so

        `  • Cost Allocation Standard — →`
        `    policies/margin-standard.md`

    (a source's resource, a list value, a nested value). Wrapping is Textual's own
    (`Content.wrap`); anything but plain left-aligned wrapping is left to `Content`."""

    hang: int | None = None
    """Every line's continuation rows start this many cells in (None: as `hang_of` says):
    a table of two columns whose second wraps under itself (the `?` help)."""

    @classmethod
    def of(cls, content: Content, hang: int | None = None) -> HangingContent:
        made = cls(content.plain, list(content.spans), content.cell_length)
        made.hang = hang
        return made

    def rows(self, width: int) -> list[Row]:
        """The rows `width` wide (a hang of half the width or more is not repeated)."""
        found: list[Row] = []
        for y, line in enumerate(self.split("\n", allow_blank=True)):
            line = line.expand_tabs(8)
            hang = hang_of(line.plain) if self.hang is None else " " * self.hang
            if not hang or 2 * len(hang) > width:
                found += [Row(part, y, x) for part, x in filled_rows(line, width)]
                continue
            heads = [line[: len(hang)], Content(hang)]
            for n, (part, x) in enumerate(filled_rows(line[len(hang) :], width - len(hang))):
                found.append(Row(heads[n > 0] + part, y, x))
        return found

    def _plain_rules(self, rules: RulesMap) -> bool:
        return (
            rules.get("text_wrap", "wrap") != "nowrap"
            and rules.get("text_align", "left") in ("left", "start")
            and not rules.get("line_pad", 0)
        )

    def get_height(self, rules: RulesMap, width: int) -> int:
        if not self._plain_rules(rules):
            return super().get_height(rules, width)
        return len(self.rows(max(1, width)))

    def render_strips(
        self, width: int, height: int | None, style: VisualStyle, options: RenderOptions
    ) -> list[Strip]:
        if not width or not self._plain_rules(options.rules):
            return super().render_strips(width, height, style, options)
        rows = self.rows(width)[:height] if height is not None else self.rows(width)
        if options.post_style is not None:
            for row in rows:
                row.content = row.content.stylize(options.post_style)
        return [row_strip(row, style, options) for row in rows]
