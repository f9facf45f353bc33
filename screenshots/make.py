"""Drive the explorer on the bundled sample brain and write SVG screenshots here.

    python screenshots/make.py          # rewrites screenshots/*.svg

The pictures come from the real app through Pilot, so they never go stale.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.command import CommandList
from textual.pilot import Pilot
from textual.widgets import Input

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import SourceUnavailable
from okf_explorer.sources.bundle import BundleSource
from okf_explorer.tui.app import make_app

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "okf_explorer" / "sample_brain"
SIZE = (120, 40)
Steps = Callable[[Pilot[None]], Awaitable[None]]


class DownSource(BundleSource):
    """The sample brain with its source gone, for the error screen."""

    def enumerate(self):  # type: ignore[no-untyped-def]
        raise SourceUnavailable("the brain at http://127.0.0.1:8792/mcp is unreachable")

    def get_page(self, slug: str):  # type: ignore[no-untyped-def]
        self.enumerate()  # the start page is read before the listing: it fails the same way

    @property
    def label(self) -> str:
        return "http://127.0.0.1:8792/mcp"


async def settle(pilot: Pilot[None], until: Callable[[], bool] | None = None) -> None:
    for _ in range(500):
        await pilot.pause(0.01)
        idle = not any(worker.is_running for worker in pilot.app.workers)
        if (until is None and idle) or (until is not None and until()):
            await pilot.pause()
            return
    raise RuntimeError("the app did not settle")


async def start(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def orders_depth_2_both(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("plus", "d", "d")
    await settle(pilot)
    pilot.app.screen.query_one("#traversal-table").focus()
    await pilot.press("down", "down", "down")
    await settle(pilot)


async def backlinks(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("b")
    pilot.app.screen.query_one("#link-tree").focus()
    await pilot.press("down")
    await pilot.press("space")
    await settle(pilot)


async def help_dialog(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("question_mark")
    await settle(pilot)


async def palette(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("slash")
    await pilot.press(*"orders")
    await settle(pilot, until=lambda: pilot.app.screen.query_one(CommandList).option_count >= 5)
    pilot.app.screen.query_one(Input).cursor_blink = False
    await settle(pilot)


async def source_error(pilot: Pilot[None]) -> None:
    await settle(pilot, until=lambda: type(pilot.app.screen).__name__ == "SourceErrorScreen")


SHOTS: list[tuple[str, str | None, Steps, bool]] = [
    ("start", None, start, False),
    ("orders-depth-2-both", "tables/orders", orders_depth_2_both, False),
    ("backlinks", "tables/orders", backlinks, False),
    ("help", None, help_dialog, False),
    ("find-page", None, palette, False),
    ("source-error", None, source_error, True),
]


async def shoot(name: str, start_slug: str | None, steps: Steps, down: bool) -> Path:
    source = DownSource(SAMPLE) if down else BundleSource(SAMPLE)
    app = make_app(
        Brain(source, cache_dir=False),
        start=start_slug,
        source_label=(None if down else "sample brain"),
    )
    async with app.run_test(size=SIZE) as pilot:
        await steps(pilot)
        written = app.save_screenshot(f"{name}.svg", str(HERE))
    return Path(written)


async def main() -> int:
    for name, start_slug, steps, down in SHOTS:
        path = await shoot(name, start_slug, steps, down)
        print(path.relative_to(HERE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
