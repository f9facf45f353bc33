"""QA fixes: cancelling the index, failures shown where they happen, honest counts, exports."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.message import Message
from textual.widgets import Static

from okf_explorer.cli import main
from okf_explorer.core.errors import SourceUnavailable
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.state.index_loader import IndexLoader
from okf_explorer.tui.state.slice import summarise
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import PagePane
from okf_explorer.tui.widgets.status_bar import StatusBar

from .conftest import SIZE, GatedSource, brain_for, settle


def info(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#traversal-info", Static).content)


async def test_ctrl_x_cancels_the_index_build_and_r_restarts_it(small_bundle: Path) -> None:
    source = GatedSource(small_bundle)
    app = make_app(brain_for(source), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, until=lambda: source.scan_started.is_set() and screen.loader.running)
        assert screen.check_action("cancel_index", ())  # in the footer while indexing
        await pilot.press("ctrl+x")
        await settle(pilot)
        status = screen.query_one(StatusBar)
        assert status.index_state == "index cancelled · links incomplete · r restarts"
        assert not screen.loader.ready and not screen.check_action("cancel_index", ())
        assert str(screen.query_one(TraversalPanel).border_title) == "alpha · depth 1 · out"
        source.gate.set()
        await pilot.press("r")
        await settle(pilot, until=lambda: screen.query_one(TraversalPanel).loaded)
        assert screen.loader.ready and status.index_state.startswith("indexed")
        assert [edge.to for edge in screen.query_one(TraversalPanel).edges] == ["beta", "ghost"]


async def test_index_built_is_posted_once_per_build_and_never_for_a_cancelled_one(
    small_bundle: Path,
) -> None:
    built: dict[int, IndexLoader.IndexBuilt] = {}  # by identity: a bubbling message is
    # dispatched at every node it passes

    def hook(message: Message) -> None:
        if isinstance(message, IndexLoader.IndexBuilt):
            built[id(message)] = message

    source = GatedSource(small_bundle)
    app = make_app(brain_for(source), start="alpha")
    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        screen = app.screen
        await settle(pilot, until=lambda: source.scan_started.is_set() and screen.loader.running)
        await pilot.press("ctrl+x")
        source.gate.set()
        await settle(pilot)
        assert built == {}
        await pilot.press("r")
        await settle(pilot, until=lambda: screen.loader.ready)
        await settle(pilot)
        assert [(m.first, m.count, m.answered_by) for m in built.values()] == [(True, 4, "index")]
        await pilot.press("r")  # a refresh: the index is built again, not for the first time
        await settle(pilot, until=lambda: len(built) == 2)
        await settle(pilot)
        assert [m.first for m in built.values()] == [True, False]


async def test_status_says_listing_pages_before_there_are_counts(small_bundle: Path) -> None:
    source = GatedSource(small_bundle)
    app = make_app(brain_for(source), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        status = app.screen.query_one(StatusBar)
        status.set_indexing(0, 0)
        assert status.index_state == "listing pages…"
        status.set_indexing(3, 5)
        assert status.index_state == "indexing 3/5"
        source.gate.set()
        await settle(pilot)


async def test_a_failed_walk_empties_the_panel_so_its_title_fits(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(TraversalPanel)
        assert panel.table.row_count == 2

        def down(*_: object, **__: object) -> None:
            raise SourceUnavailable("the brain is unreachable (test)")

        app.brain.traverse = down  # type: ignore[method-assign]
        await pilot.press("plus")
        await settle(pilot)
        assert str(panel.border_title) == "alpha · depth 2 · out"
        assert panel.table.row_count == 0 and panel.edges == [] and not panel.loaded
        assert info(app) == "✗ the brain is unreachable (test) · r retries"


async def test_each_panes_failed_worker_is_said_once_by_the_screen(
    small_bundle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The panes run their own workers; every one that fails is told by the screen's one
    handler: a source error in its words, anything else as a bug. Browsing goes on."""
    from okf_explorer.tui.widgets.graph import graph_panel

    def broken_drawing(*_: object, **__: object) -> None:
        raise RuntimeError("the drawing broke (test)")

    monkeypatch.setattr(graph_panel, "lay_out", broken_drawing)
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def down(*_: object, **__: object) -> None:
            raise SourceUnavailable("the brain is unreachable (test)")

        traverse, app.brain.traverse = app.brain.traverse, down  # type: ignore[method-assign]
        await pilot.press("plus")  # the traversal panel's walk
        await settle(pilot)
        app.brain.traverse = traverse  # type: ignore[method-assign]
        await pilot.press("minus", "g")  # the graph panel's drawing
        await settle(pilot)
        said = [(note.title, note.message) for note in app._notifications]
        assert said.count(("source", "the brain is unreachable (test)")) == 1
        expected = "unexpected error: RuntimeError('the drawing broke (test)')"
        assert said.count(("bug", expected)) == 1
        app.screen.open_page("beta")
        await settle(pilot)
        assert app.screen.history.current.slug == "beta"


