"""A page's first screen first (`first_screen`): only the blocks that cover the pane are
mounted before the first paint, the rest right after, and the body ends up the same
as Textual's own `Markdown.update` builds it."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.content import Content
from textual.widget import Widget
from textual.widgets._markdown import MarkdownBlock

from okf_explorer.core.brain import Brain
from okf_explorer.core.pages import Page
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.markdown.vault_body import EmbedBlock, VaultMarkdown
from okf_explorer.tui.widgets.page.pane import PagePane
from tests.bundles import write_bundle

from .conftest import settle
from .vault_fixture import VAULT

NOTES = VAULT["Reading Notes.md"].split("---\n", 2)[2]
LONG = NOTES + "".join(f"\n## Part {n}\n\nParagraph {n} of the long page.\n" for n in range(25))


class PaneApp(App[None]):
    """A page pane, and a stock-built `VaultMarkdown` to compare it with."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root

    def compose(self) -> ComposeResult:
        yield PagePane(Brain(BundleSource(self.root), cache_dir=False), id="pane")
        yield VaultMarkdown(id="stock")


def blocks(markdown: VaultMarkdown) -> list[tuple[str, str, tuple[str, ...]]]:
    """Every block of the body in order: its class, text and CSS classes."""
    return [
        (type(block).__name__, block._content.plain, tuple(sorted(block.classes)))
        for block in markdown.query(MarkdownBlock)
    ]


def texts(widget: Widget) -> list[str]:
    """The text every widget under `widget` renders, in order (table cells, bullets too;
    embeds are filled by the page pane only: named, not compared)."""
    found = []
    for child in widget.walk_children():
        drawn = child.label if isinstance(child, EmbedBlock) else child.render()
        found.append(str(drawn) if isinstance(drawn, str | Content) else type(child).__name__)
    return found


async def test_first_paint_mounts_what_covers_the_pane_then_the_rest(tmp_path: Path) -> None:
    app = PaneApp(write_bundle(tmp_path / "b", {"index.md": "# Home\n"}))
    async with app.run_test(size=(100, 30)) as pilot:
        pane, stock = app.query_one(PagePane), app.query_one("#stock", VaultMarkdown)
        stock.display = False
        await pilot.pause()
        body = pane.query_one("#page-body", VaultMarkdown)
        at_first_paint: list[tuple[list[Widget], int]] = []
        rest = pane.first_screen.rest

        async def spied_rest() -> None:  # runs once the first screen is painted
            at_first_paint.append((list(body.children), pane.region.bottom))
            await rest()

        pane.first_screen.rest = spied_rest  # type: ignore[method-assign]
        await pane.show_page(Page(slug="long", title="Long", content=LONG))
        assert not pane.light
        await settle(pilot, lambda: bool(at_first_paint))
        first, bottom = at_first_paint[0]
        assert 5 < len(first) < 40, "only the first screen's blocks before the first paint"
        assert first[-1].region.bottom >= bottom - 1, "the first screen is full"
        await settle(pilot, lambda: not pane.first_screen.pending)
        await settle(pilot)
        assert len(body.children) > 60
        assert body.children[: len(first)] == first, "the first blocks stay, the rest follows"
        await stock.update(body.source)  # the linkified body, as the pane had it
        stock.display = True
        await settle(pilot)
        assert blocks(body) == blocks(stock)
        assert texts(body) == texts(stock)


async def test_a_short_page_is_whole_at_the_first_paint(tmp_path: Path) -> None:
    app = PaneApp(write_bundle(tmp_path / "b", {"index.md": "# Home\n"}))
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.query_one(PagePane)
        await pane.show_page(Page(slug="short", title="Short", content="# Short\n\nOne line.\n"))
        assert not pane.first_screen.pending or not list(pane.first_screen._rest or ())
        assert [type(b).__name__ for b in pane.query_one("#page-body").children] == [
            "VaultMarkdownH1",
            "VaultParagraph",
        ]
        await settle(pilot)


async def test_another_page_opened_before_the_rest_drops_it(tmp_path: Path) -> None:
    app = PaneApp(write_bundle(tmp_path / "b", {"index.md": "# Home\n"}))
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.query_one(PagePane)
        await pane.show_page(Page(slug="long", title="Long", content=LONG))
        await pane.show_page(Page(slug="short", title="Short", content="# Short\n\nOne line.\n"))
        await settle(pilot)
        body = pane.query_one("#page-body", VaultMarkdown)
        assert [block[1] for block in blocks(body)] == ["Short", "One line."]


async def test_the_first_paint_mounts_no_block_below_the_pane(tmp_path: Path) -> None:
    """Each block's rows are estimated by its kind (a table's frame, a heading's margin,
    a folded callout's one line, wrapped text) under the header: the blocks mounted
    before the first paint fill the pane and all but the last start on it."""
    app = PaneApp(write_bundle(tmp_path / "b", {"index.md": "# Home\n"}))
    async with app.run_test(size=(120, 40)) as pilot:
        pane, stock = app.query_one(PagePane), app.query_one("#stock", VaultMarkdown)
        stock.display = False
        await pilot.pause()
        body = pane.query_one("#page-body", VaultMarkdown)
        at_first_paint: list[list[Widget]] = []
        rest = pane.first_screen.rest

        async def spied_rest() -> None:
            at_first_paint.append(list(body.children))
            await rest()

        pane.first_screen.rest = spied_rest  # type: ignore[method-assign]
        await pane.show_page(Page(slug="notes", title="Notes", content=NOTES * 2))
        await settle(pilot, until=lambda: bool(at_first_paint))
        first = at_first_paint[0]
        bottom = pane.region.bottom
        assert first[-1].region.bottom >= bottom - 1, "the first screen is full"
        assert all(block.region.y < bottom for block in first[:-1]), [
            (type(block).__name__, block.region.y) for block in first
        ]
        await settle(pilot)
