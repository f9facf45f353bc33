"""Named SVG snapshots of the main states (sample brain, fixed source label), from the
table the README screenshots are made from (`screenshots/states.py`).

Regenerate after an intended change with
`pytest tests/tui/test_snapshots.py --snapshot-update`, and look at the SVGs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from screenshots.states import STATES, State, play, state_app

from .conftest import settle


async def _settle(pilot: Pilot[None], until: Callable[[], bool] | None) -> None:
    await settle(pilot, until)


@pytest.mark.parametrize("state", STATES, ids=[state.name for state in STATES])
def test_state(snap_compare, sample_brain: Path, state: State) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        await play(pilot, state, _settle)

    assert snap_compare(
        state_app(state, sample_brain), terminal_size=state.size, run_before=run_before
    )
