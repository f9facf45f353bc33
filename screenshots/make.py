"""Drive the explorer on the bundled sample brain and write SVG screenshots here.

    python screenshots/make.py          # rewrites screenshots/*.svg

The pictures come from the real app through Pilot, so they never go stale; the
states are the snapshot tests' own (`screenshots/states.py`).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from screenshots.states import SCREENSHOTS, State, play, state_app

HERE = Path(__file__).resolve().parent


async def settle(pilot: Pilot[None], until: Callable[[], bool] | None = None) -> None:
    for _ in range(500):
        await pilot.pause(0.01)
        idle = not any(worker.is_running for worker in pilot.app.workers)
        if (until is None and idle) or (until is not None and until()):
            await pilot.pause()
            return
    raise RuntimeError("the app did not settle")


async def shoot(state: State) -> Path:
    app = state_app(state)
    async with app.run_test(size=state.size) as pilot:
        await play(pilot, state, settle)
        written = app.save_screenshot(f"{state.name}.svg", str(HERE))
    return Path(written)


async def main() -> int:
    for state in SCREENSHOTS:
        path = await shoot(state)
        print(path.relative_to(HERE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
