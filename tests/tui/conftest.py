"""Fixtures for the TUI tests: real bundles in tmp dirs, and sources that fail on demand."""

from __future__ import annotations

import asyncio
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
import textual._wait
from textual import events
from textual.app import App
from textual.pilot import Pilot

from okf_explorer.core.brain import Brain
from okf_explorer.core.errors import Cancelled
from okf_explorer.core.port import CancelCheck, PageStub, ProgressCallback, ScannedPage
from okf_explorer.tui import browser
from tests.bundles import WrappedSource, write_bundle

SIZE = (120, 40)

# Pilot waits for "CPU idle" after every key and pause by sleeping 20 ms windows until
# one passes with under 1 ms of CPU used. 5 ms windows with the same 1 ms bound give
# the same answer (the app is idle) four times sooner; the tests never rely on timing,
# they wait for explicit conditions (`settle`). Textual is pinned (8.2.8).
textual._wait.SLEEP_GRANULARITY = 0.005

SMALL_BUNDLE = {
    "index.md": "---\ntitle: Home\ntype: hub\n---\n# Home\n\nSee [[alpha]] and [Beta](beta.md).\n",
    "alpha.md": "---\ntitle: Alpha page\ntags: [one, two]\n---\n"
    "Alpha links [[beta]] and [[ghost]].\n",
    "beta.md": "---\ntitle: Beta\nstatus: deprecated\n---\n"
    "Beta goes back to [[alpha|the alpha]].\n",
    "notes/gamma.md": "# Gamma\n\nGamma cites [[index]] and `[[not-a-link]]`.\n",
}


class RecordingBrowser(webbrowser.BaseBrowser):
    """A browser with a window of its own, as `tui.browser.window_browser` finds one:
    records each address and whether it came on the main thread (the loop)."""

    def __init__(self) -> None:
        super().__init__("recorder")
        self.opened: list[tuple[str, bool]] = []

    def open(self, url: str, new: int = 0, autoraise: bool = True) -> bool:
        self.opened.append((url, threading.current_thread() is threading.main_thread()))
        return True

    @property
    def urls(self) -> list[str]:
        return [url for url, _ in self.opened]


@pytest.fixture
def window_browser(monkeypatch: pytest.MonkeyPatch) -> RecordingBrowser:
    """The browser web addresses go to, in place of the machine's."""
    recorder = RecordingBrowser()
    monkeypatch.setattr(browser, "window_browser", lambda: recorder)
    return recorder


@pytest.fixture
def small_bundle(tmp_path: Path) -> Path:
    return write_bundle(tmp_path / "brain", SMALL_BUNDLE)


class FlakySource(WrappedSource):
    """A real BundleSource that goes down (every call raises) while `down` is set."""

    def __init__(self, root: Path, down: bool = False) -> None:
        super().__init__(root, down=down, label="flaky test brain")


class GatedSource(FlakySource):
    """A bundle whose scan waits for `gate`: the index cannot finish until a test allows it."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.gate = threading.Event()
        self.scan_started = threading.Event()

    def scan(
        self,
        stubs: Sequence[PageStub],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> Iterator[ScannedPage]:
        self.scan_started.set()
        for item in self.inner.scan(stubs, progress, cancel):
            while not self.gate.wait(0.05):
                if cancel is not None and cancel():
                    raise Cancelled("the scan was cancelled")  # as real sources do
            yield item


def brain_for(source: object) -> Brain:
    return Brain(source, cache_dir=False)  # type: ignore[arg-type]


async def settle(pilot: Pilot[None], until: Callable[[], bool] | None = None) -> None:
    """Let every worker finish (or `until` hold) and the screen catch up.

    Polls with plain sleeps: `pilot.pause(delay)` forces a full repaint each time,
    which on a loaded 2-core machine costs more than the wait itself. "Idle" is
    only believed after a refresh round-trip: work queued to run after the next
    refresh (the index build starts that way) must have had its chance to start.
    """
    app: App[None] = pilot.app
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        await asyncio.sleep(0.005)
        busy = busy_workers(app)
        if (until is None and not busy) or (until is not None and until()):
            await pilot.pause()
            await refreshed(app)
            if until is not None or not busy_workers(app):
                return
    raise AssertionError("the app did not settle")


def busy_workers(app: App[None]) -> bool:
    """Whether a worker is running, other than the folder watcher (it never ends), or a
    long page's first part is still to be filled in (it starts on a timer, `FILL_DELAY`)."""
    from okf_explorer.tui.widgets.page.pane import PagePane

    if any(worker.is_running and worker.group != "watch" for worker in app.workers):
        return True
    return any(pane.filling for screen in app.screen_stack for pane in screen.query(PagePane))


async def refreshed(app: App[None]) -> None:
    """Return after the screen's next refresh, once callbacks queued before it have run."""
    done = asyncio.Event()
    app.screen.call_after_refresh(done.set)
    await asyncio.wait_for(done.wait(), timeout=10)


async def press_at_once(pilot: Pilot[None], key: str, char: str, times: int) -> None:
    """Press `key` `times` times in a burst, as a fast typist would.

    `pilot.press` waits for the app to go idle after every key (slow under load);
    here the presses queue up before the first is handled, which is the point of
    tests about presses made while earlier ones are still being served.
    """
    for _ in range(times):
        pilot.app.post_message(events.Key(key, char))
    await pilot.pause()
