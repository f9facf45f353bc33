"""MCP over stdin/stdout, answering every request even when stdin ends early.

Two things the SDK's own stdio loop (`Server.run`, mcp 2.x) does not do, both
about correctness, not speed (so this is not a `fast_*` path):

* It stops the session as soon as stdin reaches EOF, so a piped client
  (`printf '…' | okf-explorer serve --stdio`) loses the replies to requests
  still running in worker threads. Here stdin's EOF is held back until every
  request read so far has been answered (bounded by `DRAIN_TIMEOUT`).
* It refuses a tool call before `initialize` (-32602). Like the HTTP side
  (stateless, as gbrain), the connection here starts ready; `initialize` is
  still answered.

When the server is asked to stop (`Shutdown`), the calls in flight end with a
`shutting_down` reply; once those are written (or `SHUTDOWN_BUDGET` has passed),
`Shutdown.settled` tells the process it may exit.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from io import TextIOWrapper
from typing import Any

import anyio
from mcp.server import Server
from mcp.server.connection import Connection
from mcp.server.runner import serve_connection
from mcp.server.stdio import stdio_server
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

from okf_explorer.server.limits import SHUTDOWN_BUDGET
from okf_explorer.server.mcp_app import Shutdown

DRAIN_TIMEOUT = 30.0


def _ids(text: str, *, requests: bool) -> list[Any]:
    """JSON-RPC ids in a line: of requests (with a method) or of replies (without)."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return []
    items = value if isinstance(value, list) else [value]
    return [
        item["id"]
        for item in items
        if isinstance(item, dict) and "id" in item and ("method" in item) == requests
    ]


class _Pending:
    """Request ids read from stdin and not yet answered on stdout."""

    def __init__(self) -> None:
        self._open: set[str] = set()
        self._idle = anyio.Event()
        self._idle.set()

    def asked(self, line: str) -> None:
        for rid in _ids(line, requests=True):
            self._open.add(json.dumps(rid))
            self._idle = anyio.Event()

    def answered(self, line: str) -> None:
        for rid in _ids(line, requests=False):
            self._open.discard(json.dumps(rid))
        if not self._open:
            self._idle.set()

    async def drained(self, timeout: float = DRAIN_TIMEOUT) -> None:
        with anyio.move_on_after(timeout):
            await self._idle.wait()


class _Stdin:
    def __init__(self, pending: _Pending) -> None:
        self._pending = pending
        self.wrapper = TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
        self._file = anyio.wrap_file(self.wrapper)

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for line in self._file:
            self._pending.asked(line)
            yield line
        await self._pending.drained()


class _Stdout:
    def __init__(self, pending: _Pending) -> None:
        self._pending = pending
        self.wrapper = TextIOWrapper(sys.stdout.buffer, encoding="utf-8")
        self._file = anyio.wrap_file(self.wrapper)

        self._unflushed: list[str] = []

    async def write(self, text: str) -> None:
        await self._file.write(text)
        self._unflushed.append(text)

    async def flush(self) -> None:
        await self._file.flush()
        written, self._unflushed = self._unflushed, []
        for text in written:
            self._pending.answered(text)


async def _settle_on_stop(shutdown: Shutdown, pending: _Pending) -> None:
    await shutdown.wait()
    await pending.drained(SHUTDOWN_BUDGET)
    shutdown.settled.set()


async def serve_stdio(server: Server[Any], shutdown: Shutdown | None = None) -> None:
    """Run `server` on this process's stdin/stdout until stdin ends and all is answered
    (or, with `shutdown`, until a stop is requested and the calls in flight answered)."""
    pending = _Pending()
    stdin, stdout = _Stdin(pending), _Stdout(pending)
    try:
        async with (
            stdio_server(stdin=stdin, stdout=stdout) as (reader, writer),  # type: ignore[arg-type]
            server.lifespan(server) as state,
            anyio.create_task_group() as watchers,
        ):
            if shutdown is not None:
                shutdown.bind()
                watchers.start_soon(_settle_on_stop, shutdown, pending)
            dispatcher: JSONRPCDispatcher[Any] = JSONRPCDispatcher(
                reader, writer, inline_methods=frozenset({"initialize"})
            )
            connection = Connection.for_loop(dispatcher)
            connection.initialized.set()  # ready before `initialize`, as over HTTP
            options = server.create_initialization_options()
            await serve_connection(
                server,
                dispatcher,
                connection=connection,
                lifespan_state=state,
                init_options=options,
            )
            watchers.cancel_scope.cancel()
    finally:
        # Detach, or collecting the wrappers would close the process's own stdin/stdout.
        stdout.wrapper.flush()
        stdout.wrapper.detach()
        stdin.wrapper.detach()
