"""Where a line of Chinese or Japanese may wrap: between any two of its characters.

Textual wraps a line at its spaces only, so a sentence of Chinese or Japanese (written
without spaces) is one long word: it moves whole to the next row, leaving the row before
half empty (an LLM-kept Chinese wiki at 150 columns: `…多步骤任务的 AI` then a break at
48 of 70 cells), or is chopped at the pane's edge. A browser, and so Obsidian, breaks such
text between any two characters, except before a closing mark (`，。）」`) or after an
opening one (`（「`), the simple rule of CSS's `line-break: normal`.

`cjk_cuts` gives the offsets a line so wrapped starts its rows at, for lines holding such
characters; every other line wraps as Textual wraps it.
"""

from __future__ import annotations

import re

from okf_explorer.tui.cells import RunCells

WIDE_SCRIPT = re.compile(  # escapes, not the characters: the range ends are unassigned
    r"[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf"
    r"\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003134f]"
)
"""Han, kana, CJK punctuation and full-width forms: text that breaks between characters
(Hangul is written with spaces between words and wraps at them)."""
NO_BREAK_BEFORE = frozenset(
    "、。，．：；？！）］｝」』】〉》〕…‥,.;:?!)]}"  # closing marks
    "ー々ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ"  # the long vowel mark, small kana
)
"""Characters a row never starts with (closing marks, small kana, the long vowel mark)."""
NO_BREAK_AFTER = frozenset("（［｛「『【〈《〔([{")
"""Characters a row never ends with (opening marks)."""


def has_wide_script(text: str) -> bool:
    return WIDE_SCRIPT.search(text) is not None


def cjk_cuts(text: str, width: int) -> list[int]:
    """The offsets in `text` (one line) where its second and later rows start, wrapped
    `width` cells wide: at spaces, and between two characters when either is Chinese or
    Japanese (`NO_BREAK_BEFORE`, `NO_BREAK_AFTER` kept); a run with no break in `width`
    cells is cut at the pane's edge. Spaces at a row's end hang past it (the caller drops
    them, as Textual does); a row never starts with one."""
    width = max(1, width)
    run = RunCells()  # U+26A0 with the emoji selector: two cells, as Rich counts them
    cuts: list[int] = []
    start = used = at = 0
    last_break: int | None = None
    while at < len(text):
        char = text[at]
        if at > start and _may_break(text, at):
            last_break = at
        cells = run.add(char)
        if char != " " and used + cells > width and at > start:
            cut = last_break if last_break is not None else at
            cuts.append(cut)
            start, used, at, last_break = cut, 0, cut, None
            run = RunCells()  # the row is measured from its own start
            continue
        used += cells
        at += 1
    return cuts


def _may_break(text: str, at: int) -> bool:
    """Whether a row may start at `at` (between `text[at - 1]` and `text[at]`)."""
    before, char = text[at - 1], text[at]
    if before == " ":
        return char != " "
    if char == " " or char in NO_BREAK_BEFORE or before in NO_BREAK_AFTER:
        return False
    return bool(WIDE_SCRIPT.match(char) or WIDE_SCRIPT.match(before))
