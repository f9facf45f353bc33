"""How `serve` stops: one stop request that the event loop and the tool threads both see.

SIGINT/SIGTERM arrive in the main thread, which runs the event loop; tool work runs in
worker threads that no asyncio cancellation can interrupt. So a stop is a flag the
walks check (`requested`, a `CancelCheck`: they raise `Cancelled`, and the call is
answered `shutting_down`), an event that wakes every request still waiting for its
answer (`unless_stopping`: HTTP answers it 503 at once and leaves the thread behind),
and a count of busy tool threads, so the process can wait for them, within
`SHUTDOWN_BUDGET`, before it exits.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio

from okf_explorer.core.errors import OkfError
from okf_explorer.server.limits import SHUTDOWN_BUDGET

T = TypeVar("T")


class ServerStopping(OkfError):
    """The request was cut short because the server is stopping."""

    def __init__(self) -> None:
        super().__init__("the server is shutting down")


class Shutdown:
    """The server's stop request, its calls in flight, and whether their replies are out."""

    def __init__(self) -> None:
        self._requested = threading.Event()
        self._lock = threading.RLock()  # a second signal may arrive inside `request`
        self._idle = threading.Condition(self._lock)
        self._busy_calls = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: anyio.Event | None = None
        self._scopes: set[anyio.CancelScope] = set()
        self.reason = ""
        self._said = False
        self.deadline = float("inf")
        """When the process must be gone (`SHUTDOWN_BUDGET` after the request)."""
        self.in_flight = 0
        """Tool calls that were running when the stop was requested."""
        self.settled = threading.Event()
        """Set once the replies to the calls in flight are written (stdio)."""
        self.done = threading.Event()
        """Set once the server has stopped and said so (HTTP)."""

    def bind(self) -> None:
        """Called once in the event loop, so a stop can wake it from a signal handler."""
        self._loop = asyncio.get_running_loop()
        self._event = anyio.Event()
        if self._requested.is_set():
            self._event.set()

    def request(self, reason: str) -> None:
        """Ask everything to stop: safe from a signal handler and from any thread."""
        with self._lock:
            if self._requested.is_set():
                return
            self.reason = reason
            self.deadline = time.monotonic() + SHUTDOWN_BUDGET
            self.in_flight = self._busy_calls
            self._requested.set()
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        """In the event loop: wake `wait` and cancel every `unless_stopping`."""
        if self._event is not None:
            self._event.set()
        for scope in list(self._scopes):
            scope.cancel()

    def requested(self) -> bool:
        """True once a stop was requested (a `CancelCheck` for tool work)."""
        return self._requested.is_set()

    async def unless_stopping(self, work: Callable[[], Awaitable[T]]) -> T:
        """`await work()`, or `ServerStopping` as soon as a stop is requested (the work is
        cancelled then; thread work it waits for must be run with `abandon_on_cancel`).
        Whatever `work` raises propagates unchanged."""
        if self._requested.is_set():
            raise ServerStopping
        with anyio.CancelScope() as scope:
            self._scopes.add(scope)
            try:
                return await work()
            finally:
                self._scopes.discard(scope)
        raise ServerStopping  # only reached when `_wake` cancelled the scope

    async def wait(self) -> None:
        """Until a stop is requested (in the event loop `bind` was called in)."""
        assert self._event is not None, "Shutdown.bind() was not called in this loop"
        await self._event.wait()

    def running(self, work: Callable[[], T], calls: int = 1) -> T:
        """Run `work` (`calls` tool calls, in a worker thread), counted as busy meanwhile."""
        with self._lock:
            self._busy_calls += calls
        try:
            return work()
        finally:
            with self._lock:
                self._busy_calls -= calls
                if not self._busy_calls:
                    self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no tool work runs, at most `timeout` seconds; True if none does."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._busy_calls, max(0.0, timeout))

    def last_word(self) -> str | None:
        """The one line `serve` prints when it stops: to the first caller only (the main
        thread, or the watchdog that ends an overdue stop)."""
        with self._lock:
            if self._said:
                return None
            self._said = True
        line = f"stopped ({self.reason})" if self.reason else "stopped"
        if self.in_flight:
            plural = "call" if self.in_flight == 1 else "calls"
            line += f"; {self.in_flight} {plural} in flight cancelled"
        return line
