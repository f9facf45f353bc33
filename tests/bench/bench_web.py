"""Benchmark: how long a browser session of `okf-explorer web` takes to first paint.

Run: `.venv/bin/python tests/bench/bench_web.py [pages] [runs]` (defaults 10000, 5).
Not collected by pytest; needs the Debian package `chromium`. One `okf-explorer web`
per source (the sample brain, then a generated bundle of `pages` pages,
tests/bench/gen_bundle.py), its index cache warm, as it is after the server's own
start-up indexing. Each run opens the page in a fresh browser context (a new
session, so a new explorer process) and measures, in the page's own clock from the
start of the page request (`performance.now()`):

- page loaded: the `load` event (HTML, xterm.js, CSS);
- first byte: the first bytes of the session's screen have arrived over the
  websocket (seen on the next animation frame);
- first paint: the explorer is drawn (the traversal panel's title is in the
  terminal buffer), checked on every animation frame.

Target: first paint ≤ 2 s on the sample brain.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE))

from gen_bundle import generate  # noqa: E402
from timing import numbers  # noqa: E402

from tests.web_fixture import (  # noqa: E402
    SCREEN_TEXT,
    launch_chromium,
    new_page,
    serve_web,
    web_env,
)

STOPWATCH = f"""
(() => {{
  const marks = window.__okfMarks = {{}};
  const screen = {SCREEN_TEXT};
  const watch = () => {{
    const body = document.body;
    if (!marks.firstByte && body && body.classList.contains("-first-byte"))
      marks.firstByte = performance.now();
    if (screen().includes(" · depth ")) {{ marks.painted = performance.now(); return; }}
    requestAnimationFrame(watch);
  }};
  requestAnimationFrame(watch);
  addEventListener("load", () => {{ marks.loaded = performance.now(); }});
}})();
"""


def measure(browser: object, url: str, runs: int) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {"loaded": [], "firstByte": [], "painted": []}
    for _ in range(runs):
        page = new_page(browser)
        page.add_init_script(STOPWATCH)
        page.goto(url)
        page.wait_for_function(
            "() => window.__okfMarks && window.__okfMarks.painted", timeout=60_000
        )
        marks = page.evaluate("() => window.__okfMarks")
        for name in timings:
            timings[name].append(marks[name] / 1000)
        page.context.close()
        time.sleep(0.3)  # let the closed session's process end
    return timings


def report(label: str, timings: dict[str, list[float]]) -> None:
    parts = []
    for name, title in (
        ("loaded", "page loaded"),
        ("firstByte", "first byte"),
        ("painted", "first paint"),
    ):
        values = timings[name]
        parts.append(f"{title} best {min(values):.2f} s, median {statistics.median(values):.2f} s")
    print(f"{label}: " + "; ".join(parts))


def main() -> int:
    pages, runs = numbers(__doc__, ("pages", 10_000), ("runs", 5))
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        root = Path(scratch)
        bundle = root / "bundle"
        generate(bundle, pages, 1)
        browser = launch_chromium(playwright)
        for label, args in (("sample brain", ()), (f"{pages}-page bundle", (str(bundle),))):
            with serve_web(*args, env=web_env(root / "cache")) as server:
                report(label, measure(browser, server.url, runs))
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
