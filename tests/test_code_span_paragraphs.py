"""Inline code spans stay inside their paragraph, as CommonMark reads a page: a lone
backtick in a list item (Logseq's docs: "type the backtick ` three times") must not pair
with the next item's first backtick and turn that item's code into prose, where its
`#tag` or `[[link]]` would be read as a link. Held to markdown-it (the parser that draws
the page) on generated pages of lists, quotes, headings and rules."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from okf_explorer.core.links import extract_links
from okf_explorer.core.links.grammar import code_span_ranges, paragraph_breaks
from okf_explorer.core.links.tags import tags_as_links

COMMONMARK = MarkdownIt("commonmark")
MARKER = re.compile(r"w\d+")

OPENINGS = [
    "", "", "", "- ", "* ", "+ ", "1. ", "2. ", "3) ", "> ", "> - ", ">> ", "## ", "  - ",
    "  ", "   - ", "    ", "    - ", "\t- ", "---", "===", "***", "-", "#",
]  # fmt: skip
PIECES = ["`", "`", "``", " ", "\\`", "a", "b c"]


@st.composite
def pages(draw: st.DrawFn) -> str:
    """A page of lines, each an opening (list item, quote, heading, rule, indent or none)
    and words among backtick runs, each word a distinct marker `wN` (no empty list item:
    what ends one is not modelled)."""
    count = iter(range(10_000))
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.integers(0, 5)) == 0:
            lines.append("")
            continue
        opening = draw(st.sampled_from(OPENINGS))
        before = lines[-1].split(" w")[0] if lines else ""
        after_text = bool(lines and lines[-1]) and before not in ("#", "-", "---", "===", "***")
        paragraph = lines[len(lines) - lines[::-1].index("") :] if "" in lines else lines
        after_text = after_text and not any(line.startswith((">", "#")) for line in paragraph)
        if opening.expandtabs(4).startswith("    ") and not after_text:
            # No indented code block (the grammar reads indented lines as text: in vaults
            # they are lists), and none under a quote, where markdown-it's lazy lines differ
            # by the quote's depth.
            opening = ""
        pieces = draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=6))
        words = " ".join(f"w{next(count)}{piece}" for piece in pieces)
        lines.append(opening + words)
    return "\n".join(lines) + "\n"


def markdown_it_code_words(page: str) -> set[str]:
    """The markers markdown-it reads inside code spans (and indented code blocks, which
    it draws as code too)."""
    found: set[str] = set()
    for token in COMMONMARK.parse(page):
        if token.type == "code_block":
            found |= set(MARKER.findall(token.content))
        for child in token.children or ():
            if child.type == "code_inline":
                found |= set(MARKER.findall(child.content))
    return found


def code_span_words(page: str) -> set[str]:
    return {
        word for start, end in code_span_ranges(page) for word in MARKER.findall(page[start:end])
    }


def indented_code_words(page: str) -> set[str]:
    """The markers markdown-it puts in indented code blocks: not spans, and not our
    function's (the grammar reads indented lines as text: in vaults they are lists)."""
    found: set[str] = set()
    for token in COMMONMARK.parse(page):
        if token.type == "code_block":
            found |= set(MARKER.findall(token.content))
    return found


@settings(max_examples=400, deadline=None)
@given(pages())
def test_code_spans_are_the_ones_commonmark_reads(page: str) -> None:
    block = indented_code_words(page)
    assert code_span_words(page) - block == markdown_it_code_words(page) - block


def test_a_lone_backtick_in_a_list_item_leaves_the_next_items_code_as_code() -> None:
    page = (
        "* `#Code` - by typing the backtick ` three times.\n"
        "* `#Quote` - a quote block, and `[[not a link]]`.\n"
    )
    assert [page[s:e] for s, e in code_span_ranges(page)] == [
        "`#Code`",
        "`#Quote`",
        "`[[not a link]]`",
    ]
    assert "[[Quote" not in tags_as_links(page)  # a Logseq tag in code stays code
    assert extract_links(page) == []
    # In a paragraph (no list), a span goes on over a line break, as CommonMark's does.
    prose = "a ` b\nc ` d\n"
    assert [prose[s:e] for s, e in code_span_ranges(prose)] == ["` b\nc `"]


def test_paragraph_breaks_are_before_the_blocks_a_paragraph_cannot_hold() -> None:
    page = "text\n- item\n  more\n# Heading\nafter\n> quote\n> more\nlazy\n\n    code"
    ends = [page[:at].splitlines()[-1] for at in paragraph_breaks(page)]
    assert ends == ["text", "  more", "# Heading", "after", "lazy"]
