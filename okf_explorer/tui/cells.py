"""Text drawn in exactly the cells it was measured in, whatever the terminal.

Textual lays every row out by Rich's cell widths, and Rich measures grapheme clusters:
the card index symbol with the variation selector asking for emoji presentation
(U+1F5C2 U+FE0F) is 2 cells, and so is a thumb with a skin tone (U+1F44D U+1F3FD).
Terminals disagree: tmux 3.3 counts code point by code point (1 cell and 4), kitty or
WezTerm follow the cluster. Where the terminal draws fewer or more cells than the layout
assumed, everything after the cluster on that row moves and the row's border ends up a
cell off (seen in tmux on the community vault, whose maps of content are named with
U+1F5C2 U+FE0F). No string in this module holds those characters themselves: the TUI's
glyph test (`tests/tui/test_glyph_widths.py`) keeps every literal it draws of one width.

`TerminalWidths` is a Textual line filter (`App.get_line_filters`): it rewrites only
such clusters in the text about to be written, into text every terminal draws in the
cells Rich counted: the selector dropped (the symbol alone is one cell everywhere) and a
space added for the cell it no longer takes; a skin tone dropped (the emoji alone is two
cells everywhere). Names stay exact everywhere else (CLI output, `--json`, the text a
selection copies): only the terminal's picture changes.

Text cut or wrapped to a width is measured as Rich measures it (`RunCells`,
`cells_before`): Rich counts the selector with the symbol before it and the character
after a zero-width joiner as no cell, so a cut by each character's own width drew rows
a cell wider than the layout gave them, and lost their last character.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

EMOJI_SELECTOR = 0xFE0F
"""VARIATION SELECTOR-16, emoji presentation: what makes Rich count a 1-cell symbol as 2."""
KEYCAP = 0x20E3
"""COMBINING ENCLOSING KEYCAP, which may follow the selector (a keycap digit)."""
SKIN_TONES = (0x1F3FB, 0x1F3FF)
"""The emoji modifiers (Fitzpatrick skin tones), first and last."""
_TONES = f"{chr(SKIN_TONES[0])}-{chr(SKIN_TONES[1])}"
_CLUSTER = re.compile(f"(.){chr(EMOJI_SELECTOR)}({chr(KEYCAP)}?)|[{_TONES}]", re.DOTALL)
"""A symbol with the emoji selector (and a keycap's enclosing mark), or a skin tone."""
_NEEDS_WORK = re.compile(f"[{chr(EMOJI_SELECTOR)}{_TONES}]")
ZERO_WIDTH_JOINER = chr(0x200D)
"""Rich counts the character after it as no cell, whatever it is (`…` too)."""
_SELECTOR = chr(EMOJI_SELECTOR)
_JOINING = frozenset((_SELECTOR, ZERO_WIDTH_JOINER))


def terminal_text(text: str) -> str:
    """`text` with each cluster terminals draw at another width than Rich counts made
    into text they all draw at Rich's count (the same `cell_len`; else `text`)."""
    if _NEEDS_WORK.search(text) is None:
        return text
    drawn = _CLUSTER.sub(_drawn, text)
    return drawn if cell_len(drawn) == cell_len(text) else text


def _drawn(match: re.Match[str]) -> str:
    if match.group(1) is None:  # a skin tone: the emoji before it keeps its two cells
        return ""
    symbol = match.group(1) + match.group(2)
    return symbol + " " * max(0, cell_len(match.group(0)) - cell_len(symbol))


def counted_in_context(text: str) -> bool:
    """Whether Rich counts some character of `text` with its neighbours: the emoji
    selector makes the symbol before it two cells (U+26A0 so), and the character after
    a zero-width joiner adds none (marks between them included). Cut or wrapped by
    each character's own width, such text was drawn a cell wider than counted."""
    return not _JOINING.isdisjoint(text)


class RunCells:
    """The cells of a run of text as Rich counts the whole run, added up one character
    at a time (`add`), left to right: a character's own width, but none for the one
    after a zero-width joiner, and one more for the emoji selector after a symbol it
    widens (the last character that took cells, marks between them included). Measuring
    the run so far again at each character was as exact, and took 238 ms to wrap a line
    of 200,000 characters holding a selector every ten (121 ms so)."""

    __slots__ = ("_last", "_skip")

    def __init__(self) -> None:
        self._last: str | None = None
        self._skip = False

    def add(self, char: str) -> int:
        """The cells `char` adds to the run."""
        if self._skip:
            self._skip = False
            return 0
        if char == ZERO_WIDTH_JOINER:
            self._skip = True
            return 0
        if char == _SELECTOR:
            last, self._last = self._last, None
            return _widened(last) if last is not None else 0
        width = cell_len(char)
        if width:
            self._last = char
        return width


@lru_cache(maxsize=1024)
def _widened(symbol: str) -> int:
    """The cell the emoji selector adds after `symbol` (U+26A0: one; a letter: none)."""
    return cell_len(symbol + _SELECTOR) - cell_len(symbol)


def cells_before(text: str, at: int, end: int, in_context: bool) -> int:
    """The cells `text[at]` adds in front of `text[at + 1:end]` as Rich counts the run,
    `in_context`: `counted_in_context(text)` (else its own width). Measured again each
    time: a run read from its end has no state to carry (names are short)."""
    if in_context:
        return cell_len(text[at:end]) - cell_len(text[at + 1 : end])
    return cell_len(text[at])


class TerminalWidths(LineFilter):
    """The line filter (see the module docstring); a segment without such a cluster is
    passed on as it is."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if not any(_NEEDS_WORK.search(segment.text) for segment in segments):
            return segments
        return [
            Segment(terminal_text(text), style, control) if not control else segment
            for segment in segments
            for text, style, control in (segment,)
        ]