async def test_slice_size_counts_dangling_targets_as_missing(small_bundle: Path) -> None:
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert info(app).split("\n")[0] == "2 pages · 1 missing · 2 edges"  # alpha, beta; ghost
    assert str(summarise("a", [], lambda slug: True)) == "1 page · 0 edges"


async def test_export_into_the_bundle_asks_elsewhere_and_escape_saves_nothing(
    small_bundle: Path,
) -> None:
    """The refusal to write into the brain is now a question (issue 11): where else?"""
    from okf_explorer.tui.dialogs.export import ExportPathDialog

    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha", export_dir=small_bundle)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot, lambda: isinstance(app.screen, ExportPathDialog))
        await pilot.press("escape")
        await settle(pilot)
        [note] = list(app._notifications)
        assert note.title == "export" and note.message == "not saved"
    assert not list(small_bundle.glob("okf-*"))


async def test_okf_export_dir_is_where_e_saves(
    small_bundle: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "exports"
    target.mkdir()
    monkeypatch.setenv("OKF_EXPORT_DIR", str(target))
    monkeypatch.chdir(small_bundle)  # the working folder is inside the bundle
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(TraversalPanel)
        await pilot.press("e")
        await settle(pilot, until=lambda: panel.last_export is not None)
    assert [path.name for path in target.iterdir()] == ["okf-alpha-d1-out.json"]


def test_browse_without_a_terminal_exits_1_with_one_line(
    small_bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["browse", str(small_bundle)]) == 1  # pytest's stdin/stdout are not ttys
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "okf-explorer: the explorer needs a terminal (use get, list or links in scripts)\n"
    )


async def test_visiting_a_page_that_fails_shows_why_and_stops_the_spinner(
    small_bundle: Path,
) -> None:
    (small_bundle / "bad.md").write_bytes(b"# Bad\n\xff\xfe [[alpha]]\n")
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        pane = screen.query_one(PagePane)
        assert pane.links and screen.check_action("page_links", ())
        screen.open_page("bad")
        await settle(pilot)
        await pilot.pause(0.4)  # past the spinner's delay: it must not come up afterwards
        assert not pane.loading
        assert pane.error is not None and "not valid UTF-8" in pane.error
        assert "not valid UTF-8" in str(screen.query_one("#page-error", Static).content)
        # The failed page has no body: `l` and `m` do not offer the previous page's links.
        assert pane.links == [] and not screen.check_action("page_links", ())
        assert not screen.check_action("more_of_page", ())
        screen.open_page("nowhere")
        await settle(pilot)
        await pilot.pause(0.4)
        assert not pane.loading and pane.error is not None and "nowhere" in pane.error


async def test_e_on_a_failed_slice_says_so_and_does_not_export_later(
    small_bundle: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    app = make_app(brain_for(BundleSource(small_bundle)), start="alpha", export_dir=out)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        traverse = app.brain.traverse

        def down(*_: object, **__: object) -> None:
            raise SourceUnavailable("the brain is unreachable (test)")

        app.brain.traverse = down  # type: ignore[method-assign]
        await pilot.press("plus")
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert app.screen.query_one(TraversalPanel).export_wanted is None
        assert any("could not be walked" in str(n.message) for n in app._notifications)
        app.brain.traverse = traverse  # type: ignore[method-assign]
        await pilot.press("r")
        await settle(pilot)
        assert list(out.iterdir()) == []  # nothing saved that was not asked for again


async def test_after_cancelling_the_first_build_the_panes_say_there_is_no_index(
    small_bundle: Path,
) -> None:
    source = GatedSource(small_bundle)
    app = make_app(brain_for(source), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, until=lambda: source.scan_started.is_set() and screen.loader.running)
        await pilot.press("ctrl+x")
        await settle(pilot)
        assert info(app) == "no index · r builds it"
        source.gate.set()
        await settle(pilot)
