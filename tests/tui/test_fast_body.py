"""`fast_body` shows what Textual's `Markdown` widget shows, and the switch turns it off.

The property: for generated bodies (headings, paragraphs and list items with wiki and
Markdown links, fenced code, tables, quotes), the light renderer's text has every
heading of the `Markdown` widget as a line, in order; every code line; every table
row (its cells, aligned, joined by ` │ `); and the same link actions (`link(href)`)
in the same order. Both read the body with the same parser (`vault_markdown`).
"""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import Markdown
from textual.widgets._markdown import MarkdownBlock, MarkdownFence, MarkdownHeader, MarkdownTable

from okf_explorer.core.brain import Brain
from okf_explorer.core.fast_paths import PLAIN_ENV
from okf_explorer.core.pages import Page
from okf_explorer.sources.factory import SAMPLE_BRAIN
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.markdown.fast_body import LIGHT_CHARS, LightBody, prepare_body
from okf_explorer.tui.markdown.fast_render import render_tokens
from okf_explorer.tui.markdown.parser import parse
from okf_explorer.tui.markdown.vault_body import VaultMarkdown
from okf_explorer.tui.widgets.page import pane as page_pane
from okf_explorer.tui.widgets.page.pane import PagePane

pytestmark = pytest.mark.plain

WORD = st.text(alphabet="abcdefghij", min_size=1, max_size=7)
WORDS = st.lists(WORD, min_size=1, max_size=5).map(" ".join)
LINK = st.one_of(
    WORD.map(lambda target: f"[[{target}]]"),
    st.tuples(WORDS, WORD).map(lambda pair: f"[{pair[0]}]({pair[1]}.md)"),
    st.tuples(WORD, WORD).map(lambda pair: f"[[{pair[0]}|{pair[1]}]]"),
)
TEXT = st.lists(st.one_of(WORDS, LINK, WORD.map(lambda w: f"*{w}*")), max_size=3).map(" ".join)
LINE = st.tuples(TEXT, LINK, TEXT).map(lambda parts: " ".join(parts).strip())  # has a link
HEADING = st.tuples(st.integers(1, 4), LINE).map(lambda pair: "#" * pair[0] + " " + pair[1])
PARAGRAPH = LINE
BULLETS = st.lists(LINE, min_size=1, max_size=4).map(
    lambda items: "\n".join(f"- {i}" for i in items)
)
NUMBERED = st.lists(LINE, min_size=1, max_size=3).map(
    lambda items: "\n".join(f"{n}. {item}" for n, item in enumerate(items, 1))
)
QUOTE = LINE.map(lambda line: f"> {line}")
FENCE = st.lists(WORDS, min_size=1, max_size=4).map(
    lambda lines: "```\n" + "\n".join(lines) + "\n```"
)
TABLE = (
    st.integers(1, 3)
    .flatmap(
        lambda width: st.lists(
            st.lists(WORD, min_size=width, max_size=width), min_size=2, max_size=4
        )
    )
    .map(
        lambda rows: "\n".join(
            ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
            + ["| " + " | ".join(row) + " |" for row in rows[1:]]
        )
    )
)
BLOCK = st.one_of(HEADING, PARAGRAPH, BULLETS, NUMBERED, QUOTE, FENCE, TABLE)
EVERY_KIND = st.tuples(HEADING, PARAGRAPH, BULLETS, NUMBERED, QUOTE, FENCE, TABLE)
BODY = st.tuples(EVERY_KIND.flatmap(st.permutations), st.lists(BLOCK, max_size=4)).map(
    lambda parts: "\n\n".join([*parts[0], *parts[1]])
)


class MarkdownApp(App[None]):
    def compose(self) -> ComposeResult:
        yield VaultMarkdown()


def click_actions(content: Content) -> list[str]:
    """The `@click` actions of `content`'s spans, in order of position."""
    spans = sorted(content.spans, key=lambda span: span.start)
    metas = (getattr(span.style, "meta", None) or {} for span in spans)
    return [meta["@click"] for meta in metas if "@click" in meta]


