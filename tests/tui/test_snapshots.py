"""Named SVG snapshots of the main states (120×40, sample brain, fixed source label).

Regenerate after an intended change with
`pytest tests/tui/test_snapshots.py --snapshot-update`, and look at the SVGs.
"""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList
from textual.pilot import Pilot
from textual.widgets import Input

from okf_explorer.sources.bundle import BundleSource
from okf_explorer.tui.app import ExplorerApp, make_app
from okf_explorer.tui.screens.source_error import SourceErrorScreen

from .conftest import SIZE, FlakySource, brain_for, settle


def sample_app(sample_brain: Path, start: str | None = None) -> ExplorerApp:
    brain = brain_for(BundleSource(sample_brain))
    return make_app(brain, start=start, source_label="sample brain")


async def settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


def test_start_screen(snap_compare, sample_brain: Path) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(sample_app(sample_brain), terminal_size=SIZE, run_before=settled)


def test_depth_2_both_on_orders(snap_compare, sample_brain: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("plus", "d", "d")
        await settle(pilot)
        pilot.app.screen.query_one("#traversal-table").focus()
        await pilot.press("down", "down", "down")
        await settle(pilot)

    app = sample_app(sample_brain, start="tables/orders")
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_backlinks_view(snap_compare, sample_brain: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        pilot.app.screen.query_one("#link-tree").focus()
        await settle(pilot)

    app = sample_app(sample_brain, start="tables/orders")
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_help(snap_compare, sample_brain: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(sample_app(sample_brain), terminal_size=SIZE, run_before=run_before)


def test_palette_open(snap_compare, sample_brain: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("slash")
        await settle(pilot)
        await pilot.press(*"orders")
        app = pilot.app
        await settle(pilot, until=lambda: app.screen.query_one(CommandList).option_count >= 5)
        app.screen.query_one(Input).cursor_blink = False
        await settle(pilot)

    assert snap_compare(sample_app(sample_brain), terminal_size=SIZE, run_before=run_before)


def test_error_screen(snap_compare, sample_brain: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, until=lambda: isinstance(pilot.app.screen, SourceErrorScreen))

    app = make_app(brain_for(FlakySource(sample_brain, down=True)))
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_stats_dialog(snap_compare, sample_brain: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("s")
        app = pilot.app
        await settle(pilot, until=lambda: getattr(app.screen, "stats", None) is not None)

    assert snap_compare(sample_app(sample_brain), terminal_size=SIZE, run_before=run_before)
