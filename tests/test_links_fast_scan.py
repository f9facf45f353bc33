"""The link scan's fast path (`_scan_plain`: one `findall`, link insides remembered per
process) finds exactly what the reference scan finds (`reference_link_tuples`: every
masking pass, a `finditer` loop), for random and Markdown-like text: code spans, fences,
escapes, reference definitions, embeds, nested brackets, titles, blank lines."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from okf_explorer.core.links import grammar as link_grammar
from okf_explorer.core.links.grammar import extract_link_tuples, reference_link_tuples

TOKENS = [
    "[", "]", "[[", "]]", "![[", "(", ")", "](", "![", "!", "|", "\\|", "#", "\\", "\\[",
    "\\]", "\\!", "`", "``", "```", "~~~", "~", "\n", "\n\n", "\n \n", " ", "\t", "\r\n",
    "a", "B", "é", "note", "b.md", ".md", "/", "./", "../", "<", ">", '"t"', "'t'", "(t)",
    ":", "%20", "http:", "https://x/", "[r]: ", "[r]", "[]", "x.png", "> ", "- ", "    ",
    "[[x]]", "![[y]]", "[a](b.md)", "[a [b] c](d.md)", "[t](<a b.md>)", "[t](x.md \"t\")",
    "[[a|b]]", "[[a#h]]", "[x][r]", "[r]: r.md", "`[[c]]`", "```\n[[f]]\n```", "\x01",
    "$", "$$", "\\$", "$x$", "$ ", "5",
]  # fmt: skip

markdownish = st.lists(st.sampled_from(TOKENS), max_size=80).map("".join)
STRUCTURE = ["[", "]", "(", ")", "!", "\n\n", "\n", " ", "a", "b.md", '"', "'", "<", ">", "\\", "`"]
structural = st.lists(st.sampled_from(STRUCTURE), max_size=40).map("".join)
INSIDE = ["", "a", "a b", "\n", "\n\n", "\n \n", "[b]", "[", "]", "`", "\\]", "|x", "#h", "!", "é"]
DEST = ["b.md", "", " b.md ", "<a b.md>", "<b.md", "b(c).md", "x.png", "http://x.md", "\n\nb.md"]
TITLE = ["", ' "t"', " 't'", " (t)", ' "a\n\nb"', " 'a\n\nb'", " (a\n\nb)", ' "t', "\n"]


@st.composite
def link_shapes(draw: st.DrawFn) -> str:
    """Links and near-links, each part drawn from the forms the grammar tells apart."""
    pieces = []
    for _ in range(draw(st.integers(min_value=1, max_value=5))):
        inside = draw(st.sampled_from(INSIDE))
        shape = draw(st.sampled_from(["wiki", "embed", "inline", "label", "bare"]))
        if shape in ("wiki", "embed"):
            piece = f"{'!' if shape == 'embed' else ''}[[{inside}]]"
        elif shape == "inline":
            dest, title = draw(st.sampled_from(DEST)), draw(st.sampled_from(TITLE))
            piece = f"{draw(st.sampled_from(['', '!']))}[{inside}]({dest}{title})"
        else:
            piece = f"[{inside}]" + (
                f"[{draw(st.sampled_from(INSIDE))}]" if shape == "label" else ""
            )
        pieces.append(piece + draw(st.sampled_from(["", " ", "\n", "\n\n", "x"])))
    return "".join(pieces)


any_text = st.one_of(st.text(max_size=300), markdownish, structural, link_shapes())


@settings(max_examples=1500, deadline=None)
@given(any_text)
@example("[a\n\n](b.md) [t](c.md 'a\n\nb') [t](d.md \"a\n \nb\") [t](e.md (a\n\nb))")
@example("![[a]] \\![[b]] !![[c]] ![ [[d]] [![[e]]](f.md) `![[g]]`")
def test_the_fast_scan_finds_what_the_reference_finds(text: str) -> None:
    expected = reference_link_tuples(text)
    assert extract_link_tuples(text) == expected
    assert extract_link_tuples(text) == expected  # answered from the remembered insides


@settings(max_examples=300, deadline=None)
@given(st.lists(markdownish, min_size=1, max_size=6))
def test_remembered_insides_never_leak_between_pages(pages: list[str]) -> None:
    """Pages with and without escapes share no remembered answer by mistake."""
    for page in [*pages, *reversed(pages)]:
        assert extract_link_tuples(page) == reference_link_tuples(page)


def test_the_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(link_grammar, "_TARGET_MEMO_LIMIT", 8)
    monkeypatch.setattr(link_grammar, "_TARGETS", {False: ({}, {}), True: ({}, {})})
    for n in range(100):
        escape = "\\[not]" if n % 3 else ""
        text = f"[[w{n}]] ![[e{n}]] [m](m{n}.md) {escape}"
        assert extract_link_tuples(text) == reference_link_tuples(text)
        for wiki, markdown in link_grammar._TARGETS.values():  # a page adds 2 and 1
            assert len(wiki) <= 8 + 2 and len(markdown) <= 8 + 1


def test_kinds_and_counts_of_a_typical_page() -> None:
    text = "# T\n\n[[a]] ![[a]] ![[pic.png]] [x](b.md) [[b]] [y](./b.md)\n\n`[[code]]` [[a|A]]\n"
    assert extract_link_tuples(text) == [
        ("a", "wiki", 3, None, "links", False, False),
        ("b.md", "markdown", 1, None, "links", False, False),
        ("b", "wiki", 1, None, "links", False, False),
        ("./b.md", "markdown", 1, None, "links", False, False),
    ]
