"""A Logseq graph's page drawn as Logseq shows it (`tui.markdown.logseq`): seen on
Logseq's docs graph, whose pages showed `#+BEGIN_IMPORTANT` … `#+END_IMPORTANT` as text,
every block's `id::` line, and block references as bare ids
(`Also refer: ((634fb104-…))`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.core.brain import Brain
from okf_explorer.core.logseq_macros import MACROS_ADD
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.sources.folder.logseq import block_texts
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import prepare_body
from okf_explorer.tui.markdown.logseq import block_refs, logseq_markdown
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_file as write

from .conftest import settle
from .test_line_breaks import body_text

REF = "634fb104-f332-4743-904a-4827ee754bfc"
SOWING = (
    "type:: [[Guide]]\n\n"
    "- #+BEGIN_IMPORTANT\n  Water the beds\n  before sowing.\n  #+END_IMPORTANT\n"
    "- ## Steps\n  id:: 11111111-2222-3333-4444-555555555555\n"
    "  created-at:: 1609230242742\n  updated-at:: 1609247076654\n  heading:: true\n"
    "\t- Dig a row\n\t  collapsed:: true\n"
    "\t\t- #+BEGIN_WARNING\n\t\t  Not too deep\n\t\t  #+END_WARNING\n"
    "\t\t  #+BEGIN_TIP\n\t\t  Use a [[Tools/Trowel]]\n\t\t  #+END_TIP\n"
    "\t- #+BEGIN_SRC python\n\t  rows = 3  # ((" + REF + "))\n\t  #+END_SRC\n"
    f"- TODO Buy seeds, see (({REF}))\n"
    "- DONE Clear the bed #[[Spring work]]\n"
    "- {{embed [[Tools/Trowel]]}}\n"
)
TROWEL = f"- A short blade\n- **When to sow**\n  id:: {REF}\n"


def graph(root: Path, logseq: bool = True) -> Path:
    if logseq:
        write(root, "logseq/config.edn", "{:file/name-format :triple-lowbar}\n")
    write(root, "pages/Sowing.md", SOWING)
    write(root, "pages/Tools___Trowel.md", TROWEL)
    return root


async def shown_text(root: Path) -> str:
    app = make_app(Brain(BundleSource(root), cache_dir=False), start="pages/Sowing")
    async with app.run_test(size=(150, 50)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        return body_text(pane)


async def test_a_logseq_page_reads_as_logseq_shows_it(tmp_path: Path) -> None:
    text = await shown_text(graph(tmp_path))
    assert "★ Important\n" in text and "▌ Water the beds\n" in text
    assert "⚠ Warning" in text and "★ Tip" in text  # two blocks, two callouts
    assert "Use a Tools/Trowel" in text
    assert "rows = 3  # ((" + REF + "))" in text  # code is code
    assert "Buy seeds, see When to sow" in text  # the block referred to
    assert "☐ Buy seeds" in text and "☒ Clear the bed #Spring work" in text
    hidden_lines = ("id::", "collapsed::", "created-at::", "updated-at::", "heading::")
    for hidden in ("#+BEGIN", "#+END", *hidden_lines, "{{embed", "TODO", "DONE"):
        assert hidden not in text
    assert "type: Guide" in text  # the page's properties, as Logseq draws them


async def test_a_heading_block_reads_on_its_bullets_row(tmp_path: Path) -> None:
    """Logseq writes a heading as a block (`- ## Steps`): its bullet and its text share a
    row, as Logseq shows them. Seen on Logseq's docs graph, whose `contents` page drew each
    of its 14 heading blocks as a bullet alone, a blank row, then the heading."""
    text = await shown_text(graph(tmp_path))
    assert "• Steps\n" in text
    assert "•\n" not in text


async def test_the_same_files_outside_a_logseq_graph_read_as_written(tmp_path: Path) -> None:
    text = await shown_text(graph(tmp_path, logseq=False))
    assert "#+BEGIN_IMPORTANT" in text and "id:: 11111111" in text and f"(({REF}))" in text


@pytest.mark.parametrize(
    ("written", "drawn"),
    [
        # a callout inside a list item keeps the item's indentation
        (
            "\t- #+BEGIN_NOTE\n\t  one\n\n\t  two\n\t  #+END_NOTE\n",
            "\t- > [!note]\n\t  > one\n\t  >\n\t  > two\n",
        ),
        ("#+BEGIN_QUOTE\nwise\n#+END_QUOTE\n", ">\n> wise\n"),
        ("- #+BEGIN_QUERY\n  {:query x}\n  #+END_QUERY\n", "- ```clojure\n  {:query x}\n  ```\n"),
        ("- #+BEGIN_EXAMPLE\n  a\n  #+END_EXAMPLE\n", "- ```\n  a\n  ```\n"),
        ("- #+BEGIN_CENTER\n  a\n  #+END_CENTER\n", "-\n  a\n"),
        # a fence's lines are not read
        ("```\n#+BEGIN_NOTE\n  id:: 1\n```\n", "```\n#+BEGIN_NOTE\n  id:: 1\n```\n"),
        # a bullet holding only a property keeps it: its other lines stay in their item
        ("- a\n- collapsed:: true\n  b\n", "- a\n- collapsed:: true\n  b\n"),
        ("- CANCELED plan\n- LATER water\n", "- [x] ~~plan~~\n- [ ] water\n"),
        ("- ![a](b.png){:height 3, :width 4} c\n", "- ![a](b.png) c\n"),
        ("no markup at all\n", "no markup at all\n"),
        # numbered blocks: a run of them numbered, a child inside, another block after
        (
            "- ## Usage\n\t- first\n\t  logseq.order-list-type:: number\n\t- second\n"
            "\t  id:: 11111111-2222-3333-4444-555555555555\n"
            "\t  logseq.order-list-type:: number\n\t\t- a child\n\t- plain\n",
            "- ## Usage\n\t1. first\n\t1. second\n\t\t- a child\n\t- plain\n",
        ),
        # a block written without its bullet, blocks under it: its bullet (not code under it)
        (
            "## Usage\n\t- one\n\t\t- two\n\nplain text\n\n> a quote\n\t- after\n",
            "- ## Usage\n\t- one\n\t\t- two\n\nplain text\n\n> a quote\n\t- after\n",
        ),
        (  # indented by spaces: bullets kept
            "- a\n  logseq.order-list-type:: number\n  - b\n",
            "- a\n  - b\n",
        ),
        # properties as Logseq draws them: `key: value`, the key in medium weight
        (
            "type:: [[Guide]]\nnotes::\n\n- a\n  rating:: 5\n  std::vector, not one\n",
            "**type**: [[Guide]]\n**notes**:\n\n- a\n  **rating**: 5\n  std::vector, not one\n",
        ),
    ],
)
def test_logseq_markup_as_the_markdown_drawn(written: str, drawn: str) -> None:
    assert logseq_markdown(written) == drawn


def test_a_block_reference_reads_as_its_blocks_text_when_known() -> None:
    text = f"- see (({REF.upper()})) and ((00000000-0000-0000-0000-000000000000))\n"
    assert block_refs(text) == {REF, "00000000-0000-0000-0000-000000000000"}
    assert logseq_markdown(text, {REF: "**When to sow**"}) == (
        "- see **When to sow** and ((00000000-0000-0000-0000-000000000000))\n"
    )


def test_a_block_reference_under_a_label_reads_as_its_label() -> None:
    """Logseq's docs: `first skim our [beginner user resources](((63bc6201-…)))` drew
    `[beginner user resources](For beginner users)`, the block's text put in the link."""
    text = f"- first skim our [beginner resources]((({REF}))). Then\n"
    drawn = "- first skim our beginner resources. Then\n"
    assert logseq_markdown(text, {REF: "For beginners"}) == drawn
    assert logseq_markdown(text) == drawn  # a block not found: its label all the same


