"""Benchmark: the finder (`/`) as a person types into it, on a big vault.

Run: `.venv/bin/python tests/bench/bench_finder.py [FOLDER] [--query Q] [--pace S]
[--rounds N]` (default the sample brain, the file name of its most linked page, keys
0.08 s apart, 3 rounds). Not collected by pytest.

Each round opens the finder on the explorer (150x45, the index built), then sends the
query's keys `pace` seconds apart without waiting for the app (as a terminal delivers
a person's keys), and times from the last key until the list shows the hits of the
whole query. It prints that time and which queries were ranked.

The baseline, in the same run, rounds alternating: the finder as it was before, each
key's search ranking every page in a thread of its own (a thread cannot be stopped, so
on a 35k-page vault every prefix was ranked, several at once).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

import okf_explorer.tui  # noqa: F401 - first: it sets the explorer's frame rate (tui.settings)

# isort: split
from textual import events
from textual.command import CommandInput, CommandList, CommandPalette

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO))

from okf_explorer.core.brain import Brain  # noqa: E402
from okf_explorer.core.search.find_rank import NameRanker, rank_pages  # noqa: E402
from okf_explorer.sources.folder.bundle import BundleSource  # noqa: E402
from okf_explorer.tui.app import make_app  # noqa: E402
from okf_explorer.tui.finder import OneAtATime  # noqa: E402

SAMPLE = REPO / "okf_explorer" / "sample_brain"
WAIT = 30.0
"""Seconds a round waits for the query's hits before it gives up."""

ranked: list[str] = []
baseline = False
"""Whether the round runs the finder as it was (see the module doc)."""
_rank, _run = NameRanker.rank, OneAtATime.run


def counted(self, query, pages, limit=None):  # type: ignore[no-untyped-def]
    ranked.append(query)
    if baseline:
        return rank_pages(query, pages, limit)
    return _rank(self, query, pages, limit)


async def run(self, work, *args):  # type: ignore[no-untyped-def]
    if baseline:
        return await asyncio.to_thread(work, *args)
    return await _run(self, work, *args)


NameRanker.rank = counted  # type: ignore[method-assign]
OneAtATime.run = run  # type: ignore[method-assign]


def default_query(brain: Brain) -> str:
    """The file name of the page with the most backlinks."""
    return brain.stats().hubs_in[0][0].rsplit("/", 1)[-1]


async def one_round(pilot, query: str, pace: float) -> float:  # type: ignore[no-untyped-def]
    """Seconds from the last key to the hits of `query`."""
    app = pilot.app
    await pilot.press("slash")
    while not CommandPalette.is_open(app):
        await asyncio.sleep(0.01)
    await asyncio.sleep(1.0)  # the finder's first offer drawn
    ranked.clear()
    palette = app.screen
    typed = palette.query_one(CommandInput)
    for char in query:
        typed.post_message(events.Key(char, char))
        await asyncio.sleep(pace)
    last_key = time.perf_counter() - pace
    listed = palette.query_one(CommandList)
    while time.perf_counter() - last_key < WAIT:
        await asyncio.sleep(0.005)
        if query in ranked and listed.option_count and not _searching(app, palette):
            break
    else:
        raise SystemExit(f"no hits for {query!r} within {WAIT:g} s")
    took = time.perf_counter() - last_key
    palette.dismiss()
    while CommandPalette.is_open(app):
        await asyncio.sleep(0.01)
    return took


def _searching(app, palette) -> bool:  # type: ignore[no-untyped-def]
    return any(worker.node is palette and worker.is_running for worker in app.workers)


async def main(folder: Path, query: str | None, pace: float, rounds: int) -> None:
    global baseline
    brain = Brain(BundleSource(folder))
    app = make_app(brain, watch_files=False)
    async with app.run_test(size=(150, 45)) as pilot:
        while not app.screen.loader.ready:
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)
        query = query or default_query(brain)
        took: dict[bool, list[float]] = {True: [], False: []}
        queries: dict[bool, list[list[str]]] = {True: [], False: []}
        for _ in range(rounds):
            for baseline in (True, False):
                took[baseline].append(await one_round(pilot, query, pace))
                queries[baseline].append(list(ranked))
    print(f"finder on {folder.name}: {query!r} typed {pace:g} s a key, {rounds} rounds")
    for kind, was in (("baseline", True), ("finder", False)):
        median, worst = statistics.median(took[was]) * 1000, max(took[was]) * 1000
        asked = statistics.median(len(q) for q in queries[was])
        print(
            f"  {kind:8} hits after the last key: median {median:5.0f} ms, worst {worst:5.0f} ms;"
            f" ranked {asked:g} of {len(query)} prefixes"
        )
    ratio = statistics.median(took[True]) / statistics.median(took[False])
    print(f"  baseline / finder: {ratio:.1f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=SAMPLE)
    parser.add_argument("--query")
    parser.add_argument("--pace", type=float, default=0.08)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.folder, args.query, args.pace, args.rounds))
