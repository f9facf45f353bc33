"""How `serve` runs tool calls: on a brain kept fresh (`FreshBrain`) whose first index
builds behind the handshake (`warmup.IndexWarmer`: a call that needs it waits, with
progress, then runs or is answered `indexing`), in worker threads, until it is asked to
stop (`Shutdown`), and the MCP SDK side that calls them: a low-level `Server` whose
tools are `catalog.call_tool`.

Replies carry exactly one text content item and no `structuredContent`, like
gbrain. Tool work runs in a worker thread (the Brain is synchronous), `TOOL_THREADS`
at most whichever transport asks. `fast_calls` answers plain `tools/call` requests
over HTTP with the same tool work, without the SDK's per-request machinery (unless
`OKF_EXPLORER_PLAIN=1`).

**Stopping.** SIGINT/SIGTERM arrive in the main thread, which runs the event loop; tool
work runs in worker threads that no asyncio cancellation can interrupt. So a stop is a
flag the walks check (`Shutdown.requested`, a `CancelCheck`: they raise `Cancelled`, and
the call is answered `shutting_down`), an event that wakes every request still waiting
for its answer (`unless_stopping`: HTTP answers it 503 at once and leaves the thread
behind), and a count of busy tool threads, so the process can wait for them, within
`SHUTDOWN_BUDGET`, before it exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext

from okf_explorer import __version__
from okf_explorer.core.errors import OkfError
from okf_explorer.server.catalog import TOOL_SPECS, call_tool
from okf_explorer.server.limits import INDEX_WAIT, SHUTDOWN_BUDGET, TOOL_THREADS
from okf_explorer.server.shapes import ContextCache
from okf_explorer.server.tools import GBRAIN_CURRENT, BrainTools, ToolReply
from okf_explorer.server.warmup import IndexWarmer, await_index

SERVER_NAME = "okf-explorer"
REFRESH_INTERVAL = 2.0
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

    def say_last_word(self, say: Callable[[str], None]) -> None:
        """`say` the one line `serve` prints when it stops, once: the first caller says it
        (the main thread, or the watchdog that ends the process), and a second one waits
        until it is said, so the watchdog cannot end the process halfway through."""
        with self._lock:
            if self._said:
                return
            self._said = True
            line = f"stopped ({self.reason})" if self.reason else "stopped"
            if self.in_flight:
                plural = "call" if self.in_flight == 1 else "calls"
                line += f"; {self.in_flight} {plural} in flight cancelled"
            say(line)


class FreshBrain:
    """Keeps the served index current: `brain.refresh()` before a call when it is stale.

    A folder changes under a running server (gbrain re-imports; we rescan only
    changed files). The index counts as fresh for `interval` seconds, or ten
    times as long as the last refresh took, so a huge corpus is not re-listed
    on every call. A failed refresh keeps the previous index.
    """

    def __init__(
        self,
        brain: Any,
        interval: float = REFRESH_INTERVAL,
        announce: Callable[[str], None] | None = None,
        shapes: str = GBRAIN_CURRENT,
        show_private: bool = False,
    ) -> None:
        self.brain = brain
        self._announce = announce
        self.shapes = shapes
        """Whose gbrain shapes the tools give (`tools.GBRAIN_SHAPES`)."""
        self.show_private = show_private
        """Whether callers see pages marked `visibility: private` (`server.tools`)."""
        self._interval = interval
        self._lock = threading.Lock()
        self._last = time.monotonic()
        self._cost = 0.0
        self.contexts = ContextCache()
        self.shutdown = Shutdown()
        self.warmer = IndexWarmer(brain, cancel=self.shutdown.requested)
        """The index built behind the handshake (`server.warmup`)."""
        self._limiter: anyio.CapacityLimiter | None = None

    def start_indexing(self) -> None:
        """Build the index behind the handshake (once the transport is up, so the build
        does not slow it down); `announce` gets one line when it is done."""
        self.warmer.start(self._indexed)

    def _indexed(self, warmer: IndexWarmer) -> None:
        self._last = time.monotonic()
        if self._announce is None:
            return
        if warmer.error is not None:
            self._announce(f"cannot index the brain yet: {warmer.error}")
        else:
            said = f"indexed {warmer.pages} pages in {warmer.seconds:.1f} s"
            self._announce(said + self._private_said())

    def _private_said(self) -> str:
        """What the index line adds of the pages marked `visibility: private`, if any: the
        operator learns that callers do not see them, and how to serve them."""
        private = getattr(self.brain, "private_pages", None)
        count = len(private()) if private is not None else 0
        if not count:
            return ""
        pages = "1 private page" if count == 1 else f"{count:,} private pages"
        if self.show_private:
            return f" · {pages} served (--show-private)"
        return f" · {pages} kept from callers (--show-private serves them)"

    def limiter(self) -> anyio.CapacityLimiter:
        """The worker threads tool work runs in, `TOOL_THREADS` at most whichever
        transport asks (made on first use, inside the event loop)."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(TOOL_THREADS)
        return self._limiter

    def current(self) -> BrainTools:
        """The brain, refreshed first when stale (never while the first index builds)."""
        if self._interval > 0 and self.warmer.ready() and self._stale():
            with self._lock:
                if self._stale():
                    started = time.monotonic()
                    with contextlib.suppress(OkfError):
                        self.brain.refresh()
                    self._last = time.monotonic()
                    self._cost = self._last - started
        return self.brain

    def _stale(self) -> bool:
        return time.monotonic() - self._last >= max(self._interval, 10 * self._cost)


