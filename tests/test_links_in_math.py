"""Links inside dollar math are no links (stop 48, found on a research vault's
denotational semantics: `$$ [[\\mathcal S]](f)(\\sigma) $$` made a page `\\mathcal S`
and the page drew `[ mathcal S](<okf:𝒮>)`, our own link syntax).

The page draws dollar math as TeX read as text (`tui.markdown.parser`, mdit-py-plugins'
dollar math), and Obsidian draws it with MathJax, which knows no wiki-links. So the
grammar, the clickable spans and the page all read the same stretches as math
(`core.links.grammar.math_ranges`): `$…$` with no space just inside its dollars and no
digit just outside them, `$$…$$` holding anything, neither crossing a blank line."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from okf_explorer.core.links import parse_links
from okf_explorer.core.links.grammar import math_ranges
from okf_explorer.core.links.spans import link_spans
from okf_explorer.tui.markdown.parser import use_dollar_math
from okf_explorer.tui.markdown.prepare import prepare_body

_DOLLAR_MATH = use_dollar_math(MarkdownIt("commonmark"))
"""Dollar math as `tui.markdown.parser` sets it up."""

PAGE = (
    "The meaning $$ [[\\mathcal S]](f)(\\sigma) $$ of f, and $[[e]]_\\rho$ too,"
    " next to [[Real page]].\n\n$$\n[[x]] = 1\n$$\n"
)


def test_no_link_inside_math_counts() -> None:
    assert parse_links(PAGE) == ["Real page"]


def test_no_link_inside_math_is_clickable() -> None:
    assert [span.target for span in link_spans(PAGE)] == ["Real page"]


def test_the_page_draws_math_links_as_tex_read_as_text() -> None:
    rows = [
        row.content.plain
        for piece in prepare_body(PAGE, width=90, breaks=True).pieces
        if piece.drawing is not None
        for row in piece.drawing.rows
    ]
    drawn = "\n".join(rows)
    assert "[[𝒮]](f)(σ)" in drawn and "[[e]]_ρ" in drawn and "[[x]] = 1" in drawn
    assert "okf:" not in drawn


@pytest.mark.parametrize(
    "text",
    [
        "costs $5 and $10 at [[Shop]]",  # a digit after the opening: money, no math
        "from $a to $ [[Shop]] $",  # a space before the closing, then after the opening
        "escaped \\$x [[Shop]] y$",
        "$x\n\n[[Shop]] y$",  # math never crosses a blank line
        "`$x` [[Shop]] `y$`",  # dollars in code are code
        "x\n$$ a $$ [[Shop]]\n\nb $$",  # `$$` again on its line: no block, inline math
    ],
)
def test_links_beside_dollars_that_open_no_math_count(text: str) -> None:
    assert parse_links(text) == ["Shop"]
    assert [span.target for span in link_spans(text)] == ["Shop"]


def test_math_never_crosses_from_one_list_item_into_the_next() -> None:
    """A 13k-page Zettelkasten lists NTFS's system files as `- [[Master File Table|$MFT]]`
    one a line: the dollars of two items read as one formula, so 12 of the page's 13 links
    counted for nothing and the page drew them as `[[Master File Table|$MFT]]`."""
    text = (
        "- [[Master File Table|$MFT]]\n- [[Master File Table Mirror|$MFTMirr]]\n"
        "\t- [[NTFS Log File|$LogFile]]\n1. [[NTFS Volume|$Volume]]\n2. [[NTFS Boot|$Boot]]\n"
    )
    targets = ["Master File Table", "Master File Table Mirror", "NTFS Log File", "NTFS Volume"]
    assert parse_links(text) == [*targets, "NTFS Boot"]
    drawn = "\n".join(
        row.content.plain
        for piece in prepare_body(text, width=90).pieces
        if piece.drawing is not None
        for row in piece.drawing.rows
    )
    assert "[[" not in drawn and "$MFTMirr" in drawn and "$Boot" in drawn


@pytest.mark.parametrize(
    ("text", "math"),
    [
        ("a $x$ b", ["$x$"]),
        ("a $$ x $$ b", ["$$ x $$"]),
        ("$x$5 and $y$", ["$y$"]),  # a digit after the closing: not that one
        ("1$x$", []),
        ("$ x$", []),
        ("$x $", []),
        ("\\\\$x$", ["$x$"]),  # an escaped backslash leaves the dollar open
        ("$a\\$b$", ["$a\\$b$"]),
        ("$$$$", ["$$$$"]),  # a block, empty
        ("$$x\n\n[[y]]$$", ["$$x\n\n[[y]]$$"]),  # a block crosses blank lines
        ("# h\n$$\na\n\nb\n$$", ["$$\na\n\nb\n$$"]),  # after a heading
        ("> $$\n> a\n>\n> b $$", ["$$\n> a\n>\n> b $$"]),  # quoted
        ("x\n$$\na\n\nb\n$$", ["$$\na\n\nb\n$$"]),  # breaks into a paragraph
        ("# $a\nb$", []),  # a heading's line ends its math
        ("$x\ny$", ["$x\ny$"]),
        ("- $x\n- y$", []),  # each item a paragraph
        ("- $x\n  y$", ["$x\n  y$"]),  # the item's next line
        ("$x\n2019. y$", ["$x\n2019. y$"]),  # no list: a paragraph's text
        ("1. $x\n2. y$", []),  # within a list
    ],
)
def test_math_is_read_as_the_renderers_dollar_math(text: str, math: list[str]) -> None:
    assert [text[start:end] for start, end in math_ranges(text)] == math


PIECES = ["$", "$$", "\\$", "\\\\$", " ", "\n", "\n\n", "x", "a b", "[[y]]", "é", "# "]
PIECES += ["\n- a ", "\n1. a ", "\n2) a "]  # list items, each a paragraph of its own


# No lone backslash and no digit: at a paragraph's first character the plugin looks at the
# character "before" as Python's `src[-1]`, the paragraph's last, so a paragraph ending in
# a backslash or a digit opens no math with its first dollar (a bug of its own; the
# examples above hold digits and escapes where the plugin reads them right).


def _plugins_math(text: str) -> list[str]:
    """What the dollar-math plugin with the page's options reads as math, in order."""
    found = []
    for token in _DOLLAR_MATH.parse(text):
        if token.type == "math_block":
            found.append(token.content)
        for child in token.children or []:
            if child.type.startswith("math_inline"):
                found.append(child.content)
    return found


def _contents(text: str) -> list[str]:
    """The insides of `math_ranges(text)`, as the plugin gives them."""
    found = []
    for start, end in math_ranges(text):
        double = text.startswith("$$", start)
        found.append(text[start + 1 + double : end - 1 - double])
    return found


_INDENTED_CODE = re.compile(r"^ {4}", re.M)
"""A line opening with four spaces is indented code to CommonMark, and text to our grammar
(`core.links.grammar`: in vaults indentation means nested lists): left out here."""


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=30)
    .map("".join)
    .filter(lambda text: not _INDENTED_CODE.search(text))
)
def test_math_ranges_are_the_plugins_math(text: str) -> None:
    """The dollar-math plugin with the page's options finds the same math, inline and in
    blocks, across paragraphs, headings and list items (each line's indentation aside:
    the plugin sees an item's lines without the item's)."""
    assert _unindented(_contents(text)) == _unindented(_plugins_math(text))


def _unindented(found: list[str]) -> list[str]:
    return [re.sub(r"^[ \t]+", "", math, flags=re.M) for math in found]
