"""`OKF_EXPLORER_PLAIN=1` turns the engine's drawing off: Textual's `Markdown` widget
(`VaultMarkdown`) shows every body, every part of a long one too (the engine draws
what it draws: `test_one_look.py`)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Markdown

from okf_explorer.core.brain import Brain
from okf_explorer.core.fast_paths import PLAIN_ENV
from okf_explorer.core.pages import Page
from okf_explorer.sources.factory import SAMPLE_BRAIN
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.markdown import LONG_CHARS, VaultBody, prepare_body
from okf_explorer.tui.widgets.page import pane as page_pane
from okf_explorer.tui.widgets.page.pane import PagePane


def test_plain_switch_sends_bodies_to_the_markdown_widget(monkeypatch) -> None:
    long = "# Long\n\n" + "word " * LONG_CHARS
    assert prepare_body(long).drawn and prepare_body("# Short\n").drawn
    monkeypatch.setenv(PLAIN_ENV, "1")
    plain = prepare_body(long)
    assert not plain.drawn and plain.pieces is None and plain.markdown.startswith("# Long")
    assert not prepare_body(long, start=plain.end).drawn  # the next part too
    assert not prepare_body("# Short\n").drawn


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
        assert not pane.drawn and pane.truncated and 150 < first <= 300
        assert await pane.show_more()
        await pilot.pause()
        assert not pane.drawn and 300 < pane.end <= 600
        shown = app.query_one(Markdown).source
        assert shown.startswith("Paragraph 0 links") and "(<okf:p12>)" in shown
        assert [href for _, href in pane.links][:2] == ["okf:p0", "okf:p1"]
        assert not app.query_one(VaultBody).children
