"""Emphasis beside Chinese, Japanese and Korean text opens and closes as Obsidian draws it
(`tui.markdown.cjk_emphasis`): LLM-kept wikis in those languages showed `**「重要」**です`
with its stars on 26-44 pages each, CommonMark's flanking rules reading the run beside a
CJK character as opening and closing nothing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from okf_explorer.tui.markdown.cjk_emphasis import is_cjk, use_cjk_emphasis
from okf_explorer.tui.markdown.parser import parse
from okf_explorer.tui.markdown.prepare import prepare_body

WRITTEN = {  # as the wikis write it (in words of our own), and what a reader sees stressed
    '회의는 **"언제, 어디서"**의 차이입니다.': ("strong", '"언제, 어디서"'),
    "課題に番号を振る。**優先度（高）**は：": ("strong", "優先度（高）"),
    "先把计划当作**“先做什么”的问题**，然后": ("strong", "“先做什么”的问题"),
    "これは*「大事」*です。": ("em", "「大事」"),
    "~~「取消」~~になった": ("s", "「取消」"),
    "**그 단어(the word)**를 굵게 보여 주세요.": ("strong", "그 단어(the word)"),
}


def _stressed(markdown: str) -> list[tuple[str, str]]:
    """(tag, text) of each emphasis, strong or strike-through of `markdown`'s one line."""
    found, tag = [], None
    for token in parse(markdown)[1].children or []:
        if token.type.endswith("_open"):
            tag = token.tag
        elif token.type == "text" and tag is not None:
            found.append((tag, token.content))
        elif token.type.endswith("_close"):
            tag = None
    return found


def test_emphasis_beside_cjk_text_opens_and_closes() -> None:
    assert {line: _stressed(line) for line in WRITTEN} == {
        line: [stressed] for line, stressed in WRITTEN.items()
    }


def test_the_page_draws_the_words_without_their_stars() -> None:
    body = "\n\n".join(WRITTEN)
    drawn = "\n".join(
        row.content.plain
        for piece in prepare_body(body, width=90).pieces
        if piece.drawing is not None
        for row in piece.drawing.rows
    )
    assert "**" not in drawn and "~~" not in drawn and "*「" not in drawn
    assert "優先度（高）は" in drawn


def test_a_parser_without_strike_through_takes_it_too() -> None:
    md = use_cjk_emphasis(MarkdownIt("commonmark"))
    drawn = md.render("これは**「大事」**です").strip()
    assert drawn == "<p>これは<strong>「大事」</strong>です</p>"


def test_what_commonmark_reads_as_text_beside_cjk_stays_text() -> None:
    assert _stressed("日本語_強調_です") == []  # `_` inside words: no emphasis, as before
    assert _stressed('x**"y"**z') == []  # no CJK character beside it: CommonMark's reading


def test_emoji_are_no_cjk_characters() -> None:
    assert is_cjk("字") and is_cjk("「") and is_cjk("한") and is_cjk("ｱ")
    assert not is_cjk("😀") and not is_cjk("⭐") and not is_cjk("a") and not is_cjk("“")


PLAIN, FRIENDLY = MarkdownIt("gfm-like"), use_cjk_emphasis(MarkdownIt("gfm-like"))
PIECES = ["*", "**", "_", "__", "~~", "~", " ", "a", "b c", '"', "(", ")", ".", "é", "\n"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=20).map("".join))
def test_text_without_cjk_characters_reads_as_commonmark(text: str) -> None:
    """The amendments change nothing where no CJK character stands beside a run."""
    assert FRIENDLY.render(text) == PLAIN.render(text)
