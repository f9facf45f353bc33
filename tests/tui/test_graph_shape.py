"""The shape of the graph in the explorer (issue 27): walks by relation (`w`, then `t`),
implied inverse edges (`i`), communities and bridges in the `s` dialog, and suggested
links beside the mentions in the link tree. Real keys on the shape vault."""

from __future__ import annotations

from pathlib import Path

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.graph.walk_view import WalkView
from tests.shape_vault import make_shape_vault

from .conftest import brain_for, settle


def table_rows(view: WalkView) -> list[tuple[str, ...]]:
    table = view.table
    return [tuple(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]


async def test_w_then_t_walks_one_relation_at_a_time(tmp_path: Path) -> None:
    vault = make_shape_vault(tmp_path / "vault")
    app = make_app(brain_for(BundleSource(vault)), start="garden/tulip")
    async with app.run_test(size=(150, 45)) as pilot:
        screen = app.screen
        view = screen.query_one(WalkView)
        await settle(pilot, lambda: screen.loader.ready)
        await pilot.press("w")
        await settle(pilot, lambda: view.loaded)
        assert ("1.000", "1", "garden/rose", "garden/tulip →(next 1.000) garden/rose") in (
            table_rows(view)
        )
        await pilot.press("t")  # the graph's first relation: body links
        await settle(pilot, lambda: view.loaded and view.settings.rel == "links")
        assert str(view.border_title).endswith(" · rel links")
        assert ("0.333", "1", "garden/rose", "garden/tulip →(0.333) garden/rose") in (
            table_rows(view)
        )
        assert "garden/water" not in [row[2] for row in table_rows(view)]
