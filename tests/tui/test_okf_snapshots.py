"""Named SVG snapshots of OKF v0.2 pages of our own bundle (`okf_bundle`), which use every
field the explorer reads: status, human and machine `verified`, `generated`, a past
`stale_after`, `sources` (concept, URL, scope) with per-entry signals and `usage_window`,
`[^id]` footnotes, and an attested computation whose recorded verdict fails.

Regenerate after an intended change with
`pytest tests/tui/test_okf_snapshots.py --snapshot-update`, and look at the SVGs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from tests.okf_bundle import write_okf_bundle

from .conftest import SIZE, brain_for, settle


@pytest.mark.parametrize(
    "start", ["metrics/churn", "computations/churn-rate"], ids=["metric", "computation"]
)
def test_okf_page(snap_compare, tmp_path: Path, start: str) -> None:  # type: ignore[no-untyped-def]
    root = write_okf_bundle(tmp_path / "okf")
    app = make_app(brain_for(BundleSource(root)), start=start, source_label="okf test bundle")

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await settle(pilot, lambda: pilot.app.screen.query_one("#traversal-table").row_count > 0)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
