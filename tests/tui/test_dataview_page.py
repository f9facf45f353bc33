"""A page written with Dataview's queries of its own fields, in the explorer: its title and
its body show the values, as Obsidian shows them with the plugin (`core.dataview`)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Markdown

from okf_explorer.core.fast_paths import PLAIN_ENV
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import EmbedBlock
from okf_explorer.tui.widgets.page.header import PageHeader
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_pages

from .conftest import brain_for, settle
from .test_line_breaks import body_text

SPELL = """---
name: Glimmer
traditions: [arcane, occult]
range: 30 feet
effect: A spark leaves the target [[Dazzled]].
---
# `=this.name`
**Traditions** `=this.traditions`
**Range** `=this.range`

`=this.effect`
"""
PAGES = {
    "spells/glimmer": SPELL,
    "Dazzled": "# Dazzled\n\nYou see less.\n",
    "session": "# Session 3\n\nThe wizard cast it:\n\n![[glimmer]]\n",
}


async def test_the_title_and_body_show_the_values(tmp_path: Path) -> None:
    root = write_pages(tmp_path / "vault", PAGES)
    app = make_app(brain_for(BundleSource(root)), start="spells/glimmer")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        text = body_text(pane)
        assert "Glimmer\n" in text and "Traditions arcane, occult\nRange 30 feet" in text
        assert "=this" not in text
        assert "Glimmer" in app.screen.query_one(PageHeader).visual.plain  # type: ignore[union-attr]
        await pilot.press("n")  # the link inside the value is a link, as Dataview draws it
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, lambda: pane.page is not None and pane.page.slug == "Dazzled")


async def test_the_markdown_widget_shows_the_values_too(tmp_path: Path, monkeypatch) -> None:
    """Under `OKF_EXPLORER_PLAIN=1` Textual's `Markdown` widget shows the body: the same."""
    monkeypatch.setenv(PLAIN_ENV, "1")
    root = write_pages(tmp_path / "vault", PAGES)
    app = make_app(brain_for(BundleSource(root)), start="spells/glimmer")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        paragraph = pane.query_one(Markdown).query("MarkdownParagraph").first()
        assert "Traditions arcane, occult" in str(paragraph.content)


async def test_an_embed_shows_the_embedded_page_s_values(tmp_path: Path) -> None:
    """A session note embedding a spell page (`![[glimmer]]`) shows the spell's values, as
    Dataview renders an embed with the embedded file's fields."""
    root = write_pages(tmp_path / "vault", PAGES)
    app = make_app(brain_for(BundleSource(root)), start="session")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        embed = pane.query_one(EmbedBlock)
        await settle(pilot, lambda: embed.text is not None)
        preview = embed.visual.plain  # type: ignore[union-attr]
        assert "Glimmer" in preview and "Traditions arcane, occult" in preview, preview
        assert "=this" not in preview
