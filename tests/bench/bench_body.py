"""What `fast_body` saves: showing a long page with `LightBody` instead of Textual's `Markdown`.

Run: `.venv/bin/python tests/bench/bench_body.py [--rounds 3]`

A headless app (120×40) holding only a `PagePane`. Per long page, fast paths on and
off (`OKF_EXPLORER_PLAIN=1`, where the `Markdown` widget draws every body), alternating:

- `show`: `show_page` (prepare in a thread, mount) until the next idle frame;
- `relayout`: one forced layout refresh of the screen with that page shown, until idle
  (what every later status tick or link-tree update costs).

Pages: `index` (a 200-item list of links, like the bench bundle's index pages),
`handbook` (60 sections of prose, lists, a table and a code block: ~60 KB), and `huge`
(a 1 MB page: its first `RENDER_CHARS` are shown). Best of `--rounds`, wall clock.
Not collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from textual.app import App, ComposeResult

from okf_explorer.core import fast_paths
from okf_explorer.core.pages import Page
from okf_explorer.tui.widgets.page_pane import PagePane


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


class BodyApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PagePane(id="pane")


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
        assert pane.light is not plain
        start = time.perf_counter()
        app.screen.refresh(layout=True)
        await pilot.pause()
        relayout = time.perf_counter() - start
    return show, relayout


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
    asyncio.run(main(parser.parse_args().rounds))
