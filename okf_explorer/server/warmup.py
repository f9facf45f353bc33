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

Then, in the same thread, the text index is filled (`TextSearch.prepare`, as `ctrl+f`
does; nothing when the server's own search answers): a first `search` on a 35k-page
wiki read the pages for 19 s inside the call, and its client gave up at 10 s. Until the
fill is done `search` (and `query`) is answered, and waits, as above, saying `reading
pages for full-text search, N of M`; the other tools run. The word embeddings
(`core.search.meaning`) are left to the first question: their native libraries, loading
in this thread when a stop came, aborted the process (SIGABRT, not a clean exit).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import anyio

from okf_explorer.core.errors import OkfError
from okf_explorer.core.port import CancelCheck
from okf_explorer.server.limits import INDEX_WAIT
from okf_explorer.server.tools import ToolReply

TEXT_TOOLS = frozenset({"search", "query"})
"""The tools that read the full-text index: they wait for it once the link index is built."""
PROGRESS_EVERY = 0.5
"""Seconds between two progress notifications to a waiting call."""
POLL_EVERY = 0.05
"""Seconds between two looks at whether the index is ready."""

Call = tuple[str, Mapping[str, Any] | None]
"""A tool call: its name and arguments."""
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
        self._text_done = threading.Event()
        self._text_read = 0
        self._text_total: int | None = None
        self.text_error: str | None = None
        """Why the text index could not be filled (a search then tries again itself)."""

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
        self._fill_text()

    def _fill_text(self) -> None:
        """The text index filled after the index (see the module doc); after a failed
        build there is nothing to fill from: a search tries itself."""
        try:
            if self.error is None and not self._cancel():
                self._brain.text_search().prepare(self._text_progress, embeddings=False)
        except OkfError as error:
            self.text_error = str(error)
        except Exception as error:  # a fault of ours: said, and searches still try
            self.text_error = f"unexpected error: {type(error).__name__}: {error}"
        finally:
            self._text_done.set()

    def _progress(self, done: int, total: int) -> None:
        self._scanned, self._total = done, total

    def _text_progress(self, done: int, total: int) -> None:
        self._text_read, self._text_total = done, total

    def ready(self) -> bool:
        """True once the build is over (built, or failed)."""
        return self._done_event.is_set()

    def text_ready(self) -> bool:
        """True once the text index is filled (or could not be, or needs no filling)."""
        return self._text_done.is_set()

    def waiting(self, call: Call | None = None) -> bool:
        """Whether `call` (`(name, arguments)`) would be refused now; without one,
        whether the index is still being built."""
        return not self.ready() if call is None else self.refusal(*call) is not None

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the build is over, at most `timeout` seconds; True if it is."""
        return self._done_event.wait(timeout)

    def progress(self) -> tuple[int, int | None]:
        """(pages scanned, pages to scan: None while the pages are being listed); once
        the index is built, the text index's (pages read, pages to read)."""
        if self.ready():
            return self._text_read, self._text_total
        return self._scanned, self._total

    def message(self) -> str:
        """`indexing, N of M pages` (or `indexing: listing the pages`); once the index is
        built, `reading pages for full-text search, N of M`."""
        done, total = self.progress()
        if self.ready():
            return f"reading pages for full-text search, {done} of {total or '?'}"
        if total is None:
            return "indexing: listing the pages"
        return f"indexing, {done} of {total} pages"

    def state(self) -> dict[str, Any]:
        """What `/health` says of the index: `building` (with the counts), `ready`
        (with the pages, and the text index: `building`, `ready`, or `failed` with
        `text_error`), or `failed` (with the reason)."""
        if not self.ready():
            done, total = self.progress()
            return {"state": "building", "done": done, "total": total}
        if self.error is not None:
            return {"state": "failed", "error": self.error}
        ready = {"state": "ready", "pages": self.pages, "seconds": round(self.seconds, 3)}
        if not self.text_ready():
            return {**ready, "text": "building"}
        if self.text_error is not None:
            return {**ready, "text": "failed", "text_error": self.text_error}
        return {**ready, "text": "ready"}

    def refusal(self, name: str, arguments: Mapping[str, Any] | None) -> ToolReply | None:
        """The `indexing` reply for a call that needs the index while it is being
        built; None when the call may run."""
        if self.ready():
            if name not in TEXT_TOOLS or self.text_ready():
                return None
        elif not needs_index(name, arguments):
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
    """Every tool reads the index but `get_page` of an exact slug and `fetch` (one page,
    from the source)."""
    if name == "get_page":
        return bool((arguments or {}).get("fuzzy"))
    return name != "fetch"


async def await_index(
    warmer: IndexWarmer,
    deadline: float = INDEX_WAIT,
    report: Report | None = None,
    stop: CancelCheck = _never,
    calls: Sequence[Call] = (),
) -> bool:
    """Wait until the index is built, and `calls` would all run, at most `deadline`
    seconds (or until `stop()`), sending `report` a progress notification at once and
    every `PROGRESS_EVERY` seconds; True if they may run, False at the deadline (then
    they are refused)."""
    end = time.monotonic() + deadline
    next_report = 0.0
    while warmer.waiting() or any(warmer.waiting(call) for call in calls):
        now = time.monotonic()
        if now >= end or stop():
            return False
        if report is not None and now >= next_report:
            done, total = warmer.progress()
            await report(float(done), None if total is None else float(total), warmer.message())
            next_report = now + PROGRESS_EVERY
        await anyio.sleep(min(POLL_EVERY, max(0.0, end - now)))
    return True
