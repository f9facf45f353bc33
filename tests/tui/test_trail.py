"""`T` (the trail) and `S` (save as a page), pressed for real on a small bundle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static, TextArea

from okf_explorer.core.graph.trail import TrailStep
from okf_explorer.core.graph.traverse import LINKS
from okf_explorer.core.port import SaveOutcome
from okf_explorer.core.save import saved_key
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.dialogs.save import SaveDialog
from okf_explorer.tui.dialogs.trail import TrailDialog, move_words
from okf_explorer.tui.screens.main import MainScreen

from .conftest import SIZE, brain_for, settle


def notes(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [notification.message for notification in app._notifications]


async def test_trail_lists_visits_exports_and_saves_as_a_page(
    small_bundle: Path, tmp_path: Path
) -> None:
    exports = tmp_path / "exports"
    exports.mkdir()
    app = make_app(brain_for(BundleSource(small_bundle)), start="index", export_dir=exports)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        screen.choose("alpha", True)  # a link of index
        await settle(pilot)
        screen.open_page("notes/gamma")  # the finder
        await settle(pilot)
        await pilot.press("backspace")
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, TrailDialog)
        lines = [str(o.prompt) for o in dialog.query_one(OptionList).options]
        assert lines == [
            "  1  index · start",
            "  2  → alpha · by a link",
            "  3  → notes/gamma · finder",
            "  4  ← alpha · back",
        ]
        await pilot.press("x")
        await settle(pilot)
        exported = json.loads((exports / "okf-trail-index-4.json").read_text())
        assert exported["generated"]["by"].startswith("okf-explorer/")
        assert exported["generated"]["at"][-6] in "+-"  # an ISO 8601 offset
        assert [(r["from"], r["to"], r["rel"], r["hop"]) for r in exported["edges"]] == [
            ("index", "alpha", "links", 1),
            ("alpha", "notes/gamma", "finder", 2),
            ("notes/gamma", "alpha", "back", 3),
        ]
        await pilot.press("T")
        await settle(pilot)
        await pilot.press("S")
        await settle(pilot)
        preview = app.screen
        assert isinstance(preview, SaveDialog)
        text = preview.query_one(TextArea).text
        assert text.startswith("---\ntype: Trail\n")
        assert preview.query_one(Input).value.startswith("trails/index-")
        preview.query_one(Input).value = "trails/mine"
        await pilot.press("enter")
        await settle(pilot, lambda: (small_bundle / "trails/mine.md").exists())
        await settle(pilot)
        saved = (small_bundle / "trails/mine.md").read_text()
        assert saved == text and saved_key(saved) is not None
        assert "written: trails/mine" in notes(app)[-1]
        await settle(pilot, lambda: "trails/mine" in dict(screen.loader.pages))
        assert screen.saver.last_save is not None


async def test_s_saves_the_slice_and_a_failure_leaves_browsing_alone(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="index")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("S")
        await settle(pilot)
        preview = app.screen
        assert isinstance(preview, SaveDialog)
        assert preview.query_one(Input).value == "slices/index-d1-out"
        assert "- [Alpha page](/alpha.md)\n" in preview.query_one(TextArea).text
        preview.query_one(Input).value = "../out"
        await pilot.press("enter")
        assert isinstance(app.screen, SaveDialog)  # a bad name is said, not saved
        preview.query_one(Input).value = "alpha"  # another page already there
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert notes(app)[-1].startswith("refused: alpha · page exists; choose another --as")
        assert "Alpha links" in (small_bundle / "alpha.md").read_text()
        await pilot.press("S")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, lambda: (small_bundle / "slices/index-d1-out.md").exists())
        await settle(pilot)
        await pilot.press("S", "enter")
        await settle(pilot)
        assert notes(app)[-1].startswith("unchanged: slices/index-d1-out")
        screen = app.screen
        assert isinstance(screen, MainScreen)
        screen.choose("beta", True)
        await settle(pilot)
        assert screen.nav.current is not None and screen.nav.current.slug == "beta"


@pytest.mark.slow
async def test_the_save_preview_over_a_server_sends_no_request(
    small_bundle: Path, counting_proxy
) -> None:
    """Issue 13: the preview (the TUI's dry run) makes no request to the server at all;
    counted by a proxy between the explorer and our own `serve` on loopback."""
    from okf_explorer.sources.factory import open_source
    from tests.mcp_server_fixture import serve_bundle

    with serve_bundle(small_bundle) as server:
        proxy = counting_proxy(server.url)
        app = make_app(brain_for(open_source(proxy.url)), start="index")
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            await settle(pilot, lambda: screen.loader.ready)
            await settle(pilot)
            before = len(proxy.requests)
            assert before > 0  # the explorer did read through the proxy
            await pilot.press("S")
            await settle(pilot, lambda: isinstance(app.screen, SaveDialog))
            preview = app.screen
            assert "- [Alpha page](/alpha.md)" in preview.query_one(TextArea).text
            await pilot.pause(0.3)
            assert len(proxy.requests) == before
            assert proxy.count("put_page") == 0
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, MainScreen)
            assert len(proxy.requests) == before


@pytest.mark.slow
async def test_s_over_a_server_says_refused_for_a_page_it_did_not_write(
    small_bundle: Path, counting_proxy
) -> None:
    """Issue 22: the TUI's save through the gbrain writer (our own `serve` on loopback):
    a name gbrain cannot take is said in the dialog, an existing page is `refused` in
    the notification, and neither sends a write."""
    from okf_explorer.sources.factory import open_source
    from tests.mcp_server_fixture import serve_bundle

    with serve_bundle(small_bundle) as server:
        proxy = counting_proxy(server.url)
        app = make_app(brain_for(open_source(proxy.url)), start="index")
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await settle(pilot, lambda: screen.loader.ready)
            await settle(pilot)
            await pilot.press("S")
            await settle(pilot, lambda: isinstance(app.screen, SaveDialog))
            preview = app.screen
            preview.query_one(Input).value = "Slices/Upper"
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, SaveDialog)
            said = str(preview.query_one("#save-error", Static).content)
            assert "gbrain lowercases page names: save as 'slices/upper'" in said
            preview.query_one(Input).value = "alpha"
            await pilot.press("enter")
            await settle(pilot, lambda: screen.saver.last_save is not None)
            await settle(pilot)
            assert screen.saver.last_save is not None
            assert screen.saver.last_save.outcome is SaveOutcome.REFUSED
            assert notes(app)[-1] == (
                f"refused: alpha · page exists; choose another --as ({proxy.url}#alpha)"
            )
            assert isinstance(app.screen, MainScreen)
            assert proxy.count("put_page") == 0
    assert "Alpha links" in (small_bundle / "alpha.md").read_text()


def test_a_step_says_how_it_was_made_in_words() -> None:
    """Not `links (link)` (the relation, then the move): how a reader says it."""
    words = [
        move_words(TrailStep("a", "b", LINKS, "out", "link")),
        move_words(TrailStep("a", "b", LINKS, "in", "link")),
        move_words(TrailStep("a", "b", "derived_from", "out", "link")),
        move_words(TrailStep("a", "b", "derived_from", "in", "link")),
        move_words(TrailStep("a", "b", "finder", "out", "finder")),
    ]
    assert words == [
        "by a link",
        "by a backlink",
        "by derived_from",
        "by a backlink (derived_from)",
        "finder",
    ]
