"""Issue 13 §1 in the TUI: `M` marks the page paths start from, `P` on another page shows
the paths in the traversal panel's place (one row per hop, grouped by path), `enter`
opens a hop's page, `a` toggles avoid-hubs, `escape` (or `P`) returns to the slice."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.graph.path_view import PathView
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import PagePane
from okf_explorer.tui.widgets.status_bar import StatusBar
from tests.path_bundle import make_path_bundle

from .conftest import brain_for, settle

SIZES = [(80, 24), (150, 45)]


def hop_rows(view: PathView) -> list[tuple[str, str, str, str, str]]:
    table = view.table
    return [
        tuple(str(cell).split("  ")[0] for cell in table.row(row).cells)  # type: ignore[misc]
        for row in range(table.row_count)
    ]


async def open_page(pilot, app, slug: str) -> None:  # type: ignore[no-untyped-def]
    app.screen.open_page(slug)
    await settle(pilot, lambda: app.screen.query_one(PagePane).slug == slug)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "150x45"])
async def test_mark_open_another_page_show_paths_open_a_hop_and_return(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(brain_for(BundleSource(make_path_bundle(tmp_path / "b"))), start="a")
    async with app.run_test(size=size) as pilot:
        panel = app.screen.query_one(TraversalPanel)
        view = app.screen.query_one(PathView)
        await settle(pilot, lambda: app.screen.loader.ready and panel.filled)
        assert not view.display
        await pilot.press("M")
        status = app.screen.query_one(StatusBar)
        assert str(status.query_one("#status-from").content) == "from: a ·"
        await open_page(pilot, app, "d")
        await pilot.press("P")
        await settle(pilot, lambda: view.loaded)
        assert view.display and not panel.display and view.table.has_focus
        assert str(view.border_title) == "paths a → d · 3 found"
        rows = hop_rows(view)
        assert rows[:2] == [("1*", "1", "→", "a", "hub"), ("", "2", "→", "hub", "d")]
        assert [row[0] for row in rows] == ["1*", "", "2", "", "", "3", "", ""]
        await settle(pilot)  # the columns fit beside the scroll bar, once it shows
        table = view.table
        assert sum(column.width + 2 for column in table.columns) <= table.scrollable_size.width
        assert not table.show_horizontal_scrollbar
        assert table.show_vertical_scrollbar == (size[1] < 40)
        info = str(view.query_one("#path-info").content)
        assert info.splitlines() == [
            "path 1 · 2 hops · via hub hub · links (exact)",
            "First see hub.",
        ]
        await pilot.press("down", "enter")  # the second hop leads to d
        await pilot.press("down", "down", "enter")  # path 2's first hop: a → b or a → c
        chosen = rows[3][4]
        await settle(pilot, lambda: app.screen.query_one(PagePane).slug == chosen)
        assert view.display  # the paths stay while their pages are read
        await pilot.press("a")
        await settle(pilot, lambda: view.loaded)
        assert str(view.border_title) == "paths a → d · 3 found · avoid hubs"
        assert all("hub" not in row for row in hop_rows(view))
        await pilot.press("tab", "tab", "tab")  # tab goes round the panes, the paths' included
        assert view.table.has_focus
        await pilot.press("escape")
        await settle(pilot)
        assert panel.display and not view.display and panel.table.has_focus


async def test_p_without_a_mark_or_on_the_marked_page_says_what_to_do(tmp_path: Path) -> None:
    app = make_app(brain_for(BundleSource(make_path_bundle(tmp_path / "b"))), start="d")
    async with app.run_test(size=(120, 40)) as pilot:
        panel = app.screen.query_one(TraversalPanel)
        view = app.screen.query_one(PathView)
        await settle(pilot, lambda: app.screen.loader.ready and panel.filled)
        await pilot.press("P")
        notes = [n.message for n in app._notifications]
        assert "press M on the page paths start from" in notes and not view.display
        await pilot.press("M", "P")
        assert not view.display
        await open_page(pilot, app, "a")
        await pilot.press("P")  # d links nowhere: no path out of it
        await settle(pilot, lambda: "no path" in str(view.query_one("#path-info").content))
        assert str(view.border_title) == "paths d → a · 0 found"
        await pilot.press("d")  # in: d ← hub ← a
        await settle(pilot, lambda: view.loaded)
        assert str(view.border_title) == "paths d → a · 3 found · in"
        await pilot.press("P")
        await settle(pilot)
        assert panel.display and not view.display
