"""Live reload: a page saved by another program shows up without `r` (scroll and the
panes' cursors kept); `E` opens the page in `$EDITOR`; the watcher stops on exit."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from pathlib import Path

import pytest

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.state.live_reload import FolderWatcher, wanted_change
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.page.pane import PagePane
from okf_explorer.tui.widgets.status_bar import StatusBar

from .conftest import FlakySource, GatedSource, brain_for, settle, write_bundle

LONG = "---\ntitle: Long\n---\n" + "".join(f"Line {n} of the page.\n\n" for n in range(80))
FILES = {"index.md": "# Home\n\n[[long]]\n", "long.md": LONG, "other.md": "# Other\n"}


def notes(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [notification.message for notification in app._notifications]


async def watching(pilot, app) -> FolderWatcher:  # type: ignore[no-untyped-def]
    watcher = app.screen.query_one(FolderWatcher)
    await settle(pilot, lambda: watcher.root is not None)
    await asyncio.sleep(0.3)  # the watch is set up in its thread
    return watcher


@pytest.mark.parametrize("size", [(80, 24), (150, 45)])
async def test_a_saved_page_reloads_where_it_was_scrolled(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    bundle = write_bundle(tmp_path / "b", FILES)
    app = make_app(brain_for(BundleSource(bundle)), start="long", watch_files=True)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await watching(pilot, app)
        pane = app.screen.query_one(PagePane)
        pane.scroll_to(y=12, animate=False)
        await settle(pilot)
        (bundle / "long.md").write_text(LONG + "\nNow also [[other]].\n")
        await settle(pilot, lambda: pane.page is not None and "[[other]]" in pane.page.content)
        await settle(pilot, lambda: app.screen.query_one(LinkTree).slug == "long")
        await settle(pilot)
        assert pane.scroll_y == 12
        edges = app.screen.query_one("#traversal").edges
        assert ("long", "other") in [(edge.frm, edge.to) for edge in edges]


async def test_a_new_file_counts_and_an_unchanged_pane_keeps_its_cursor(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path / "b", FILES)
    app = make_app(brain_for(BundleSource(bundle)), start="index", watch_files=True)
    async with app.run_test(size=(150, 45)) as pilot:
        await settle(pilot)
        await watching(pilot, app)
        tree = app.screen.query_one(LinkTree)
        tree.focus()
        await pilot.press("down")
        await settle(pilot)
        line = tree.cursor_line
        (bundle / "new.md").write_text("# New\n")
        status = app.screen.query_one(StatusBar)
        label = status.query_one("#status-pages")
        await settle(pilot, lambda: "4 pages" in str(label.content))
        await settle(pilot)
        assert tree.cursor_line == line  # the links of `index` did not change


async def test_other_sources_are_not_watched_and_the_watch_stops_on_exit(
    tmp_path: Path,
) -> None:
    bundle = write_bundle(tmp_path / "b", FILES)
    wrapped = make_app(brain_for(FlakySource(bundle)), watch_files=True)
    async with wrapped.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert wrapped.screen.query_one(FolderWatcher).root is None  # not a folder source
    app = make_app(brain_for(BundleSource(bundle)), watch_files=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        watcher = await watching(pilot, app)
        worker = next(worker for worker in app.workers if worker.group == "watch")
        assert worker.is_running
    assert watcher.stop_event.is_set()
    deadline = time.monotonic() + 5
    while worker.is_running and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert not worker.is_running


def test_only_pages_and_folders_outside_hidden_folders_matter(tmp_path: Path) -> None:
    assert wanted_change(tmp_path, str(tmp_path / "a" / "b.md"))
    assert wanted_change(tmp_path, str(tmp_path / "B.MD"))
    assert wanted_change(tmp_path, str(tmp_path / "folder"))
    assert not wanted_change(tmp_path, str(tmp_path / ".obsidian" / "x.md"))
    assert not wanted_change(tmp_path, str(tmp_path / "export.json"))
    assert not wanted_change(tmp_path, "/elsewhere/x.md")


async def test_e_without_editor_or_folder_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    bundle = write_bundle(tmp_path / "b", FILES)
    app = make_app(brain_for(BundleSource(bundle)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("E")
        assert notes(app)[-1] == "set $EDITOR (or $VISUAL) to edit pages with E"
    app = make_app(brain_for(FlakySource(bundle)), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("E")
        assert notes(app)[-1] == "E edits pages of a folder; this source is not one"


async def test_e_opens_the_page_in_the_editor_and_reindexes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys\n"
        "with open(sys.argv[1], 'a') as page:\n"
        "    page.write('\\nEdited: see [[other]].\\n')\n"
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    bundle = write_bundle(tmp_path / "b", FILES)
    app = make_app(brain_for(BundleSource(bundle)), start="index", watch_files=False)
    monkeypatch.setattr(app, "suspend", contextlib.nullcontext)  # no terminal to hand over
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("E")
        pane = app.screen.query_one(PagePane)
        await settle(pilot, lambda: pane.page is not None and "Edited" in pane.page.content)
        await settle(pilot)
        assert "other" in app.screen.brain.forward_links("index")[-1].to


class CountedGate(GatedSource):
    """A gated bundle that records the slugs of each scan."""

    def scan(self, stubs, progress=None, cancel=None):  # type: ignore[no-untyped-def]
        self.scans.append([stub.slug for stub in stubs])
        return super().scan(stubs, progress, cancel)


async def test_changes_during_a_build_refresh_once_after_it(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path / "b", FILES)
    source = CountedGate(bundle)
    app = make_app(brain_for(source), watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        loader = app.screen.loader
        await settle(pilot, lambda: source.scan_started.is_set() and loader.running)
        (bundle / "new.md").write_text("# New\n")
        loader.refresh_soon()  # two batches of changes while the first build runs
        loader.refresh_soon()
        assert len(source.scans) == 1  # the running build was not restarted
        source.gate.set()
        await settle(pilot, lambda: len(source.scans) == 2 and not loader.running)
        await settle(pilot)
        assert source.scans[1] == ["new"]  # then one refresh, of the new file only
        assert len(source.scans) == 2
        assert "new" in [slug for slug, _ in loader.pages]
