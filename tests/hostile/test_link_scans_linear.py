"""Hostile pages cost their length, not its square (found by review while merging
issues 24-27): a page of thousands of links beside `%%` comments made every backlink
sentence look at every comment and every link (8,000 lines: 49 s for the sentences),
and a line of thousands of `[key::` openings made each opening scan the rest of the
line (30 KB: 4 s in the index build). Found after them, on an LLM-written bundle: a
line of thousands of `[` (or `[[`, `<a`, …) made each one scan the rest of the line
for its end as the page was read as text for search (40 KB: 7 s). Dataview's queries of a
page's own fields (`core.dataview`) are held to the same: linear, and bounded in size.

Each check times the same work at two sizes in the same run and compares: linear work
grows about as the input (8x here), quadratic about 64x. The bound, 24x, leaves room
for a loaded machine without letting a square through."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from okf_explorer.core.dataview import MAX_ADDED, inline_queries, page_fields
from okf_explorer.core.links.fields import field_values
from okf_explorer.core.links.grammar import extract_link_tuples
from okf_explorer.core.links.silverbullet import silverbullet_links
from okf_explorer.core.links.spans import link_contexts, link_spans
from okf_explorer.core.search.plain_text import plain_text
from okf_explorer.sources.frontmatter import first_heading
from okf_explorer.tui.markdown import prepare_body
from okf_explorer.tui.markdown.silverbullet import silverbullet_markdown

GROWTH = 8
BOUND = 24


def growth(work: Callable[[int], object], size: int) -> float:
    """How much longer `work` takes at `GROWTH` times `size` (best of three each)."""

    def best(n: int) -> float:
        times = []
        for _ in range(3):
            started = time.perf_counter()
            work(n)
            times.append(time.perf_counter() - started)
        return min(times)

    return best(size * GROWTH) / max(best(size), 1e-4)


def commented_page(lines: int) -> str:
    return "".join(f"see [[p{i}]] %%note {i}%% and [[target]]\n" for i in range(lines))


def test_backlink_sentences_on_a_page_of_comments_grow_linearly() -> None:
    def sentences(lines: int) -> None:
        found = link_contexts(commented_page(lines), lambda target, kind: target == "target")
        assert len(found) == lines

    assert growth(sentences, 250) < BOUND


def test_the_sentence_of_a_link_keeps_its_neighbours_and_comments() -> None:
    """Looking only near each link changes no sentence."""
    text = "Intro [[a]] then %%hidden [[b]]%% and [[target]] ends. %%x [[target]] y%%\n"
    found = link_contexts(text, lambda target, kind: target == "target")
    assert [(context.text, context.comment) for context in found] == [
        ("Intro a then and target ends.", False),
        ("x target y", True),
    ]
    assert [span.comment for span in link_spans(text)] == [False, True, False, True]


def test_a_line_of_field_openings_grows_linearly() -> None:
    def fields(openings: int) -> None:
        assert len(field_values("[a:: " * openings)) <= 1  # at most the whole-line field

    assert growth(fields, 500) < BOUND


OPENINGS = ["[", "[[", "![[", "![a](", "[a](", "[^", "^[", "[[a#", "[a][", "<a", "<http://a"]
"""Openings of Markdown a page's text for search looks for the end of (`plain_text`):
a line of thousands of any one made each scan the rest of the line (a 40 KB line of
`[`: 7 s to index one page)."""


@pytest.mark.parametrize("opening", OPENINGS)
def test_a_line_of_openings_reads_as_text_in_linear_time(opening: str) -> None:
    def text(openings: int) -> None:
        plain_text(opening * openings)

    assert growth(text, 400) < BOUND


@pytest.mark.parametrize(("before", "blank"), [("", " "), ("", "\t"), ("-", " "), ("| --", " ")])
def test_a_run_of_blanks_reads_as_text_in_linear_time(before: str, blank: str) -> None:
    """A line's leading blanks (or a rule's, a table rule's) were tried again for every
    blank given back (a line of 16,000 spaces: 1.8 s to read as text)."""

    def text(blanks: int) -> None:
        plain_text("\n" + before + blank * blanks + "x\n")

    assert growth(text, 1000) < BOUND


@pytest.mark.parametrize(
    "opening", ["<!--", "<a href='", '<a b="', "<![CDATA[", "<?", "</", "x<y "]
)
@pytest.mark.parametrize("end", ["", ">"])
def test_an_html_block_of_openings_is_drawn_in_linear_time(opening: str, end: str) -> None:
    """A page's HTML block read for drawing (the stdlib `html.parser` looked for the end
    of each opening to the end of the block: 150 KB of `<!--`, 10 s), ending at the end of
    the block or at one `>` there (which a tag of an HTML element runs to)."""

    def drawn(openings: int) -> None:
        prepare_body("<div>\n" + opening * openings + end, width=80)

    assert growth(drawn, 300) < BOUND


@pytest.mark.parametrize("opening", ["<div ", "<div </", "<div </div "])
def test_a_page_of_tag_openings_is_read_as_text_in_linear_time(opening: str) -> None:
    """An element's opening tag runs across lines and closing tags to its `>` as the page
    is read for search (`plain_text._OPEN_TAG_RUNNING_ON`): thousands of openings, none
    ended, must not each read the rest of the page."""

    def text(openings: int) -> None:
        plain_text("x " + opening * openings + "\n")

    assert growth(text, 2000) < BOUND


def test_a_page_of_tasks_is_drawn_in_linear_time() -> None:
    """Each task looked back for its list (mdit-py-plugins' task lists: 12,800 tasks, 16.7 s)."""

    def drawn(tasks: int) -> None:
        prepare_body("- [ ] to do\n" * tasks, width=80)

    assert growth(drawn, 200) < BOUND


def test_dataview_queries_on_a_line_of_thousands_cost_its_length() -> None:
    """A line of thousands of `=this.x` spans, each of a value holding line breaks: each
    span asks whether it stands alone on its line (`core.dataview`)."""
    fields = page_fields({"x": "a\nb"}, "")

    def filled(spans: int) -> None:
        text = "`=this.x` " * spans
        assert inline_queries(text, fields, "p").count("a b") == spans

    assert growth(filled, 2_000) < BOUND


def test_dataview_values_add_a_bounded_length() -> None:
    """A 100 KB field queried by 1,000 spans would add 100 MB: the values add at most
    `MAX_ADDED` characters, the other spans stay as written."""
    text = "`=this.big`\n" * 1_000
    out = inline_queries(text, {"big": "x" * 100_000}, "p")
    assert len(out) <= len(text) + MAX_ADDED
    assert out.count("x" * 100_000) == MAX_ADDED // 100_000
    assert out.endswith("`=this.big`\n")


@pytest.mark.parametrize(
    "piece", ["$$a ", "$a \\$", "$a $", "\\$", "$$ $ ", "1$a$", "$$\n", "\n\n$$ x\n", "# $x\n"]
)
def test_a_paragraph_of_dollars_is_read_for_math_in_linear_time(piece: str) -> None:
    """Each dollar may open math (`core.links.grammar.math_ranges`): a paragraph of
    thousands must not make each look to the paragraph's end."""

    def text(pieces: int) -> None:
        extract_link_tuples(piece * pieces + "[[x]]")
        link_spans(piece * pieces + "[[x]]")

    assert growth(text, 1000) < BOUND


def test_disclosures_nest_no_deeper_than_markdown_nests_quotes() -> None:
    """500 `<details open>` in each other drew 500 quotes in each other: the drawing
    recursed past Python's limit (`RecursionError`). They nest as deep as markdown-it
    nests quotes (`maxNesting`, 20); those deeper stay HTML."""
    nested = "<details open>\n\n" * 500 + "deepest\n\n" + "</details>\n\n" * 500
    body = prepare_body(nested, width=80)
    rows = [row.content.plain for piece in body.pieces or () for row in piece.drawing.rows]
    assert max(row.count("▌") for row in rows) == 20
    assert any("deepest" in row for row in rows)

    def drawn(disclosures: int) -> None:
        prepare_body("<details>\n\n" * disclosures + "</details>\n\n" * disclosures, width=80)

    assert growth(drawn, 200) < BOUND


def test_a_block_of_html_of_brackets_is_drawn_in_linear_time() -> None:
    """A block of HTML has its rewritten wiki-links read back as HTML links: a line of
    thousands of `[` after one of them made each `[` read the rest of the line (16,000:
    4.9 s)."""

    def drawn(brackets: int) -> None:
        prepare_body("<div>\n[[alpha]] " + "[" * brackets + "]\n</div>\n", width=80)

    assert growth(drawn, 2000) < BOUND


@pytest.mark.parametrize(
    "heading",
    [
        lambda n: "x {" + " " * n + "#a" + " " * n + "x}",  # blanks both sides of an id
        lambda n: "x {" + " #a" * n + " }",  # an attribute block of thousands of ids
        lambda n: "x " + "{#a " * n + "}",  # thousands of openings
    ],
    ids=["blanks", "ids", "openings"],
)
def test_a_heading_s_attribute_block_is_read_in_linear_time(heading) -> None:  # type: ignore[no-untyped-def]
    """A heading's closing `{#id}` is left out of its text and the page's (first tried
    as one pattern over the line: 20,000 blanks either side of an id took 0.35 s)."""

    def read(size: int) -> None:
        plain_text(f"# {heading(size)}\n\nText.\n")
        first_heading(f"# {heading(size)}\n")

    assert growth(read, 2000) < BOUND


PARAGRAPH_PAGES = {
    "items each opening a span": lambda n: "- a `b\n" * n + "`",
    "quotes deeper and deeper": lambda n: "".join(">" * (i % 60) + " `x\n" for i in range(n)),
    "items deeper and deeper": lambda n: "".join(" " * (i % 60) + "- `x\n" for i in range(n)),
    "spaces before a line end": lambda n: "a `b" + " " * n + "\n- c`\n",
    "blank lines in a list": lambda n: "- `a\n" + "\n" * n + "  `b\n",
}


@pytest.mark.parametrize("page", PARAGRAPH_PAGES.values(), ids=PARAGRAPH_PAGES)
def test_a_code_span_finds_its_paragraphs_end_in_linear_time(page: Callable[[int], str]) -> None:
    """A code span ends with its paragraph (`grammar.paragraph_breaks`: a list item, a
    heading, a deeper quote), found once a page however its lines open."""

    def links(lines: int) -> None:
        extract_link_tuples(page(lines) + "[[x]]\n")

    assert growth(links, 300) < BOUND


@pytest.mark.parametrize(
    "piece",
    ['${"a" ', "${[[ ", "${{{ ", "${f(\n", "${'", "${[=[ ]] ", "${a} [[^b@1]] "],
    ids=["strings", "long strings", "braces", "lines", "quote", "long bracket", "closed"],
)
def test_a_silverbullet_page_of_expression_openings_costs_its_length(piece: str) -> None:
    """A SilverBullet page's Lua expressions (`core.links.silverbullet`) are found once
    a page, however many `${` it opens and leaves open: read for links and drawn."""

    def read(count: int) -> None:
        text = piece * count
        silverbullet_markdown(silverbullet_links(text))

    assert growth(read, 2000) < BOUND
