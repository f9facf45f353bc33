"""The page finder (`/`, `ctrl+p`) and the slice export (`e`)."""

from __future__ import annotations

import json
from pathlib import Path

from textual.command import CommandList, CommandPalette

from okf_explorer.core.export import edge_records
from okf_explorer.sources.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.page_pane import PagePane

from .conftest import SIZE, brain_for, settle


def palette_hits(app) -> int:  # type: ignore[no-untyped-def]
    lists = app.screen.query(CommandList)
    return lists.first().option_count if lists else 0


async def test_slash_finds_a_page_by_part_of_its_title(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.pause()
        assert CommandPalette.is_open(app)
        await pilot.press(*"pag")  # part of the title "Alpha page"
        await settle(pilot, until=lambda: palette_hits(app) > 0)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.query_one(PagePane).page.slug == "alpha"


async def test_ctrl_p_finds_a_page_by_slug(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert CommandPalette.is_open(app)
        await pilot.press(*"gam")
        await settle(pilot, until=lambda: palette_hits(app) > 0)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.query_one(PagePane).page.slug == "notes/gamma"


async def test_e_exports_the_slice_as_edge_json_byte_for_byte_stable(
    small_bundle: Path, tmp_path: Path
) -> None:
    out = tmp_path / "exports"
    out.mkdir()
    brain = brain_for(BundleSource(small_bundle))
    app = make_app(brain, start="alpha", export_dir=out)
    async with app.run_test(size=SIZE) as pilot:
        assert not app.screen.check_action("export", ())  # no slice on screen yet
        await settle(pilot)
        assert app.screen.check_action("export", ())
        await pilot.press("plus", "d", "d")  # depth 2, both
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        files = list(out.iterdir())
        assert [path.name for path in files] == ["okf-alpha-d2-both.json"]
        first = files[0].read_bytes()
        assert json.loads(first) == edge_records(brain.traverse("alpha", 2, "both"))
        assert any(str(files[0]) in n.message for n in app._notifications)
        await pilot.press("e")
        await settle(pilot)
        assert files[0].read_bytes() == first
        assert len(list(out.iterdir())) == 1


async def test_export_into_the_bundle_is_refused_with_a_notification(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), export_dir=small_bundle)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert any("refusing" in n.message for n in app._notifications)
        assert not list(small_bundle.glob("okf-*"))
