"""The body's blocks draw exactly what Textual's own block widgets draw.

`VaultMarkdown` trims what mounting a block costs (no component classes per block,
see `vault_body.NO_COMPONENTS`; lists, tables and quotes of paragraphs drawn by one
widget each: `fast_list`, `fast_table`, `CalloutQuote`): the same bodies, written
here or generated (lists nested, ordered and of tasks, tables, callouts, with
emphasis, code, links and words too long for a column), drawn by it and by the library
path (Textual's block classes, each with its own component classes, and Textual's
list and table widgets, reading the same vault Markdown), must give the same screen,
character for character and style for style, at a wide and a narrow width. (The
SVG's id, a hash of the segments with their mouse-selection offsets, is left out: a
list drawn as one widget numbers the offsets of its lines as one text; and so are
its style class numbers, given in the order styles first occur, blank cells too.)
"""

from __future__ import annotations

import asyncio
import re
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Offset
from textual.selection import Selection
from textual.widgets import Markdown
from textual.widgets._markdown import (
    MarkdownBlock,
    MarkdownH1,
    MarkdownH2,
    MarkdownH3,
    MarkdownH4,
    MarkdownTD,
    MarkdownTH,
)

from okf_explorer.core.fast_paths import PLAIN_ENV
from okf_explorer.tui.markdown.fast_list import VaultBulletList
from okf_explorer.tui.markdown.fast_table import VaultTable
from okf_explorer.tui.markdown.parser import parse
from okf_explorer.tui.markdown.vault_body import (
    CalloutQuote,
    EmbedBlock,
    VaultMarkdown,
    VaultParagraph,
    _VaultInline,
)

from .conftest import settle
from .vault_fixture import VAULT


@pytest.fixture(autouse=True)
def fast_paths_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast paths themselves, whatever the suite runs with (`OKF_EXPLORER_PLAIN`)."""
    monkeypatch.setenv(PLAIN_ENV, "0")


LIBRARY_COMPONENTS = {"COMPONENT_CLASSES": MarkdownBlock.COMPONENT_CLASSES}


def _library(name: str, *bases: type) -> type[MarkdownBlock]:
    library = type(name, bases, dict(LIBRARY_COMPONENTS))
    library._inherit_component_classes = True  # as Textual's `Widget` subclasses all are
    return library


class LibraryQuote(CalloutQuote):
    """A callout whose paragraphs are widgets of their own, as Textual's quote has them."""

    def compose(self) -> ComposeResult:
        yield from MarkdownBlock.compose(self)


class LibraryMarkdown(Markdown):
    """The library path: Textual's block classes with their component classes, our
    inline converter and callouts on top (what `VaultMarkdown` was before)."""

    BLOCKS: ClassVar[dict[str, type[MarkdownBlock]]] = {
        **Markdown.BLOCKS,
        "h1": _library("LibH1", _VaultInline, MarkdownH1),
        "h2": _library("LibH2", _VaultInline, MarkdownH2),
        "h3": _library("LibH3", _VaultInline, MarkdownH3),
        "h4": _library("LibH4", _VaultInline, MarkdownH4),
        "paragraph_open": _library("LibParagraph", VaultParagraph),
        "blockquote_open": _library("LibQuote", LibraryQuote),
        "th_open": _library("LibTH", _VaultInline, MarkdownTH),
        "td_open": _library("LibTD", _VaultInline, MarkdownTD),
    }

    def unhandled_token(self, token):  # type: ignore[no-untyped-def]
        if token.type == "vault_embed":
            return _library("LibEmbed", EmbedBlock)(self, token)
        return None