def tool_list() -> list[types.Tool]:
    return [
        types.Tool(name=name, description=spec["description"], input_schema=spec["inputSchema"])
        for name, spec in TOOL_SPECS.items()
    ]


def reply_meta(reply: ToolReply) -> dict[str, Any] | None:
    """`result._meta`: gbrain's `warnings`, and `truncated` when rows were cut (both are
    extra fields a gbrain client ignores)."""
    meta: dict[str, Any] = {}
    if reply.warnings:
        meta["warnings"] = [dict(w) for w in reply.warnings]
    if reply.truncated:
        meta["truncated"] = True
    return meta or None


def to_result(reply: ToolReply) -> types.CallToolResult:
    meta = reply_meta(reply)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=reply.text)],
        is_error=reply.is_error,
        _meta=meta,
    )


def error_result(text: str) -> types.CallToolResult:
    """What gbrain answers for a tool that failed unexpectedly: the text, `isError`."""
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def build_mcp_server(fresh: FreshBrain) -> Server[Any]:
    """The SDK server answering `tools/list` and `tools/call` over `fresh.brain`."""

    async def list_tools(
        _: ServerRequestContext[Any], __: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list())

    async def call(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        name, arguments = params.name, params.arguments or {}
        shutdown = fresh.shutdown
        if fresh.warmer.refusal(name, arguments) is not None:
            report = ctx.session.report_progress  # a no-op unless the client sent a token
            await await_index(
                fresh.warmer, INDEX_WAIT, report, shutdown.requested, calls=[(name, arguments)]
            )

        def run() -> types.CallToolResult:
            try:
                reply = fresh.warmer.refusal(name, arguments) or shutdown.running(
                    lambda: call_tool(
                        fresh.current(),
                        name,
                        arguments,
                        contexts=fresh.contexts,
                        cancel=shutdown.requested,
                        shapes=fresh.shapes,
                        show_private=fresh.show_private,
                    )
                )
            except Exception as error:  # v2 would answer a JSON-RPC error; gbrain says isError
                return error_result(str(error))
            return to_result(reply)

        # Not abandoned on cancellation: a client's `notifications/cancelled` must not
        # leave a thread working beyond `TOOL_THREADS`; a stop reaches the walk itself.
        return await anyio.to_thread.run_sync(run, limiter=fresh.limiter())

    return Server(SERVER_NAME, version=__version__, on_list_tools=list_tools, on_call_tool=call)
