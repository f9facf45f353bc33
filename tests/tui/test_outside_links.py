"""A web address in a page goes to a browser outside the terminal, never to one drawing in
it: with no display (ssh), Python's `webbrowser` runs `www-browser`/`w3m`/`lynx` in the
foreground, over the explorer's screen, the explorer frozen until it quits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from okf_explorer.sources.folder.bundle import BundleSource
from okf_explorer.tui import browser
from okf_explorer.tui.app import make_app
from tests.bundles import write_pages

from .conftest import RecordingBrowser, brain_for, settle

URL = "https://example.org/guide"

LOOKUP = """
from okf_explorer.tui.browser import window_browser
found = window_browser()
print("none" if found is None else type(found).__name__ + " " + found.name)
"""


def lookup(path: Path, **env: str) -> str:
    """`window_browser()` in a fresh interpreter (`webbrowser` looks the browsers up
    once per process) whose `PATH` is `path`, without a display."""
    clean = {
        k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")
    }
    clean.update(PATH=str(path), TERM="xterm-256color", **env)
    done = subprocess.run(
        [sys.executable, "-c", LOOKUP], env=clean, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def fake_browser(folder: Path, name: str) -> Path:
    script = folder / name
    script.write_text(f"#!/bin/sh\necho {name} >> {folder}/opened\n")
    script.chmod(0o755)
    return script


def test_a_terminal_browser_is_never_chosen_and_a_window_browser_is(tmp_path: Path) -> None:
    for name in ("www-browser", "w3m", "lynx"):
        folder = tmp_path / name
        folder.mkdir()
        fake_browser(folder, name)
        assert lookup(folder) == "none", name
    assert lookup(tmp_path / "w3m", BROWSER="w3m") == "none"
    display = tmp_path / "display"
    display.mkdir()
    fake_browser(display, "xdg-open")
    assert lookup(display, DISPLAY=":0") == "BackgroundBrowser xdg-open"
    wsl = tmp_path / "wsl"
    wsl.mkdir()
    fake_browser(wsl, "wslview")  # WSL: a command that opens the Windows browser
    assert lookup(wsl, BROWSER="wslview") == "GenericBrowser wslview"
    assert not (tmp_path / "w3m" / "opened").exists()  # looked up, never started


@pytest.mark.parametrize("window", [True, False], ids=["window-browser", "terminal-only"])
async def test_enter_on_a_web_link_opens_it_outside_or_copies_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, window: bool
) -> None:
    recorder = RecordingBrowser()
    monkeypatch.setattr(browser, "window_browser", lambda: recorder if window else None)
    root = write_pages(tmp_path / "v", {"home": f"# Home\n\nRead [the guide]({URL}) first.\n"})
    app = make_app(brain_for(BundleSource(root)), start="home", watch_files=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n", "enter")
        await settle(pilot, until=lambda: bool(app._notifications))
        said = [notification.message for notification in app._notifications]
        if window:
            assert recorder.opened == [(URL, False)]  # in a thread, not on the loop
            assert said == [f"{URL} is not a page here: asked your browser to open it"]
        else:
            assert recorder.opened == []
            assert app.clipboard == URL
            assert said == [
                f"{URL} is not a page here, and no browser opens it outside this terminal: copied"
            ]
        assert app.screen.query_one("PagePane").slug == "home"
