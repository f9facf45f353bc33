"""Sources that are down at start, or go away later, and a start before the index is built."""

from __future__ import annotations

from pathlib import Path

from okf_explorer.core.brain import Brain
from okf_explorer.tui.app import make_app
from okf_explorer.tui.screens.main import MainScreen
from okf_explorer.tui.screens.source_error import SourceErrorScreen
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.page.pane import PagePane
from okf_explorer.tui.widgets.status_bar import StatusBar

from .conftest import SIZE, FlakySource, GatedSource, brain_for, settle, write_bundle


async def test_source_down_at_start_shows_error_screen_and_retry_works(small_bundle: Path) -> None:
    source = FlakySource(small_bundle, down=True)
    app = make_app(brain_for(source))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, until=lambda: isinstance(app.screen, SourceErrorScreen))
        screen = app.screen
        assert isinstance(screen, SourceErrorScreen)
        assert "unreachable" in screen.reason
        assert screen.source_label == "flaky test brain"
        await pilot.press("r")  # still down: the error screen comes back
        await settle(pilot, until=lambda: isinstance(app.screen, SourceErrorScreen))
        assert isinstance(app.screen, SourceErrorScreen)
        source.down = False
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.query_one(PagePane).page.slug == "index"
        assert app.screen.query_one(TraversalPanel).edges


async def test_source_dying_later_says_why_in_the_page_pane_and_r_retries(
    small_bundle: Path,
) -> None:
    source = FlakySource(small_bundle)
    app = make_app(brain_for(source), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        source.down = True
        screen.open_page("beta")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert any("unreachable" in n.message for n in app._notifications)
        pane = screen.query_one(PagePane)
        assert pane.page is None and pane.has_class("failed")
        assert pane.error == "Could not load beta: the brain is unreachable (test) · r retries"
        # the failed page is the current entry; back returns to what was loaded
        assert screen.history.current.slug == "beta" and screen.sub_title == "beta"
        assert screen.query_one(LinkTree).slug == "beta"  # the index still knows its links
        source.down = False
        await pilot.press("r")
        await settle(pilot)
        assert pane.page.slug == "beta" and pane.error is None and not pane.has_class("failed")
        await pilot.press("backspace")
        await settle(pilot)
        assert pane.page.slug == "alpha" and screen.history.current.slug == "alpha"


async def test_a_start_name_that_matches_nothing_opens_index_and_says_so(
    small_bundle: Path,
) -> None:
    app = make_app(brain_for(FlakySource(small_bundle)), start="alpah")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, until=lambda: bool(app._notifications))
        screen = app.screen
        assert screen.query_one(PagePane).page.slug == "index"
        messages = [n.message for n in app._notifications]
        assert messages == ["no page 'alpah' (did you mean alpha?)"]


async def test_start_slug_opens_before_the_index_and_a_title_resolves_after(
    small_bundle: Path,
) -> None:
    source = GatedSource(small_bundle)
    app = make_app(brain_for(source), start="beta")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        pane = screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None and source.scan_started.is_set())
        assert pane.shown.slug == "beta" and not screen.loader.ready
        source.gate.set()
        await settle(pilot, until=lambda: screen.loader.ready)
    source = GatedSource(small_bundle)
    app = make_app(brain_for(source), start="Alpha page")  # a title: needs the index
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        pane = screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.shown is not None and source.scan_started.is_set())
        assert pane.shown.slug == "index" and not screen.loader.ready
        source.gate.set()
        await settle(pilot, until=lambda: pane.shown is not None and pane.shown.slug == "alpha")
        assert screen.history.current.slug == "alpha" and not app._notifications


def generated_bundle(root: Path, count: int) -> Path:
    pages = {"index.md": "# Index\n\n" + " ".join(f"[[p{n:05d}]]" for n in range(20)) + "\n"}
    for number in range(count):
        links = " ".join(f"[[p{(number * 7 + step) % count:05d}]]" for step in (1, 2, 3))
        pages[f"p{number:05d}.md"] = f"---\ntitle: Page {number}\n---\nLinks {links}.\n"
    return write_bundle(root, pages)


async def test_first_page_and_keys_work_before_the_index_finishes(tmp_path: Path) -> None:
    """3k pages, empty cache, and a scan that cannot finish until the test allows it."""
    source = GatedSource(generated_bundle(tmp_path / "big", 3000))
    app = make_app(Brain(source))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        pane = screen.query_one(PagePane)
        await settle(pilot, until=lambda: pane.page is not None and source.scan_started.is_set())
        assert pane.page.slug == "index"
        assert not screen.loader.ready
        await pilot.press("plus")
        assert str(screen.query_one(TraversalPanel).border_title) == "index · depth 2 · out"
        status = screen.query_one(StatusBar)
        assert status.has_class("indexing") and "0/0" not in status.index_state
        source.gate.set()
        await settle(pilot, until=lambda: screen.query_one(TraversalPanel).loaded)
        assert screen.loader.ready
        edges = screen.query_one(TraversalPanel).edges
        assert edges == app.brain.traverse("index", 2, "out")


async def test_an_empty_brain_says_so_and_still_indexes(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    app = make_app(brain_for(FlakySource(empty)), start="anything")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, until=lambda: screen.loader.ready)
        await settle(pilot)
        pane = screen.query_one(PagePane)
        assert pane.error == "this brain has no pages" and screen.history.current is None
        assert screen.query_one(StatusBar).index_state == "indexed · answered by index"
        assert [n.message for n in app._notifications] == ["no page 'anything'"]