async def widget_view(bodies: list[str]) -> list[tuple[list[str], list[str], list[str], list[str]]]:
    """(headings, code lines, table rows, link actions) the `Markdown` widget shows per body."""
    views = []
    app = MarkdownApp()
    async with app.run_test() as pilot:
        markdown = app.query_one(VaultMarkdown)
        for body in bodies:
            await markdown.update(body)
            await pilot.pause()
            headings = [block._content.plain for block in markdown.query(MarkdownHeader)]
            code = [line for f in markdown.query(MarkdownFence) for line in f.code.split("\n")]
            rows = []
            for table in markdown.query(MarkdownTable):
                for cells in [table._headers, *table._rows]:
                    rows.append(" │ ".join(cell.plain.strip() for cell in cells))
            links = [
                a for block in markdown.query(MarkdownBlock) for a in click_actions(block._content)
            ]
            views.append((headings, code, rows, links))
    return views


def in_order(wanted: list[str], lines: list[str]) -> bool:
    """Whether `wanted` appears as whole lines of `lines`, in order."""
    rest = iter(lines)
    return all(any(line == item for line in rest) for item in wanted)


@settings(max_examples=3, deadline=None)
@given(st.lists(BODY, min_size=6, max_size=6))
def test_light_body_shows_what_the_markdown_widget_shows(bodies: list[str]) -> None:
    markdowns = [prepare_body(body).markdown for body in bodies]  # linkified, as shown
    for markdown, (headings, code, rows, links) in zip(
        markdowns, asyncio.run(widget_view(markdowns)), strict=True
    ):
        pieces = render_tokens(parse(markdown)).pieces
        light = Content("\n").join(piece.content for piece in pieces)
        lines = [
            " │ ".join(cell.strip() for cell in line.split("│"))
            for line in light.plain.split("\n")
        ]
        assert in_order([h.strip() for h in headings], lines), (markdown, headings)
        assert all(line.rstrip() in {li.strip() for li in lines} for line in code), markdown
        assert in_order(rows, lines), (markdown, rows)
        assert click_actions(light) == links, markdown


def test_plain_switch_sends_long_bodies_to_the_markdown_widget(monkeypatch) -> None:
    long = "# Long\n\n" + "word " * LIGHT_CHARS
    monkeypatch.setenv(PLAIN_ENV, "0")  # whatever the run's own setting (the plain pass)
    assert prepare_body(long).light is not None
    monkeypatch.setenv(PLAIN_ENV, "1")
    plain = prepare_body(long)
    assert plain.light is None and plain.chunks == () and plain.markdown.startswith("# Long")
    assert prepare_body(long, start=plain.end).light is None  # the next part too


class PaneApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PagePane(Brain(BundleSource(SAMPLE_BRAIN), cache_dir=False))


async def test_plain_switch_shows_every_part_of_a_long_body_in_the_markdown_widget(
    monkeypatch,
) -> None:
    monkeypatch.setenv(PLAIN_ENV, "1")
    monkeypatch.setattr(page_pane, "RENDER_CHARS", 300)  # parts of ~300 characters
    body = "".join(f"Paragraph {n} links [[p{n}]].\n\n" for n in range(40))
    app = PaneApp()
    async with app.run_test() as pilot:
        pane = app.query_one(PagePane)
        await pane.show_page(Page(slug="long", title="Long", content=body))
        await pilot.pause()
        first = pane.end
        assert not pane.light and pane.truncated and 150 < first <= 300
        assert await pane.show_more()
        await pilot.pause()
        assert not pane.light and 300 < pane.end <= 600
        shown = app.query_one(Markdown).source
        assert shown.startswith("Paragraph 0 links") and "(<okf:p12>)" in shown
        assert [href for _, href in pane.links][:2] == ["okf:p0", "okf:p1"]
        assert not app.query_one(LightBody).children
