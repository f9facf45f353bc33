"""The explorer in a browser: `okf-explorer web` on the sample brain, in headless
Chromium, after `+`, `d`, `b`; writes screenshots/web.png.

    python screenshots/web.py           # needs the Debian package `chromium`

The same server and browser set-up as tests/test_web_browser.py (tests/web_fixture.py).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web_fixture import (
    launch_chromium,
    new_page,
    open_explorer,
    serve_web,
    wait_for_screen,
    web_env,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def main() -> int:
    target = HERE / "web.png"
    with tempfile.TemporaryDirectory() as cache:
        # Run from the package folder so the status line says `sample_brain`, no machine path.
        env = web_env(Path(cache))
        folder = ROOT / "okf_explorer"
        with serve_web("sample_brain", env=env, cwd=folder) as server, sync_playwright() as pw:
            browser = launch_chromium(pw)
            page = new_page(browser)
            open_explorer(page, server.url)
            for key in "+db":
                page.keyboard.press(key)
            wait_for_screen(page, "index · depth 2 · in")
            page.wait_for_timeout(300)  # let the last rows and the scrollbar settle
            page.screenshot(path=str(target))
            browser.close()
    print(target.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
