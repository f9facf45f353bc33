"""The MCP SDK side: a low-level `Server` whose tools are `tools.call_tool`.

Replies carry exactly one text content item and no `structuredContent`, like
gbrain. Tool work runs in a worker thread (the Brain is synchronous).

`call_tools` is the same tool work for several calls at once, as the JSON-RPC
`result` objects the SDK would send; `http_app` uses it for plain `tools/call`
requests (see there why).
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server

from okf_explorer import __version__
from okf_explorer.core.errors import OkfError
from okf_explorer.server.limits import TOOL_THREADS
from okf_explorer.server.schemas import TOOL_SPECS
from okf_explorer.server.shapes import ContextCache
from okf_explorer.server.tools import BrainTools, ToolReply, call_tool

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
        types.Tool(name=name, description=spec["description"], inputSchema=spec["inputSchema"])
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
        isError=reply.is_error,
        _meta=meta,
    )


def result_object(reply: ToolReply) -> dict[str, Any]:
    """The `result` of a `tools/call` as the SDK serialises `to_result(reply)`
    (`model_dump(by_alias=True, mode="json", exclude_none=True)`), built directly:
    the pydantic round trip costs as much as a small tool call."""
    result: dict[str, Any] = {
        "content": [{"type": "text", "text": reply.text}],
        "isError": reply.is_error,
    }
    meta = reply_meta(reply)
    if meta:
        result = {"_meta": meta, **result}
    return result


def call_tools(fresh: FreshBrain, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Run several tool calls in order (in the calling thread): their `result` objects.

    `call_tool` never raises; should the freshness check fail unexpectedly, the call
    gets the result the SDK handler makes of an exception (its text, `isError`).
    """
    results = []
    for name, arguments in calls:
        try:
            reply = call_tool(fresh.current(), name, arguments, contexts=fresh.contexts)
        except Exception as error:  # the SDK handler's own catch-all, reproduced
            results.append({"content": [{"type": "text", "text": str(error)}], "isError": True})
            continue
        results.append(result_object(reply))
    return results


def build_mcp_server(fresh: FreshBrain) -> Server[Any, Any]:
    """The SDK server answering `tools/list` and `tools/call` over `fresh.brain`."""
    server: Server[Any, Any] = Server(SERVER_NAME, version=__version__)

    @server.list_tools()
    async def _list_tools() -> list[types.Tool]:
        return tool_list()

    @server.call_tool(validate_input=False)
    async def _call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        def run() -> ToolReply:
            return call_tool(fresh.current(), name, arguments, contexts=fresh.contexts)

        return to_result(await anyio.to_thread.run_sync(run, limiter=fresh.limiter()))

    return server