def test_a_page_reference_under_a_label_reads_as_its_label_linked() -> None:
    """Logseq's docs: `When [referencing a block]([[The basics of block references]])`
    drew `[referencing a block](The basics of block references)`."""
    text = "- When [referencing a block]([[Block references]]), and [x](y)\n"
    assert logseq_markdown(text) == "- When [[Block references|referencing a block]], and [x](y)\n"
    markdown = prepare_body(text, markup="logseq").markdown
    assert "[referencing a block](<okf:Block references>)" in markdown


def test_a_tag_in_code_after_a_lone_backtick_stays_code() -> None:
    """Logseq's docs (`db-version`): after an item telling to type "the backtick ` three
    times", the next item's `` `#Quote` `` drew as `[#Quote](<okf:Quote>)`, in code."""
    page = "* `#Code` - typing the backtick ` three times.\n* `#Quote` - a quote block.\n"
    markdown = prepare_body(page, markup="logseq").markdown
    assert "`#Quote`" in markdown and "okf:Quote" not in markdown


def test_a_block_embed_reads_as_its_blocks_text_when_known() -> None:
    """Logseq's docs graph embeds blocks by id (`{{embed ((…))}}`): the page drew
    `{{embed Gif}}`, the block's text inside the macro."""
    unknown = "00000000-0000-0000-0000-000000000000"
    text = f"- a drawing:\n\t- {{{{embed (({REF}))}}}}\n\t- {{{{embed (({unknown}))}}}}\n"
    assert logseq_markdown(text, {REF: "**When to sow**"}) == (
        f"- a drawing:\n\t- **When to sow**\n\t- {{{{embed (({unknown}))}}}}\n"
    )


