"""What the Markdown engine saves: a page body drawn by `VaultBody` instead of Textual's `Markdown`.

Run: `.venv/bin/python tests/bench/bench_body.py [--rounds 3]`

A headless app (120×40) holding only a `PagePane`. Per long page, fast paths on (the
engine draws the body) and off (`OKF_EXPLORER_PLAIN=1`, where the `Markdown` widget
draws every body), alternating:

- `show`: `show_page` (prepare in a thread, mount) until the next idle frame;
- `relayout`: one forced layout refresh of the screen with that page shown, until idle
  (what every later status tick or link-tree update costs).

Pages: `index` (a 200-item list of links, like the bench bundle's index pages),
`handbook` (60 sections of prose, lists, a table and a code block: ~60 KB), and `huge`
(a 1 MB page: its first `RENDER_CHARS` are shown). Best of `--rounds`, wall clock.

Opening a page (`--open`, or `--open-only` to skip the comparison above, whose plain
`huge` run takes a minute): from `show_page` until the first screen is painted (the
first refresh after the body is mounted), with the worst lateness of a 10 ms timer
meanwhile (the longest event-loop stall). `typical`: a 3 KB vault page using every
construct (callouts, footnotes, embeds, tags, highlights, a table, code), against the
same text in Textual's stock `Markdown` widget (gfm-like parser) as the baseline;
`2mb`: a 2 MB vault page (a first screen of `first_screen_chars`, then the rest of its
first `RENDER_CHARS`), against drawing that first part at once.

Short pages (`--each`): the first screen of a typical page, a 50-item list, an 18-row
table, ten callouts and 20 sections of prose, fast paths on and off, alternating
(`--each` at commit 77527a1 measured each of the speed-ups the engine replaced, alone).
Targets: typical ≤ 50 ms, 2 MB ≤ 1 s, no stall over 100 ms. The stalls are read
against the idle loop's worst lateness in the same run (the machine's noise floor,
printed first). To compare with another checkout (before/after in one run), run this
file with `PYTHONPATH=that/checkout` in front.
Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import time
from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Markdown

from okf_explorer.core import fast_paths
from okf_explorer.core.brain import Brain
from okf_explorer.core.pages import Page
from okf_explorer.sources.factory import SAMPLE_BRAIN
from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui.widgets.page import pane as page_pane
from okf_explorer.tui.widgets.page.pane import PagePane

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import idle_lateness

from tests.tui.vault_fixture import VAULT


def index_page() -> str:
    items = "".join(f"- [[notes/p{n:03d}|Page {n}]] — item *{n}*\n" for n in range(200))
    return f"# Index\n\n{items}"


def handbook_section(n: int) -> str:
    return (
        f"## Section {n}\n\nThe **orders** table feeds [[metrics/revenue]] and "
        f"[the dashboard](../dashboards/d{n}.md); see `orders.total` for the rule.\n\n"
        f"- first point about [[tables/t{n}]]\n- second point\n  - nested detail\n\n"
        "| column | type | note |\n|---|---|---|\n| id | int | key |\n| total | numeric | EUR |\n\n"
        f"```sql\nselect id, total\nfrom orders\nwhere id = {n};\n```\n\n"
        + "A paragraph of explanation that runs over a few lines of text. " * 8
        + "\n\n"
    )


def handbook_page() -> str:
    return "# Handbook\n\n" + "".join(handbook_section(n) for n in range(60))


def huge_page() -> str:
    body = handbook_page()
    return body * (1_000_000 // len(body) + 1)


def typical_page() -> str:
    """The vault fixture's `Reading Notes` body (frontmatter dropped): ~1.5 KB."""
    return VAULT["Reading Notes.md"].split("---\n", 2)[2] * 2


def vault_section(n: int) -> str:
    return (
        f"> [!tip]- Section {n} tip\n> Folded ==highlight== and #tag{n}.[^n{n}]\n\n"
        + handbook_section(n)
        + f"A claim to cite. ^claim-{n}\n\n[^n{n}]: Note {n}.\n\n"
    )


