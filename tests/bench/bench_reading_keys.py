"""Benchmark: the reading keys of issue 24, `n` / `N` / `enter` (the page cursor) and `l`.

Run: `.venv/bin/python tests/bench/bench_reading_keys.py [VAULT [PAGE]]`. Not collected
by pytest. Headless (Pilot) at 150×45, the index built first. Each key is timed from
its action until the next screen refresh has painted (what the reader waits for), best
and median of the presses, with the ratio to the budget (issue 24: no key over 100 ms on
the sample brain, 300 ms on a 6.5k-page vault):

- the sample brain's start page: `n` walking its links, `N` back;
- a generated vault page of prose, foldable callouts and embeds: `n` over them, `enter`
  folding and unfolding a callout;
- `VAULT` (a folder; e.g. an unpacked obsidian-hub community vault, ~6.6k notes) at
  `PAGE` (a slug; default the largest page): `n` from the top (the first press reads the
  targets of everything drawn: 200 KB of a long page), then `n` on;
- `l` on a generated 1.5 MB index page (6,000 links, 5,120 pages) and on the sample
  brain's start page (the ratio: what the page's size adds): from the key until the list
  is painted, with the longest event-loop stall meanwhile (a 10 ms timer's worst
  lateness), against the idle loop's worst lateness (the machine's noise).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

from timing import LoopLateness, idle_lateness, wait_until  # noqa: E402

from okf_explorer.core.brain import Brain  # noqa: E402
from okf_explorer.sources.folder.bundle import BundleSource  # noqa: E402
from okf_explorer.tui.app import ExplorerApp, make_app  # noqa: E402
from okf_explorer.tui.dialogs.links import LinksDialog  # noqa: E402
from okf_explorer.tui.widgets.page.pane import PagePane  # noqa: E402

SAMPLE = REPO / "okf_explorer" / "sample_brain"
SIZE = (150, 45)
PRESSES = 12


def cursor_page() -> str:
    """Prose with links, foldable callouts and embeds, 30 times over."""
    parts = []
    for n in range(30):
        parts.append(
            f"## Part {n}\n\nSee [[note {n % 5}]] and [[note {(n + 1) % 5}|the next]].\n\n"
            f"> [!tip]- Folded {n}\n> Hidden: [[note {n % 5}]]\n\n![[note {n % 5}]]\n\n"
        )
    return "# Cursor\n\n" + "".join(parts)


def big_index(concepts: int = 5120) -> str:
    """~1.5 MB: a bullet per concept with a long description, then links again."""
    words = "a description long enough to make the page as heavy as the real index is " * 3
    lines = [f"* [Concept {n}](/concepts/concept-{n}.md) - {words}\n" for n in range(concepts)]
    again = [f"* see [[concepts/concept-{n * 5}|concept {n * 5}]]\n" for n in range(944)]
    return "# Knowledge Bundle\n\n" + "".join(lines) + "\n## Again\n\n" + "".join(again)


def write(root: Path, pages: dict[str, str]) -> Path:
    for slug, text in pages.items():
        path = root / f"{slug}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


async def painted(app: ExplorerApp) -> None:
    done = asyncio.Event()
    app.screen.call_after_refresh(done.set)
    await done.wait()


async def timed(app: ExplorerApp, act: Callable[[], object]) -> float:
    started = time.perf_counter()
    act()
    await painted(app)
    return time.perf_counter() - started


async def cursor_keys(root: Path, start: str | None, enter: bool = False) -> dict[str, list[float]]:
    """`n` ×PRESSES from the top, `N` ×PRESSES/2, and (`enter`) a fold on a callout."""
    app = make_app(Brain(BundleSource(root), cache_dir=False), start=start)
    found: dict[str, list[float]] = {"n (first)": [], "n": [], "N": [], "enter (fold)": []}
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one(PagePane)
        await wait_until(lambda: pane.shown is not None and app.screen.loader.ready)
        await wait_until(lambda: not pane.filling)
        await pilot.pause(0.5)
        found["n (first)"].append(await timed(app, lambda: pane.action_cursor(1)))
        for _ in range(PRESSES):
            found["n"].append(await timed(app, lambda: pane.action_cursor(1)))
        for _ in range(PRESSES // 2):
            found["N"].append(await timed(app, lambda: pane.action_cursor(-1)))
        if enter:
            for _ in range(PRESSES):
                await timed(app, lambda: pane.action_cursor(1))
                if pane.cursor.current is not None and pane.cursor.current.kind == "callout":
                    found["enter (fold)"].append(await timed(app, pane.action_cursor_enter))
    return {key: values for key, values in found.items() if values}


async def links_key(root: Path, start: str | None) -> tuple[list[float], list[float], int]:
    """`l`: seconds to the list painted and the worst stall, per run."""
    app = make_app(Brain(BundleSource(root), cache_dir=False), start=start)
    shown, stalls, count = [], [], 0
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        pane = screen.query_one(PagePane)
        await wait_until(lambda: pane.shown is not None and screen.loader.ready)
        await wait_until(lambda: not pane.filling)
        await pilot.pause(0.5)
        lateness = LoopLateness(screen)
        for _ in range(3):
            lateness.start()
            started = time.perf_counter()
            screen.action_page_links()
            await wait_until(lambda: isinstance(app.screen, LinksDialog))
            await painted(app)
            shown.append(time.perf_counter() - started)
            stalls.append(lateness.stop())
            dialog = app.screen
            assert isinstance(dialog, LinksDialog)
            count = len(dialog.links)
            dialog.dismiss(None)
            await wait_until(lambda: app.screen is screen)
            await pilot.pause(0.2)
    return shown, stalls, count


def largest_page(root: Path) -> str:
    path = max(root.rglob("*.md"), key=lambda path: path.stat().st_size)
    return path.relative_to(root).with_suffix("").as_posix()


def rows_for(name: str, timings: dict[str, list[float]], budget: float) -> list[str]:
    lines = []
    for key, values in timings.items():
        best, median = min(values), statistics.median(values)
        lines.append(
            f"{name:<34} {key:<13} best {best * 1000:7.1f} ms  median {median * 1000:7.1f} ms"
            f"  worst {max(values) * 1000:7.1f} ms  ({max(values) / budget:4.2f}× of"
            f" {budget * 1000:.0f} ms)"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("vault", nargs="?", type=Path, help="a vault of your own, too")
    parser.add_argument("page", nargs="?", help="its page (default: its largest)")
    args = parser.parse_args()
    print(f"idle loop's worst lateness (noise): {asyncio.run(idle_lateness()) * 1000:.1f} ms")
    lines = rows_for("sample brain (start page)", asyncio.run(cursor_keys(SAMPLE, None)), 0.1)
    with tempfile.TemporaryDirectory() as folder:
        notes = {f"note {n}": f"# Note {n}\n\nText.\n" for n in range(5)}
        pages = {"cursor": cursor_page()} | notes
        root = write(Path(folder) / "vault", pages)
        (root / ".obsidian").mkdir()
        found = asyncio.run(cursor_keys(root, "cursor", enter=True))
        lines += rows_for("generated vault page (callouts)", found, 0.1)
    if args.vault is not None:
        vault = args.vault
        page = args.page or largest_page(vault)
        found = asyncio.run(cursor_keys(vault, page))
        lines += rows_for(f"{vault.name[:20]}: {page[-12:]}", found, 0.3)
    with tempfile.TemporaryDirectory() as folder:
        root = write(Path(folder) / "kb", {"index": big_index(), "concepts/concept-1": "# One\n"})
        big = asyncio.run(links_key(root, "index"))
    small = asyncio.run(links_key(SAMPLE, None))
    print("\n".join(lines))
    runs = (("the sample brain's start page", small), ("a 1.5 MB page", big))
    for name, (shown, stalls, count) in runs:
        print(
            f"l on {name} ({count} links): best {min(shown) * 1000:.1f} ms, median"
            f" {statistics.median(shown) * 1000:.1f} ms ({min(shown) / min(small[0]):.1f}× the"
            f" sample's); longest loop stall {max(stalls) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
