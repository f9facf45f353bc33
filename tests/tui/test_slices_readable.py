"""Issue 11 point 2: slices you can read, at 80×24 and 150×45 — titles beside slugs cut
from the left, `from` once per group, and `both` rows by hop so direct backlinks show."""

from __future__ import annotations

from pathlib import Path

import pytest

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.graph import traversal_panel
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.row_table import RowTable
from tests.bundles import write_pages

from .conftest import brain_for, settle

SIZES = [(80, 24), (150, 45)]
DEEP = "01_literature/Engineering/AI"


def deep_bundle(root: Path) -> Path:
    pages = {
        "index": "---\ntitle: Home\n---\n[[" + DEEP + "]]\n",
        DEEP: "---\ntitle: Artificial intelligence notes\n---\n"
        "See [[01_literature/Engineering/Machine learning]] and "
        "[[01_literature/Engineering/Data pipelines]] and [[02_projects/Orders warehouse]].\n",
        "01_literature/Engineering/Machine learning": "---\ntitle: ML reading list\n---\n"
        "Back to [[01_literature/Engineering/AI]]; also [[02_projects/Orders warehouse]].\n",
        "01_literature/Engineering/Data pipelines": "# Pipelines\n\n[[index]]\n",
        "02_projects/Orders warehouse": "---\ntitle: The orders warehouse\n---\nNo links.\n",
    }
    return write_pages(root, pages)


def cells(table: RowTable) -> list[list[str]]:
    return [[str(cell) for cell in table.row(row).cells] for row in range(table.row_count)]


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "150x45"])
async def test_rows_show_file_names_titles_and_from_once_per_group(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(brain_for(BundleSource(deep_bundle(tmp_path / "b"))), start=DEEP)
    async with app.run_test(size=size) as pilot:
        panel = app.screen.query_one(TraversalPanel)
        await settle(pilot, lambda: app.screen.loader.ready and panel.filled)
        await pilot.press("plus")
        await settle(pilot, lambda: panel.filled and panel.view.depth == 2)
        rows = cells(panel.table)
        edges = [panel.edges[at] for at in panel._row_edges]
        assert len(rows) == len(edges) == 6
        for row, edge in zip(rows, edges, strict=True):
            name = edge.to.rsplit("/", 1)[-1]
            assert name[:8] in row[3]  # the file name stays visible, however narrow
        assert [row[2] != "" for row in rows] == [True, False, False, True, False, True]
        assert "…" in rows[0][2] or rows[0][2] == DEEP  # `from` cut from the left, if at all
        if size[0] >= 150:
            assert "ML reading" in rows[0][3]  # the title beside the slug, where it fits
        width = panel.table.size.width
        assert sum(column.width for column in panel.table.columns) + 8 <= width


async def test_both_shows_every_direct_backlink_before_deeper_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hub with many pages beyond its own links: at depth 3 `both` the out pass alone
    fills the capped table; shown by hop, the hop-1 `in` rows come before it."""
    monkeypatch.setattr(traversal_panel, "ROW_LIMIT", 12)
    pages = {"hub": "[[" + "]] [[".join(f"out{i}" for i in range(4)) + "]]\n"}
    pages |= {f"out{i}": " ".join(f"[[deep{i}-{j}]]" for j in range(10)) for i in range(4)}
    pages |= {f"fan{i}": "[[hub]]\n" for i in range(6)}
    app = make_app(brain_for(BundleSource(write_pages(tmp_path / "b", pages))), start="hub")
    async with app.run_test(size=(150, 45)) as pilot:
        panel = app.screen.query_one(TraversalPanel)
        await settle(pilot, lambda: app.screen.loader.ready and panel.filled)
        await pilot.press("plus", "plus", "d", "d")
        await settle(pilot, lambda: panel.filled and panel.view.direction == "both")
        assert len(panel.edges) > 12 and panel.table.row_count == 12
        shown = [panel.edges[at] for at in panel._row_edges]
        assert [(e.hop, e.direction) for e in shown[:10]] == [(1, "out")] * 4 + [(1, "in")] * 6
        assert sorted(e.to for e in shown if e.direction == "in") == [f"fan{i}" for i in range(6)]
        info = str(panel.query_one("#traversal-info").content)
        assert "first 12 shown, by hop" in info
