"""Issue 24 item 1 in the explorer: a vault's single newlines are line breaks, as Obsidian
shows them; an OKF bundle, or a vault whose settings turn "Strict line breaks" on, joins
them (CommonMark). The page header's tooltip and `?` say which rule applies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Markdown, Static

from okf_explorer.core.fast_paths import PLAIN_ENV
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import EmbedBlock, VaultBody
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_pages

from .conftest import brain_for, settle

PLUGIN = (
    "# Plugin\n\nPlugin ID: x-plugin\nLinks: [site](https://example.com)\n"
    "Developed by: [[amy]]\n\n![[amy]]\n"
)
AMY = "# Amy\n\nWrites plugins\nand themes.\n"
OKF = {"index": '---\nokf_version: "0.2"\n---\n# Index\n', "plugin": PLUGIN, "amy": AMY}
VAULT = {"plugin": PLUGIN, "amy": AMY}


def body_text(pane: PagePane) -> str:
    return "\n".join(
        row.content.plain.rstrip()
        for _, drawing in pane.query_one(VaultBody).drawings()
        for row in drawing.rows
    )


@pytest.mark.parametrize(
    ("pages", "strict", "joined"),
    [(VAULT, None, False), (VAULT, True, True), (VAULT, False, False), (OKF, None, True)],
    ids=["vault", "vault-strict", "vault-not-strict", "okf"],
)
async def test_single_newlines_follow_the_brain_s_rule(
    tmp_path: Path, pages: dict[str, str], strict: bool | None, joined: bool
) -> None:
    root = write_pages(tmp_path / "brain", pages)
    if strict is not None:
        (root / ".obsidian").mkdir()
        (root / ".obsidian" / "app.json").write_text(json.dumps({"strictLineBreaks": strict}))
    app = make_app(brain_for(BundleSource(root)), start="plugin")
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        embed = pane.query_one(EmbedBlock)
        await settle(pilot, lambda: embed.text is not None)
        text = body_text(pane)
        preview = embed.visual.plain  # type: ignore[union-attr]
        tooltip = str(pane.query_one("#page-header", Static).tooltip)
        if joined:
            assert "Plugin ID: x-plugin Links: site Developed by: amy" in text
            assert "Writes plugins and themes." in preview
            assert "line breaks: CommonMark" in tooltip
        else:
            assert "Plugin ID: x-plugin\nLinks: site\nDeveloped by: amy" in text
            assert "Writes plugins\nand themes." in preview
            assert "line breaks: as Obsidian shows a vault" in tooltip
        await pilot.press("question_mark")
        await settle(pilot)
        help_text = "\n".join(str(w.content) for w in app.screen.query(Static))
        assert tooltip in help_text


@pytest.mark.parametrize("pages", [VAULT, OKF], ids=["vault", "okf"])
async def test_l_reads_single_newlines_the_other_way_for_the_session(
    tmp_path: Path, pages: dict[str, str]
) -> None:
    """An LLM wiki hard-wrapped at 80 columns ran ragged in a 71-cell pane under its
    vault's rule (each line wrapped, then broke); `L` lets its paragraphs flow, on every
    page and embed of the session, and says so; `L` again restores the brain's rule. In an
    OKF bundle it shows the breaks instead."""
    root = write_pages(tmp_path / "brain", pages)
    app = make_app(brain_for(BundleSource(root)), start="plugin")
    joined, broken = "Plugin ID: x-plugin Links: site", "Plugin ID: x-plugin\nLinks: site"
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        before = joined if pages is OKF else broken
        after = broken if pages is OKF else joined
        assert before in body_text(pane)
        await pilot.press("L")
        await settle(pilot, lambda: after in body_text(pane))
        embed = pane.query_one(EmbedBlock)
        await settle(pilot, lambda: embed.text is not None)
        preview = embed.visual.plain  # type: ignore[union-attr]
        assert ("Writes plugins\nand themes." in preview) == (pages is OKF)
        tooltip = str(pane.query_one("#page-header", Static).tooltip)
        assert "chosen with L" in tooltip
        assert any("chosen with L" in str(note.message) for note in app._notifications)
        await pilot.press("L")
        await settle(pilot, lambda: before in body_text(pane))
        assert "chosen with L" not in str(pane.query_one("#page-header", Static).tooltip)


async def test_the_markdown_widget_follows_the_rule_too(tmp_path: Path, monkeypatch) -> None:
    """Under `OKF_EXPLORER_PLAIN=1` Textual's `Markdown` widget shows the body: same rule."""
    monkeypatch.setenv(PLAIN_ENV, "1")
    root = write_pages(tmp_path / "brain", VAULT)
    app = make_app(brain_for(BundleSource(root)), start="plugin")
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        paragraph = pane.query_one(Markdown).query("MarkdownParagraph").first()
        assert "Plugin ID: x-plugin\nLinks: site" in str(paragraph.content)


@pytest.mark.parametrize("kind", ["vault", "okf"])
def test_snapshot(snap_compare, tmp_path: Path, kind: str) -> None:  # type: ignore[no-untyped-def]
    """The plugin page in a vault (three lines) and in an OKF bundle (one paragraph)."""
    root = write_pages(tmp_path / kind, VAULT if kind == "vault" else OKF)
    app = make_app(brain_for(BundleSource(root)), start="plugin", source_label=f"test {kind}")

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        pane = pilot.app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.shown is not None)
        await settle(pilot, lambda: pane.query_one(EmbedBlock).text is not None)

    assert snap_compare(app, terminal_size=(100, 28), run_before=run_before)
