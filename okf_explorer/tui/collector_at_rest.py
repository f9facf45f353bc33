"""Full collections while the person reads, not while a key is handled (a fast path).

Python's cyclic collector makes a full collection every tenth partial one. In the explorer
that is every six or seven keys, and each walks every object Textual keeps for drawing
(60-120k on the sample brain: strips, their caches, styles), so the key it lands on
takes 20-80 ms longer. Once no key or mouse event has come for `REST` seconds and the
work a key started has ended (the person is reading), the full collection runs if a third
of the way to due or more, so Python's own rarely falls inside a key. A key whose work
outlasts `REST` (the first `/` on a 14k-page wiki reads its names in a thread for 0.1 s,
then lists them) waits for it: collected at `REST` alone, 56 ms of collection fell
between the names read and the list shown. Work still running `REST_MOST` seconds after
the last key (a text index filling for seconds) no longer puts it off; the file
watcher, which runs for good, never does. Keys pressed without a pause, as a key held
down, meet Python's own schedule, unchanged. `OKF_EXPLORER_PLAIN=1` leaves the collector
to Python alone. Measured by `tests/bench/bench_keys.py --pace 0.4` (figures in
`core.fast_paths.FAST_PATHS`). What the walk covers is kept small by `tui.drawn_lines`.
"""

from __future__ import annotations

import asyncio
import gc
import time

from textual import events
from textual.app import App

from okf_explorer.core import fast_paths
from okf_explorer.tui.state.live_reload import WATCH_GROUP

REST = 0.3
"""Seconds without a key or a mouse event after which the collection runs."""
EARLY = 3
"""Partial collections since the last full one that make a full one worth running at
rest (Python's own runs after 10)."""
REST_MOST = 2.0
"""Seconds after the last key beyond which work still running no longer puts the
collection off."""


class CollectorAtRest:
    """Mixed into the app: every key or mouse event puts the collection off until the
    next rest."""

    _waiting: asyncio.TimerHandle | None = None
    _input_at = 0.0

    def input_seen(self) -> None:
        """A key or a mouse event: collect once `REST` seconds pass without another."""
        self._input_at = time.monotonic()
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None
        if fast_paths.enabled():
            self._waiting = asyncio.get_running_loop().call_later(REST, self.collect_if_due)

    def collect_if_due(self) -> None:
        """At rest: a full collection, if `EARLY` partial ones have run since the last
        and nothing has paused the collector (an index build in a thread); while the
        last key's work still runs, `REST` seconds later (up to `REST_MOST`)."""
        self._waiting = None
        if not (gc.isenabled() and gc.get_count()[2] >= EARLY):
            return
        if self.work_under_way() and time.monotonic() - self._input_at < REST_MOST:
            self._waiting = asyncio.get_running_loop().call_later(REST, self.collect_if_due)
            return
        gc.collect()

    def resting(self, seconds: float) -> bool:
        """Whether no key or mouse event has come for `seconds` and no work a key started
        is under way: the person is reading (other work at rest waits for it too)."""
        return time.monotonic() - self._input_at >= seconds and not self.work_under_way()

    def work_under_way(self) -> bool:
        """Whether a worker runs or waits to (a page read, a palette's hits), the file
        watcher not counted: it runs for good."""
        workers = self.workers if isinstance(self, App) else ()
        return any(not worker.is_finished and worker.group != WATCH_GROUP for worker in workers)

    def on_unmount(self) -> None:
        """The app ends: nothing left to collect for it."""
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseEvent)):
            self.input_seen()
        await super().on_event(event)  # type: ignore[misc]
