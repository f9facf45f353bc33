"""An embed's preview is its section drawn as a body is drawn (`EmbedView`), not its raw
text: folded, its first lines of text; unfolded, the drawn section (a quote keeps its
bar, a callout its title)."""

from __future__ import annotations

from pathlib import Path

from textual.content import Content

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.markdown import EmbedBlock
from okf_explorer.tui.markdown.draw import Embed
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_pages

from .conftest import settle

SECTION = """## Setup

Run the **nightly** build with [[tools/runner|the runner]] and `make all`. ^setup

- first *step*
- second step

| key | value |
|---|---|
| a | 1 |

> [!tip] Keep it short
> Short wins.
"""
PAGES = {
    "guide": "# Guide\n\nIntro.\n\n" + SECTION + "\n## Later\n\nNot embedded.\n",
    "tools/runner": "# Runner\n",
    "home": "# Home\n\n![[guide#Setup]]\n\nAfter the embed.\n",
}


def styled(line: Content, style: str) -> list[str]:
    return [line.plain[s.start : s.end] for s in line.spans if s.style == style]


def preview(text: str, open: bool = False, width: int = 60) -> list[Content]:
    """The rows an embed of `text` shows under its name, `width` wide."""
    block = EmbedBlock(Embed(href="okf:guide#Setup", label="guide > Setup"), (0, 1))
    block.text, block.open = text, open
    return [row.content for row in block.preview_rows(width)[1:]]


def test_an_embed_shows_its_section_drawn() -> None:
    lines = preview(SECTION)
    plain = [line.plain.rstrip() for line in lines]
    assert plain == [
        "Setup",
        "Run the nightly build with the runner and make all.",
        "• first step",
        "▸ enter or click to unfold",
    ]  # its first lines of text
    assert styled(lines[1], ".strong") == ["nightly"]
    assert styled(lines[1], ".code_inline") == ["make all"]
    clicks = [s.style.meta.get("@click") for s in lines[1].spans if not isinstance(s.style, str)]
    assert "link('okf:tools/runner')" in clicks
    opened = [line.plain.rstrip() for line in preview(SECTION, open=True)]
    assert opened[:4] == ["Setup", "", "Run the nightly build with the runner and make all.", ""]
    assert any(line.startswith("│ key ") for line in opened)  # the table, in its grid
    assert "▌ ★ Keep it short" in opened and "▌ Short wins." in opened
    assert not any("**" in p or "[[" in p or "^setup" in p or p.startswith("#") for p in opened)


async def test_the_page_pane_previews_an_embed_rendered(tmp_path: Path) -> None:
    from .conftest import brain_for

    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", PAGES))), start="home")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: bool(pane.query(EmbedBlock)))
        embed = pane.query_one(EmbedBlock)
        await settle(pilot, until=lambda: embed.text is not None)
        shown = embed.render().plain  # type: ignore[union-attr]
        rows = shown.split("\n")
        assert rows[:2] == ["↳ guide > Setup", "Setup"]
        assert " ".join(rows[2:]).startswith(
            "Run the nightly build with the runner and make all. • first step"
        )  # rows wrapped to the pane
        assert "**" not in shown and "▸ enter or click to unfold" in shown
        await pilot.click(embed, offset=(2, 2))
        await settle(pilot)
        opened = embed.render().plain  # type: ignore[union-attr]
        assert embed.open and "│ key " in opened and "Short wins." in opened
        assert "Not embedded" not in opened and "##" not in opened


async def test_an_embed_that_waited_for_the_index_fills_once_it_is_built(tmp_path: Path) -> None:
    """Seen on the Obsidian help vault: the start page's `![[Internal links#^b15695]]`
    said `waiting for the index…` for good (before the index only an exact slug is found)."""
    from okf_explorer.tui.markdown import WAITING_FOR_INDEX
    from okf_explorer.tui.state.index_loader import IndexLoader

    from .conftest import brain_for

    pages = {**PAGES, "docs/guide": PAGES["guide"]}
    del pages["guide"]  # `![[guide#Setup]]` now needs the index: the file name resolves it
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", pages))), start="home")
    async with app.run_test(size=(100, 40)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: app.screen.loader.ready and bool(pane.query(EmbedBlock)))
        embed = pane.query_one(EmbedBlock)
        embed.fill(None, WAITING_FOR_INDEX)  # as when it asked before the build ended
        built = IndexLoader.IndexBuilt("index", len(pages), first=True, unchanged=False)
        app.screen.loader.post_message(built)
        await settle(pilot, until=lambda: pane.query_one(EmbedBlock).text is not None)
        assert embed.is_attached  # the same block, filled now (the page was not drawn again)
        assert "Run the nightly build" in embed.render().plain  # type: ignore[union-attr]


async def test_a_wrapped_quote_in_an_embed_keeps_its_bar(tmp_path: Path) -> None:
    """Seen on the Obsidian help vault: an embedded callout's second line lost its bar."""
    from .conftest import brain_for

    long = "Autocomplete switches to a simpler result algorithm when the vault is huge."
    pages = {
        "switcher": f"# Switcher\n\n> [!info]\n> {long}\n",
        "home": "# Home\n\n![[switcher]]\n",
    }
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", pages))), start="home")
    async with app.run_test(size=(60, 30)) as pilot:
        pane = app.screen.query_one(PagePane)
        await settle(pilot, until=lambda: bool(pane.query(EmbedBlock)))
        embed = pane.query_one(EmbedBlock)
        await settle(pilot, until=lambda: embed.text is not None)
        rows = [embed.render_line(y).text.rstrip() for y in range(embed.size.height)]
        quote = [row for row in rows if "simpler" in row or "vault is huge" in row]
        assert len(quote) == 2 and all(row.lstrip().startswith("▌ ") for row in quote), rows