STYLES = (
    "# Styles\n\nPlain *em* **strong** ~~gone~~ `code` and ***both*** with "
    "[a link](x.md) and `code with **no** bold`.\n\n"
    "### Small heading `with code`\n\n#### Smaller *still*\n\n"
)
LISTS = (
    "- one *item* with `code`\n- two, long enough to wrap at a narrow width: "
    + "words " * 14
    + "\n  - nested **bold**\n    - deeper\n- [x] done task\n- [ ] open task\n\n"
    "3. third\n4. fourth with [[a link]]\n\n"
    "- item\n\n  a second paragraph in it\n\n"
    "1. a\n2. b\n3. c\n4. d\n5. e\n6. f\n7. g\n8. h\n9. i\n10. j\n\n"
)
QUOTES = (
    "> [!note] Title with *em*\n> Body with [a link](x.md) and "
    + "long words " * 12
    + "\n>\n> A second paragraph.\n\n"
    "> [!tip]- Folded\n> Hidden **body**.\n\n> [!bug]+ Open\n> Shown.\n\n"
    "> plain quote\n> on two lines\n\n> outer\n>\n> > nested quote\n\n"
    "> - a list\n> - in a quote\n\n> [!warning]\n\n"
)
TABLE = (
    "| a | *b* |\n|---|:-:|\n| `x` | **y** |\n| 1 | 2 |\n\n---\n\nAfter the rule.\n\n"
    "| name | what it says | link |\n|---|---|---|\n"
    "| first | " + "a cell long enough to wrap over several lines " * 3 + "| [[Page|the page]] |\n"
    "| second | Averyveryveryverylongwordthatcannotwrapanywhereatall | [x](x.md) |\n"
    "| third | short |\n\n"
    "| only |\n|---|\n| one column |\n"
)
BODIES = {
    "styles": STYLES,
    "lists": LISTS,
    "quotes": QUOTES,
    "table": TABLE,
    "notes": VAULT["Reading Notes.md"].split("---\n", 2)[2],
}


class BodyApp(App[None]):
    def __init__(self, markdown: Markdown) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield self.markdown


async def drawn(markdown: Markdown, body: str, size: tuple[int, int], fold: bool = False) -> str:
    """The screen (as SVG) of `markdown` showing `body` at `size` (`fold`: after each
    foldable callout was folded or unfolded)."""
    app = BodyApp(markdown)
    async with app.run_test(size=size) as pilot:
        blocks = list(markdown._parse_markdown(parse(body)))
        await markdown.mount_all(blocks)
        await settle(pilot)
        if fold:
            for quote in markdown.query(CalloutQuote):
                quote.toggle_fold()
            await settle(pilot)
        return drawing(app.export_screenshot())


def drawing(svg: str) -> str:
    """`svg` with each text's style class replaced by the style itself: the classes are
    numbered in the order styles first occur, blank cells included, which only
    says how the cells were cut into segments; and without the backgrounds of empty
    segments (a table column too narrow for any text)."""
    svg = re.sub(r"terminal-\d+", "terminal", svg)
    svg = re.sub(r'<rect [^>]* width="0" [^>]*/>', "", svg)  # draws nothing (a 0-wide cell)
    styles = dict(re.findall(r"\.(terminal-r\d+) \{([^}]*)\}", svg))
    svg = re.sub(r"\.terminal-r\d+ \{[^}]*\}", "", svg)
    return re.sub(r'class="(terminal-r\d+)"', lambda m: f'style="{styles[m[1]]}"', svg)


@pytest.mark.parametrize("size", [(100, 60), (44, 80)], ids=["wide", "narrow"])
@pytest.mark.parametrize("name", list(BODIES))
async def test_blocks_draw_as_the_library_draws_them(name: str, size: tuple[int, int]) -> None:
    ours = await drawn(VaultMarkdown(), BODIES[name], size)
    library = await drawn(LibraryMarkdown(parser_factory=None), BODIES[name], size)
    assert ours == library


async def test_callouts_fold_and_unfold_as_the_library_draws_them() -> None:
    for body in (QUOTES, BODIES["notes"]):
        ours = await drawn(VaultMarkdown(), body, (80, 50), fold=True)
        library = await drawn(LibraryMarkdown(parser_factory=None), body, (80, 50), fold=True)
        assert ours == library


class LinkApp(BodyApp):
    def __init__(self, markdown: Markdown) -> None:
        super().__init__(markdown)
        self.clicked: list[str] = []

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        self.clicked.append(event.href)


async def test_a_table_cell_shows_its_text_as_a_tooltip_and_its_links_follow() -> None:
    markdown = VaultMarkdown()
    app = LinkApp(markdown)
    async with app.run_test(size=(60, 20)) as pilot:
        body = "| name | see |\n|---|---|\n| first | [the page](page.md) |\n"
        await markdown.mount_all(list(markdown._parse_markdown(parse(body))))
        await settle(pilot)
        (table,) = markdown.query(VaultTable)
        assert not table.children, "one widget draws the table"
        layout = table._render().layout(table.content_size.width)  # type: ignore[attr-defined]
        left, _ = layout.columns[1]
        top, _ = layout.rows[1]
        await pilot.hover(table, offset=(left + 2, top + 1))
        assert table.tooltip == "the page"
        await pilot.click(table, offset=(left + 2, top + 1))
        await settle(pilot)
        assert app.clicked == ["page.md"]