def two_mb_page() -> str:
    one = "# Vault handbook\n\n" + "".join(vault_section(n) for n in range(60))
    return one * (2_000_000 // len(one) + 1)


class BodyApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PagePane(Brain(BundleSource(SAMPLE_BRAIN), cache_dir=False), id="pane")
        yield Markdown(id="stock", open_links=False)


async def measure(content: str, plain: bool) -> tuple[float, float]:
    """(show, relayout) seconds for one page with fast paths off (`plain`) or on."""
    os.environ[fast_paths.PLAIN_ENV] = "1" if plain else "0"
    app = BodyApp()
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(PagePane)
        await pilot.pause()
        start = time.perf_counter()
        await pane.show_page(Page(slug="page", title="Page", content=content))
        await pilot.pause()
        show = time.perf_counter() - start
        drawn = pane.drawn if hasattr(pane, "drawn") else pane.light  # (before the engine)
        assert drawn is not plain
        start = time.perf_counter()
        app.screen.refresh(layout=True)
        await pilot.pause()
        relayout = time.perf_counter() - start
    return show, relayout


def filling(pane: PagePane) -> bool:
    """Whether the rest of a long page's first part is still to come."""
    return pane.shown is not None and pane.truncated and not pane.has_class("truncated")


async def first_screen(content: str, stock: bool = False) -> tuple[float, float, float]:
    """(seconds to the first screen, longest loop stall until the pane is idle again,
    CPU seconds to the first screen) showing `content` in the page pane, or (`stock`)
    in Textual's stock `Markdown` widget. CPU time (all threads) is the steadier
    figure on a shared machine."""
    app = BodyApp()
    async with app.run_test(size=(120, 40)) as pilot:
        pane, markdown = app.query_one(PagePane), app.query_one("#stock", Markdown)
        (markdown if not stock else pane).display = False
        await pilot.pause()
        gc.collect()  # the rounds before left dead apps: not this page's cost
        lateness: list[float] = []
        expected = time.perf_counter() + 0.01

        def tick() -> None:
            nonlocal expected
            now = time.perf_counter()
            lateness.append(max(0.0, now - expected))
            expected = now + 0.01

        timer = app.set_interval(0.01, tick)
        start, cpu = time.perf_counter(), time.process_time()
        if stock:
            await markdown.update(content)
        else:
            await pane.show_page(Page(slug="page", title="Page", content=content))
        painted = asyncio.Event()
        stamps: list[float] = []

        def paint_done() -> None:  # timed here: work queued after the paint may run
            stamps.extend((time.perf_counter() - start, time.process_time() - cpu))
            painted.set()  # before this coroutine wakes (the rest of a body, say)

        app.screen.call_after_refresh(paint_done)
        await painted.wait()
        seconds, cpu = stamps
        while filling(pane) or any(worker.is_running for worker in app.workers):
            await asyncio.sleep(0.01)  # the rest of the part
        timer.stop()
        tick()
        await pilot.pause()
    return seconds, max(lateness, default=0.0), cpu


async def open_bench(rounds: int) -> None:
    os.environ[fast_paths.PLAIN_ENV] = "0"
    print(f"code from {Path(page_pane.__file__).parents[3]}")
    print(f"idle loop's worst lateness (noise floor) {await idle_lateness() * 1000:5.1f} ms")
    cases = [
        ("typical", typical_page(), ("stock Markdown", typical_page(), True)),
        ("2mb", two_mb_page(), ("its whole first part at once", two_mb_page(), False)),
    ]
    for name, content, (base_name, base_content, stock) in cases:
        runs = [await first_screen(content) for _ in range(rounds)]
        long_chars = page_pane.LONG_CHARS
        page_pane.LONG_CHARS = len(base_content)  # as before first screens: the part at once
        base = [await first_screen(base_content, stock) for _ in range(rounds)]
        page_pane.LONG_CHARS = long_chars
        shown, stall, cpu = (min(r[n] for r in runs) for n in range(3))
        stalls = sorted(r[1] for r in runs)
        base_shown, _, base_cpu = (min(r[n] for r in base) for n in range(3))
        print(
            f"open {name:8} {len(content) / 1000:6.0f} KB  first screen {shown * 1000:6.1f} ms "
            f"(CPU {cpu * 1000:6.1f} ms), worst stall least/median/most "
            f"{stall * 1000:5.1f}/{stalls[len(stalls) // 2] * 1000:5.1f}/"
            f"{stalls[-1] * 1000:5.1f} ms · "
            f"{base_name} {base_shown * 1000:6.1f} ms (CPU {base_cpu * 1000:6.1f} ms) · "
            f"ratio {shown / base_shown:4.2f} (CPU {cpu / base_cpu:4.2f}) · best of {rounds}"
        )


# ------------------------------------------------------------------ short pages, A/B


def list_page() -> str:
    """A short index page: 50 linked items (100 blocks, under `LIGHT_BLOCKS`)."""
    items = "".join(f"- [[notes/p{n:03d}|Page {n}]] — item *{n}*\n" for n in range(50))
    return f"# Index\n\nThe pages of this folder.\n\n{items}"


def table_page() -> str:
    """A short page that is mostly a table: 18 rows of 4 columns (under `LIGHT_BLOCKS`)."""
    rows = "".join(f"| r{n} | [[t{n}]] | {n * 7} | note {n} |\n" for n in range(18))
    return f"# Columns\n\n| name | link | size | note |\n|---|---|---:|---|\n{rows}"


def callout_page() -> str:
    """A short page of ten callouts of two paragraphs each."""
    one = "> [!note] Note {n}\n> A first paragraph with [[p{n}]].\n>\n> A second one.\n\n"
    return "# Callouts\n\n" + "".join(one.format(n=n) for n in range(10))


def prose_page() -> str:
    """A short page of 20 sections of prose (101 blocks): more than one screen."""
    section = "## Part {n}\n\n" + "A paragraph of plain prose that wraps. " * 6 + "\n\n"
    one = section + "Another paragraph, [[p{n}]].\n\n"
    return "# Prose\n\n" + "".join(one.format(n=n) for n in range(33))


async def each_bench(rounds: int) -> None:
    """First screen of short pages, fast paths on and off, alternating."""
    print(f"code from {Path(page_pane.__file__).parents[3]}")
    print(f"idle loop's worst lateness (noise floor) {await idle_lateness() * 1000:5.1f} ms")
    pages = {
        "typical": typical_page(),
        "list": list_page(),
        "table": table_page(),
        "callout": callout_page(),
        "prose": prose_page(),
    }
    for page, content in pages.items():
        got: dict[bool, list[tuple[float, float, float]]] = {False: [], True: []}
        for _ in range(rounds):
            for plain in (False, True):
                os.environ[fast_paths.PLAIN_ENV] = "1" if plain else "0"
                got[plain].append(await first_screen(content))
        best = {plain: (min(r[0] for r in rs), min(r[2] for r in rs)) for plain, rs in got.items()}
        (fast_wall, fast_cpu), (plain_wall, plain_cpu) = best[False], best[True]
        print(
            f"{page:8} {len(content) / 1000:4.1f} KB  first screen fast {fast_wall * 1000:6.1f} ms "
            f"(CPU {fast_cpu * 1000:6.1f} ms)  plain {plain_wall * 1000:6.1f} ms "
            f"(CPU {plain_cpu * 1000:6.1f} ms)  ×{plain_cpu / fast_cpu:4.2f} CPU, "
            f"{(plain_cpu - fast_cpu) * 1000:+6.1f} ms · best of {rounds}"
        )
    os.environ.pop(fast_paths.PLAIN_ENV, None)


async def main(rounds: int) -> None:
    pages = {"index": index_page(), "handbook": handbook_page(), "huge": huge_page()}
    for name, content in pages.items():
        best = {False: [float("inf")] * 2, True: [float("inf")] * 2}
        for _ in range(rounds):
            for plain in (False, True):
                got = await measure(content, plain)
                best[plain] = [min(a, b) for a, b in zip(best[plain], got, strict=True)]
        (fast_show, fast_lay), (slow_show, slow_lay) = best[False], best[True]
        print(
            f"{name:8} {len(content) / 1000:6.0f} KB  show fast {fast_show * 1000:6.0f} ms "
            f"plain {slow_show * 1000:6.0f} ms (saves {1 - fast_show / slow_show:4.0%})  "
            f"relayout fast {fast_lay * 1000:5.0f} ms plain {slow_lay * 1000:5.0f} ms "
            f"(saves {1 - fast_lay / slow_lay:4.0%})"
        )
    os.environ.pop(fast_paths.PLAIN_ENV, None)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--open", action="store_true", help="also time opening pages")
    parser.add_argument("--open-only", action="store_true", help="only time opening pages")
    parser.add_argument("--each", action="store_true", help="only time short pages' first screen")
    arguments = parser.parse_args()
    if arguments.each:
        asyncio.run(each_bench(arguments.rounds))
        sys.exit()
    if not arguments.open_only:
        asyncio.run(main(arguments.rounds))
    if arguments.open or arguments.open_only:
        asyncio.run(open_bench(arguments.rounds))
