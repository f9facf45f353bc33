"""The page finder (`/`, `ctrl+p`) and the slice export (`e`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import Input

from okf_explorer.core.graph.traverse import edge_records
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.export import ExportPathDialog, inside, suggested_folder
from okf_explorer.tui.widgets.page.pane import PagePane

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


@pytest.mark.parametrize("size", [(80, 24), (150, 45)], ids=["80x24", "150x45"])
async def test_export_from_inside_the_bundle_asks_where_and_saves_there(
    small_bundle: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """The working folder is the brain: `e` asks for a folder, prefilled with its parent
    (outside the brain); a folder inside is refused again, escape saves nothing."""
    monkeypatch.chdir(small_bundle)
    app = make_app(brain_for(BundleSource(small_bundle)), export_dir=small_bundle)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot, lambda: isinstance(app.screen, ExportPathDialog))
        field = app.screen.query_one(Input)
        assert field.value == str(small_bundle.parent)  # the working folder's parent
        await pilot.press("escape")
        await settle(pilot)
        assert any(n.message == "not saved" for n in app._notifications)
        await pilot.press("e")
        await settle(pilot, lambda: isinstance(app.screen, ExportPathDialog))
        app.screen.query_one(Input).value = str(small_bundle / "notes")  # inside: asked again
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, ExportPathDialog))
        out = tmp_path / "exports"
        out.mkdir()
        app.screen.query_one(Input).value = str(out)
        await pilot.press("enter")
        await settle(pilot, lambda: bool(list(out.glob("okf-*.json"))))
        (saved,) = out.glob("okf-*.json")
        assert json.loads(saved.read_text())[0]["from"] == "index"
        assert not list(small_bundle.rglob("okf-*"))
        await pilot.press("e")  # the folder chosen is kept: no second question
        await settle(pilot)
        assert not isinstance(app.screen, ExportPathDialog)


def test_the_folder_offered_is_outside_the_brain(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    brain = tmp_path / "brain"
    (brain / "notes").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert suggested_folder(brain, brain) == tmp_path
    assert suggested_folder(brain, brain / "notes") == tmp_path / "home"  # the parent is inside
    monkeypatch.setenv("HOME", str(brain))
    assert suggested_folder(brain, brain / "notes") == tmp_path  # ~ too: the brain's parent
    assert inside(brain / "notes", brain) and not inside(tmp_path, brain)