async def test_text_selected_in_a_list_is_the_list_text() -> None:
    markdown = VaultMarkdown()
    app = BodyApp(markdown)
    async with app.run_test(size=(60, 20)) as pilot:
        body = "- one *item*\n- two\n  - nested\n"
        await markdown.mount_all(list(markdown._parse_markdown(parse(body))))
        await settle(pilot)
        (bullets,) = markdown.query(VaultBulletList)
        assert not bullets.children, "one widget draws the list"
        selection = Selection(Offset(2, 0), Offset(6, 2))
        assert bullets.get_selection(selection) == ("one item\n• two\n  ▪ ne", "\n")
        app.screen.selections = {bullets: selection}
        await settle(pilot)
        assert "item" in app.export_screenshot()  # drawn with the selection on it


async def test_a_block_id_inside_a_list_or_quote_drawn_as_one_is_found() -> None:
    markdown = VaultMarkdown()
    app = BodyApp(markdown)
    async with app.run_test(size=(60, 20)) as pilot:
        body = "- a\n- b ^in-list\n\n> [!note] Title\n> text ^in-quote\n"
        await markdown.mount_all(list(markdown._parse_markdown(parse(body))))
        await settle(pilot)
        assert isinstance(markdown.block_for("^in-list"), VaultBulletList)
        assert isinstance(markdown.block_for("^in-quote"), CalloutQuote)
        assert markdown.block_for("^nowhere") is None


WORD = st.text(alphabet="abcdefghij", min_size=1, max_size=9)
WORDS = st.lists(WORD, min_size=1, max_size=12).map(" ".join)
SPAN = st.one_of(
    WORDS,
    WORD.map(lambda w: f"*{w}*"),
    WORD.map(lambda w: f"**{w}**"),
    WORD.map(lambda w: f"`{w}`"),
    st.tuples(WORDS, WORD).map(lambda pair: f"[{pair[0]}]({pair[1]}.md)"),
    WORD.map(lambda w: w * 6),  # a word longer than a narrow column
)
TEXT = st.lists(SPAN, min_size=1, max_size=4).map(" ".join)
TASK = st.sampled_from(["", "", "[ ] ", "[x] "])
ITEMS = st.lists(st.tuples(TASK, TEXT).map("".join), min_size=1, max_size=4)


@st.composite
def lists(draw: st.DrawFn) -> str:
    ordered = draw(st.booleans())
    start = draw(st.integers(1, 12))
    lines = [
        f"{n}. {item}" if ordered else f"- {item}" for n, item in enumerate(draw(ITEMS), start)
    ]
    if draw(st.booleans()):  # a list nested under the first item
        indent = " " * (len(str(start)) + 2 if ordered else 2)
        lines[1:1] = [f"{indent}- {item}" for item in draw(ITEMS)]
    return "\n".join(lines)


@st.composite
def tables(draw: st.DrawFn) -> str:
    columns = draw(st.integers(1, 4))
    row = st.lists(TEXT, min_size=columns, max_size=columns)
    rows = draw(st.lists(row, min_size=2, max_size=4))
    marks = draw(st.lists(st.sampled_from(["---", ":--", ":-:", "--:"]), min_size=columns))
    lines = ["| " + " | ".join(cells) + " |" for cells in rows]
    lines.insert(1, "|" + "|".join(marks[:columns]) + "|")
    return "\n".join(lines)


@st.composite
def quotes(draw: st.DrawFn) -> str:
    head = draw(st.sampled_from(["", "[!note] ", "[!tip]- ", "[!warning]+ "]))
    paragraphs = draw(st.lists(TEXT, min_size=1, max_size=2))
    return "\n>\n".join(f"> {head if n == 0 else ''}{text}" for n, text in enumerate(paragraphs))


BLOCKS = st.lists(st.one_of(lists(), tables(), quotes(), TEXT), min_size=1, max_size=3)


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(BLOCKS.map("\n\n".join), st.integers(30, 110))
def test_generated_lists_tables_and_quotes_draw_as_the_library_draws_them(
    body: str, width: int
) -> None:
    async def both() -> tuple[str, str]:
        ours = await drawn(VaultMarkdown(), body, (width, 70))
        library = await drawn(LibraryMarkdown(parser_factory=None), body, (width, 70))
        return ours, library

    ours, library = asyncio.run(both())
    assert ours == library, body
