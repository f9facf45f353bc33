"""The sentence around a link (`core.links.spans`): reference-style links and Foam's
defined wiki-links have their sentence too."""

from __future__ import annotations

from okf_explorer.core.links.spans import (
    CONTEXT_CHARS,
    first_link_context,
    link_contexts,
    link_spans,
    plain_markup,
    wiki_text,
)

FOAM_PAGE = """# Commands

Run [[lint]] before you commit. Read [the guide][g] first, or [Guide] later.
See [unknown][nope] too.

[lint]: cli/lint.md "Lint"
[g]: docs/guide.md
[guide]: <docs/guide.md>
"""


def test_reference_style_links_have_their_sentence() -> None:
    found = link_contexts(FOAM_PAGE, lambda target, kind: target == "docs/guide.md")
    assert [(c.text, c.link) for c in found] == [
        ("Read the guide first, or Guide later.", "the guide"),
        ("Read the guide first, or Guide later.", "Guide"),
    ]


def test_a_wiki_link_named_by_a_definition_leads_where_the_definition_does() -> None:
    found = link_contexts(FOAM_PAGE, lambda target, kind: target == "cli/lint.md")
    assert [(c.text, c.link) for c in found] == [("Run lint before you commit.", "lint")]
    by_name = link_contexts(FOAM_PAGE, lambda target, kind: (target, kind) == ("lint", "wiki"))
    assert [c.link for c in by_name] == ["lint"]


def test_reference_spans_read_as_written() -> None:
    spans = link_spans(FOAM_PAGE)
    assert [(FOAM_PAGE[s.start : s.end], s.target, s.refdef) for s in spans] == [
        ("[[lint]]", "lint", "cli/lint.md"),
        ("[the guide][g]", "docs/guide.md", None),
        ("[Guide]", "docs/guide.md", None),
    ]


def test_a_definition_inside_code_defines_nothing() -> None:
    text = "See [x].\n\n```\n[x]: a.md\n```\n"
    assert link_spans(text) == []


def test_first_link_context_keeps_the_link_as_written() -> None:
    assert (
        first_link_context(FOAM_PAGE, "docs/guide.md")
        == "Read [the guide][g] first, or [Guide] later."
    )
    assert first_link_context("`[[a]]` x. Then [[a|A]] here.", "a") == "Then [[a|A]] here."
    assert first_link_context("No link to a page.", "page") == "No link to a page."
    assert first_link_context("Nothing.", "absent") == ""


def test_a_sentence_reads_without_its_emphasis_marks() -> None:
    """Seen on a real vault: `b` showed `**templates** - Use…` and `` `[!note]` ``."""
    text = "- **[[templates]]** - Use `make` and *then* ==run== it.\nOr **[[templates|T]]**.\n"
    found = link_contexts(text, lambda target, kind: target == "templates")
    assert [(c.text, c.link) for c in found] == [
        ("templates - Use make and then run it.", "templates"),
        ("Or T.", "T"),
    ]
    assert first_link_context(text, "templates") == (
        "**[[templates]]** - Use `make` and *then* ==run== it."
    )  # the server keeps what is written, as gbrain does


def test_plain_markup_keeps_what_is_not_a_mark() -> None:
    assert plain_markup("a == b, 2*3*4, snake_case_name") == "a == b, 2*3*4, snake_case_name"
    assert plain_markup("~~old~~ __new__ _it_") == "old new it"


def test_a_table_row_reads_as_its_cells() -> None:
    """Seen on the sample brain: `| Revenue | Revenue | analytics.orders |` in `b`."""
    text = "| name | table |\n|---|---|\n| Revenue, this week | [[orders\\|the orders]] |\n"
    (found,) = link_contexts(text, lambda target, kind: target == "orders")
    assert (found.text, found.link) == ("Revenue, this week │ the orders", "the orders")


def test_a_link_in_a_huge_line_keeps_a_cut_sentence() -> None:
    """Only `4 × CONTEXT_CHARS` characters each side are read (a 10 MB line stays cheap);
    the sentence is still cut around the link, marked `…` on both sides."""
    text = "word " * 20_000 + "[[x|the link]]" + " tail" * 20_000
    (found,) = link_contexts(text, lambda target, kind: target == "x")
    assert found.link == "the link" and len(found.text) == CONTEXT_CHARS
    assert found.text.startswith("…word") and found.text.endswith("tail…")
    server = first_link_context(text, "x")
    assert "[[x|the link]]" in server and server.startswith("…") and server.endswith("…")


def test_a_heading_link_reads_as_obsidian_shows_it() -> None:
    """Seen on the Foam docs: `[[templates#Metadata]]` (with Foam's reference definition
    for it) read `templates#Metadata`, the raw target; Obsidian shows `templates > Metadata`."""
    page = (
        "See [[templates#Metadata]] for more.\n\n"
        '[templates#Metadata]: templates.md#Metadata "Note Templates"\n'
    )
    found = link_contexts(page, lambda target, kind: target == "templates")
    assert [(c.text, c.link) for c in found] == [
        ("See templates > Metadata for more.", "templates > Metadata")
    ]
    assert wiki_text("a#^block") == "a > ^block" and wiki_text("#Usage") == "Usage"
    assert wiki_text("a#b|the B") == "the B" and wiki_text("a\\|b") == "b"
    # Dendron's note reference ranges (a path's sentence read `cli > install,1: > *`)
    assert wiki_text("cli#install,1:#*") == "cli > install"
    assert wiki_text("a#one:#two") == "a > one … two" and wiki_text("a#one:#^end") == "a > one"
    assert wiki_text("book#Chapter 1,2") == "book > Chapter 1,2"  # a heading's own text


def test_a_chinese_or_japanese_sentence_ends_at_its_own_full_stop() -> None:
    """`。`, `！` and `？` end a sentence with no space after them: a backlink's sentence
    in a Chinese vault was its whole paragraph (up to the context's length)."""
    text = "第一句话在这里。这里讲[[压缩家族]]的事！第三句话？还有「[[东京]]です。」次の文。\n"
    found = link_contexts(text, lambda target, kind: True)
    assert [(c.text, c.link) for c in found] == [
        ("这里讲压缩家族的事！", "压缩家族"),
        ("还有「东京です。」", "东京"),
    ]
    assert first_link_context("A [[b]] c. 下一句。", "b") == "A [[b]] c."
