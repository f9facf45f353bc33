"""The index built behind the handshake, so `initialize` and `tools/list` never wait
for it (a client that scans before answering times out on a big vault).

`IndexWarmer.start` builds the brain's index in a thread of its own (from the disk
cache when valid), keeping count of the pages scanned. Until it is done:

- a tool that needs the index (all but a plain `get_page`, which reads one page) is
  answered by `refusal`: `{"error": "indexing", "message": "indexing, N of M pages;
  retry in a few seconds", "done": N, "total": M}` (`isError`), which a client can
  retry;
- the transports first `await_index` up to the call's deadline (`INDEX_WAIT`),
  reporting `notifications/progress` (`progress` N, `total` M, `message`) every
  `PROGRESS_EVERY` seconds to a client that sent a `progressToken`; only a call still
  waiting at its deadline gets the refusal.

A build that fails (the source went away) ends the waiting: calls then run, and ask
the brain, which tries again and reports the failure as any call would.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio

from okf_explorer.core.errors import OkfError
from okf_explorer.core.port import CancelCheck
from okf_explorer.server.limits import INDEX_WAIT
from okf_explorer.server.tools import ToolReply

PROGRESS_EVERY = 0.5
"""Seconds between two progress notifications to a waiting call."""
POLL_EVERY = 0.05
"""Seconds between two looks at whether the index is ready."""

Report = Callable[[float, float | None, str | None], Awaitable[None]]
"""`report(progress, total, message)`: one progress notification (the SDK's
`ServerSession.report_progress`, a no-op for a client that sent no token)."""


def _never() -> bool:
    return False


class IndexWarmer:
    """Builds `brain`'s index once, in a daemon thread, and says how far it is."""

    def __init__(self, brain: Any, cancel: CancelCheck = _never) -> None:
        self._brain = brain
        self._cancel = cancel
        self._done_event = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._scanned = 0
        self._total: int | None = None
        self.error: str | None = None
        """Why the build failed (None while building and after a build that worked)."""
        self.pages = 0
        """Pages in the index once built."""
        self.seconds = 0.0
        """How long the build took."""

    def start(self, finished: Callable[[IndexWarmer], None] | None = None) -> None:
        """Start the build (once); `finished(self)` is called in its thread at the end,
        before `ready()` turns true (what it says comes before any call it lets through)."""
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(
                target=self._build, args=(finished,), name="okf-serve-index", daemon=True
            )
        self._thread.start()

    def _build(self, finished: Callable[[IndexWarmer], None] | None) -> None:
        started = time.monotonic()
        try:
            index = self._brain.ensure_index(progress=self._progress, cancel=self._cancel)
            self.pages = len(index.pages)
            self._brain.warm_resolver()  # the first name looked up need not pay for it
        except OkfError as error:
            self.error = str(error)
        except Exception as error:  # a fault of ours: said as such, never "0 pages indexed"
            self.error = f"unexpected error: {type(error).__name__}: {error}"
        finally:
            self.seconds = time.monotonic() - started
            try:
                if finished is not None:
                    finished(self)  # said before any call it let through is answered
            finally:
                self._done_event.set()

    def _progress(self, done: int, total: int) -> None:
        self._scanned, self._total = done, total

    def ready(self) -> bool:
        """True once the build is over (built, or failed)."""
        return self._done_event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the build is over, at most `timeout` seconds; True if it is."""
        return self._done_event.wait(timeout)

    def progress(self) -> tuple[int, int | None]:
        """(pages scanned, pages to scan: None while the pages are being listed)."""
        return self._scanned, self._total

    def message(self) -> str:
        """`indexing, N of M pages` (or `indexing: listing the pages`)."""
        done, total = self.progress()
        if total is None:
            return "indexing: listing the pages"
        return f"indexing, {done} of {total} pages"

    def state(self) -> dict[str, Any]:
        """What `/health` says of the index: `building` (with the counts), `ready`
        (with the pages), or `failed` (with the reason)."""
        if not self.ready():
            done, total = self.progress()
            return {"state": "building", "done": done, "total": total}
        if self.error is not None:
            return {"state": "failed", "error": self.error}
        return {"state": "ready", "pages": self.pages, "seconds": round(self.seconds, 3)}

    def refusal(self, name: str, arguments: Mapping[str, Any] | None) -> ToolReply | None:
        """The `indexing` reply for a call that needs the index while it is being
        built; None when the call may run."""
        if self.ready() or not needs_index(name, arguments):
            return None
        done, total = self.progress()
        payload = {
            "error": "indexing",
            "message": f"{self.message()}; retry in a few seconds",
            "done": done,
            "total": total,
        }
        return ToolReply(payload, is_error=True)


def needs_index(name: str, arguments: Mapping[str, Any] | None) -> bool:
    """Every tool reads the index but `get_page` of an exact slug (one page, from the
    source)."""
    return name != "get_page" or bool((arguments or {}).get("fuzzy"))


async def await_index(
    warmer: IndexWarmer,
    deadline: float = INDEX_WAIT,
    report: Report | None = None,
    stop: CancelCheck = _never,
) -> bool:
    """Wait until the index is built, at most `deadline` seconds (or until `stop()`),
    sending `report` a progress notification at once and every `PROGRESS_EVERY`
    seconds; True if it is ready (then the call runs), False at the deadline (then it
    is refused)."""
    end = time.monotonic() + deadline
    next_report = 0.0
    while not warmer.ready():
        now = time.monotonic()
        if now >= end or stop():
            return False
        if report is not None and now >= next_report:
            done, total = warmer.progress()
            await report(float(done), None if total is None else float(total), warmer.message())
            next_report = now + PROGRESS_EVERY
        await anyio.sleep(min(POLL_EVERY, max(0.0, end - now)))
    return True