def test_the_blocks_of_a_page_are_read_with_their_ids() -> None:
    body = f"- A short blade\n- ## When to sow\n  more text\n  id:: {REF.upper()}\n\t- x\n"
    assert block_texts("pages/p", body) == ((REF, "When to sow"),)
    assert block_texts("pages/p", "- no ids here\n") == ()


def test_a_graphs_blocks_are_found_across_its_pages(tmp_path: Path) -> None:
    source = BundleSource(graph(tmp_path))
    assert source.block_texts({REF.upper(), "nope"}) == {REF: "**When to sow**"}
    write(tmp_path, "pages/Tools___Trowel.md", f"- Sow in spring\n  id:: {REF}\n")
    source.enumerate()  # a new listing: the pages are read again
    assert source.block_texts({REF}) == {REF: "Sow in spring"}
    assert BundleSource(graph(tmp_path / "plain", logseq=False)).block_texts({REF}) == {}


CONFIG_WITH_MACROS = (
    "{:file/name-format :triple-lowbar\n"
    ' ;; :macros {"old" "a comment, not a macro"}\n'
    " :macros\n"
    ' {"docs" "https://docs.example.com/#/page/$1"\n'
    '  "both" "$1 then $2, not $3"\n'
    '  "mark" "[:mark \\"$1\\"]"  ; hiccup: drawn by Logseq as HTML\n'
    '  "semi" "a; b \\"quoted\\""}}\n'
)


async def test_a_graph_s_own_macros_read_as_their_templates(tmp_path: Path) -> None:
    """Logseq's docs graph calls its own macro in 17 properties (`url:: {{docs-base-url
    Property}}`, its settings' `:macros`), which showed as written; Logseq shows the
    template with the arguments in place."""
    root = tmp_path / "graph"
    write(root, "logseq/config.edn", CONFIG_WITH_MACROS)
    page = (
        "url:: {{docs Property}}\n\n"
        "- {{both sow, water}} and {{semi}}\n"
        "- {{mark hi}} {{unknown x}} `{{docs in code}}`\n"
    )
    write(root, "pages/Sowing.md", page)
    brain = Brain(BundleSource(root), cache_dir=False)
    assert brain.macros() == {
        "docs": "https://docs.example.com/#/page/$1",
        "both": "$1 then $2, not $3",
        "mark": '[:mark "$1"]',
        "semi": 'a; b "quoted"',
    }
    text = await shown_text(root)
    assert "url: https://docs.example.com/#/page/Property" in text
    assert 'sow then water, not $3 and a; b "quoted"' in text
    assert "{{mark hi}} {{unknown x}} {{docs in code}}" in text  # left as written
    assert Brain(BundleSource(graph(tmp_path / "plain", logseq=False))).macros() == {}
    [hit] = brain.text_search().search("water")  # search reads the page as it is shown
    assert "sow then «water», not $3" in hit.marked()
    assert brain.text_search().search("both") == []


def test_a_search_snippet_reads_properties_as_logseq_shows_them(tmp_path: Path) -> None:
    """Logseq's docs graph: `alias` found `«alias»:: page alias type:: Feature platforms::
    All Platforms` on its glossary pages; Logseq shows `alias: page alias`."""
    root = tmp_path / "graph"
    write(root, "logseq/config.edn", "{:file/name-format :triple-lowbar}\n")
    write(root, "pages/term___alias.md", "alias:: page alias\ntype:: [[Feature]]\n\n- text\n")
    [hit] = Brain(BundleSource(root), cache_dir=False).text_search().search("alias")
    assert "::" not in hit.marked() and "type: Feature" in hit.marked()


def test_macros_on_a_hostile_page_add_a_bounded_length() -> None:
    """A graph's 50 KB template called 20,000 times, or a template of `$1` a hundred
    thousand times called with a long argument, would add gigabytes to the page drawn:
    the calls add at most `MACROS_ADD` characters, the rest stay as written."""
    big = {"big": "x" * 50_000, "echo": "$1" * 100_000}
    page = "- {{big}}\n" * 20_000 + "- {{echo " + "y" * 10_000 + "}}\n"
    drawn = logseq_markdown(page, None, big)
    assert len(drawn) <= len(page) + MACROS_ADD
    assert drawn.count("x" * 50_000) == MACROS_ADD // 50_000
    assert drawn.endswith("- {{echo " + "y" * 10_000 + "}}\n")
