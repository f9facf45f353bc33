"""While the first index builds, the panes say they wait for it, never `no index · r
builds it` (which is for a build cancelled or failed)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.graph import link_tree
from okf_explorer.tui.widgets.graph.link_tree import LinkTree
from okf_explorer.tui.widgets.graph.traversal_panel import TraversalPanel
from okf_explorer.tui.widgets.status_bar import StatusBar

from .conftest import SIZE, GatedSource, brain_for, settle


def tree_text(app) -> str:  # type: ignore[no-untyped-def]
    return " ".join(str(node.label) for node in app.screen.query_one(LinkTree).root.children)


async def test_links_pane_waits_while_the_index_builds(small_bundle: Path) -> None:
    source = GatedSource(small_bundle)
    app = make_app(brain_for(source), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, until=lambda: source.scan_started.is_set() and screen.loader.running)
        await settle(pilot, until=lambda: screen.query_one(LinkTree).slug == "alpha")
        assert tree_text(app) == "waiting for the index…"
        assert "no index" not in str(screen.query_one(TraversalPanel).border_subtitle or "")
        await pilot.press("ctrl+x")
        await settle(pilot)
        assert tree_text(app) == "no index · r builds it"  # now it is true
        await pilot.press("r")
        await settle(pilot, until=lambda: screen.loader.running)
        await settle(pilot, until=lambda: tree_text(app) == "waiting for the index…")
        source.gate.set()
        await settle(pilot, until=lambda: screen.loader.ready)
        await settle(pilot)
        assert tree_text(app).startswith("Outgoing (2)")


async def test_once_indexed_no_pane_still_waits_for_the_index(
    small_bundle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The status line says `indexed` from the moment the index is built; the links pane,
    whose links take a while to read (held here by a gate), must not say it still waits."""
    gate = threading.Event()
    real = link_tree.outgoing_links

    def held(brain, slug, *args, **kwargs):  # type: ignore[no-untyped-def]
        gate.wait(10)
        return real(brain, slug, *args, **kwargs)

    monkeypatch.setattr(link_tree, "outgoing_links", held)
    source = GatedSource(small_bundle)
    app = make_app(brain_for(source), start="alpha")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, until=lambda: tree_text(app) == "waiting for the index…")
        source.gate.set()
        status = screen.query_one(StatusBar)
        await settle(pilot, until=lambda: status.index_state.startswith("indexed"))
        assert "waiting for the index" not in tree_text(app)
        assert tree_text(app) == "reading links…"
        gate.set()
        await settle(pilot)
        assert tree_text(app).startswith("Outgoing (2)")
