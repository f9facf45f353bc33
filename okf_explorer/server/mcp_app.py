"""The MCP SDK side: a low-level `Server` whose tools are `tools.call_tool`.

Replies carry exactly one text content item and no `structuredContent`, like
gbrain. Tool work runs in a worker thread (the Brain is synchronous).

`fast_calls` answers plain `tools/call` requests over HTTP with the same tool
work, without the SDK's per-request machinery (unless `OKF_EXPLORER_PLAIN=1`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext

from okf_explorer import __version__
from okf_explorer.core.errors import OkfError
from okf_explorer.server.limits import TOOL_THREADS
from okf_explorer.server.shapes import ContextCache
from okf_explorer.server.shutdown import Shutdown
from okf_explorer.server.tools import TOOL_SPECS, BrainTools, ToolReply, call_tool

SERVER_NAME = "okf-explorer"
REFRESH_INTERVAL = 2.0


class FreshBrain:
    """Keeps the served index current: `brain.refresh()` before a call when it is stale.

    A folder changes under a running server (gbrain re-imports; we rescan only
    changed files). The index counts as fresh for `interval` seconds, or ten
    times as long as the last refresh took, so a huge corpus is not re-listed
    on every call. A failed refresh keeps the previous index.
    """

    def __init__(self, brain: Any, interval: float = REFRESH_INTERVAL) -> None:
        self.brain = brain
        self._interval = interval
        self._lock = threading.Lock()
        self._last = time.monotonic()
        self._cost = 0.0
        self.contexts = ContextCache()
        self.shutdown = Shutdown()
        self._limiter: anyio.CapacityLimiter | None = None

    def limiter(self) -> anyio.CapacityLimiter:
        """The worker threads tool work runs in, `TOOL_THREADS` at most whichever
        transport asks (made on first use, inside the event loop)."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(TOOL_THREADS)
        return self._limiter

    def current(self) -> BrainTools:
        if self._interval > 0 and self._stale():
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
        _: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        name, arguments = params.name, params.arguments or {}

        def run() -> types.CallToolResult:
            shutdown = fresh.shutdown
            try:
                reply = shutdown.running(
                    lambda: call_tool(
                        fresh.current(),
                        name,
                        arguments,
                        contexts=fresh.contexts,
                        cancel=shutdown.requested,
                    )
                )
            except Exception as error:  # v2 would answer a JSON-RPC error; gbrain says isError
                return error_result(str(error))
            return to_result(reply)

        # Not abandoned on cancellation: a client's `notifications/cancelled` must not
        # leave a thread working beyond `TOOL_THREADS`; a stop reaches the walk itself.
        return await anyio.to_thread.run_sync(run, limiter=fresh.limiter())

    return Server(SERVER_NAME, version=__version__, on_list_tools=list_tools, on_call_tool=call)
