"""Benchmark: what a long session leaves behind, pages shown one after another and the
finder opened and closed again and again.

Run: `.venv/bin/python tests/bench/bench_session.py [FOLDER] [--pages 600] [--finders 200]
[--every 100]` (default the sample brain). Not collected by pytest. Headless (Pilot) at
150x45, the index built first.

Every `--every` steps it prints the objects the cyclic collector tracks (after a full
collection), the time that full collection took, and the process's resident memory.
Pages are the index's first `--pages` slugs in order, each shown until the page pane
holds it; then the finder (`/`) is opened and closed (`escape`) `--finders` times.

What it watches: Textual keeps the styles caches of up to 1,024 removed widgets alive
(textual#6665), each with the lines it drew, unless the explorer empties them first
(`tui/drawn_lines.py`). Without that, 600 pages of obsidian-hub left 621k objects and
219 MB, 200 finders on the sample brain 595k objects and 146 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time
from pathlib import Path

import okf_explorer.tui  # noqa: F401 - first: it sets the explorer's frame rate (tui.settings)

# isort: split
import textual._wait

from okf_explorer.core.brain import Brain
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.app import make_app
from okf_explorer.tui.widgets.page.pane import PagePane

REPO = Path(__file__).resolve().parent.parent.parent
SAMPLE = REPO / "okf_explorer" / "sample_brain"
textual._wait.SLEEP_GRANULARITY = 0.005


def resident_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * 4096 / 1e6


def report(step: str) -> None:
    started = time.perf_counter()
    gc.collect()
    took = time.perf_counter() - started
    print(
        f"  {step:>18}: {len(gc.get_objects()):>8,} objects tracked, full collection "
        f"{took * 1000:6.1f} ms, {resident_mb():6.0f} MB resident",
        flush=True,
    )


async def settled(app) -> None:  # type: ignore[no-untyped-def]
    """Until no worker runs (the folder watcher aside) and a refresh has come after."""
    while any(worker.is_running and worker.group != "watch" for worker in app.workers):
        await asyncio.sleep(0.002)
    refreshed = asyncio.Event()
    app.screen.call_after_refresh(refreshed.set)
    await asyncio.wait_for(refreshed.wait(), 10)


async def session(folder: Path, pages: int, finders: int, every: int) -> None:
    app = make_app(Brain(BundleSource(folder)), watch_files=False)
    async with app.run_test(size=(150, 45)) as pilot:
        while not app.screen.loader.ready:
            await asyncio.sleep(0.01)
        await settled(app)
        pane = app.screen.query_one(PagePane)
        print(f"a session on {folder.name}")
        report("start")
        index = app.brain.index
        assert index is not None
        slugs = sorted(index.pages)[:pages]
        for number, slug in enumerate(slugs, 1):
            app.screen.open_page(slug)  # type: ignore[attr-defined]
            while pane.shown is None or pane.shown.slug != slug:
                await asyncio.sleep(0.002)
            await settled(app)
            if number % every == 0 or number == len(slugs):
                report(f"{number} pages")
        for number in range(1, finders + 1):
            await pilot.press("slash")
            await settled(app)
            await pilot.press("escape")
            await settled(app)
            if number % every == 0 or number == finders:
                report(f"{number} finders")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", nargs="?", default=str(SAMPLE))
    parser.add_argument("--pages", type=int, default=600)
    parser.add_argument("--finders", type=int, default=200)
    parser.add_argument("--every", type=int, default=100)
    args = parser.parse_args()
    asyncio.run(session(Path(args.folder), args.pages, args.finders, args.every))


if __name__ == "__main__":
    main()
