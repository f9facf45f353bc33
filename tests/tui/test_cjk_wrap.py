"""A paragraph of Chinese or Japanese wraps between its characters, as a browser and so
Obsidian wrap it (seen on an LLM-kept Chinese wiki at 150 columns: Textual wraps at
spaces only, so `…多步骤任务的 AI` ended a row at 48 of 70 cells and the sentence's
next part, one long word without spaces, went whole to the next row)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from rich.cells import cell_len
from textual.content import Content

from okf_explorer.tui.markdown.cjk_wrap import NO_BREAK_AFTER, NO_BREAK_BEFORE, cjk_cuts
from okf_explorer.tui.markdown.draw import wrapped

CHINESE = (
    "能长期自主运行、由 LLM 驱动执行多步骤任务的 AI 系统。与单轮对话不同，autonomous agents "
    "能规划、记忆、使用工具、调用 API，并在完成任务过程中进行自我反思（见「记忆系统」）。"
)
WARNED = (  # a Chinese LLM-written wiki's warnings: U+26A0 with the emoji selector
    "\u26a0\ufe0f 已弃用：加 status 字段，正文顶部写原因，保留链接稳定。"
    "请看 \U0001f468\u200d\U0001f4bb 开发者的说明\u26a0\ufe0f，不要删除路径。"
)
"""Rich counts `⚠️` two cells and `👨‍💻` two: counted per character (one, and four),
a row holding `⚠️` was drawn a cell wider than the pane and lost its last character."""
JAPANESE = (
    "ノートを作成するには、左のサイドバーにある「新規ノート」をクリックします。"
    "ショートカットも使えます。"
)


@pytest.mark.parametrize("text", [CHINESE, JAPANESE, WARNED])
@pytest.mark.parametrize("width", [7, 12, 20, 40, 70])
def test_rows_fill_the_width_and_keep_every_character(text: str, width: int) -> None:
    rows = wrapped(Content(text), width)
    shown = [row.plain for row, _ in rows]
    assert all(cell_len(row) <= width for row in shown), shown
    assert "".join(shown).replace(" ", "") == text.replace(" ", "")
    for before, after in pairwise(shown):
        if width < 12:  # `统」）。` is 8 cells: a pane narrower cuts it at its edge
            break
        assert after[0] not in NO_BREAK_BEFORE, shown  # no row starts with `，。）」`
        assert before[-1] not in NO_BREAK_AFTER, shown  # nor ends with `（「`
    offsets = [at for _, at in rows]
    assert [text[at] for at in offsets[1:]] == [row[0] for row in shown[1:]]


def test_the_first_row_is_full_not_cut_at_the_last_space() -> None:
    at_spaces = [row.plain for row in Content(CHINESE).wrap(70)]
    rows = [row.plain for row, _ in wrapped(Content(CHINESE), 70)]
    assert cell_len(at_spaces[0]) == 46 and cell_len(rows[0]) >= 66, (at_spaces, rows)


def test_latin_text_still_wraps_as_textual_wraps_it() -> None:
    line = Content("A long sentence of words, " * 6)
    assert [row.plain for row, _ in wrapped(line, 30)] == [row.plain for row in line.wrap(30)]
    assert cjk_cuts("ab", 1) == [1]  # no break in a run: cut at the pane's edge
